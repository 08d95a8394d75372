/**
 * The tests' side of the loopback git server (`git-server.ts`), over HTTP
 * only, so it works on Node and inside workerd alike.
 *
 * @example
 * ```ts
 * const server = gitServer();                 // inject("gitServer"), or throws why it is missing
 * const { url, name } = await forkRepo();     // a fresh copy of fixture.git: http://127.0.0.1:<port>/git/<name>.git
 * const { stdout } = await serverGit(name, ["log", "--format=%H %s", "main"]);
 * ```
 *
 * @module
 */
import { inject } from "vitest";
import type { GitServerInfo } from "./git-server.js";

export type { FixtureFile, FixtureManifest, GitServerInfo } from "./git-server.js";

/** The running server (from the global setup). @throws when it did not start. */
export function gitServer(): GitServerInfo {
  const info = inject("gitServer");
  if (!info) throw new Error(inject("gitServerError") || "the loopback git server is not configured (vitest globalSetup)");
  return info;
}

/** `<baseUrl>/<mode>/<name>.git`. */
export function repoUrl(name: string, mode: "git" | "hang" | "truncated" | "stall" = "git"): string {
  return `${gitServer().baseUrl}/${mode}/${name}.git`;
}

async function post<T>(route: string, body: unknown): Promise<T> {
  const res = await fetch(`${gitServer().baseUrl}/admin/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const value = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`git server /admin/${route}: ${value.error ?? res.status}`);
  return value;
}

/** A fresh bare copy of `from` (default `fixture`) named `to` (default unique). */
export function forkRepo(from = "fixture", to?: string): Promise<{ name: string; url: string }> {
  return post("fork", { from, to });
}

/** Output of the real `git` run on the server's repository `<repo>.git`. */
export interface ServerGitResult {
  code: number;
  /** stdout as UTF-8. */
  stdout: string;
  /** stdout's exact bytes. */
  bytes: Uint8Array;
  stderr: string;
}

/** Runs the real `git <args>` (no shell) inside the server's bare repository `<repo>.git`. */
export async function serverGit(repo: string, args: string[], stdin?: Uint8Array): Promise<ServerGitResult> {
  const body: Record<string, unknown> = { repo, args };
  if (stdin) body.stdin = toBase64(stdin);
  const r = await post<{ code: number; stdout: string; stdoutBase64: string; stderr: string }>("git", body);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, bytes: fromBase64(r.stdoutBase64) };
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * `""` when `a` and `b` hold the same bytes, else where they differ.
 * (vitest's `toEqual` on megabyte arrays takes seconds; use
 * `expect(bytesDiff(a, b)).toBe("")`.)
 */
export function bytesDiff(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return `first difference at byte ${i}: ${a[i]} vs ${b[i]} (lengths ${a.length} and ${b.length})`;
  }
  return a.length === b.length ? "" : `lengths differ: ${a.length} vs ${b.length}`;
}
