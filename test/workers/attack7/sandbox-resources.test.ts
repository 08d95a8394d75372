/**
 * Issue 20 seventh attack run, category 2 (resource exhaustion) in the
 * JavaScript backend, real workerd, shapes runs 2–6 did not send:
 * - unbounded recursion: exit 1, `Maximum call stack size exceeded`;
 * - a result of 2,000 references to one 1 MiB string (2 GB as JSON, 1 MiB
 *   in memory): the run fails, `The default export returned a value that is
 *   not JSON-compatible plain data: Invalid string length`;
 * - one million promises awaited together: completes;
 * - a 2 GiB ArrayBuffer: allowed locally (local workerd has no per-isolate
 *   memory limit; production's 128 MB stops it there);
 * and the next run answers after each. All withstood.
 *
 * DEFECT (low, local development only; documentation), FIXED — README and
 * docs/getting-started.md ("If it crashes") say so. Reproduction:
 *   runtime.exec(`export default () => { const a = []; for (;;) a.push("x".repeat(1e6) + a.length); }`)
 * in local workerd (`npm start`, the examples, this test pool) grows the
 * process heap to ~1.4 GB and V8 aborts the WHOLE workerd process ("Reached
 * heap limit … JavaScript heap out of memory", `*** Received signal #6`):
 * every Durable Object and request in it dies, not just the run (the test
 * pool reports "Worker exited unexpectedly"). On Cloudflare an isolate past
 * 128 MB is reset alone. README "If it hangs" describes the endless-loop
 * freeze but not this crash. Not run here (it would take the pool down);
 * the case below is skipped and documents it.
 * Impact: low — local only; a model's runaway allocation ends a local
 * session with a crash whose cause is far from the agent's output.
 * Fix proposal: say so next to the endless-loop note (README, docs/
 * getting-started.md): "code that allocates without bound crashes local
 * workerd; restart it"; optionally run local Dynamic Workers with a V8 heap
 * limit if workerd's loader gains one.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

type Ws = Parameters<Parameters<typeof inWorkspace>[0]>[0];
async function run(ws: Ws, source: string) {
  const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 30_000 })).result();
  return { status: r.status, exitCode: r.exitCode, value: r.value, stderr: r.stderr as string };
}

describe("attack7: sandbox resource shapes", () => {
  it("recursion, a 2 GB result of one shared string, a million promises, a 2 GiB buffer — each bounded; the next run answers", { timeout: 60_000 }, async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      return [
        await run(ws, `export default () => { const f = (n) => f(n + 1) + 1; return f(0); }`),
        await run(ws, `export default () => { const s = "y".repeat(1 << 20); return Array.from({ length: 2000 }, () => s); }`),
        await run(ws, `export default async () => { const ps = []; for (let i = 0; i < 1e6; i++) ps.push(Promise.resolve(i)); return (await Promise.all(ps)).length; }`),
        await run(ws, `export default () => new ArrayBuffer(2 ** 31).byteLength`),
        await run(ws, `export default () => "next"`),
      ];
    });
    expect(r[0]).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: "Maximum call stack size exceeded\n" });
    expect(r[1]).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: "The default export returned a value that is not JSON-compatible plain data: Invalid string length\n" });
    expect(r[2]).toEqual({ status: "completed", exitCode: 0, value: 1_000_000, stderr: "" });
    expect(r[3]).toEqual({ status: "completed", exitCode: 0, value: 2 ** 31, stderr: "" });
    expect(r[4]).toEqual({ status: "completed", exitCode: 0, value: "next", stderr: "" });
  });

  it.skip("DEFECT (low, local only): unbounded allocation aborts the whole local workerd process (not run: it takes the pool down)", async () => {
    await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await run(ws, `export default () => { const a = []; for (;;) a.push("x".repeat(1e6) + a.length); }`);
    });
  });
});
