/**
 * Issue 20 ninth attack run, category 2 (resource exhaustion: time) in the
 * Workspace's git: the patch text of `diff` (`ws.git.diff`, `git diff` and
 * `git diff --stat` through `ws.git.cli` and `ws:git`'s `cli`, `git show`)
 * comes from the `diff` package's `structuredPatch` (src/git/ops/diff.ts
 * `hunks`), called with no `maxEditLength` and no `timeout`. Its Myers
 * search is O(N·D): for a file whose lines all changed (a regenerated file, a
 * reformat, a shuffled CSV) that is N² line comparisons, all synchronous.
 *
 * FIXED — the search is bounded: `structuredPatch(…, { maxEditLength:
 * GIT_DIFF_MAX_EDIT_LENGTH })` (256 line edits, src/git/limits.ts); past it
 * the file is one hunk removing every old line and adding every new one
 * between the common leading and trailing lines (src/git/ops/diff.ts
 * `replacementHunks`, linear). `merge` passes isomorphic-git a merge driver
 * that first checks both sides' changes from the base with the same bounded
 * search, runs diff3 (isomorphic-git's mergeFile) only within the bound, and
 * else answers a conflict of the whole file (src/git/ops/worktree.ts
 * `boundedMergeDriver`). Documented in docs/git.md and docs/porting.md.
 *
 * DEFECT (medium) — a few hundred KB of text stalls the Durable Object.
 * Reproduction (Node; the same code runs in the object for `ws:git` calls
 * from sandboxed code):
 *   // /workspace/r/f.txt: 2,000 lines committed, then every line rewritten (~50 KB)
 *   await ws.git.diff({ dir: "/workspace/r" })
 *   → 4,000,000 line comparisons (exactly N²; 500 lines: 250,000; 1,000: 1,000,000), ~2 s;
 *     4,000 lines (~100 KB): 7–11 s; 8,000 lines (~200 KB): ~35–40 s of one
 *     synchronous call — past a Durable Object's CPU limit (the object is
 *     reset), and in local workerd nothing else runs meanwhile. `git diff
 *     --stat` costs the same (it counts lines from the same patch).
 * The GIT_MAX_OBJECT_BYTES limit (64 MiB) does not help: the cost is in the
 * number of changed lines, not the bytes. Real git bounds its search
 * (xdiff's cost heuristics) and answers such a diff in milliseconds.
 * Expected: work close to linear in the file size for a diff whose every
 * line changed — here asserted as at most 20·N line comparisons (a bounded
 * search, e.g. `structuredPatch(…, { maxEditLength })` falling back to one
 * hunk that removes every old line and adds every new one, which is also
 * what git prints for such a file).
 * The count is read by wrapping `lineDiff.equals` of the `diff` package (the
 * comparison the search makes), so the test asserts no time.
 *
 * Same class, asserted below since the fix (the bounded pre-check counts
 * through the same `lineDiff.equals`; diff3 itself is inside the
 * isomorphic-git bundle, nothing to count with): `git merge` of two branches that both
 * rewrote one file (isomorphic-git's mergeFile → diff3's O(NP) search):
 * 1,000 lines 0.6 s, 2,000 lines 2.3 s, 4,000 lines (~100 KB) 15.6 s, one
 * synchronous call ending in "merge conflict in f.txt".
 *
 * Noted, not a defect: the edit tool runs the same search on its window,
 * but skips its diff above `maxDiffLines` (2,000) changed lines; at that cap
 * (one edit rewriting 2,000 lines) its two reports take ~4 s.
 */
import { applyPatch, lineDiff } from "diff";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { GIT_DIFF_MAX_EDIT_LENGTH, createGitClient } from "../../../src/git/index.js";

const lines = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} line ${i} ${(i * 7919) % 10007}`).join("\n") + "\n";

/** Counts `lineDiff.equals` calls (the comparison the `diff` package's line search makes) while `run` runs. */
async function countComparisons<T>(run: (count: () => number) => Promise<T>): Promise<T> {
  const target = lineDiff as unknown as { equals: (...args: unknown[]) => boolean };
  const own = Object.prototype.hasOwnProperty.call(target, "equals");
  const original = target.equals;
  let comparisons = 0;
  target.equals = function (this: unknown, ...args: unknown[]) {
    comparisons++;
    return original.apply(this, args);
  };
  try {
    return await run(() => comparisons);
  } finally {
    if (own) target.equals = original;
    else delete (target as { equals?: unknown }).equals;
  }
}

/** A repository at /workspace/r with f.txt = `base` on main, and branch `side` (from main) where f.txt = `side`; main then sets f.txt = `main`. */
async function divergedRepo(base: string, side: string, main: string): Promise<Workspace> {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
  const dir = "/workspace/r";
  await ws.fs.mkdir(dir, { recursive: true });
  await ws.git.init({ dir, defaultBranch: "main" });
  await ws.fs.writeFile(`${dir}/f.txt`, base);
  await ws.git.add({ dir, paths: ["f.txt"] });
  await ws.git.commit({ dir, message: "base" });
  await ws.git.branch({ dir, name: "side", checkout: true });
  await ws.fs.writeFile(`${dir}/f.txt`, side);
  await ws.git.add({ dir, paths: ["f.txt"] });
  await ws.git.commit({ dir, message: "side" });
  await ws.git.checkout({ dir, ref: "main" });
  await ws.fs.writeFile(`${dir}/f.txt`, main);
  await ws.git.add({ dir, paths: ["f.txt"] });
  await ws.git.commit({ dir, message: "main" });
  return ws;
}

describe("attack9: git merge of a file both branches rewrote", () => {
  const N = 2000;
  const numbered = (tag: string, n: number, changed: (i: number) => boolean) =>
    Array.from({ length: n }, (_, i) => (changed(i) ? `${tag} ${i}` : `line ${i}`)).join("\n") + "\n";

  it("both sides rewrote all 2,000 lines: a conflict in f.txt, with at most 20·N line comparisons per side", { timeout: 60_000 }, async () => {
    const ws = await divergedRepo(lines("base", N), lines("side", N), lines("main", N));
    try {
      const { error, comparisons } = await countComparisons(async (count) => {
        const error = await ws.git.merge({ dir: "/workspace/r", theirs: "side" }).then(() => undefined, (e: { code?: string; message?: string }) => e);
        return { error, comparisons: count() };
      });
      expect({ code: error?.code, message: error?.message?.includes("merge conflict in f.txt") }).toEqual({ code: "EMERGEFAIL", message: true });
      // The bounded check ran (diff3 alone makes none of these comparisons) and stayed near-linear.
      expect({ checked: comparisons > 0, bounded: comparisons <= 2 * 20 * N, comparisons }).toEqual({ checked: true, bounded: true, comparisons });
      // Nothing was written: main's file and branch are as they were.
      expect(await ws.fs.readFile("/workspace/r/f.txt", "utf8")).toBe(lines("main", N));
    } finally {
      await ws.close();
    }
  });

  it("a change past GIT_DIFF_MAX_EDIT_LENGTH on one side is a conflict even where diff3 would merge (documented limit)", { timeout: 60_000 }, async () => {
    expect(GIT_DIFF_MAX_EDIT_LENGTH).toBe(256);
    // side rewrites lines 0..199 and line 1999 (402 edits), main changes line 1000 only: real git merges cleanly.
    // (Since attack18b git-merge-one-line-changes-whole-file-search, changes separated by an unchanged line merge without
    // a search, so side's change must span main's for the bound to apply: side's lines 0..1999 are searched.)
    const ws = await divergedRepo(
      numbered("", N, () => false),
      numbered("side", N, (i) => i < 200 || i === N - 1),
      numbered("main", N, (i) => i === 1000),
    );
    try {
      const error = await ws.git.merge({ dir: "/workspace/r", theirs: "side" }).then(() => undefined, (e: { code?: string; message?: string }) => e);
      expect({ code: error?.code, message: error?.message?.includes("merge conflict in f.txt") }).toEqual({ code: "EMERGEFAIL", message: true });
    } finally {
      await ws.close();
    }
  });

  it("a change past the bound separated from the other side's by an unchanged line merges cleanly, as in real git", { timeout: 60_000 }, async () => {
    // side rewrites lines 0..199 (400 edits), main changes line 1999 only.
    const ws = await divergedRepo(numbered("", N, () => false), numbered("side", N, (i) => i < 200), numbered("main", N, (i) => i === N - 1));
    try {
      await ws.git.merge({ dir: "/workspace/r", theirs: "side" });
      expect(await ws.fs.readFile("/workspace/r/f.txt", "utf8")).toBe(Array.from({ length: N }, (_, i) => (i < 200 ? `side ${i}` : i === N - 1 ? `main ${i}` : `line ${i}`)).join("\n") + "\n");
    } finally {
      await ws.close();
    }
  });

  it("changes within the bound still merge as diff3 does", { timeout: 60_000 }, async () => {
    // side rewrites lines 0..99 (200 edits), main changes line 1999: a clean merge holding both.
    const ws = await divergedRepo(numbered("", N, () => false), numbered("side", N, (i) => i < 100), numbered("main", N, (i) => i === N - 1));
    try {
      const result = await ws.git.merge({ dir: "/workspace/r", theirs: "side" });
      expect(typeof result.oid).toBe("string");
      expect(await ws.fs.readFile("/workspace/r/f.txt", "utf8")).toBe(Array.from({ length: N }, (_, i) => (i < 100 ? `side ${i}` : i === N - 1 ? `main ${i}` : `line ${i}`)).join("\n") + "\n");
    } finally {
      await ws.close();
    }
  });
});

describe("attack9: git diff of a fully rewritten file", () => {
  // (Here the answer is byte for byte what real git 2.x prints: every middle line is new.)
  it("past the bound: one hunk between the common leading and trailing lines, with context, that applies to the new text", { timeout: 60_000 }, async () => {
    const head = Array.from({ length: 5 }, (_, i) => `head ${i}\n`).join("");
    const tail = Array.from({ length: 5 }, (_, i) => `tail ${i}`).join("\n"); // no LF at the end
    const before = head + lines("old", 300) + tail;
    const after = head + lines("new", 310) + tail;
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
    try {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.git.init({ dir: "/workspace/r" });
      await ws.fs.writeFile("/workspace/r/f.txt", before);
      await ws.git.add({ dir: "/workspace/r", paths: ["f.txt"] });
      await ws.git.commit({ dir: "/workspace/r", message: "base" });
      await ws.fs.writeFile("/workspace/r/f.txt", after);
      const patch = String(await ws.git.diff({ dir: "/workspace/r" }));
      expect(patch.match(/^@@ .*$/gm)).toEqual(["@@ -3,306 +3,316 @@ head 1"]);
      expect(patch).toContain("\n head 2\n head 3\n head 4\n-old line 0 0\n");
      expect(patch).toContain("\n+new line 309 ");
      expect(patch.endsWith("\n tail 0\n tail 1\n tail 2\n")).toBe(true);
      expect(applyPatch(before, patch)).toBe(after);
      const stat = await ws.git.cli({ argv: ["diff", "--stat"], cwd: "/workspace/r" });
      expect(stat.stdout).toContain("f.txt | 610 ");
    } finally {
      await ws.close();
    }
  });

  it("diff and diff --stat of a 2,000-line file whose every line changed make at most 20·N line comparisons", { timeout: 60_000 }, async () => {
    const N = 2000;
    const target = lineDiff as unknown as { equals: (...args: unknown[]) => boolean };
    const own = Object.prototype.hasOwnProperty.call(target, "equals");
    const original = target.equals;
    let comparisons = 0;
    target.equals = function (this: unknown, ...args: unknown[]) {
      comparisons++;
      return original.apply(this, args);
    };
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
    try {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.git.init({ dir: "/workspace/r" });
      await ws.fs.writeFile("/workspace/r/f.txt", lines("old", N));
      await ws.git.add({ dir: "/workspace/r", paths: ["f.txt"] });
      await ws.git.commit({ dir: "/workspace/r", message: "base" });
      await ws.fs.writeFile("/workspace/r/f.txt", lines("new", N));

      comparisons = 0;
      const patch = String(await ws.git.diff({ dir: "/workspace/r" }));
      const forDiff = comparisons;
      comparisons = 0;
      const stat = await ws.git.cli({ argv: ["diff", "--stat"], cwd: "/workspace/r" });
      const forStat = comparisons;

      // The answer itself is right either way.
      expect(patch).toContain("-old line 0 0\n");
      expect(patch).toContain(`+new line ${N - 1} `);
      expect(stat.stdout).toContain(`f.txt | ${2 * N} `);
      expect({ forDiff: forDiff <= 20 * N, forStat: forStat <= 20 * N, forDiffCount: forDiff }).toEqual({ forDiff: true, forStat: true, forDiffCount: forDiff });
    } finally {
      if (own) target.equals = original;
      else delete (target as { equals?: unknown }).equals;
      await ws.close();
    }
  });
});
