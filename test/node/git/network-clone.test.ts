/**
 * `clone` and `fetch` from the loopback smart-HTTP server (test/shared/git-server.ts)
 * into a Workspace on node:sqlite, compared with the real git's clone of the
 * same repository: working-tree bytes, modes, the symlink, the non-ASCII
 * path, the >1 MiB file, refs and history (issue 15).
 */
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_UNICODE_PATH, fixtureBinary, fixtureLarge } from "../../shared/git-server.js";
import { bytesDiff, gitServer, repoUrl } from "../../shared/git-remote.js";
import { cleanupScratch, diskSnapshot, exportDir, newWorkspace, realGit, rejection, tempDir, wsBytes, wsSnapshot } from "./worktree-helpers.js";

afterAll(cleanupScratch);

/** The real git's clone of `url` (extra args before the URL). */
function realClone(url: string, ...args: string[]): string {
  const dir = tempDir("wsgit-real-");
  realGit(dir, "clone", "-q", ...args, url, dir);
  return dir;
}

describe("clone from a smart-HTTP server", () => {
  it("full clone: the working tree equals the real git's clone byte for byte (modes, symlink, non-ASCII path, >1 MiB file)", async () => {
    const { fixture } = gitServer();
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/repo" });
    const real = realClone(repoUrl("fixture"));
    expect(await wsSnapshot(ws, "/repo")).toEqual(diskSnapshot(real));
    expect(bytesDiff(await wsBytes(ws, "/repo/big/large.dat"), fixtureLarge())).toBe("");
    expect(bytesDiff(await wsBytes(ws, "/repo/assets/blob.bin"), fixtureBinary())).toBe("");
    expect(await ws.fs.readFile(`/repo/${FIXTURE_UNICODE_PATH}`, "utf8")).toBe("Ça marche: ünïcödé ✓\n");
    expect(await ws.fs.readlink("/repo/link-to-readme")).toBe("README.md");
    expect((await ws.fs.stat("/repo/bin/run.sh")).mode & 0o777).toBe(0o755);
    // The real git reads the Workspace's repository: full history, clean status, fsck.
    const disk = await exportDir(ws, "/repo");
    expect(realGit(disk, "rev-list", "HEAD").trim().split("\n")).toEqual(fixture.mainHistory);
    expect(realGit(disk, "status", "--porcelain=v1")).toBe("");
    expect(realGit(disk, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("main");
    expect(realGit(disk, "rev-parse", "origin/main").trim()).toBe(fixture.branches.main);
    realGit(disk, "fsck", "--strict");
    // singleBranch and noTags by default; the config says what the Workspace supports.
    expect(realGit(disk, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(
      `refs/heads/main ${fixture.branches.main}\nrefs/remotes/origin/HEAD ${fixture.branches.main}\nrefs/remotes/origin/main ${fixture.branches.main}\n`,
    );
    expect(realGit(disk, "config", "--get-regexp", "^(core\\.(filemode|symlinks|ignorecase)|remote|branch)")).toBe(
      [
        "core.filemode true",
        "core.symlinks true",
        "core.ignorecase false",
        "remote.origin.fetch +refs/heads/*:refs/remotes/origin/*",
        `remote.origin.url ${repoUrl("fixture")}`,
        "branch.main.merge refs/heads/main",
        "branch.main.remote origin",
        "",
      ].join("\n"),
    );
  });

  it("shallow clone (depth 1) of the feature branch: one commit, the branch's tree", async () => {
    const { fixture } = gitServer();
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/shallow", depth: 1, ref: "feature" });
    const disk = await exportDir(ws, "/shallow");
    expect(realGit(disk, "rev-list", "HEAD").trim()).toBe(fixture.branches.feature);
    expect(realGit(disk, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("feature");
    expect(realGit(disk, "cat-file", "-p", "HEAD").includes("parent ")).toBe(true);
    expect((await ws.fs.readFile("/shallow/.git/shallow", "utf8")).trim()).toBe(fixture.branches.feature);
    const real = realClone(repoUrl("fixture"), "--depth", "1", "-b", "feature");
    expect(await wsSnapshot(ws, "/shallow")).toEqual(diskSnapshot(real));
    realGit(disk, "fsck", "--strict");
  });

  it("clone of a tag (with tags): detached HEAD at the tag's commit, like the real git", async () => {
    const { fixture } = gitServer();
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/tag", ref: "v1.0", noTags: false });
    const disk = await exportDir(ws, "/tag");
    expect(realGit(disk, "rev-parse", "HEAD").trim()).toBe(fixture.tagTargets["v1.0"]);
    expect(realGit(disk, "rev-parse", "v1.0").trim()).toBe(fixture.tags["v1.0"]);
    expect(realGit(disk, "status", "--porcelain=v1")).toBe("");
    expect(await wsSnapshot(ws, "/tag")).toEqual(diskSnapshot(realClone(repoUrl("fixture"), "-b", "v1.0")));
  });

  it("singleBranch: false and noTags: false fetch every branch and tag, as the real git's clone", async () => {
    const { fixture } = gitServer();
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/all", singleBranch: false, noTags: false });
    const disk = await exportDir(ws, "/all");
    expect(realGit(disk, "for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes/origin/main", "refs/remotes/origin/feature", "refs/tags")).toBe(
      [
        `refs/remotes/origin/feature ${fixture.branches.feature}`,
        `refs/remotes/origin/main ${fixture.branches.main}`,
        `refs/tags/v0.1 ${fixture.tags["v0.1"]}`,
        `refs/tags/v1.0 ${fixture.tags["v1.0"]}`,
        "",
      ].join("\n"),
    );
    expect(realGit(disk, "rev-list", "--all").trim().split("\n").sort()).toEqual([...fixture.allCommits].sort());
    realGit(disk, "fsck", "--strict");
  });

  it("a ref the server lacks: ECLONEFAIL, and an existing directory keeps its files", async () => {
    const { ws, git } = newWorkspace();
    await ws.fs.mkdir("/keep");
    await ws.fs.writeFile("/keep/mine.txt", "mine\n");
    const error = await rejection(git.clone({ url: repoUrl("fixture"), dir: "/keep", ref: "no-such-branch" }));
    expect(error).toMatchObject({ name: "GitError", code: "ECLONEFAIL" });
    expect(error?.message).toMatch(/^git clone failed: .*no-such-branch/);
    expect((await ws.fs.readdir("/keep")).map((e) => e.name)).toEqual(["mine.txt"]);
    expect(await rejection(git.clone({ url: repoUrl("fixture"), dir: "/keep/mine.txt" }))).toEqual({
      name: "GitError",
      code: "ECLONEFAIL",
      message: "git clone failed: destination '/keep/mine.txt' exists and is not a directory",
    });
    await git.clone({ url: repoUrl("fixture"), dir: "/keep", depth: 1 });
    expect(await rejection(git.clone({ url: repoUrl("fixture"), dir: "/keep" }))).toEqual({
      name: "GitError",
      code: "ECLONEFAIL",
      message: "git clone failed: destination '/keep' already holds a repository (/keep/.git)",
    });
    expect(await ws.fs.readFile("/keep/mine.txt", "utf8")).toBe("mine\n");
  });

  it("clone with paths writes only those paths; the index keeps the whole commit", async () => {
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/part", paths: ["docs", "README.md"] });
    expect(Object.keys(await wsSnapshot(ws, "/part")).sort()).toEqual(["README.md", FIXTURE_UNICODE_PATH, "docs/feature.txt"]);
    const disk = await exportDir(ws, "/part");
    expect(realGit(disk, "-c", "core.quotePath=false", "ls-files", "-s")).toBe(realGit(realClone(repoUrl("fixture")), "-c", "core.quotePath=false", "ls-files", "-s"));
    // The other paths of HEAD stay in the index: unstaged deletions, and a commit keeps them.
    expect(realGit(disk, "status", "--porcelain=v1")).toBe(" D assets/blob.bin\n D big/large.dat\n D bin/run.sh\n D link-to-readme\n");
    expect(realGit(disk, "diff", "--cached", "--stat")).toBe("");
    expect(await git.status({ dir: "/part" })).toEqual(
      ["assets/blob.bin", "big/large.dat", "bin/run.sh", "link-to-readme"].map((path) => ({ path, index: " ", worktree: "D" })),
    );
  });

  it("unsupported transports and bad options are GitErrors; nothing is left behind", async () => {
    const { ws, git } = newWorkspace();
    expect(await rejection(git.clone({ url: "file:///tmp/x.git", dir: "/a" }))).toEqual({
      name: "GitError",
      code: "ECLONEFAIL",
      message: "git clone failed: unsupported transport 'file' for file:///tmp/x.git: only http:// and https:// URLs work in the Workspace",
    });
    expect(await rejection(git.clone({ url: "git@github.com:o/r.git", dir: "/a" }))).toMatchObject({ code: "ECLONEFAIL" });
    expect(await rejection(git.clone({ url: 42 as unknown as string, dir: "/a" }))).toEqual({
      name: "GitError",
      code: "EUSAGE",
      message: "git clone: url must be a non-empty string, got number",
    });
    expect(await rejection(git.clone({ url: repoUrl("fixture"), dir: "/a", depth: -1 }))).toMatchObject({ code: "EUSAGE" });
    expect(await rejection(git.clone({ url: repoUrl("missing-repo"), dir: "/a" }))).toMatchObject({ code: "ECLONEFAIL" });
    expect(await ws.fs.readdir("/")).toEqual([]);
  });
});
