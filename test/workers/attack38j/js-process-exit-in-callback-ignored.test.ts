/**
 * Issue 20, thirty-eighth attack run: `process.exit(code)` called from a callback — a timer (a watchdog
 * `setTimeout(() => { console.error("deadline"); process.exit(1); }, ms)`) or a promise reaction the default export
 * does not await (`job().then(() => process.exit(3))`) — does not end the run. The shim's `exit` throws a marker
 * object that only the default export's own await chain catches (isolate/workspace-runtime-runner.js `proc.exit`):
 * from a timer it is an uncaught exception in that callback (workerd logs `uncaught exception … jsg.Error: #<Object>`)
 * and the run goes on — its later writes land, its later output is printed — and completes with exit 0 and the
 * export's value; from an unawaited reaction it is an unhandled rejection: exit 1, `Unhandled rejection: [object
 * Object]`, again after the rest of the code ran. Node 22 ends the process at the call with that code; nothing after
 * it runs. docs/runtime.md says `process.exit(code)` "ends the run with that exit code … keeping the output so far".
 * Tried: the four forms below under Node 22 (`node t.mjs`: exit 2, stdout "a\n", no file; exit 3 without "after");
 * `process.exit` called directly in the export, in an awaited `.then`, in `main().catch(...)` awaited (held: the
 * code is kept); `try { process.exit(4) } catch {}` (the shim's exit is catchable, Node's is not — odd, not proved);
 * `process.stdout.write` of a Uint8Array/Buffer (held).
 * Held: `process.exit` in the export's own await chain ends the run with its code and keeps the output so far.
 * Found (medium — a wrong result an agent would act on: a watchdog's failure exit reported as success, and the code
 * the exit was meant to stop writes files anyway; 2 of 2 runs): timer form → status "completed", exit 0, value
 * "done", stdout "a\nafter\n", after.txt written (Node: exit 2, stdout "a\n", no file); unawaited reaction →
 * exit 1, stderr "Unhandled rejection: [object Object]\n", stdout "a\nafter\n" (Node: exit 3, stdout "a\n").
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-runtime-runner.js: let `proc.exit` also record
 * the code and settle an "exited" promise the runner races against the default export (as replay runs race
 * `replay.divergence`); on it, close the channel (`__activate(false)`) so later host calls are refused, flush, and
 * return `{ code }` (0 → completed, value null); treat a rejection or `error` event whose reason is the EXIT marker
 * the same way instead of as "Unhandled rejection".
 *
 * Fixed: `proc.exit` now records the code and settles an "ended" promise the runner races against the default export and the wait after it (isolate/workspace-runtime-runner.js `finish`/`ended`); the channel closes for good at the call (isolate/workspace-capabilities.js `__end`: later and queued host calls refused with ECANCELED), output after it is dropped, and a rejection whose reason is the exit marker is that exit (issue 20, run 38, fixer JR). Siblings: test/workers/fix38/js-run-lifetime.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("process.exit from a timer or an unawaited promise reaction ends the run with that code, as in Node", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const run = async (source: string) => {
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000 })).result();
      return { status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, value: r.value };
    };
    const timer = await run(
      `import { writeFile } from "node:fs/promises";
       export default async () => {
         console.log("a");
         setTimeout(() => process.exit(2), 10);
         await new Promise((r) => setTimeout(r, 200));
         console.log("after");
         await writeFile("/workspace/after.txt", "written after exit");
         return "done";
       }`,
    );
    const wrote = await ws.fs.stat("/workspace/after.txt").then(() => true, () => false);
    const reaction = await run(
      `export default async () => {
         console.log("a");
         Promise.resolve().then(() => process.exit(3));
         await new Promise((r) => setTimeout(r, 50));
         console.log("after");
         return "done";
       }`,
    );
    return { timer, wrote, reaction };
  });
  expect(out).toEqual({
    // Was: { status: "completed", exitCode: 0, stdout: "a\nafter\n", stderr: "", value: "done" }
    timer: { status: "failed", exitCode: 2, stdout: "a\n", stderr: "", value: undefined },
    // Was: true
    wrote: false,
    // Was: { status: "failed", exitCode: 1, stdout: "a\nafter\n", stderr: "Unhandled rejection: [object Object]\n", value: undefined }
    reaction: { status: "failed", exitCode: 3, stdout: "a\n", stderr: "", value: undefined },
  });
});
