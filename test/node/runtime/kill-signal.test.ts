/**
 * `killExec`'s signal is one of spec 02 §1's `KillSignal` names (`SIGTERM`, `SIGKILL`, `SIGINT`, `SIGHUP`). A caller
 * from plain JavaScript (or over RPC) could pass any string or number, and the container daemon accepts every signal
 * the OS knows: `SIGSTOP` froze the run's process group instead of ending it (found in the nineteenth attack run's
 * leads). `runtime.killExec`, an exec handle's `kill()` and the daemon shell's `killExec` now reject anything else
 * with `EINVAL` before the backend is asked — the daemon never sees the call.
 */
import { describe, expect, it } from "vitest";
import { codeOf, liveRunWorkspace } from "../attack15c/daemon-stand-in.js";

describe("killExec signals", () => {
  it("rejects a signal outside KillSignal with EINVAL and never asks the backend", async () => {
    const { ws, handle, kills } = await liveRunWorkspace();
    await ws.fs.mkdir("/workspace", { recursive: true });
    const run = await ws.runtime.exec("sleep 100", { backend: "box", id: "r1", sync: "defer" });
    const bad: unknown[] = ["SIGSTOP", "SIGCONT", "sigterm", "TERM", 19, 9, "", { toString: () => "SIGTERM" }, "X".repeat(100_000)];
    const answers: string[] = [];
    for (const signal of bad) answers.push(await codeOf(ws.runtime.killExec("r1", { backend: "box", signal: signal as "SIGTERM" })));
    answers.push(await codeOf(run.kill("SIGSTOP" as "SIGTERM")));
    answers.push(await codeOf(handle.rpc.shell.killExec({ id: "r1", signal: "SIGSTOP" as "SIGTERM" })));
    const list = "killExec: signal must be one of SIGTERM, SIGKILL, SIGINT, SIGHUP";
    expect(answers).toEqual([
      `EINVAL: ${list} (got "SIGSTOP")`,
      `EINVAL: ${list} (got "SIGCONT")`,
      `EINVAL: ${list} (got "sigterm")`,
      `EINVAL: ${list} (got "TERM")`,
      `EINVAL: ${list} (got number)`,
      `EINVAL: ${list} (got number)`,
      `EINVAL: ${list} (got "")`,
      `EINVAL: ${list} (got object)`,
      `EINVAL: ${list} (got "${"X".repeat(64)}")`,
      `EINVAL: ${list} (got "SIGSTOP")`,
      `EINVAL: ${list} (got "SIGSTOP")`,
    ]);
    expect(kills).toEqual([]);
    // Each of the four names reaches the daemon as given.
    for (const signal of ["SIGINT", "SIGHUP", "SIGTERM", "SIGKILL"] as const) {
      await ws.runtime.killExec("r1", { backend: "box", signal });
    }
    await ws.runtime.killExec("r1", { backend: "box" });
    expect(kills).toEqual([
      { id: "r1", signal: "SIGINT" },
      { id: "r1", signal: "SIGHUP" },
      { id: "r1", signal: "SIGTERM" },
      { id: "r1", signal: "SIGKILL" },
      { id: "r1" },
    ]);
    await ws.close();
  });
});
