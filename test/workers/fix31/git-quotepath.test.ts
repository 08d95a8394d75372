/**
 * Issue 20, run 31, fixer GQ: siblings of attack31c/git-core-quotepath-false-ignored — `core.quotePath` is read once
 * per command, as git 2.39.5 reads a boolean, by every output that quotes a path: status (v1, v2, long), diff
 * --name-status / --numstat / --stat (names measured in columns: a CJK character is 2 wide) / the patch headers,
 * ls-tree, cat-file -p of a tree, clean -n, show --stat. Off, only control characters, `"` and `\` still quote a
 * name (and a space in the short/v1 status lines). Expected outputs are git 2.39.5's, side by side in a temp dir.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

async function run(script: string) {
  return inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/r", { recursive: true });
    const r = await sh(ws, script, { cwd: "/workspace/r" });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  }, withGit);
}

it("core.quotePath false: every path-quoting output prints non-ASCII names as they are, as git 2.39.5", async () => {
  const out = await run(
    "git init -q -b main; git config core.quotePath false\necho 1 > \u00e9.txt; echo 2 > 'sp ace.txt'; echo q > 'q\"u.txt'; mkdir \u65e5\u672c; echo w > \u65e5\u672c/\u8a9e.txt; echo b > 'a\\b.txt'\ngit add -A; git commit -q -m i; echo 3 > \u00e9.txt; echo n > \u00f1ew.txt; echo 4 >> 'q\"u.txt'; echo 5 > 'sp ace.txt'; echo x >> \u65e5\u672c/\u8a9e.txt\ngit status --porcelain=v1; git status; git diff --name-status; git diff --numstat; git diff --stat; git diff\ngit ls-tree -r HEAD; git cat-file -p 'HEAD^{tree}'; git clean -n; git show --stat --format=%s",
  );
  expect(out).toEqual({
    stdout: " M \"q\\\"u.txt\"\n M \"sp ace.txt\"\n M \u00e9.txt\n M \u65e5\u672c/\u8a9e.txt\n?? \u00f1ew.txt\nOn branch main\nChanges not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n  (use \"git restore <file>...\" to discard changes in working directory)\n\tmodified:   \"q\\\"u.txt\"\n\tmodified:   sp ace.txt\n\tmodified:   \u00e9.txt\n\tmodified:   \u65e5\u672c/\u8a9e.txt\n\nUntracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n\t\u00f1ew.txt\n\nno changes added to commit (use \"git add\" and/or \"git commit -a\")\nM\t\"q\\\"u.txt\"\nM\tsp ace.txt\nM\t\u00e9.txt\nM\t\u65e5\u672c/\u8a9e.txt\n1\t0\t\"q\\\"u.txt\"\n1\t1\tsp ace.txt\n1\t1\t\u00e9.txt\n1\t0\t\u65e5\u672c/\u8a9e.txt\n \"q\\\"u.txt\"  | 1 +\n sp ace.txt  | 2 +-\n \u00e9.txt       | 2 +-\n \u65e5\u672c/\u8a9e.txt | 1 +\n 4 files changed, 4 insertions(+), 2 deletions(-)\ndiff --git \"a/q\\\"u.txt\" \"b/q\\\"u.txt\"\nindex bca70f3..8685812 100644\n--- \"a/q\\\"u.txt\"\n+++ \"b/q\\\"u.txt\"\n@@ -1 +1,2 @@\n q\n+4\ndiff --git a/sp ace.txt b/sp ace.txt\nindex 0cfbf08..7ed6ff8 100644\n--- a/sp ace.txt\t\n+++ b/sp ace.txt\t\n@@ -1 +1 @@\n-2\n+5\ndiff --git a/\u00e9.txt b/\u00e9.txt\nindex d00491f..00750ed 100644\n--- a/\u00e9.txt\n+++ b/\u00e9.txt\n@@ -1 +1 @@\n-1\n+3\ndiff --git a/\u65e5\u672c/\u8a9e.txt b/\u65e5\u672c/\u8a9e.txt\nindex e556b83..86c219d 100644\n--- a/\u65e5\u672c/\u8a9e.txt\n+++ b/\u65e5\u672c/\u8a9e.txt\n@@ -1 +1,2 @@\n w\n+x\n100644 blob 61780798228d17af2d34fce4cfbdf35556832472\t\"a\\\\b.txt\"\n100644 blob bca70f35318f31dd1d1d1d2d2e64c19b880899ff\t\"q\\\"u.txt\"\n100644 blob 0cfbf08886fca9a91cb753ec8734c84fcbe52c9f\tsp ace.txt\n100644 blob d00491fd7e5bb6fa28c517a0bb32b8b506539d4d\t\u00e9.txt\n100644 blob e556b830cfd4d2bf3f4501b4ff7cf2ce00c052ef\t\u65e5\u672c/\u8a9e.txt\n100644 blob 61780798228d17af2d34fce4cfbdf35556832472\t\"a\\\\b.txt\"\n100644 blob bca70f35318f31dd1d1d1d2d2e64c19b880899ff\t\"q\\\"u.txt\"\n100644 blob 0cfbf08886fca9a91cb753ec8734c84fcbe52c9f\tsp ace.txt\n100644 blob d00491fd7e5bb6fa28c517a0bb32b8b506539d4d\t\u00e9.txt\n040000 tree ef357b48f0b777b59e16783bb2d74d7cf74284c4\t\u65e5\u672c\nWould remove \u00f1ew.txt\ni\n\n \"a\\\\b.txt\"  | 1 +\n \"q\\\"u.txt\"  | 1 +\n sp ace.txt  | 1 +\n \u00e9.txt       | 1 +\n \u65e5\u672c/\u8a9e.txt | 1 +\n 5 files changed, 5 insertions(+)\n",
    stderr: "",
    exitCode: 0,
  });
});

it("core.quotePath is read as git's boolean: off/0/empty/FALSE off, yes/2/unset on, a bad value dies (exit 128)", async () => {
  const out = await run(
    "git init -q -b main; echo 1 > \u00e9.txt; git add -A; git commit -q -m i\nfor v in off yes 0 \"\" FALSE 2; do git config core.quotePath \"$v\"; echo \"[$v]\"; git ls-files; done\ngit config --unset core.quotePath; echo \"[unset]\"; git ls-files\ngit config core.quotePath bogus; git ls-files; echo \"rc=$?\"; git diff HEAD~0; echo \"rc=$?\"; git status --porcelain=v1; echo \"rc=$?\"",
  );
  expect(out).toEqual({
    stdout: "[off]\né.txt\n[yes]\n\"\\303\\251.txt\"\n[0]\né.txt\n[]\né.txt\n[FALSE]\né.txt\n[2]\n\"\\303\\251.txt\"\n[unset]\n\"\\303\\251.txt\"\nrc=128\nrc=128\nrc=128\n",
    // git: `fatal: bad boolean config value 'bogus' for 'core.quotepath'` each time
    stderr:
      "git ls-files: bad boolean config value 'bogus' for 'core.quotepath'\n" +
      "git diff: bad boolean config value 'bogus' for 'core.quotepath'\n" +
      "git status: bad boolean config value 'bogus' for 'core.quotepath'\n",
    exitCode: 0,
  });
});
