/**
 * Issue 20, found by the lead after the fifteenth attack run: `__ws_exec_calls`
 * (src/backends/worker-javascript/durable.ts) kept a replay run's call request (its arguments, each up to
 * MAX_JOURNALED_CALL_BYTES, 1.5 MiB), its answer (up to 1.5 MiB) and its wait (payload and answer, up to
 * 262,144 characters of JSON each) in ONE row. Production Durable Object SQLite refuses a row past 2 MB
 * (SQLITE_TOOBIG) — local workerd stores it — so such a run journals locally and fails in production.
 *
 * Tried: a replay run (backend `maxCapabilityBytes` 2 MiB) calling `echo` with a 1,400,000-character argument
 * that answers 1,400,000 characters, then `askBig` with a 1,400,000-character argument that waits on
 * `ctx.interrupt()` with a 262,144-character JSON payload of "€" (786,428 bytes of UTF-8), answered by
 * `respond()` with the same size; the run then replays to the wait (echo served from the journal).
 * Every row of the run in the `__ws_exec_*` tables of durable.ts is measured in bytes (UTF-8 of text
 * columns, byte length of blobs, 8 per number), at the wait and after the answer is recorded.
 *
 * Found (medium — a replay run that local tests pass fails to journal in production; figures from this test
 * on the code before the fix): echo's row 2,800,066 bytes (args 1,400,004 + answer 1,400,002); askBig's row
 * at the wait 2,186,497 bytes, 2,972,925 once answered (args 1,400,004 + payload 786,428 + answer 786,428).
 * Largest row after the fix: 1,572,892 bytes (the answered wait).
 *
 * Fixed: a call's answer and its wait live in their own table, `__ws_exec_answers`, one row per call keyed
 * (backend, id, seq): the request row holds at most 1.5 MiB of arguments, the answer row at most 1.5 MiB of
 * answer or 2 × 786,432 bytes of wait payload and answer. REPLAY_VERSION is 2: a replay run interrupted under
 * the former layout does not resume (its journal is not read as the new one); a database whose
 * `__ws_exec_calls` still has the former answer columns is used as it is (they stay NULL; second test).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WorkspaceModuleCallContext } from "../../../src/index.js";
import { REPLAY_VERSION } from "../../../src/backends/worker-javascript/durable.js";
import { pendingOf, replayWorkspace } from "../durable/helpers.js";

/** Durable Object SQLite's limit on one row (and one value). */
const ROW_LIMIT = 2_000_000;
const N = 1_400_000;
/** A payload / answer of 262,144 characters of JSON (the most ctx.interrupt and respond take), 3 bytes each in UTF-8. */
const EUROS = "€".repeat(262_142);

const SOURCE = `import { echo, askBig } from "ws:m";
export default async () => {
  const a = await echo("x".repeat(${N}));
  const b = await askBig("z".repeat(${N}));
  return { a: [a.length, a === "y".repeat(${N})], b: [b.length, b === "€".repeat(262142)] };
};`;

const encoder = new TextEncoder();
/** A row's bytes: UTF-8 of text, byte length of blobs, 8 per number, 0 for NULL. */
function rowBytes(row: Record<string, unknown>): number {
  let n = 0;
  for (const v of Object.values(row)) {
    if (typeof v === "string") n += encoder.encode(v).byteLength;
    else if (v instanceof ArrayBuffer) n += v.byteLength;
    else if (typeof v === "number") n += 8;
  }
  return n;
}

/** The tables durable.ts keeps a run's state in (every `__ws_exec_*` table but the run journal's runs and events). */
function durableTables(sql: SqlStorage): string[] {
  return sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_\\_ws\\_exec\\_%' ESCAPE '\\' ORDER BY name")
    .toArray()
    .map((r) => r.name)
    .filter((name) => name !== "__ws_exec_runs" && name !== "__ws_exec_events");
}

/** Bytes of each row run `id` has in the durable tables, largest first; and its row count. */
function rows(sql: SqlStorage, id: string): { largest: number[]; count: number } {
  const sizes: number[] = [];
  for (const table of durableTables(sql)) {
    for (const row of sql.exec(`SELECT * FROM ${table} WHERE id = ?`, id).toArray()) sizes.push(rowBytes(row as Record<string, unknown>));
  }
  sizes.sort((a, b) => b - a);
  return { largest: sizes.slice(0, 3), count: sizes.length };
}

describe("fix16a: a replay run's journal rows stay under 2 MB", () => {
  it("1.4 MB arguments with a 1.4 MB answer, and with a wait of 786 KB payload and answer: every row ≤ 2,000,000 bytes; replay serves the exact answers; the run's rows are deleted", { timeout: 120_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      let echoes = 0;
      const ws = await replayWorkspace(state.storage, {
        maxCapabilityBytes: 2 * 1024 * 1024,
        modules: {
          "ws:m": {
            echo: () => (echoes++, "y".repeat(N)),
            askBig: (_args: readonly unknown[], ctx: WorkspaceModuleCallContext) => ctx.interrupt(EUROS),
          },
        },
      });
      try {
        const handle = await ws.runtime.exec(SOURCE, { id: "big", encoding: "utf8", timeoutMs: 110_000 });
        const settled = handle.result();
        const pending = await pendingOf(ws);
        expect(pending.map((p) => [p.id, (p.payload as string).length])).toEqual([["big", 262_142]]);
        const atWait = rows(state.storage.sql, "big");
        await ws.runtime.respond("big", pending[0]!.callId, EUROS);
        // The answer is recorded before the run replays to the wait: measured while it is there.
        const answered = rows(state.storage.sql, "big");
        const r = await settled;
        expect({ status: r.status, stderr: r.stderr, value: r.value }).toEqual({
          status: "completed",
          stderr: "",
          value: { a: [N, true], b: [262_142, true] },
        });
        // echo ran once: the replay after the answer was served its 1.4 MB answer from the journal.
        expect(echoes).toBe(1);
        // Found: atWait.largest [2,800,066, 2,186,497, 822], answered.largest [2,972,925, 2,800,066, 822].
        expect(atWait.largest[0]).toBeLessThanOrEqual(ROW_LIMIT);
        expect(answered.largest[0]).toBeLessThanOrEqual(ROW_LIMIT);
        // Each row as journaled: the key ("worker-javascript", "big", seq) is 28 bytes; a request adds kind
        // "host", target "ws:m", name, args `["z…"]` (1,400,004), state and unsafe; an answer adds ok and
        // value `"y…"` (1,400,002); a wait adds payload `"€…"` (786,428), since and, once answered, answer (786,428).
        const KEY = 17 + 3 + 8;
        const askBig = KEY + 4 + 4 + 6 + 1_400_004 + "waiting".length + 8;
        const echo = KEY + 4 + 4 + 4 + 1_400_004 + "done".length + 8;
        const echoAnswer = KEY + 8 + 1_400_002;
        expect(atWait.largest).toEqual([askBig, echo, echoAnswer]);
        expect(answered.largest).toEqual([KEY + 786_428 + 8 + 786_428, askBig, echo]);
        expect(answered.largest).toEqual([1_572_892, 1_400_061, 1_400_056]);
        // Deleting the run (it ended) removes every row it had.
        expect(rows(state.storage.sql, "big").count).toBe(0);
        expect(REPLAY_VERSION).toBe(2);
      } finally {
        await ws.close();
      }
    });
  });

  it("a Durable Object whose __ws_exec_calls has the former columns (replay version 1) journals and replays in the new layout", { timeout: 120_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      // The table as replay version 1 created it.
      state.storage.sql.exec(`CREATE TABLE __ws_exec_calls (
        backend TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
        name TEXT NOT NULL, args TEXT NOT NULL, state TEXT NOT NULL, unsafe INTEGER NOT NULL DEFAULT 0,
        ok INTEGER, value TEXT, bytes BLOB, payload TEXT, since INTEGER, answer TEXT,
        PRIMARY KEY (backend, id, seq))`);
      let echoes = 0;
      const ws = await replayWorkspace(state.storage, {
        modules: { "ws:m": { echo: () => (echoes++, "y".repeat(10)), askBig: (_args: readonly unknown[], ctx: WorkspaceModuleCallContext) => ctx.interrupt("go?") } },
      });
      try {
        const handle = await ws.runtime.exec(`import { echo, askBig } from "ws:m";
export default async () => [await echo("x"), await askBig("z")];`, { id: "old", encoding: "utf8", timeoutMs: 110_000 });
        const settled = handle.result();
        const pending = await pendingOf(ws);
        expect(pending.map((p) => [p.id, p.payload])).toEqual([["old", "go?"]]);
        const calls = state.storage.sql.exec("SELECT seq, state, ok, value, payload, answer FROM __ws_exec_calls WHERE id = 'old' ORDER BY seq").toArray();
        expect(calls).toEqual([
          { seq: 1, state: "done", ok: null, value: null, payload: null, answer: null },
          { seq: 2, state: "waiting", ok: null, value: null, payload: null, answer: null },
        ]);
        await ws.runtime.respond("old", pending[0]!.callId, "yes");
        const r = await settled;
        expect({ status: r.status, stderr: r.stderr, value: r.value, echoes }).toEqual({ status: "completed", stderr: "", value: ["yyyyyyyyyy", "yes"], echoes: 1 });
        expect(rows(state.storage.sql, "old").count).toBe(0);
      } finally {
        await ws.close();
      }
    });
  });
});
