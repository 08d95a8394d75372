/**
 * Branches and lightweight tags in the Workspace (spec 04 §2.3 "Refs",
 * issue 15), compared with the real git CLI on an identical repository.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, exportDir, realGit, realGitResult, rejection, workspaceCopy, writeTree, wsSnapshot } from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** main: a, b; feature: +c; tags none. */
function baseRepo(): string {
  return committedRepo({ "a.txt": "alpha\n", "b/b.txt": "beta\n" }, "first", (d) => {
    realGit(d, "branch", "feature");
    writeTree(d, { "a.txt": "alpha 2\n" });
    realGit(d, "commit", "-q", "-am", "second");
  });
}

describe("branch", () => {
  it("creates, lists (sorted like git branch) and deletes branches; refs identical to real git", async () => {
    const disk = baseRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    for (const name of ["zeta", "Alpha", "feat/x", "b-1"]) await git.branch({ dir, name });
    await git.branch({ dir, name: "old", startPoint: "HEAD~1" });
    for (const name of ["zeta", "Alpha", "feat/x", "b-1"]) realGit(disk, "branch", name);
    realGit(disk, "branch", "old", "HEAD~1");
    const real = realGit(disk, "branch", "--format=%(refname:short) %(objectname)").trim().split("\n");
    const list = await git.branchList({ dir });
    expect(list).toEqual(real.map((l) => l.split(" ")[0]));
    for (const line of real) {
      const [name, oid] = line.split(" ");
      expect(await git.revParse({ dir, ref: `refs/heads/${name}` })).toBe(oid);
    }
    await git.branchDelete({ dir, name: "zeta" });
    realGit(disk, "branch", "-D", "zeta");
    expect(await git.branchList({ dir })).toEqual(realGit(disk, "branch", "--format=%(refname:short)").trim().split("\n"));
    // the real git reads the Workspace's refs the same way
    const exported = await exportDir(ws, dir);
    expect(realGit(exported, "branch", "--format=%(refname:short) %(objectname)")).toBe(realGit(disk, "branch", "--format=%(refname:short) %(objectname)"));
  });

  it("checkout: true switches to the new branch and keeps local changes", async () => {
    const disk = baseRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.writeFile(`${dir}/a.txt`, "local edit\n");
    await git.branch({ dir, name: "topic", checkout: true });
    expect(await git.currentBranch({ dir })).toBe("topic");
    expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("local edit\n");
    expect(await git.status({ dir })).toEqual([{ path: "a.txt", index: " ", worktree: "M" }]);
  });

  it("checkout: true refused by local changes leaves no branch behind (as git checkout -b)", async () => {
    const disk = baseRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.writeFile(`${dir}/a.txt`, "local edit\n");
    writeTree(disk, { "a.txt": "local edit\n" });
    expect(realGitResult(disk, "checkout", "-b", "topic", "feature").status).toBe(1);
    expect(realGit(disk, "branch", "--format=%(refname:short)")).toBe("feature\nmain\n");
    expect(await rejection(git.branch({ dir, name: "topic", startPoint: "feature", checkout: true }))).toEqual({
      name: "GitError",
      code: "ECHECKOUTFAIL",
      message: "git checkout failed: your local changes to the following files would be overwritten by checkout: a.txt",
    });
    expect(await git.branchList({ dir })).toEqual(["feature", "main"]);
    expect(await git.currentBranch({ dir })).toBe("main");
    expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("local edit\n");
  });

  it("lists a remote's branches without HEAD", async () => {
    const disk = baseRepo();
    realGit(disk, "update-ref", "refs/remotes/origin/main", "HEAD");
    realGit(disk, "update-ref", "refs/remotes/origin/dev", "HEAD~1");
    realGit(disk, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
    realGit(disk, "update-ref", "refs/remotes/upstream/x", "HEAD");
    const { git, dir } = await workspaceCopy(disk);
    expect(await git.branchList({ dir, remote: "origin" })).toEqual(["dev", "main"]);
    expect(await git.branchList({ dir, remote: "upstream" })).toEqual(["x"]);
    expect(await git.branchList({ dir })).toEqual(["feature", "main"]);
  });

  it("refuses what real git refuses, with EBRANCHFAIL, and changes nothing", async () => {
    const disk = baseRepo();
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    expect(await rejection(git.branch({ dir, name: "feature" }))).toEqual({
      name: "GitError",
      code: "EBRANCHFAIL",
      message: "git branch failed: a branch named 'feature' already exists",
    });
    expect(realGitResult(disk, "branch", "feature")).toMatchObject({ status: 128, stderr: "fatal: a branch named 'feature' already exists\n" });
    expect(realGitResult(disk, "branch", "a..b")).toMatchObject({ status: 128, stderr: "fatal: 'a..b' is not a valid branch name\n" });
    for (const bad of ["a..b", "-x", "x.lock", "a b", "x/", ".hidden", "HEAD", "a~1", "a:b", "a@{1}"]) {
      expect(await rejection(git.branch({ dir, name: bad }))).toEqual({
        name: "GitError",
        code: "EBRANCHFAIL",
        message: `git branch failed: '${bad}' is not a valid branch name`,
      });
    }
    expect(await rejection(git.branch({ dir, name: "x", startPoint: "nope" }))).toEqual({
      name: "GitError",
      code: "EBRANCHFAIL",
      message: "git branch failed: unknown revision 'nope'",
    });
    expect(await rejection(git.branch({ dir, name: "main", force: true }))).toMatchObject({ code: "EBRANCHFAIL" });
    expect(await rejection(git.branchDelete({ dir, name: "main" }))).toEqual({
      name: "GitError",
      code: "EBRANCHFAIL",
      message: "git branch failed: cannot delete branch 'main' checked out at '/repo'",
    });
    expect(await rejection(git.branchDelete({ dir, name: "nope" }))).toEqual({
      name: "GitError",
      code: "EBRANCHFAIL",
      message: "git branch failed: branch 'nope' not found",
    });
    expect(await rejection(git.branch({ dir, name: "" }))).toMatchObject({ code: "EUSAGE" });
    expect(await rejection(git.branch({ dir, name: 7 as unknown as string }))).toMatchObject({ code: "EUSAGE" });
    expect(await rejection(git.branchList({ dir: "/nowhere" }))).toMatchObject({ code: "ENOTAREPO", name: "NotARepositoryError" });
    expect(await git.branchList({ dir })).toEqual(["feature", "main"]);
    expect(await wsSnapshot(ws, dir)).toEqual(before);
  });

  it("force moves an existing branch", async () => {
    const disk = baseRepo();
    const { git, dir } = await workspaceCopy(disk);
    await git.branch({ dir, name: "feature", startPoint: "main", force: true });
    realGit(disk, "branch", "-f", "feature", "main");
    expect(await git.revParse({ dir, ref: "feature" })).toBe(realGit(disk, "rev-parse", "feature").trim());
  });
});

describe("tag", () => {
  it("creates lightweight tags, lists them sorted like git tag, deletes them", async () => {
    const disk = baseRepo();
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    for (const [name, object] of [["v2.0", "HEAD"], ["v10", "HEAD~1"], ["V1", "feature"], ["rel/a", undefined]] as const) {
      await git.tag({ dir, name, ...(object ? { object } : {}) });
      realGit(copy, "tag", name, ...(object ? [object] : []));
    }
    expect(await git.tagList({ dir })).toEqual(realGit(copy, "tag", "-l").trim().split("\n"));
    const exported = await exportDir(ws, dir);
    expect(realGit(exported, "show-ref", "--tags")).toBe(realGit(copy, "show-ref", "--tags"));
    await git.tagDelete({ dir, name: "v10" });
    realGit(copy, "tag", "-d", "v10");
    expect(await git.tagList({ dir })).toEqual(realGit(copy, "tag", "-l").trim().split("\n"));
  });

  it("lists packed tags made by the real git", async () => {
    const disk = baseRepo();
    realGit(disk, "tag", "b");
    realGit(disk, "tag", "a", "HEAD~1");
    realGit(disk, "pack-refs", "--all");
    const { git, dir } = await workspaceCopy(disk);
    expect(await git.tagList({ dir })).toEqual(["a", "b"]);
    expect(await git.branchList({ dir })).toEqual(["feature", "main"]);
    await git.tagDelete({ dir, name: "a" });
    expect(await git.tagList({ dir })).toEqual(["b"]);
  });

  it("refuses an existing tag without force, a bad name, an unknown object and a missing tag", async () => {
    const disk = baseRepo();
    const { git, dir } = await workspaceCopy(disk);
    await git.tag({ dir, name: "v1" });
    expect(await rejection(git.tag({ dir, name: "v1", object: "HEAD~1" }))).toEqual({
      name: "GitError",
      code: "ETAGFAIL",
      message: "git tag failed: tag 'v1' already exists",
    });
    await git.tag({ dir, name: "v1", object: "HEAD~1", force: true });
    expect(await git.revParse({ dir, ref: "v1" })).toBe(realGit(disk, "rev-parse", "HEAD~1").trim());
    expect(await rejection(git.tag({ dir, name: "bad name" }))).toEqual({
      name: "GitError",
      code: "ETAGFAIL",
      message: "git tag failed: 'bad name' is not a valid tag name",
    });
    expect(await rejection(git.tag({ dir, name: "x", object: "nope" }))).toEqual({
      name: "GitError",
      code: "ETAGFAIL",
      message: "git tag failed: unknown revision 'nope'",
    });
    expect(await rejection(git.tagDelete({ dir, name: "nope" }))).toEqual({
      name: "GitError",
      code: "ETAGFAIL",
      message: "git tag failed: tag 'nope' not found",
    });
    expect(await git.tagList({ dir })).toEqual(["v1"]);
  });
});
