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
import { workersExport } from "../util/workers-runtime.js";

/** Constructor of the base class every stub extends. */
export type RpcTargetConstructor = abstract new () => object;

async function loadRpcTarget(): Promise<RpcTargetConstructor> {
  const base = await workersExport("RpcTarget");
  return base ? (base as RpcTargetConstructor) : class RpcTarget {};
}

/** `RpcTarget` from `"cloudflare:workers"` under workerd, else an empty class. */
export const RpcTargetBase: RpcTargetConstructor = await loadRpcTarget();
