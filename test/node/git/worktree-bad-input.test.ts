/**
 * Bad input to the ref and working-tree operations (issue 15 "Bad input"):
 * missing and corrupt objects in the Workspace's `.git`, paths escaping the
 * repository, hostile ref names. Each gives a `GitError` with a code and
 * leaves the working tree, index and refs as they were.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, rejection, workspaceCopy, writeTree, wsBytes, wsSnapshot } from "./worktree-helpers.js";
import type { GitClient } from "../../../src/git/types.js";
import type { Workspace } from "../../../src/workspace.js";

afterAll(cleanupScratch);

/** main: a.txt, b.txt; feature: a.txt changed, c.txt added. Returns the repo and the oid of feature's a.txt blob. */
function repo(): { disk: string; blob: string } {
  const disk = committedRepo({ "a.txt": "a\n", "b.txt": "b\n" }, "base", (d) => {
    realGit(d, "checkout", "-q", "-b", "feature");
    writeTree(d, { "a.txt": "a from feature\n", "c.txt": "c\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "feature");
    realGit(d, "checkout", "-q", "main");
  });
  return { disk, blob: realGit(disk, "rev-parse", "feature:a.txt").trim() };
}

async function state(ws: Workspace, git: GitClient, dir: string) {
  return {
    files: await wsSnapshot(ws, dir),
    index: await wsBytes(ws, `${dir}/.git/index`),
    head: await git.revParse({ dir, ref: "HEAD" }),
    branch: await git.currentBranch({ dir }),
    branches: await git.branchList({ dir }),
  };
}

describe("missing and corrupt objects", () => {
  for (const damage of ["missing", "corrupt"] as const) {
    it(`a ${damage} blob: checkout, merge, reset --hard and checkout of paths fail with their code; nothing changes`, async () => {
      const { disk, blob } = repo();
      const { ws, git, dir } = await workspaceCopy(disk);
      const objectPath = `${dir}/.git/objects/${blob.slice(0, 2)}/${blob.slice(2)}`;
      if (damage === "missing") await ws.fs.rm(objectPath);
      else await ws.fs.writeFile(objectPath, new Uint8Array([0x78, 0x9c, 1, 2, 3, 4, 5, 6, 7, 8]));
      const before = await state(ws, git, dir);
      const attempts: [string, () => Promise<unknown>][] = [
        ["ECHECKOUTFAIL", () => git.checkout({ dir, ref: "feature" })],
        ["ECHECKOUTFAIL", () => git.checkout({ dir, ref: "feature", force: true })],
        ["ECHECKOUTFAIL", () => git.checkout({ dir, ref: "feature", paths: ["."] })],
        ["EMERGEFAIL", () => git.merge({ dir, theirs: "feature" })],
        ["ERESETFAIL", () => git.reset({ dir, hard: true, ref: "feature" })],
      ];
      for (const [code, attempt] of attempts) {
        const error = await rejection(attempt());
        expect(error).toMatchObject({ name: "GitError", code });
        expect(error!.message).toMatch(new RegExp(`^git (checkout|merge|reset) failed: `));
        expect(await state(ws, git, dir)).toEqual(before);
      }
    });
  }

  it("a stash whose blob is gone: pop fails, the entry stays, the tree is untouched", async () => {
    const { disk } = repo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.writeFile(`${dir}/b.txt`, "stashed bytes\n");
    await git.stashPush({ dir, message: "x" });
    const blob = await git.hashObject({ dir, content: "stashed bytes\n" });
    await ws.fs.rm(`${dir}/.git/objects/${blob.slice(0, 2)}/${blob.slice(2)}`);
    const before = await state(ws, git, dir);
    expect(await rejection(git.stashPop({ dir }))).toMatchObject({ name: "GitError", code: "ESTASHFAIL" });
    expect(await state(ws, git, dir)).toEqual(before);
    expect(await git.stashList({ dir })).toEqual(["stash@{0}: On main: x"]);
  });

  it("a ref file holding garbage: checkout of it fails with ECHECKOUTFAIL", async () => {
    const { disk } = repo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.writeFile(`${dir}/.git/refs/heads/broken`, "not an oid\n");
    const before = await wsSnapshot(ws, dir);
    expect(await rejection(git.checkout({ dir, ref: "broken" }))).toMatchObject({ code: "ECHECKOUTFAIL" });
    expect(await wsSnapshot(ws, dir)).toEqual(before);
  });
});

describe("paths and names that leave the repository", () => {
  it("checkout and reset paths outside dir: EPATHOUTSIDE; ref names with .. or slashes: refused", async () => {
    const { disk } = repo();
    const { ws, git, dir } = await workspaceCopy(disk);
    await ws.fs.writeFile("/outside.txt", "keep me\n");
    const before = await state(ws, git, dir);
    for (const paths of [["../outside.txt"], ["/outside.txt"], ["a.txt", "../../x"]]) {
      expect(await rejection(git.checkout({ dir, ref: "feature", paths }))).toMatchObject({ name: "PathOutsideRepoError", code: "EPATHOUTSIDE" });
      expect(await rejection(git.reset({ dir, paths }))).toMatchObject({ name: "PathOutsideRepoError", code: "EPATHOUTSIDE" });
    }
    for (const name of ["../../evil", "a/../b", "/abs", "x\u0000y", "x\ny"]) {
      expect(await rejection(git.branch({ dir, name }))).toMatchObject({ code: "EBRANCHFAIL" });
      expect(await rejection(git.tag({ dir, name }))).toMatchObject({ code: "ETAGFAIL" });
    }
    expect(await ws.fs.readFile("/outside.txt", "utf8")).toBe("keep me\n");
    expect((await ws.fs.readdir("/")).map((e) => e.name).sort()).toEqual(["outside.txt", "repo"]);
    expect(await state(ws, git, dir)).toEqual(before);
  });
});
