/**
 * Issue 20 ninth attack run (part B), category 1: hostile content in the
 * repository lock file `.git/agent-computer.lock` (src/git/repo-lock.ts).
 * The file is an ordinary Workspace file: the shell (`echo … > .git/…`), an
 * exec run, a container sync, a restored backup or a second process whose
 * clock runs ahead can write it.
 *
 * FIXED — a recorded expiry more than REPO_LOCK_LEASE_MS +
 * REPO_LOCK_MAX_SKEW_MS (3 s + 10 s) ahead is corrupt and taken over at once
 * (compare-and-swap), and the wait for a held lock is bounded by
 * REPO_LOCK_MAX_WAIT_MS (30 s → GitError ELOCKED naming the file and how to
 * remove it); a lock path that is a directory or a dangling link fails
 * ELOCKED instead of being skipped (src/git/repo-lock.ts).
 *
 * DEFECT (medium, was) — a lock whose recorded expiry lies far in the future
 * makes every writing git operation wait forever: `withRepoLock` retries
 * (backoff up to 100 ms) for as long as `<expires-ms>` is ahead of
 * `Date.now()`, with no bound on the wait and no check that the holder
 * renews it. Real git fails at once ("Unable to create '.git/index.lock':
 * File exists. Another git process seems to be running…", exit 128).
 * Reproduction:
 *   await ws.fs.writeFile("/repo/.git/agent-computer.lock", "someone 99999999999999\n");
 *   await ws.git.add({ dir: "/repo", paths: ["b"] });   // never settles
 *   expected: settles (an error naming the lock, or the add after a bounded wait);
 *   actual: still pending after 10 s (and forever; a `git add` in the shell
 *   or ws:git hangs the same way until its run's timeout).
 * A clock ahead by N ms on the writer gives every other writer N ms of
 * extra wait the same way.
 * Fix idea: cap the lease read from the file at REPO_LOCK_LEASE_MS from the
 * first time it was seen unchanged (a lock not renewed within a lease is
 * stale whatever it claims), or fail ELOCKED after a bounded wait.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ID = { name: "A", email: "a@example.com" };

describe("attack9b: a lock file claiming a far expiry", () => {
  it("git add settles within 10 s", { timeout: 30_000 }, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: ID });
    await ws.fs.mkdir("/repo", { recursive: true });
    await ws.git!.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/a", "a\n");
    await ws.git!.add({ dir: "/repo", paths: ["a"] });
    await ws.fs.writeFile("/repo/b", "b\n");
    await ws.fs.writeFile("/repo/.git/agent-computer.lock", "someone 99999999999999\n");
    const add = ws.git!.add({ dir: "/repo", paths: ["b"] }).then(
      () => "added",
      (e: Error) => `rejected: ${e.message}`,
    );
    const outcome = await Promise.race([add, new Promise((r) => setTimeout(() => r("pending after 10 s"), 10_000))]);
    // Actual: "pending after 10 s".
    expect(outcome).not.toBe("pending after 10 s");
  });
});
