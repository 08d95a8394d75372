/**
 * Issue 20, D4 of the fourth attack run: a shell command that calls the host
 * back to back (a loop of reads or writes) used to keep its Durable Object
 * busy without a break, and workerd hands an object a new request only when
 * it is idle — so `ctx.abort()` from another request, a fresh client, and
 * the object's own timers all waited for the loop to end (forever without
 * `timeoutMs`). The shell now leaves the host idle for 2 ms every 50 ms of
 * calls (worker.ts `HOST_BUSY_SLICE_MS`); these tests hold it to that.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { abortObject } from "../attack2/abort-helpers.js";

const shellAgent = () => {
  const id = env.SHELL_AGENT.newUniqueId();
  return { stub: env.SHELL_AGENT.get(id), fresh: () => env.SHELL_AGENT.get(id) };
};

/**
 * Resolves once `/workspace` holds more than `n` entries, polled every 20 ms
 * through `ws` (already connected). Polling without a pause would itself keep
 * the object busy, and the test's own timers need the idle moments the shell leaves.
 */
async function waitForEntries(ws: { fs: { readdir(p: string): Promise<unknown[]> } }, n: number): Promise<number> {
  for (;;) {
    const count = (await ws.fs.readdir("/workspace")).length;
    if (count > n) return count;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("attack4 D4: a busy shell command leaves its Durable Object reachable", () => {
  it("ctx.abort() lands during a write loop without timeoutMs; the restarted object answers and the old loop writes nothing more", async () => {
    const { stub, fresh } = shellAgent();
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/workspace", { recursive: true });
      using loop = await ws.runtime.exec("i=0; while true; do i=$((i+1)); : > /workspace/f$i; done", { backend: "worker-shell", id: "endless" });
      void loop;
      await waitForEntries(ws, 20);
      expect(await abortObject(stub, "attack4 D4: reset mid loop")).toBe("aborted: attack4 D4: reset mid loop");
    }
    using ws = await getWorkspace(fresh());
    const after = (await ws.fs.readdir("/workspace")).length;
    expect(after).toBeGreaterThan(20);
    // The old loop's host is gone: give it time to write more if it could, then count again.
    await runInDurableObject(fresh(), () => new Promise((r) => setTimeout(r, 300)));
    expect((await ws.fs.readdir("/workspace")).length).toBe(after);
    // The restarted object's shell works.
    using probe = await ws.runtime.exec("ls /workspace | wc -l", { backend: "worker-shell", timeoutMs: 30_000, encoding: "utf8" });
    expect(await probe.result()).toMatchObject({ exitCode: 0, stdout: `${after}\n` });
  });

  it("a fresh client, a request's timer in the object and a kill get in while a write loop runs", async () => {
    const { stub, fresh } = shellAgent();
    using ws = await getWorkspace(stub);
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/x", "hello");
    using loop = await ws.runtime.exec("while true; do echo y > /workspace/y; done", { backend: "worker-shell", id: "reader", timeoutMs: 60_000 });
    // Let the loop run a while (the timer fires in an idle moment the loop leaves).
    await new Promise((r) => setTimeout(r, 300));
    using other = await getWorkspace(fresh());
    expect((await other.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["x", "y"]);
    // A timer set inside the object fires while the loop is still running.
    const timer = await runInDurableObject(fresh(), () => new Promise<string>((r) => setTimeout(() => r("fired"), 50)));
    expect(timer).toBe("fired");
    expect(await Promise.race([loop.result(), Promise.resolve("pending")])).toBe("pending");
    // A kill from the fresh client stops it with 130.
    await other.runtime.killExec("reader", { backend: "worker-shell" });
    expect(await loop.result()).toMatchObject({ exitCode: 130 });
  });
});
