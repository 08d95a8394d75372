/**
 * Issue 20, thirty-first attack run: `git config core.quotePath false` is stored but never read — `git status
 * --porcelain=v1`, `git diff --name-only`, `git ls-files`, `git diff --stat` and the patch headers still print a
 * non-ASCII name as `"\303\251.txt"`, so `git diff --name-only | while read f; do cat "$f"; done` (or `| xargs`) on
 * a repository with non-ASCII file names silently names files that do not exist.
 * Tried: side by side with git 2.39.5 in a temp dir: init, `git config core.quotePath false` (also the default,
 * quotePath on), é.txt and "sp ace.txt" committed, é.txt edited, then status --porcelain=v1 / -s / long, diff
 * --name-only / --stat / the patch, ls-files, show --name-only, and a `diff --name-only | while read` loop.
 * Held: with the default (core.quotePath on) every one of these prints what git prints, octal escapes included;
 * a space is quoted only in the short/v1 status lines, as git.
 * Found (medium — a silent divergence in `git diff --name-only`/`ls-files`/`status --porcelain` piped into a loop,
 * a form agent scripts commonly write, once the repository sets core.quotePath=false, a setting git's own docs
 * recommend for non-ASCII names; docs/git.md does not mention it; 2 of 2 runs).
 * Suggested fix: src/git/ops/diff.ts quotePath and src/git/cli/format.ts (status, diff names, ls-files): read
 * `core.quotePath` (git config boolean: false/no/off/0) from the repository's .git/config once per command and,
 * when false, escape only the characters git still quotes (`"`, `\`, control bytes) and leave bytes >= 0x80 as
 * they are; or document that core.quotePath is ignored.
 * Fixed: src/git/ops/diff.ts `quotePath` (git's quote_c_style, one implementation: `fully` = core.quotePath) and
 * `quotePathOn`/`gitConfigBool` (core.quotePath read as git's boolean; a bad value dies, exit 128); the typed `diff`
 * reads it once per patch; the CLI reads it once per command (src/git/cli/context.ts `quoteFully`) for status (v1, v2,
 * -s, long), diff --name-only / --name-status / --numstat / --stat, show --stat, ls-files, ls-tree, cat-file -p of a
 * tree and clean (src/git/cli/format.ts, commands.ts); `--stat` measures an unquoted name in terminal columns, as git.
 * Siblings: test/workers/fix31/git-quotepath.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it("core.quotePath false prints non-ASCII names as they are, as git 2.39.5", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/r", { recursive: true });
    const r = await sh(
      ws,
      "git init -q -b main; git config core.quotePath false; echo 1 > é.txt; echo 2 > 'sp ace.txt'; git add -A; git commit -q -m i; echo 3 > é.txt; " +
        "git status --porcelain=v1; git diff --name-only; git ls-files; git diff --stat; git diff --name-only | while read f; do cat \"$f\"; done",
      { cwd: "/workspace/r" },
    );
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  }, withGit);
  expect(out).toEqual({
    // Was: stdout ' M "\303\251.txt"\n"\303\251.txt"\nsp ace.txt\n"\303\251.txt"\n "\303\251.txt" | 2 +-\n 1 file changed, …\n' (no 3),
    // stderr 'cat: "303251.txt": No such file or directory\n', exitCode 1
    stdout: " M é.txt\né.txt\nsp ace.txt\né.txt\n é.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n3\n",
    stderr: "",
    exitCode: 0,
  });
});
