/**
 * Base classes from `"cloudflare:workers"` for modules that also load on
 * Node: under workerd (`navigator.userAgent === "Cloudflare-Workers"`) the
 * named export, loaded with a dynamic `import()`; anywhere else `undefined`,
 * and `"cloudflare:workers"` is never requested. Callers await it at module
 * load (top-level `await`) and fall back to a plain class.
 *
 * @module
 */

/** The `"cloudflare:workers"` export `name` under workerd, else `undefined`. */
export async function workersExport(name: "RpcTarget" | "WorkerEntrypoint"): Promise<unknown> {
  const userAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (userAgent !== "Cloudflare-Workers") return undefined;
  try {
    const workers = (await import("cloudflare:workers")) as Record<string, unknown>;
    return typeof workers[name] === "function" ? workers[name] : undefined;
  } catch {
    return undefined; // not real workerd (a test double of navigator)
  }
}

/** What an entrypoint built on {@link EntrypointBase} reads of its base: `ctx` (with `props`) and `env`. */
export interface EntrypointInstance {
  /** The entrypoint's context; `props` as given to `ctx.exports.<Name>({ props })`. */
  readonly ctx: unknown;
  /** The Worker's bindings. */
  readonly env: unknown;
}

/** Constructor of the entrypoint base class. */
export type EntrypointConstructor = new (ctx: unknown, env: unknown) => EntrypointInstance;

async function loadEntrypoint(): Promise<EntrypointConstructor> {
  const base = await workersExport("WorkerEntrypoint");
  if (base) return base as EntrypointConstructor;
  return class WorkerEntrypoint {
    readonly ctx: unknown;
    readonly env: unknown;
    constructor(ctx: unknown, env: unknown) {
      this.ctx = ctx;
      this.env = env;
    }
  };
}

/**
 * `WorkerEntrypoint` under workerd, else a plain class with `ctx` and `env`:
 * the base of the entrypoints users re-export from their Worker
 * (`WorkspaceProxy`, `WorkspaceServiceProxy`), so their modules also load on Node.
 */
export const EntrypointBase: EntrypointConstructor = await loadEntrypoint();
