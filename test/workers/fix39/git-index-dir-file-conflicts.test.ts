/**
 * Issue 20, run 39, fixer GT — siblings of test/workers/attack39h/git-path-checkout-reset-keeps-file-over-new-directory-entry.test.ts:
 * the index's directory/file rule (git's add_index_entry with ADD_CACHE_OK_TO_REPLACE — an entry `p/keep` and an
 * entry `p` never stand together) for every command that writes index entries — add, checkout <ref> -- paths,
 * reset <ref> -- paths, merge, stash pop, a branch switch — each over a file → directory, a symbolic link →
 * directory and a directory → file (or link) change, with `git ls-files`, `git status --porcelain=v1`, the commit's
 * exit code and its tree (`git ls-tree -r HEAD`: modes, blobs, paths) compared with git 2.39.5 (stdout of the same
 * script run by bash 5.2.15 and git 2.39.5 on Node's host, pasted). `checkout <ref> -- p/keep` over a FILE `p`
 * replaces the file with the directory (it failed `EEXIST … mkdir`), and `checkout <ref> -- p` over a directory `p`
 * removes the directory, untracked files too, as git's checkout of paths does (entry.c: remove_subtree).
 * Not compared: git's stash pop also prints `error: 'p' appears as both a file and as a directory` on stderr (a
 * quirk of its index refresh, the result is the same); only stdout is compared.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@x" } } };

/** main: `base`; dirb: + `p/keep`, `p/sub/x`; fileb: + a file `p`; then main with what the case sets up. */
const BRANCHES = [
  "git init -q -b main r && cd r; echo base > base; git add base; git commit -qm base",
  "git checkout -qb dirb; mkdir -p p/sub; echo evil > p/keep; echo deep > p/sub/x; git add p; git commit -qm dirb",
  "git checkout -q main; git checkout -qb fileb; echo file > p; git add p; git commit -qm fileb",
  "git checkout -q main",
].join("\n");
const FILE = "echo file > p; git add p; git commit -qm p";
const LINK = "ln -s base p; git add p; git commit -qm p";
const DIR = "git checkout -q dirb";
const TAIL = "echo rc=$?; git ls-files; git status --porcelain=v1; git commit -qm took; echo rc=$?; git ls-tree -r HEAD";

// [what, setup on main, command, git 2.39.5's stdout]
const CASES: [string, string, string, string][] = [
  ["git add p/keep: a file p is replaced by a directory", FILE, "rm p; mkdir p; echo in > p/keep; git add p/keep", "rc=0\nbase\np/keep\nD  p\nA  p/keep\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 4935e88d323e7973308dd73cccf2837fc3c7de22\tp/keep\n"],
  ["git add p/keep: a symbolic link p is replaced by a directory", LINK, "rm p; mkdir p; echo in > p/keep; git add p/keep", "rc=0\nbase\np/keep\nD  p\nA  p/keep\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 4935e88d323e7973308dd73cccf2837fc3c7de22\tp/keep\n"],
  ["git add p: a directory p is replaced by a file", DIR, "rm -r p; echo in > p; git add p", "rc=0\nbase\np\nA  p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 4935e88d323e7973308dd73cccf2837fc3c7de22\tp\n"],
  ["git add p: a directory p is replaced by a symbolic link", DIR, "rm -r p; ln -s base p; git add p", "rc=0\nbase\np\nA  p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n120000 blob 8681f8b8f32615a16703053bc1eaffb3e5e720a5\tp\n"],
  ["git checkout <ref> -- p/keep over a file p", FILE, "git checkout dirb -- p/keep", "rc=0\nbase\np/keep\nD  p\nA  p/keep\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 53c74cd6c8f3911ae716f60f9b79f575aab0e975\tp/keep\n"],
  ["git checkout <ref> -- p/keep p/sub over a symbolic link p", LINK, "git checkout dirb -- p/keep p/sub", "rc=0\nbase\np/keep\np/sub/x\nD  p\nA  p/keep\nA  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 53c74cd6c8f3911ae716f60f9b79f575aab0e975\tp/keep\n100644 blob 4cdb2265d30204be5463b38174b2e8e717982405\tp/sub/x\n"],
  ["git checkout <ref> -- p (a file) over a directory p", DIR, "git checkout fileb -- p", "rc=0\nbase\np\nA  p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob f73f3093ff865c514c6c51f867e35f693487d0d3\tp\n"],
  ["git checkout <ref> -- p (a file) over a directory p with an untracked file", DIR, "echo u > p/untracked; git checkout fileb -- p; ls -A p", "p\nrc=0\nbase\np\nA  p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob f73f3093ff865c514c6c51f867e35f693487d0d3\tp\n"],
  ["git reset <ref> -- p/keep over a file p", FILE, "git reset -q dirb -- p/keep", "rc=0\nbase\np/keep\nD  p\nAD p/keep\n?? p\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 53c74cd6c8f3911ae716f60f9b79f575aab0e975\tp/keep\n"],
  ["git reset <ref> -- p (a directory) over a symbolic link p", LINK, "git reset -q dirb -- p", "rc=0\nbase\np/keep\np/sub/x\nD  p\nAD p/keep\nAD p/sub/x\n?? p\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 53c74cd6c8f3911ae716f60f9b79f575aab0e975\tp/keep\n100644 blob 4cdb2265d30204be5463b38174b2e8e717982405\tp/sub/x\n"],
  ["git reset <ref> -- p (a file) over a directory p", DIR, "git reset -q fileb -- p", "rc=0\nbase\np\nAD p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob f73f3093ff865c514c6c51f867e35f693487d0d3\tp\n"],
  ["git reset <ref> -- p p/keep (a file) over a directory p", DIR, "git reset -q fileb -- p p/keep", "rc=0\nbase\np\nAD p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob f73f3093ff865c514c6c51f867e35f693487d0d3\tp\n"],
  ["git reset <ref> -- p (a file) over a directory p: status -uall lists the files in it, normal hides p/", DIR, "git reset -q fileb -- p; echo n > p/new; git status --porcelain=v1 -uall; git status --porcelain=v1 p", "AD p\nD  p/keep\nD  p/sub/x\n?? p/keep\n?? p/new\n?? p/sub/x\nAD p\nD  p/keep\nD  p/sub/x\nrc=0\nbase\np\nAD p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob f73f3093ff865c514c6c51f867e35f693487d0d3\tp\n"],
  ["git merge of a branch that made the file p a directory", FILE, "git checkout -qb side; git rm -q p; mkdir p; echo in > p/keep; git add p; git commit -qm side; git checkout -q main; echo more >> base; git commit -qam more; git merge -q side; git log -1 --format=%s", "Merge branch 'side'\nrc=0\nbase\np/keep\nOn branch main\nnothing to commit, working tree clean\nrc=1\n100644 blob 459bb10b47f343afe765c37e16e4f20574626bed\tbase\n100644 blob 4935e88d323e7973308dd73cccf2837fc3c7de22\tp/keep\n"],
  ["git stash pop of a file p made a directory", FILE, "rm p; mkdir p; echo in > p/keep; git add -A; git stash -q; git ls-files; git stash pop -q", "base\np\nrc=0\nbase\np/keep\nD  p\nA  p/keep\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 4935e88d323e7973308dd73cccf2837fc3c7de22\tp/keep\n"],
  ["git stash pop of a directory p made a file", DIR, "rm -r p; echo in > p; git add -A; git stash -q; git ls-files; git stash pop -q", "base\np/keep\np/sub/x\nrc=0\nbase\np\nA  p\nD  p/keep\nD  p/sub/x\nrc=0\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 4935e88d323e7973308dd73cccf2837fc3c7de22\tp\n"],
  ["git checkout <branch> from a file p to a directory p", FILE, "git checkout -q dirb", "rc=0\nbase\np/keep\np/sub/x\nOn branch dirb\nnothing to commit, working tree clean\nrc=1\n100644 blob df967b96a579e45a18b8251732d16804b2e56a55\tbase\n100644 blob 53c74cd6c8f3911ae716f60f9b79f575aab0e975\tp/keep\n100644 blob 4cdb2265d30204be5463b38174b2e8e717982405\tp/sub/x\n"],
];

it.each(CASES)("%s, as git 2.39.5", async (_what, setup, command, expected) => {
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/t", { recursive: true });
    return sh(ws, `${BRANCHES}; ${setup}\n${command}; ${TAIL}`, { cwd: "/workspace/t" });
  }, withGit);
  expect(r.stdout).toBe(expected);
});
