/**
 * Issue 20, thirty-second attack run: a run that starts thousands of `node:fs` calls at once (a `Promise.all` /
 * `Promise.allSettled` over a file list) takes time quadratic in their number to have the calls past
 * `maxCapabilityCalls` refused: 1,000 calls 0.9 s, 2,000 2.7 s, 4,000 13.6 s, 10,000 about 100 s — the run blows
 * past its `timeoutMs` (30 s asked, failed "timed out" after 100 s) instead of answering E2BIG at once.
 * Tried: `Promise.allSettled(Array.from({ length: n }, () => fs.stat(".")))` in a WorkerJavaScriptBackend run (a
 * Durable Object, default options) for n = 300, 500, 1,000, 2,000, 4,000, 10,000; also bounds: a 25e6-element array,
 * a string doubled past V8's limit, an async setTimeout loop with timeoutMs 2000, 50 MiB of console.log, deep
 * recursion caught and uncaught, a 2 MiB result.
 * Held: each bound ends with its documented status (timed out at 2.0 s; "Invalid string length"; "Maximum call stack
 * size exceeded"; over maxResultBytes); 256 calls fulfil and the rest reject E2BIG ("this run made more than
 * maxCapabilityCalls (256) host calls") for n up to 4,000 — only slowly.
 * Found (medium — unbounded time from an ordinary agent form; the timeout does not bound it, so the run holds its slot
 * far past timeoutMs; 2 of 2 runs): n = 6,000 with timeoutMs 15,000 fails "timed out" after 31.8 s.
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-capabilities.js `call` (or bridge.ts `#admit`):
 * count calls in the isolate too and refuse past maxCapabilityCalls (and queue past maxConcurrentCapabilityCalls)
 * without a round trip, so the refusals cost O(1) each; find what makes each refused RPC cost O(pending calls).
 * Fixed (run 32, fixer JP): workerd's RPC costs each call time in proportion to the calls pending on the same stub,
 * and a DO fires no timer while calls stream in back to back. isolate/workspace-capabilities.js now keeps at most
 * twice maxConcurrentCapabilityCalls (64; at most 1,024) calls on the wire, the rest wait in order (`__send`, also
 * the replay path in workspace-durable.js, which takes the tape when a call is sent); outside replay runs, once the
 * host refused a call past maxCapabilityCalls (or because the run is being stopped), later calls get that refusal in
 * the isolate without a round trip; run.ts `refusal()` stops a run whose timeoutMs has passed at its next host call.
 * 10,000 calls: ~100 s → ~0.6 s. Siblings: test/workers/fix32/js-capability-calls-linear.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("6,000 parallel fs.stat calls: 256 fulfil, the rest reject E2BIG, well inside a 15 s timeout", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const t0 = Date.now();
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises";
       export default async () => {
         const r = await Promise.allSettled(Array.from({ length: 6000 }, () => fs.stat(".")));
         return [r.filter((x) => x.status === "fulfilled").length, r.find((x) => x.status === "rejected")?.reason?.code];
       }`,
      { encoding: "utf8", timeoutMs: 15_000 },
    );
    const r = await h.result();
    return { exitCode: r.exitCode, value: r.value, stderr: String(r.stderr), fast: Date.now() - t0 < 10_000 };
  });
  expect(out).toEqual({
    exitCode: 0, // Was: 1
    value: [256, "E2BIG"], // Was: undefined
    stderr: "", // Was: "JavaScript execution timed out\n"
    fast: true, // Was: false
  });
}, 200_000);
