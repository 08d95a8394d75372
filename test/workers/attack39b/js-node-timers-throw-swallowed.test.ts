/**
 * Issue 20, thirty-ninth attack run: an exception thrown in a callback of the `node:timers` module's timers —
 * `import { setTimeout } from "node:timers"; setTimeout(() => { throw new Error("boom") }, 0)` (likewise its
 * `setInterval`, `setImmediate`, and the bare `"timers"` module's default object) — is swallowed: workerd logs
 * `uncaught exception; source = Uncaught; stack = Error: boom …` on the host's console and the run goes on — later
 * output is printed, later writes land — and completes with exit 0 and the export's value, stderr empty. Run 38
 * (fixer JR) made a throw in a timer end the run, but only by wrapping the *globals* (`replaceGlobal` in
 * isolate/workspace-runtime-runner.js); `node:timers` is workerd's own module, whose functions are not the globals
 * (`timers.setTimeout === globalThis.setTimeout` is false in a run) and are not wrapped, and the runner's fallback
 * `addEventListener("error", …)` is never called for them. docs/runtime.md lists `timers` among the Node built-ins code
 * can import and promises "An exception thrown in a callback the export does not await (`setTimeout`, `setInterval`,
 * `setImmediate`, …) ends the run the same way with exit 1 and the error's stack on stderr".
 *
 * Node 22.23.3 on this machine, the body below saved as a.mjs and run as
 *   node -e "import('/tmp/attack39b/a.mjs').then(async m => { const v = await m.default(); console.log('VALUE=' + JSON.stringify(v)); })"
 * (paths relative to the scratch directory): stdout "a\n", stderr `Error: boom` with its stack, exit 1, no after.txt.
 *
 * Tried (angle b, run lifetime): process.exit with out-of-range codes, in finally, nested, during a pending write, in a
 * result getter; unhandled rejections handled in the same tick / after a macrotask / created just before return;
 * throws in global timers, EventTarget listeners dispatched from a timer, EventEmitter "error" from a timer, zlib and
 * crypto callbacks, a stream write callback; a never-settling export; result values with cycles / BigInt / 2 MiB;
 * a replaced Promise.prototype.then; `node:process` / `node:console` imports (refused at exec); throws in
 * `node:timers` callbacks and in an `AbortSignal.timeout` abort listener.
 * Held: global timers, queueMicrotask, nextTick, EventTarget/EventEmitter throws from a global timer, zlib, stream
 * write callbacks (exit 1 with the stack), crypto callbacks (exit 1 as an unhandled rejection), process.exit from a
 * `node:timers` callback (its code), unhandled rejections (exit 1, as Node's timing), the result checks.
 * Found (medium — a crashed run is reported as a success with its value, and code after the crash keeps running and
 * writing files; the same defect attack38j found for the global timers, still open for the module's; 2 of 2 runs):
 * each form → status "completed", exit 0, value "v", stdout "a\nafter\n", stderr "", after.txt written.
 * Suggested fix: src/backends/worker-javascript/graph.ts / isolate.ts: resolve `node:timers` and `timers` to an
 * internal shim module (as `node:fs` is) that re-exports workerd's `node:timers` with `setTimeout`, `setInterval`,
 * `setImmediate` (and the default object's) taken from the guarded globals the runner installs — or have the runner
 * wrap the functions on workerd's `node:timers` default object and route the named exports through the shim.
 * Fixed: `node:timers` / `timers` resolve to a shim (isolate/__modules__/node-timers.js, graph.ts) whose setTimeout/setInterval/setImmediate, named and default, wrap callbacks with the runner's guard, with `util.promisify.custom` (issue 20, run 39, fixer JD). Siblings: test/workers/fix39/js-callback-errors-and-inflight.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("an exception thrown in a node:timers callback fails the run with exit 1, as in Node", async () => {
  const forms: Record<string, string> = {
    timeout: `import { setTimeout as st } from "node:timers"; const schedule = () => st(() => { throw new Error("boom"); }, 0);`,
    interval: `import { setInterval as si, clearInterval as ci } from "node:timers"; const schedule = () => { const h = si(() => { ci(h); throw new Error("boom"); }, 1); };`,
    immediate: `import { setImmediate as sim } from "node:timers"; const schedule = () => sim(() => { throw new Error("boom"); });`,
    bare: `import timers from "timers"; const schedule = () => timers.setTimeout(() => { throw new Error("boom"); }, 0);`,
  };
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const results: Record<string, unknown> = {};
    for (const [name, head] of Object.entries(forms)) {
      const source = `${head}
        import { writeFile } from "node:fs/promises";
        export default async () => {
          console.log("a");
          schedule();
          await new Promise((r) => setTimeout(r, 200));
          console.log("after");
          await writeFile("/workspace/after-${name}.txt", "x");
          return "v";
        }`;
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000 })).result();
      const wrote = await ws.fs.stat(`/workspace/after-${name}.txt`).then(() => true, () => false);
      results[name] = { status: r.status, exitCode: r.exitCode, stdout: r.stdout, boom: r.stderr.includes("Error: boom"), value: r.value, wrote };
    }
    return results;
  });
  const crashed = { status: "failed", exitCode: 1, stdout: "a\n", boom: true, value: undefined, wrote: false };
  expect(out).toEqual({ timeout: crashed, interval: crashed, immediate: crashed, bare: crashed });
}, 60_000);
