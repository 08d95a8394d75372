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
