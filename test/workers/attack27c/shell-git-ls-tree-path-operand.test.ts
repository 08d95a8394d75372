/**
 * Issue 20, twenty-seventh attack run: `git ls-tree <tree-ish> <path>` does not print what git prints for the path.
 * A file path comes out joined to itself (`d/b.txt/d/b.txt`), a directory written without a trailing slash lists its
 * contents instead of its own entry, and in a subdirectory the listing is the root's, with names not relative to it —
 * silently another listing, exit 0.
 *
 * Tried: in the shell with git configured, a commit of `a.txt`, `d/b.txt`, `d/e/c.txt`; `git ls-tree HEAD d/b.txt`,
 * `git ls-tree HEAD d`, `git ls-tree --name-only HEAD d/e`, and from `d/`: `git ls-tree HEAD`, `git ls-tree --name-only
 * HEAD e/`; the same in git 2.39.5 (fixed dates, so the same object ids).
 * Held: `git ls-tree HEAD` at the root, `git ls-tree HEAD d/` (directory form) at the root, `--name-only` at the root,
 * names with spaces/newlines/UTF-8 quoted as git.
 *
 * Found (medium — wrong output with exit 0 for a listing agents use to inspect a tree; 2 of 2 runs).
 *
 * Suggested fix: src/git/cli/commands.ts `lsTree`: `full` adds `inDir/` to an entry that is `inDir` itself (a file);
 * without a trailing slash the path names the entry (show it, not its tree's contents — the typed `lsTree` reads a
 * path as "the directory's entries", so the CLI needs the entry for a non-`/` path); without a path and in a
 * subdirectory, list the cwd's tree (git's implicit prefix); print each name relative to the cwd (`relativeTo`).
 *
 * Fixed: src/git/cli/commands.ts `lsTree` walks the tree itself as git 2.39's builtin/ls-tree.c does — the paths
 * are literal pathspecs relative to the cwd (an entry is shown when a path names it, lies above it, or it lies below
 * a path; a tree is entered with `-r` or when a path continues below it, shown then only with `-t`), the cwd is the
 * path when none is given, names are printed relative to the cwd; `-r`, `-t`, `-d`, `-z`, `--object-only`,
 * `--full-name`, `--full-tree` added; a tree-ish naming nothing dies `Not a valid object name <x>` (128), and so
 * does `cat-file -p/-t/-s` of a missing full oid. Siblings: test/node/fix27/git-cli-gd.test.ts (side by side with git).
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack27c: git ls-tree with a path operand or in a subdirectory", () => {
  it("prints the entry the path names, relative to the cwd, as git 2.39", { timeout: 120_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      return sh(
        ws,
        [
          "export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' GIT_COMMITTER_NAME='Shell User' GIT_COMMITTER_EMAIL=shell@example.com",
          "git init -q -b main; echo one > a.txt; mkdir -p d/e; echo b > d/b.txt; echo c > d/e/c.txt; git add .; git commit -q -m first",
          "echo '$ file'; git ls-tree HEAD d/b.txt",
          "echo '$ dir'; git ls-tree HEAD d",
          "echo '$ dir name-only'; git ls-tree --name-only HEAD d/e",
          "cd d",
          "echo '$ in d'; git ls-tree HEAD",
          "echo '$ in d, e/'; git ls-tree --name-only HEAD e/",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
    }, withGit);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "$ file",
        // Was: "100644 blob 6178…\td/b.txt/d/b.txt".
        "100644 blob 61780798228d17af2d34fce4cfbdf35556832472\td/b.txt",
        "$ dir",
        // Was: d's two entries ("…\td/b.txt", "040000 tree cf67…\td/e").
        "040000 tree 767898db065f9d63575f02efb1b17bb1ad3e0334\td",
        "$ dir name-only",
        // Was: "d/e/c.txt".
        "d/e",
        "$ in d",
        // Was: the root's "…\ta.txt" and "040000 tree 7678…\td".
        "100644 blob 61780798228d17af2d34fce4cfbdf35556832472\tb.txt",
        "040000 tree cf67e9ef3a0fc6d858423fc177f2fbbe985a6f17\te",
        "$ in d, e/",
        // Was: "d/e/c.txt".
        "e/c.txt",
        "",
      ].join("\n"),
    );
  });
});
