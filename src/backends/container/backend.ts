/**
 * `ContainerBackend` (spec 02 §7.1): shell commands in a Linux container the
 * Durable Object schedules, run by the `computerd` daemon of `container/`,
 * with the Workspace's `/workspace` synced in and out around each command
 * (§7.3, `runtime/sync.ts`).
 *
 * Connect, in stages (a failure names its stage, {@link ContainerTransportError}):
 * `start` the container (adopting a running one with the same launch spec) →
 * `egress`: route its HTTP to `egressHost` (and, for `http-gateway`, all its
 * HTTP) to this object → `health`: probe `/health` with backoff, restarting
 * the container up to `restartAttempts` times (`restart`) → `auth`: an
 * unauthenticated `/api` must be refused with 401 → `connect`: `POST
 * /connect` asks the daemon to dial back → `ws`: its WebSocket arrives
 * through {@link ContainerBackend.handleFetch} → a capnweb session, a
 * heartbeat, and a check that the daemon applies the configured `ignore`.
 *
 * @module
 */
import { newWebSocketRpcSession } from "capnweb";
import type { BackendHandle, WorkspaceBackendHost, WorkspaceCommandBackend } from "../../runtime/types.js";
import { daemonHandle, type DaemonApi } from "../daemon/handle.js";
import type { ContainerInstanceSize, ContainerLaunchSpec, IWorkspaceContainerAPI, WorkspaceRef } from "./api.js";
import type { WorkspaceEgressPolicy } from "../worker-shell/types.js";

export type { WorkspaceEgressPolicy };

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
   * after `!`, which re-includes), without `{}[]?\`, at most 4096
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

/** The stages of a connect (spec 02 §7.1). */
export type ContainerConnectStage = "start" | "egress" | "health" | "restart" | "auth" | "connect" | "ws";

/** A connect that failed at `stage`. `message`: `Container connect failed at <stage>: <why>`. */
export class ContainerTransportError extends Error {
  /** Always `"ContainerTransportError"`. */
  override readonly name = "ContainerTransportError";
  /** Where it failed. */
  readonly stage: ContainerConnectStage;
  constructor(stage: ContainerConnectStage, detail: string) {
    super(`Container connect failed at ${stage}: ${detail}`);
    this.stage = stage;
  }
}

/** The daemon applies other ignore globs than the backend was configured with. */
export class ContainerIgnoreMismatchError extends Error {
  /** Always `"ContainerIgnoreMismatchError"`. */
  override readonly name = "ContainerIgnoreMismatchError";
  constructor(expected: readonly string[], applied: readonly string[]) {
    super(`the container's daemon applies ignore ${JSON.stringify(applied)}, not the configured ${JSON.stringify(expected)}: its MOUNT_IGNORE was overridden (containerEnv) or the image's daemon is too old`);
  }
}

const DESCRIPTION_BASE =
  "Runs shell commands in a full Linux container that shares the workspace files under /workspace: npm, node, python, package managers, test runners and native binaries all work.";
const DESCRIPTION_SLOW = "It starts much more slowly than the in-Worker backends, so prefer them for quick work.";
const NETWORK_SENTENCE: Record<WorkspaceEgressPolicy["mode"], string> = {
  direct: "It has network access.",
  "http-gateway": "Outbound HTTP goes through a gateway the host controls.",
  none: "It has no network access.",
};

/** The header carrying the gateway token on `http-gateway` requests forwarded by `WorkspaceProxy`. */
export const GATEWAY_TOKEN_HEADER = "x-workspace-gateway";

function positiveInt(value: unknown, name: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new TypeError(`new ContainerBackend({ ${name} }): ${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${String(value)}`);
  }
  return value;
}

/** Checks one ignore glob (spec 02 §7.1). */
function checkIgnore(glob: unknown): string {
  if (typeof glob !== "string") throw new TypeError(`new ContainerBackend({ ignore }): every glob must be a string, got ${typeof glob}`);
  const body = glob.startsWith("!") ? glob.slice(1) : glob;
  if (!(body.startsWith("/") || body.startsWith("**/"))) throw new TypeError(`new ContainerBackend({ ignore }): ${JSON.stringify(glob)} must start with "/" or "**/" (after an optional "!")`);
  if (/[{}[\]?\\]/.test(body)) throw new TypeError(`new ContainerBackend({ ignore }): ${JSON.stringify(glob)} uses one of {}[]?\\, which are not supported`);
  if (glob.length > 4096) throw new TypeError(`new ContainerBackend({ ignore }): a glob is ${glob.length} characters; at most 4096`);
  return glob;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

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

  readonly #o: Required<Omit<ContainerBackendOptions, "instance" | "launch" | "containerEnv" | "ignore" | "id" | "egress">> & {
    egress: WorkspaceEgressPolicy;
    containerEnv: Record<string, string>;
    ignore: string[];
    instance?: ContainerInstanceSize;
    launch?: Record<string, unknown>;
  };
  /** The connect waiting for the daemon's WebSocket: its bearer secret and how to hand the socket over. */
  #pending: { resolve(socket: WebSocket): void } | undefined;
  /** The daemon's bearer secret of the current container run (from `start`). */
  #secret: string | undefined;
  #gatewayToken: string | undefined;

  /** @throws TypeError for a missing `container`/`workspace`, a bad number, egress mode or ignore glob. */
  constructor(options: ContainerBackendOptions) {
    if (!options || typeof options !== "object") throw new TypeError("new ContainerBackend(options): options must be an object");
    if (typeof options.container !== "function") throw new TypeError("new ContainerBackend({ container }): container must be a function returning the holder (e.g. () => this)");
    const ws = options.workspace;
    if (!ws || typeof ws.binding !== "string" || ws.binding === "" || typeof ws.id !== "string" || ws.id === "") {
      throw new TypeError("new ContainerBackend({ workspace }): workspace must be { binding, id } (the Durable Object namespace binding's name and this object's id)");
    }
    const egress = options.egress ?? { mode: "none" };
    if (!egress || !["none", "direct", "http-gateway"].includes((egress as { mode?: string }).mode ?? "")) {
      throw new TypeError(`new ContainerBackend({ egress }): egress.mode must be "none", "direct" or "http-gateway"`);
    }
    if (egress.mode === "http-gateway" && typeof (egress as { gateway?: { fetch?: unknown } }).gateway?.fetch !== "function") {
      throw new TypeError('new ContainerBackend({ egress }): { mode: "http-gateway" } needs gateway, a Fetcher (e.g. a service binding) that decides on each request');
    }
    if (options.ignore !== undefined && !Array.isArray(options.ignore)) throw new TypeError("new ContainerBackend({ ignore }): ignore must be an array of globs");
    const containerPort = positiveInt(options.containerPort, "containerPort", 8080);
    this.#o = {
      container: options.container,
      workspace: { ...ws },
      egress,
      egressHost: options.egressHost ?? "computer.internal",
      containerPort,
      containerEnv: { ...(options.containerEnv ?? {}) },
      connectTimeoutMs: positiveInt(options.connectTimeoutMs, "connectTimeoutMs", 30_000),
      heartbeatIntervalMs: positiveInt(options.heartbeatIntervalMs, "heartbeatIntervalMs", 20_000, true),
      ignore: (options.ignore ?? []).map(checkIgnore),
      restartAttempts: positiveInt(options.restartAttempts, "restartAttempts", 1, true),
      healthProbeTimeoutMs: positiveInt(options.healthProbeTimeoutMs, "healthProbeTimeoutMs", 2000),
      healthRetryInitialDelayMs: positiveInt(options.healthRetryInitialDelayMs, "healthRetryInitialDelayMs", 250),
      healthRetryMaxDelayMs: positiveInt(options.healthRetryMaxDelayMs, "healthRetryMaxDelayMs", 2000),
      name: options.name ?? "app",
      ...(options.instance !== undefined ? { instance: options.instance } : {}),
      ...(options.launch !== undefined ? { launch: options.launch } : {}),
    };
    this.id = options.id ?? "container-shell";
    this.description = `${DESCRIPTION_BASE} ${NETWORK_SENTENCE[egress.mode]} ${DESCRIPTION_SLOW}`;
  }

  /** The launch spec of this backend's container (env: `PORT`, `MOUNT_POINT`, `MOUNT_IGNORE`, then `containerEnv`). */
  launchSpec(): ContainerLaunchSpec {
    const env: Record<string, string> = { PORT: String(this.#o.containerPort), MOUNT_POINT: "/workspace" };
    if (this.#o.ignore.length > 0) env.MOUNT_IGNORE = JSON.stringify(this.#o.ignore);
    Object.assign(env, this.#o.containerEnv);
    const spec: ContainerLaunchSpec = { name: this.#o.name, env, enableInternet: this.#o.egress.mode === "direct" };
    if (this.#o.instance !== undefined) spec.instance = this.#o.instance;
    if (this.#o.launch !== undefined) spec.launch = this.#o.launch;
    return spec;
  }

  /**
   * The Durable Object's `fetch` hands requests here (spec 02 §7.1):
   * gateway-token requests → the gateway (`http-gateway`: `egress.gateway.fetch`;
   * a non-http(s) URL → 400); a path other than `/api` →
   * 404; not a WebSocket upgrade → 400; a wrong bearer → 401; no connect
   * waiting for the daemon → 409; else 101, the daemon's session.
   */
  async handleFetch(request: Request): Promise<Response> {
    const token = request.headers.get(GATEWAY_TOKEN_HEADER);
    if (token !== null && this.#gatewayToken !== undefined && token === this.#gatewayToken) {
      const url = new URL(request.url);
      if (url.protocol !== "http:" && url.protocol !== "https:") return new Response(`the gateway forwards http: and https: only, not ${url.protocol}`, { status: 400 });
      const headers = new Headers(request.headers);
      headers.delete(GATEWAY_TOKEN_HEADER);
      const egress = this.#o.egress;
      if (egress.mode !== "http-gateway") return new Response("this backend has no gateway", { status: 404 });
      return egress.gateway.fetch(new Request(request, { headers }));
    }
    const url = new URL(request.url);
    if (url.pathname !== "/api") return new Response("not found", { status: 404 });
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 400 });
    const pending = this.#pending;
    if (this.#secret === undefined || request.headers.get("Authorization") !== `Bearer ${this.#secret}`) return new Response("unauthorized", { status: 401 });
    if (!pending) return new Response("no connect is waiting for the container's daemon", { status: 409 });
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair) as [WebSocket, WebSocket];
    (server as WebSocket & { accept(): void }).accept();
    this.#pending = undefined;
    pending.resolve(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Connects in the stages described above. @throws ContainerTransportError naming the stage; ContainerIgnoreMismatchError. */
  async connect(_host: WorkspaceBackendHost): Promise<BackendHandle> {
    const o = this.#o;
    const deadline = Date.now() + o.connectTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    let api: IWorkspaceContainerAPI;
    let secret: string;
    const spec = this.launchSpec();
    try {
      api = o.container().getWorkspaceContainer();
      ({ clientSecret: secret } = await withTimeout(api.start(spec), left(), "start"));
    } catch (error) {
      throw new ContainerTransportError("start", why(error));
    }
    try {
      const target = { ...o.workspace };
      await api.interceptOutboundHttp(o.egressHost, target);
      if (o.egress.mode === "http-gateway") {
        this.#gatewayToken = crypto.randomUUID();
        await api.interceptAllOutboundHttp({ ...target, gatewayToken: this.#gatewayToken });
      }
    } catch (error) {
      throw new ContainerTransportError("egress", why(error));
    }
    const port = (path: string, init?: RequestInit) => api.fetchPort(o.containerPort, new Request(`http://container${path}`, init));
    // health, with restarts: each attempt probes for its share of what is left of the budget
    for (let restarts = 0; ; restarts++) {
      const share = Math.floor((deadline - Date.now()) / (o.restartAttempts - restarts + 1));
      const healthy = await this.#probe(port, Date.now() + Math.max(1, share));
      if (healthy === true) break;
      if (restarts >= o.restartAttempts) throw new ContainerTransportError("health", `/health not healthy after ${restarts} restart(s) within ${o.connectTimeoutMs} ms: ${healthy}`);
      try {
        ({ clientSecret: secret } = await withTimeout(api.restart(spec), left(), "restart"));
      } catch (error) {
        throw new ContainerTransportError("restart", why(error));
      }
    }
    try {
      const anonymous = await withTimeout(port("/api"), left(), "GET /api");
      await anonymous.body?.cancel();
      if (anonymous.status !== 401) throw new Error(`an unauthenticated GET /api answered HTTP ${anonymous.status}, not 401: the daemon is not checking its secret`);
    } catch (error) {
      throw new ContainerTransportError("auth", why(error));
    }
    const relay = api.relay?.();
    this.#secret = secret;
    const socket = new Promise<WebSocket>((resolve) => (this.#pending = { resolve }));
    try {
      const response = await withTimeout(
        port("/connect", { method: "POST", headers: { Authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ url: relay?.url ?? `http://${o.egressHost}/api` }) }),
        left(),
        "POST /connect",
      );
      if (!relay && response.status !== 200) throw new Error(`POST /connect answered HTTP ${response.status}: ${await response.text()}`);
      if (relay) {
        // Local development: the daemon dialled the host's relay; open the other end and hand it to handleFetch.
        const text = await response.text();
        if (response.status !== 200) throw new Error(`POST /connect answered HTTP ${response.status}: ${text}`);
        await this.#acceptRelay(relay);
      } else await response.body?.cancel();
    } catch (error) {
      this.#pending = undefined;
      throw new ContainerTransportError("connect", why(error));
    }
    let ws: WebSocket;
    try {
      ws = await withTimeout(socket, left(), "waiting for the daemon's WebSocket");
    } catch (error) {
      this.#pending = undefined;
      throw new ContainerTransportError("ws", why(error));
    }
    const closed = new Promise<void>((resolve) => {
      ws.addEventListener("close", () => resolve());
      ws.addEventListener("error", () => resolve());
    });
    const rpc = newWebSocketRpcSession<DaemonApi>(ws as never) as unknown as DaemonApi;
    const close = () => {
      try {
        ws.close(1000, "closed");
      } catch {
        // already closed
      }
    };
    const handle = await daemonHandle(rpc, { closed, close });
    const info = await rpc.info();
    if (JSON.stringify(info.ignore) !== JSON.stringify(o.ignore)) {
      close();
      throw new ContainerIgnoreMismatchError(o.ignore, info.ignore);
    }
    if (o.heartbeatIntervalMs > 0) {
      const timer = setInterval(() => {
        withTimeout(rpc.info(), o.heartbeatIntervalMs, "heartbeat").catch(() => {
          clearInterval(timer);
          close();
        });
      }, o.heartbeatIntervalMs);
      void closed.then(() => clearInterval(timer));
    }
    return handle;
  }

  /** `true` once `/health` answers 2xx; else the last failure, when the deadline passed. */
  async #probe(port: (path: string) => Promise<Response>, deadline: number): Promise<true | string> {
    let delay = this.#o.healthRetryInitialDelayMs;
    let last = "no probe";
    while (Date.now() < deadline) {
      try {
        const response = await withTimeout(port("/health"), Math.min(this.#o.healthProbeTimeoutMs, Math.max(1, deadline - Date.now())), "health probe");
        await response.body?.cancel();
        if (response.ok) return true;
        last = `HTTP ${response.status}`;
      } catch (error) {
        last = why(error);
      }
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
      delay = Math.min(delay * 2, this.#o.healthRetryMaxDelayMs);
    }
    return last;
  }

  /**
   * Local development: opens the relay's other end, passes the daemon's
   * upgrade (its Authorization, as the relay reports it) through
   * {@link handleFetch}, and pipes the accepted session to the relay socket.
   */
  async #acceptRelay(relay: { open(): Promise<Response> }): Promise<void> {
    const opened = await relay.open();
    const remote = (opened as Response & { webSocket?: WebSocket | null }).webSocket;
    if (opened.status !== 101 || !remote) throw new Error(`the local relay answered HTTP ${opened.status}`);
    const authorization = opened.headers.get("x-relay-authorization");
    const answer = await this.handleFetch(
      new Request(`http://${this.#o.egressHost}/api`, { headers: { Upgrade: "websocket", ...(authorization !== null ? { Authorization: authorization } : {}) } }),
    );
    const local = (answer as Response & { webSocket?: WebSocket | null }).webSocket;
    if (answer.status !== 101 || !local) {
      (remote as WebSocket & { accept(): void }).accept();
      remote.close(1008, `refused: HTTP ${answer.status}`);
      throw new Error(`the daemon's session was refused: HTTP ${answer.status}`);
    }
    (remote as WebSocket & { accept(): void }).accept();
    (local as WebSocket & { accept(): void }).accept();
    pipe(remote, local);
    pipe(local, remote);
  }
}

/** Forwards every message of `from` to `to`, and its close. */
function pipe(from: WebSocket, to: WebSocket): void {
  from.addEventListener("message", (event) => {
    try {
      to.send(event.data as string | ArrayBuffer);
    } catch {
      // the other side is gone; its close follows
    }
  });
  from.addEventListener("close", (event) => {
    try {
      to.close(event.code === 1005 || event.code === 1006 ? 1000 : event.code, event.reason);
    } catch {
      // already closed
    }
  });
}
