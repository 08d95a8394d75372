/**
 * Issue 20 ninth attack run (part B), category 2 — the suspected flake of
 * attack7/abort-git-more.test.ts (a): can the repository lock
 * (src/git/repo-lock.ts, lease 3 s, renewed every 1 s) be taken over from a
 * holder that is still running?
 *
 * FIXED — the holder's writes of repository metadata (anything in .git but
 * objects/) are fenced (src/git/repo-lock.ts fenceWorkspace, used by the
 * client for every locking op): each reads the file, checks the lock file
 * still holds the op's token, and writes with ifMatch/exclusive on what it
 * read; a renewal or a check that finds the lock taken marks it lost, and
 * the op fails GitError ELOCKLOST. Here a's stalled ref write fails ESTALE
 * in the storage (b moved main) → a's commit rejects ELOCKLOST; b's commit
 * stays on main.
 *
 * DEFECT (medium, was) — yes, and the holder is never told: a lease that is not
 * renewed within 3 s is taken over by a waiting Workspace with a
 * compare-and-swap, but the old holder's operation keeps going (its failed
 * renewal is swallowed: "Taken over after the lease ran out: nothing to
 * renew") and nothing fences its later writes. The two operations then run
 * at once — the lost update the lock was added for (attack7
 * git-concurrency DEFECT 2) comes back.
 * Reproduction (two Workspaces `a`, `b` over ONE node:sqlite file): a's
 * storage stalls — its first lease renewal takes 3.5 s and its branch-ref
 * write 6 s (a slow disk, a blocked event loop in another process, an
 * overloaded isolate; simulated with a timer inside a's `fs.writeFile`);
 *   a: git commit -m one          (holds the lock, stalls)
 *   b: git add y; git commit -m two   (waits, takes the lock over after 3 s)
 *   expected: both commits on main (b waits for a), or a's commit fails
 *   because it lost the lock (real git: `index.lock`/ref locks are never
 *   stolen, and a ref update is a compare-and-swap on the old value).
 *   actual: both resolve with an oid; `git log` = one, base — b's commit
 *   "two" is on no branch (a's ref write, with the parent it read before,
 *   overwrote it).
 * Fix idea: write refs (and the index) with a compare-and-swap against the
 * value read at the start (isomorphic-git's writeRef → `ifMatch`), or have a
 * holder check its lease before each ref/index write and fail ELOCKED.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };
const scratch = mkdtempSync(join(tmpdir(), "attack9b-lock-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("attack9b: repository lock lease", () => {
  it("a holder stalled past the 3 s lease loses the lock to another Workspace and both commits 'succeed'; one is on no branch", { timeout: 60_000 }, async () => {
    const file = join(scratch, "one.sqlite");
    const a = new Workspace({ storage: nodeSqliteStorage(file), git: createGitClient(), defaultGitIdentity: ID });
    const b = new Workspace({ storage: nodeSqliteStorage(file), git: createGitClient(), defaultGitIdentity: ID });
    await a.fs.mkdir("/repo", { recursive: true });
    await a.git!.init({ dir: "/repo" });
    await a.fs.writeFile("/repo/a", "a\n");
    await a.git!.add({ dir: "/repo", paths: ["a"] });
    await a.git!.commit({ dir: "/repo", message: "base" });
    await a.fs.writeFile("/repo/x", "x\n");
    await a.git!.add({ dir: "/repo", paths: ["x"] });

    // a's storage stalls: its first lease renewal takes 3.5 s, its branch write 6 s.
    const fs = a.fs as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>;
    const write = fs.writeFile!.bind(a.fs);
    let held = false;
    let renewals = 0;
    fs.writeFile = async (...x: unknown[]) => {
      const path = String(x[0]);
      const opts = x[2] as { exclusive?: boolean; ifMatch?: string } | undefined;
      if (path === "/repo/.git/agent-computer.lock" && opts?.exclusive) held = true;
      if (path === "/repo/.git/agent-computer.lock" && opts?.ifMatch && ++renewals === 1) await sleep(3_500);
      if (path === "/repo/.git/refs/heads/main") await sleep(6_000);
      return write(...x);
    };
    const one = a.git!.commit({ dir: "/repo", message: "one" });
    while (!held) await sleep(10);
    const two = (async () => {
      await b.fs.writeFile("/repo/y", "y\n");
      await b.git!.add({ dir: "/repo", paths: ["y"] });
      return b.git!.commit({ dir: "/repo", message: "two" });
    })();
    const made = await Promise.allSettled([one, two]);
    fs.writeFile = write;
    const log = (await b.git!.log({ dir: "/repo" })).map((c) => c.message);
    const oks = made.filter((m) => m.status === "fulfilled").length;
    // Every commit reported as made is on main.
    expect({ oks, onMain: log.length - 1 }).toEqual({ oks, onMain: oks });
    expect(log).toContain("base\n");
  });
});
