/**
 * Issue 20 seventh attack run, category 3 (hostile input to git): revision
 * arguments the Workspace's git does not know, given to `diff`, `show`,
 * `cat-file` and `rev-parse` through the CLI.
 *
 * DEFECT (low), FIXED — an argument before `--` that is neither a revision nor a path in the working tree is an error (exit 128, real git's message) — reproduction: a repository with one commit and `f`
 * modified in the working tree;
 *   git.cli({ argv: ["diff", "nosuchbranch"], cwd: "/repo" })   → { stdout: "", stderr: "", exitCode: 0 }
 * and the same for `diff deadbeef`, `diff stash@{0}` (a stash exists),
 * `diff HEAD@{1}`, `diff HEAD nosuch`, `diff --stat nosuch`. Real git
 * exits 128 (`fatal: ambiguous argument 'nosuch': unknown revision or path
 * not in the working tree`); here an unknown first argument is taken as a
 * pathspec matching nothing, so the answer reads "no differences". With
 * `--` after it (`diff nosuch -- f`) the revision is checked and refused.
 * `show`, `cat-file` and `rev-parse` refuse `stash@{0}` (`unknown
 * revision`) — honest, though `stash@{n}` is the name `stash list` prints
 * and real git accepts it (`stash:f` works).
 * Impact: low — an agent comparing against a branch it misspelled, or that
 * was never fetched (`git diff origin/main`), is told nothing differs, and
 * may conclude its work is already there.
 * Fix proposal: as real git — an argument before `--` that is neither a
 * revision nor an existing path is an error (exit 128, that message); and
 * accept `<ref>@{n}` for the stash reflog (and HEAD's), or refuse it with
 * `unsupported revision syntax` everywhere, diff included.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

async function repo() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
  await ws.fs.mkdir("/repo");
  await ws.fs.writeFile("/repo/f", "base\n");
  const cli = (...argv: string[]) => ws.git!.cli({ argv, cwd: "/repo" });
  await cli("init");
  await cli("add", ".");
  await cli("commit", "-m", "b");
  return { ws, cli };
}

describe("attack7: unknown revisions", () => {
  it("diff with a known revision shows the change; with `--` an unknown one is refused; show/cat-file/rev-parse refuse stash@{0}", async () => {
    const { ws, cli } = await repo();
    await ws.fs.writeFile("/repo/f", "changed\n");
    expect(await cli("diff", "HEAD")).toEqual({ stdout: "diff --git a/f b/f\nindex df967b9..5ea2ed4 100644\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-base\n+changed\n", stderr: "", exitCode: 0 });
    // 128 as real git's `fatal:` (1 before issue 20's twenty-fifth attack run), here and below.
    expect(await cli("diff", "nosuch", "--", "f")).toEqual({ stdout: "", stderr: "git diff: unknown revision 'nosuch'\n", exitCode: 128 });
    await cli("stash");
    for (const argv of [["show", "stash@{0}:f"], ["cat-file", "-p", "stash@{0}:f"], ["rev-parse", "stash@{0}"]]) {
      expect(await cli(...argv)).toEqual({ stdout: "", stderr: `git ${argv[0]}: unknown revision 'stash@{0}'\n`, exitCode: 128 });
    }
    expect(await cli("show", "stash:f")).toEqual({ stdout: "changed\n", stderr: "", exitCode: 0 });
  });

  it("DEFECT (low): diff against an unknown revision answers 'no differences' (exit 0) instead of an error", async () => {
    const { ws, cli } = await repo();
    await ws.fs.writeFile("/repo/f", "changed\n");
    const silent: string[] = [];
    for (const argv of [["diff", "nosuchbranch"], ["diff", "deadbeef"], ["diff", "HEAD@{1}"], ["diff", "HEAD", "nosuch"], ["diff", "--stat", "nosuch"]]) {
      const r = await cli(...argv);
      if (r.exitCode === 0 && r.stdout === "") silent.push(argv.join(" "));
    }
    // Was: all five. Now as real git (2.39): exit 128, the argument named.
    expect(silent).toEqual([]);
    const ambiguous = (a: string) =>
      `git diff: ambiguous argument '${a}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n`;
    for (const [argv, a] of [[["diff", "nosuchbranch"], "nosuchbranch"], [["diff", "deadbeef"], "deadbeef"], [["diff", "HEAD", "nosuch"], "nosuch"], [["diff", "--stat", "nosuch"], "nosuch"]] as const) {
      expect(await cli(...argv)).toEqual({ stdout: "", stderr: ambiguous(a), exitCode: 128 });
    }
    expect(await cli("diff", "f", "nosuch")).toEqual({
      stdout: "",
      stderr: "git diff: nosuch: no such path in the working tree.\nUse 'git <command> -- <path>...' to specify paths that do not exist locally.\n",
      exitCode: 128,
    });
    // A path, tracked or not, still works without `--`.
    await ws.fs.writeFile("/repo/new", "n\n");
    expect(await cli("diff", "HEAD", "f")).toMatchObject({ stdout: expect.stringContaining("+changed\n"), exitCode: 0 });
    expect(await cli("diff", "new")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });
});
