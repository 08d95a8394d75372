/**
 * Deep trees (issue 20, fifth attack run, O3): a checkout accepts at most
 * GIT_MAX_TREE_DEPTH (256) nested directories above a file — deeper, every
 * operation that writes the working tree fails with its `E<OP>FAIL` naming
 * the first directory past the limit, before writing anything — and a tree
 * at the limit is checked out whole. The fs bridge paces long runs of calls
 * with a timer, so other work gets in during a long clone or checkout.
 */
import { afterAll, describe, expect, it } from "vitest";
import { GIT_MAX_TREE_DEPTH } from "../../../src/git/index.js";
import { createWorkspaceFsBridge, GIT_PACE_CALLS } from "../../../src/git/fs-bridge.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, committedRepo, newWorkspace, realGit, rejection, workspaceCopy, wsSnapshot } from "./worktree-helpers.js";
import { execFileSync } from "node:child_process";

afterAll(cleanupScratch);

/** `d0/d1/…/d<n-1>`: `n` nested directory names. */
const chain = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join("/");

/** A fast-import stream: branch `deep` (from `from`, or a root commit) adding `<chain(n)>/leaf.txt` = "leaf\n". */
const deepStream = (n: number, from?: string) =>
  `commit refs/heads/deep\ncommitter T <t@example.com> 1700000000 +0000\ndata 2\nm\n${from ? `from ${from}\n` : ""}M 100644 inline ${chain(n)}/leaf.txt\ndata 5\nleaf\n\n`;

/** The message every refused operation carries after `git <op> failed: `. */
const tooDeep = `tree too deep: directory '${chain(GIT_MAX_TREE_DEPTH + 1)}' is nested ${GIT_MAX_TREE_DEPTH + 1} levels deep, over the limit of ${GIT_MAX_TREE_DEPTH} (GIT_MAX_TREE_DEPTH, as git's core.maxTreeDepth)`;

describe("GIT_MAX_TREE_DEPTH", () => {
  it("is 256", () => {
    expect(GIT_MAX_TREE_DEPTH).toBe(256);
  });

  it("clone: a file under 257 directories fails with ECLONEFAIL naming the directory; nothing is left at dir", async () => {
    const { name, url } = await forkRepo();
    expect((await serverGit(name, ["fast-import", "--quiet"], new TextEncoder().encode(deepStream(GIT_MAX_TREE_DEPTH + 1)))).code).toBe(0);
    const { ws, git } = newWorkspace();
    expect(await rejection(git.clone({ url, dir: "/r", ref: "deep" }))).toEqual({ name: "GitError", code: "ECLONEFAIL", message: `git clone failed: ${tooDeep}` });
    expect(await ws.fs.lstat("/r").then(() => "exists", (e: { code: string }) => e.code)).toBe("ENOENT");
  });

  it("clone: a file under exactly 256 directories is checked out (bytes, clean status)", async () => {
    const { name, url } = await forkRepo();
    expect((await serverGit(name, ["fast-import", "--quiet"], new TextEncoder().encode(deepStream(GIT_MAX_TREE_DEPTH)))).code).toBe(0);
    const { ws, git } = newWorkspace();
    await git.clone({ url, dir: "/r", ref: "deep" });
    expect(await wsSnapshot(ws, "/r")).toEqual({ [`${chain(GIT_MAX_TREE_DEPTH)}/leaf.txt`]: `file ${Buffer.from("leaf\n").toString("hex")}` });
    expect(await git.status({ dir: "/r" })).toEqual([]);
    expect(await git.lsFiles({ dir: "/r" })).toEqual([`${chain(GIT_MAX_TREE_DEPTH)}/leaf.txt`]);
  });

  describe("checkout, reset and merge of a branch 257 directories deep: E<OP>FAIL, nothing written", () => {
    const ops: [string, string, (t: Awaited<ReturnType<typeof workspaceCopy>>) => Promise<unknown>][] = [
      ["checkout", "ECHECKOUTFAIL", (t) => t.git.checkout({ dir: t.dir, ref: "deep" })],
      ["checkout -f", "ECHECKOUTFAIL", (t) => t.git.checkout({ dir: t.dir, ref: "deep", force: true })],
      ["checkout -- .", "ECHECKOUTFAIL", (t) => t.git.checkout({ dir: t.dir, ref: "deep", paths: ["."] })],
      ["reset --hard", "ERESETFAIL", (t) => t.git.reset({ dir: t.dir, ref: "deep", hard: true })],
      ["merge", "EMERGEFAIL", (t) => t.git.merge({ dir: t.dir, theirs: "deep" })],
    ];
    for (const [label, code, run] of ops) {
      it(label, async () => {
        const disk = committedRepo({ "a.txt": "a\n" }, "base", (d) => {
          execFileSync("/usr/bin/git", ["fast-import", "--quiet"], { cwd: d, input: deepStream(GIT_MAX_TREE_DEPTH + 1, "refs/heads/main^0") });
        });
        const t = await workspaceCopy(disk);
        const head = realGit(disk, "rev-parse", "HEAD").trim();
        const before = await wsSnapshot(t.ws, t.dir);
        const op = label.split(" ")[0];
        expect(await rejection(run(t))).toEqual({ name: "GitError", code, message: `git ${op} failed: ${tooDeep}` });
        expect(await wsSnapshot(t.ws, t.dir)).toEqual(before);
        expect(await t.git.revParse({ dir: t.dir, ref: "HEAD" })).toBe(head);
      });
    }
  });
});

describe("fs bridge pacing", () => {
  it(`after ${GIT_PACE_CALLS} back-to-back calls the bridge waits on a timer, so a timer set before them fires during the run`, async () => {
    const { ws } = newWorkspace();
    const fs = (await createWorkspaceFsBridge(ws)).promises;
    let fired = -1;
    let calls = 0;
    setTimeout(() => (fired = calls), 0);
    // Only microtasks between these calls: without the pause, the timer fires after the loop.
    for (; calls < GIT_PACE_CALLS + 10; calls++) await fs.stat("/");
    expect(fired).toBeGreaterThanOrEqual(0);
    expect(fired).toBeLessThanOrEqual(GIT_PACE_CALLS);
  });
});
