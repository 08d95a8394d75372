/**
 * The `RpcTarget` base class for the stubs, chosen once when this module loads.
 *
 * Under workerd (`navigator.userAgent === "Cloudflare-Workers"`) it is
 * `RpcTarget` from `"cloudflare:workers"`, loaded with a top-level dynamic
 * `import()`, so Workers RPC passes stubs by reference. Everywhere else (Node,
 * where `nodeSqliteStorage` users import the root entry) it is a plain empty
 * class and `"cloudflare:workers"` is never requested. This is the same
 * approach `capnweb` takes; the two `RpcTarget`s are the same class under
 * workerd.
 *
 * @module
 */

/** Constructor of the base class every stub extends. */
export type RpcTargetConstructor = abstract new () => object;

async function loadRpcTarget(): Promise<RpcTargetConstructor> {
  const userAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (userAgent === "Cloudflare-Workers") {
    try {
      const workers = await import("cloudflare:workers");
      if (typeof workers.RpcTarget === "function") return workers.RpcTarget as RpcTargetConstructor;
    } catch {
      // Not real workerd (a test double of navigator): fall through.
    }
  }
  return class RpcTarget {};
}

/** `RpcTarget` from `"cloudflare:workers"` under workerd, else an empty class. */
export const RpcTargetBase: RpcTargetConstructor = await loadRpcTarget();
