/**
 * Issue 20, sixteenth attack run: the git client's object cache (src/git/client.ts: "every call then shares
 * them and one object cache"; isomorphic-git's `readObjectPacked` keeps each pack it reads in it, whole) keeps
 * every pack file any operation read, for as long as the client lives — a Durable Object's Workspace's life.
 * Tried: N repositories made by the real git, each one commit of a 12 MiB random file, `git gc` (so the objects
 * are in one 12 MiB pack, under GIT_MAX_PACK_BYTES as a clone of it would be), copied into one Workspace; one
 * `workspace.git.log` in each, one after another (nothing concurrent), with the memory still in use after a
 * full garbage collection measured after each (heap + array buffers, gc via --expose-gc). Held: each log is
 * right (one commit).
 * Found (medium; a Durable Object has 128 MB; GIT_MAX_PACK_BYTES bounds one download, GIT_MAX_OBJECT_BYTES one
 * object, nothing bounds what the client keeps): each log leaves its repository's pack in memory — +12 MiB
 * retained per repository, 6 repositories → [11, 23, 35, 47, 59, 71] MiB retained after each log (3 of 3 runs), never
 * released; ten such clones (each within every bound) and a `git log` in each would hold ~120 MiB for good.
 * The same holds for one repository that fetched many times (a pack per fetch, all kept once read).
 * Suggested fix: bound the cache — keep packs in an LRU of at most a documented number of bytes (e.g.
 * GIT_MAX_PACK_BYTES) and drop the rest (they are read again when needed), or give each operation its own cache
 * (isomorphic-git's `cache` argument) and keep across calls only what is small (parsed indexes, bounded).
 * Fixed: each operation has its own pack cache (src/git/operation.ts operationCache, made per call in
 * src/git/client.ts #run): isomorphic-git's PackfileCache is the operation's and goes with it; the client's cache
 * keeps only the parsed index (checked against the file's stats before each use).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, importDir, newWorkspace, realGit } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const MiB = 1024 * 1024;
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** Heap + array buffers in use after a full collection. */
function used(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

it("logs in six repositories of a 12 MiB pack each, one after another, leave under 32 MiB behind", { timeout: 60_000 }, async () => {
  const n = 6;
  const { ws, git } = newWorkspace();
  // A small repository first: git's modules are loaded before the measure starts.
  await importDir(ws, committedRepo({ "a.txt": "a\n" }, "base", (d) => realGit(d, "gc", "-q")), "/warm");
  expect((await git.log({ dir: "/warm" })).length).toBe(1);
  for (let i = 0; i < n; i++) {
    await importDir(ws, committedRepo({ "big.bin": randomBytes(12 * MiB) }, "base", (d) => realGit(d, "gc", "-q")), `/r${i}`);
  }
  const base = used();
  const retained: number[] = [];
  for (let i = 0; i < n; i++) {
    expect((await git.log({ dir: `/r${i}` })).map((c) => c.message)).toEqual(["base\n"]);
    retained.push(Math.round((used() - base) / MiB));
  }
  // Today: [12, 24, 36, 48, 60, 72] (± 2) — every pack read stays.
  expect(retained[n - 1]).toBeLessThan(32);
});
