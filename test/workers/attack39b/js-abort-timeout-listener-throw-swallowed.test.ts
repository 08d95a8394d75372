/**
 * Issue 20, thirty-ninth attack run: an exception thrown in an abort listener of `AbortSignal.timeout(ms)` —
 * `AbortSignal.timeout(1).addEventListener("abort", () => { throw new Error("boom") })`, or `signal.onabort = …`, the
 * usual place a deadline handler gives up — is swallowed: workerd fires the abort from its own timer, which the runner
 * does not wrap, logs `uncaught exception; source = Uncaught; stack = Error: boom at AbortSignal.<anonymous> …` on the
 * host's console, and the run goes on — later output is printed, later writes land — and completes with exit 0 and
 * the export's value, stderr empty. Run 38 (fixer JR) guards the callbacks of the global timers and microtasks only
 * (isolate/workspace-runtime-runner.js `guard`, `replaceGlobal`), and its fallback `addEventListener("error", …)` is
 * never called here. docs/runtime.md promises the run ends "as Node's process" for an exception thrown in a callback
 * the export does not await. (The same listener dispatched from a *global* `setTimeout` held: exit 1 — the throw
 * crosses the guarded timer.) Replay runs (`onInterrupt: "replay"`) too: their `AbortSignal.timeout` is built on the
 * recorded timers of isolate/workspace-durable.js, whose `fire` calls it unguarded (workerd logs the stack
 * `at Object.fn (workspace-durable.js:356) at fire (workspace-durable.js:292)`), while a throw in a replay run's
 * global `setTimeout` held (exit 1).
 *
 * Node 22.23.3 on this machine, the body below saved as b.mjs and run as
 *   node -e "import('/tmp/attack39b/b.mjs').then(async m => { const v = await m.default(); console.log('VALUE=' + JSON.stringify(v)); })"
 * (paths relative to the scratch directory): stdout "a\n", stderr `Error: boom` with its stack (thrown again from
 * node:internal/event_target's `process.nextTick(() => { throw err; })`), exit 1, no after.txt; likewise `onabort`.
 *
 * Tried / Held: see js-node-timers-throw-swallowed.test.ts (same angle b, run lifetime).
 * Found (medium — a crashed run is reported as a success with its value, and code after the crash keeps running and
 * writing files; 2 of 2 runs): both forms, live and replay runs → status "completed", exit 0, value "v", stdout "a\nafter\n", stderr "",
 * after.txt written.
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-runtime-runner.js: replace `AbortSignal.timeout` (with
 * `replaceGlobal`'s care for where it lives) by one that returns an `AbortController`'s signal aborted with a
 * `TimeoutError` `DOMException` from the guarded `setTimeout` — so the dispatch, and what a listener throws, runs
 * inside `guard`; in replay runs, have workspace-durable.js's `AbortSignal.timeout` timer go through the same guard
 * (pass the runner's `guard` to `installReplay`, or wrap the abort in `fn` the way the global timers' callbacks are).
 * Fixed: every EventTarget listener and `on…` handler is guarded (EventTarget.prototype.addEventListener/removeEventListener and the global classes' `on…` accessors, isolate/workspace-runtime-runner.js): a throw ends the run with exit 1 on a microtask after the dispatch, as Node; replay runs' recorded timers fire guarded (workspace-durable.js `fire`) (issue 20, run 39, fixer JD). Siblings: test/workers/fix39/js-callback-errors-and-inflight.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("an exception thrown in an AbortSignal.timeout abort listener fails the run with exit 1, as in Node", async () => {
  const forms: Record<string, string> = {
    listener: `AbortSignal.timeout(1).addEventListener("abort", () => { throw new Error("boom"); });`,
    onabort: `const s = AbortSignal.timeout(1); s.onabort = () => { throw new Error("boom"); };`,
  };
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const results: Record<string, unknown> = {};
    for (const [form, schedule] of Object.entries(forms)) for (const mode of ["fail", "replay"] as const) {
      const name = `${form}-${mode}`;
      const source = `import { writeFile } from "node:fs/promises";
        export default async () => {
          console.log("a");
          ${schedule}
          await new Promise((r) => setTimeout(r, 200));
          console.log("after");
          await writeFile("/workspace/after-${name}.txt", "x");
          return "v";
        }`;
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000, onInterrupt: mode })).result();
      const wrote = await ws.fs.stat(`/workspace/after-${name}.txt`).then(() => true, () => false);
      results[name] = { status: r.status, exitCode: r.exitCode, stdout: r.stdout, boom: r.stderr.includes("Error: boom"), value: r.value, wrote };
    }
    return results;
  });
  const crashed = { status: "failed", exitCode: 1, stdout: "a\n", boom: true, value: undefined, wrote: false };
  expect(out).toEqual({ "listener-fail": crashed, "listener-replay": crashed, "onabort-fail": crashed, "onabort-replay": crashed });
}, 60_000);
