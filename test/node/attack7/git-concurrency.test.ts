/**
 * Issue 20 seventh attack run, category "concurrency" for git on Node: the
 * client serialises the operations on a repository per `dir` string
 * (src/git/client.ts `#run`, the fix of issue 15 / attack5 O2). Tried here:
 *
 * - one Workspace, commits started at once through `/repo`, `/repo/`,
 *   `/repo/.` and `/repo/sub/..`: the spellings normalise to one key, every
 *   commit lands (withstood);
 * - one Workspace, commits through `/repo` and through `/alias`, a symbolic
 *   link to `/repo` — DEFECT 1 below;
 * - two Workspaces over one node:sqlite file (two isolates or processes of
 *   one deployment), concurrent `add`s of different files and concurrent
 *   `commit`s — DEFECT 2 below.
 *
 * DEFECT 1 (medium), FIXED — the client's queue is keyed by the repository's canonical path (links resolved) — reproduction:
 *   await ws.fs.symlink("/repo", "/alias");
 *   await Promise.all([git.commit({ dir: "/repo", message: "one" }), git.commit({ dir: "/alias", message: "two" })]);
 *   (await git.log({ dir: "/repo" }))   // base + ONE of them; both resolved with an oid
 * The queue key is the normalised text of `dir`, not the repository it
 * names, so an alias (a link, or a link in a leading component) gets its own
 * queue and the two commits race as before the O2 fix: both resolve the same
 * parent, the second ref write drops the first. The shell's and ws:git's
 * `cd /alias && git commit` reach the same client.
 * Impact: a commit reported as made (an oid) is not on any branch — silent
 * loss of history (it is still an unreachable object); needs two writers, one
 * of them through a link.
 * Fix proposal: key the queue by the repository's resolved gitdir — realpath
 * of `dir` (fs.realpath or a readlink walk) before `#run` takes the queue —
 * or by one queue per Workspace for every writing operation.
 *
 * DEFECT 2 (medium), FIXED — writing operations hold a lock file `.git/agent-computer.lock` (exclusive create, 10 s lease) — reproduction: `a` and `b` are `new Workspace({ storage:
 * nodeSqliteStorage(file), git: createGitClient() })` over ONE file;
 *   await Promise.all([a.git.add({ dir: "/repo", paths: ["f1"] }), b.git.add({ dir: "/repo", paths: ["f2"] })]);  // ×5
 *   → both resolve, the index holds only one side's files;
 *   await Promise.all([a.git.commit({…"one"}), b.git.commit({…"two"})]) → both resolve with an oid, log shows one.
 * The per-dir queue lives in each Workspace's git client (memory), and
 * isomorphic-git's own lock was removed from the bundle; nothing in storage
 * says "this ref / this index is being written".
 * Impact: lost staged files and lost commits, each reported as success, for
 * any deployment that runs two Workspaces on one database (the same class as
 * the known edit lost-update, but through git's index and refs).
 * Fix proposal: write refs and the index with a compare-and-swap in one
 * storage transaction (read the old ref / index revision, write only if
 * unchanged, else retry or fail `ELOCKED` like real git's "cannot lock ref"),
 * or take a lock file (`index.lock`, `refs/heads/<b>.lock`) with an exclusive
 * create in the Workspace, as real git does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };
const scratch = mkdtempSync(join(tmpdir(), "attack7-git-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

function gitWorkspace(storage = nodeSqliteStorage(":memory:")): Workspace {
  return new Workspace({ storage, git: createGitClient(), defaultGitIdentity: ID });
}

async function baseRepo(ws: Workspace): Promise<void> {
  await ws.fs.mkdir("/repo/sub", { recursive: true });
  await ws.git!.init({ dir: "/repo" });
  await ws.fs.writeFile("/repo/a", "a\n");
  await ws.git!.add({ dir: "/repo", paths: ["a"] });
  await ws.git!.commit({ dir: "/repo", message: "base" });
}

describe("one Workspace", () => {
  it("spellings of one dir (/repo, /repo/, /repo/., /repo/sub/..) share one queue: every commit lands", { timeout: 30_000 }, async () => {
    const ws = gitWorkspace();
    await baseRepo(ws);
    const dirs = ["/repo", "/repo/", "/repo/.", "/repo/sub/.."];
    const made = await Promise.all(dirs.map((dir, i) => ws.git!.commit({ dir, message: `c${i}` })));
    const log = await ws.git!.log({ dir: "/repo" });
    expect(log.map((c) => c.message)).toEqual(["c3\n", "c2\n", "c1\n", "c0\n", "base\n"]);
    expect(log.slice(0, 4).map((c) => c.oid)).toEqual(made.map((m) => m.oid).reverse());
  });

  it("DEFECT 1: a commit through a link to the repository races one through its path; one commit is lost", { timeout: 30_000 }, async () => {
    const lost: string[] = [];
    for (let round = 0; round < 3; round++) {
      const ws = gitWorkspace();
      await baseRepo(ws);
      await ws.fs.symlink("/repo", "/alias");
      const made = await Promise.all([
        ws.git!.commit({ dir: "/repo", message: "one" }),
        ws.git!.commit({ dir: "/alias", message: "two" }),
      ]);
      const history = (await ws.git!.log({ dir: "/repo" })).map((c) => c.oid);
      lost.push(...made.map((m) => m.oid).filter((oid) => !history.includes(oid)));
    }
    // Was: one of the two commits of every round missing from the branch.
    expect(lost).toEqual([]);
  });
});

describe("two Workspaces over one node:sqlite file", () => {
  function pair(): { a: Workspace; b: Workspace } {
    const file = join(scratch, `db${++n}.sqlite`);
    return { a: gitWorkspace(nodeSqliteStorage(file)), b: gitWorkspace(nodeSqliteStorage(file)) };
  }

  it("sequential add and commit from alternating Workspaces: every file and commit lands (no stale cache)", { timeout: 30_000 }, async () => {
    const { a, b } = pair();
    await baseRepo(a);
    for (let i = 0; i < 4; i++) {
      const ws = i % 2 ? a : b;
      await ws.fs.writeFile(`/repo/s${i}`, `${i}\n`);
      await ws.git!.add({ dir: "/repo", paths: [`s${i}`] });
      await ws.git!.commit({ dir: "/repo", message: `s${i}` });
    }
    expect((await b.git!.log({ dir: "/repo" })).map((c) => c.message)).toEqual(["s3\n", "s2\n", "s1\n", "s0\n", "base\n"]);
    expect(await a.git!.lsFiles({ dir: "/repo" })).toEqual(["a", "s0", "s1", "s2", "s3"]);
  });

  it("DEFECT 2a: concurrent adds from two Workspaces: every add resolves, the index keeps one side's files", { timeout: 30_000 }, async () => {
    const { a, b } = pair();
    await baseRepo(a);
    for (let i = 0; i < 10; i++) await a.fs.writeFile(`/repo/f${i}`, `${i}\n`);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).git!.add({ dir: "/repo", paths: [`f${i}`] })));
    // Was: ["a", "f0", "f2", "f4", "f6", "f8"] — the five adds through `a` gone.
    expect(await a.git!.lsFiles({ dir: "/repo" })).toEqual(["a", ...Array.from({ length: 10 }, (_, i) => `f${i}`)]);
  });

  it("DEFECT 2b: concurrent commits from two Workspaces: both resolve with an oid, the branch keeps one", { timeout: 30_000 }, async () => {
    const { a, b } = pair();
    await baseRepo(a);
    const made = await Promise.all([a.git!.commit({ dir: "/repo", message: "one" }), b.git!.commit({ dir: "/repo", message: "two" })]);
    const history = (await a.git!.log({ dir: "/repo" })).map((c) => c.oid);
    expect(made.map((m) => m.oid).filter((oid) => !history.includes(oid))).toEqual([]);
    expect(history).toHaveLength(3);
    expect(await a.fs.readdir("/repo/.git").then((es) => es.map((e) => e.name).filter((n) => n.endsWith(".lock")))).toEqual([]);
  });
});
