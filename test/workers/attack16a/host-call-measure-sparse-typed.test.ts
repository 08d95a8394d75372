/**
 * Issue 20, sixteenth attack run: the JavaScript backend's admission of a host call (src/backends/worker-javascript/bridge.ts
 * `#admit` → `measure(args)`, the size checked against maxCapabilityBytes) walks every INDEX of what the isolate sent, not
 * the bytes that crossed RPC.
 * Tried: host-module calls (`import { f } from "ws:m"`, the same path as node:fs calls and ws:tools) whose argument is
 * cheap to send but has a huge length: a sparse array (`new Array(1e9)`: structured clone sends its length, not 10^9
 * holes) and typed arrays other than Uint8Array (`new Int8Array(1e6)`, `new Float64Array(1e6)`: 1–8 MB on the wire).
 * `measure` loops `for (const v of value)` over all 10^9 indices (8 bytes counted per hole) before comparing with the
 * limit, and walks a typed array with `Object.entries` (one [key, value] pair and one key string per element).
 * Held: a small Int8Array is refused as not JSON-compatible (TypeError), and a dense array over 1 MiB is refused E2BIG.
 * Found (high — one call from sandboxed code freezes the Durable Object, and can exhaust its memory): measured in this
 * pool's workerd with a 50 ms host interval timer running meanwhile (3 of 3 runs): `f(new Array(1e9))`
 * held the object 16.6–26 s (longest gap between ticks 17,599 ms; `timeoutMs: 1000` did not end the run, it "completed"
 * with E2BIG "host call request is 8000000016 bytes"); `new Array(2 ** 32 - 1)` is ~75 s. `f(new Int8Array(1e6))`
 * held it 1.6–3.1 s, `new Float64Array(1e6)` 2.1 s; on Node the same `Object.entries` walk of a 1 MB Int8Array grows the
 * RSS by ~150 MiB (5 MB: 737 MiB, 20 s) — past a Durable Object's 128 MB from a 1 MB argument.
 * Suggested fix: in `measure`, stop as soon as the running total passes the limit (pass the limit in), count a sparse
 * array's length against the limit before iterating (or refuse arrays whose length exceeds the values that crossed:
 * e.g. length > limit / 8), and treat every ArrayBuffer view by its byteLength (normalizeJson then refuses a
 * non-Uint8Array view as not JSON-compatible) — never `Object.entries` of a typed array.
 * Fixed: `measure` takes a limit and stops as soon as its running total passes it (the admission passes
 * min(maxCapabilityBytes, the run's request budget left); a fetch's request its budget left), so a sparse array is
 * refused E2BIG after about limit / 8 indices; every ArrayBuffer view counts its byteLength (never walked), and
 * normalizeJson then refuses a non-Uint8Array view as not JSON-compatible.
 */
import { describe, expect, it } from "vitest";
import { callF } from "./host-calls.js";

const callWith = (arg: string) => callF(arg);

describe("attack16a: a host call's size check over sparse arrays and typed arrays", () => {
  it("held: a small Int8Array is refused as not JSON-compatible; a dense 2 MB array is refused E2BIG", { timeout: 60_000 }, async () => {
    const small = await callWith("new Int8Array(4)");
    expect(small.status).toBe("completed");
    expect(small.value).toEqual(["TypeError", null, "arguments of ws:m f must be JSON-compatible: it holds a Int8Array"]);
    const dense = await callWith('"x".repeat(2 * 1024 * 1024)');
    // Today "host call request is 2097160 bytes, …" (the string and 8 for the argument list).
    expect(dense.value?.slice(0, 2)).toEqual(["Error", "E2BIG"]);
    expect(dense.value?.[2]).toMatch(/^host call request is \d+ bytes, over maxCapabilityBytes \(1048576\)$/);
  });

  it("a sparse array of length 10^9 is refused E2BIG without holding the object (today: 16.6–26 s frozen)", { timeout: 60_000 }, async () => {
    const out = await callWith("new Array(1_000_000_000)");
    expect(out.value?.slice(0, 2)).toEqual(["Error", "E2BIG"]);
    expect(out.value?.[2]).toMatch(/^host call request is \d+ bytes, over maxCapabilityBytes \(1048576\)$/);
    // The host's event loop is never held for more than a second (today: 17,599 ms).
    expect(out.gap).toBeLessThan(1000);
  });

  it("a 1 MB Int8Array is refused as not JSON-compatible without walking its elements (today: 1.6–3.1 s frozen)", { timeout: 60_000 }, async () => {
    const out = await callWith("new Int8Array(1_000_000)");
    expect(out.value).toEqual(["TypeError", null, "arguments of ws:m f must be JSON-compatible: it holds a Int8Array"]);
    expect(out.gap).toBeLessThan(1000);
  });
});
