/**
 * `ws:container` timeouts and cancellation in real workerd (spec 02 §4.3):
 * the timeout sent is `min(timeoutMs, deadline − now)` (the worker shell
 * reports it: `Execution timed out after <ms> ms`, exit 124), a call whose
 * deadline has passed runs nothing, and cancelling the JavaScript run (or
 * aborting the call's signal) kills the command — a file it would have
 * written later never appears.
 *
 * The deadline cases call the host function the factory made directly,
 * with the real runtime and a call context built here (the deadline is the
 * input under test); everything else goes through a JavaScript run.
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { createContainerModule } from "../../../src/modules/container.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleHost } from "../../../src/modules/types.js";
import type { WorkspaceRuntimeValue } from "../../../src/runtime/types.js";
import { SYNC_COMPLETE, attempts, exists, inContainerWorkspace, runJs, sleep, valueOf, waitForFile } from "./helpers.js";

/** `exec` of a ws:container module connected to `ws`'s runtime, called as the JavaScript backend would. */
function hostExec(ws: Workspace, deadline: number, signal = new AbortController().signal) {
  const host = { git: undefined, artifacts: undefined, runtime: ws.runtime } as unknown as WorkspaceModuleHost;
  const mod = createContainerModule()(host);
  const ctx: WorkspaceModuleCallContext = {
    signal,
    deadline,
    access: "read-write",
    root: "/workspace",
    resumed: false,
    callId: "test:1",
    resolvePath: async (p) => p,
    interrupt: async () => {
      throw new Error("not waiting");
    },
  };
  return (...args: WorkspaceRuntimeValue[]) => mod.exec!.call(mod, args, ctx) as Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

const TIMED_OUT = /^Execution timed out after (\d+) ms\n$/;

describe("ws:container timeouts", () => {
  it("timeoutMs is sent to the backend: the command times out (124) with the output made before it", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const r = await runJs(ws, attempts([`"echo a; sleep 5; echo never > /workspace/never.txt", { timeoutMs: 200 }`]));
      await sleep(300);
      return { value: valueOf(r), never: await exists(ws, "/workspace/never.txt") };
    });
    expect(out.value).toEqual([{ ok: { exitCode: 124, stdout: "a\n", stderr: "Execution timed out after 200 ms\n", sync: SYNC_COMPLETE } }]);
    expect(out.never).toBe(false);
  });

  it("the timeout is capped at the host call's deadline: with none given, or a longer one, the command stops by the deadline", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const none = await hostExec(ws, Date.now() + 700)("sleep 5");
      const longer = await hostExec(ws, Date.now() + 700)("sleep 5", { timeoutMs: 60_000 });
      const shorter = await hostExec(ws, Date.now() + 60_000)("sleep 5", { timeoutMs: 150 });
      return { none, longer, shorter };
    });
    for (const r of [out.none, out.longer]) {
      expect(r.exitCode).toBe(124);
      const sent = Number(TIMED_OUT.exec(r.stderr)?.[1]);
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThanOrEqual(700);
    }
    expect([out.shorter.exitCode, out.shorter.stderr]).toEqual([124, "Execution timed out after 150 ms\n"]);
  });

  it("a call whose deadline has passed rejects (ETIMEDOUT) and runs nothing", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const settled = await hostExec(ws, Date.now() - 1)("echo ran > /workspace/ran.txt").then(
        () => "resolved",
        (e: Error & { code?: string }) => [e.message, e.code],
      );
      return { settled, ran: await exists(ws, "/workspace/ran.txt") };
    });
    expect(out.settled).toEqual(["ws:container exec: the host call's deadline has passed; there is no time left to run the command.", "ETIMEDOUT"]);
    expect(out.ran).toBe(false);
  });
});

describe("ws:container cancellation", () => {
  const COMMAND = (name: string) => `echo started > /workspace/${name}-started.txt; sleep 1; echo late > /workspace/${name}-late.txt`;
  const SOURCE = (name: string) => `import { exec } from "ws:container";
    export default async () => exec(${JSON.stringify(COMMAND(name))});`;

  it("killExec of the JavaScript run kills the command: the file it would write after its sleep never appears", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      // Control: left alone, the same command writes its late file.
      const control = await runJs(ws, SOURCE("control"));
      const controlLate = await ws.fs.readFile("/workspace/control-late.txt", "utf8");

      const handle = await ws.runtime.exec(SOURCE("killed"), { id: "js-run", backend: "worker-javascript", encoding: "utf8" });
      await waitForFile(ws, "/workspace/killed-started.txt");
      await ws.runtime.killExec("js-run", { backend: "worker-javascript" });
      const r = await handle.result();
      await sleep(2000); // past the moment the command would have written its late file
      return { control: valueOf(control), controlLate, r: [r.exitCode, r.status, r.stderr], late: await exists(ws, "/workspace/killed-late.txt") };
    });
    expect(out.control).toEqual({ exitCode: 0, stdout: "", stderr: "", sync: SYNC_COMPLETE });
    expect(out.controlLate).toBe("late\n");
    expect(out.r).toEqual([130, "cancelled", "Execution cancelled.\n"]);
    expect(out.late).toBe(false);
  });

  it("an abort of the call's signal kills the command (130); an already-aborted signal runs nothing", async () => {
    const out = await inContainerWorkspace(async (ws) => {
      const controller = new AbortController();
      const call = hostExec(ws, Date.now() + 60_000, controller.signal)(COMMAND("aborted"));
      await waitForFile(ws, "/workspace/aborted-started.txt");
      controller.abort(new Error("run cancelled"));
      const r = await call;
      await sleep(2000);
      const pre = AbortSignal.abort(new Error("already cancelled"));
      const refused = await hostExec(ws, Date.now() + 60_000, pre)("echo ran > /workspace/ran.txt").then(
        () => "resolved",
        (e: Error) => e.message,
      );
      return { r, late: await exists(ws, "/workspace/aborted-late.txt"), refused, ran: await exists(ws, "/workspace/ran.txt") };
    });
    expect(out.r).toEqual({ exitCode: 130, stdout: "", stderr: "Execution cancelled.\n", sync: SYNC_COMPLETE });
    expect(out.late).toBe(false);
    expect(out.refused).toBe("already cancelled");
    expect(out.ran).toBe(false);
  });
});
