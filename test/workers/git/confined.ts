/**
 * A Workspace on a fresh Durable Object's storage whose JavaScript backend is confined to `ROOT`
 * (`/workspace/proj`) and offers `ws:git`, with a git client and a default identity — what the ws:git
 * containment tests (attack13a, attack21b, fix21) run code in. `/workspace/host-secret.txt` (outside the
 * root) holds `secret`; `fn` runs with the Workspace, which is closed afterwards.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Workspace } from "../../../src/workspace.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

export const ROOT = "/workspace/proj";

export async function inConfinedGitWorkspace<T>(secret: string, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, root: ROOT, modules: { "ws:git": createGitModule() } })],
      git: createGitClient(),
      defaultGitIdentity: { name: "R", email: "r@e.com" },
    });
    try {
      await ws.fs.mkdir(ROOT, { recursive: true });
      await ws.fs.writeFile("/workspace/host-secret.txt", secret);
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}
