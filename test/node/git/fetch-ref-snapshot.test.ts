/**
 * A fetch snapshots the ref files it may change and puts them back if it fails (network.ts snapshotRefs). The
 * snapshot read every non-directory entry under `.git/refs` whole: a symlink to a directory there made every fetch
 * fail `EISDIR` before it reached the server, and a junk 8 MiB file was read (and compared) whole, twice for a failed
 * fetch (nineteenth attack run's leads). Now only regular files of at most 4,096 bytes are kept — the refs a fetch
 * writes; anything else is left as it is.
 */
import { afterAll, describe, expect, it } from "vitest";
import { forkRepo, gitServer, repoUrl } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace, rejection } from "./worktree-helpers.js";

afterAll(cleanupScratch);

describe("fetch's ref snapshot", () => {
  it("fetches past a directory symlink and a large junk file under .git/refs, and a failed fetch leaves both as they were", async () => {
    const { fixture } = gitServer();
    const fork = await forkRepo();
    const { ws, git } = newWorkspace();
    const dir = "/repo";
    await git.clone({ url: fork.url, dir, singleBranch: true });
    await ws.fs.mkdir("/elsewhere/inner", { recursive: true });
    await ws.fs.symlink("/elsewhere", `${dir}/.git/refs/dirlink`);
    const junk = "j".repeat(8 * 1024 * 1024);
    await ws.fs.writeFile(`${dir}/.git/refs/junk`, junk);
    const origin = `${dir}/.git/refs/remotes/origin/main`;
    const before = await ws.fs.readFile(origin, "utf8");
    // A failed fetch (no such repository) puts the refs back and leaves the rest alone.
    expect(await rejection(git.fetch({ dir, url: repoUrl("does-not-exist") }))).toMatchObject({ name: "GitError", code: "EFETCHFAIL" });
    expect(await ws.fs.readFile(origin, "utf8")).toBe(before);
    // A fetch of another branch succeeds (it failed EISDIR on the symlink before asking the server).
    expect((await git.fetch({ dir, ref: "feature", singleBranch: true })).fetchHead).toBe(fixture.branches.feature);
    expect(await ws.fs.readFile(`${dir}/.git/refs/remotes/origin/feature`, "utf8")).toBe(`${fixture.branches.feature}\n`);
    expect(await ws.fs.readlink(`${dir}/.git/refs/dirlink`)).toBe("/elsewhere");
    expect((await ws.fs.readdir("/elsewhere")).map((e) => e.name)).toEqual(["inner"]);
    expect(await ws.fs.readFile(`${dir}/.git/refs/junk`, "utf8")).toBe(junk);
  });
});
