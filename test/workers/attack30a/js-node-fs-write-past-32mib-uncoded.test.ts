/**
 * Issue 20, thirtieth attack run: a `node:fs` call of the JavaScript backend whose arguments pass workerd's 32 MiB
 * RPC limit — `writeFile("big.txt", "x".repeat(40 * 2 ** 20))`, the same for any host call (`ws:` module, `ws:tools`
 * write) — rejects with workerd's own error and no `code` (`Serialized RPC arguments or return values are limited to
 * 32MiB, but the size of this value was: 41943091 bytes.`), where docs/runtime.md promises `E2BIG` for a host call
 * request over `maxCapabilityBytes` (`host call request is <n> bytes, over maxCapabilityBytes (1048576)`), as a
 * 2 MiB write answers. The isolate sends the arguments whole before the host measures them.
 *
 * Tried: writeFile of 2 MiB and of 40 MiB from a run (default maxCapabilityBytes, 1 MiB), catching the error and
 * reading `code`/`message`; reference: docs/runtime.md "Limits" (a host call's bytes are counted, past the limit
 * `E2BIG`), and the 2 MiB write's answer.
 * Held: the 2 MiB write is refused `E2BIG` with the documented message; nothing is written either way; the run
 * continues after catching the error.
 * Found (medium — an uncoded error where a code is promised: a run or a tool that branches on `err.code === "E2BIG"`
 * (write in pieces, or report "too large") takes the wrong path for exactly the largest writes; 2 of 2 runs).
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-capabilities.js (`call`): measure the arguments in
 * the isolate against `maxCapabilityBytes` (or at least below workerd's 32 MiB) before `bridge.call`, rejecting
 * `E2BIG` with the host's message, as `#oversize` does on the host side; or map workerd's RPC size error to `E2BIG`.
 * Fixed: the run's isolate refuses a host call (node:fs, `ws:` modules, ws:tools, a replay run's fetch) whose
 * arguments cannot cross RPC (estimated past 30 MiB as workerd serializes them) and are over `maxCapabilityBytes` or
 * `maxCapabilityRequestBytes` with the host's own `E2BIG` message, measured as the host measures
 * (isolate/workspace-capabilities.js `oversize`, a line-for-line copy of runtime/json-value.ts `measure`; the runner
 * receives both limits in its context); a call within them that workerd still refuses rejects `E2BIG` naming the
 * call (`fs.writeFile(): the call is over 32 MiB, more than crosses RPC (…)`, also in replay runs); the host refuses
 * an answer past 30 MiB (`host call response is over 31457280 bytes, more than crosses RPC back to the run …`,
 * bridge.ts `#perform`); exec refuses an input/stdin/env past it (request.ts) and the runner a result past it.
 * Siblings: test/workers/fix30/js-host-call-e2big.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs writeFile of 40 MiB is refused E2BIG (over maxCapabilityBytes), as one of 2 MiB is", { timeout: 120_000 }, async () => {
  const result = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const handle = await ws.runtime.exec(
      `import { writeFile, access } from "node:fs/promises";
       export default async function () {
         const out = {};
         for (const mib of [2, 40]) {
           try { await writeFile("big" + mib + ".txt", "x".repeat(mib * 1024 * 1024)); out[mib] = "written"; }
           catch (e) { out[mib] = { code: e.code, over: /over maxCapabilityBytes \\(1048576\\)/.test(e.message) }; }
         }
         return out;
       }`,
      { timeoutMs: 60_000 },
    );
    const r = await handle.result();
    const files = (await ws.fs.readdir("/workspace")).map((e) => e.name);
    return { status: r.status, value: r.value, files };
  });
  expect(result).toEqual({
    status: "completed",
    value: {
      2: { code: "E2BIG", over: true },
      40: { code: "E2BIG", over: true }, // Was: { over: false } — no code; "Serialized RPC arguments or return values are limited to 32MiB, …"
    },
    files: [],
  });
});
