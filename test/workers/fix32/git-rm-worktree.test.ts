/**
 * Issue 20, run 32, fixer GB: the shell's `git rm <path>` (without --cached) removes the working-tree files as git
 * 2.39.5 does — before, it only unstaged them and printed `note: removed from the index only; the working-tree files
 * stay …`, so `git rm old.ts && git commit` left old.ts behind as an untracked file. Each case below is real git's
 * output on the same script: the files and their emptied parent directories go (`d/e` after `git rm -r d`, `d2/e`
 * after `git rm d2/e/f`); a file with local modifications, changes staged in the index, or both (also with --cached)
 * is refused with git's `error:` lists and hints, exit 1, nothing removed, unless -f; a directory without -r dies
 * (`not removing 'd' recursively without -r`, 128; `.` too); a glob needs no -r; a pathspec matching nothing dies
 * (128); a file already gone from the working tree is removed from the index without complaint; -n removes nothing;
 * --cached keeps the files. git's `fatal: ` is this CLI's `git rm: `.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

const SETUP =
  "mkdir -p r/d/e r/k r/d2/e && cd r && echo a>a && echo b>b && echo c>d/e/c && echo x>d/x && echo m>m && echo s>s && echo n>n && " +
  "echo 1>k/1.txt && echo 2 > k/keep && echo p>p1 && echo p>p2 && echo f>d2/e/f && echo g > d2/g && " +
  "git init -q -b main . && git add . && git commit -qm a >/dev/null";

const SCRIPT = "git rm a; echo rc=$?; ls\ngit rm d; echo rc=$?\necho mm >> m; git rm m; echo rc=$?\necho ss >> s; git add s; git rm s; echo rc=$?\necho nn >> n; git add n; echo nnn >> n; git rm n; echo rc=$?\ngit rm m s n; echo rc=$?\ngit rm -q m; echo rc=$?\ngit rm --cached n; echo rc=$?\ngit rm --cached s; echo rc=$?\ngit rm -r d; echo rc=$?; ls\necho z > z; git add z; git rm z; echo rc=$?; git rm -f z; echo rc=$?; ls\ngit rm nope; echo rc=$?\nrm b; git rm b; echo rc=$?\ngit rm 'k/*.txt'; echo rc=$?; ls k\ngit rm -n k/keep; echo rc=$?; ls k\ngit rm -f m; echo rc=$?\necho p >> p1; echo p >> p2; git rm p1 p2; echo rc=$?\ngit rm -q d2/e/f; echo rc=$?; ls d2\ngit rm -r --cached -q d2; echo rc=$?; ls d2\ngit rm .; echo rc=$?\ngit status --porcelain=v1\n";

it("git rm removes the files from the working tree, refuses local changes without -f, and needs -r, as git 2.39.5", async () => {
  const r = await inShellWorkspace((ws) => sh(ws, `${SETUP}\n${SCRIPT}`), withGit);
  expect(r.stdout).toBe("rm 'a'\nrc=0\nb\nd\nd2\nk\nm\nn\np1\np2\ns\nrc=128\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrm 's'\nrc=0\nrm 'd/e/c'\nrm 'd/x'\nrc=0\nb\nd2\nk\nm\nn\np1\np2\ns\nrc=1\nrm 'z'\nrc=0\nb\nd2\nk\nm\nn\np1\np2\ns\nrc=128\nrm 'b'\nrc=0\nrm 'k/1.txt'\nrc=0\nkeep\nrm 'k/keep'\nrc=0\nkeep\nrm 'm'\nrc=0\nrc=1\nrc=0\ng\nrc=0\ng\nrc=128\nD  a\nD  b\nD  d/e/c\nD  d/x\nD  d2/e/f\nD  d2/g\nD  k/1.txt\nD  m\nMM n\n M p1\n M p2\nD  s\n?? d2/\n?? s\n");
  expect(r.stderr).toBe("git rm: not removing 'd' recursively without -r\nerror: the following file has local modifications:\n    m\n(use --cached to keep the file, or -f to force removal)\nerror: the following file has changes staged in the index:\n    s\n(use --cached to keep the file, or -f to force removal)\nerror: the following file has staged content different from both the\nfile and the HEAD:\n    n\n(use -f to force removal)\nerror: the following file has staged content different from both the\nfile and the HEAD:\n    n\n(use -f to force removal)\nerror: the following file has changes staged in the index:\n    s\n(use --cached to keep the file, or -f to force removal)\nerror: the following file has local modifications:\n    m\n(use --cached to keep the file, or -f to force removal)\nerror: the following file has local modifications:\n    m\n(use --cached to keep the file, or -f to force removal)\nerror: the following file has staged content different from both the\nfile and the HEAD:\n    n\n(use -f to force removal)\nerror: the following file has changes staged in the index:\n    z\n(use --cached to keep the file, or -f to force removal)\ngit rm: pathspec 'nope' did not match any files\nerror: the following files have local modifications:\n    p1\n    p2\n(use --cached to keep the file, or -f to force removal)\ngit rm: not removing '.' recursively without -r\n");
});
