/**
 * Issue 20, thirteenth attack run (found while fixing replay-fetch-journal, commit bd787c0): host calls
 * refused by a per-run budget still fill a replay run's journal, and the budgets reset on every attempt.
 *
 * Tried: a JavaScript run with `onInterrupt: "replay"` that calls a host function 200 times with a
 * 512 KiB string argument (each under `maxCapabilityBytes`, 1 MiB), then waits for an answer through
 * `ctx.interrupt()` (the run releases its isolate; `respond()` starts a new attempt that replays the
 * journal), then makes the same 200 calls again and waits in a plain host call so the run is still live.
 *
 * Found (medium): past `maxCapabilityRequestBytes` (8 MiB: 15 calls of 524,296 counted bytes) every
 * call is refused E2BIG, yet bridge.ts journals each refused call's arguments in `__ws_exec_calls`
 * before deciding (up to 1 MiB each, until the run ends): a loop of refused calls grows the Durable
 * Object's storage without bound until the run's timeout. And the budgets start again at 0 on each
 * attempt after an interruption (calls answered from the journal are not counted), so each resumed
 * attempt admits another 8 MiB: the journal is bounded per attempt, not per run. Reproduction:
 *
 *   backend { loader, onInterrupt: "replay", modules: { "ws:m": { take, ask (ctx.interrupt), wait } } }
 *   for (200×) try { await take("x".repeat(512 * 1024)) } catch {}; await ask(); for (200×) …; await wait();
 *   // at the wait: SELECT count(*), sum(length(args) + length(value) + …) FROM __ws_exec_calls
 *   //   → 201 rows, 104,880,338 bytes (15 calls admitted, 185 refused);
 *   // at the plain wait after the second loop: 402 rows, 209,760,657 bytes, and the second loop
 *   //   was admitted 15 more calls (30 ran in all, 16 MiB against an 8 MiB budget)
 *
 * Suggested fix: decide the budgets before journaling and record nothing (or a compact refusal) for a
 * refused call; count the calls answered from the journal on a resumed attempt against the budgets.
 *
 * Fixed: bridge.ts admits a replay run's call under the budgets before journaling it; a refused call
 * journals nothing (a resumed attempt reaches it with the same counts and refuses it again), except
 * one refused for maxConcurrentCapabilityCalls (timing-dependent): its refusal is journaled with a
 * fingerprint of its arguments (durable.ts refusalArgs, "\u0000refused <length> <hash>") and replayed,
 * and it counts against maxCapabilityCalls. Calls answered from the journal count against
 * maxCapabilityCalls / maxCapabilityRequestBytes / maxCapabilityResponseBytes as they did when they
 * ran, so the budgets bound the whole run: 16 rows, 7,864,488 bytes at the wait; 17 rows, 7,864,487
 * bytes after the second loop (all 200 refused); nothing once the run ended.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { replayWorkspace, askHost } from "../durable/helpers.js";

const SOURCE = `import { take, ask, wait } from "ws:m";
const big = "x".repeat(512 * 1024);
async function loop() {
  let ok = 0, refused = 0, last = "";
  for (let i = 0; i < 200; i++) {
    try { await take(big); ok++; } catch (e) { refused++; last = e.code + " " + e.message; }
  }
  return { ok, refused, last };
}
export default async () => {
  const first = await loop();
  const answer = await ask("go on?");
  const second = await loop();
  await wait();
  return { first, answer, second };
};`;

const REFUSED = "E2BIG host call requests exceed maxCapabilityRequestBytes (8388608) for this run";

describe("attack13c: refused host calls fill a replay run's journal", () => {
  it("refused calls journal nothing, and calls answered from the journal count against the budgets", { timeout: 120_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      let release!: () => void;
      let reached!: () => void;
      const atGate = new Promise<void>((r) => (reached = r));
      let taken = 0;
      const ws = await replayWorkspace(state.storage, {
        modules: {
          "ws:m": {
            take: (args: readonly unknown[]) => {
              taken++;
              return (args[0] as string).length;
            },
            ask: askHost,
            wait: () => new Promise<void>((r) => { release = r; reached(); }),
          },
        },
      });
      // pending() writes the journal's held writes first (at most JOURNAL_FLUSH_MS old).
      const rows = async () => {
        await ws.runtime.pending();
        return state.storage.sql
          .exec<{ n: number; bytes: number }>(
            "SELECT count(*) AS n, coalesce(sum(length(args) + coalesce(length(value), 0) + coalesce(length(bytes), 0) + coalesce(length(payload), 0) + coalesce(length(answer), 0)), 0) AS bytes FROM __ws_exec_calls LEFT JOIN __ws_exec_answers USING (backend, id, seq) WHERE id = 'refused'",
          )
          .one();
      };
      const handle = await ws.runtime.exec(SOURCE, { id: "refused", encoding: "utf8", timeoutMs: 110_000 });
      const settled = handle.result();
      let pending = await ws.runtime.pending();
      for (let i = 0; pending.length === 0 && i < 600; i++) {
        await new Promise((r) => setTimeout(r, 100));
        pending = await ws.runtime.pending();
      }
      expect(pending.map((p) => [p.id, p.payload])).toEqual([["refused", "go on?"]]);
      // 15 calls admitted (15 × 524,296 counted bytes ≤ 8 MiB) with their arguments (`["x…"]`, 524,292
      // characters) and answers (`524288`); the 185 refused ones journal nothing; and the wait (args
      // `["go on?"]`, payload `"go on?"`).
      expect(taken).toBe(15);
      expect(await rows()).toEqual({ n: 16, bytes: 15 * (524_292 + 6) + 10 + 8 });
      await ws.runtime.respond("refused", pending[0]!.callId, "yes");
      const first = await Promise.race([atGate.then(() => "gate"), settled.then((r) => `settled ${r.status} ${r.stderr}`)]);
      expect(first).toBe("gate");
      // The resumed attempt counted the 15 calls it answered from the journal: all 200 new calls refused,
      // none journaled; the answered wait (value `"yes"`) and the plain wait (args `[]`, in flight).
      expect(taken).toBe(15);
      expect(await rows()).toEqual({ n: 17, bytes: 15 * (524_292 + 6) + (10 + 5) + 2 });
      release();
      const r = await settled;
      expect(r).toMatchObject({
        status: "completed",
        exitCode: 0,
        value: { first: { ok: 15, refused: 185, last: REFUSED }, answer: "yes", second: { ok: 0, refused: 200, last: REFUSED } },
      });
      // Nothing is kept once the run ended.
      expect(await rows()).toEqual({ n: 0, bytes: 0 });
      await ws.close();
    });
  });

  it("a call refused for maxConcurrentCapabilityCalls journals a fingerprint, not its arguments, and replays as refused", { timeout: 120_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      let free!: () => void;
      const freed = new Promise<void>((r) => (free = r));
      let held = 0;
      const ws = await replayWorkspace(state.storage, {
        maxConcurrentCapabilityCalls: 2,
        modules: {
          "ws:m": {
            hold: async (args: readonly unknown[]) => {
              held++;
              await freed;
              return (args[0] as string).length;
            },
            ask: askHost,
          },
        },
      });
      const source = `import { hold, ask } from "ws:m";
const big = "y".repeat(512 * 1024);
export default async () => {
  const a = hold("a"), b = hold("b");
  let third = "";
  try { await hold(big); } catch (e) { third = e.code + " " + e.message; }
  const sizes = [await a, await b];
  return { sizes, third, answer: await ask("again?") };
};`;
      const calls = async () => {
        await ws.runtime.pending();
        return state.storage.sql
          .exec<{ seq: number; name: string; args: string; state: string; ok: number | null; value: string | null }>(
            "SELECT seq, name, args, state, ok, value FROM __ws_exec_calls LEFT JOIN __ws_exec_answers USING (backend, id, seq) WHERE id = 'busy' ORDER BY seq",
          )
          .toArray();
      };
      const handle = await ws.runtime.exec(source, { id: "busy", encoding: "utf8", timeoutMs: 110_000 });
      const settled = handle.result();
      let rows = await calls();
      for (let i = 0; rows.length < 3 && i < 600; i++) {
        await new Promise((r) => setTimeout(r, 100));
        rows = await calls();
      }
      const refusal = { name: "Error", message: "more than maxConcurrentCapabilityCalls (2) host calls are in flight", code: "E2BIG" };
      // The third call's arguments (`["y…"]`, 524,292 characters) are kept as their length and a hash.
      expect(rows.map((r) => [r.seq, r.name, r.state, r.ok])).toEqual([
        [1, "hold", "started", null],
        [2, "hold", "started", null],
        [3, "hold", "done", 0],
      ]);
      expect(rows[2]!.args).toMatch(/^\u0000refused 524292 [0-9a-f]{1,14}$/);
      expect(JSON.parse(rows[2]!.value!)).toEqual(refusal);
      free();
      let pending = await ws.runtime.pending();
      for (let i = 0; pending.length === 0 && i < 600; i++) {
        await new Promise((r) => setTimeout(r, 100));
        pending = await ws.runtime.pending();
      }
      expect(pending.map((p) => [p.id, p.payload])).toEqual([["busy", "again?"]]);
      // The resumed attempt answers all three calls from the journal: the refusal again, no divergence.
      await ws.runtime.respond("busy", pending[0]!.callId, "yes");
      const r = await settled;
      expect(r).toMatchObject({
        status: "completed",
        exitCode: 0,
        stderr: "",
        value: { sizes: [1, 1], third: `E2BIG ${refusal.message}`, answer: "yes" },
      });
      expect(held).toBe(2);
      expect(await calls()).toEqual([]);
      await ws.close();
    });
  });
});
