/**
 * Issue 15 attack run: operations on one repository started at once.
 * Five commits started together used to all resolve with their own oid
 * while the branch kept only the last (no ref lock in isomorphic-git, no
 * queue in the client): four "successful" commits were lost. The client now
 * runs the operations on a repository one at a time per `dir`
 * (src/git/client.ts `#run`), so each commit lands on the one before it, as
 * with real git's ref lock and a retry.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, workspaceCopy } from "./worktree-helpers.js";
import { within } from "./attack-helpers.js";

afterAll(cleanupScratch);

function disk() {
  return committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" });
}

describe("concurrent operations on one repository", () => {
  it("five commits started at once: every one that resolves is in the history, in call order", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.writeFile(`${dir}/x.txt`, "x\n");
    await git.add({ dir, paths: ["x.txt"] });
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => within(10_000, git.commit({ dir, message: `c${i}` }))));
    const history = await git.log({ dir });
    expect(history.slice(0, 5).map((c) => c.oid)).toEqual(results.map((r) => r.oid).reverse());
    expect(history.slice(0, 5).map((c) => c.message)).toEqual(["c4\n", "c3\n", "c2\n", "c1\n", "c0\n"]);
    expect(history[5]!.message).toBe("base\n");
  });

  it("add, commit, branch and tag started at once run in call order; a read queued after them sees their result", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.writeFile(`${dir}/y.txt`, "y\n");
    const added = git.add({ dir, paths: ["y.txt"] });
    const committed = git.commit({ dir, message: "with y" });
    const branched = git.branch({ dir, name: "after-y" });
    const tagged = git.tag({ dir, name: "v-y" });
    // Queued behind the four: runs after the commit, so nothing is left to report.
    expect(await git.status({ dir })).toEqual([]);
    await Promise.all([added, branched, tagged]);
    const { oid } = await committed;
    expect(await git.revParse({ dir, ref: "after-y" })).toBe(oid);
    expect(await git.revParse({ dir, ref: "v-y" })).toBe(oid);
    expect(await git.status({ dir })).toEqual([]);
  });

  it("two repositories do not wait for each other: a commit in one while the other's operations are queued", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await git.init({ dir: "/other" });
    await ws.fs.writeFile("/other/o.txt", "o\n");
    await git.add({ dir: "/other", paths: ["o.txt"] });
    await ws.fs.writeFile(`${dir}/z.txt`, "z\n");
    const queued = [git.add({ dir, paths: ["z.txt"] }), git.commit({ dir, message: "z" })];
    const other = await git.commit({ dir: "/other", message: "other" });
    expect((await git.log({ dir: "/other" })).map((c) => c.oid)).toEqual([other.oid]);
    await Promise.all(queued);
    expect((await git.log({ dir, depth: 1 }))[0]!.message).toBe("z\n");
  });
});
