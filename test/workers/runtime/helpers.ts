import { env, runInDurableObject } from "cloudflare:test";
import { Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { WorkerJavaScriptBackend, type WorkerJavaScriptBackendOptions } from "../../../src/backends/worker-javascript/index.js";

/** Runs `fn` inside a fresh Durable Object with a Workspace on its SQLite storage. */
export async function inWorkspace<T>(
  fn: (ws: Workspace, state: DurableObjectState) => Promise<T>,
  options: { backend?: Partial<WorkerJavaScriptBackendOptions>; workspace?: Partial<WorkspaceOptions> } = {},
): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, ...options.backend })],
      ...options.workspace,
    });
    try {
      return await fn(ws, state);
    } finally {
      await ws.close();
    }
  });
}

/** A backend over the test LOADER. */
export function jsBackend(options: Partial<WorkerJavaScriptBackendOptions> = {}): WorkerJavaScriptBackend {
  return new WorkerJavaScriptBackend({ loader: env.LOADER, ...options });
}

export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}
