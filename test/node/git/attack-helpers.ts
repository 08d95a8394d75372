/**
 * Shared tools of the attack tests (issue 15 "Bad input", issue 20): raw
 * git objects written straight into a Workspace's `.git` (so a test can
 * hold trees the real git would never make), and a snapshot of everything
 * outside a repository, to prove an operation wrote nothing there.
 */
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import type { Workspace } from "../../../src/workspace.js";
import { wsBytes } from "./worktree-helpers.js";

/** Writes a loose object of `type` with `body` into `<dir>/.git/objects`; returns its oid. */
export async function writeLoose(ws: Workspace, dir: string, type: string, body: Uint8Array | string): Promise<string> {
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  const raw = Buffer.concat([Buffer.from(`${type} ${bytes.length}\0`), bytes]);
  const oid = createHash("sha1").update(raw).digest("hex");
  await ws.fs.mkdir(`${dir}/.git/objects/${oid.slice(0, 2)}`, { recursive: true });
  await ws.fs.writeFile(`${dir}/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`, deflateSync(raw));
  return oid;
}

/** One raw tree entry: `mode`, `name` (bytes as given, unchecked), `oid`. */
export interface RawEntry {
  mode: string;
  name: string | Uint8Array;
  oid: string;
}

/** The body of a tree object holding `entries` in the given order (no sorting, no checks). */
export function treeBody(entries: RawEntry[]): Buffer {
  return Buffer.concat(
    entries.flatMap((e) => [Buffer.from(`${e.mode} `), Buffer.from(e.name), Buffer.from([0]), Buffer.from(e.oid, "hex")]),
  );
}

/** Writes a tree of raw entries and a commit of it (parent optional) and points `refs/heads/<branch>` at it; returns the commit oid. */
export async function writeCommit(ws: Workspace, dir: string, branch: string, entries: RawEntry[], parent?: string): Promise<string> {
  const tree = await writeLoose(ws, dir, "tree", treeBody(entries));
  const who = "Eve <eve@example.com> 1704164645 +0000";
  const commit = await writeLoose(ws, dir, "commit", `tree ${tree}\n${parent ? `parent ${parent}\n` : ""}author ${who}\ncommitter ${who}\n\nevil\n`);
  await ws.fs.mkdir(`${dir}/.git/refs/heads`, { recursive: true });
  await ws.fs.writeFile(`${dir}/.git/refs/heads/${branch}`, `${commit}\n`);
  return commit;
}

/** `path → kind + bytes` of every entry of the Workspace outside `except` (a directory), including `except/.git` itself. */
export async function wsEverything(ws: Workspace, root = "/"): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (abs: string) => {
    for (const entry of await ws.fs.readdir(abs)) {
      const full = abs === "/" ? `/${entry.name}` : `${abs}/${entry.name}`;
      if (entry.isSymbolicLink) out[full] = `link ${await ws.fs.readlink(full)}`;
      else if (entry.isDirectory) {
        out[full] = "dir";
        await walk(full);
      } else out[full] = `file ${Buffer.from(await wsBytes(ws, full)).toString("hex")}`;
    }
  };
  await walk(root);
  return out;
}

/** Resolves `promise` or rejects after `ms` with a "hung" error (so a hang fails the test with a message, not a vitest timeout). */
export function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`hung for ${ms} ms`)), ms))]);
}

/** The rejection of `promise` as `{ name, code, message, ctor }` (undefined when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<{ name: string; code: unknown; message: string; isGitError: boolean } | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    const e = error as Error & { code?: unknown };
    const { GitError } = await import("../../../src/git/errors.js");
    return { name: e.name, code: e.code, message: e.message, isGitError: e instanceof GitError };
  }
}
