/**
 * Issue 20, seventeenth attack run: GIT_DIFF_MAX_PATCH_CHARS (8 Mi characters, f16ec53, src/git/ops/diff.ts
 * patchText) counts only each file's HUNKS; the header lines every changed file gets (`diff --git a/<path>
 * b/<path>`, `index …`, `--- a/<path>`, `+++ b/<path>`, and past the room one `Patch left out: …` line) are
 * appended without a bound, so a diff of many files with long paths builds any amount of text.
 * Tried: a repository made by the real git (only its .git copied into the Workspace) whose commit changes 2,500
 * one-line files `a` → `b` under one directory 200 levels deep (a 2,000-character prefix — paths are legal up
 * to 256 KiB, trees up to GIT_MAX_TREE_ENTRIES = 100,000 paths); `workspace.git.diff({ ref: "HEAD~1", to:
 * "HEAD" })` — what `git diff HEAD~1 HEAD` in the shell and ws:git's cli build on the host before any clip.
 * Also tried (probe, 5,000 files under a 900-character prefix): 18,490,560 characters, 2.2× the bound; heap +
 * array buffers grew ~200 MiB during the call (GC-noisy). Held: diffSummary is right (one entry per
 * file); in the probe `git diff --stat` printed 400,059 characters (no patch text built).
 * Found (medium; the bound's stated goal is that the host never holds a diff past 8 Mi characters, a Durable Object
 * has 128 MB): the diff is 20,243,060 characters — past GIT_DIFF_MAX_PATCH_CHARS by the headers alone (3 of 3 runs).
 * It grows linearly with files × path length: 100,000 paths of 2,000 characters would be ~800 M characters,
 * past V8's longest string (a bare RangeError 'Invalid string length').
 * Suggested fix: count the header lines (and the 'Patch left out' line) against the same room; once it is spent,
 * stop listing files and end with one line such as 'Diff cut: N more files changed; the patch text would pass
 * 8388608 characters (GIT_DIFF_MAX_PATCH_CHARS): diff fewer paths at a time, or use --stat / --name-only'.
 * Fixed: patchText counts each file's whole text (header lines, hunks, 'Patch left out') against
 * GIT_DIFF_MAX_PATCH_CHARS; a file's hunks get what is left past its header lines, and the first file whose text
 * does not fit ends the patch with one 'Diff cut: N more files changed; …' line.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { GIT_DIFF_MAX_PATCH_CHARS } from "../../../src/git/index.js";
import { diffCut } from "../../../src/git/ops/diff.js";
import { cleanupScratch, importDir, newWorkspace, realGit, realRepo } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("a diff of 2,500 changed files under a 2,000-character directory stays within GIT_DIFF_MAX_PATCH_CHARS", { timeout: 60_000 }, async () => {
  const n = 2500;
  const prefix = Array.from({ length: 200 }, (_, i) => `d${String(i).padStart(8, "0")}`).join("/");
  const disk = realRepo((d) => {
    mkdirSync(join(d, prefix), { recursive: true });
    for (let i = 0; i < n; i++) writeFileSync(join(d, prefix, `f${i}`), "a\n");
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "a");
    for (let i = 0; i < n; i++) writeFileSync(join(d, prefix, `f${i}`), "b\n");
    realGit(d, "commit", "-q", "-am", "b");
    realGit(d, "gc", "-q");
  });
  const { ws, git } = newWorkspace();
  await ws.fs.mkdir("/r");
  await importDir(ws, join(disk, ".git"), "/r/.git");
  const summary = await git.diffSummary({ dir: "/r", ref: "HEAD~1", to: "HEAD" });
  expect(summary.length).toBe(n);
  const text = await git.diff({ dir: "/r", ref: "HEAD~1", to: "HEAD" });
  // The bound plus one closing line of at most a few hundred characters.
  expect(text.length).toBeLessThanOrEqual(GIT_DIFF_MAX_PATCH_CHARS + 1024);
  const shown = text.split("\n").filter((l) => l.startsWith("diff --git ")).length;
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(n);
  expect(text.endsWith(diffCut(n - shown))).toBe(true);
  // Every file shown has its header lines and its one hunk, or (the last, when only its header fits) 'Patch left out'.
  const lines = text.slice(0, text.length - diffCut(n - shown).length).split("\n");
  const hunks = lines.filter((l) => l === "-a").length;
  expect(lines.filter((l) => l === "+b").length).toBe(hunks);
  expect(lines.filter((l) => l.startsWith("Patch left out: +1 -1 lines;")).length).toBe(shown - hunks);
  expect(shown - hunks).toBeLessThanOrEqual(1);
});
