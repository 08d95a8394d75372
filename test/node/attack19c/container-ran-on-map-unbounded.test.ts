/**
 * Issue 20, nineteenth attack run: runtime/index.ts keeps `#ranOn` — for every run `exec` starts on a remote
 * command backend (a container), the key `<backend>\0<run id>` and the runtime id it ran on, so `getExec`/`killExec`
 * /`disposeExec` can answer `EEXEC_LOST` once the container restarted. Nothing ever deletes from it: not
 * `disposeExec` (after which "the id is free"), not the daemon's retention of finished runs (10 minutes, 100 runs),
 * not a bound — unlike the daemon shell's own watches (MAX_WATCHED_RUNS, 10,000).
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon (attack15c/daemon-stand-in.ts) whose runs
 * exit 0 at once; 5,000 warm-up runs of one id, then a control of 10,000 runs reusing one id, then 10,000 runs each
 * with its own id of 256 bytes (the id limit), each read to its result and disposed (`disposeExec`); the heap measured
 * after a full GC (`--expose-gc` set at run time). (Held: the daemon shell's watches are dropped by `disposeExec` and
 * bounded by MAX_WATCHED_RUNS; the control run's heap stays flat.)
 *
 * Found (low: a slow leak in a long-lived Durable Object; 4 of 4 runs): the heap grows ~330 bytes per run (3.26 MB
 * per 10,000 runs, the control 68 KB; 8.1 MB per 24,000 in an earlier, longer set-up) although every run was
 * disposed — about 400,000 container commands of one object's life fill a 128 MB Durable Object with nothing but
 * these entries (fewer with longer backend ids: the key holds the backend's id whole).
 *
 * Suggested fix: delete the entry in `disposeExec` (and when a later `exec` replaces it), and bound the map — e.g. the
 * daemon's own horizon: MAX_WATCHED_RUNS entries, oldest first (a run past the daemon's retention is `ENOENT` or
 * `ELOG_TRUNCATED` there anyway), or keep one runtime id per backend and the runs started before it changed.
 *
 * Fixed: runtime/index.ts deletes a run's `#ranOn` entry at its `disposeExec`, re-inserts it (newest) when `exec`
 * reuses the id, and keeps at most MAX_REMOTE_RUNS_REMEMBERED (10,000) entries, the oldest run dropped first. The
 * heap measurement (20–30 s, GC-dependent) is replaced by what the map decides, observed through `EEXEC_LOST`: a
 * stand-in daemon that forgets its runs when it "restarts" (a new boot id on the next connection) — a run the
 * runtime still remembers is `EEXEC_LOST`, one it forgot reaches the new daemon and is `ENOENT` there. The cap
 * is shown with MAX_REMOTE_RUNS_REMEMBERED + 1 runs of a daemon answering each at once (a few seconds).
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { MAX_REMOTE_RUNS_REMEMBERED } from "../../../src/runtime/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

/**
 * A Workspace over a stand-in daemon whose runs exit 0 at once and which knows the runs started since its boot
 * (`dispose` forgets one); `restart()` drops the connection and boots the daemon again (a new boot id, no runs).
 */
async function restartableWorkspace() {
  let boot = 1;
  let known = new Set<string>();
  let drop: () => void = () => {};
  const daemon = {
    ...emptyDaemon(),
    info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: `boot-${boot}` }),
    exec: async ({ id }: { id: string }) => (known.add(id), { id, pid: 1 }),
    events: async ({ id, after }: { id: string; after: number }) => {
      if (!known.has(id)) throw Object.assign(new Error(`ENOENT: no run ${JSON.stringify(id)}`), { code: "ENOENT" });
      return { events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true };
    },
    dispose: async ({ id }: { id: string }) => (known.delete(id), { disposed: true as const }),
  } as unknown as DaemonApi;
  const ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise<void>((resolve) => (drop = resolve)), close() {} }) }],
  });
  await ws.fs.mkdir("/workspace", { recursive: true });
  return {
    ws,
    run: async (id: string) => void (await (await ws.runtime.exec("true", { backend: "box", id, sync: "defer" })).result()),
    async restart() {
      boot++;
      known = new Set();
      drop();
      await new Promise((resolve) => setTimeout(resolve, 0)); // the runtime sees the connection gone
    },
    /** What `getExec(id)` does now: `attached`, or the code it rejects with. */
    reattach: (id: string) =>
      ws.runtime.getExec(id, { backend: "box" }).then(
        () => "attached",
        (error: unknown) => String((error as { code?: unknown }).code),
      ),
  };
}

describe("attack19c: the runtime's memory of which container runtime each run started on", () => {
  it("disposeExec forgets the run; an undisposed run of the old runtime stays EEXEC_LOST", { timeout: 30_000 }, async () => {
    const box = await restartableWorkspace();
    try {
      await box.run("disposed");
      await box.ws.runtime.disposeExec("disposed", { backend: "box" });
      await box.run("kept");
      await box.restart();
      // Found: both EEXEC_LOST (the disposed run's entry stayed).
      expect({ disposed: await box.reattach("disposed"), kept: await box.reattach("kept") }).toEqual({ disposed: "ENOENT", kept: "EEXEC_LOST" });
      // A run of the new runtime with a reused id is remembered as the new runtime's.
      await box.run("kept");
      expect(await box.reattach("kept")).toBe("attached");
    } finally {
      await box.ws.close();
    }
  });

  it(`at most MAX_REMOTE_RUNS_REMEMBERED (${MAX_REMOTE_RUNS_REMEMBERED}) runs are remembered, the oldest started forgotten first`, { timeout: 60_000 }, async () => {
    expect(MAX_REMOTE_RUNS_REMEMBERED).toBe(10_000);
    const box = await restartableWorkspace();
    try {
      await box.run("first");
      await box.run("second");
      for (let i = 2; i < MAX_REMOTE_RUNS_REMEMBERED; i++) await box.run(`run-${i}`);
      await box.run("first"); // the id reused: now the newest run
      await box.run("over"); // one past the limit: "second" (the oldest now) is forgotten
      await box.restart();
      // Found: all EEXEC_LOST (nothing was ever forgotten).
      expect({
        first: await box.reattach("first"),
        second: await box.reattach("second"),
        third: await box.reattach("run-2"),
        over: await box.reattach("over"),
      }).toEqual({ first: "EEXEC_LOST", second: "ENOENT", third: "EEXEC_LOST", over: "EEXEC_LOST" });
    } finally {
      await box.ws.close();
    }
  });
});
