/**
 * Issue 20, sixteenth attack run: `killExec` of a run this connection has not watched waits on the
 * daemon for ever, and sets no host deadline — after the object reconnects (every restart or eviction),
 * the host-side stop of attack15c does not apply to a run killed before it is reattached.
 *
 * Tried: `daemonShell` (src/backends/daemon/handle.ts) through a Workspace's runtime with a stand-in daemon
 * that never answers `kill` and never ends a run (its `events` long-poll answers nothing): `killExec(id)`
 * for an id not exec'd or reattached on this connection (the case after a reconnect), then `getExec(id)`.
 * (Held: `killExec` after `getExec` settles within REMOTE_STOP_GRACE_MS — 7,006 ms — and the stream ends by
 * the host with exit 137.)
 *
 * Found (medium; 2 of 2 runs): `killExec` looks the run up in `watched`, and with no watch it only
 * `await`s the daemon's answer: still pending after 10 s (for ever here). Nothing records the kill either,
 * so a `getExec` afterwards makes a watch without a deadline, and its stream waits on the daemon without
 * end (still running 10 s later) — though docs/container.md says "`killExec` settles on the daemon's
 * answer or within the 7 s" and "or `killExec` + 7 s" (the handle.ts comment: "a reattach on a new
 * connection has no deadline until `killExec`"). A command that took over the daemon (or a wedged daemon) keeps such a run alive and the
 * caller's `killExec` hanging.
 *
 * Suggested fix: in `killExec`, make the watch when there is none (`watch(input.id)`) and give it the kill
 * deadline, so the call settles within REMOTE_STOP_GRACE_MS and a later reattach ends by the host.
 *
 * Fixed: `killExec` watches the run when this connection does not yet (daemon/handle.ts), with the kill's
 * deadline: the call settles on the daemon's answer or within REMOTE_STOP_GRACE_MS, and a reattach after it
 * is ended by the host (exit 137) past the deadline; a refused kill (ENOENT) still rejects and restores the
 * deadline it had (none).
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, REMOTE_STOP_GRACE_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function workspace(): Workspace {
  const daemon = {
    ...emptyDaemon(),
    kill: () => new Promise(() => {}), // never answers
    events: async () => {
      await sleep(50);
      return { events: [], done: false }; // the run goes on
    },
  } as unknown as DaemonApi;
  return new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
  });
}

const within = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, sleep(ms).then(() => late)]);

describe("attack16c: killExec of a run this connection does not watch", () => {
  it("a kill the daemon refuses (unknown id) still rejects at once with its code", async () => {
    const daemon = {
      ...emptyDaemon(),
      kill: async () => Promise.reject(Object.assign(new Error('ENOENT: no run "nope"'), { code: "ENOENT" })),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const t = performance.now();
    const outcome = await ws.runtime.killExec("nope", { backend: "box" }).then(
      () => "settled",
      (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
    );
    const ms = performance.now() - t;
    await ws.close();
    expect(outcome).toBe('ENOENT no run "nope"');
    expect(ms).toBeLessThan(REMOTE_STOP_GRACE_MS);
  });

  it("settles within REMOTE_STOP_GRACE_MS when the daemon does not answer", { timeout: 30_000 }, async () => {
    const ws = workspace();
    await ws.fs.mkdir("/workspace", { recursive: true });
    const killed = ws.runtime.killExec("started-before-the-reconnect", { backend: "box" }).then(
      () => "settled",
      (e: Error) => `rejected ${e.message}`,
    );
    // Found: "pending" (for ever).
    expect(await within(killed, REMOTE_STOP_GRACE_MS + 3_000, "pending")).toBe("settled");
    await ws.close();
  });

  it("a reattach after that killExec ends by the host (exit 137) within the grace", { timeout: 30_000 }, async () => {
    const ws = workspace();
    await ws.fs.mkdir("/workspace", { recursive: true });
    void ws.runtime.killExec("r", { backend: "box" }).catch(() => {});
    await sleep(100);
    const handle = await ws.runtime.getExec("r", { backend: "box", encoding: "utf8" });
    const result = handle.result().then((r): number | string => r.exitCode);
    // Found: "running" — the reattached stream has no deadline.
    expect(await within<number | string>(result, REMOTE_STOP_GRACE_MS + 3_000, "running")).toBe(137);
    await ws.close();
  });
});
