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

/** A tree under /workspace; names are relative to it. Directories are made with their parents. */
export interface ShellTree {
  dirs?: readonly string[];
  /** name → content (UTF-8). */
  files?: Readonly<Record<string, string>>;
  /** name → link target, written as given. */
  links?: Readonly<Record<string, string>>;
}

/** Removes /workspace and makes `tree` there (directories, then files, then links). */
export async function resetTree(ws: Workspace, tree: ShellTree): Promise<void> {
  await ws.fs.rm("/workspace", { recursive: true, force: true });
  await ws.fs.mkdir("/workspace", { recursive: true });
  for (const dir of tree.dirs ?? []) await ws.fs.mkdir(`/workspace/${dir}`, { recursive: true });
  for (const [name, content] of Object.entries(tree.files ?? {})) await ws.fs.writeFile(`/workspace/${name}`, content);
  for (const [name, target] of Object.entries(tree.links ?? {})) await ws.fs.symlink(target, `/workspace/${name}`);
}

type ShellResult = Awaited<ReturnType<typeof sh>>;

/**
 * Runs each command in its own fresh copy of `tree` (cwd /workspace unless `cwd` is given), in one Durable Object.
 * `wrap` turns a command into the source run (default: as is); `collect` turns each result into what the test
 * compares (default: `[command, stdout, stderr]`).
 */
export async function shellCases<R = [string, string, string]>(
  tree: ShellTree,
  commands: readonly string[],
  options: {
    cwd?: string;
    wrap?: (command: string) => string;
    collect?: (ws: Workspace, command: string, result: ShellResult) => R | Promise<R>;
    /** Options of the Workspace and its backends ({@link inShellWorkspace}), for example `git`. */
    workspace?: Parameters<typeof inShellWorkspace>[1];
  } = {},
): Promise<R[]> {
  const collect = options.collect ?? ((_ws, command, r) => [command, r.stdout, r.stderr] as R);
  return inShellWorkspace(async (ws) => {
    const out: R[] = [];
    for (const command of commands) {
      await resetTree(ws, tree);
      const r = await sh(ws, options.wrap ? options.wrap(command) : command, { cwd: options.cwd ?? "/workspace" });
      out.push(await collect(ws, command, r));
    }
    return out;
  }, options.workspace);
}
