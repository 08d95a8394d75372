/**
 * Issue 20, twenty-ninth attack run: a tree entry with the legacy mode 100664 (a group-writable file, written by git
 * before mid-2005 and by some importers; libgit2 and gogs read it too) makes every operation that reads the tree fail
 * with isomorphic-git's "An internal error caused this command to fail. … please file an issue at
 * https://github.com/isomorphic-git/isomorphic-git/issues … Unexpected GitTree entry mode: 100664": `ls-tree`,
 * `show`, `diff`, `checkout`, `reset --hard` — and `clone` of such a repository, which then removes what it made.
 * Git 2.39.5 reads the mode as 100644 (canon_mode): `ls-tree` prints `100644 blob …`, checkout writes the file,
 * `diff` against the same blob at 100644 is empty, fsck is silent. The repository cannot be used at all here, and
 * the message sends the agent to another project's bug tracker.
 * Tried: trees made with the real git (`hash-object -t tree --literally`) holding 100664 (and 100000, 120664-like
 * odd modes), read with ls-tree -r, show, diff, checkout, reset --hard, merge, log; a clone over smart HTTP from a
 * loopback server (git upload-pack) of a repository whose HEAD holds such a tree — side by side with git 2.39.5.
 * Held: `log --oneline` works (it reads no tree); the failures are GitErrors with codes (ELSTREEFAIL, ECHECKOUTFAIL,
 * ECLONEFAIL) and nothing is written.
 * Found (medium — a repository real git clones and checks out cannot be cloned, listed or checked out, with an
 * unreadable error; 2 of 2 runs).
 * Suggested fix: where trees are parsed (the bundled isomorphic-git GitTree, src/git/generated, or a wrapper in
 * src/git/ops/tree-state.ts / load.ts) map legacy modes as git's canon_mode does: any regular-file mode without the
 * owner-execute bit (100664, 100600, …) → 100644, with it → 100755, 120xxx → 120000, 040xxx → 040000; or, at the
 * least, turn "Unexpected GitTree entry mode" into a readable refusal naming the entry.
 *
 * Fixed: scripts/gen-git.mjs patches isomorphic-git's GitTree parser to read an entry's mode as git does (tree-walk.c
 * get_mode + canon_mode): octal digits; a regular file is 100755 with the owner-execute bit and 100644 without,
 * 120xxx → 120000, 040xxx → 040000, anything else → 160000 — so ls-tree, show, diff, checkout, reset, merge and clone
 * see the canonical modes, and commit/merge/stash write canonical trees (as git). limitModeToAllowed (trees built from
 * entries) maps modes the same way. A mode that is not octal digits is refused naming the entry (`tree entry "a.txt"
 * has a malformed mode "10064x" …`), and isomorphic-git's InternalError now carries only its own message (no "file
 * an issue" text). Siblings: test/node/fix29/git-legacy-mode-{read,checkout,clone}.test.ts.
 */
import { execFileSync } from "node:child_process";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** A repository whose main is base (a.txt, 100644) and `old`, a child commit whose tree holds a.txt and b.txt at 100664. */
function legacyRepo(): { disk: string; old: string } {
  const disk = committedRepo({ "a.txt": "a\n" }, "base");
  const a = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
  const b = execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: disk, input: "b\n" }).toString().trim();
  const body = Buffer.concat([Buffer.from("100664 a.txt\0"), Buffer.from(a, "hex"), Buffer.from("100664 b.txt\0"), Buffer.from(b, "hex")]);
  const tree = execFileSync("git", ["hash-object", "-t", "tree", "-w", "--stdin", "--literally"], { cwd: disk, input: body }).toString().trim();
  const old = realGit(disk, "commit-tree", tree, "-p", "HEAD", "-m", "old mode").trim();
  realGit(disk, "branch", "old", old);
  return { disk, old };
}

it("a tree entry of mode 100664 reads as 100644, as git 2.39.5: ls-tree, diff, checkout", { timeout: 60_000 }, async () => {
  const { disk } = legacyRepo();
  const { ws, git, dir } = await workspaceCopy(disk);
  const run = (...argv: string[]) => git.cli({ argv, cwd: dir });

  const lsTree = realGit(disk, "ls-tree", "old"); // "100644 blob 7898…\ta.txt\n100644 blob 6178…\tb.txt\n"
  expect(await run("ls-tree", "old")).toEqual({ stdout: lsTree, stderr: "", exitCode: 0 }); // Was: exit 1, "git ls-tree: An internal error caused this command to fail. … Unexpected GitTree entry mode: 100664"
  expect(await run("diff", "--name-status", "main", "old")).toEqual({ stdout: realGit(disk, "diff", "--name-status", "main", "old"), stderr: "", exitCode: 0 }); // Was: the same internal error, exit 1
  expect((await run("checkout", "-q", "old")).exitCode).toBe(0); // Was: 1, the internal error
  expect(await ws.fs.readFile(`${dir}/b.txt`, "utf8")).toBe("b\n"); // Was: ENOENT
  expect((await ws.fs.stat(`${dir}/b.txt`)).mode & 0o777).toBe(0o644);
  expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
});
