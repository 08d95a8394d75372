/**
 * `LegacyContainerBackend` (spec 02 §7.2, deprecated): the container backend
 * of the platform-scheduled model. The container belongs to a separate
 * container Durable Object (a class mixed with
 * `withLegacyWorkspaceContainer`, scheduled by the platform from its
 * wrangler `containers` entry); `container()` returns that object (its stub)
 * and the backend drives it over Workers RPC. Connect stages, `handleFetch`,
 * the sync bracket and reconnects are `ContainerBackend`'s
 * (`../container/connector.ts`). No `description`: the exec tool gives it
 * its generic line.
 *
 * @module
 */
import type { BackendHandle, WorkspaceBackendHost, WorkspaceCommandBackend } from "../../runtime/types.js";
import type { ContainerLaunchSpec, IWorkspaceContainerAPI, WorkspaceRef } from "../container/api.js";
import { ContainerConnector, containerSettings } from "../container/connector.js";
import type { WorkspaceEgressPolicy } from "../worker-shell/types.js";
import type { ILegacyWorkspaceContainerAPI } from "./api.js";

/** Options of {@link LegacyContainerBackend} (spec 02 §7.2; defaults as `ContainerBackend`'s, §7.1). */
export interface LegacyContainerBackendOptions {
  /**
   * Returns the container object: usually its stub,
   * `() => env.SANDBOX.get(env.SANDBOX.idFromName(this.ctx.id.toString()))`, whose
   * class is mixed with `withLegacyWorkspaceContainer`. Called on every connect. Required.
   */
  container: () => { getWorkspaceContainer(): ILegacyWorkspaceContainerAPI | PromiseLike<ILegacyWorkspaceContainerAPI> };
  /** The Durable Object that owns the Workspace (this object), where the container's HTTP to `egressHost` is routed. Required. */
  workspace: WorkspaceRef;
  /** Host name the daemon dials back to (routed to the Workspace's object). Default `"computer.internal"`. */
  egressHost?: string;
  /**
   * Default `{ mode: "none" }`. `direct`: the container reaches the internet
   * itself. `http-gateway`: all its outbound HTTP is routed to the Workspace's
   * object and sent to `gateway` (a `Fetcher`), which decides.
   */
  egress?: WorkspaceEgressPolicy;
  /** The daemon's port in the container: an integer 1 to 65535, else TypeError. Default 8080. */
  containerPort?: number;
  /** Names non-empty with no `=` or NUL, values strings, else TypeError. Merged over `{ PORT, MOUNT_POINT: "/workspace" }`; the caller wins. Default none. */
  containerEnv?: Record<string, string>;
  /** Budget of one connect (ms). Default 30000. */
  connectTimeoutMs?: number;
  /** Interval of the session heartbeat (ms); 0 turns it off. Default 20000. */
  heartbeatIntervalMs?: number;
  /** Container restarts when health probes fail. Default 1. */
  restartAttempts?: number;
  /** Timeout of one health probe (ms). Default 2000. */
  healthProbeTimeoutMs?: number;
  /** First pause between health probes (ms), doubling. Default 250. */
  healthRetryInitialDelayMs?: number;
  /** Longest pause between health probes (ms). Default 2000. */
  healthRetryMaxDelayMs?: number;
  /** Backend id. Default `"container-shell"`. */
  id?: string;
}

/** `ContainerBackend` options the legacy backend does not have, and why. */
const NOT_LEGACY: Record<string, string> = {
  ignore: "the legacy backend syncs everything under /workspace; use ContainerBackend for ignore globs",
  name: "the container object's wrangler containers entry chooses the image",
  instance: "the container object's wrangler containers entry chooses the instance type",
  launch: "the container object's wrangler containers entry chooses how the container starts",
};

/**
 * A command backend in a Linux container that a separate, platform-scheduled
 * container Durable Object owns (`type "cloudflare-container"`, id
 * `"container-shell"`; spec 02 §7.2, deprecated: use `ContainerBackend`,
 * where the Workspace's object schedules its own container).
 *
 * @example
 * ```ts
 * export class Sandbox extends withLegacyWorkspaceContainer(class extends DurableObject<Env> {}) {}
 * export class Agent extends DurableObject<Env> {
 *   backend = new LegacyContainerBackend({
 *     container: () => this.env.SANDBOX.get(this.env.SANDBOX.idFromName(this.ctx.id.toString())),
 *     workspace: { binding: "AGENT", id: this.ctx.id.toString() },
 *   });
 *   workspace = new Workspace({ storage: this.ctx.storage, backends: [this.backend] });
 *   fetch(request: Request) { return this.backend.handleFetch(request); }
 * }
 * export { WorkspaceProxy } from "agent-computer/backends/container";
 * ```
 */
export class LegacyContainerBackend implements WorkspaceCommandBackend {
  /** Always `"command"`. */
  readonly protocol = "command" as const;
  /** Default `"container-shell"`. */
  readonly id: string;
  /** Always `"cloudflare-container"`. */
  readonly type = "cloudflare-container";
  /** Not callable: commands only. */
  readonly callable = false;

  readonly #container: LegacyContainerBackendOptions["container"];
  readonly #connector: ContainerConnector;

  /**
   * @throws TypeError for a missing `container`/`workspace`, a bad number, egress mode,
   * `egressHost` or `containerEnv`, and for `ContainerBackend`-only options (`ignore`, `name`, `instance`, `launch`).
   */
  constructor(options: LegacyContainerBackendOptions) {
    if (!options || typeof options !== "object") throw new TypeError("new LegacyContainerBackend(options): options must be an object");
    if (typeof options.container !== "function") {
      throw new TypeError("new LegacyContainerBackend({ container }): container must be a function returning the container object (e.g. () => env.SANDBOX.get(id))");
    }
    for (const key of Object.keys(NOT_LEGACY)) {
      if ((options as unknown as Record<string, unknown>)[key] !== undefined) throw new TypeError(`new LegacyContainerBackend({ ${key} }): not an option of LegacyContainerBackend: ${NOT_LEGACY[key]}`);
    }
    if (options.id !== undefined && (typeof options.id !== "string" || options.id === "")) throw new TypeError(`new LegacyContainerBackend({ id }): id must be a non-empty string, got ${JSON.stringify(options.id)}`);
    this.#container = options.container;
    this.#connector = new ContainerConnector(containerSettings(options, "LegacyContainerBackend", { ignore: false }));
    this.id = options.id ?? "container-shell";
  }

  /** The launch spec sent to the container object (env: `PORT`, `MOUNT_POINT`, then `containerEnv`). */
  launchSpec(): ContainerLaunchSpec {
    return this.#connector.launchSpec();
  }

  /**
   * The Workspace object's `fetch` hands requests here (as
   * `ContainerBackend.handleFetch`): gateway-token requests → the gateway; a
   * path other than `/api` → 404; not a WebSocket upgrade → 400; a wrong
   * bearer → 401; no connect waiting → 409; else 101, the daemon's session.
   */
  handleFetch(request: Request): Promise<Response> {
    return this.#connector.handleFetch(request);
  }

  /**
   * Connects through the container object's API, in `ContainerBackend`'s
   * stages (`start`, `egress`, `health`, `restart`, `auth`, `connect`, `ws`).
   * @throws ContainerTransportError naming the stage.
   */
  async connect(_host: WorkspaceBackendHost): Promise<BackendHandle> {
    let remote: ILegacyWorkspaceContainerAPI | undefined;
    try {
      return await this.#connector.connect(async () => toContainerAPI((remote = await this.#container().getWorkspaceContainer())));
    } finally {
      // An RPC stub is released once connected: the session no longer needs the container object.
      (remote as Partial<Disposable> | undefined)?.[Symbol.dispose]?.();
    }
  }
}

/** The connector's view of the container object's API; the local relay is forwarded by the container object. */
function toContainerAPI(remote: ILegacyWorkspaceContainerAPI): IWorkspaceContainerAPI {
  return {
    start: (spec) => remote.start(spec),
    restart: (spec) => remote.restart(spec),
    setInactivityTimeout: (ms) => remote.setInactivityTimeout(ms),
    status: () => remote.status(),
    exitInfo: () => remote.exitInfo(),
    interceptOutboundHttp: (host, target) => remote.interceptOutboundHttp(host, target),
    interceptAllOutboundHttp: (target) => remote.interceptAllOutboundHttp(target),
    fetchPort: (port, request) => remote.fetchPort(port, request),
    relay: async () => {
      const url = await remote.relayUrl();
      return typeof url === "string" ? { url, forward: () => remote.forwardRelay(url) } : undefined;
    },
  };
}
