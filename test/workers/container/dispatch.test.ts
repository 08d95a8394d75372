/**
 * Issue 17, spec 02 §7.3: "`exec` retried once only if provably pre-dispatch
 * (else error says the command may have started)". A real daemon under a
 * `ContainerBackend` (local container host) is SIGKILLed at a chosen point of
 * an `exec`: the backend is wrapped only to pick that point (the daemon dies
 * through the local host, and the failure the runtime sees is the one its
 * dead session really gives); the runtime's reconnect rule is what is tested.
 * Every command appends a line to a file in the container's directory, which
 * survives the daemon's restart: its lines count the runs.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { Workspace } from "../../../src/index.js";
import { ContainerBackend, withWorkspaceContainer } from "../../../src/backends/container/index.js";
import type { BackendHandle, ShellRPC, WorkspaceBackendHost, WorkspaceCommandBackend } from "../../../src/runtime/types.js";
import type { SyncRPC } from "../../../src/runtime/sync.js";

const host = () => inject("containerHost");

class Holder extends withWorkspaceContainer(
  class {
    constructor(
      public ctx: { id: { toString(): string }; storage: DurableObjectStorage },
      public env: Record<string, unknown>,
    ) {}
  },
) {}

async function hostCall(path: string, init?: RequestInit): Promise<Response> {
  const r = await fetch(`${host()}${path}`, init);
  if (!r.ok && r.status !== 404) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`);
  return r;
}

/** SIGKILLs the container's daemon (no goodbye) and waits until it has exited. */
async function killDaemon(name: string): Promise<void> {
  await (await hostCall(`/containers/${name}/stop`, { method: "POST", body: JSON.stringify({ signal: "SIGKILL" }) })).body?.cancel();
}

/** A file under the container's mount point, read on the host (`null` when missing). */
async function containerText(name: string, path: string): Promise<string | null> {
  const r = await hostCall(`/containers/${name}/files?path=${encodeURIComponent(path)}`);
  if (r.status === 404) {
    await r.body?.cancel();
    return null;
  }
  return new TextDecoder().decode(await r.arrayBuffer());
}

/** Where an armed wrapper kills the daemon. */
type Fault = "none" | "during-push" | "after-exec-sent";

/**
 * The real backend, with a hook on its handles: `fault` picks where the next
 * `exec` loses its daemon (then it is disarmed). Counts connects and the
 * `exec` calls each connection received.
 */
class Faulty implements WorkspaceCommandBackend {
  readonly id: string;
  readonly type: string;
  fault: Fault = "none";
  /** Per connection, in order: how many `exec` calls it received. */
  readonly execCalls: number[] = [];

  constructor(
    readonly real: ContainerBackend,
    readonly name: string,
  ) {
    this.id = real.id;
    this.type = real.type;
  }

  async connect(workspaceHost: WorkspaceBackendHost): Promise<BackendHandle> {
    const handle = await this.real.connect(workspaceHost);
    const conn = this.execCalls.push(0) - 1;
    const shell = handle.rpc.shell;
    const sync = handle.rpc.sync as SyncRPC;
    /** The daemon dies; resolves with the error its dead session gives a call. */
    const die = async (): Promise<unknown> => {
      await killDaemon(this.name);
      await handle.closed;
      return sync.info().then(
        () => new Error("the session still answers after its daemon died"),
        (e: unknown) => e,
      );
    };
    const wrappedShell: ShellRPC = {
      exec: async (input) => {
        this.execCalls[conn]!++;
        if (this.fault !== "after-exec-sent") return shell.exec(input);
        this.fault = "none";
        // Sent and run to its end; then the daemon dies before its answer reaches the runtime.
        const started = await shell.exec(input);
        const reader = started.events.getReader();
        while (!(await reader.read()).done);
        throw await die();
      },
      getExec: (input) => shell.getExec(input),
      killExec: (input) => shell.killExec(input),
      disposeExec: (input) => shell.disposeExec(input),
    };
    const wrappedSync: SyncRPC = {
      info: () => sync.info(),
      scan: (input) => sync.scan(input),
      read: (input) => sync.read(input),
      apply: async (input) => {
        if (this.fault !== "during-push") return sync.apply(input);
        this.fault = "none";
        // The push before the command: the daemon dies before the command is sent.
        await die();
        return sync.apply(input);
      },
    };
    return { rpc: { shell: wrappedShell, sync: wrappedSync }, runtimeId: handle.runtimeId, sync: handle.sync, closed: handle.closed, close: () => handle.close() };
  }
}

async function withFaulty(fn: (ws: Workspace, backend: Faulty, name: string) => Promise<void>): Promise<void> {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const name = crypto.randomUUID();
    const holder = new Holder({ id: { toString: () => name }, storage: state.storage }, { COMPUTER_CONTAINER_HOST: host() });
    const real = new ContainerBackend({ container: () => holder, workspace: { binding: "TEST_DO", id: "0".repeat(64) }, heartbeatIntervalMs: 0, connectTimeoutMs: 15_000 });
    const backend = new Faulty(real, name);
    const ws = new Workspace({ storage: state.storage, backends: [backend] });
    try {
      await fn(ws, backend, name);
    } finally {
      await ws.close();
    }
  });
}

describe("exec when the daemon is lost around sending the command", () => {
  it("lost before the command was sent: exec is sent again once, on a new connection, and runs exactly once", async () => {
    await withFaulty(async (ws, backend, name) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.runtime.ready();
      expect(backend.execCalls).toEqual([0]);
      await ws.fs.writeFile("/workspace/input.txt", "from the workspace\n");
      backend.fault = "during-push";
      const r = await (await ws.runtime.exec("cat input.txt; echo run >> runs.txt", { id: "once", encoding: "utf8" })).result();
      expect(r).toMatchObject({ exitCode: 0, status: "completed", stdout: "from the workspace\n", sync: { status: "complete" } });
      // Not sent on the lost connection; sent once on the new one.
      expect(backend.execCalls).toEqual([0, 1]);
      expect(await containerText(name, "runs.txt")).toBe("run\n");
      expect(await ws.fs.readFile("/workspace/runs.txt", "utf8")).toBe("run\n");
    });
  });

  it("lost after the command was sent: exec says it may have started and does not run it again", async () => {
    await withFaulty(async (ws, backend, name) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.runtime.ready();
      backend.fault = "after-exec-sent";
      const error = await ws.runtime.exec("echo run >> runs.txt", { id: "once", encoding: "utf8" }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `the connection to backend "container-shell" was lost while run "once" was being started; the command may have started: check with getExec("once") before running it again`,
      );
      expect(backend.execCalls).toEqual([1]);
      expect(await containerText(name, "runs.txt")).toBe("run\n");
      // The next exec reconnects (a new daemon) and the first command still ran once.
      const next = await (await ws.runtime.exec("cat runs.txt", { encoding: "utf8" })).result();
      expect(next).toMatchObject({ exitCode: 0, stdout: "run\n" });
      expect(backend.execCalls).toEqual([1, 1]);
      expect(await containerText(name, "runs.txt")).toBe("run\n");
    });
  });
});
