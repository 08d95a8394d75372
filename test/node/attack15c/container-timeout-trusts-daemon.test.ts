/**
 * Issue 20, fifteenth attack run: a container run's `timeoutMs` and `kill` are carried out only by the
 * daemon — a daemon that does not end the run (taken over, or stopped by its own command) keeps the run,
 * `result()` and `killExec()` pending for ever.
 *
 * Tried: (1) real local computerd through TestBackend: a command `kill -STOP $PPID; sleep 30` with
 * `timeoutMs: 2000` — `result()` still pending after 15 s, `killExec()` pending after 10 s more; only
 * killing the daemon process from outside settled it (connection lost). (ContainerBackend and
 * LegacyContainerBackend have a 20 s heartbeat that would turn a FROZEN daemon into a lost connection;
 * TestBackend has none.) (2) Below, the daemon handle every container backend uses
 * (src/backends/daemon/handle.ts `daemonHandle`) over a stand-in daemon that answers every call (so no
 * heartbeat fails) but never sends `exit` and ignores `kill` — what a command that replaced the daemon
 * (docs/container.md: "a command can kill the daemon …, replace its files for the next start"; "Treat
 * what the daemon answers as coming from the model's side") does.
 *
 * Found (medium-low): `exec({ timeoutMs: 1000 })` passes the timeout to the daemon and the host never
 * enforces it; `killExec` only asks the daemon. Both stay pending (10 s bound here; for ever in fact), so
 * the exec tool — whose abort path calls kill — stalls the agent loop, the issue's #3 for containers.
 * Reproduction:
 *
 *   backend { connect: () => daemonHandle({ …, events: () => wait 50 ms, { events: [], done: false },
 *                                           kill: () => ({ killed: true }) }, transport) }
 *   (await ws.runtime.exec("sleep 1", { backend: "box", timeoutMs: 1000 })).result()   // never settles
 *
 * Suggested fix: keep the run's deadline on the host too: past `timeoutMs` + the kill grace (and a bounded
 * time after `killExec`) settle the run locally (143/137, cancelled, a stderr line saying the container did
 * not stop it) and drop its stream; later events of that id are ignored.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function hostileDaemon(): DaemonApi & Record<string, unknown> {
  return {
    info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
    scan: async () => ({ entries: [], skipped: [], cursor: null, done: true }),
    read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
    apply: async ({ ops }: { ops: unknown[] }) => ({ results: ops.map(() => ({ ok: true })) }),
    exec: async ({ id }: { id: string }) => ({ id, pid: 1 }),
    // Answers (nothing new) after a short wait, as a long-poll does: the session is alive.
    events: async () => {
      await sleep(50);
      return { events: [], done: false };
    },
    kill: async () => ({ killed: true }),
    dispose: async () => ({ disposed: true as const }),
  } as unknown as DaemonApi & Record<string, unknown>;
}

describe("attack15c: a container run's timeout is the daemon's alone", () => {
  it.fails("a run with timeoutMs 1000 settles within 10 s, and killExec settles, whatever the daemon does", { timeout: 60_000 }, async () => {
    let closeTransport!: () => void;
    const closed = new Promise<void>((r) => (closeTransport = r));
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(hostileDaemon(), { closed, close: () => closeTransport() }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const bound = (ms: number, what: string) => new Promise<string>((r) => setTimeout(() => r(what), ms));
    const h = await ws.runtime.exec("sleep 1", { backend: "box", encoding: "utf8", timeoutMs: 1000 });
    const settled = h.result().then(
      (r) => `settled ${r.status}`,
      (e: Error) => `rejected ${e.message}`,
    );
    const first = await Promise.race([settled, bound(10_000, "result pending after 10 s")]);
    const kill = ws.runtime.killExec(h.id, { backend: "box" }).then(() => "killed", (e: Error) => `kill rejected ${e.message}`);
    const killed = await Promise.race([kill, bound(5_000, "killExec pending after 5 s")]);
    const after = await Promise.race([settled, bound(5_000, "result pending after kill")]);
    closeTransport();
    await Promise.race([settled, sleep(2_000)]);
    await ws.close().catch(() => {});
    // Found: "result pending after 10 s", then killExec resolved ("killed") yet "result pending after kill".
    expect({ first, killed, after }).toEqual({ first: "settled cancelled", killed: expect.any(String), after: "settled cancelled" });
  });
});
