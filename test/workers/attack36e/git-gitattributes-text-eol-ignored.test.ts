/**
 * Issue 20, thirty-sixth attack run: `.gitattributes` is not read at all by `git add`, `git commit` or `git checkout`
 * (nothing in src/git mentions it, nor docs/git.md or docs/porting.md). With the most common attributes file there is,
 * `* text=auto` (plus `*.bat text eol=crlf`), a file written with CRLF line ends is committed as CRLF: its blob, and so
 * the commit's tree, differ from what git 2.39.5 commits for the same working tree (git normalises it to LF in the
 * repository), and a checkout writes a `eol=crlf` file with LF where git writes CRLF. `text`/`binary`/`-diff` are
 * ignored the same way (`*.nd -diff` still prints a text patch; git: `Binary files … differ`).
 * Tried: a differential run against git 2.39.5 (a temp dir here, no global config) of the script below: an attributes
 * file, a CRLF `w.txt`, an LF `run.bat`, `git add -A`, `git commit`, `git ls-tree -r HEAD`, `git log --format=%T`,
 * both files removed and `git checkout -- .`, `od -c` of each; also `* text eol=crlf`, `*.bin binary`, `*.nd -diff`
 * with `git diff`, `git diff --stat`.
 * Held: every other blob and mode in that tree equals git's; names with tab/newline/quote/backslash/octal-looking
 * text quoted in `status --porcelain=v1`, `ls-files`, `ls-tree -r`, `diff --stat`, `diff --name-only` byte-identical
 * to git; the tree id for such names, an exec bit, an empty file and a symlink equal to git's; `add l/f` through a
 * tracked symlink to a directory refused (128, beyond a symbolic link); a file replaced by a directory committed and
 * checked out back to the file with its exec bit, tree ids equal to git's; `.gitignore` negations (`!keep.log`,
 * `build/` with `!build/k` not re-included, `sub/*` with `!sub/k`, anchored `/top`) as git, `add -f`.
 * Found (medium — a repository's declared line-end policy is silently broken: an agent that edits a file with CRLF
 * (or gets one from a tool) commits and pushes CRLF bytes where git would store LF, so the pushed tree differs from
 * what every collaborator's git produces, diffs in review show every line changed, and `eol=crlf` files (Windows
 * scripts) are checked out with LF; 2 of 2 runs): w.txt blob c30dea8… (`a\r\nb\r\n`) where git has 422c2b7…
 * (`a\nb\n`), tree 105b9d2… where git has b3e7491…, run.bat checked out `echo a\n` where git writes `echo a\r\n`.
 * Suggested fix: src/git (add/commit's blob writer and checkout's file writer): read `.gitattributes` (the
 * repository's, per directory, and `.git/info/attributes`) for `text`, `text=auto`, `eol`, `binary`/`-text`, and
 * apply git's convert.c rules — CRLF→LF on the way in for text files (auto: only when the index blob has no CR and the
 * file is not binary-looking), LF→CRLF on the way out for `eol=crlf` — or, at the least, document the difference
 * in docs/porting.md and refuse/warn when an attributes file asks for a conversion.
 * Fixed: src/git/ops/attributes.ts reads the working tree's `.gitattributes` (every level) and `.git/info/attributes`
 * and applies git's convert.c line-end rules (`text`, `text=auto` with the safer-autocrlf rule, `eol`, `binary`,
 * `-text`; core.autocrlf/core.eol) to every working-tree read (clean: add, commit -a, stash, status/diff hashing)
 * and write (smudge: checkout, reset --hard, stash pop, switch, merge, clone), through the operation's fs
 * (client.ts `filteredContext`) and tree-state.ts `readBytes`/`placeWorktreeFile`; `diff` honours `-diff`/`binary`
 * (issue 20, run 36, fixer GA). Siblings: test/workers/fix36/git-attributes.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("git add/commit/checkout honour .gitattributes text=auto and eol=crlf, as git 2.39.5", async () => {
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          "mkdir -p /w && cd /w && git init -q r && cd r",
          "printf '* text=auto\\n*.bat text eol=crlf\\n' > .gitattributes",
          "printf 'a\\r\\nb\\r\\n' > w.txt",
          "printf 'echo a\\necho b\\n' > run.bat",
          "git add -A && git commit -qm one",
          "git log --format=%T -n1",
          "git ls-tree -r HEAD",
          "rm w.txt run.bat",
          "git checkout -- .",
          "od -c w.txt | head -1",
          "od -c run.bat | head -1",
        ].join("\n"),
      ),
    withGit,
  );
  // Was: 105b9d2ab4dd633b86668e88ae379eb7b2577879 / w.txt c30dea8a3641ea99b125d04d599d843712292759 (CRLF kept) /
  // w.txt checked out `a \r \n b \r \n` / run.bat checked out `e c h o   a \n e c h o   b \n`
  expect(r.stdout).toBe(
    [
      "b3e749140de8f4d7691473454821464cbc611584",
      "100644 blob 3f39e855eb441c1343bcfe85c97c4b362219a5da\t.gitattributes",
      "100644 blob 46cc8b2bb5c3239e59692adb5439b9d7925d6f69\trun.bat",
      "100644 blob 422c2b7ab3b3c668038da977e4e93a5fc623169c\tw.txt",
      "0000000   a  \\n   b  \\n",
      "0000000   e   c   h   o       a  \\r  \\n   e   c   h   o       b  \\r  \\n",
      "",
    ].join("\n"),
  );
});
