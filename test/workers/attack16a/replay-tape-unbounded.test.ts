/**
 * Issue 20, sixteenth attack run: what a replay run's code can make the host journal as its TAPE
 * (src/backends/worker-javascript/run.ts `tape` → durable.ts `appendTape`, `__ws_exec_tape`; the rows of 48,000
 * numbers of the fifteenth run's fix).
 * Tried: a replay run (`onInterrupt: "replay"`) whose code replaces `Array.prototype.push` for one timer firing: the
 * isolate's replay module records each event with `recorded.push(kind, n, clock)` (isolate/workspace-durable.js), so
 * the code's push adds 3,000,000 numbers of its choosing (1.2345678901234567e+300, 24 characters of JSON each) to the
 * tape that goes to the host with the next output batch; then the run waits on an approval (ctx.interrupt) so its
 * journal stays. The host checks only that each entry is a finite number: not that they are [kind 0|1, a positive
 * integer event number, a time] triples, nor how many a run sends.
 * Found (medium-high — storage and memory outside every budget): 72,000,081 bytes of tape in 63 rows after ~3 s
 * (2 of 2 runs), from one run, while docs/runtime.md says a replay run's journal holds at most maxCapabilityCalls
 * calls within maxCapabilityRequestBytes / maxCapabilityResponseBytes (8 MiB each). Each output batch or host call can
 * carry another batch (one RPC message of 3M doubles is 24 MB), so a run that keeps doing it fills the object's
 * storage (10 GB) in minutes, and it is kept until the run ends — which a run waiting for an approval may never do.
 * On resume, `DurableJournal.tape()` reads every row at once and builds one array of all the numbers, which is sent
 * to the new isolate: 72 MB of row text plus a 3M-number array is past a Durable Object's 128 MB, so the resume
 * itself can end the object (here, in local workerd, the resumed attempt read the forged entry and failed:
 * "it did not set timer 1.2345678901234567e+300"). Ordinary code also grows the tape without bound (every timer
 * firing is 3 numbers, ~20 bytes), only more slowly.
 * Also (same root, cheaper still): the push can set the batch's `length` to 10,000,000 instead (a SPARSE array: structured
 * clone sends its length, not its holes). `entries.every(finite number)` skips holes, so it passes, and appendTape stores
 * each 48,000-slice of holes as "[null,null,…]": 209 rows, 50,000,212 bytes (2 of 2 runs) from a message of a few bytes;
 * a length of 2^32 − 1 is ~89,000 rows (~21 GB, past a Durable Object's storage) in one held transaction, after an
 * `every` over 4·10^9 indices (about a minute of the object's CPU, as measure() in host-call-measure-sparse-typed).
 * Suggested fix: the host checks each batch as triples — a dense array (no holes; length a multiple of 3, checked before any walk) — (kind 0 or 1, event number a positive safe integer, time a
 * safe integer not before the last one) and fails the run (EPROTO/divergence) on anything else; and bounds the tape
 * per run (e.g. MAX_TAPE_NUMBERS, or counts its JSON bytes against maxCapabilityRequestBytes), failing the run past
 * it with a message naming the bound, so `__ws_exec_tape` stays within the journal's documented budget.
 * Fixed: the host checks each batch before journaling it (durable.ts `checkTape`): a dense array of whole
 * [kind 0|1, event ≥ 1, time ≥ 0] triples of safe integers, its length checked before any element is read, and at
 * most MAX_TAPE_ENTRIES (262,144) entries per run over all its attempts; anything else fails the run ("Execution
 * failed: its isolate sent …") and journals nothing. The sparse case's expectation was `pending: 1` (the batch
 * dropped, the run going on); it now expects the run to fail, as the header's suggested fix and the first case
 * say: a dropped batch would leave a tape that a resumed attempt plays back wrongly, and only tampered code sends one.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace, type WorkspaceModuleCallContext } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { pendingOf } from "../durable/helpers.js";

const FORGE = `import { ask } from "ws:m";
export default async () => {
  const orig = Array.prototype.push;
  let armed = true;
  Array.prototype.push = function (...a) {
    if (armed && a.length === 3 && a[0] === 1) {
      armed = false;
      const extra = new Array(3_000_000).fill(1.2345678901234567e+300);
      for (let i = 0; i < extra.length; i += 30000) orig.apply(this, extra.slice(i, i + 30000));
    }
    return orig.apply(this, a);
  };
  await new Promise((r) => setTimeout(r, 0));
  Array.prototype.push = orig;
  console.log("flushed");
  return await ask("go?");
};`;


/** The same trick, but the tape batch is made SPARSE: its length set to 10,000,000 after the real entry (no values sent). */
const SPARSE = `import { ask } from "ws:m";
export default async () => {
  const orig = Array.prototype.push;
  let armed = true;
  Array.prototype.push = function (...a) {
    const n = orig.apply(this, a);
    if (armed && a.length === 3 && a[0] === 1) { armed = false; this.length = 10_000_000; }
    return n;
  };
  await new Promise((r) => setTimeout(r, 0));
  Array.prototype.push = orig;
  console.log("flushed");
  return await ask("go?");
};`;

/** Runs `source` as replay run "forge" (waiting on ws:m ask at the end); returns the tape kept for it while it waits. */
async function tapeKept(source: string) {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          onInterrupt: "replay",
          modules: { "ws:m": { ask: (args: readonly unknown[], ctx: WorkspaceModuleCallContext) => ctx.interrupt(args[0] as string) } },
        }),
      ],
    });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const handle = await ws.runtime.exec(source, { id: "forge", encoding: "utf8", timeoutMs: 60_000 });
      let stderr = "";
      const settled = handle.result().then((r) => {
        stderr = String(r.stderr);
        return r.status;
      });
      const pending = await Promise.race([pendingOf(ws, 30_000).then((p) => p.length), settled]);
      const tape = state.storage.sql
        .exec<{ rows: number; bytes: number | null }>("SELECT count(*) AS rows, sum(length(data)) AS bytes FROM __ws_exec_tape WHERE id = 'forge'")
        .one();
      if (pending === 1) await ws.runtime.killExec("forge").catch(() => undefined);
      return { pending, rows: tape.rows, bytes: tape.bytes ?? 0, stderr };
    } finally {
      await ws.close();
    }
  });
}

it("a replay run's code cannot journal tape past the journal's budget (today: 72 MB in 63 rows)", { timeout: 120_000 }, async () => {
  const kept = await tapeKept(FORGE);
  // Today: { pending: 1 (the run waits), rows: 63, bytes: 72000081 }. Fixed: the forged batch fails the run (nothing
  // kept), or at the least the tape kept stays within 8 MiB (the journal's byte budget).
  expect(kept.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
  // Fixed: the forged batch (1,000,001 entries, counted before any is read) fails the run and nothing is kept
  // (nor is the output sent with it: "flushed" never reaches the journal).
  expect(kept).toEqual({
    pending: "failed",
    rows: 0,
    bytes: 0,
    stderr: "Execution failed: its isolate sent more than MAX_TAPE_ENTRIES (262144) events (host-call answers and timer firings) for its replay tape.\n",
  });
});

it("a sparse tape batch (length 10^7, no entries) is refused, not journaled as rows of nulls (today: 209 rows, ~50 MB)", { timeout: 120_000 }, async () => {
  const kept = await tapeKept(SPARSE);
  // Today the host's check (entries.every(finite number)) skips the holes, and appendTape stores each slice of 48,000
  // holes as "[null,null,…]". Fixed: a batch that is not whole triples of numbers is refused — nothing is kept.
  // (Was `pending: 1`: see "Fixed" above — the run fails.)
  expect(kept).toEqual({
    pending: "failed",
    rows: 0,
    bytes: 0,
    stderr: "Execution failed: its isolate sent a replay tape batch that is not whole [kind, event, time] triples.\n",
  });
});

/** Well-formed triples, but more of them than MAX_TAPE_ENTRIES (262,144): 262,145 forged timer firings in one batch. */
const MANY = `import { ask } from "ws:m";
export default async () => {
  const orig = Array.prototype.push;
  let armed = true;
  Array.prototype.push = function (...a) {
    if (armed && a.length === 3 && a[0] === 1) {
      armed = false;
      for (let i = 0; i < 262_144; i++) orig.call(this, 1, 1, a[2]);
    }
    return orig.apply(this, a);
  };
  await new Promise((r) => setTimeout(r, 0));
  Array.prototype.push = orig;
  console.log("flushed");
  return await ask("go?");
};`;

it("a tape past MAX_TAPE_ENTRIES (262,144) fails the run, naming the limit; nothing is kept", { timeout: 120_000 }, async () => {
  const kept = await tapeKept(MANY);
  expect(kept).toEqual({
    pending: "failed",
    rows: 0,
    bytes: 0,
    stderr:
      "Execution failed: its isolate sent more than MAX_TAPE_ENTRIES (262144) events (host-call answers and timer firings) for its replay tape.\n",
  });
});
