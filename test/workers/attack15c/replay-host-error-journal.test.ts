/**
 * Issue 20, fifteenth attack run: a host call's ERROR is outside the per-run byte budgets — in a replay run
 * each is journaled (up to MAX_JOURNALED_CALL_BYTES, 1.5 MiB) and handed to the code past maxCapabilityBytes,
 * counted against nothing.
 *
 * Tried: a JavaScript run with `onInterrupt: "replay"` calling a host function 20 times that throws an
 * Error whose message is 1,400,000 characters (a host function that reports what an upstream answered, or
 * echoes data), then waiting on `ctx.interrupt()`. (Held: a successful answer over maxCapabilityBytes
 * (1 MiB) is refused E2BIG; successful answers count against maxCapabilityResponseBytes (8 MiB); refused
 * calls journal nothing (attack13c); since 66d2b11 an error past 1.5 MiB as journaled becomes a short
 * E2BIG — before it a 4 MiB message was journaled whole, 83,886,737 bytes for 20 calls. A 40 MiB error in
 * a plain run reaches the code as a short RPC error.)
 *
 * Found (medium): bridge.ts `#perform` measures only a SUCCESSFUL value; a thrown error goes through
 * `toBridgeError` with its whole message, is handed to the code (1.4 MB each, over the 1 MiB per-response
 * limit) and journaled in `__ws_exec_calls.value` until the run ends: 20 calls → 28,000,657 bytes of
 * journal, 3.3 × maxCapabilityResponseBytes (docs/runtime.md: "a replay run's journal holds at most
 * maxCapabilityCalls host and node:fs calls, their requests within maxCapabilityRequestBytes and their
 * answers within maxCapabilityResponseBytes"). With the default 256 calls that is ~384 MB of Durable
 * Object storage, read back by a resumed attempt. Reproduction:
 *
 *   modules: { "ws:m": { boom: () => { throw new Error("e".repeat(1_400_000)); }, ask: ctx.interrupt } }
 *   for (20×) try { await boom(i) } catch {}; await ask("go?");
 *   SELECT sum(length(args) + length(value)) FROM __ws_exec_calls   → 28,000,657
 *
 * Suggested fix: clip a host error's message (and path) to a documented size (e.g. 16 KiB, with a marker)
 * in toBridgeError, and count an error's bytes against maxCapabilityResponseBytes like an answer's.
 *
 * Fixed: a host call's error message (and path) is cut to MAX_HOST_ERROR_CHARS (16,384 characters) with a
 * marker, in every run (an error `code` over 256 characters is dropped), so errors are as small as the
 * budgets assume: 256 calls of errors journal at most about 4 MiB.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_HOST_ERROR_CHARS } from "../../../src/backends/worker-javascript/bridge.js";
import { pendingOf, replayWorkspace, askHost } from "../durable/helpers.js";

const SOURCE = `import { boom, ask } from "ws:m";
export default async () => {
  const lens = [];
  let tail = "";
  for (let i = 0; i < 20; i++) { try { await boom(i); } catch (e) { lens.push(e.message.length); tail = e.message.slice(16380); } }
  return { lens, tail, answer: await ask("go?") };
};`;

describe("attack15c: host call errors are journaled whole", () => {
  it("20 host errors of 1.4 MB do not journal more than maxCapabilityResponseBytes (8 MiB) nor reach the code over maxCapabilityBytes", { timeout: 120_000 }, async () => {
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      const big = "e".repeat(1_400_000);
      const ws = await replayWorkspace(state.storage, {
        modules: {
          "ws:m": {
            boom: () => {
              throw new Error(big);
            },
            ask: askHost,
          },
        },
      });
      const handle = await ws.runtime.exec(SOURCE, { id: "errs", encoding: "utf8", timeoutMs: 110_000 });
      const settled = handle.result();
      const pending = await pendingOf(ws);
      expect(pending.map((p) => [p.id, p.payload])).toEqual([["errs", "go?"]]);
      const journal = state.storage.sql
        .exec<{ n: number; bytes: number }>("SELECT count(*) AS n, coalesce(sum(length(args) + coalesce(length(value), 0)), 0) AS bytes FROM __ws_exec_calls LEFT JOIN __ws_exec_answers USING (backend, id, seq) WHERE id = 'errs'")
        .one();
      await ws.runtime.respond("errs", pending[0]!.callId, "yes");
      const r = await settled;
      await ws.close();
      // Found: 21 rows, 28,000,657 bytes; and the code saw twenty 1,400,000-character messages.
      expect(MAX_HOST_ERROR_CHARS).toBe(16_384);
      const clipped = "e".repeat(16_384) + "… [1383616 more characters cut]";
      const row = (i: number) => JSON.stringify([i]).length + JSON.stringify({ name: "Error", message: clipped }).length;
      expect(journal.n).toBe(21);
      expect(journal.bytes).toBe(Array.from({ length: 20 }, (_, i) => row(i)).reduce((a, b) => a + b, 0) + JSON.stringify(["go?"]).length);
      expect(r.status).toBe("completed");
      expect(r.value).toEqual({ lens: Array(20).fill(clipped.length), tail: "eeee… [1383616 more characters cut]", answer: "yes" });
    });
  });
});
