/**
 * Issue 20, nineteenth attack run: `diffSummary` (src/git/ops/diff.ts counts) reads the files it compares with 8
 * workers at once, each holding both sides of its file whole (readSide: the blob from the object store, and the
 * working-tree file read whole and copied through a Response) — a bound on the NUMBER of files, not their bytes:
 * 8 × 2 sides × GIT_MAX_OBJECT_BYTES (64 MiB) may be held together. `diff` builds its patch one file after another
 * (filePatch, one file at a time); only the counts run in parallel.
 * Tried: a Workspace repository with 8 committed binary files of 12 MiB in one directory (a NUL first byte, so no
 * line search runs: git's `buffer_is_binary`), each rewritten with other bytes; `git.diffSummary({ dir })` with heap
 * + array buffers sampled (attack6 `peak`). The eighteenth run's probe saw 253 MiB for the same shape of text files
 * (then with the walk's hashing too); this is what is left after the walk was made sequential.
 * Held: `git.status` of the same files grows 24 MiB (one file at a time); the counts are right (binary, both sizes).
 * Found (medium: a Durable Object has 128 MB; `diffSummary` — what the diff --stat / --numstat of a change to a
 * directory of large files costs — ends it): 8 text files of 12 MiB grew 205 MiB in 10.4 s (1 probe run); the
 * binary files of the test below 337 and 253 MiB (2 of 2 runs), for 96 MiB of changed files, where one file at a time
 * holds 24 MiB (control probe, the same binary files: 1 file +1 MiB, 2 files +45 MiB, 8 files +276 MiB).
 * Suggested fix: bound the bytes the workers hold rather than their number — take a file's two blob sizes (stat /
 * object header) before reading it and wait while the sum of files being read would pass a bound (e.g.
 * GIT_MAX_OBJECT_BYTES); or count one file at a time as `diff` does.
 * Partly fixed (then still failing its 64 MiB bound): counts (src/git/ops/diff.ts) now reads and counts one file after another, as `diff`'s
 * patchText does, so one file's two sides are held at a time (a blob's size is not known before it is read, so a byte
 * bound over parallel workers could not be kept); the old side is read with readObject (no extra copy) and the new
 * side with readStreamBytes. The test still sees 70 and 82 MiB (2 of 2 runs; 1 file alone: +34 MiB): what is left is
 * transient — the walk hashing each file, isomorphic-git's inflate + Buffer copy — collected when V8 gets to it.
 * Fixed (lead): the test asserts the cause and a bound that garbage V8 has not collected yet cannot cross either way:
 * at most one working-tree file is being read at any time during diffSummary (before: 8), and peak growth (heap +
 * array buffers, uncollected garbage included) stays under 160 MiB (before: 253–337 MiB; now 70–82 MiB — a 64 MiB
 * bound on an uncollected peak would pass or fail by when V8 collects).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { countOpenReads, peak } from "../attack6/memory.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;

it("diffSummary of 8 rewritten 12 MiB binary files reads one working-tree file at a time and grows memory by under 160 MiB", { timeout: 60_000 }, async () => {
  const n = 8;
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  const bytes = (fill: number) => {
    const b = new Uint8Array(12 * MiB).fill(fill);
    b[0] = 0;
    return b;
  };
  for (let i = 0; i < n; i++) await ws.fs.writeFile(`/r/f${i}.bin`, bytes(0x41 + i));
  await git.add({ dir: "/r", paths: ["."] });
  await git.commit({ dir: "/r", message: "files", author: { name: "A", email: "a@b.c" } });
  for (let i = 0; i < n; i++) await ws.fs.writeFile(`/r/f${i}.bin`, bytes(0x61 + i));
  // Working-tree reads open at once: a readFile of /r/f*.bin counts from its call until its stream ends.
  const reads = countOpenReads(ws, /^\/r\/f\d\.bin$/);
  const { value, grew } = await peak(() => git.diffSummary({ dir: "/r" }));
  reads.restore();
  expect(value.map((e) => [e.path, e.binary])).toEqual(
    Array.from({ length: n }, (_, i) => [`f${i}.bin`, { oldBytes: 12 * MiB, newBytes: 12 * MiB }]),
  );
  expect(reads.most, "working-tree files being read at once").toBe(1);
  expect(Math.round(grew / MiB), "diffSummary: heap + array buffers grew (MiB)").toBeLessThan(160);
});
