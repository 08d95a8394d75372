/**
 * Issue 20 tenth attack run, category 3 (data loss) — git's stat shortcut
 * with the Workspace's millisecond mtimes, on a clock that does not move.
 *
 * The index records each file's stats (mtime in ms, size, inode, mode;
 * a909654 takes them when the operation wrote the file), and status, `diff`,
 * `commit -a`, checkout's "would be overwritten" check all treat a file
 * whose stats equal its index entry as unchanged without reading it. A
 * rewrite of a file to the same size within the millisecond git wrote it keeps
 * every stat (the Workspace keeps the inode on overwrite). On Workers the
 * clock only moves at I/O (Date.now() is the time of the last I/O; Durable
 * Object SQLite calls are not I/O), so a shell script or a run doing
 * `echo AAAA > f; git add f; git commit …; echo BBBB > f` in one stretch
 * writes both versions at the same mtime (developers.cloudflare.com/workers/
 * runtime-apis/performance: deployed, Date.now() "only advance[s] … after I/O
 * occurs"; in local development timers increment regardless). This test
 * freezes `Date` with vitest's fake timers as a stand-in for that clock.
 *
 * DEFECT (medium: uncommitted work invisible to git and left out of
 * commits) — reproduction:
 *   f = "AAAA\n"; git add f; git commit -m base; (branch b: f = "XXXX\n", committed a second later)
 *   git checkout main            (writes f = "AAAA\n" at time T)
 *   write f = "BBBB\n"           (also at T: the clock has not moved)
 *   git status --porcelain=v1   → ""          (real git: " M f")
 *   git diff                    → ""
 *   git commit -am second       → 1 "nothing to commit, working tree clean"
 * The work stays on disk, but an agent told "working tree clean" goes on
 * as if it were committed (a later `reset --hard`, `stash`, a checkout of
 * another branch with -f, or a Workspace restore drops it). Held: `git
 * checkout b` still refuses ("would be overwritten") and keeps "BBBB\n".
 * Real git avoids this with its racy-git rule: an entry whose mtime is not
 * older than the index file's own mtime is "racily clean" and its content is
 * compared. Expected: same — an entry stamped at (or after) the time the
 * index was written is checked by content, so a same-millisecond rewrite is
 * seen by status, committed by `commit -a`, and protected from checkout.
 *
 * FIXED at the filesystem: every change of a file's content moves its mtime
 * (the clock's time, or the old mtime + 1 ms when the clock has not passed
 * it), so a same-size rewrite never keeps every stat git compares.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";

describe("attack10: a same-millisecond rewrite of a tracked file (racy git)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is seen by status and diff and committed by commit -a (checkout refuses to overwrite it: held)", { timeout: 60_000 }, async () => {
    // Stand-in for the Workers clock: it does not move between these storage-only calls.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-12-03T03:00:00Z") });
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
    const cli = async (...argv: string[]) => {
      const r = await ws.git!.cli({ argv, cwd: "/r" });
      return { code: r.exitCode, out: r.stdout + r.stderr };
    };
    await ws.fs.mkdir("/r", { recursive: true });
    await cli("init", "-b", "main");
    await ws.fs.writeFile("/r/f", "AAAA\n");
    await cli("add", "f");
    expect((await cli("commit", "-m", "base")).code).toBe(0);
    await cli("checkout", "-b", "b");
    vi.setSystemTime(new Date("2026-12-03T03:00:01Z"));
    await ws.fs.writeFile("/r/f", "XXXX\n");
    expect((await cli("commit", "-am", "on b")).code).toBe(0);
    vi.setSystemTime(new Date("2026-12-03T03:00:02Z"));
    expect((await cli("checkout", "main")).code).toBe(0); // writes f at 03:00:02.000
    expect(await ws.fs.readFile("/r/f", "utf8")).toBe("AAAA\n");

    await ws.fs.writeFile("/r/f", "BBBB\n"); // uncommitted work: same size, same millisecond as checkout's write
    const checkout = await cli("checkout", "b");
    // Held: checkout compares content and refuses.
    expect(checkout.code).toBe(1);
    expect(checkout.out).toContain("would be overwritten");
    expect(await ws.fs.readFile("/r/f", "utf8")).toBe("BBBB\n");
    const status = await cli("status", "--porcelain=v1");
    const diff = await cli("diff");
    const commit = await cli("commit", "-am", "second");
    const committed = await cli("show", "HEAD:f");
    // Actual: status "", diff "", commit exits 1 "nothing to commit, working tree clean", HEAD:f "AAAA\n".
    expect({ status: status.out, diffShowsIt: diff.out.includes("+BBBB"), commitCode: commit.code, committed: committed.out }).toEqual({ status: " M f\n", diffShowsIt: true, commitCode: 0, committed: "BBBB\n" });
    await ws.close();
  });
});
