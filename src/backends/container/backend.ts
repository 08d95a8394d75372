/**
 * `ContainerBackend` (spec 02 §7.1): shell commands in a Linux container the
 * Durable Object schedules, run by the `computerd` daemon of `container/`,
 * with the Workspace's `/workspace` synced in and out around each command
 * (§7.3, `runtime/sync.ts`). The connect stages, `handleFetch` and the
 * heartbeat live in `connector.ts` (shared with `LegacyContainerBackend`).
 *
 * @module
 */
import type { BackendHandle, WorkspaceBackendHost, WorkspaceCommandBackend } from "../../runtime/types.js";
import type { ContainerInstanceSize, ContainerLaunchSpec, IWorkspaceContainerAPI, WorkspaceRef } from "./api.js";
import type { WorkspaceEgressPolicy } from "../worker-shell/types.js";
import { ContainerConnector, containerSettings } from "./connector.js";

export type { WorkspaceEgressPolicy };
export { ContainerIgnoreMismatchError, ContainerTransportError, GATEWAY_TOKEN_HEADER, type ContainerConnectStage } from "./connector.js";

/** Whatever `container()` returns: an object with `getWorkspaceContainer()` (see `withWorkspaceContainer`). */
export interface ContainerHostHolder {
  /** The container this holder schedules (`withWorkspaceContainer` adds it). */
  getWorkspaceContainer(): IWorkspaceContainerAPI;
}

/** Options of {@link ContainerBackend} (spec 02 §7.1). */
export interface ContainerBackendOptions {
  /** Returns the holder of the container (usually the Durable Object itself: `() => this`); called on every connect. Required. */
  container: () => ContainerHostHolder;
  /** The Durable Object that owns the Workspace, for routing the container's HTTP back to it. Required. */
  workspace: WorkspaceRef;
  /**
   * Default `{ mode: "none" }`. `direct`: the container reaches the internet
   * itself. `http-gateway`: all its outbound HTTP is routed to this object
   * and sent to `gateway` (a `Fetcher`, e.g. a service binding), which decides.
   */
  egress?: WorkspaceEgressPolicy;
  /** Host name the daemon dials back to (routed to this object). Default `"computer.internal"`. */
  egressHost?: string;
  /** The daemon's port in the container. Default 8080. */
  containerPort?: number;
  /** Merged over `{ PORT, MOUNT_POINT: "/workspace", MOUNT_IGNORE? }`; the caller wins. Default none. */
  containerEnv?: Record<string, string>;
  /** Budget of one connect (ms). Default 30000. */
  connectTimeoutMs?: number;
  /** Interval of the session heartbeat (ms); 0 turns it off. Default 20000. */
  heartbeatIntervalMs?: number;
  /**
   * Container paths the sync leaves alone (both ways), as globs on
   * container-absolute paths: each starts with `/` or `**\/` (optionally
   * after `!`, which re-includes), without `{}[]?\()|`, at most 4096
   * characters. Default none. Example: `["**\/node_modules", "/workspace/.cache"]`.
   */
  ignore?: string[];
  /** Container restarts when health probes fail. Default 1. */
  restartAttempts?: number;
  /** Timeout of one health probe (ms). Default 2000. */
  healthProbeTimeoutMs?: number;
  /** First pause between health probes (ms), doubling. Default 250. */
  healthRetryInitialDelayMs?: number;
  /** Longest pause between health probes (ms). Default 2000. */
  healthRetryMaxDelayMs?: number;
  /** Image key. Default `"app"`. */
  name?: string;
  /** Instance size. Default: the platform's. */
  instance?: ContainerInstanceSize;
  /** Other start options, passed through to the platform. Default: none. */
  launch?: Record<string, unknown>;
  /** Backend id. Default `"container-shell"`. */
  id?: string;
}

const DESCRIPTION_BASE =
  "Runs shell commands in a full Linux container that shares the workspace files under /workspace: npm, node, python, package managers, test runners and native binaries all work.";
const DESCRIPTION_SLOW = "It starts much more slowly than the in-Worker backends, so prefer them for quick work.";
const NETWORK_SENTENCE: Record<WorkspaceEgressPolicy["mode"], string> = {
  direct: "It has network access.",
  "http-gateway": "Outbound HTTP goes through a gateway the host controls.",
  none: "It has no network access.",
};

/**
 * A command backend in a Linux container scheduled by the Durable Object
 * (`type "cloudflare-container"`, id `"container-shell"`; spec 02 §7).
 *
 * @example
 * ```ts
 * class Agent extends withWorkspaceContainer(class extends DurableObject<Env> {}) {
 *   backend = new ContainerBackend({ container: () => this, workspace: { binding: "Agent", id: this.ctx.id.toString() } });
 *   workspace = new Workspace({ storage: this.ctx.storage, backends: [this.backend] });
 *   fetch(request: Request) { return this.backend.handleFetch(request); }
 * }
 * ```
 */
export class ContainerBackend implements WorkspaceCommandBackend {
  /** Always `"command"`. */
  readonly protocol = "command" as const;
  /** Default `"container-shell"`. */
  readonly id: string;
  /** Always `"cloudflare-container"`. */
  readonly type = "cloudflare-container";
  /** Not callable: commands only. */
  readonly callable = false;
  /** What the exec tool tells the model: full Linux, the network sentence for the egress mode, slow start. */
  readonly description: string;

  readonly #container: () => ContainerHostHolder;
  readonly #connector: ContainerConnector;

  /** @throws TypeError for a missing `container`/`workspace`, a bad number, egress mode, `egressHost`, `containerEnv` or ignore glob. */
  constructor(options: ContainerBackendOptions) {
    if (!options || typeof options !== "object") throw new TypeError("new ContainerBackend(options): options must be an object");
    if (typeof options.container !== "function") throw new TypeError("new ContainerBackend({ container }): container must be a function returning the holder (e.g. () => this)");
    this.#container = options.container;
    this.#connector = new ContainerConnector(containerSettings(options, "ContainerBackend", { ignore: true }));
    this.id = options.id ?? "container-shell";
    this.description = `${DESCRIPTION_BASE} ${NETWORK_SENTENCE[this.#connector.settings.egress.mode]} ${DESCRIPTION_SLOW}`;
  }

  /** The launch spec of this backend's container (env: `PORT`, `MOUNT_POINT`, `MOUNT_IGNORE`, then `containerEnv`). */
  launchSpec(): ContainerLaunchSpec {
    return this.#connector.launchSpec();
  }

  /**
   * The Durable Object's `fetch` hands requests here (spec 02 §7.1):
   * gateway-token requests → the gateway (`http-gateway`: `egress.gateway.fetch`;
   * a non-http(s) URL → 400); a path other than `/api` →
   * 404; not a WebSocket upgrade → 400; a wrong bearer → 401; no connect
   * waiting for the daemon → 409; else 101, the daemon's session.
   */
  handleFetch(request: Request): Promise<Response> {
    return this.#connector.handleFetch(request);
  }

  /**
   * Connects in stages (`start`, `egress`, `health`, `restart`, `auth`,
   * `connect`, `ws`; connector.ts), calling `container()` anew each time.
   * @throws ContainerTransportError naming the stage; ContainerIgnoreMismatchError.
   */
  connect(_host: WorkspaceBackendHost): Promise<BackendHandle> {
    return this.#connector.connect(() => this.#container().getWorkspaceContainer());
  }
}
