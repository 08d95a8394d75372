/**
 * The re-entry guard of mounts (spec 01 §6.2): a mount's `version()` and
 * `materialize()` run marked with their registry, storage and root, so a
 * call from inside them back into `ready()`, `ensureMountsIndexed()` or
 * `unmount()` — which would wait for itself — is refused instead of
 * deadlocking. Uses `AsyncLocalStorage` where the platform has it.
 *
 * @module
 */

/** Which mount callback (version() / materialize()) the current async context runs in. */
export interface MountCallbackContext {
  /** The `MountRegistry` running the callback. */
  readonly registry: object;
  /** The storage object of its Workspace (`ctx.storage`). */
  readonly storage: object;
  /** The mount root the callback fills. */
  readonly root: string;
}

interface AsyncLocalStorageLike<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

let contexts: AsyncLocalStorageLike<MountCallbackContext> | null | undefined;

/** `AsyncLocalStorage` from node:async_hooks (Node, workerd with nodejs_compat), or `null`: then re-entry is not detected. */
function contextStore(): AsyncLocalStorageLike<MountCallbackContext> | null {
  if (contexts === undefined) {
    try {
      const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const hooks = proc?.getBuiltinModule?.("node:async_hooks") as { AsyncLocalStorage?: new () => AsyncLocalStorageLike<MountCallbackContext> } | undefined;
      contexts = hooks?.AsyncLocalStorage ? new hooks.AsyncLocalStorage() : null;
    } catch {
      contexts = null;
    }
  }
  return contexts;
}

/** The mount callback the caller runs inside, or `undefined` (also where the platform cannot tell). */
export function mountCallbackContext(): MountCallbackContext | undefined {
  return contexts ? contexts.getStore() : undefined;
}

/** Runs a mount callback marked with its registry and root, so calls back into ready()/unmount() are refused instead of deadlocking. */
export function inMountCallback<T>(registry: object, storage: object, root: string, fn: () => Promise<T>): Promise<T> {
  const store = contextStore();
  return store ? store.run({ registry, storage, root }, fn) : fn();
}
