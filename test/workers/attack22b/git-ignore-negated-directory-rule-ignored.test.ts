/**
 * Issue 20, twenty-second attack run: a `.gitignore` rule that re-includes a DIRECTORY (`!*\/`, `!/src/`,
 * `!src/lib/`, `!docs/`) has no effect in the Workspace's git: everything under the directory stays ignored, so the
 * common whitelist `*` / `!*\/` / `!*.ts` hides every source file — `git status` shows nothing and `git add -A`
 * stages nothing, and the files silently never reach a commit or a push.
 * Tried: src/a.ts, src/lib/b.ts, docs/r.md, top.txt; side by side with git 2.39.5: `*` `!*\/` `!*.ts`; `/*`
 * `!/src/`; `src/*` `!src/lib/`; `docs` `!docs/`; `[!d]*\/`, `[^d]*\/`, `src/[!l]*.ts` (a separate finding); and
 * 26 other rules (anchored `/a`, `a/`, `a/**`, `**\/b`, `b/c`, nested .gitignore negation, escaped trailing spaces,
 * `[xy]/`, `a/*\/c`, info/exclude, tracked files, `!.gitignore`, `a/b` + `!a/b/c`, `#`/`\#`, CRLF).
 * Held: those 26 (modulo the documented ASCII case-insensitivity).
 * Found (medium — files silently left out of commits; 2 of 2 runs): with `*`/`!*\/`/`!*.ts`, status -uall prints
 * nothing and `git add -A; git status` nothing (git: `A  src/a.ts`, `A  src/lib/b.ts`); `src/*` + `!src/lib/` hides
 * src/lib/b.ts; `docs` + `!docs/` hides docs/r.md.
 * Cause: IgnoreRules.isIgnored (src/git/ops/ignores.ts) asks `matcher.ignores(<parent>)` of each directory above the
 * path WITHOUT a trailing slash, so a rule meant for directories (`…/`) — a re-inclusion above all — never applies
 * to it; git tests a directory as a directory.
 * Suggested fix: test the parent as `<parent>/` (and let a directory re-inclusion undo an ancestor's exclusion as
 * git's last-match-wins does for that directory), keeping "a file under an excluded directory stays excluded".
 * Fixed: WorktreeIgnores.isIgnored (src/git/ops/ignores.ts) decides as git's dir.c: each directory above the path is
 * asked once, AS a directory (`src/`), against the rules of every ignore file above it (last match wins, a deeper
 * file's rules after the root's), and the path itself too (as `dir/` when the walk, clean or add met a directory) —
 * through `match`, a per-path test without the `ignore` package's own walk over parents (added by
 * scripts/gen-git.mjs). A directory excluded still excludes everything in it. Callers (walk.ts, clean in
 * worktree.ts, add's pathspec check in repo.ts) say whether the path is a directory. Siblings (clean -d, add <dir>,
 * a re-inclusion in a deeper .gitignore, directory-only rules on files, the typed API) in
 * test/workers/fix22/git-index-and-ignore-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { shellCases } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const TREE = { dirs: ["src/lib", "docs"], files: { "src/a.ts": "1\n", "src/lib/b.ts": "1\n", "docs/r.md": "1\n", "top.txt": "1\n" } };
const cases: [string, string][] = [
  ["printf '*\\n!*/\\n!*.ts\\n' > .gitignore; git add -A; git status --porcelain=v1", "A  src/a.ts\nA  src/lib/b.ts\n"],
  ["printf '/*\\n!/src/\\n' > .gitignore; git status --porcelain=v1 -uall", "?? src/a.ts\n?? src/lib/b.ts\n"],
  ["printf 'src/*\\n!src/lib/\\n' > .gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? src/lib/b.ts\n?? top.txt\n"],
  ["printf 'docs\\n!docs/\\n' > .gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? src/a.ts\n?? src/lib/b.ts\n?? top.txt\n"],
];

it("a rule re-including a directory applies to it, as in git", async () => {
  const out = await shellCases(TREE, cases.map(([command]) => command), {
    wrap: (command) => `git init -q -b main; ${command}`,
    collect: (_ws, _command, r) => r.stdout,
    workspace: withGit,
  });
  expect(out).toEqual(cases.map(([, expected]) => expected));
});
