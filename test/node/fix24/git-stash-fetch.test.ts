/**
 * Issue 20, twenty-fourth attack run, fixer GS: the siblings of
 * attack24b/git-stash-push-fails-half-reset, git-stash-push-drops-link-over-tracked-dir and
 * git-cli-fetch-refspec-destination-ignored.
 *
 * stash push: refuses, before anything is written, every untracked thing its reset to HEAD would destroy (a file
 * where a tracked directory goes, the contents of a directory where a tracked file goes) and a tracked path behind a
 * link at any depth; an empty directory in the way is no loss (the stash is made, as git); a HEAD file taken out of
 * the index but kept on disk is saved and comes back with pop, as git 2.39 (it was recorded deleted and the reset
 * wrote HEAD's over the edit); a checked-out submodule's directory is left alone, as git (the reset removed its files).
 *
 * fetch <src>:<dst>: git's update_local_ref — new, fast-forward, non-fast-forward rejected (exit 1, ref kept),
 * `+` forced, up to date silent, `-q` silent, a tag clobbered only with `+`, the checked-out branch and an invalid
 * name refused before fetching (128), `:dst` the remote's HEAD, patterns 129. pull refuses `src:dst` (129, it was
 * ignored); push forces with a leading `+` (it was ignored). Outputs compared with git 2.39.5 over file://.
 */
import { afterAll, describe, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, diskCopy, newWorkspace, realGit, realGitResult, realRepo, workspaceCopy, writeTree } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

async function repo() {
  const { ws, git } = newWorkspace();
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/r" });
  await ws.fs.mkdir("/r", { recursive: true });
  await run("init", "-q", "-b", "main");
  return { ws, git, run };
}

describe("stash push refuses what its reset would destroy, before writing", () => {
  it("untracked contents of a directory where a tracked file goes", async () => {
    const { ws, git, run } = await repo();
    await ws.fs.writeFile("/r/x", "x\n");
    await ws.fs.writeFile("/r/f.txt", "f\n");
    await run("add", ".");
    expect((await run("commit", "-qm", "one")).exitCode).toBe(0);
    await ws.fs.rm("/r/x");
    await ws.fs.mkdir("/r/x/sub", { recursive: true });
    await ws.fs.writeFile("/r/x/sub/y", "precious\n");
    await ws.fs.writeFile("/r/f.txt", "f edited\n");
    const stash = await run("stash");
    expect(stash).toEqual({
      stdout: "",
      stderr: "git stash: the following untracked working tree files would be overwritten by stash: x/sub/y\n",
      exitCode: 1,
    });
    expect((await run("stash", "list")).stdout).toBe("");
    expect(await ws.fs.readFile("/r/x/sub/y", "utf8")).toBe("precious\n");
    expect(await ws.fs.readFile("/r/f.txt", "utf8")).toBe("f edited\n");
    // The typed API: the same refusal, and no refs/stash or reflog written.
    const error = await git.stashPush({ dir: "/r" }).catch((e: { code: string; message: string }) => e);
    expect(error).toMatchObject({ code: "ESTASHFAIL", message: "git stash failed: the following untracked working tree files would be overwritten by stash: x/sub/y" });
    expect(await ws.fs.lstat("/r/.git/refs/stash").catch((e: { code: string }) => e.code)).toBe("ENOENT");
    expect(await ws.fs.lstat("/r/.git/logs/refs/stash").catch((e: { code: string }) => e.code)).toBe("ENOENT");
  });

  it("an untracked file where a tracked directory goes (typed API)", async () => {
    const { ws, git, run } = await repo();
    await ws.fs.mkdir("/r/d/e", { recursive: true });
    await ws.fs.writeFile("/r/a.txt", "a\n");
    await ws.fs.writeFile("/r/d/e/one", "1\n");
    await run("add", ".");
    expect((await run("commit", "-qm", "one")).exitCode).toBe(0);
    await ws.fs.writeFile("/r/a.txt", "a edited\n");
    await ws.fs.rm("/r/d/e", { recursive: true });
    await ws.fs.writeFile("/r/d/e", "mine\n");
    const error = await git.stashPush({ dir: "/r" }).catch((e: { code: string; message: string }) => e);
    expect(error).toMatchObject({ code: "ESTASHFAIL", message: "git stash failed: the following untracked working tree files would be overwritten by stash: d/e" });
    expect(await git.stashList({ dir: "/r" })).toEqual([]);
    expect(await ws.fs.readFile("/r/a.txt", "utf8")).toBe("a edited\n");
    expect(await ws.fs.readFile("/r/d/e", "utf8")).toBe("mine\n");
  });

  it("a tracked path behind a link deeper in the tree", async () => {
    const { ws, run } = await repo();
    await ws.fs.mkdir("/r/d/sub", { recursive: true });
    await ws.fs.writeFile("/r/d/sub/one", "1\n");
    await ws.fs.writeFile("/r/f.txt", "f\n");
    await run("add", ".");
    expect((await run("commit", "-qm", "one")).exitCode).toBe(0);
    await ws.fs.rm("/r/d/sub", { recursive: true });
    await ws.fs.mkdir("/r/elsewhere");
    await ws.fs.writeFile("/r/elsewhere/one", "other\n");
    await ws.fs.symlink("../elsewhere", "/r/d/sub");
    await ws.fs.writeFile("/r/f.txt", "f edited\n");
    expect(await run("stash", "-q")).toEqual({ stdout: "", stderr: "git stash: 'd/sub/one' is beyond a symbolic link\n", exitCode: 1 });
    expect((await run("stash", "list")).stdout).toBe("");
    expect((await ws.fs.lstat("/r/d/sub")).isSymbolicLink).toBe(true);
    expect(await ws.fs.readFile("/r/f.txt", "utf8")).toBe("f edited\n");
    expect(await ws.fs.readFile("/r/elsewhere/one", "utf8")).toBe("other\n");
  });

  it("an empty directory where a tracked file goes is no loss: stashed and reset, as git", async () => {
    const { ws, run } = await repo();
    await ws.fs.writeFile("/r/x", "x\n");
    await run("add", ".");
    expect((await run("commit", "-qm", "one")).exitCode).toBe(0);
    await ws.fs.rm("/r/x");
    await ws.fs.mkdir("/r/x");
    expect((await run("stash", "-q")).exitCode).toBe(0);
    expect(await ws.fs.readFile("/r/x", "utf8")).toBe("x\n");
    expect((await run("stash", "list")).stdout).toMatch(/^stash@\{0\}: WIP on main: [0-9a-f]{7} one\n$/);
  });
});

it("stash saves a HEAD file taken out of the index but kept on disk, and pop brings its edit back (as git)", async () => {
  const { ws, run } = await repo();
  await ws.fs.writeFile("/r/a.txt", "a\n");
  await ws.fs.writeFile("/r/f.txt", "f\n");
  await run("add", ".");
  expect((await run("commit", "-qm", "one")).exitCode).toBe(0);
  await run("rm", "-q", "--cached", "a.txt");
  await ws.fs.writeFile("/r/a.txt", "a edited\n");
  expect((await run("stash", "-q")).exitCode).toBe(0);
  expect(await ws.fs.readFile("/r/a.txt", "utf8")).toBe("a\n");
  expect((await run("status", "--short")).stdout).toBe("");
  // The stash's working-tree commit holds the edit (it was recorded deleted: `D\ta.txt`).
  expect((await run("diff", "--name-status", "HEAD", "stash")).stdout).toBe("M\ta.txt\n");
  expect(await run("stash", "pop", "-q")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await ws.fs.readFile("/r/a.txt", "utf8")).toBe("a edited\n");
  expect((await run("status", "--short")).stdout).toBe(" M a.txt\n");
});

describe("fetch <src>:<dst> as git's update_local_ref", () => {
  async function cloned() {
    const { url, name } = await forkRepo();
    const rev = async (ref: string) => (await serverGit(name, ["rev-parse", ref])).stdout.trim();
    const { git } = newWorkspace();
    expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/w" })).exitCode).toBe(0);
    const run = (...argv: string[]) => git.cli({ argv, cwd: "/w/repo" });
    const local = async (ref: string) => (await run("rev-parse", "--verify", "-q", ref)).stdout.trim();
    return { url, name, rev, git, run, local };
  }

  it("new, up to date, fast-forward, rejected, forced", async () => {
    const { url, rev, run, local } = await cloned();
    const [feature, main] = [await rev("refs/heads/feature"), await rev("refs/heads/main")];
    const parent = await rev("refs/heads/feature^");
    const from = `From ${url.replace(/\.git$/, "")}\n`; // as git: the From line drops `.git` (was: the URL whole; fixer GC run 32)
    expect(await run("fetch", "origin", "feature:localfeat")).toEqual({ stdout: "", stderr: `${from} * [new branch]      feature    -> localfeat\n`, exitCode: 0 });
    expect(await local("refs/heads/localfeat")).toBe(feature);
    expect(await run("fetch", "origin", "feature:localfeat")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect((await run("update-ref", "--force", "refs/heads/localfeat", parent)).exitCode).toBe(0);
    expect(await run("fetch", "origin", "feature:localfeat")).toEqual({
      stdout: "",
      stderr: `${from}   ${parent.slice(0, 7)}..${feature.slice(0, 7)}  feature    -> localfeat\n`,
      exitCode: 0,
    });
    expect(await run("fetch", "origin", "main:heads/localfeat")).toEqual({
      stdout: "",
      stderr: `${from} ! [rejected]        main       -> localfeat  (non-fast-forward)\n`,
      exitCode: 1,
    });
    expect(await local("refs/heads/localfeat")).toBe(feature);
    expect(await run("fetch", "-q", "origin", "main:localfeat")).toEqual({ stdout: "", stderr: "", exitCode: 1 });
    expect(await run("fetch", "origin", "+main:refs/heads/localfeat")).toEqual({
      stdout: "",
      stderr: `${from} + ${feature.slice(0, 7)}...${main.slice(0, 7)} main       -> localfeat  (forced update)\n`,
      exitCode: 0,
    });
    expect(await local("refs/heads/localfeat")).toBe(main);
    expect(await run("fetch", "-q", "origin", "feature:quiet")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await local("refs/heads/quiet")).toBe(feature);
  });

  it("refuses the checked-out branch and an invalid name before fetching; :dst is the remote's HEAD; tags", async () => {
    const { url, rev, run, local } = await cloned();
    const [feature, main] = [await rev("refs/heads/feature"), await rev("refs/heads/main")];
    expect(await run("fetch", "origin", "feature:main")).toEqual({
      stdout: "",
      stderr: "git fetch: refusing to fetch into branch 'refs/heads/main' checked out at '/w/repo'\n",
      exitCode: 128,
    });
    expect(await local("refs/heads/main")).toBe(main);
    expect(await run("fetch", "origin", "feature:a..b")).toEqual({ stdout: "", stderr: "git fetch: invalid refspec 'feature:a..b'\n", exitCode: 128 });
    expect((await run("fetch", "origin", "refs/heads/*:refs/remotes/x/*")).exitCode).toBe(129);
    expect(await run("fetch", "origin", ":fromhead")).toEqual({ stdout: "", stderr: `From ${url.replace(/\.git$/, "")}\n * [new ref]                    -> fromhead\n`, exitCode: 0 });
    expect(await local("refs/heads/fromhead")).toBe(main);
    expect(await run("fetch", "origin", "feature:tags/t1")).toEqual({ stdout: "", stderr: `From ${url.replace(/\.git$/, "")}\n * [new branch]      feature    -> t1\n`, exitCode: 0 });
    expect(await run("fetch", "origin", "main:refs/tags/t1")).toEqual({
      stdout: "",
      stderr: `From ${url.replace(/\.git$/, "")}\n ! [rejected]        main       -> t1  (would clobber existing tag)\n`,
      exitCode: 1,
    });
    expect(await local("refs/tags/t1")).toBe(feature);
    expect(await run("fetch", "origin", "+main:tags/t1")).toEqual({ stdout: "", stderr: `From ${url.replace(/\.git$/, "")}\n t [tag update]      main       -> t1\n`, exitCode: 0 });
    expect(await local("refs/tags/t1")).toBe(main);
  });

  it("pull refuses <src>:<dst> (it was ignored); push forces with a leading +", async () => {
    const { rev, run, git, local } = await cloned();
    const main = await rev("refs/heads/main");
    const pull = await run("pull", "origin", "feature:zz");
    expect(pull.exitCode).toBe(129);
    expect(pull.stderr).toContain("'feature:zz': a <src>:<dst> refspec is not supported by pull");
    expect(await local("refs/heads/zz")).toBe("");
    // A commit beside origin's main: a plain push is rejected, `+main` replaces it.
    expect((await run("reset", "-q", "--hard", "HEAD^")).exitCode).toBe(0);
    await git.cli({ argv: ["commit", "-q", "--allow-empty", "-m", "beside"], cwd: "/w/repo" });
    const mine = await local("HEAD");
    expect((await run("push", "origin", "main")).exitCode).toBe(1);
    expect(await rev("refs/heads/main")).toBe(main);
    expect((await run("push", "-q", "origin", "+main")).exitCode).toBe(0);
    expect(await rev("refs/heads/main")).toBe(mine);
  });
});

it("stash leaves a checked-out submodule (a gitlink's directory) alone, as git", async () => {
  const disk = realRepo((r) => {
    writeTree(r, { "a.txt": "a\n" });
    realGit(r, "add", "a.txt");
    realGit(r, "update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},sub`);
    realGit(r, "commit", "-q", "-m", "one");
    writeTree(r, { "sub/inside.txt": "the submodule's own file\n", "a.txt": "a edited\n" });
  });
  const { ws, git, dir } = await workspaceCopy(disk);
  const real = realGitResult(diskCopy(disk), "stash", "-q");
  expect(real.status).toBe(0);
  expect(await git.cli({ argv: ["stash", "-q"], cwd: dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await ws.fs.readFile(`${dir}/sub/inside.txt`, "utf8")).toBe("the submodule's own file\n");
  expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("a\n");
  expect(await git.cli({ argv: ["stash", "pop", "-q"], cwd: dir })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("a edited\n");
});
