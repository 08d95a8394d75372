/**
 * Issue 20, twenty-seventh attack run: `<rev>:./<path>` and `<rev>:../<path>` (and `:./<path>` for the index) are
 * relative to the current directory in git ("a path starting with ./ or ../ is relative to the current working
 * directory", gitrevisions(7)); the Workspace's git drops the `./` and reads the path from the repository root, so in
 * a subdirectory `git show HEAD:./b.txt` answers `path 'b.txt' does not exist in 'HEAD'` (128) and `git rev-parse
 * HEAD:./b.txt` exits 1 — the form git's own hint tells an agent to use ("Did you mean 'HEAD:d/b.txt' aka
 * 'HEAD:./b.txt'?").
 *
 * Tried: in the shell with git configured, a commit of `a.txt`, `d/b.txt`, `d/e/c.txt`; from `d/`: `git show
 * HEAD:./b.txt`, `git rev-parse HEAD:./b.txt HEAD:./e HEAD:../a.txt`, `git cat-file -p HEAD:./e/c.txt`, `git show
 * :./b.txt`; the same in git 2.39.5.
 * Held: `HEAD:d/b.txt` from anywhere (root-relative, as git); `HEAD:b.txt` from `d/` failing (as git, which also
 * fails); `HEAD:` and `HEAD^{tree}:d` trees.
 *
 * Found (low-medium — a documented revision form fails with a false "does not exist" where git succeeds; 2 of 2
 * runs).
 *
 * Suggested fix: where the CLI resolves `<rev>:<path>` (src/git/cli/commands.ts show/cat-file/rev-parse, through
 * `revParse`'s `:<path>`): when the path starts with `./` or `../`, join it to the cwd's path in the repository
 * (`ctx.pathspec`) and normalise, refusing one that leaves the repository as git does (`outside repository`).
 *
 * Fixed: src/git/cli/commands.ts `cwdRev` (git's resolve_relative_path) makes a `./`/`../` path after `:`
 * repository-relative from the cwd for show, cat-file, rev-parse and ls-tree (one leaving the repository: `'<p>' is
 * outside repository at '<root>'`, 128); rev-parse of a path naming nothing now dies 128 as git. `:<path>` then still
 * read HEAD's tree, not the index (it reads the index since issue 20's run 40, fixer f40g1). Siblings: test/node/fix27/git-cli-gd.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack27c: <rev>:./path in a subdirectory", () => {
  it("reads ./ and ../ relative to the cwd, as git 2.39", { timeout: 120_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      return sh(
        ws,
        [
          "export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' GIT_COMMITTER_NAME='Shell User' GIT_COMMITTER_EMAIL=shell@example.com",
          "git init -q -b main; echo one > a.txt; mkdir -p d/e; echo b > d/b.txt; echo c > d/e/c.txt; git add .; git commit -q -m first",
          "cd d",
          "git show HEAD:./b.txt; echo rc=$?",
          "git rev-parse HEAD:./b.txt HEAD:./e HEAD:../a.txt; echo rc=$?",
          "git cat-file -p HEAD:./e/c.txt; echo rc=$?",
          "git show :./b.txt; echo rc=$?",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
    }, withGit);
    expect(r.stdout).toBe(
      [
        "b",
        "rc=0", // Was: rc=128.
        "61780798228d17af2d34fce4cfbdf35556832472",
        "cf67e9ef3a0fc6d858423fc177f2fbbe985a6f17",
        "5626abf0f72e58d7a153368ba57db4c673c0e171",
        "rc=0", // Was: rc=1.
        "c",
        "rc=0", // Was: rc=128.
        "b",
        "rc=0", // Was: rc=128.
        "",
      ].join("\n"),
    );
    // Was: "git show: path 'b.txt' does not exist in 'HEAD'", "git rev-parse: path './b.txt' does not exist in 'HEAD'", …
    expect(r.stderr).toBe("");
  });
});
