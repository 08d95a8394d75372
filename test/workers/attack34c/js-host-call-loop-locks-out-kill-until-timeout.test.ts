/**
 * Issue 20, thirty-fourth attack run: a JavaScript run whose code calls the host back to back (a plain loop of
 * `await fs.writeFile(...)`) holds its Durable Object: workerd hands the object a new request and runs its timers only
 * when it is idle, and the run's calls never leave it idle, so a `killExec` sent by another request (the agent's
 * "stop that" from another client) is not even received until the run ends by its own `timeoutMs` (default 60 s,
 * up to 180 s) — the kill settles nothing, the run goes on writing (18,071 files in 30 s) and ends "timed out".
 * The shell backend was given the remedy for this (docs/runtime.md "A busy command leaves its Durable Object room":
 * 2 ms idle after every 50 ms of back-to-back calls); the JavaScript backend has none. Same cause as the sibling
 * js-stop-during-host-call-loop-loses-output.test.ts (a stop loses the loop's output).
 * Tried: the loop above (maxCapabilityCalls raised) with timeoutMs 30,000 and 20,000; the kill sent from a second
 * runInDurableObject request once the run had flagged (from a host-module call after write 150) that it was looping;
 * a kill from a timer of the test or of the object (never fires while the calls stream, same result).
 * Held: the first request into the object was served before the loop began; once the run ends the kill request is
 * served at once (3 ms) and is a no-op; the run's timeout is enforced at its next host call, as documented.
 * Found (medium — a stop the agent asks for is ignored for up to maxTimeoutMs while the run keeps changing files,
 * and every other client of the object is locked out meanwhile; 3 of 3 runs): the kill request was served 30.07 s /
 * 30.18 s after the run started (timeoutMs 30 s), the run ended exit 1 "timed out" with 12,058 / 18,071 files written;
 * with timeoutMs 20 s, served at ~20 s, exit 1.
 * Suggested fix: src/backends/worker-javascript/bridge.ts (or run.ts's call admission): as the shell does, after
 * every ~50 ms of back-to-back host calls of a run, answer the next one only after a short real idle (setTimeout of a
 * few ms on the host), so workerd can deliver requests and timers (kill, ctx.abort, other clients, the flush timer).
 *
 * Fixed: the isolate's queued output goes with each host call (or just before it, past 64 KiB), so the host has every
 * line written before a call when the call arrives (isolate/workspace-runtime-runner.js `beforeCall`,
 * workspace-capabilities.js `__beforeCall`, run.ts `RunBridge.call`); and the host paces a run's calls as the shell's
 * (src/util/host-room.ts `HostRoom`, shared with worker-shell/worker.ts: 2 ms idle after every 50 ms of calls), so
 * another request's killExec and the object's timers get in (issue 20, run 34, fixer JL).
 * Siblings: test/workers/fix34/js-host-call-loop-stop.test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

const SOURCE = `import fs from "node:fs/promises";
import { looping } from "ws:ctl";
export default async () => {
  await fs.mkdir("out", { recursive: true });
  for (let i = 0; ; i++) {
    await fs.writeFile("out/f" + i + ".txt", "x");
    if (i === 150) await looping();
  }
}`;

// Shared between the two requests into the same object (one isolate); only plain values cross.
const shared = globalThis as { attack34cWs?: Workspace; attack34cLooping?: number };

it("killExec from another request stops a run that writes files back to back within a second", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const t0 = Date.now();
  const run = runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          maxCapabilityCalls: 1_000_000,
          modules: { "ws:ctl": { looping: () => ((shared.attack34cLooping = Date.now()), null) } },
        }),
      ],
    });
    shared.attack34cWs = ws;
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const h = await ws.runtime.exec(SOURCE, { id: "r1", encoding: "utf8", timeoutMs: 20_000 });
      const r = await h.result();
      return { exitCode: r.exitCode, stderr: String(r.stderr) };
    } finally {
      await ws.close();
    }
  });
  // Poll the object (no timers: none fire while the run streams calls) until the run says it is looping, then kill.
  while (!(await runInDurableObject(stub, () => shared.attack34cLooping)));
  await runInDurableObject(stub, () => shared.attack34cWs!.runtime.killExec("r1"));
  const killServedAfterMs = Date.now() - t0;
  const result = await run;
  expect({ ...result, killServedQuickly: killServedAfterMs < 5_000 }).toEqual({
    exitCode: 130, // Was: 1
    stderr: "Execution cancelled.\n", // Was: "JavaScript execution timed out\n"
    killServedQuickly: true, // Was: false (the kill request was served ~20 s after the start, when the run timed out)
  });
}, 120_000);
