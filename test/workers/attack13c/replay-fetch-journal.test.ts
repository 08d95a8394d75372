/**
 * Issue 20, thirteenth attack run: a replay run's fetch answers fill the run journal without bound.
 *
 * Tried: a JavaScript run with `onInterrupt: "replay"` and `egress: { mode: "direct" }` that POSTs a
 * 1,000,000-byte body to the loopback server's `/echo` 24 times (each request and answer under
 * `maxCapabilityBytes`, 1 MiB), then waits in a host call so the run is still live. The same amount
 * through `node:fs` or a host module stops at the documented per-run budgets
 * (`maxCapabilityRequestBytes` / `maxCapabilityResponseBytes`, 8 MiB each: E2BIG).
 *
 * Found (medium): fetch in a replay run is outside every cumulative budget (bridge.ts: "Outside the
 * capability budgets"), yet each request and answer is journaled in `__ws_exec_calls` until the run ends.
 * 24 fetches (24 MB each way) leave 64,012,032 bytes of journal (in under 3 s locally) in the Durable Object's storage; the count is bounded only by the
 * run's timeout (up to 180 s by default), so one run can write gigabytes of SQLite rows (Durable Object
 * storage is billed and capped per object). Reproduction:
 *
 *   backend { loader, onInterrupt: "replay", egress: { mode: "direct" } }
 *   for (24×) await (await fetch(url + "/echo", { method: "POST", body: "x".repeat(1e6) })).text();
 *   // SELECT sum(length(args) + length(value) + length(bytes)) FROM __ws_exec_calls → 64,012,032
 *
 * Suggested fix: count replayed fetch bodies against maxCapabilityRequestBytes / maxCapabilityResponseBytes
 * (or a documented per-run journal byte cap) and fail the fetch with E2BIG past it.
 *
 * Fixed: a replay run's fetch requests and answers count against maxCapabilityRequestBytes /
 * maxCapabilityResponseBytes (bridge.ts); past them the fetch rejects E2BIG naming the budget, so the
 * 9th 1 MB fetch is refused and the journal holds the 8 fetches (21,337,344 bytes: bytes are journaled
 * as base64). Since attack13c refused-calls-journal, the refused fetch journals nothing (it held its
 * request: 22,671,048 bytes, 9 rows).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { replayWorkspace } from "../durable/helpers.js";

const SOURCE = `import { wait } from "ws:gate";
export default async (input) => {
  let total = 0;
  let refused = "";
  for (let i = 0; i < input.n && !refused; i++) {
    try {
      const r = await fetch(input.url + "/echo", { method: "POST", body: "x".repeat(1000000) });
      total += (await r.text()).length;
    } catch (e) {
      refused = e.code + " " + e.message;
    }
  }
  console.log("fetched " + total + "; " + refused);
  await wait();
  return total;
};`;

describe("attack13c: replay-run fetch answers are journaled outside every budget", () => {
  it("a replay run's fetches stop at the per-run byte budgets (E2BIG), which bounds its journal", { timeout: 120_000 }, async () => {
    const url = inject("httpServer");
    const id = env.TEST_DO.newUniqueId();
    await runInDurableObject(env.TEST_DO.get(id), async (_i, state) => {
      let release!: () => void;
      let reached!: () => void;
      const atGate = new Promise<void>((r) => (reached = r));
      const ws = await replayWorkspace(state.storage, {
        egress: { mode: "direct" },
        modules: { "ws:gate": { wait: () => new Promise<void>((r) => { release = r; reached(); }) } },
      });
      const handle = await ws.runtime.exec(SOURCE, { id: "big", encoding: "utf8", timeoutMs: 110_000, input: { n: 24, url } });
      const settled = handle.result();
      const first = await Promise.race([atGate.then(() => "gate"), settled.then((r) => `settled ${r.status} ${r.stderr}`)]);
      expect(first).toBe("gate");
      const row = state.storage.sql
        .exec<{ n: number; bytes: number }>(
          "SELECT count(*) AS n, coalesce(sum(length(args) + coalesce(length(value), 0) + coalesce(length(bytes), 0)), 0) AS bytes FROM __ws_exec_calls LEFT JOIN __ws_exec_answers USING (backend, id, seq) WHERE id = 'big' AND kind = 'fetch'",
        )
        .one();
      release();
      const r = await settled;
      expect(r).toMatchObject({ status: "completed", exitCode: 0, value: 8_000_088 });
      expect(r.stdout).toBe("fetched 8000088; E2BIG fetch requests exceed maxCapabilityRequestBytes (8388608) for this run: a replay run journals every fetch; fetch less, or raise the backend's maxCapabilityRequestBytes\n");
      // 8 fetches answered; the 9th, refused, journals nothing (the wait is another kind).
      expect(row.n).toBe(8);
      // The journal keeps bytes as base64 (4/3): 8 requests and 8 answers of 1,000,000 bytes each, with
      // their URLs and headers — within 4/3 of the two 8 MiB budgets.
      expect(row.bytes).toBe(21_337_344);
      expect(row.bytes).toBeLessThanOrEqual((16 * 1024 * 1024 * 4) / 3);
      await ws.close();
    });
  });
});
