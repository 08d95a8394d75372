/**
 * `agent-computer/backends/container-legacy` (spec 02 §7.2, deprecated):
 * `LegacyContainerBackend`, for containers a separate, platform-scheduled
 * container Durable Object owns; `withLegacyWorkspaceContainer`, the mixin
 * for that object's class; `LegacyWorkspaceContainerAPI`, its RPC API. The
 * names shared with `./backends/container` are re-exported from there.
 *
 * @module
 */
import { LOCAL_CONTAINER_HOST_VAR } from "../container/index.js";
import { LegacyWorkspaceContainerAPI, type LegacyContainerContext } from "./api.js";

export { LegacyContainerBackend, type LegacyContainerBackendOptions } from "./backend.js";
export { LegacyWorkspaceContainerAPI, type ILegacyWorkspaceContainerAPI, type LegacyContainerContext } from "./api.js";
export type { ContainerLaunchSpec, ContainerRuntimeInfo, WorkspaceEgressPolicy, WorkspaceRef } from "../container/index.js";

/** What `withLegacyWorkspaceContainer` needs of the Durable Object class it extends. */
type DurableObjectLike = new (...args: any[]) => object;

/** What the mixin adds: the container API of this object. */
export interface LegacyContainerHolder {
  /** The container API of this object (memoised; an `RpcTarget`, so callers in other objects get a stub). */
  getWorkspaceContainer(): LegacyWorkspaceContainerAPI;
}

/**
 * Makes a Durable Object class the legacy container object (spec 02 §7.2):
 * adds `getWorkspaceContainer()`, a {@link LegacyWorkspaceContainerAPI} over
 * this object's `ctx.container` (give the class a wrangler `containers`
 * entry) — or, when it has none and `env.COMPUTER_CONTAINER_HOST` names a
 * local container host, over that host (one directory per object id), how
 * `wrangler dev` and the tests run without Docker (docs/container.md).
 *
 * @example
 * ```ts
 * export class Sandbox extends withLegacyWorkspaceContainer(class extends DurableObject<Env> {}) {}
 * ```
 */
export function withLegacyWorkspaceContainer<TBase extends DurableObjectLike>(Base: TBase): TBase & (new (...args: any[]) => LegacyContainerHolder) {
  class WithLegacyWorkspaceContainer extends Base implements LegacyContainerHolder {
    #api: LegacyWorkspaceContainerAPI | undefined;
    /**
     * The container API (memoised).
     * @throws Error when the object has no container and no local host is configured.
     */
    getWorkspaceContainer(): LegacyWorkspaceContainerAPI {
      if (this.#api) return this.#api;
      const self = this as unknown as { ctx: LegacyContainerContext; env?: Record<string, unknown> };
      const local = self.env?.[LOCAL_CONTAINER_HOST_VAR];
      this.#api = new LegacyWorkspaceContainerAPI(self.ctx, typeof local === "string" ? local : undefined);
      return this.#api;
    }
  }
  return WithLegacyWorkspaceContainer;
}
