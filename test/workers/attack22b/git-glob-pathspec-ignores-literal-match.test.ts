/**
 * Issue 20, twenty-second attack run: a pathspec with glob characters that names a tracked/existing file literally
 * (`[ab].txt`, `*.txt`, as in Next.js's `app/[id]/page.tsx`) is taken literally by real git's add, rm and
 * checkout — only that file — but the Workspace's git CLI also globs it: `git checkout -- '[ab].txt'` overwrites
 * the uncommitted edits of a.txt and b.txt, `git add '[ab].txt'` stages them, `git rm --cached '*.txt'` unstages
 * every .txt file.
 * Tried: files a.txt, b.txt, `*.txt`, `[ab].txt`, d/x.txt committed, side by side with git 2.39.5: `git add`,
 * `git rm -q --cached`, `git checkout --` of '*.txt' and '[ab].txt', `git ls-files`, `git status --`, `git diff
 * --name-only --`, `git add -u`, `git reset -q --` of '*.txt'; '\*.txt' (escaped); globs with no literal twin
 * ('*.txt', 'd/*', '[ab].txt', '?.txt', 'd/**' + '/*.md', '**' + '/*.md').
 * Held: ls-files, status, diff, add -u and reset (real git globs there too), escaped and twin-less globs.
 * Found (medium — uncommitted work overwritten by a checkout that real git confines to one file, exit 0; 2 of 2
 * runs): after `echo 2 > a.txt; echo 2 > '[ab].txt'; git checkout -- '[ab].txt'` a.txt is 1 again (git: 2); `git
 * add '[ab].txt'` stages a.txt and b.txt (git: only `[ab].txt`); `git rm -q --cached '*.txt'` unstages 5 files
 * (git: `D  *.txt` only).
 * Cause: the CLI's add/rm/checkout match each pathspec by literal prefix OR wildmatch per path (src/git/wildmatch.ts
 * matchesPathspec); git first checks whether the pathspec names an index entry (checkout, rm) or a working-tree
 * path (add) exactly and then does not glob it.
 * Suggested fix: in add, rm and checkout (CLI and typed `paths`), when a glob pathspec equals an index entry (or, for
 * add, an existing path) literally, match it literally only; keep globbing for ls-files/status/diff/reset.
 * Fixed: git 2.39.5's literal-first rule (checked side by side) — a glob naming an index entry (rm, checkout;
 * checkout <tree-ish>: an entry of the tree or the index) or an existing non-directory (add) matches only that path —
 * in src/git/wildmatch.ts `literalFirst`, applied by the typed add, rm and checkout (src/git/ops/repo.ts,
 * worktree.ts) and the CLI's `rm '<f>'` lines and checkout counts; ls-files, status, diff and reset keep globbing.
 * docs/git.md "Glob pathspecs" no longer claims the opposite. Siblings: test/workers/fix22/git-cli-literal-pathspec.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { shellCases } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const setup = `git init -q -b main; mkdir d; for f in a.txt b.txt '*.txt' '[ab].txt' d/x.txt; do echo 1 > "$f"; done; `;
const cases: [string, string][] = [
  [`${setup}git add -A; git commit -q -m i; echo 2 > a.txt; echo 2 > '[ab].txt'; git checkout -- '[ab].txt'; cat a.txt '[ab].txt'`, "2\n1\n"],
  [`${setup}git add -A; git commit -q -m i; echo 2 > a.txt; echo 2 > '*.txt'; git checkout -- '*.txt'; cat a.txt '*.txt'`, "2\n1\n"],
  [`${setup}git add '[ab].txt'; git status --porcelain=v1`, "A  [ab].txt\n?? *.txt\n?? a.txt\n?? b.txt\n?? d/\n"],
  [`${setup}git add -A; git commit -q -m i; git rm -q --cached '*.txt'; git status --porcelain=v1`, "D  *.txt\n?? *.txt\n"],
];

it("a glob pathspec naming a file literally is taken literally by add, rm and checkout, as real git", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => r.stdout + r.stderr, workspace: withGit });
  expect(out).toEqual(cases.map(([, expected]) => expected));
});
