/**
 * Issue 20, thirty-eighth attack run: an exception thrown in a callback the default export does not await — a timer
 * (`setTimeout(() => { throw new Error("boom in timer"); }, 10)`, the usual place a poller, a retry or a watchdog
 * fails) or `queueMicrotask` — is swallowed: workerd logs `uncaught exception … Error: boom in timer` on the host's
 * console and the run goes on — later output is printed, later writes land — and completes with exit 0 and the
 * export's value, stderr empty. Node 22 ends the process at the throw: exit 1, the error's stack on stderr, nothing
 * after it runs. docs/runtime.md's outcome table gives "throw → 1 / failed" and "unhandled rejection → 1 / failed /
 * `Unhandled rejection: …`" (the runner listens for `unhandledrejection`), and says nothing of a throw in a callback.
 * Tried: the two forms below under Node 22 (`node u.mjs`: stdout "a\n", stderr "Error: boom in timer" with its stack,
 * exit 1; the queueMicrotask form: exit 1); a throw in the export (held), an unhandled rejection (held: exit 1).
 * Held: a throw in the export's own await chain and an unhandled rejection fail the run with exit 1.
 * Found (medium — a wrong result an agent would act on: code that crashed is reported as a success with its
 * value, and the code after the crash writes files; 2 of 2 runs): timer form → status
 * "completed", exit 0, value "done", stdout "a\nafter\n", stderr "", after.txt written; microtask form → the same
 * (Node: exit 1, stdout "a\n", the error on stderr, no file).
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-runtime-runner.js: next to the `unhandledrejection`
 * listener, `addEventListener("error", (event) => …)` (calling `event.preventDefault()`) to record the first uncaught
 * error and settle a promise the runner races against the default export; on it, close the channel
 * (`__activate(false)`), flush, and fail the run with `describe(error)` (exit 1) — the same race would carry a
 * `process.exit` thrown from a callback (see js-process-exit-in-callback-ignored.test.ts).
 *
 * Fixed: the runner wraps the callbacks of setTimeout/setInterval/setImmediate/queueMicrotask (and nextTick, write callbacks) so a throw ends the run at once with exit 1 and the error's stack on stderr (isolate/workspace-runtime-runner.js `guard`/`uncaught`, same early end as process.exit; an `error` event listener as a fallback) (issue 20, run 38, fixer JR). Siblings: test/workers/fix38/js-run-lifetime.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("an exception thrown in a timer or a microtask fails the run with exit 1, as in Node", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const run = async (source: string) => {
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000 })).result();
      return { status: r.status, exitCode: r.exitCode, stdout: r.stdout, boom: r.stderr.includes("Error: boom"), value: r.value };
    };
    const body = (schedule: string) =>
      `import { writeFile } from "node:fs/promises";
       export default async () => {
         console.log("a");
         ${schedule}
         await new Promise((r) => setTimeout(r, 200));
         console.log("after");
         await writeFile("/workspace/after.txt", "written after the crash");
         return "done";
       }`;
    const timer = await run(body(`setTimeout(() => { throw new Error("boom in timer"); }, 10);`));
    const timerWrote = await ws.fs.stat("/workspace/after.txt").then(() => true, () => false);
    await ws.fs.rm("/workspace/after.txt", { force: true });
    const microtask = await run(body(`queueMicrotask(() => { throw new Error("boom in microtask"); });`));
    const microtaskWrote = await ws.fs.stat("/workspace/after.txt").then(() => true, () => false);
    return { timer, timerWrote, microtask, microtaskWrote };
  });
  expect(out).toEqual({
    // Was: { status: "completed", exitCode: 0, stdout: "a\nafter\n", boom: false, value: "done" }
    timer: { status: "failed", exitCode: 1, stdout: "a\n", boom: true, value: undefined },
    // Was: true
    timerWrote: false,
    // Was: { status: "completed", exitCode: 0, stdout: "a\nafter\n", boom: false, value: "done" }
    microtask: { status: "failed", exitCode: 1, stdout: "a\n", boom: true, value: undefined },
    // Was: true
    microtaskWrote: false,
  });
});
