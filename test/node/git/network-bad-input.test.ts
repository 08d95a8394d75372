/**
 * Bad servers (issue 15): one that never answers, one that stalls half-way
 * through the pack, one that cuts the pack short. Each gives a GitError with
 * a code within the timeout, never a hang or a crash; a failed clone leaves
 * nothing behind and a failed fetch or pull leaves the repository and its
 * working tree as they were (the real git still fscks it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_NETWORK_TIMEOUT_MS } from "../../../src/git/ops/network.js";
import { repoUrl } from "../../shared/git-remote.js";
import { cleanupScratch, exportDir, newWorkspace, realGit, rejection, wsSnapshot } from "./worktree-helpers.js";

afterAll(cleanupScratch);
// Load isomorphic-git once (the first call of a client imports it), so the timings below measure the network only.
beforeAll(async () => {
  await newWorkspace().git.remoteList({ dir: "/" }).catch(() => undefined);
});

async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await promise;
  return { value, ms: Date.now() - start };
}

describe("bad servers", () => {
  it("the default timeout is 60 s of silence", () => {
    expect(DEFAULT_NETWORK_TIMEOUT_MS).toBe(60_000);
  });

  it("a server that never answers: clone fails with ECLONEFAIL after timeoutMs and leaves nothing", async () => {
    const { ws, git } = newWorkspace();
    const url = repoUrl("fixture", "hang");
    const { value, ms } = await timed(rejection(git.clone({ url, dir: "/repo", timeoutMs: 800 })));
    expect(value).toEqual({
      name: "GitError",
      code: "ECLONEFAIL",
      message: `git clone failed: no response from ${url}/info/refs?service=git-upload-pack for 800 ms (timed out)`,
    });
    expect(ms).toBeGreaterThanOrEqual(750);
    expect(ms).toBeLessThan(20_000); // far below the 60 s default: timeoutMs bounded it
    expect(await ws.fs.readdir("/")).toEqual([]);
  });

  it("a server that stalls mid-pack: fetch fails with EFETCHFAIL after timeoutMs; repository and tree intact", async () => {
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/repo", depth: 1 });
    const before = await wsSnapshot(ws, "/repo");
    const url = repoUrl("fixture", "stall");
    const { value, ms } = await timed(rejection(git.fetch({ dir: "/repo", url, ref: "feature", timeoutMs: 800 })));
    expect(value).toEqual({
      name: "GitError",
      code: "EFETCHFAIL",
      message: `git fetch failed: no response from ${url}/git-upload-pack for 800 ms (timed out)`,
    });
    expect(ms).toBeLessThan(20_000); // far below the 60 s default: timeoutMs bounded it
    expect(await wsSnapshot(ws, "/repo")).toEqual(before);
    const disk = await exportDir(ws, "/repo");
    realGit(disk, "fsck", "--strict");
    expect(realGit(disk, "status", "--porcelain=v1")).toBe("");
  });

  it("a truncated pack: clone fails with ECLONEFAIL and leaves nothing; fetch and pull fail and keep the tree", async () => {
    const { ws, git } = newWorkspace();
    const url = repoUrl("fixture", "truncated");
    const cloneError = await rejection(git.clone({ url, dir: "/t" }));
    expect(cloneError).toMatchObject({ name: "GitError", code: "ECLONEFAIL" });
    expect(cloneError?.message).toMatch(/^git clone failed: /);
    expect(await ws.fs.readdir("/")).toEqual([]);

    await git.clone({ url: repoUrl("fixture"), dir: "/repo", depth: 1 });
    await ws.fs.writeFile("/repo/README.md", "local edit\n");
    const before = await wsSnapshot(ws, "/repo");
    const fetchError = await rejection(git.fetch({ dir: "/repo", url, ref: "feature" }));
    expect(fetchError).toMatchObject({ name: "GitError", code: "EFETCHFAIL" });
    const pullError = await rejection(git.pull({ dir: "/repo", url }));
    expect(pullError).toMatchObject({ name: "GitError", code: "EPULLFAIL" });
    expect(await wsSnapshot(ws, "/repo")).toEqual(before);
    const disk = await exportDir(ws, "/repo");
    realGit(disk, "fsck", "--strict");
    expect(realGit(disk, "status", "--porcelain=v1")).toBe(" M README.md\n");
  });

  it("timeoutMs: Infinity and past 2^31 ms mean no bound (not an instant timeout); 0, negative and non-numbers are EUSAGE", async () => {
    const { git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/a", depth: 1, timeoutMs: Infinity });
    await git.clone({ url: repoUrl("fixture"), dir: "/b", depth: 1, timeoutMs: 2 ** 40 });
    expect(await git.fetch({ dir: "/a", timeoutMs: 2 ** 31 })).toMatchObject({ defaultBranch: "refs/heads/main" });
    for (const timeoutMs of [0, -5, Number.NaN, "10"]) {
      expect(await rejection(git.fetch({ dir: "/a", timeoutMs: timeoutMs as number }))).toMatchObject({ name: "GitError", code: "EUSAGE" });
    }
  });

  it("a refused connection is EFETCHFAIL / EPUSHFAIL quickly", async () => {
    const { ws, git } = newWorkspace();
    await git.clone({ url: repoUrl("fixture"), dir: "/repo", depth: 1 });
    expect(await rejection(git.fetch({ dir: "/repo", url: "http://127.0.0.1:1/x.git" }))).toMatchObject({ name: "GitError", code: "EFETCHFAIL" });
    expect(await rejection(git.push({ dir: "/repo", url: "http://127.0.0.1:1/x.git" }))).toMatchObject({ name: "GitError", code: "EPUSHFAIL" });
    expect(await rejection(git.push({ dir: "/repo", url: repoUrl("fixture", "hang"), timeoutMs: 300 }))).toMatchObject({
      name: "GitError",
      code: "EPUSHFAIL",
      message: `git push failed: no response from ${repoUrl("fixture", "hang")}/info/refs?service=git-receive-pack for 300 ms (timed out)`,
    });
    expect(await ws.fs.readFile("/repo/README.md", "utf8")).toMatch(/^# Fixture/);
  });
});
