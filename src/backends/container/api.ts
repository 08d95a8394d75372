/**
 * The container a Durable Object schedules (spec 02 §7.1): the
 * {@link IWorkspaceContainerAPI} `ContainerBackend` drives, over the
 * platform's `ctx.container` ({@link WorkspaceContainerAPI}) or, for local
 * development without Docker, over the local container host of
 * `container/local-host.mjs` ({@link LocalWorkspaceContainerAPI}).
 *
 * @module
 */

/** Instance sizes of Cloudflare Containers. */
export type ContainerInstanceSize = "lite" | "basic" | "standard-1" | "standard-2" | "standard-3" | "standard-4" | (string & {});

/** What a container is launched with; a running one is adopted only when this is the same. */
export interface ContainerLaunchSpec {
  /** Image key (`containers[].name` / `images` key). Default `"app"`. */
  name: string;
  /** Environment of the container's entrypoint (the daemon reads `PORT`, `MOUNT_POINT`, `MOUNT_IGNORE`). */
  env: Record<string, string>;
  /** Whether the container may reach the internet (egress mode `direct`). */
  enableInternet: boolean;
  /** Instance size; absent: the platform's default. */
  instance?: ContainerInstanceSize;
  /** Other start options, passed through to the platform. */
  launch?: Record<string, unknown>;
}

/** The outcome of {@link IWorkspaceContainerAPI.start}. */
export interface ContainerRuntimeInfo {
  /** Identifies this run of the container (new after every launch). */
  runtimeId: string;
  /** The daemon's bearer secret (its `COMPUTERD_SECRET`), kept across adoption. */
  clientSecret: string;
  /** `launched`: nothing was running; `adopted`: a running container with the same spec was kept; `relaunched`: a running one with another spec was replaced. */
  outcome: "launched" | "adopted" | "relaunched";
}

/** Where intercepted container HTTP goes: the Durable Object that owns the Workspace, through `WorkspaceProxy`. */
export interface WorkspaceRef {
  /** The Durable Object namespace binding's name in `env` (e.g. `"Agent"`). */
  binding: string;
  /** The object's id (`ctx.id.toString()`). */
  id: string;
  /** The object's name, when it was made with `idFromName`. */
  name?: string;
}

/** Props of `WorkspaceProxy`: the object to forward to, and the gateway token tagging all-outbound traffic. */
export interface WorkspaceProxyProps extends WorkspaceRef {
  /** Set for `http-gateway` egress: requests carry it so `handleFetch` sends them to the gateway. */
  gatewayToken?: string;
}

/** Status of the container. */
export interface ContainerStatus {
  /** Whether the container runs. */
  running: boolean;
  /** Its run id (from the launch record), when it runs. */
  runtimeId?: string;
}

/**
 * The container control surface `ContainerBackend` needs from its holder
 * (`container: () => holder`, `holder.getWorkspaceContainer()`).
 */
export interface IWorkspaceContainerAPI {
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
  /** Routes the container's HTTP to `host` to the Workspace's object (`WorkspaceProxy`). */
  interceptOutboundHttp(host: string, target: WorkspaceProxyProps): Promise<void>;
  /** Routes all of the container's outbound HTTP to the Workspace's object (egress `http-gateway`). */
  interceptAllOutboundHttp(target: WorkspaceProxyProps): Promise<void>;
  /** Sends `request` to a TCP port of the container. */
  fetchPort(port: number, request: Request): Promise<Response>;
  /**
   * Local development only: where the daemon's `POST /connect` should dial
   * instead of `http://<egressHost>/api` (which only the platform's
   * interception can route), and how its other end reaches the backend.
   * Absent, or `undefined`, on the platform.
   */
  relay?(): ContainerRelay | undefined | Promise<ContainerRelay | undefined>;
}

/**
 * Local development: the relay socket pair (container/local-host.mjs) that
 * stands in for the platform's interception of the daemon's dial-back.
 * `url` is what the daemon dials. Then either `open()` gives the other end
 * (a 101 with a WebSocket and `x-relay-authorization`) and the backend hands
 * it to its own `handleFetch`, or `forward()` has the holder route it to the
 * Workspace's object through `WorkspaceProxy` — as the platform's interception
 * would (the legacy container object does this).
 */
export type ContainerRelay =
  | {
      /** The URL the daemon dials. */
      url: string;
      /** Gives the other end: a 101 response with a WebSocket and `x-relay-authorization`, for the backend's `handleFetch`. */
      open(): Promise<Response>;
    }
  | {
      /** The URL the daemon dials. */
      url: string;
      /** Has the holder route the daemon's connection to the Workspace's object through `WorkspaceProxy`. */
      forward(): Promise<void>;
    };

/** The platform's `ctx.container` (Durable Object container API), as far as this library uses it. */
export interface PlatformContainer {
  /** Whether the container runs (not whether it is ready). */
  readonly running: boolean;
  /** Boots the container; does not wait for it. */
  start(options?: {
    /** Its environment. Default: the image's. */
    env?: Record<string, string>;
    /** Internet access. Default: the platform's. */
    enableInternet?: boolean;
    /** The command to run. Default: the image's. */
    entrypoint?: string[];
    [key: string]: unknown;
  }): void;
  /** Stops it. */
  destroy(reason?: unknown): Promise<void>;
  /** Settles when it stops (rejects when it failed). */
  monitor(): Promise<void>;
  /** A TCP port of the container, for `fetch`. */
  getTcpPort(port: number): { fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> };
  /** How long it may sit idle (ms). */
  setInactivityTimeout?(ms: number): Promise<void> | void;
  /** Routes its HTTP to `host` to an entrypoint (`ctx.exports.X({ props })`). */
  interceptOutboundHttp?(host: string, target: unknown): Promise<void> | void;
  /** Routes all its outbound HTTP to an entrypoint. */
  interceptAllOutboundHttp?(target: unknown): Promise<void> | void;
}

/** Where a holder keeps the launch record (the Durable Object's storage). */
export interface LaunchRecordStorage {
  /** The value stored under `key`, or `undefined`. */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores `value` under `key`. */
  put<T>(key: string, value: T): Promise<void>;
}

const RECORD_KEY = "agent-computer:container-launch";

interface LaunchRecord {
  spec: string;
  secret: string;
  runtimeId: string;
}

function sameSpec(spec: ContainerLaunchSpec): string {
  return JSON.stringify(sortKeys(spec));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) => (c === "+" ? "-" : c === "/" ? "_" : ""));
}

/**
 * Start / adopt / relaunch bookkeeping shared by both APIs: the record of
 * the last launch (its spec, secret and run id) lives in the holder's storage.
 */
abstract class LaunchBook implements IWorkspaceContainerAPI {
  /** Where the launch record is kept. */
  protected readonly storage: LaunchRecordStorage;
  constructor(storage: LaunchRecordStorage) {
    this.storage = storage;
  }
  /** Whether the container runs now. */
  protected abstract isRunning(): Promise<boolean>;
  /** Launches it with `spec` and the daemon secret; returns the new run id. */
  protected abstract launch(spec: ContainerLaunchSpec, secret: string): Promise<string>;
  /** Stops it (waits until it stopped). */
  protected abstract stop(): Promise<void>;
  abstract setInactivityTimeout(ms: number): Promise<void>;
  abstract exitInfo(): Promise<{ exitCode?: number; signal?: string; error?: string } | undefined>;
  abstract interceptOutboundHttp(host: string, target: WorkspaceProxyProps): Promise<void>;
  abstract interceptAllOutboundHttp(target: WorkspaceProxyProps): Promise<void>;
  abstract fetchPort(port: number, request: Request): Promise<Response>;

  async start(spec: ContainerLaunchSpec): Promise<ContainerRuntimeInfo> {
    const record = await this.storage.get<LaunchRecord>(RECORD_KEY);
    const key = sameSpec(spec);
    if (await this.isRunning()) {
      if (record && record.spec === key) return { runtimeId: record.runtimeId, clientSecret: record.secret, outcome: "adopted" };
      await this.stop();
      return { ...(await this.#launch(spec, key)), outcome: "relaunched" };
    }
    return { ...(await this.#launch(spec, key)), outcome: "launched" };
  }

  async restart(spec: ContainerLaunchSpec): Promise<ContainerRuntimeInfo> {
    if (await this.isRunning()) await this.stop();
    return { ...(await this.#launch(spec, sameSpec(spec))), outcome: "relaunched" };
  }

  async status(): Promise<ContainerStatus> {
    const running = await this.isRunning();
    const record = await this.storage.get<LaunchRecord>(RECORD_KEY);
    return running && record ? { running, runtimeId: record.runtimeId } : { running };
  }

  async #launch(spec: ContainerLaunchSpec, key: string): Promise<{ runtimeId: string; clientSecret: string }> {
    const secret = newSecret();
    const runtimeId = await this.launch(spec, secret);
    await this.storage.put<LaunchRecord>(RECORD_KEY, { spec: key, secret, runtimeId });
    return { runtimeId, clientSecret: secret };
  }
}

/**
 * {@link IWorkspaceContainerAPI} over the platform's `ctx.container` of a
 * container-enabled Durable Object (`scheduling_policy: "durable_object"`).
 * Outbound interception uses `ctx.exports.WorkspaceProxy` — re-export
 * `WorkspaceProxy` from your Worker's main module.
 */
export class WorkspaceContainerAPI extends LaunchBook {
  readonly #container: PlatformContainer;
  readonly #exports: Record<string, unknown> | undefined;

  /** @param ctx the Durable Object's state (`this.ctx`): its `container`, `storage` and `exports`. */
  constructor(ctx: { container?: PlatformContainer; storage: LaunchRecordStorage; exports?: Record<string, unknown> }) {
    super(ctx.storage);
    if (!ctx.container) {
      throw new Error(
        "this Durable Object has no container (ctx.container): add a containers entry with scheduling_policy \"durable_object\" to wrangler config, or, for local development without Docker, use LocalWorkspaceContainerAPI (docs/container.md)",
      );
    }
    this.#container = ctx.container;
    this.#exports = ctx.exports;
  }

  /** Whether the container runs now. */
  protected async isRunning(): Promise<boolean> {
    return this.#container.running;
  }

  /** Launches the container with `spec`, the secret as `COMPUTERD_SECRET`; returns a new run id. */
  protected async launch(spec: ContainerLaunchSpec, secret: string): Promise<string> {
    this.#container.start({ ...(spec.launch ?? {}), ...(spec.instance !== undefined ? { instanceType: spec.instance } : {}), env: { ...spec.env, COMPUTERD_SECRET: secret }, enableInternet: spec.enableInternet });
    return crypto.randomUUID();
  }

  /** Stops the container. */
  protected async stop(): Promise<void> {
    await this.#container.destroy();
  }

  /** Sets the idle timeout (ms). */
  async setInactivityTimeout(ms: number): Promise<void> {
    await this.#container.setInactivityTimeout?.(ms);
  }

  /** How the last run ended; `undefined` while it runs. */
  async exitInfo(): Promise<{ exitCode?: number; error?: string } | undefined> {
    if (this.#container.running) return undefined;
    try {
      await this.#container.monitor();
      return { exitCode: 0 };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  #proxy(target: WorkspaceProxyProps): unknown {
    const factory = this.#exports?.WorkspaceProxy as ((o: { props: WorkspaceProxyProps }) => unknown) | undefined;
    if (typeof factory !== "function") {
      throw new Error("ctx.exports.WorkspaceProxy is missing: re-export WorkspaceProxy from your Worker's main module (export { WorkspaceProxy } from \"agent-computer/backends/container\")");
    }
    return factory({ props: target });
  }

  /** Routes the container's HTTP to `host` to `ctx.exports.WorkspaceProxy({ props: target })`. */
  async interceptOutboundHttp(host: string, target: WorkspaceProxyProps): Promise<void> {
    if (!this.#container.interceptOutboundHttp) throw new Error("ctx.container.interceptOutboundHttp is not available (compatibility date or flags too old)");
    await this.#container.interceptOutboundHttp(host, this.#proxy(target));
  }

  /** Routes all its outbound HTTP to `ctx.exports.WorkspaceProxy({ props: target })`. */
  async interceptAllOutboundHttp(target: WorkspaceProxyProps): Promise<void> {
    if (!this.#container.interceptAllOutboundHttp) throw new Error("ctx.container.interceptAllOutboundHttp is not available (compatibility date or flags too old)");
    await this.#container.interceptAllOutboundHttp(this.#proxy(target));
  }

  /** Sends `request` to the container's `port` (`ctx.container.getTcpPort`). */
  async fetchPort(port: number, request: Request): Promise<Response> {
    return this.#container.getTcpPort(port).fetch(request);
  }
}

/** Options of {@link LocalWorkspaceContainerAPI}. */
export interface LocalWorkspaceContainerOptions {
  /** The local container host's URL (`node container/local-host.mjs --port 8788` → `http://127.0.0.1:8788`). */
  hostUrl: string;
  /** This container's name on the host (one directory per name): `[A-Za-z0-9._-]{1,128}`, e.g. the Durable Object's id. */
  name: string;
  /** Where the launch record is kept (the Durable Object's `ctx.storage`). */
  storage: LaunchRecordStorage;
}

/**
 * {@link IWorkspaceContainerAPI} over the local container host
 * (container/local-host.mjs): the same daemon as in the image, run as a
 * local process in `<root>/<name>/workspace`. For `wrangler dev` and tests
 * on machines without Docker; production uses {@link WorkspaceContainerAPI}.
 * Egress interception is not emulated (the daemon reaches the network as
 * the host process does); the daemon's dial-back goes through the host's relay.
 */
export class LocalWorkspaceContainerAPI extends LaunchBook {
  readonly #host: string;
  readonly #name: string;
  #daemon: string | undefined;

  /** @throws TypeError for a bad `hostUrl` or `name`. */
  constructor(options: LocalWorkspaceContainerOptions) {
    super(options.storage);
    let url: URL;
    try {
      url = new URL(options.hostUrl);
    } catch {
      throw new TypeError(`LocalWorkspaceContainerAPI: hostUrl must be an http: URL, got ${JSON.stringify(options.hostUrl)}`);
    }
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(options.name ?? "")) throw new TypeError(`LocalWorkspaceContainerAPI: name must match [A-Za-z0-9._-]{1,128}, got ${JSON.stringify(options.name)}`);
    this.#host = url.href.replace(/\/+$/, "");
    this.#name = options.name;
  }

  async #call<T>(path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.#host}/containers/${this.#name}${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
    } catch (error) {
      throw new Error(
        `the local container host at ${this.#host} is unreachable (${error instanceof Error ? error.message : String(error)}): start it with \`node container/local-host.mjs --port <port>\` and set COMPUTER_CONTAINER_HOST to its URL (docs/container.md)`,
      );
    }
    const text = await response.text();
    if (!response.ok) throw new Error(`local container host: ${path || "status"} answered HTTP ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Whether the container runs now. */
  protected async isRunning(): Promise<boolean> {
    const status = await this.#call<{ state: string; port?: number }>("");
    if (status.state === "running" && status.port !== undefined) this.#daemon = `http://127.0.0.1:${status.port}`;
    return status.state === "running";
  }

  /** Launches the container with `spec`, the secret as `COMPUTERD_SECRET`; returns a new run id. */
  protected async launch(spec: ContainerLaunchSpec, secret: string): Promise<string> {
    // The host picks the port and the directory (<root>/<name>/workspace): the container's PORT and
    // MOUNT_POINT would make every local daemon share one port and this machine's real /workspace.
    const { PORT: _port, HOST: _host, MOUNT_POINT: _mount, ...env } = spec.env;
    const started = await this.#call<{ url: string; pid: number }>("/start", {
      env: { ...env, COMPUTERD_SECRET: secret },
      launch: { name: spec.name, enableInternet: spec.enableInternet, instance: spec.instance ?? null, launch: spec.launch ?? null },
    });
    this.#daemon = started.url;
    return `local-${this.#name}-${started.pid}`;
  }

  /** Stops the container. */
  protected async stop(): Promise<void> {
    await this.#call("/stop", { signal: "SIGTERM" });
  }

  /** Nothing locally: local daemons run until the host stops them. */
  async setInactivityTimeout(_ms: number): Promise<void> {
    // Local daemons run until the host stops them.
  }

  /** How the last run ended (exit code or signal); `undefined` unless it stopped. */
  async exitInfo(): Promise<{ exitCode?: number; signal?: string } | undefined> {
    const status = await this.#call<{ state: string; exitCode?: number; signal?: string }>("");
    if (status.state !== "stopped") return undefined;
    const out: { exitCode?: number; signal?: string } = {};
    if (typeof status.exitCode === "number") out.exitCode = status.exitCode;
    if (typeof status.signal === "string") out.signal = status.signal;
    return out;
  }

  /** Nothing locally: the dial-back goes through {@link relay}. */
  async interceptOutboundHttp(_host: string, _target: WorkspaceProxyProps): Promise<void> {
    // The dial-back goes through relay(); nothing else is intercepted locally.
  }

  /** Refused locally: `http-gateway` needs the platform. @throws Error always. */
  async interceptAllOutboundHttp(_target: WorkspaceProxyProps): Promise<void> {
    throw new Error('egress mode "http-gateway" needs the platform\'s outbound interception; the local container host cannot emulate it (use "none" or "direct" locally)');
  }

  /** Sends `request` to the local daemon's port (the host picked it). @throws Error when it is not running. */
  async fetchPort(_port: number, request: Request): Promise<Response> {
    if (!this.#daemon && !(await this.isRunning())) throw new Error(`local container ${this.#name} is not running`);
    const url = new URL(request.url);
    return fetch(new Request(`${this.#daemon}${url.pathname}${url.search}`, request));
  }

  /** A relay pair on the host: the URL the daemon dials, and how to open the other end. */
  relay(): { url: string; open(): Promise<Response> } {
    const token = crypto.randomUUID();
    const url = `${this.#host.replace(/^http/, "ws")}/relay/${token}`;
    return { url, open: () => fetch(`${this.#host}/relay/${token}`, { headers: { Upgrade: "websocket" } }) };
  }
}
