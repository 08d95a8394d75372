/**
 * Issue 20, twenty-third attack run: `git show HEAD:d` (d a directory) writes the raw tree object to stdout — binary
 * `100644 b.txt\0<20 bytes of oid>40000 e\0<20 bytes>` — with status 0, and `git show HEAD^{tree}` says `revision
 * 'HEAD^{tree}' does not name a commit`. Real git (2.39) lists a tree: `tree HEAD:d`, a blank line, then each entry
 * name with `/` after a subtree (`b.txt`, `e/`). An agent looking at a directory of an old commit gets binary noise
 * (NULs, invalid UTF-8) in its context instead of the names.
 * Tried: side by side with git 2.39.5: `git show HEAD:a.txt` (held: the blob), `git show HEAD:d`, `git show
 * HEAD^{tree}`, `git cat-file -p HEAD^{tree}` (held: ls-tree lines), `git ls-tree HEAD d` (held).
 * Held: blobs, commits, cat-file -p of a tree.
 * Found (low-medium — binary output instead of a listing; 2 of 2 runs): see the expectations.
 * Suggested fix: in the CLI's show, when the object read is a tree, print `tree <rev as written>\n\n` and each
 * entry's name (`/` after a tree), as git's show_tree_object; resolve `<rev>^{tree}` to the tree too.
 * Fixed: the CLI's `show` (src/git/cli/commands.ts) prints a tree as git does (format.ts formatTreeNames: `tree <ref
 * as typed>`, a blank line, each name as stored, `/` after a subtree) for `<rev>:<dir>`, `<rev>:`, `<rev>^{tree}` and
 * a tree's oid, and a blob named without a path (its oid) as its bytes; `<rev>:` is the tree for `cat-file` too (it
 * read the commit). The revision parser (src/git/ops/rev.ts) takes `^{tree}` of a tree and `:<path>` after a tree
 * (`HEAD^{tree}:d`, `<tree-oid>:d`), as git. Siblings in test/workers/fix23/git-cli-gb.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it("git show <tree> lists the tree's names, as git", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(
      ws,
      "git init -q . && mkdir -p d/e && echo b > d/b.txt && echo c > d/e/c.txt && git add -A && git commit -q -m init && git show HEAD:d; echo rc=$?",
      { cwd: "/workspace" },
    );
    return { stdout: r.stdout, stderr: r.stderr };
  }, withGit);
  // Before the fix: "100644 b.txt\0…binary oid…40000 e\0…rc=0\n".
  expect(out).toEqual({ stdout: "tree HEAD:d\n\nb.txt\ne/\nrc=0\n", stderr: "" });
});
