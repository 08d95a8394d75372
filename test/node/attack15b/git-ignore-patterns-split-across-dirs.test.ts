/**
 * Issue 20, fifteenth attack run: GIT_IGNORE_MAX_PATTERNS (src/git/ops/ignores.ts, 10,000 pattern rules) bounds
 * ONE ignore file; a path is tested against the rules of every directory above it, so the bound is bypassed by
 * splitting the rules over a directory chain.
 * Tried: `.gitignore` files of 10,000 pattern rules (`q<i>*z`, which match nothing here) in each directory of a
 * chain; untracked files at the bottom; `git status`. As control, the same 100,000 rules in ONE root
 * `.gitignore` (bounded to 10,000: 0.8 s for 10 levels × 50 files). Held: the rules of each file are read and
 * compiled once per operation (ignore-once), and the status is cancellable by its signal.
 * Found (medium; docs/git.md ".gitignore patterns are bounded", the GIT_IGNORE_MAX_PATTERNS TSDoc: "a hostile
 * .gitignore of 200,000 patterns cannot hold git status for minutes"): each untracked path costs (levels above
 * it) × 10,000 × 2 rule tests (its directory's `ignores` and its own `test`), so 10 levels × 50 files took
 * 5.7 s, and 20 levels × 100 files (2 MB of .gitignore) is still running after 10 s (3 of 3 runs; by
 * the 10 × 50 figure, about 45 s to the end) — the same cost the limit was made to stop, from 20 files instead of one.
 * Suggested fix: bound the pattern rules per OPERATION (or per path: the sum over the directories above it),
 * skipping the rules past it as the per-file bound does, and document it with GIT_IGNORE_MAX_PATTERNS.
 *
 * Fixed: GIT_IGNORE_MAX_PATTERNS (still 10,000) now bounds the pattern rules applied to one PATH, summed over
 * `.git/info/exclude` and the `.gitignore` files from the root down to its directory (src/git/ops/ignores.ts
 * WorktreeIgnores: each directory's file keeps what its ancestors left; the rest skipped, as comments; plain
 * names stay unbounded). Exact below: the 10,000th pattern of the top file applies, its 10,001st and every
 * pattern of the 19 files below are skipped, a plain name at the bottom still applies.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

describe("attack15b: ignore rules split over a directory chain", () => {
  it("git status over 20 levels × 10,000 rules and 100 untracked files settles within 10 s, the chain's rules past 10,000 skipped", { timeout: 60_000 }, async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo", defaultBranch: "main" });
    const rules = Array.from({ length: 10_000 }, (_, i) => `q${i}*z`).join("\n") + "\n";
    // Top: `*.kept` + 9,999 patterns (the 10,000 the bound keeps), then `*.gone` (the 10,001st, skipped).
    const top = `*.kept\n${Array.from({ length: 9_999 }, (_, i) => `q${i}*z`).join("\n")}\n*.gone\n`;
    let dir = "/repo";
    for (let level = 0; level < 20; level++) {
      dir += `/d${level}`;
      await ws.fs.mkdir(dir);
      // Below the top nothing is left of the bound: `*.deep` is skipped; the plain name `named` is not bounded.
      await ws.fs.writeFile(`${dir}/.gitignore`, level === 0 ? top : level === 19 ? `*.deep\nnamed\n${rules}` : rules);
    }
    for (let f = 0; f < 100; f++) await ws.fs.writeFile(`${dir}/f${f}.txt`, "x");
    for (const name of ["a.kept", "a.gone", "a.deep", "named"]) await ws.fs.writeFile(`${dir}/${name}`, "x");
    const stop = new AbortController();
    const outcome = await Promise.race([
      git.status({ dir: "/repo", signal: stop.signal }).then((entries) => entries.map((e) => e.path)),
      new Promise((resolve) => setTimeout(() => resolve("still running after 10 s"), 10_000)),
    ]);
    stop.abort(new Error("test over"));
    // 100 files, 20 .gitignore files, a.gone and a.deep, all untracked; a.kept and named ignored.
    const levels = Array.from({ length: 20 }, (_, i) => `d${i}`);
    const expected = [
      ...levels.map((_, i) => `${levels.slice(0, i + 1).join("/")}/.gitignore`),
      ...Array.from({ length: 100 }, (_, f) => `${levels.join("/")}/f${f}.txt`),
      `${levels.join("/")}/a.gone`,
      `${levels.join("/")}/a.deep`,
    ].sort();
    expect(outcome).toEqual(expected);
  });
});
