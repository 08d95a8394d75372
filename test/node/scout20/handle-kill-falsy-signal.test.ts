/**
 * Issue 20, scout after the twentieth attack run: an exec handle's `kill(signal)` and the `checkKillSignal` fix.
 * Tried: the same live daemon run as test/node/runtime/kill-signal.test.ts (daemon stand-in recording every kill);
 * `runtime.killExec(id, { signal })` and `handle.kill(signal)` with the falsy non-signals `""`, `0` and `null`.
 * Found (low, 3 of 3 values): `runtime.killExec` rejects each with `EINVAL` as documented ("killExec(id, { signal })
 * and an exec handle's kill(signal) reject EINVAL … for a signal outside KillSignal", docs/porting.md), but the
 * handle's `kill` goes through the runtime's `host.kill`, which passes the signal only when it is truthy
 * (`...(signal ? { signal } : {})`, src/runtime/index.ts): `kill("")`, `kill(0)` and `kill(null)` resolve and the
 * daemon is asked to kill the run with its default signal (3 kills recorded, `{ id: "r1" }` each). The DO stub's
 * `kill(signal)` (src/do/exec-handle-stub.ts) forwards to the same handle, so the RPC path behaves the same.
 * Suggested fix: pass the signal on whenever it is not `undefined` (`signal !== undefined ? { signal } : {}`), so
 * `checkKillSignal` sees it, or call `checkKillSignal(signal, "killExec")` in the handle's `kill` first.
 * Fixed: the runtime passes the handle's signal on whenever it is not `undefined`, so `""`, `0` and `null` reject EINVAL.
 */
import { describe, expect, it } from "vitest";
import { codeOf, liveRunWorkspace } from "../attack15c/daemon-stand-in.js";

describe("an exec handle's kill(signal) with a falsy non-signal", () => {
  it('kill(""), kill(0) and kill(null) reject EINVAL as runtime.killExec does, and the daemon is never asked', async () => {
    const { ws, kills } = await liveRunWorkspace();
    await ws.fs.mkdir("/workspace", { recursive: true });
    const run = await ws.runtime.exec("sleep 100", { backend: "box", id: "r1", sync: "defer" });
    const list = "killExec: signal must be one of SIGTERM, SIGKILL, SIGINT, SIGHUP";
    const viaRuntime: string[] = [];
    const viaHandle: string[] = [];
    for (const signal of ["", 0, null]) {
      viaRuntime.push(await codeOf(ws.runtime.killExec("r1", { backend: "box", signal: signal as unknown as "SIGTERM" })));
      viaHandle.push(await codeOf(run.kill(signal as unknown as "SIGTERM")));
    }
    // Held: the runtime refuses each.
    expect(viaRuntime).toEqual([`EINVAL: ${list} (got "")`, `EINVAL: ${list} (got number)`, `EINVAL: ${list} (got object)`]);
    try {
      // Today: ["resolved", "resolved", "resolved"], and kills holds { id: "r1" } three times.
      expect(viaHandle).toEqual(viaRuntime);
      expect(kills).toEqual([]);
    } finally {
      await ws.close();
    }
  });
});
