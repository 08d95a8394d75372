/**
 * OPEN defects found by the attack tests (issue 15 "Bad input", issue 20):
 * each test here FAILS today and passes once its defect is fixed. When one
 * passes, move it into the matching attack-*.test.ts file. The cause and
 * the proposed fix are given above each test.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, realGit, realRepo, workspaceCopy, writeTree } from "./worktree-helpers.js";
import { within } from "./attack-helpers.js";

afterAll(cleanupScratch);

function disk() {
  return realRepo((d) => {
    writeTree(d, { "a.txt": "a\n", "sub/b.txt": "b\n" });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "base");
    writeTree(d, { "a.txt": "edited\n", "new.txt": "new\n" });
  });
}

describe("concurrent commits on one repository", () => {
  // Five commits started together all resolve with their own oid, but the branch ends at the last one:
  // four "successful" commits are not in the history (HEAD = c4, parent base). Real git serialises on
  // the ref lock: the others fail ("cannot lock ref 'HEAD'"). Cause: src/git/ops/repo.ts `commit` reads
  // the parent, writes the commit, then writes the ref with no compare-and-swap, and nothing in
  // src/git/client.ts serialises operations on one repository. Fix (either): (a) in client.ts, run every
  // mutating method through a per-client async queue keyed by the resolved gitdir (reads may skip it;
  // nested op calls must not re-enter the queue); or (b) in commit (and merge/reset/checkout/branch/
  // updateRef), re-read the ref just before writing it and fail `E<OP>FAIL` "cannot lock ref '<ref>':
  // it moved from <old> to <new>" when it changed.
  it("every commit that resolves is in the history", { timeout: 30_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.writeFile(`${dir}/x.txt`, "x\n");
    await git.add({ dir, paths: ["x.txt"] });
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => within(10_000, git.commit({ dir, message: `c${i}` }))));
    for (const r of results) if (r.status === "rejected") expect((r.reason as { code?: string }).code).toBe("ECOMMITFAIL");
    const oids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.oid] : []));
    const history = (await git.log({ dir })).map((c) => c.oid);
    expect(oids.filter((oid) => !history.includes(oid))).toEqual([]);
  });
});
