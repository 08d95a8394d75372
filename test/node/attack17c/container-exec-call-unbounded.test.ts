/**
 * Issue 20, seventeenth attack run: the daemon's `exec` call is sent under the backend's sync lock with no
 * bound in time — a daemon that never answers it (taken over, or wedged) holds the command, the lock and
 * every later command and push of that backend for ever, though the sync calls around it are now bounded.
 *
 * Tried: a Workspace runtime over `daemonHandle` (src/backends/daemon/handle.ts, as both container backends
 * use it) with a stand-in daemon whose `info` answers (so the connector's heartbeat keeps the connection)
 * and whose first `exec` never answers; `runtime.exec("true", { id: "r1", timeoutMs: 1000 })`, then
 * `killExec("r1")`, then a second `exec` on the backend and a `workspace.push()`. (Held: `killExec` settles
 * within REMOTE_STOP_GRACE_MS; `info`/`scan`/`read`/`apply` fail ETIMEDOUT after their bounds — attack16c.)
 *
 * Found (medium; 3 of 3 runs): runtime/index.ts sends the command inside `remote.exclusive(...)` and
 * awaits `rpc.shell.exec`, which is `api.exec` with no deadline (`daemonShell.exec` → `call(() =>
 * api.exec(request))`). The first `exec` is still pending 25 s later (the run's `timeoutMs` of 1 s and
 * `killExec` — "killed" after 7 s — change nothing: there is no run to end yet); the second `exec` queues
 * behind the lock and never starts, and `workspace.push()` never yields. docs/container.md says a daemon
 * "taken over by a command, cannot hold the run's result or the backend's sync lock" — it can, through
 * `exec`. Only the heartbeat (which needs `info` to stop answering) or closing the Workspace ends it.
 *
 * Suggested fix: bound `exec` in time as the sync calls are (e.g. REMOTE_SYNC_CALL_TIMEOUT_MS, or a bound of
 * its own sized for a 20 MiB stdin), failing it `ETIMEDOUT` as a lost connection would ("the command may
 * have started: check with getExec"), releasing the lock with the pull left pending (COMMAND_SENT), so the
 * next command runs. `disposeExec` and `getExec`'s first `events` call are unbounded the same way (the
 * caller's own call only, no lock held).
 * Fixed: daemon/handle.ts bounds `exec`, `dispose` and `getExec`'s `events` calls that do not wait (its first, and the
 * tail search) by REMOTE_EXEC_CALL_TIMEOUT_MS (20000): past it the call fails `ETIMEDOUT: the container's daemon did not
 * answer exec within 20000 ms (REMOTE_EXEC_CALL_TIMEOUT_MS) …; the command may have started: check with getExec("r1") …`,
 * the runtime releases the sync lock (the command's pull left pending) and the next command and push run.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, REMOTE_STOP_GRACE_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, sleep(ms).then(() => late)]);

describe("attack17c: a daemon that never answers exec", () => {
  it("the command fails ETIMEDOUT within a bound and the backend takes the next command and push", { timeout: 50_000 }, async () => {
    let execs = 0;
    const daemon = {
      ...emptyDaemon(),
      exec: async ({ id }: { id: string }) => (++execs === 1 ? new Promise(() => {}) : { id, pid: 1 }),
      events: async ({ after }: { after: number }) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true }),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const first = ws.runtime.exec("true", { backend: "box", id: "r1", timeoutMs: 1000 }).then(
      () => "started",
      (e: Error & { code?: string }) => `rejected ${e.code}`,
    );
    await sleep(500);
    // The kill settles (within the grace) but cannot end a run the daemon never acknowledged.
    expect(await within(ws.runtime.killExec("r1", { backend: "box" }).then(() => "killed", () => "kill rejected"), REMOTE_STOP_GRACE_MS + 2_000, "kill pending")).toBe("killed");
    // Found: "pending" — api.exec is awaited under the sync lock without a deadline.
    expect(await within(first, 25_000, "pending")).toBe("rejected ETIMEDOUT");
    const next = ws.runtime.exec("true", { backend: "box", id: "r2" }).then(() => "started", (e: Error) => `rejected ${e.message}`);
    expect(await within(next, 3_000, "queued")).toBe("started");
    const push = (async () => {
      for await (const step of ws.push("box")) if (step.complete) return "pushed";
      return "none";
    })();
    expect(await within(push, 3_000, "queued")).toBe("pushed");
  });
});
