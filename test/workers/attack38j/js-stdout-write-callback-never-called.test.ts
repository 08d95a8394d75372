/**
 * Issue 20, thirty-eighth attack run: the `process` shim's `process.stdout.write(data, cb)` /
 * `process.stderr.write(data, encoding, cb)` never call `cb` (isolate/workspace-runtime-runner.js `proc.stdout.write`
 * takes only `data`). Two everyday Node idioms then go wrong: flushing before exiting —
 * `process.stdout.write(report, () => process.exit(1))` — never exits, so the run completes with exit 0 where
 * Node exits 1; and awaiting a write — `await new Promise((r) => process.stdout.write(s, r))` — never resolves, so
 * workerd cancels the run as hung: exit 1, stderr "The Workers runtime canceled this request because it detected
 * that your Worker's code had hung …", where Node prints and returns.
 * Tried: both forms under Node 22 (`node x.mjs`: "x", "y", value "flushed", exit 0; the exit idiom: exit 1);
 * `process.stdout.write` of strings, a Uint8Array and a Buffer (held: the bytes are printed, it returns true).
 * Held: the written bytes reach stdout/stderr in both forms.
 * Found (medium — a wrong result an agent would act on: a run that asked to exit 1 reports success; an awaited
 * write fails the run with a misleading "hung" message; 2 of 2 runs): exit idiom → completed, exit 0 (Node 1);
 * awaited form → failed, exit 1, the workerd message (Node: completed, value "flushed").
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-runtime-runner.js: let `stdout.write`/`stderr.write`
 * take `(data, encoding?, cb?)` as Node's Writable does — decode a string `data` with `encoding`, and call the last
 * function argument with no error on a microtask after queueing the bytes (or after the next flush); return true.
 *
 * Fixed: `process.stdout.write`/`stderr.write` take `(data, encoding?, callback?)`: a string is decoded with `encoding` (Buffer.from), and the callback is called with null on a microtask after the bytes are queued, guarded like a timer callback (isolate/workspace-runtime-runner.js `streamWrite`) (issue 20, run 38, fixer JR). Siblings: test/workers/fix38/js-run-lifetime.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("process.stdout.write / stderr.write call their callback, as Node's do", async () => {
  const out = await inWorkspace(async (ws) => {
    const run = async (source: string) => {
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000 })).result();
      return { status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, value: r.value };
    };
    return {
      exitIdiom: await run(`export default () => { process.stdout.write("report\\n", () => process.exit(1)); }`),
      awaited: await run(
        `export default async () => {
           await new Promise((r) => process.stdout.write("x\\n", r));
           await new Promise((r) => process.stderr.write("y\\n", "utf8", r));
           return "flushed";
         }`,
      ),
    };
  });
  expect(out).toEqual({
    // Was: { status: "completed", exitCode: 0, stdout: "report\n", stderr: "", value: null }
    exitIdiom: { status: "failed", exitCode: 1, stdout: "report\n", stderr: "", value: undefined },
    // Was: { status: "failed", exitCode: 1, stdout: "x\n", stderr: "The Workers runtime canceled this request because it detected that your Worker's code had hung …\n", value: undefined }
    awaited: { status: "completed", exitCode: 0, stdout: "x\n", stderr: "y\n", value: "flushed" },
  });
});
