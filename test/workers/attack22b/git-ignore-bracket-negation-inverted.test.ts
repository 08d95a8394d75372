/**
 * Issue 20, twenty-second attack run: in `.gitignore`, a bracket expression negated with `!` or `^` (`[!d]*`,
 * `[^d]*`, `src/[!l]*.ts`) is read as a class holding `!`/`^` and the letters — its meaning inverted: `[!d]*\/`
 * (git: every directory not starting with d) ignores `docs/` and keeps `src/`; `src/[!l]*.ts` ignores nothing. The
 * same defect run 21 fixed for the shell's find/grep globs (shell-glob-skips-newline-names), here in the ignore
 * matcher the git operations share (status, add -A, clean, stash).
 * Tried: src/a.ts, src/lib/b.ts, docs/r.md, top.txt, side by side with git 2.39.5: `[!d]*\/`, `[^d]*\/`,
 * `src/[!l]*.ts`, `[xy]/` (held), `[!x]/` in a second tree.
 * Held: a positive class `[xy]/`.
 * Found (low-medium — what git would commit is left out and what it ignores is committed; 2 of 2 runs):
 * `[!d]*\/` → status shows src/a.ts, src/lib/b.ts (git: docs/r.md); `src/[!l]*.ts` → src/a.ts still untracked (git
 * hides it).
 * Cause: the `ignore` package's pattern translation (isomorphic-git's bundled copy, used by ops/ignores.ts
 * compileIgnoreRules) copies a bracket expression into the RegExp as is, so `[!d]` is the class {!, d}.
 * Suggested fix: a gen-git patch turning a leading `!` inside a bracket expression into `^` (git's wildmatch
 * accepts both `!` and `^`), as run 21 did for the shell's glob-to-regex.
 * Fixed: scripts/gen-git.mjs patches the `ignore` package's range replacer (bundled copy, 5.3.2: its translation
 * copies the class as is): a class opening with `!` or `^` becomes a negated RegExp class `[^…]`; `[!]` (nothing
 * after the negation) matches nothing, as git's wildmatch. Covers isomorphic-git's own isIgnored too. Siblings
 * (`[!s]*\/` in clean -d, `[^d]*\/` in the typed API's status) in test/workers/fix22/git-index-and-ignore-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { shellCases } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };
const TREE = { dirs: ["src/lib", "docs"], files: { "src/a.ts": "1\n", "src/lib/b.ts": "1\n", "docs/r.md": "1\n", "top.txt": "1\n" } };
const cases: [string, string][] = [
  ["printf '[!d]*/\\n' > .gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? top.txt\n"],
  ["printf '[^d]*/\\n' > .gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? top.txt\n"],
  ["printf 'src/[!l]*.ts\\n' > .gitignore; git status --porcelain=v1 -uall", "?? .gitignore\n?? docs/r.md\n?? src/lib/b.ts\n?? top.txt\n"],
];

it("a negated bracket expression in .gitignore matches what the class excludes, as git's wildmatch", async () => {
  const out = await shellCases(TREE, cases.map(([command]) => command), {
    wrap: (command) => `git init -q -b main; ${command}`,
    collect: (_ws, _command, r) => r.stdout,
    workspace: withGit,
  });
  expect(out).toEqual(cases.map(([, expected]) => expected));
});
