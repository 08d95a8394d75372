/**
 * Issue 20 fifth attack run: ways around the shell's host-call pacing
 * (worker.ts `stopOnRefusal`, attack4 D4) and other ways a shell command
 * could starve its Durable Object. All held:
 * - four concurrent write loops (four runs, each pacing on its own clock):
 *   a fresh client, a timer inside the object and kills all get in;
 * - a CPU loop that never calls the host and has no timeout ends at
 *   just-bash's 100,000-command limit (exit 126) in about a second;
 * - one huge write: `printf` past 16 MiB width, `seq` past 100,000 lines, a
 *   48 MB redirect and a 96 MB expansion are each refused by just-bash
 *   (exit 126 with its message), before any RPC to the host.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

/** The value, or `"hung <ms> ms"`. */
const within = (ms: number, promise: Promise<unknown>): Promise<unknown> =>
  Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(`hung ${ms} ms`), ms))]);
const text = (b: unknown) => new TextDecoder().decode(b as Uint8Array);

describe("attack5: shell pacing and starvation", () => {
  it("four concurrent write loops: a fresh client, an object timer and four kills get in", { timeout: 60_000 }, async () => {
    const id = env.SHELL_AGENT.newUniqueId();
    using ws = await getWorkspace(env.SHELL_AGENT.get(id));
    await ws.fs.mkdir("/workspace", { recursive: true });
    const loops = [];
    for (let i = 0; i < 4; i++) loops.push(await ws.runtime.exec(`while true; do echo y > /workspace/y${i}; done`, { backend: "worker-shell", id: `l${i}`, timeoutMs: 30_000 }));
    await new Promise((r) => setTimeout(r, 500));
    const fresh = await within(3_000, (async () => {
      using other = await getWorkspace(env.SHELL_AGENT.get(id));
      return (await other.fs.readdir("/workspace")).map((e) => e.name);
    })());
    expect(fresh).toEqual(["y0", "y1", "y2", "y3"]);
    expect(await within(3_000, runInDurableObject(env.SHELL_AGENT.get(id), () => new Promise((r) => setTimeout(() => r("fired"), 50))))).toBe("fired");
    for (let i = 0; i < 4; i++) await within(3_000, ws.runtime.killExec(`l${i}`, { backend: "worker-shell" }));
    const results = (await within(5_000, Promise.all(loops.map((l) => l.result())))) as { exitCode: number }[];
    expect(results.map((r) => r.exitCode)).toEqual([130, 130, 130, 130]);
  });

  for (const [src, stderr] of [
    ["i=0; while true; do i=$((i+1)); done", "bash: too many commands executed (>100000), increase executionLimits.maxCommandCount\n"],
    ["printf '%0100000000d' 0 > /workspace/big", "bash: format width limit exceeded (16777216 bytes)\n"],
    // Was: "bash: seq: iteration limit exceeded (100000)" — since issue 20's twenty-eighth run (fixer LM) numbers printed
    // are not loop iterations; the one command's 16 MiB output bound stops it.
    ["seq 1 8000000 > /workspace/seq", "bash: seq: output size limit exceeded (16777216 bytes)\n"],
    [`x=$(printf '%016000000d' 0); echo "$x$x$x" > /workspace/f`, "bash: redirection: total output size exceeded (>16777216 bytes), increase executionLimits.maxOutputSize\n"],
    [`x=$(printf '%016000000d' 0); echo "$x$x$x$x$x$x" | wc -c`, "bash: word expansion: string length limit exceeded (67108864 bytes)\n"],
  ] as const) {
    it(`no timeout: ${src} ends with just-bash's limit (exit 126)`, { timeout: 60_000 }, async () => {
      using ws = await getWorkspace(env.SHELL_AGENT.get(env.SHELL_AGENT.newUniqueId()));
      await ws.fs.mkdir("/workspace", { recursive: true });
      const started = Date.now();
      using run = await ws.runtime.exec(src, { backend: "worker-shell" });
      const r = (await within(30_000, run.result())) as { exitCode: number; stdout: unknown; stderr: unknown };
      expect([r.exitCode, text(r.stdout), text(r.stderr)]).toEqual([126, "", stderr]);
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  }
});
