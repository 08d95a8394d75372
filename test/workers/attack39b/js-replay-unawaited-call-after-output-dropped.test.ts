/**
 * Issue 20, thirty-ninth attack run: in a run with `onInterrupt: "replay"`, a host call the code starts after the
 * default export returned is dropped when the code printed just before it — `writeFile(b).then(() => {
 * console.log("one"); return writeFile(c); })` without `await`, or an unawaited loop `for (…) { console.log(i); await
 * writeFile("n" + i, …) }` — the run completes with exit 0 and the export's value, "one" is on stdout, and `c` (the
 * loop's later files) is never written. No error anywhere. The same code with `onInterrupt` "fail" or "restart"
 * writes every file (run 38, fixer JR: "host calls left running when the export returns still finish").
 *
 * Why: a replay run's calls go through workspace-durable.js `call`, which first awaits `beforeSend()` — the runner's
 * `out.flush()`, which, with output queued, waits for a `setTimeout(0)` and then for the `bridge.output` RPC to be
 * answered — and only then enters the window (`__send`). Meanwhile the runner's wait after the export
 * (workspace-runtime-runner.js, the `for (;;)` after `untilEnd(running)`) lets one macrotask pass, sees
 * `__inflight() === 0` (the call is not in any window yet) and ends the run; the call reaches the host after the run
 * finished and is refused, which nobody sees.
 *
 * Node 22.23.3 (the reference the fix38 tests record, e.g. test/workers/fix38/js-run-lifetime.test.ts): an unawaited
 * `mkdir(d).then(write x).then(write y)` and an unawaited loop of awaited writes all land, exit 0; docs/runtime.md
 * "When a run ends": "the run stays alive while host calls it started are in flight or waiting in the window, and
 * while their answers start more … so no call the code started is dropped" — replay runs are not excepted.
 *
 * Tried / Held: see js-node-timers-throw-swallowed.test.ts (same angle b); for unawaited calls: the "fail" and
 * "restart" policies (all land), a gap of crypto.subtle.digest / zlib gzip (callback) / CompressionStream / Blob /
 * Response.text / pbkdf2 between the answer and the next call (all land), a replay run whose first call follows
 * output inside the export (landed).
 * Found (high — a file write the code made is silently lost while the run reports success, in the durable mode meant
 * for runs that must not lose work; 2 of 2 runs): chain → c.txt missing (stdout "one\n", exit 0, value "v"); loop →
 * fewer than 5 files.
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-durable.js `call`: count the call as in flight from
 * the moment it is made — e.g. a counter incremented before `beforeSend()` and decremented when `__send` takes it
 * (or when it fails), added to `__inflight()` in workspace-capabilities.js, with `settled()` woken when it drops — so
 * the runner's wait covers calls still waiting for their output to be flushed.
 * Fixed: a replay run's call counts as in flight from the moment the code makes it, before the output flush, and a replay run's fetch from its call until it settles (`__hold` in isolate/workspace-capabilities.js, used by workspace-durable.js `call` and the runner's fetch) (issue 20, run 39, fixer JD). Siblings: test/workers/fix39/js-callback-errors-and-inflight.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import type { Workspace } from "../../../src/index.js";

const run = async (ws: Workspace, source: string) => {
  const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000, onInterrupt: "replay" })).result();
  return { status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, value: r.value };
};

it("replay runs: unawaited host calls started after output still finish", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const chain = await run(ws,
      `import { writeFile } from "node:fs/promises";
       export default async () => {
         writeFile("/workspace/b.txt", "x").then(() => { console.log("one"); return writeFile("/workspace/c.txt", "y"); });
         return "v";
       }`);
    const loop = await run(ws,
      `import { writeFile } from "node:fs/promises";
       export default async () => {
         (async () => { for (let i = 0; i < 5; i++) { console.log("n" + i); await writeFile("/workspace/n" + i, String(i)); } })();
         return "v";
       }`);
    await new Promise((r) => setTimeout(r, 200));
    const c = await ws.fs.readFile("/workspace/c.txt", "utf8").catch((e: { code?: string }) => e.code);
    const names = (await ws.fs.readdir("/workspace")).map((e) => e.name).sort();
    return { chain, loop, c, names };
  });
  expect(out).toEqual({
    chain: { status: "completed", exitCode: 0, stdout: "one\n", stderr: "", value: "v" },
    loop: { status: "completed", exitCode: 0, stdout: "n0\nn1\nn2\nn3\nn4\n", stderr: "", value: "v" },
    c: "y",
    names: ["b.txt", "c.txt", "n0", "n1", "n2", "n3", "n4"],
  });
}, 60_000);
