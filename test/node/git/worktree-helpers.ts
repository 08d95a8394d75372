/**
 * Shared setup of the ref and working-tree tests (issue 15): a repository
 * made on disk with the REAL git CLI, copied byte for byte (with `.git`)
 * into a Workspace on node:sqlite, a git client over it, and snapshots of
 * either side's working tree to compare the two after the same operation.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, lstatSync, readlinkSync, symlinkSync, writeFileSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";
import type { GitClient } from "../../../src/git/types.js";

/** The identity used on both sides. */
export const IDENTITY = { name: "Ada Lovelace", email: "ada@example.com" };
/** A fixed commit time: 2024-01-02T03:04:05Z. */
export const TIME = 1704164645;

const scratch: string[] = [];

/** A fresh temporary directory (removed by {@link cleanupScratch}). */
export function tempDir(prefix = "wsgit-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** Removes every directory {@link tempDir} made. */
export function cleanupScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * The environment that gives the real git {@link IDENTITY} as author and
 * committer and the given `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE`
 * (default {@link TIME}, `+0000`).
 */
export function identityEnv(dates: { author: string; committer: string } = { author: `@${TIME} +0000`, committer: `@${TIME} +0000` }): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    GIT_AUTHOR_DATE: dates.author,
    GIT_COMMITTER_DATE: dates.committer,
  };
}

/** The real git in `cwd` with the given `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE` (e.g. `@1704164645 +0200`), no global or system config; returns stdout. */
export function gitDated(cwd: string, dates: { author: string; committer: string }, ...args: string[]): string {
  return execFileSync("/usr/bin/git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      ...identityEnv(dates),
      LC_ALL: "C",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Runs the real git in `cwd` with a fixed identity and dates ({@link TIME}), no global or system config; returns stdout. */
export function realGit(cwd: string, ...args: string[]): string {
  return gitDated(cwd, { author: `@${TIME} +0000`, committer: `@${TIME} +0000` }, ...args);
}

/** Like {@link realGit}, but returns `{ status, stdout, stderr }` instead of throwing. */
export function realGitResult(cwd: string, ...args: string[]): { status: number; stdout: string; stderr: string } {
  try {
    return { status: 0, stdout: realGit(cwd, ...args), stderr: "" };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, stdout: String(e.stdout), stderr: String(e.stderr) };
  }
}

/** Writes files under `root`: string/bytes content, `{ exec }` for mode 755, `{ link }` for a symlink. */
export function writeTree(root: string, files: Record<string, string | Uint8Array | { exec: string } | { link: string }>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(join(full, ".."), { recursive: true });
    rmSync(full, { force: true });
    if (typeof content === "object" && "link" in content) symlinkSync(content.link, full);
    else if (typeof content === "object" && "exec" in content) {
      writeFileSync(full, content.exec);
      chmodSync(full, 0o755);
    } else writeFileSync(full, content);
  }
}

/** A repository made by the real git: `git init -b main`, then `setup(dir)`. */
export function realRepo(setup: (dir: string) => void): string {
  const dir = tempDir();
  realGit(dir, "init", "-q", "-b", "main");
  setup(dir);
  return dir;
}

/**
 * {@link realRepo} with `files` written ({@link writeTree}), added and
 * committed as `message` on main; `then` runs on the directory after that
 * first commit.
 */
export function committedRepo(files: Parameters<typeof writeTree>[1], message = "base", then?: (dir: string) => void): string {
  return realRepo((d) => {
    writeTree(d, files);
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", message);
    then?.(d);
  });
}

/** Copies a directory from disk into the Workspace at `to` (bytes, exec bits, symlinks; `.git` included). */
export async function importDir(ws: Workspace, from: string, to: string): Promise<void> {
  await ws.fs.mkdir(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dst = to === "/" ? `/${name}` : `${to}/${name}`;
    const stat = lstatSync(src);
    if (stat.isSymbolicLink()) await ws.fs.symlink(readlinkSync(src), dst);
    else if (stat.isDirectory()) await importDir(ws, src, dst);
    else await ws.fs.writeFile(dst, readFileSync(src), { mode: stat.mode & 0o111 ? 0o755 : 0o644 });
  }
}

/** Copies a Workspace directory (with `.git`) to a new directory on disk, for the real git to read. */
export async function exportDir(ws: Workspace, from: string, to = tempDir()): Promise<string> {
  mkdirSync(to, { recursive: true });
  for (const entry of await ws.fs.readdir(from)) {
    const src = from === "/" ? `/${entry.name}` : `${from}/${entry.name}`;
    const dst = join(to, entry.name);
    if (entry.isSymbolicLink) symlinkSync(await ws.fs.readlink(src), dst);
    else if (entry.isDirectory) await exportDir(ws, src, dst);
    else {
      const stat = await ws.fs.stat(src);
      writeFileSync(dst, await wsBytes(ws, src));
      chmodSync(dst, stat.mode & 0o111 ? 0o755 : 0o644);
    }
  }
  return to;
}

/** The bytes of a Workspace file. */
export async function wsBytes(ws: Workspace, path: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer());
}

/** `path → "<kind> <hex of bytes or link target>"` of a disk working tree (`.git` left out); kinds `file`, `exec`, `link`, `dir` (empty directories only). */
export function diskSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const names = readdirSync(join(root, rel)).sort();
    if (names.length === 0 && rel !== "") out[rel] = "dir";
    for (const name of names) {
      if (rel === "" && name === ".git") continue;
      const path = rel === "" ? name : `${rel}/${name}`;
      const stat = lstatSync(join(root, path));
      if (stat.isSymbolicLink()) out[path] = `link ${readlinkSync(join(root, path))}`;
      else if (stat.isDirectory()) walk(path);
      else out[path] = `${stat.mode & 0o111 ? "exec" : "file"} ${readFileSync(join(root, path)).toString("hex")}`;
    }
  };
  walk("");
  return out;
}

/** The same snapshot of a Workspace working tree at `dir`. */
export async function wsSnapshot(ws: Workspace, dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    const abs = rel === "" ? dir : `${dir === "/" ? "" : dir}/${rel}`;
    const entries = await ws.fs.readdir(abs);
    if (entries.length === 0 && rel !== "") out[rel] = "dir";
    for (const entry of entries) {
      if (rel === "" && entry.name === ".git") continue;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = `${dir === "/" ? "" : dir}/${path}`;
      if (entry.isSymbolicLink) out[path] = `link ${await ws.fs.readlink(full)}`;
      else if (entry.isDirectory) await walk(path);
      else {
        const stat = await ws.fs.stat(full);
        out[path] = `${stat.mode & 0o111 ? "exec" : "file"} ${Buffer.from(await wsBytes(ws, full)).toString("hex")}`;
      }
    }
  };
  await walk("");
  return out;
}

/** A Workspace on in-memory node:sqlite with a git client (the built-in fs bridge) and the test identity as default. */
export function newWorkspace(): { ws: Workspace; git: GitClient } {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: IDENTITY });
  return { ws, git };
}

/** A Workspace holding a copy (at `/repo`) of the real-git repository `disk`. */
export async function workspaceCopy(disk: string, at = "/repo"): Promise<{ ws: Workspace; git: GitClient; dir: string }> {
  const { ws, git } = newWorkspace();
  await importDir(ws, disk, at);
  return { ws, git, dir: at };
}

/** A copy on disk of a real-git repository (working tree and `.git`), for running the same operation twice. */
export function diskCopy(disk: string): string {
  const to = tempDir();
  execFileSync("cp", ["-a", `${disk}/.`, to]);
  return to;
}

/** The real git's view of a Workspace repository: its `status --porcelain` after exporting it to disk. */
export async function realStatusOf(ws: Workspace, dir: string): Promise<string> {
  const disk = await exportDir(ws, dir);
  return realGit(disk, "status", "--porcelain=v1", "--untracked-files=all");
}

/** Asserts-friendly error capture: the rejection of `promise`, or `undefined` when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<{ name: string; code: string; message: string } | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    const e = error as { name: string; code: string; message: string };
    return { name: e.name, code: e.code, message: e.message };
  }
}
