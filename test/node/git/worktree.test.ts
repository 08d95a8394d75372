/**
 * checkout, merge and reset in the Workspace (spec 04 §2.3, issue 15),
 * each compared with the real git CLI doing the same operation on an
 * identical repository on disk: working-tree bytes and modes, refs, commit
 * oids, and the real git's own `status` of the Workspace's repository.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupScratch,
  committedRepo,
  diskCopy,
  diskSnapshot,
  IDENTITY,
  realGit,
  realGitResult,
  realStatusOf,
  rejection,
  TIME,
  workspaceCopy,
  writeTree,
  wsSnapshot,
} from "./worktree-helpers.js";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";
import type { GitMergeOptions } from "../../../src/git/types.js";

afterAll(cleanupScratch);

/**
 * main and feature differ in every way a tree can: a modified file, a file
 * only on each side (one alone in its directory), an executable bit, a
 * symlink, a binary, a non-ASCII name; `same.txt` is identical on both.
 */
function twoBranches(): string {
  return committedRepo({
    "same.txt": "same\n",
    "mod.txt": "one\ntwo\nthree\n",
    "gone/only-main.txt": "main only\n",
    "run.sh": "#!/bin/sh\necho hi\n",
    "link": { link: "same.txt" },
    "bin.dat": new Uint8Array([0, 1, 2, 255, 254, 0, 10]),
  }, "base", (d) => {
    realGit(d, "checkout", "-q", "-b", "feature");
    writeTree(d, {
      "mod.txt": "one\nTWO\nthree\n",
      "new/deep/only-feature.txt": "feature only\n",
      "run.sh": { exec: "#!/bin/sh\necho hi\n" },
      "link": { link: "mod.txt" },
      "bin.dat": new Uint8Array([9, 9, 0, 0, 128]),
      "é-ß.txt": "unicode\n",
    });
    realGit(d, "rm", "-q", "-r", "gone");
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "feature work");
    realGit(d, "checkout", "-q", "main");
  });
}

async function headState(git: import("../../../src/git/types.js").GitClient, dir: string) {
  return { branch: await git.currentBranch({ dir }), head: await git.revParse({ dir, ref: "HEAD" }) };
}

describe("checkout", () => {
  it("switches branches: the working tree equals real git's, byte for byte, modes and links included", async () => {
    const disk = twoBranches();
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.checkout({ dir, ref: "feature" });
    realGit(copy, "checkout", "-q", "feature");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await headState(git, dir)).toEqual({ branch: "feature", head: realGit(copy, "rev-parse", "HEAD").trim() });
    expect(await realStatusOf(ws, dir)).toBe("");
    expect(await git.status({ dir })).toEqual([]);
    // and back: the directory that only main has comes back, feature's empty directories go
    await git.checkout({ dir, ref: "main" });
    realGit(copy, "checkout", "-q", "main");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe("");
  });

  it("a file that becomes a directory, a link that becomes a file, and back — as real git", async () => {
    const disk = committedRepo({ "x": "x is a file\n", "l": { link: "x" }, "keep/k.txt": "k\n" }, "files", (d) => {
      realGit(d, "checkout", "-q", "-b", "dirs");
      realGit(d, "rm", "-q", "x", "l");
      writeTree(d, { "x/y/z.txt": "now a directory\n", "l": "l is a file\n", "keep/k.txt": "k2\n" });
      realGit(d, "add", "-A");
      realGit(d, "commit", "-q", "-m", "dirs");
      realGit(d, "checkout", "-q", "main");
    });
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    for (const ref of ["dirs", "main", "dirs"]) {
      await git.checkout({ dir, ref });
      realGit(copy, "checkout", "-q", ref);
      expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
      expect(await realStatusOf(ws, dir)).toBe("");
    }
    // an untracked file inside the directory that would become a file again blocks the switch
    await ws.fs.writeFile(`${dir}/x/y/mine.txt`, "untracked\n");
    writeTree(copy, { "x/y/mine.txt": "untracked\n" });
    expect(realGitResult(copy, "checkout", "main").status).not.toBe(0);
    expect(await rejection(git.checkout({ dir, ref: "main" }))).toEqual({
      name: "GitError",
      code: "ECHECKOUTFAIL",
      message: "git checkout failed: the following untracked working tree files would be overwritten by checkout: x/y/mine.txt",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("carries local changes to paths the switch does not touch, as real git does", async () => {
    const disk = twoBranches();
    writeTree(disk, { "same.txt": "edited locally\n", "staged-new.txt": "new\n", "untracked.txt": "u\n" });
    realGit(disk, "add", "staged-new.txt");
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.checkout({ dir, ref: "feature" });
    realGit(copy, "checkout", "-q", "feature");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
    expect(await realStatusOf(ws, dir)).toBe(" M same.txt\nA  staged-new.txt\n?? untracked.txt\n");
  });

  it("refuses to overwrite local changes or untracked files, naming them, and leaves everything as it was", async () => {
    const disk = twoBranches();
    writeTree(disk, { "mod.txt": "my edit\n", "é-ß.txt": "mine, untracked\n" });
    expect(realGitResult(disk, "checkout", "feature").status).toBe(1);
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    const head = await headState(git, dir);
    expect(await rejection(git.checkout({ dir, ref: "feature" }))).toEqual({
      name: "GitError",
      code: "ECHECKOUTFAIL",
      message:
        "git checkout failed: your local changes to the following files would be overwritten by checkout: mod.txt; " +
        "the following untracked working tree files would be overwritten by checkout: é-ß.txt",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    expect(await headState(git, dir)).toEqual(head);
    // staged-only change is a local change too
    await ws.fs.writeFile(`${dir}/mod.txt`, "one\ntwo\nthree\n");
    await ws.fs.rm(`${dir}/é-ß.txt`);
    await ws.fs.writeFile(`${dir}/bin.dat`, "staged\n");
    await git.add({ dir, paths: ["bin.dat"] });
    await ws.fs.writeFile(`${dir}/bin.dat`, new Uint8Array([0, 1, 2, 255, 254, 0, 10]));
    expect(await rejection(git.checkout({ dir, ref: "feature" }))).toMatchObject({
      code: "ECHECKOUTFAIL",
      message: "git checkout failed: your local changes to the following files would be overwritten by checkout: bin.dat",
    });
    expect(await headState(git, dir)).toEqual(head);
  });

  it("force discards local changes to tracked files and keeps untracked ones", async () => {
    const disk = twoBranches();
    writeTree(disk, { "mod.txt": "my edit\n", "same.txt": "also mine\n", "keep.txt": "untracked\n" });
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.checkout({ dir, ref: "feature", force: true });
    realGit(copy, "checkout", "-q", "-f", "feature");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe("?? keep.txt\n");
  });

  it("detaches HEAD at a tag, an abbreviated oid or HEAD~1", async () => {
    const disk = twoBranches();
    realGit(disk, "tag", "v1", "feature");
    const { ws, git, dir } = await workspaceCopy(disk);
    const featureOid = realGit(disk, "rev-parse", "feature").trim();
    await git.checkout({ dir, ref: "v1" });
    expect(await headState(git, dir)).toEqual({ branch: undefined, head: featureOid });
    expect(await ws.fs.readFile(`${dir}/.git/HEAD`, "utf8")).toBe(`${featureOid}\n`);
    await git.checkout({ dir, ref: "main" });
    await git.checkout({ dir, ref: featureOid.slice(0, 8) });
    expect(await headState(git, dir)).toEqual({ branch: undefined, head: featureOid });
    await git.checkout({ dir, ref: "HEAD~1" });
    expect(await headState(git, dir)).toEqual({ branch: undefined, head: realGit(disk, "rev-parse", "feature~1").trim() });
    expect(await realStatusOf(ws, dir)).toBe("");
  });

  it("makes a local branch tracking the only remote that has it", async () => {
    const disk = twoBranches();
    realGit(disk, "remote", "add", "origin", "https://example.invalid/r.git");
    realGit(disk, "update-ref", "refs/remotes/origin/dev", "feature");
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.checkout({ dir, ref: "dev" });
    realGit(copy, "checkout", "-q", "dev");
    expect(await headState(git, dir)).toEqual({ branch: "dev", head: realGit(copy, "rev-parse", "HEAD").trim() });
    expect(await git.configGet({ dir, path: "branch.dev.remote" })).toBe("origin");
    expect(await git.configGet({ dir, path: "branch.dev.merge" })).toBe("refs/heads/dev");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("with paths restores files (and their index entries) from a ref; HEAD stays", async () => {
    const disk = twoBranches();
    writeTree(disk, { "same.txt": "local\n", "mod.txt": "local mod\n" });
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const head = await headState(git, dir);
    await git.checkout({ dir, ref: "feature", paths: ["mod.txt", "new", "run.sh"] });
    realGit(copy, "checkout", "feature", "--", "mod.txt", "new", "run.sh");
    await git.checkout({ dir, ref: "HEAD", paths: ["same.txt"] });
    realGit(copy, "checkout", "HEAD", "--", "same.txt");
    expect(await headState(git, dir)).toEqual(head);
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
  });

  it("errors: unknown ref, a path matching nothing, a path outside, bad options — nothing changes", async () => {
    const disk = twoBranches();
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    expect(realGitResult(disk, "checkout", "nope").stderr).toBe("error: pathspec 'nope' did not match any file(s) known to git\n");
    expect(await rejection(git.checkout({ dir, ref: "nope" }))).toEqual({
      name: "GitError",
      code: "ECHECKOUTFAIL",
      message: "git checkout failed: pathspec 'nope' did not match any file(s) known to git",
    });
    expect(await rejection(git.checkout({ dir, ref: "HEAD", paths: ["missing.txt"] }))).toEqual({
      name: "PathspecNotFoundError",
      code: "EPATHSPEC",
      message: "pathspec 'missing.txt' did not match any files",
    });
    expect(await rejection(git.checkout({ dir, ref: "HEAD", paths: ["../etc"] }))).toEqual({
      name: "PathOutsideRepoError",
      code: "EPATHOUTSIDE",
      message: "path '../etc' is outside the repository at /repo",
    });
    expect(await rejection(git.checkout({ dir, ref: "nope", paths: ["mod.txt"] }))).toMatchObject({ code: "ECHECKOUTFAIL" });
    expect(await rejection(git.checkout({ dir } as never))).toMatchObject({ code: "EUSAGE" });
    expect(await rejection(git.checkout({ dir, ref: "main", paths: "mod.txt" as never }))).toMatchObject({ code: "EUSAGE" });
    expect(await rejection(git.checkout({ dir: "/nowhere", ref: "main" }))).toMatchObject({ code: "ENOTAREPO" });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
  });
});

/** main and feature diverged: each changed its own file. */
function diverged(): string {
  return committedRepo({ "a.txt": "a\n", "b.txt": "b\n", "shared.txt": "1\n2\n3\n4\n5\n6\n7\n8\n" }, "base", (d) => {
    realGit(d, "checkout", "-q", "-b", "feature");
    writeTree(d, { "b.txt": "b from feature\n", "f/new.txt": "new\n", "shared.txt": "1\n2\n3\n4\n5\n6\n7\nEIGHT\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "feature change");
    realGit(d, "checkout", "-q", "main");
    writeTree(d, { "a.txt": "a from main\n", "shared.txt": "ONE\n2\n3\n4\n5\n6\n7\n8\n" });
    realGit(d, "commit", "-q", "-am", "main change");
  });
}

const FIXED = { ...IDENTITY, timestamp: TIME, timezoneOffset: 0 };

describe("merge", () => {
  it("a merge commit identical to real git's `git merge --no-ff` (same oid), working tree and index updated", async () => {
    const disk = diverged();
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const result = await git.merge({ dir, theirs: "feature", author: FIXED, committer: FIXED } as GitMergeOptions);
    realGit(copy, "merge", "-q", "--no-ff", "feature");
    const realOid = realGit(copy, "rev-parse", "HEAD").trim();
    expect(result).toEqual({ oid: realOid });
    expect(await git.revParse({ dir, ref: "main" })).toBe(realOid);
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe("");
    expect((await git.show({ dir })).message).toBe("Merge branch 'feature'\n");
  });

  it("on another branch the message says `into <branch>`; message, env identity; same oids as real git", async () => {
    const disk = diverged();
    realGit(disk, "checkout", "-q", "-b", "topic");
    const copy = diskCopy(disk);
    const { git, dir } = await workspaceCopy(disk);
    const r1 = await git.merge({ dir, theirs: "feature", author: FIXED, committer: FIXED } as GitMergeOptions);
    realGit(copy, "merge", "-q", "--no-ff", "feature");
    expect(r1.oid).toBe(realGit(copy, "rev-parse", "HEAD").trim());
    expect((await git.show({ dir })).message).toBe("Merge branch 'feature' into topic\n");
  });

  it("an explicit message and --no-ff on a fast-forwardable branch", async () => {
    const disk = diverged();
    realGit(disk, "checkout", "-q", "-b", "behind", "feature~1");
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const r = await git.merge({ dir, theirs: "feature", fastForward: false, message: "Bring feature in", author: FIXED, committer: FIXED } as GitMergeOptions);
    realGit(copy, "merge", "-q", "--no-ff", "-m", "Bring feature in", "feature");
    expect(r).toEqual({ oid: realGit(copy, "rev-parse", "HEAD").trim() });
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("default messages for a tag, a commit, a remote-tracking branch and a detached HEAD give real git's oids", async () => {
    const disk = diverged();
    realGit(disk, "tag", "v1", "feature");
    realGit(disk, "update-ref", "refs/remotes/origin/feature", "feature");
    const featureOid = realGit(disk, "rev-parse", "feature").trim();
    for (const [theirs, subject] of [
      ["v1", "Merge tag 'v1'"],
      [featureOid, `Merge commit '${featureOid}'`],
      ["origin/feature", "Merge remote-tracking branch 'origin/feature'"],
    ] as const) {
      const copy = diskCopy(disk);
      const { git, dir } = await workspaceCopy(disk);
      const r = await git.merge({ dir, theirs, author: FIXED, committer: FIXED } as GitMergeOptions);
      realGit(copy, "merge", "-q", "--no-ff", theirs);
      expect(realGit(copy, "log", "-1", "--format=%s")).toBe(`${subject}\n`);
      expect(r.oid).toBe(realGit(copy, "rev-parse", "HEAD").trim());
    }
    realGit(disk, "checkout", "-q", "--detach", "main");
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const r = await git.merge({ dir, theirs: "feature", author: FIXED, committer: FIXED } as GitMergeOptions);
    realGit(copy, "merge", "-q", "--no-ff", "feature");
    expect(r.oid).toBe(realGit(copy, "rev-parse", "HEAD").trim());
    expect(await headState(git, dir)).toEqual({ branch: undefined, head: r.oid });
    expect(await git.revParse({ dir, ref: "main" })).toBe(realGit(copy, "rev-parse", "main").trim());
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("fast-forward: the branch moves and the working tree follows; already merged: nothing changes", async () => {
    const disk = diverged();
    realGit(disk, "checkout", "-q", "-b", "behind", "feature~1");
    writeTree(disk, { "a.txt": "local, untouched by the merge\n" });
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    const r = await git.merge({ dir, theirs: "feature", fastForwardOnly: true });
    realGit(copy, "merge", "-q", "--ff-only", "feature");
    const featureOid = realGit(copy, "rev-parse", "feature").trim();
    expect(r).toEqual({ oid: featureOid, fastForward: true });
    expect(await headState(git, dir)).toEqual({ branch: "behind", head: featureOid });
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe(" M a.txt\n");
    expect(await git.merge({ dir, theirs: "feature~1" })).toEqual({ oid: featureOid, alreadyMerged: true });
    expect(realGit(copy, "merge", "feature~1")).toBe("Already up to date.\n");
  });

  it("conflicts: EMERGEFAIL naming the paths; the working tree, index and branch stay as they were", async () => {
    const disk = diverged();
    realGit(disk, "checkout", "-q", "-b", "clash", "feature~1");
    writeTree(disk, { "b.txt": "b from clash\n", "f/new.txt": "other new\n" });
    realGit(disk, "add", "-A");
    realGit(disk, "commit", "-q", "-m", "clash");
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    const head = await headState(git, dir);
    expect(realGitResult(diskCopy(disk), "merge", "feature").stdout).toContain("CONFLICT (content): Merge conflict in b.txt");
    expect(await rejection(git.merge({ dir, theirs: "feature" }))).toEqual({
      name: "GitError",
      code: "EMERGEFAIL",
      message: "git merge failed: merge conflict in b.txt, f/new.txt",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    expect(await headState(git, dir)).toEqual(head);
    expect(await realStatusOf(ws, dir)).toBe("");
  });

  it("refuses when local changes would be overwritten, without touching anything", async () => {
    const disk = diverged();
    writeTree(disk, { "b.txt": "local edit of b\n" });
    expect(realGitResult(diskCopy(disk), "merge", "feature").stderr).toContain("Your local changes to the following files would be overwritten by merge:\n\tb.txt");
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    const head = await headState(git, dir);
    expect(await rejection(git.merge({ dir, theirs: "feature", author: FIXED } as GitMergeOptions))).toEqual({
      name: "GitError",
      code: "EMERGEFAIL",
      message: "git merge failed: your local changes to the following files would be overwritten by merge: b.txt",
    });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    expect(await headState(git, dir)).toEqual(head);
  });

  it("errors: fastForwardOnly on diverged branches, unknown theirs, no identity, unrelated histories", async () => {
    const disk = diverged();
    realGit(disk, "checkout", "-q", "--orphan", "lonely");
    realGit(disk, "commit", "-q", "-m", "lonely root");
    realGit(disk, "checkout", "-q", "main");
    const { ws, git, dir } = await workspaceCopy(disk);
    expect(await rejection(git.merge({ dir, theirs: "feature", fastForwardOnly: true }))).toEqual({
      name: "GitError",
      code: "EMERGEFAIL",
      message: "git merge failed: not possible to fast-forward",
    });
    expect(await rejection(git.merge({ dir, theirs: "nope" }))).toEqual({
      name: "GitError",
      code: "EMERGEFAIL",
      message: "git merge failed: unknown revision 'nope'",
    });
    expect(await rejection(git.merge({ dir, theirs: "lonely" }))).toEqual({
      name: "GitError",
      code: "EMERGEFAIL",
      message: "git merge failed: refusing to merge unrelated histories",
    });
    // no identity anywhere (the config step is skipped for merge): EIDENTITY
    realGit(disk, "config", "user.name", "Config Name");
    realGit(disk, "config", "user.email", "config@example.com");
    const bare = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    const { importDir } = await import("./worktree-helpers.js");
    await importDir(bare, disk, "/r");
    const noId = createGitClient()({ ws: bare });
    expect(await rejection(noId.merge({ dir: "/r", theirs: "feature" }))).toMatchObject({ name: "MissingIdentityError", code: "EIDENTITY" });
    const viaEnv = await noId.merge({ dir: "/r", theirs: "feature", env: { GIT_AUTHOR_NAME: "Env", GIT_AUTHOR_EMAIL: "env@example.com" } });
    const shown = await noId.show({ dir: "/r", ref: viaEnv.oid! });
    expect([shown.author.name, shown.committer.email]).toEqual(["Env", "env@example.com"]);
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(disk));
  });
});

describe("reset", () => {
  function withHistory(): string {
    const disk = twoBranches();
    realGit(disk, "merge", "-q", "--ff-only", "feature");
    return disk;
  }

  it("hard: index and working tree become exactly the ref's (tracked files not in it removed, untracked kept)", async () => {
    const disk = withHistory();
    writeTree(disk, { "mod.txt": "dirty\n", "added.txt": "staged new\n", "untracked.txt": "u\n", "new/deep/x.txt": "untracked in tracked dir\n" });
    realGit(disk, "add", "added.txt");
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.reset({ dir, hard: true, ref: "HEAD~1" });
    realGit(copy, "reset", "-q", "--hard", "HEAD~1");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await headState(git, dir)).toEqual({ branch: "main", head: realGit(copy, "rev-parse", "HEAD").trim() });
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
    // and forward again to feature
    await git.reset({ dir, hard: true, ref: "feature" });
    realGit(copy, "reset", "-q", "--hard", "feature");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
  });

  it("mixed (default): the branch and index move, the working tree stays", async () => {
    const disk = withHistory();
    writeTree(disk, { "same.txt": "dirty\n" });
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.reset({ dir, ref: "HEAD~1" });
    realGit(copy, "reset", "-q", "HEAD~1");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await headState(git, dir)).toEqual({ branch: "main", head: realGit(copy, "rev-parse", "HEAD").trim() });
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
  });

  it("paths: unstage (index entries back to the ref), HEAD and files stay", async () => {
    const disk = withHistory();
    writeTree(disk, { "same.txt": "staged\n", "run.sh": { exec: "changed\n" }, "added.txt": "new\n", "new/deep/only-feature.txt": "x\n" });
    realGit(disk, "add", "-A");
    const copy = diskCopy(disk);
    const { ws, git, dir } = await workspaceCopy(disk);
    await git.reset({ dir, paths: ["same.txt", "added.txt", "new"] });
    realGit(copy, "reset", "-q", "--", "same.txt", "added.txt", "new");
    await git.reset({ dir, paths: ["run.sh"], ref: "HEAD~1" });
    realGit(copy, "reset", "-q", "HEAD~1", "--", "run.sh");
    expect(await wsSnapshot(ws, dir)).toEqual(diskSnapshot(copy));
    expect(await realStatusOf(ws, dir)).toBe(realGit(copy, "status", "--porcelain=v1", "--untracked-files=all"));
  });

  it("errors: hard with paths, unknown ref, unmatched path — nothing changes", async () => {
    const disk = withHistory();
    const { ws, git, dir } = await workspaceCopy(disk);
    const before = await wsSnapshot(ws, dir);
    expect(await rejection(git.reset({ dir, hard: true, paths: ["a"] }))).toEqual({
      name: "GitError",
      code: "EUSAGE",
      message: "git reset: cannot do a hard reset with paths",
    });
    expect(await rejection(git.reset({ dir, hard: true, ref: "nope" }))).toEqual({
      name: "GitError",
      code: "ERESETFAIL",
      message: "git reset failed: unknown revision 'nope'",
    });
    expect(await rejection(git.reset({ dir, paths: ["nothing-here"] }))).toMatchObject({ code: "EPATHSPEC" });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
  });
});
