/**
 * Issue 20 (lead, fifteenth attack run): a replay run's tape goes to the host with its next call or output
 * batch, and a run that fires many timers between two calls sent them all at once: one journal row of
 * 20,000 timer firings was 20,000 × 3 numbers of JSON (≈ 0.5 MB; 100,000 firings ≈ 2.5 MB), past the 2 MB
 * Durable Object SQLite accepts for a value in production (local workerd stores it). The tape is now stored
 * in rows of at most TAPE_ROW_NUMBERS (48,000) numbers, and read back whole, in order.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TAPE_ROW_NUMBERS } from "../../../src/backends/worker-javascript/durable.js";
import { pendingOf, replayWorkspace, askHost } from "./helpers.js";

const SOURCE = `import { ask } from "ws:m";
export default async () => {
  for (let i = 0; i < 20000; i++) await new Promise((r) => setTimeout(r, 0));
  return { answer: await ask("go?"), at: Date.now() };
};`;

describe("a replay run's tape in journal rows", () => {
  it("20,000 timer firings before a call are stored in rows of at most TAPE_ROW_NUMBERS numbers, whole and in order", { timeout: 200_000 }, async () => {
    expect(TAPE_ROW_NUMBERS).toBe(48_000);
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = await replayWorkspace(state.storage, {
        modules: { "ws:m": { ask: askHost } },
      });
      const handle = await ws.runtime.exec(SOURCE, { id: "timers", encoding: "utf8", timeoutMs: 180_000 });
      const settled = handle.result();
      const pending = await pendingOf(ws, 150_000);
      expect(pending.map((p) => [p.id, p.payload])).toEqual([["timers", "go?"]]);
      const rows = state.storage.sql
        .exec<{ n: number; data: string }>("SELECT n, data FROM __ws_exec_tape WHERE id = 'timers' ORDER BY n")
        .toArray();
      const tape = rows.flatMap((r) => JSON.parse(r.data) as number[]);
      // 20,000 firings of timers 1..20,000 (kind 1), in order, each with a clock time that never goes back
      expect(rows.map((r) => [r.n, (JSON.parse(r.data) as number[]).length])).toEqual([
        [1, 48_000],
        [2, 12_000],
      ]);
      expect(tape.filter((_, i) => i % 3 === 0).every((kind) => kind === 1)).toBe(true);
      expect(tape.filter((_, i) => i % 3 === 1)).toEqual(Array.from({ length: 20_000 }, (_, i) => i + 1));
      const times = tape.filter((_, i) => i % 3 === 2);
      expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
      await ws.runtime.respond("timers", pending[0]!.callId, "yes");
      const r = await settled;
      await ws.close();
      expect(r.status).toBe("completed");
      expect((r.value as { answer: string }).answer).toBe("yes");
    });
  });
});
