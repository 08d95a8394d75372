/**
 * `agent-computer/backends/container` (spec 02 §7): `ContainerBackend`,
 * `withWorkspaceContainer`, the container APIs (platform and local) and
 * `WorkspaceProxy`, the entrypoint that routes the container's HTTP back to
 * the Durable Object.
 *
 * @module
 */
import type { ContainerHostHolder } from "./backend.js";
import { LocalWorkspaceContainerAPI, WorkspaceContainerAPI, type IWorkspaceContainerAPI, type LaunchRecordStorage, type PlatformContainer } from "./api.js";

export { WorkspaceProxy } from "./proxy.js";

export { ContainerBackend, ContainerIgnoreMismatchError, ContainerTransportError, GATEWAY_TOKEN_HEADER } from "./backend.js";
export type { ContainerBackendOptions, ContainerConnectStage, ContainerHostHolder, WorkspaceEgressPolicy } from "./backend.js";
export { LocalWorkspaceContainerAPI, WorkspaceContainerAPI } from "./api.js";
export type {
  ContainerInstanceSize,
  ContainerLaunchSpec,
  ContainerRelay,
  ContainerRuntimeInfo,
  ContainerStatus,
  IWorkspaceContainerAPI,
  LaunchRecordStorage,
  LocalWorkspaceContainerOptions,
  PlatformContainer,
  WorkspaceProxyProps,
  WorkspaceRef,
} from "./api.js";

/** The environment variable naming a local container host (`http://127.0.0.1:8788`) for objects without `ctx.container`. */
export const LOCAL_CONTAINER_HOST_VAR = "COMPUTER_CONTAINER_HOST";

/** What `withWorkspaceContainer` needs of the Durable Object class it extends. */
type DurableObjectLike = new (...args: any[]) => object;

/**
 * Adds `getWorkspaceContainer()` to a Durable Object class (spec 02 §7.1):
 * the container this object schedules, over `ctx.container`
 * ({@link WorkspaceContainerAPI}); or, when the object has no container and
 * `env.COMPUTER_CONTAINER_HOST` names a local container host, over that
 * host ({@link LocalWorkspaceContainerAPI}, one directory per object id) —
 * how `wrangler dev` and the tests run without Docker (docs/container.md).
 *
 * @example
 * ```ts
 * export class Agent extends withWorkspaceContainer(class extends DurableObject<Env> {}) { … }
 * ```
 */
export function withWorkspaceContainer<TBase extends DurableObjectLike>(Base: TBase): TBase & (new (...args: any[]) => ContainerHostHolder) {
  class WithWorkspaceContainer extends Base implements ContainerHostHolder {
    #api: IWorkspaceContainerAPI | undefined;
    /**
     * The container API (memoised).
     * @throws Error when the object has no container and no local host is configured.
     */
    getWorkspaceContainer(): IWorkspaceContainerAPI {
      if (this.#api) return this.#api;
      const self = this as unknown as { ctx: { id: { toString(): string }; container?: PlatformContainer; storage: LaunchRecordStorage; exports?: Record<string, unknown> }; env?: Record<string, unknown> };
      const local = self.env?.[LOCAL_CONTAINER_HOST_VAR];
      if (!self.ctx.container && typeof local === "string" && local !== "") {
        this.#api = new LocalWorkspaceContainerAPI({ hostUrl: local, name: self.ctx.id.toString(), storage: self.ctx.storage });
      } else this.#api = new WorkspaceContainerAPI(self.ctx);
      return this.#api;
    }
  }
  return WithWorkspaceContainer;
}
