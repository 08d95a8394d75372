/**
 * Issue 20, scout after the sixteenth attack run: git through a link now runs on the canonical path, but pathspecs
 * are still taken against the path as written.
 *
 * Tried: `/w/repo` a repository with untracked `a.txt` and `sub/b.txt`, `/w/s` → `repo`; the shell's git in the
 * linked directory (`cd /w/s && git add sub/b.txt`, `cd /w/s/sub && git add b.txt`, `git -C /w/s add a.txt`) and
 * `git.add({ dir: "/w/s", paths: ["/w/s/a.txt"] })` (an absolute pathspec inside `dir` as written, spec 04 §2.3).
 * Found (high: ordinary use; every pathspec command run from a linked cwd fails): since 8513628 `repoRoot` answers
 * `/w/repo` while the cwd stays `/w/s`, so each pathspec is refused `git add: path 'sub/b.txt' is outside the
 * repository at /w/repo` (exit 1), and the API refuses the absolute path EPATHOUTSIDE. Real git (`git -C link add
 * link/x`, or from a linked cwd) stages them: it compares absolute pathspecs with the work tree's real path too.
 * Also (same cause, the cwd never related to the canonical root): from `/w/s/sub` (= `/w/repo/sub`) `git ls-files`
 * lists the whole repository (`a.txt\nsub/b.txt`; from `/w/repo/sub`: `b.txt`), `git status --short` shows root-
 * relative paths (` M a.txt\n M sub/b.txt`; real subdir: ` M ../a.txt\n` after the checkout), and `git checkout
 * -- b.txt` fails 'path 'b.txt' is outside the repository at /w/repo' (exit 1) — the same commands in the real
 * directory give git's answers (checked in this test).
 * Suggested fix: resolve pathspecs (toRepoPath in ops/pathspec.ts, CliContext.pathspec/cwdInRepo) against both the
 * dir as given and its canonical path — e.g. canonicalise the CLI's cwd once (canonicalDir) before relating it to
 * the root, and in the API map a `paths` entry under the written `dir` onto `key` before toRepoPath.
 * Fixed: the command line relates its real cwd (CliContext.realCwd: the client's canonicalDir) to the root, and an
 * absolute pathspec through a link by its directory's real path; the client moves absolute `paths`/`path`/`filepath`
 * under the written `dir` onto the canonical path before the operation (client.ts rebasePaths).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";
import { runGitCli } from "../../../src/git/cli.js";

afterAll(cleanupScratch);

async function setup() {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/w/repo" });
  await ws.fs.writeFile("/w/repo/a.txt", "a\n");
  await ws.fs.mkdir("/w/repo/sub");
  await ws.fs.writeFile("/w/repo/sub/b.txt", "b\n");
  await ws.fs.symlink("repo", "/w/s");
  return { ws, git };
}

it("the git command line run in a linked directory stages the pathspecs given", { timeout: 30_000 }, async () => {
  const { git } = await setup();
  expect(await runGitCli(git, { argv: ["add", "sub/b.txt"], cwd: "/w/s" })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await runGitCli(git, { argv: ["-C", "/w/s", "add", "a.txt"], cwd: "/" })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await git.status({ dir: "/w/repo" })).toEqual([
    { path: "a.txt", index: "A", worktree: " " },
    { path: "sub/b.txt", index: "A", worktree: " " },
  ]);
});

it("from a subdirectory reached through the link", { timeout: 30_000 }, async () => {
  const { git } = await setup();
  expect(await runGitCli(git, { argv: ["add", "b.txt"], cwd: "/w/s/sub" })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await git.status({ dir: "/w/repo" })).toEqual([
    { path: "a.txt", index: " ", worktree: "?" },
    { path: "sub/b.txt", index: "A", worktree: " " },
  ]);
});

it("git.add with an absolute pathspec under the dir as written", { timeout: 30_000 }, async () => {
  const { git } = await setup();
  await git.add({ dir: "/w/s", paths: ["/w/s/a.txt"] });
  expect(await git.status({ dir: "/w/repo" })).toEqual([
    { path: "a.txt", index: "A", worktree: " " },
    { path: "sub/b.txt", index: " ", worktree: "?" },
  ]);
});

it("in a linked subdirectory, cwd-relative output and pathspecs match the real subdirectory's", { timeout: 30_000 }, async () => {
  const { ws, git } = newWorkspace();
  await git.init({ dir: "/w/repo" });
  await ws.fs.mkdir("/w/repo/sub");
  await ws.fs.writeFile("/w/repo/sub/b.txt", "b\n");
  await ws.fs.writeFile("/w/repo/a.txt", "a\n");
  await git.add({ dir: "/w/repo", paths: ["."] });
  await git.commit({ dir: "/w/repo", message: "one" });
  await ws.fs.symlink("repo", "/w/s");
  const run = (cwd: string, ...argv: string[]) => runGitCli(git, { argv, cwd });
  for (const cwd of ["/w/repo/sub", "/w/s/sub"]) {
    await ws.fs.writeFile("/w/repo/sub/b.txt", "bb\n");
    await ws.fs.writeFile("/w/repo/a.txt", "aa\n");
    expect(await run(cwd, "ls-files")).toEqual({ stdout: "b.txt\n", stderr: "", exitCode: 0 });
    expect(await run(cwd, "checkout", "--", "b.txt")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await run(cwd, "status", "--short")).toEqual({ stdout: " M ../a.txt\n", stderr: "", exitCode: 0 });
  }
});
