/**
 * Issue 20, eighteenth attack run: the merge driver (src/git/ops/worktree.ts boundedMergeDriver) first checks each
 * side's change with the `diff` package's diffLines over the WHOLE base and side texts (maxEditLength
 * GIT_DIFF_MAX_EDIT_LENGTH bounds the edits searched, not the lines tokenised), then runs isomorphic-git's
 * mergeFile (the `diff3` package: O(NP) over arrays of every line, with per-line objects) — so a merge of two
 * one-line changes costs memory in proportion to the file's line count, like the diff of
 * git-diff-one-line-change-whole-file-search.test.ts (same root: no trimming of the common head and tail).
 * Tried: a Workspace repository with one file of N lines "0" … "N-1"; branch `other` changes the last line, `main`
 * the first; `git.merge({ theirs: "other" })` (clean, as real git), peak RSS (resourceUsage().maxRSS: the searches
 * are synchronous) read before and after. Also tried (probe): N = 500,000 (a 3.4 MB file): 5.0 s, peak RSS
 * +459 MiB; N = 1,000,000 lines all "x" with the first and last changed: 8.2 s, +441 MiB, and the merge FAILED
 * `merge conflict in f.txt` where real git merges cleanly (diff3's alignment of equal lines is not git's).
 * Held: the distinct-line merge is right (clean, both changes in the result).
 * Found (high: a Durable Object has 128 MB; merging two small edits of a long file — a lock file, a CSV, generated
 * code — is ordinary): N = 400,000 (2.7 MB): peak RSS grew 277–278 MiB (2 of 2 runs; at N = 250,000: 128–181 MiB),
 * ~0.7 KiB a line.
 * Suggested fix: trim the lines the three texts share at the head and the tail before the bounded check and the
 * diff3 merge (merge only the middle, then join head + merged middle + tail), and bound the middle's line count (past
 * it: the whole-file conflict the driver already makes for changes past the edit bound, or refuse EMERGEFAIL with a
 * message naming the bound).
 * Fixed: the driver trims each side's change from the base to the lines between what it shares with the base at the
 * start and the end; changes separated by at least one unchanged line merge cleanly with no search (git's rule),
 * others run the bounded check and diff3 only on the lines from the first to the last changed line of either side,
 * at most GIT_DIFF_MAX_SEARCH_LINES (50,000) on each side (past it: the whole-file conflict). Second test added: the
 * probe's 1,000,000 identical lines, first and last changed, now merge cleanly as in real git.
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);
const MiB = 1024 * 1024;
/** The process's peak resident set so far, in bytes (a synchronous search shows here, not in a sampler). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

it("a merge of two one-line changes in a 400,000-line file grows memory by under 64 MiB", { timeout: 60_000 }, async () => {
  const n = 400_000;
  const author = { name: "A", email: "a@b.c" };
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  const lines = Array.from({ length: n }, (_, i) => `${i}`);
  const text = (l: string[]) => l.join("\n") + "\n";
  const commit = async (content: string, message: string) => {
    await ws.fs.writeFile("/r/f.txt", content);
    await git.add({ dir: "/r", paths: ["f.txt"] });
    await git.commit({ dir: "/r", message, author });
  };
  await commit(text(lines), "base");
  await git.branch({ dir: "/r", name: "other" });
  await commit(text(["first", ...lines.slice(1)]), "ours");
  await git.checkout({ dir: "/r", ref: "other" });
  await commit(text([...lines.slice(0, -1), "last"]), "theirs");
  await git.checkout({ dir: "/r", ref: "main" });

  const before = peakRss();
  await git.merge({ dir: "/r", theirs: "other", author });
  const grew = peakRss() - before;
  expect(await ws.fs.readFile("/r/f.txt", "utf8")).toBe(text(["first", ...lines.slice(1, -1), "last"]));
  expect(Math.round(grew / MiB), "merge: peak RSS grew (MiB)").toBeLessThan(64);
});

it("1,000,000 identical lines with the first changed on one side and the last on the other merge cleanly (as real git)", { timeout: 60_000 }, async () => {
  const n = 1_000_000;
  const author = { name: "A", email: "a@b.c" };
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/r" });
  const body = "x\n".repeat(n);
  const commit = async (content: string, message: string) => {
    await ws.fs.writeFile("/r/f.txt", content);
    await git.add({ dir: "/r", paths: ["f.txt"] });
    await git.commit({ dir: "/r", message, author });
  };
  await commit(body, "base");
  await git.branch({ dir: "/r", name: "other" });
  await commit("first\n" + body.slice(2), "ours");
  await git.checkout({ dir: "/r", ref: "other" });
  await commit(body.slice(0, -2) + "last\n", "theirs");
  await git.checkout({ dir: "/r", ref: "main" });

  const before = peakRss();
  await git.merge({ dir: "/r", theirs: "other", author });
  const grew = peakRss() - before;
  expect(await ws.fs.readFile("/r/f.txt", "utf8")).toBe("first\n" + body.slice(2, -2) + "last\n");
  expect(Math.round(grew / MiB), "merge: peak RSS grew (MiB)").toBeLessThan(64);
});
