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
 * Fixed: RunCapabilities.call (bridge.ts #oversize) runs the bounded measure walk (limit: the larger of
 * maxCapabilityBytes — a fetch: the run's maxCapabilityRequestBytes left — and MAX_JOURNALED_CALL_BYTES) before
 * encodeValue; past it the call gets admission's E2BIG, counted and journaled as nothing, and a call journaled at
 * that number fails the run as diverged.
 */
import { expect, it } from "vitest";
import { callF } from "./host-calls.js";

// The 2·10^7-hole array takes ~2 s to cross RPC in local workerd; with the helper's 1 s run timeout the run timed out
// first on a loaded machine (CI, 2026-12-07: value undefined), so this file gives its runs 10 s. The E2BIG message
// below is admission's, which the old path (JSON of 100 MB, then its own E2BIG text) never printed.
const replayCall = (array: string) => callF(array, true, 10_000);

it("in a replay run, a sparse array of length 2·10^7 is refused E2BIG by admission, never stringified (today: 14.7 s frozen, 100 MB of JSON)", { timeout: 90_000 }, async () => {
  const out = await replayCall("new Array(20_000_000)");
  // Today: ["RangeError", "E2BIG", "ws:m f: its arguments are 100000003 bytes as a replay run journals them …"], gap ~14,700 ms.
  // (The array still crosses RPC as 2·10^7 holes — V8 sends a holey array this long element by element, ~2 s on the
  // host in local workerd, as in a run without replay; the host no longer walks or encodes it.)
  expect(out.value?.slice(0, 2)).toEqual(["Error", "E2BIG"]);
  expect(out.value?.[2]).toBe("host call request is 1572872 bytes, over maxCapabilityBytes (1048576)");
});

it("in a replay run, a sparse array of length 10^9 (cheap on the wire) is refused without holding the object", { timeout: 90_000 }, async () => {
  const out = await replayCall("new Array(1_000_000_000)");
  expect(out.value).toEqual(["Error", "E2BIG", "host call request is 1572872 bytes, over maxCapabilityBytes (1048576)"]);
  expect(out.gap).toBeLessThan(1000);
});
