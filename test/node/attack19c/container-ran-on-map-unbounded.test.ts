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
 */
import v8 from "node:v8";
import vm from "node:vm";
import { expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** Heap used after a full collection. */
function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

it.fails("runs started and disposed leave nothing behind in the runtime (10,000 runs)", { timeout: 60_000 }, async () => {
  const daemon = {
    ...emptyDaemon(),
    events: async ({ after }: { after: number }) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true }),
  } as unknown as DaemonApi;
  const ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
  });
  try {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const runs = async (n: number, id: (i: number) => string) => {
      for (let i = 0; i < n; i++) {
        await (await ws.runtime.exec("true", { backend: "box", id: id(i) })).result();
        await ws.runtime.disposeExec(id(i), { backend: "box" });
      }
    };
    await runs(5_000, () => "warm".padEnd(256, "x")); // caches and code warm, one id
    const start = heap();
    await runs(10_000, () => "same".padEnd(256, "x"));
    const control = heap() - start;
    await runs(10_000, (i) => `run-${i}`.padEnd(256, "x"));
    const grown = heap() - start - control;
    // Found: 3,258,744 and 3,266,256 bytes (≈ 326 per run); the control 67,584 and 69,176.
    expect(grown).toBeLessThan(1024 * 1024);
  } finally {
    await ws.close();
  }
});
