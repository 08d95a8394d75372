/**
 * The legacy container object's API (spec 02 §7.2): in the legacy model the
 * container belongs to a separate, platform-scheduled container Durable
 * Object class (mixed with `withLegacyWorkspaceContainer`), not to the object
 * that owns the Workspace. {@link LegacyWorkspaceContainerAPI} is an
 * `RpcTarget` over that object's container, so `LegacyContainerBackend` in
 * the Workspace's object drives it over Workers RPC.
 *
 * @module
 */
import { RpcTargetBase } from "../../do/rpc-target.js";
import { spliceSockets } from "../container/connector.js";
import {
  LocalWorkspaceContainerAPI,
  WorkspaceContainerAPI,
  type ContainerLaunchSpec,
  type ContainerRuntimeInfo,
  type ContainerStatus,
  type IWorkspaceContainerAPI,
  type LaunchRecordStorage,
  type PlatformContainer,
  type WorkspaceProxyProps,
} from "../container/api.js";

/**
 * What `LegacyContainerBackend` calls on the container object's API (over
 * Workers RPC): the operations of `IWorkspaceContainerAPI` — with values that
 * cross RPC (plain objects, `Request`/`Response`) — plus the two local
 * development calls that stand in for the platform's interception.
 */
export interface ILegacyWorkspaceContainerAPI {
  /** Starts the container, or adopts a running one launched with the same spec, or relaunches one with another. */
  start(spec: ContainerLaunchSpec): Promise<ContainerRuntimeInfo>;
  /** Stops the container and launches it again with `spec`. */
  restart(spec: ContainerLaunchSpec): Promise<ContainerRuntimeInfo>;
  /** How long the container may sit idle before the platform stops it (ms). */
  setInactivityTimeout(ms: number): Promise<void>;
  /** Whether it runs, and which run it is. */
  status(): Promise<ContainerStatus>;
  /** How the last run ended, when it did. */
  exitInfo(): Promise<{ exitCode?: number; signal?: string; error?: string } | undefined>;
  /** Routes the container's HTTP to `host` to the Workspace's object named by `target` (through `WorkspaceProxy`). */
  interceptOutboundHttp(host: string, target: WorkspaceProxyProps): Promise<void>;
  /** Routes all of the container's outbound HTTP to the Workspace's object (egress `http-gateway`). */
  interceptAllOutboundHttp(target: WorkspaceProxyProps): Promise<void>;
  /** Sends `request` to a TCP port of the container. */
  fetchPort(port: number, request: Request): Promise<Response>;
  /**
   * Local development only: the relay URL the daemon should dial instead of
   * `http://<egressHost>/api`; `undefined` on the platform (its interception routes the dial-back).
   */
  relayUrl(): Promise<string | undefined>;
  /**
   * Local development only: opens the other end of the relay `url` (from
   * {@link relayUrl}, once) and sends the daemon's upgrade where
   * `interceptOutboundHttp` routed the egress host — `WorkspaceProxy` to the
   * Workspace's object, whose `fetch` hands it to the backend — then pipes
   * the two sockets, as the platform's interception would.
   */
  forwardRelay(url: string): Promise<void>;
}

/** What the legacy container object passes: its `ctx` (id, container, storage, exports). */
export interface LegacyContainerContext {
  /** The container object's id; names its local container. */
  id: { toString(): string };
  /** The platform's container (a container-enabled Durable Object class). */
  container?: PlatformContainer;
  /** Where the launch record is kept. */
  storage: LaunchRecordStorage;
  /** The Worker's exports: `WorkspaceProxy` must be among them. */
  exports?: Record<string, unknown>;
}

/** How many relay URLs handed out by `relayUrl()` are remembered until forwarded. */
const MAX_PENDING_RELAYS = 8;

/**
 * `ILegacyWorkspaceContainerAPI` as an `RpcTarget` (spec 02 §7.2), over the
 * container object's `ctx.container` (platform) or, when it has none and a
 * local container host URL is given, over that host (local development
 * without Docker: container/local-host.mjs). `withLegacyWorkspaceContainer`
 * makes one per object.
 */
export class LegacyWorkspaceContainerAPI extends RpcTargetBase implements ILegacyWorkspaceContainerAPI {
  readonly #inner: IWorkspaceContainerAPI;
  readonly #exports: Record<string, unknown> | undefined;
  #intercept: { host: string; target: WorkspaceProxyProps } | undefined;
  readonly #relays = new Map<string, () => Promise<Response>>();

  /**
   * @param ctx the container object's state (`this.ctx`).
   * @param localHost the local container host's URL (`env.COMPUTER_CONTAINER_HOST`), used only when `ctx.container` is absent.
   * @throws Error when the object has neither a container nor a local host; TypeError for a bad `localHost`.
   */
  constructor(ctx: LegacyContainerContext, localHost?: string) {
    super();
    this.#exports = ctx.exports;
    if (!ctx.container && typeof localHost === "string" && localHost !== "") {
      this.#inner = new LocalWorkspaceContainerAPI({ hostUrl: localHost, name: ctx.id.toString(), storage: ctx.storage });
    } else if (!ctx.container) {
      throw new Error(
        "this container Durable Object has no container (ctx.container): give its class a containers entry in wrangler config, or, for local development without Docker, set COMPUTER_CONTAINER_HOST to a local container host's URL (docs/container.md)",
      );
    } else this.#inner = new WorkspaceContainerAPI(ctx);
  }

  /** Starts, adopts or relaunches the container (the launch record is in this object's storage). */
  start(spec: ContainerLaunchSpec): Promise<ContainerRuntimeInfo> {
    return this.#inner.start(spec);
  }

  /** Stops the container and launches it again. */
  restart(spec: ContainerLaunchSpec): Promise<ContainerRuntimeInfo> {
    return this.#inner.restart(spec);
  }

  /** Sets the idle timeout (ms); nothing locally. */
  setInactivityTimeout(ms: number): Promise<void> {
    return this.#inner.setInactivityTimeout(ms);
  }

  /** Whether the container runs, and its run id. */
  status(): Promise<ContainerStatus> {
    return this.#inner.status();
  }

  /** How the last run ended; `undefined` while it runs. */
  exitInfo(): Promise<{ exitCode?: number; signal?: string; error?: string } | undefined> {
    return this.#inner.exitInfo();
  }

  /** Routes the container's HTTP to `host` to `ctx.exports.WorkspaceProxy({ props: target })` (recorded for the local relay). */
  async interceptOutboundHttp(host: string, target: WorkspaceProxyProps): Promise<void> {
    await this.#inner.interceptOutboundHttp(host, target);
    this.#intercept = { host, target: { ...target } };
  }

  /** Routes all its outbound HTTP to the Workspace's object; refused locally (needs the platform). */
  interceptAllOutboundHttp(target: WorkspaceProxyProps): Promise<void> {
    return this.#inner.interceptAllOutboundHttp(target);
  }

  /** Sends `request` to the container's `port`. */
  fetchPort(port: number, request: Request): Promise<Response> {
    return this.#inner.fetchPort(port, request);
  }

  /** Local development: a fresh relay URL for the daemon's dial-back; `undefined` on the platform. */
  async relayUrl(): Promise<string | undefined> {
    const relay = await this.#inner.relay?.();
    if (!relay || !("open" in relay)) return undefined;
    if (this.#relays.size >= MAX_PENDING_RELAYS) this.#relays.delete(this.#relays.keys().next().value as string);
    this.#relays.set(relay.url, relay.open);
    return relay.url;
  }

  /** Local development: routes the relay's other end to the Workspace's object through `WorkspaceProxy`. @throws Error for an unknown relay, no interception, or a refused session. */
  async forwardRelay(url: string): Promise<void> {
    const open = this.#relays.get(url);
    if (!open) throw new Error(`forwardRelay: ${JSON.stringify(url)} is not a relay this container object handed out (call relayUrl() first; each is forwarded once)`);
    this.#relays.delete(url);
    const intercept = this.#intercept;
    if (!intercept) throw new Error("forwardRelay: nothing routes the egress host yet: call interceptOutboundHttp(egressHost, workspace) first");
    const factory = this.#exports?.WorkspaceProxy as ((o: { props: WorkspaceProxyProps }) => { fetch(request: Request): Promise<Response> }) | undefined;
    if (typeof factory !== "function") {
      throw new Error('ctx.exports.WorkspaceProxy is missing: re-export WorkspaceProxy from your Worker\'s main module (export { WorkspaceProxy } from "agent-computer/backends/container")');
    }
    const opened = await open();
    const remote = (opened as Response & { webSocket?: WebSocket | null }).webSocket;
    if (opened.status !== 101 || !remote) throw new Error(`the local relay answered HTTP ${opened.status}`);
    const authorization = opened.headers.get("x-relay-authorization");
    const answer = await factory({ props: intercept.target }).fetch(
      new Request(`http://${intercept.host}/api`, { headers: { Upgrade: "websocket", ...(authorization !== null ? { Authorization: authorization } : {}) } }),
    );
    spliceSockets(remote, answer);
  }
}
