/**
 * Issue 20, eighteenth attack run: hunks() (src/git/ops/diff.ts) trims the common head and tail of the two sides
 * and skips the Myers search when editLowerBound passes GIT_DIFF_MAX_EDIT_LENGTH (2c9c031) — but when the change is
 * SMALL it still hands both WHOLE texts to the `diff` package's structuredPatch, which splits every line of each side
 * into strings and change objects (its own comment: "about 200 bytes a line"). The head/tail it just measured are
 * not used to narrow the search, so the cost follows the file's line count, not the change.
 * Tried: a Workspace repository (git.init/add/commit) with one file of 1,000,000 lines "x\n" (2 MiB; a blob is
 * allowed up to GIT_MAX_OBJECT_BYTES = 64 MiB), then one middle line rewritten "y\n" in the working tree;
 * `git.diffSummary`, `git.diff` and `git.cli(["diff", "--stat"])` (the shell's and ws:git's `git diff --stat`).
 * The process's peak RSS (resourceUsage().maxRSS) read before and after each call (the search is one synchronous
 * call, so a 5 ms heap sampler sees none of it).
 * Also tried (probe, the `diff` package alone): structuredPatch on 1 M / 2 M / 4 M lines grew peak RSS by 246 / 431 /
 * 844 MiB and took 4.5 / 7.9 / 11.1 s; through git.diff, 4 M lines (an 8 MiB file): peak RSS 195 → 942 MiB, 18.1 s.
 * Held: the counts are exact (+1 -1); the patch text itself is small.
 * Found (high: a Durable Object has 128 MB and 30 s of CPU; a one-line edit of a long generated file — a lock file,
 * a CSV, minified data — is an ordinary agent action, and `git diff`/`--stat`/diffSummary are the first thing a
 * tool runs after it): diffSummary grew peak RSS by 226 MiB in 4.0 s, diff by 265 MiB in 4.4 s, `git diff --stat`
 * took 3.6 s, for a 2 MiB file (1 probe run; the test below: diffSummary 228 and 237 MiB, 2 of 2 runs). It grows
 * linearly, ~230 bytes a line: a 64 MiB blob of short lines would need ~7 GiB. Also seen: because the search is not
 * narrowed to the trimmed middle, the patch is not git's — real git prints one hunk `-x` `+y` at line 500,001; the
 * Workspace prints `+y` at 500,001 and `-x` at the file's end (two hunks, equally short).
 * Suggested fix: run the search only on the lines between the common head and tail (pass
 * `lines head-3 … n-tail+3` of each side, or better, search the two LineIndex hash arrays with sameLine so no per-line
 * string is made), then shift the hunks' line numbers by the head; and bound the lines searched (e.g. a middle of
 * more than N lines on either side takes the replacementHunk path, as a change past the edit bound does). The merge
 * driver's `within` check (worktree.ts, diffLines on whole texts) has the same shape.
 * Fixed: hunks() runs structuredPatch only on the lines between the common head and tail, then shifts the hunks'
 * line numbers by the head and adds up to 3 context lines from the trimmed parts (as git's xdiff trims first); a
 * middle of more than GIT_DIFF_MAX_SEARCH_LINES (50,000) lines on either side is not searched (one replacement hunk,
 * as past the edit bound). The test now also checks the patch is real git's (one hunk `-x` `+y` at line 500,001).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;
/** The process's peak resident set so far, in bytes (a synchronous search shows here, not in a sampler). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

it("diffSummary and diff of a one-line change in a 1,000,000-line file stay under 64 MiB", { timeout: 60_000 }, async () => {
  const n = 1_000_000;
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  const body = "x\n".repeat(n);
  await ws.fs.writeFile("/r/f.txt", body);
  await git.add({ dir: "/r", paths: ["."] });
  await git.commit({ dir: "/r", message: "one" });
  // Line 500,001 (offset n: each line is 2 characters) becomes "y".
  await ws.fs.writeFile("/r/f.txt", body.slice(0, n) + "y\n" + body.slice(n + 2));

  let before = peakRss();
  const summary = await git.diffSummary({ dir: "/r" });
  const summaryGrew = peakRss() - before;
  expect(summary).toEqual([{ path: "f.txt", status: "M", insertions: 1, deletions: 1 }]);

  before = peakRss();
  const text = await git.diff({ dir: "/r" });
  const diffGrew = peakRss() - before;
  const lines = text.split("\n");
  expect([lines.filter((l) => l === "-x").length, lines.filter((l) => l === "+y").length]).toEqual([1, 1]);
  // Real git's patch: one hunk at line 500,001 (3 lines of context either side; "x" is a function line to xdiff).
  expect(lines.slice(4)).toEqual(["@@ -499998,7 +499998,7 @@ x", " x", " x", " x", "-x", "+y", " x", " x", " x", ""]);
  // The files' two sides (2 MiB each, bytes and text) and two line indexes (8 bytes a line) take ~25 MiB.
  expect(Math.round(summaryGrew / MiB), "diffSummary: peak RSS grew (MiB)").toBeLessThan(64);
  expect(Math.round(diffGrew / MiB), "diff: peak RSS grew (MiB)").toBeLessThan(64);
});
