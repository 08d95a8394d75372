/**
 * Shared set-up of the `ws:container` tests: a fresh Durable Object whose
 * Workspace has a JavaScript backend importing `ws:container` (first, the
 * default) and a real `WorkerShellBackend` — a command backend — registered
 * under the id the module names (`"container-shell"` unless told).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { WorkerJavaScriptBackend, type WorkerJavaScriptBackendOptions } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createContainerModule, type ContainerModuleOptions } from "../../../src/modules/container.js";

export interface ContainerSetup {
  /** Options of `createContainerModule`. */
  module?: ContainerModuleOptions;
  /** Id of the shell backend; default `"container-shell"`. `null`: no shell backend. */
  shellId?: string | null;
  /** More JavaScript-backend options (e.g. `access`). */
  javascript?: Partial<WorkerJavaScriptBackendOptions>;
  /** More Workspace options (e.g. `output`). */
  workspace?: Partial<WorkspaceOptions>;
}

/** Runs `fn` in a fresh Durable Object with the Workspace described above (`/workspace` made). */
export async function inContainerWorkspace<T>(fn: (ws: Workspace) => Promise<T>, setup: ContainerSetup = {}): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const backends: WorkspaceOptions["backends"] = [
      new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:container": createContainerModule(setup.module) }, ...setup.javascript }),
    ];
    const shellId = setup.shellId === undefined ? "container-shell" : setup.shellId;
    if (shellId !== null) backends.push(new WorkerShellBackend({ loader: env.LOADER, id: shellId }));
    const ws = new Workspace({ storage: state.storage, backends, ...setup.workspace });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

/** Runs isolate `source` on the JavaScript backend; its result with output as text. */
export async function runJs(ws: Workspace, source: string, options: { id?: string } = {}) {
  return (await ws.runtime.exec(source, { ...options, backend: "worker-javascript", encoding: "utf8", timeoutMs: 60_000 })).result();
}

/**
 * Isolate code whose default export returns, for each `exec(...)` argument
 * list in `calls` (JavaScript source of the arguments), `{ ok }` or
 * `{ error: [message, code] }`.
 */
export function attempts(calls: readonly string[]): string {
  return `import { exec } from "ws:container";
    const attempt = async (...args) => {
      try { return { ok: await exec(...args) }; } catch (e) { return { error: [e.message, e.code ?? null] }; }
    };
    export default async () => {
      const out = [];
      ${calls.map((c) => `out.push(await attempt(${c}));`).join("\n      ")}
      return out;
    };`;
}

/** The value the JavaScript run returned (throws with its stderr when it failed). */
export function valueOf(r: { exitCode: number; stderr: string; value?: unknown }): unknown {
  if (r.exitCode !== 0) throw new Error(`the JavaScript run failed (${r.exitCode}): ${r.stderr}`);
  return r.value;
}

/** `from`..`to`, one number a line (what `seq from to` prints). */
export function seqText(from: number, to: number): string {
  let s = "";
  for (let i = from; i <= to; i++) s += `${i}\n`;
  return s;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `path` exists in the Workspace. */
export async function exists(ws: Workspace, path: string): Promise<boolean> {
  return ws.fs.stat(path).then(
    () => true,
    () => false,
  );
}

/** Waits (polling) until `path` exists in the Workspace; throws after ~10 s. */
export async function waitForFile(ws: Workspace, path: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await exists(ws, path)) return;
    await sleep(20);
  }
  throw new Error(`${path} never appeared`);
}

/** `sync` of a command on a `sync: "none"` backend. */
export const SYNC_COMPLETE = { status: "complete", skipped: [], skippedCount: 0 };
