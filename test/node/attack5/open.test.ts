/**
 * Issue 20 fifth attack run, found here and fixed meanwhile by e65ac51 (the
 * client runs operations that change a repository one at a time per dir);
 * kept as a regression test.
 *
 * O2 — two commits at once on one repository: both succeed, one is lost.
 * In a Durable Object every client reaches the same `workspace.git`, so two
 * agents (or an agent's two tool calls) committing at once is ordinary.
 * isomorphic-git's `commit` resolves the branch's tip (the parent) before it
 * takes its index lock, and `writeRef` overwrites the ref without checking
 * it still holds that parent; our client (src/git/ops/repo.ts `commit`,
 * src/git/wrap.ts `runOp`) adds no lock of its own. So both commits get the
 * same parent, both resolve with an oid, and the second ref write drops the
 * first commit from the branch: `log` shows one of them. Real git takes
 * `HEAD.lock`/`refs/heads/<b>.lock` and the loser fails ("cannot lock ref").
 */
import { describe, expect, it } from "vitest";
import { cleanupScratch, exportDir, newWorkspace, realGit } from "../git/worktree-helpers.js";
import { afterAll } from "vitest";

afterAll(cleanupScratch);

describe("O2: two commits at once on one repository", () => {
  it("every commit that resolves with an oid is in the branch's history (or one fails with a GitError code)", { timeout: 60_000 }, async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/r" });
    await ws.fs.writeFile("/r/a", "a\n");
    await git.add({ dir: "/r", paths: ["a"] });
    const base = await git.commit({ dir: "/r", message: "base" });
    await ws.fs.writeFile("/r/b", "b\n");
    await ws.fs.writeFile("/r/c", "c\n");
    await git.add({ dir: "/r", paths: ["b", "c"] });
    const settled = await Promise.allSettled([git.commit({ dir: "/r", message: "one" }), git.commit({ dir: "/r", message: "two" })]);
    const made = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.oid] : []));
    for (const s of settled) if (s.status === "rejected") expect(typeof (s.reason as { code?: unknown }).code).toBe("string");
    const history = (await git.log({ dir: "/r" })).map((c) => c.oid);
    expect(history.at(-1)).toBe(base.oid);
    // Before the fix: made = [one, two], history = [two, base] — "one" resolved and is nowhere.
    expect(made.filter((oid) => !history.includes(oid))).toEqual([]);
    // The real git agrees with what is left.
    const disk = await exportDir(ws, "/r");
    expect(realGit(disk, "rev-list", "--count", "HEAD").trim()).toBe(String(history.length));
  });
});
