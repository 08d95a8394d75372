/**
 * Issue 20, eighteenth attack run: what a replay run's resume holds in memory
 * (src/backends/worker-javascript/connection.ts `#resume`: `for (let after = 0; ; ) { rows = journal.events(id, after,
 * 256); … out[row.name].push(row.data) }` then `recorded = { stdout: concatBytes(…), stderr: concatBytes(…) }`, kept
 * on the Run as `durable.recorded` so `Run.output` can compare what the replay prints again).
 * Tried: a Workspace over a nodeSqliteStorage file whose JavaScript backend (Node has no Worker Loader: a stand-in
 * isolate, as test/node/runtime/run-ownership.test.ts, printing through the real bridge; everything else is the
 * backend's own code) runs a run with `onInterrupt: "replay"` and `maxStdioBytes` 16 MiB that prints 16 MiB on stdout
 * and 16 MiB on stderr (within its budget; the default budget is 64 MiB per stream), then keeps running; its owner is
 * then gone (as seen from another process: lease lapsed), and a second Workspace over the file connects — it takes
 * the run over and replays it. Heap + array buffers of the process sampled (attack6 `peak`) across the take-over.
 * Held: the run is taken over (its replay attempt is launched); journaled output rows are 64 KiB each (FLUSH_BYTES).
 * Found (medium-high — a Durable Object has 128 MB; 3 of 3 runs): the take-over reads every output row the run ever
 * journaled into one array per stream, then copies each into one buffer, and keeps both buffers for the whole attempt:
 * growth 64.9–66.2 MB here for 32 MiB journaled (the rows and their copy both alive; the same take-over with
 * `onInterrupt: "restart"`, which loads nothing, grows under 8 MiB) — with the default budget
 * 2 × 64 MiB (+ a transient copy) are held from a journal well within every bound: past 128 MB, so the object is
 * reset on its resume, and every restart resumes it again. A replay run that waits for an answer (`ctx.interrupt`)
 * and is reclaimed after a restart loads it as well before it goes back to waiting (`run.suspended = true`), and keeps it.
 * Each reclaimed run loads it before it waits for one of the MAX_RELAUNCHES slots, so N runs resumed at one connect
 * hold N runs' output. (Read the same way, not measured here: `durable.inFlight(id)` selects every in-flight call's
 * journaled arguments — up to maxConcurrentCapabilityCalls × maxCapabilityBytes, 32 MiB by default — only to find
 * one flagged `unsafe`.)
 * Suggested fix: compare the replay's output with the journal page by page — keep only the recorded byte counts per
 * stream and a cursor (seq, offset into the row), reading the next 64 KiB row when the replay's bytes reach it — so
 * a resume holds one row per stream, not the run's output; load nothing for a run that stays waiting.
 * Fixed: the resume reads only the recorded byte counts (and last byte) per stream in SQL
 * (src/backends/worker-javascript/recorded.ts `RecordedOutput`); the attempt compares what it prints again with the
 * journal through a cursor per stream holding one row (≤ 64 KiB) at a time. The run's waits and unsafe in-flight calls
 * are checked with count / LIMIT 1 queries that read no payload or arguments (`unanswered`, `unsafeInFlight`).
 * The comparison across rows is checked in test/node/fix18a/replay-output-cursor.test.ts.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { unregisterOwner } from "../../../src/backends/worker-javascript/ownership.js";
import { peak } from "../attack6/memory.js";
import { openWorkspace, storageFile } from "../runtime/temp-storage.js";
import { standInLoader, until } from "../runtime/loader-standin.js";

const MiB = 1024 * 1024;
const PRINT = 16 * MiB;
const PIECE = 64 * 1024;

/** A Worker Loader stand-in: the first attempt prints PRINT bytes on each stream in 64 KiB pieces, then runs on; later attempts print nothing and run on. */
function loader(state: { attempts: number; printed: boolean }) {
  return standInLoader(async (_input, bridge) => {
    state.attempts++;
    if (state.attempts === 1) {
      const piece = new Uint8Array(PIECE).fill(0x61);
      for (let sent = 0; sent < PRINT; sent += PIECE) {
        await bridge.output(piece, [PIECE]);
        await bridge.output(piece, [-PIECE]);
      }
      state.printed = true;
    }
    return new Promise(() => {}); // runs on
  });
}

function workspace(path: string, state: { attempts: number; printed: boolean }) {
  return openWorkspace(path, (storage) => new Workspace({ storage, backends: [new WorkerJavaScriptBackend({ loader: loader(state) as never, onInterrupt: "replay", maxStdioBytes: PRINT })] }));
}


it("a replay run's take-over does not hold the run's journaled output in memory", { timeout: 60_000 }, async () => {
  const path = storageFile();
  const state = { attempts: 0, printed: false };
  const a = workspace(path, state);
  await a.ws.fs.mkdir("/workspace", { recursive: true });
  await a.ws.runtime.exec("export default () => null;", { id: "big", encoding: "utf8" });
  await until(() => state.printed, "the run to print");
  const journaled = a.storage.sql.exec("SELECT count(*) AS n, sum(length(data)) AS bytes, max(length(data)) AS widest FROM __ws_exec_events WHERE id = 'big'").toArray()[0] as { n: number; bytes: number; widest: number };
  expect([journaled.bytes, journaled.widest]).toEqual([2 * PRINT, PIECE]);
  // Its owner is gone, as seen from another process: unregistered, its lease lapsed.
  const owner = (a.storage.sql.exec("SELECT owner FROM __ws_exec_runs WHERE id = 'big'").toArray()[0] as { owner: string }).owner;
  unregisterOwner(owner);
  a.storage.sql.exec("UPDATE __ws_exec_runs SET lease_until = ? WHERE id = 'big'", Date.now() - 1);
  const { grew } = await peak(async () => {
    const b = workspace(path, state);
    await b.ws.runtime.ready();
    await until(() => state.attempts === 2, "the replay attempt");
  });
  // Found: grew 64,912,992–66,241,112 bytes — the whole journaled output (2 × 16 MiB) read and copied for the attempt.
  expect(grew).toBeLessThan(8 * MiB);
});
