/**
 * Issue 17, spec 02 §7.3 reconnect rules, with a real daemon killed and
 * restarted under a `ContainerBackend` (local container host): id-addressed
 * calls for a run of the replaced runtime are `EEXEC_LOST`; the next `exec`
 * reconnects (a new runtime) and works, its Workspace files pushed again.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { Workspace, WorkspaceExecutionLostError } from "../../../src/index.js";
import { ContainerBackend, withWorkspaceContainer } from "../../../src/backends/container/index.js";

const host = () => inject("containerHost");

class Holder extends withWorkspaceContainer(
  class {
    constructor(
      public ctx: { id: { toString(): string }; storage: DurableObjectStorage },
      public env: Record<string, unknown>,
    ) {}
  },
) {}

async function control(name: string, action: "stop" | "start", body: unknown): Promise<void> {
  const r = await fetch(`${host()}/containers/${name}/${action}`, { method: "POST", body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${action}: HTTP ${r.status} ${await r.text()}`);
  await r.body?.cancel();
}

describe("a container runtime replaced under a run", () => {
  it("getExec / killExec / disposeExec of its runs are EEXEC_LOST; exec reconnects and pushes again", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const name = crypto.randomUUID();
      const holder = new Holder({ id: { toString: () => name }, storage: state.storage }, { COMPUTER_CONTAINER_HOST: host() });
      const backend = new ContainerBackend({ container: () => holder, workspace: { binding: "TEST_DO", id: "0".repeat(64) }, heartbeatIntervalMs: 0, connectTimeoutMs: 15_000 });
      const ws = new Workspace({ storage: state.storage, backends: [backend] });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/kept.txt", "kept");
        const long = await ws.runtime.exec("echo started; sleep 30", { id: "long", encoding: "utf8" });
        const reader = long.getReader();
        expect((await reader.read()).value).toMatchObject({ name: "stdout", value: "started\n" });
        // The daemon dies (SIGKILL: no goodbye), and the platform starts the container again.
        await control(name, "stop", { signal: "SIGKILL" });
        const ended = await reader.read().then(
          (r) => ({ done: r.done, value: r.value }),
          (e: unknown) => ({ error: String(e) }),
        );
        expect(ended).toEqual({
          error: `WorkspaceRuntimeError: the connection to backend "container-shell" was lost while run "long" was running; reattach with getExec("long") (EEXEC_LOST if the container's runtime was replaced meanwhile)`,
        });
        reader.releaseLock();
        // A new run of the container (a new boot id): the next call reconnects to it.
        const before = (await holder.getWorkspaceContainer().status()).running;
        expect(before).toBe(false);
        const again = await (await ws.runtime.exec("cat kept.txt; echo; echo ok", { encoding: "utf8" })).result();
        expect(again).toMatchObject({ exitCode: 0, stdout: "kept\nok\n" });
        for (const call of [() => ws.runtime.getExec("long"), () => ws.runtime.killExec("long"), () => ws.runtime.disposeExec("long")]) {
          const error = await call().then(
            () => null,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(WorkspaceExecutionLostError);
          expect(error).toMatchObject({ name: "WorkspaceExecutionLostError", code: "EEXEC_LOST" });
          expect((error as Error).message).toMatch(/^run "long" on backend "container-shell" is lost: the container's runtime restarted since it started/);
        }
        // A run of the new runtime is reachable by id.
        const fresh = await ws.runtime.exec("echo fresh", { id: "fresh", encoding: "utf8" });
        await fresh.result();
        expect(await (await ws.runtime.getExec("fresh", { encoding: "utf8" })).result()).toMatchObject({ exitCode: 0, stdout: "fresh\n" });
      } finally {
        await ws.close();
      }
    });
  });
});
