/**
 * Issue 20, sixteenth attack run: a sync call the daemon never answers holds the run and the backend's
 * sync lock for ever — while the daemon still answers `info`, the heartbeat keeps the connection, and
 * nothing (killExec, timeoutMs) ends the pull.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose run exits 0 at once but whose
 * `scan` never answers (a taken-over daemon; or a real one whose walk blocks on a hung mount — a `read` of
 * a file on it stalls the same way), `info` answering as usual. `exec("true", { timeoutMs: 1000 })`, its
 * `result()`, then `killExec`, then a second `exec` on the backend. (Held: the daemon's exit code is
 * checked; a scan that does not advance fails at once — attack15c.)
 *
 * Found (medium; 2 of 2 runs): the pull after the run (`#pullAfter` under `RemoteSync.exclusive`) awaits
 * `rpc.scan` with no bound: `result()` still pending after 9 s; after `killExec("r1")` still pending 3 s
 * later (the run already exited: the kill changes nothing); a second `exec` on the backend queues behind
 * the lock and never starts (pending after 3 s); `workspace.pull()` likewise. Only dropping the connection
 * (the heartbeat fails only when `info` stops answering) or closing the Workspace ends it.
 *
 * Suggested fix: bound each sync call (`scan`, `read`, `apply`, `info`) — e.g. a stalled call fails the
 * pull as a transport error after a stated time (the pull left pending, the lock released) — and/or let
 * `killExec` of a run whose pull is under way abort that pull (sync `pending`, its reason saying so).
 *
 * Fixed: `daemonHandle` (src/backends/daemon/handle.ts) hands the runtime its daemon's sync calls bounded in
 * time (`boundedSync`): `info`, `scan` and `read` fail after REMOTE_SYNC_CALL_TIMEOUT_MS (10 s), `apply` after
 * REMOTE_SYNC_APPLY_TIMEOUT_MS (120 s), with `ETIMEDOUT: the container's daemon did not answer <call> within …`,
 * so the pull fails as on a lost connection: the run's result is `0 pending` with that reason and the lock is
 * released. The kill itself does not abort the pull (the bound ends it, ~10 s after it started — within this
 * test's window after the kill).
 */
import { describe, expect, it, vi } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { boundedSync, daemonHandle, REMOTE_STOP_GRACE_MS, REMOTE_SYNC_APPLY_TIMEOUT_MS, REMOTE_SYNC_CALL_TIMEOUT_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, sleep(ms).then(() => late)]);

describe("attack16c: a stalled sync call", () => {
  it("a run whose pull stalls settles (sync pending) once it is killed, and the backend takes the next command", { timeout: 40_000 }, async () => {
    const daemon = {
      ...emptyDaemon(),
      scan: () => new Promise(() => {}), // never answers
      events: async ({ after }: { after: number }) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true }),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const handle = await ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r1", timeoutMs: 1000 });
    const result = handle.result().then(
      (r) => `${r.exitCode} ${r.sync.status} ${r.sync.status === "pending" ? r.sync.error : ""}`,
      (e: Error) => `rejected ${e.message}`,
    );
    await sleep(1_000);
    await within(ws.runtime.killExec("r1", { backend: "box" }).catch(() => {}), REMOTE_STOP_GRACE_MS + 1_000, undefined);
    // Found: "pending" — the pull awaits scan for ever, holding the sync lock.
    expect(await within(result, REMOTE_STOP_GRACE_MS + 3_000, "pending")).toBe(
      `0 pending ETIMEDOUT: the container's daemon did not answer scan within ${REMOTE_SYNC_CALL_TIMEOUT_MS} ms (REMOTE_SYNC_CALL_TIMEOUT_MS): a file system in the container may hang, or a command took the daemon over; the push or pull it was part of did not finish (workspace.pull() or the next command tries again)`,
    );
    const next = ws.runtime.exec("true", { backend: "box", encoding: "utf8", id: "r2" }).then(() => "started");
    expect(await within(next, 3_000, "queued")).toBe("started");
  });

  it("boundedSync: a stalled apply fails after REMOTE_SYNC_APPLY_TIMEOUT_MS; an answered call passes through", async () => {
    vi.useFakeTimers();
    try {
      const daemon = { ...emptyDaemon(), apply: () => new Promise(() => {}) } as unknown as DaemonApi;
      const sync = boundedSync(daemon);
      expect(await sync.read({ path: "f", length: 1 })).toEqual({ data: new Uint8Array(0), size: 0, eof: true });
      const applied = sync.apply({ ops: [{ op: "rm", path: "f" }] }).then(
        () => "answered",
        (e: Error & { code?: string }) => `${e.code} ${e.message}`,
      );
      await vi.advanceTimersByTimeAsync(REMOTE_SYNC_APPLY_TIMEOUT_MS - 1);
      expect(await Promise.race([applied, Promise.resolve("pending")])).toBe("pending");
      await vi.advanceTimersByTimeAsync(1);
      expect(await applied).toBe(
        `ETIMEDOUT ETIMEDOUT: the container's daemon did not answer apply within ${REMOTE_SYNC_APPLY_TIMEOUT_MS} ms (REMOTE_SYNC_APPLY_TIMEOUT_MS): a file system in the container may hang, or a command took the daemon over; the push or pull it was part of did not finish (workspace.pull() or the next command tries again)`,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
