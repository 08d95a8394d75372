/**
 * `WorkerJavaScriptBackend` (spec 02 §3): the backend object a Workspace is
 * configured with. It validates its options at construction, describes
 * itself to the exec tool, and connects to a Workspace (see connection.ts).
 *
 * @module
 */
import type { WorkspaceModuleFunctions } from "../../modules/types.js";
import type { WorkspaceBackendHost, WorkspaceModuleBackend, WorkspaceModuleBackendHandle } from "../../runtime/types.js";
import { Connection } from "./connection.js";
import { NODE_BUILTINS } from "./graph.js";
import { FS_METHODS } from "./isolate.js";
import { isFactory, nodeCompat, resolveOptions, validateFunctions, type ResolvedOptions, type WorkerJavaScriptBackendOptions } from "./options.js";

/**
 * Runs model-written ES modules in fresh Dynamic Workers (spec 02 §3).
 * `protocol "module"`, `callable true`; default id `"worker-javascript"`.
 *
 * @throws TypeError at construction for an invalid option, naming it.
 */
export class WorkerJavaScriptBackend implements WorkspaceModuleBackend {
  /** Always `"worker-javascript"`. */
  readonly type = "worker-javascript";
  /** Runs module source (not shell text). */
  readonly protocol = "module" as const;
  /** Code can be called as a function: its default export gets `input` and returns the result. */
  readonly callable = true;
  /** The backend id (`options.id`, default `"worker-javascript"`). */
  readonly id: string;
  readonly #options: ResolvedOptions;

  /** @throws TypeError `WorkerJavaScriptBackend: <option> …` for an invalid option (see `WorkerJavaScriptBackendOptions`). */
  constructor(options: WorkerJavaScriptBackendOptions) {
    this.#options = resolveOptions(options);
    this.id = this.#options.id;
  }

  /** Plain-language self-description for the exec tool (recomputed on every read, spec 02 §3.8). */
  get description(): string {
    const o = this.#options;
    const lines: string[] = [];
    let header =
      `Runs an ECMAScript module (JavaScript) in an isolated runtime; relative imports resolve from cwd, files come from the Workspace under ${o.root}. ` +
      "Put the work in `export default async function (input) { … }`: it receives `input` and its return value (JSON-compatible) comes back as the result. " +
      "Do no I/O at the top level of a module. To run a file you wrote, use `export { default } from \"./main.js\"`.";
    if (o.egress.mode === "none") header += " There is no network access: fetch() fails.";
    if (o.access === "read") header += " Files are read-only: writes are refused.";
    lines.push(header, "", "Modules code can import:");
    lines.push(`- \`node:fs/promises\` (also \`node:fs\`): ${FS_METHODS.join(", ")}; promise API only, no sync or callback functions.`);
    for (const [name, value] of o.modules) {
      if (typeof value === "string") lines.push(`- \`${name}\`: a bundled library.`);
      else if (isFactory(value)) lines.push(`- \`${name}\`: ${value.description ?? "a host module."}`);
      else lines.push(`- \`${name}\`: exports ${Object.keys(value).map((k) => `\`${k}\``).join(", ")}.`);
    }
    if (nodeCompat(o.compatibilityFlags)) {
      lines.push(`- Node built-ins (bare or \`node:\`): ${NODE_BUILTINS.map((n) => `\`${n}\``).join(", ")}.`);
    }
    return lines.join("\n");
  }

  /**
   * Connects: runs host-module factories, reconciles runs left running by a restart.
   *
   * @throws TypeError when a factory returns something other than an object of functions.
   */
  async connect(host: WorkspaceBackendHost): Promise<WorkspaceModuleBackendHandle> {
    const hostModules = new Map<string, WorkspaceModuleFunctions>();
    for (const [name, value] of this.#options.modules) {
      if (typeof value === "string") continue;
      let fns: WorkspaceModuleFunctions;
      if (isFactory(value)) {
        const moduleHost: Parameters<typeof value>[0] = { git: host.git, artifacts: host.artifacts, runtime: host.runtime };
        if (host.assets !== undefined) moduleHost.assets = host.assets;
        fns = value(moduleHost);
        validateFunctions(name, fns, true);
      } else {
        fns = value;
      }
      hostModules.set(name, fns);
    }
    const connection = new Connection(this.#options, this.type, host, hostModules);
    connection.reconcile();
    return connection;
  }
}
