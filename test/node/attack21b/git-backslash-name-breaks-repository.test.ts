/**
 * Issue 20, twenty-first attack run: one file whose name holds a backslash (legal on Linux and in git) makes the
 * repository unusable through the git CLI: a TRACKED `x\y.txt` (a repository made by real git, as any clone of
 * one would be) fails `status`, `checkout -- .` and `stash` with `The filepath "x\y.txt" contains unsafe character
 * sequences` (exit 1); an UNTRACKED `new\n.txt` fails `add -A`, `add .` and `diff` with `ENOENT: no such file or
 * directory, lstat 'new/n.txt'` — a path that does not exist — so nothing can be staged or committed until the
 * agent finds and renames the file. Real git handles both (quoting `"x\\y.txt"`).
 * Tried: real git repo with a.txt and x\y.txt committed; a.txt and x\y.txt edited, new\n.txt untracked, on a disk
 * copy and a Workspace copy: status --porcelain=v1, ls-files, add -A, add new\n.txt, add ., diff, checkout -- .,
 * stash, log --oneline; the typed API's status() and add({ paths: ["."] }).
 * Held: ls-files (`"x\\y.txt"` quoted as real git), log.
 * Found (medium — a repository stuck by a hostile or merely Windows-made name; the error names a path that is not
 * there; 2 of 2 runs): the exits and messages listed above; status() rejects `GitError: git status failed: The
 * filepath "x\y.txt" contains unsafe character sequences`. See also
 * test/workers/attack21b/git-module-backslash-name-reads-outside-root.test.ts (the same translation reads files
 * outside a confined root).
 * Suggested fix: keep `\` as an ordinary name character in the git fs bridge and the vendored isomorphic-git
 * (its path normalize/join replace `\` with `/`; its tree-entry check refuses any `\`), as git does on POSIX.
 * Fixed (fixer GB): scripts/gen-git.mjs patches the vendored isomorphic-git so `\` is an ordinary name character
 * (normalize/join/dirname/basename/hasExactCasePath; the tree-entry check refuses `\` only after `.git`/`git~N`,
 * as git's core.protectNTFS; the index reader checks segments, not `..\` substrings). All six commands now match
 * real git exactly (exit, stdout, stderr). Siblings (typed API, `c:` and `a..` directories, the host escape, the
 * containment backstop): test/node/fix21/git-backslash-names.test.ts.
 */
import { writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const argvs = [["status", "--porcelain=v1"], ["add", "-A"], ["add", "."], ["diff", "--stat"], ["checkout", "--", "."], ["stash"]];

it("a name holding a backslash is an ordinary file to every git command, as in real git", async () => {
  const base = committedRepo({ "a.txt": "a\n", "x\\y.txt": "bs\n" }, "one");
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const argv of argvs) {
    const disk = diskCopy(base);
    const { ws, git } = await workspaceCopy(base);
    for (const [p, c] of [["a.txt", "A\n"], ["x\\y.txt", "BS\n"], ["new\\n.txt", "n\n"]] as const) {
      writeFileSync(`${disk}/${p}`, c);
      await ws.fs.writeFile(`/repo/${p}`, c);
    }
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    ours.push({ argv, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
    const real = realGitResult(disk, ...argv);
    theirs.push({ argv, exitCode: real.status, stdout: real.stdout, stderr: real.stderr });
  }
  expect(theirs.map((t) => (t as { exitCode: number }).exitCode)).toEqual([0, 0, 0, 0, 0, 0]);
  expect(ours).toEqual(theirs);
});
