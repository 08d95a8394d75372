/**
 * Issue 20, eighteenth attack run: the working-tree walk of `status`, `diff` (to the working tree) and the other
 * walkWorktree users (src/git/ops/walk.ts) runs isomorphic-git's `walk` with its default `iterate` — Promise.all
 * over every child of a directory — so each tracked file whose stat data no longer matches the index is read
 * WHOLE and hashed (WORKDIR oid(): the file, then a "blob <size>\0" + content copy) at the same time as every other
 * such file of its directory. Nothing bounds the sum: GIT_MAX_PACK_FILE_BYTES / GIT_PACK_CACHE_BYTES bound packs,
 * not the working tree.
 * Tried: a Workspace repository (git.init/add/commit) with 8 files of 12 MiB in one directory, then each file
 * written again with the same bytes (its mtime changes: what a checkout of another branch and back, a tool's
 * rewrite, a copy or an import does); `git.status({ dir })` with heap + array buffers sampled (attack6 `peak`: the
 * reads are asynchronous, so the sampler sees them). Also tried (probe): a real-git repository of 8 commits each
 * adding a 12 MiB random file, copied into the Workspace (importDir: every file's stat data new): the first clean
 * `status` grew 252 MiB in 7.3 s (`diffSummary` over the same commits after it: 36 MiB; `log`: 0). Same shape
 * (probe, 8 × 12 MiB files in one directory): `git.add({ paths: ["."] })` grew 192 MiB, and `diffSummary()` of the
 * 8 files rewritten with other bytes 253 MiB (the walk's hashing, then counts() reading 8 files' two sides at once).
 * Held: the answer is right (clean: no entries).
 * Found (medium: a Durable Object has 128 MB; an ordinary repository with a directory of a few large files — assets,
 * datasets, fixtures — after any touch of them ends it at its first `git status`): grew 168–180 MiB for 96 MiB of
 * files (2 of 2 runs); it grows with the directory's total size, not the largest file's. The concurrency is the
 * cause: the same 8 files read and hashed one after another grew 24 MiB, all at once 95 MiB (probe, same sampler).
 * Suggested fix: pass walk an `iterate` that maps a directory's children a few at a time (or in sequence, as real
 * git does), or bound the bytes being hashed at once (a semaphore on file sizes, e.g. GIT_MAX_OBJECT_BYTES in all),
 * and hash a file by streaming (the "blob <size>\0" header then the file's chunks) instead of a joined copy.
 * Fixed: walkWorktree passes walk an `iterate` that walks a directory's children one after another (walkInSequence,
 * src/git/ops/walk.ts), so one working-tree file is read and hashed at a time.
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;

it("a clean git status of a directory of 8 rewritten 12 MiB files grows memory by under 64 MiB", { timeout: 60_000 }, async () => {
  const n = 8;
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  const bytes = (i: number) => new Uint8Array(12 * MiB).fill(0x41 + i);
  for (let i = 0; i < n; i++) await ws.fs.writeFile(`/r/f${i}.bin`, bytes(i));
  await git.add({ dir: "/r", paths: ["."] });
  await git.commit({ dir: "/r", message: "files", author: { name: "A", email: "a@b.c" } });
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < n; i++) await ws.fs.writeFile(`/r/f${i}.bin`, bytes(i));
  const { value, grew } = await peak(() => git.status({ dir: "/r" }));
  expect(value).toEqual([]);
  expect(Math.round(grew / MiB), "git status: heap + array buffers grew (MiB)").toBeLessThan(64);
});
