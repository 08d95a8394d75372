/**
 * Issue 20, sixteenth attack run: in a replay run (`onInterrupt: "replay"`) the bridge encodes a host call's arguments
 * for the journal (src/backends/worker-javascript/bridge.ts `RunCapabilities.call` → durable.ts `encodeValue`, i.e.
 * JSON.stringify with a replacer) BEFORE journalTooBig and before the admission's bounded `measure` (the fix of
 * host-call-measure-sparse-typed, 842db99) — so what that fix bounds for ordinary runs is still walked, and built as
 * text, in replay runs.
 * Tried: `import { f } from "ws:m"; await f(new Array(N))` — a sparse array, a few bytes over RPC — in a replay run with
 * `timeoutMs: 1000`, a 50 ms host interval timer sampling the object's event loop meanwhile.
 * Found (high — one call from sandboxed code freezes the Durable Object and builds a string the size of its memory):
 * N = 2·10^7: the object held 14.7 s (20.7 s on a busy machine; no tick), building 100,000,003 bytes of JSON
 * ("[null,null,…]"), then E2BIG "ws:m f: its arguments are 100000003 bytes as a replay run journals them …"; N = 2·10^8:
 * 90.3 s, ending in "malformed host call" (V8's string length limit). A 100 MB string is by itself most of a Durable
 * Object's 128 MB. The same path serves node:fs and ws:* calls of every replay run (2 of 2 runs each).
 * Suggested fix: admit first — run the bounded `measure` (limit: maxCapabilityBytes / the run's budget left, and
 * MAX_JOURNALED_CALL_BYTES) before `encodeValue`, so nothing over the limit is ever stringified; a journaled call being
 * replayed compares against the journal only after the same bounded check.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it.fails("in a replay run, a sparse array of length 2·10^7 is refused E2BIG without being stringified (today: 14.7 s frozen, 100 MB of JSON)", { timeout: 90_000 }, async () => {
  const out = await inWorkspace(
    async (ws) => {
      let last = Date.now();
      let gap = 0;
      const iv = setInterval(() => {
        const now = Date.now();
        gap = Math.max(gap, now - last);
        last = now;
      }, 50);
      try {
        const h = await ws.runtime.exec(
          `import { f } from "ws:m";
           export default async () => { try { return await f(new Array(20_000_000)); } catch (e) { return [e.name, e.code ?? null, e.message]; } };`,
          { encoding: "utf8", timeoutMs: 1000, onInterrupt: "replay" },
        );
        const r = await h.result();
        return { status: r.status, value: r.value as [string, string | null, string] | undefined, gap };
      } finally {
        clearInterval(iv);
      }
    },
    { backend: { modules: { "ws:m": { f: () => "ran" } } } },
  );
  // Today: ["RangeError", "E2BIG", "ws:m f: its arguments are 100000003 bytes as a replay run journals them …"], gap ~14,700 ms.
  expect(out.value?.slice(0, 2)).toEqual(["Error", "E2BIG"]);
  expect(out.value?.[2]).toMatch(/^host call request is \d+ bytes, over maxCapabilityBytes \(1048576\)$/);
  expect(out.gap).toBeLessThan(1000);
});
