import { env, runInDurableObject } from "cloudflare:test";
import { Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { WorkerShellBackend, type WorkerShellBackendOptions } from "../../../src/backends/worker-shell/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

/** A shell backend over the test LOADER. */
export function shellBackend(options: Partial<WorkerShellBackendOptions> = {}): WorkerShellBackend {
  return new WorkerShellBackend({ loader: env.LOADER, ...options });
}

/** Runs `fn` inside a fresh Durable Object with a Workspace (shell backend first, then JavaScript) on its SQLite storage. */
export async function inShellWorkspace<T>(
  fn: (ws: Workspace, state: DurableObjectState) => Promise<T>,
  options: { shell?: Partial<WorkerShellBackendOptions>; workspace?: Partial<WorkspaceOptions>; javascript?: boolean } = {},
): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const backends: WorkspaceOptions["backends"] = [shellBackend(options.shell)];
    if (options.javascript) backends.push(new WorkerJavaScriptBackend({ loader: env.LOADER }));
    const ws = new Workspace({ storage: state.storage, backends, ...options.workspace });
    try {
      return await fn(ws, state);
    } finally {
      await ws.close();
    }
  });
}

/** Runs `source` in the shell and returns the result as text. */
export async function sh(ws: Workspace, source: string, options: { cwd?: string; id?: string; timeoutMs?: number; env?: Record<string, string>; stdin?: string } = {}) {
  const handle = await ws.runtime.exec(source, { ...options, encoding: "utf8" });
  return handle.result();
}
