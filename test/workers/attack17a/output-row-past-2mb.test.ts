/**
 * Issue 20, seventeenth attack run: how big one journal row of a run's output may get
 * (src/backends/worker-javascript/run.ts `output` → `#flush`/`#write` → journal.ts `appendAll`, `__ws_exec_events`).
 * Tried: a run (JavaScript backend, default options: maxStdioBytes 64 MiB) whose code replaces `Math.min` for one
 * output batch. The isolate's runner (isolate/workspace-runtime-runner.js `makeOutput.send`) sizes each piece it sends
 * the host as `Math.min(SEND_CHUNK, left)` — 64 KiB — so with the builtin swapped, one `process.stdout.write` of
 * 3,000,000 bytes goes to the host as ONE `bridge.output` piece. The host's own bound (`StdioBudget`, "which code in
 * the isolate cannot talk its way past") counts bytes per stream, not per piece; `output()` holds the piece and
 * `#flush` writes the window's stdout as one event row, however big.
 * Found (medium — output lost without a trace in production; 3 of 3 runs): one `__ws_exec_events` row of 3,000,000
 * bytes of `data` (measured with `length(data)`). Local workerd stores it, but Durable Object SQLite in production
 * refuses a value or row past 2 MB (SQLITE_TOOBIG, as test/workers/durable/journal-value-size.test.ts notes), and
 * `#write` swallows a failed append ("a failed append loses those chunks; the run goes on", `accepted` stays true):
 * the 3 MB are never journaled, the sequence number skips, no truncation marker says so, `getExec`/the full-output
 * file miss them, and the run ends status "completed". Up to one RPC message (32 MiB) per piece, within the 64 MiB
 * default budget, can be lost like this. The same holds in replay runs (the piece goes through the same path).
 * docs/runtime.md promises the opposite: "the isolate sends output in 64 KiB pieces, the host journals it in rows of
 * at most ~128 KiB" — the host relies on the isolate's piece size for that.
 * Suggested fix: the host cuts what it journals into rows of a bounded size whatever the isolate sends — in
 * `output()` split an accepted chunk into pieces of at most FLUSH_BYTES (or a JOURNAL_EVENT_BYTES, e.g. 1 MiB) and
 * flush before the held window would pass it, so no event row passes ~1 MiB; a failed append should at least end
 * the run with a message rather than drop output silently.
 * Fixed: `Run.output` (run.ts) cuts an accepted chunk into the held window so the window never passes FLUSH_BYTES
 * (64 KiB, now exported) and flushes as it fills — every output row is at most 64 KiB whatever piece the isolate
 * sends; a failed append no longer skips a sequence number silently: the run fails (exit 1) with
 * `Output could not be journaled (<n> bytes lost): <error>` on stderr (at its end when it is already ending).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { FLUSH_BYTES } from "../../../src/backends/worker-javascript/run.js";

/** Swaps Math.min only for the runner's `Math.min(SEND_CHUNK, left)` of this one 3,000,000-byte batch. */
const BIG = `export default async () => {
  const m = Math.min;
  Math.min = function (...a) { return a.length === 2 && a[0] === 65536 && a[1] === 3_000_000 ? a[1] : m.apply(Math, a); };
  process.stdout.write("A".repeat(3_000_000));
  await new Promise((r) => setTimeout(r, 100));
  Math.min = m;
  console.log("end");
  return 1;
};`;

/** Durable Object SQLite's limit for one string/BLOB value or row (production). */
const DO_SQLITE_MAX_VALUE = 2_000_000;

it("no output event row passes Durable Object SQLite's 2 MB, whatever piece size the isolate sends (was: one 3,000,000-byte row)", { timeout: 60_000 }, async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const handle = await ws.runtime.exec(BIG, { id: "big", encoding: "utf8", timeoutMs: 30_000 });
      const r = await handle.result();
      const rows = state.storage.sql
        .exec<{ name: string; n: number | null }>("SELECT name, length(data) AS n FROM __ws_exec_events WHERE id = 'big' ORDER BY seq")
        .toArray();
      const stdout = rows.filter((e) => e.name === "stdout").map((e) => e.n ?? 0);
      // Holds today: every byte is journaled (locally) and the run completes.
      expect(r.status).toBe("completed");
      expect(stdout.reduce((a, b) => a + b, 0)).toBe(3_000_004);
      // Was: stdout rows [3000000, 4] — the first refused by production SQLite, and the append's failure swallowed.
      expect(Math.max(...stdout)).toBeLessThan(DO_SQLITE_MAX_VALUE);
      expect(Math.max(...stdout)).toBeLessThanOrEqual(FLUSH_BYTES);
      // Rows of exactly FLUSH_BYTES as the window fills; the last 50,880 bytes and "end\n" (one window or two, by timing) after.
      const full = Math.floor(3_000_000 / FLUSH_BYTES);
      expect(stdout.slice(0, full)).toEqual(Array(full).fill(FLUSH_BYTES));
      expect(stdout.slice(full).reduce((a, b) => a + b, 0)).toBe(3_000_004 - full * FLUSH_BYTES);
    } finally {
      await ws.close();
    }
  });
});

/** Prints a line the journal refuses (a trigger standing in for production's refusal of a too-large row), then more. */
/** The trigger's refusal as Durable Object SQLite reports it. */
const ERROR = "row refused: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_TRIGGER)";
const REFUSED = `export default async () => {
  console.log("before");
  await new Promise((r) => setTimeout(r, 300));
  process.stdout.write("REFUSE-ME\\n");
  await new Promise((r) => setTimeout(r, 300));
  console.log("after");
  return 1;
};`;

it("a failed append fails the run with a message, with no gap in the sequence (was: swallowed, run completed)", { timeout: 60_000 }, async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER })] });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      expect((await (await ws.runtime.exec("export default () => 0", { id: "warm" })).result()).status).toBe("completed");
      state.storage.sql.exec(
        "CREATE TRIGGER refuse_row BEFORE INSERT ON __ws_exec_events WHEN instr(NEW.data, CAST('REFUSE-ME' AS BLOB)) > 0 BEGIN SELECT RAISE(ABORT, 'row refused'); END",
      );
      const r = await (await ws.runtime.exec(REFUSED, { id: "refused", encoding: "utf8", timeoutMs: 30_000 })).result();
      const rows = state.storage.sql
        .exec<{ seq: number; name: string; data: ArrayBuffer | null }>("SELECT seq, name, data FROM __ws_exec_events WHERE id = 'refused' ORDER BY seq")
        .toArray()
        .map((e) => [e.seq, e.name, e.data === null ? null : new TextDecoder().decode(e.data)]);
      expect([r.status, r.exitCode, r.stdout]).toEqual(["failed", 1, "before\n"]);
      expect(rows).toEqual([
        [1, "stdout", "before\n"],
        [2, "stderr", `Output could not be journaled (10 bytes lost): ${ERROR}\n`],
        [3, "exit", null],
      ]);
    } finally {
      await ws.close();
    }
  });
});
