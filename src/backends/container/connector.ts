/**
 * The machinery both container backends share (spec 02 §7.1, §7.2): option
 * checks, the launch spec, the connect stages, `handleFetch` and the
 * heartbeat. `ContainerBackend` (the Durable Object schedules the container)
 * and `LegacyContainerBackend` (a separate, platform-scheduled container
 * object) differ only in where the {@link IWorkspaceContainerAPI} comes from,
 * in their description, and in which options they accept.
 *
 * Connect, in stages (a failure names its stage, {@link ContainerTransportError}):
 * `start` the container (adopting a running one with the same launch spec) →
 * `egress`: route its HTTP to `egressHost` (and, for `http-gateway`, all its
 * HTTP) to the Workspace's object → `health`: probe `/health` with backoff,
 * restarting the container up to `restartAttempts` times (`restart`) →
 * `auth`: an unauthenticated `/api` must be refused with 401 → `connect`:
 * `POST /connect` asks the daemon to dial back → `ws`: its WebSocket arrives
 * through {@link ContainerConnector.handleFetch} → a capnweb session, a
 * heartbeat, and (when configured) a check that the daemon applies the
 * configured `ignore`.
 *
 * @module
 */
import { newWebSocketRpcSession } from "capnweb";
import type { BackendHandle } from "../../runtime/types.js";
import { boundedSync, daemonHandle, type DaemonApi } from "../daemon/handle.js";
import type { ContainerInstanceSize, ContainerLaunchSpec, ContainerRelay, IWorkspaceContainerAPI, WorkspaceRef } from "./api.js";
import type { WorkspaceEgressPolicy } from "../worker-shell/types.js";
import { utf8Decoder } from "../../util/bytes.js";

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
  /**
   * @param expected the configured `ignore`
   * @param applied what the daemon reported; the message quotes each list's
   *   JSON up to 1,024 characters, then counts the rest (a daemon's answer
   *   may be large).
   */
  constructor(expected: readonly string[], applied: unknown) {
    super(`the container's daemon applies ignore ${quoteJson(applied)}, not the configured ${quoteJson(expected)}: its MOUNT_IGNORE was overridden (containerEnv) or the image's daemon is too old`);
  }
}

/** Characters of each ignore list's JSON a {@link ContainerIgnoreMismatchError} message quotes; the rest is counted. */
const MAX_IGNORE_QUOTE_CHARS = 1024;

/** Whether `applied` (a daemon's answer) is exactly the list of strings `expected`. */
function sameGlobs(applied: unknown, expected: readonly string[]): boolean {
  return Array.isArray(applied) && applied.length === expected.length && applied.every((glob, i) => glob === expected[i]);
}

/** What JSON cannot show (a BigInt, a cycle, a throwing getter) as its type, e.g. `[bigint]`. */
function jsonOrType(value: unknown): string {
  try {
    return JSON.stringify(value) ?? `[${typeof value}]`;
  } catch {
    return `[${Array.isArray(value) ? "array" : typeof value} that JSON cannot show]`;
  }
}

/** `value`'s JSON cut to {@link MAX_IGNORE_QUOTE_CHARS} characters (never between a character's halves) with the count of the rest. */
function quoteJson(value: unknown): string {
  const text = jsonOrType(value);
  if (text.length <= MAX_IGNORE_QUOTE_CHARS) return text;
  let end = MAX_IGNORE_QUOTE_CHARS;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}

/** The header carrying the gateway token on `http-gateway` requests forwarded by `WorkspaceProxy`. */
export const GATEWAY_TOKEN_HEADER = "x-workspace-gateway";

/** The options both backends share, as given (spec 02 §7.1 / §7.2). */
export interface SharedContainerOptions {
  workspace: WorkspaceRef;
  egress?: WorkspaceEgressPolicy;
  egressHost?: string;
  containerPort?: number;
  containerEnv?: Record<string, string>;
  connectTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  restartAttempts?: number;
  healthProbeTimeoutMs?: number;
  healthRetryInitialDelayMs?: number;
  healthRetryMaxDelayMs?: number;
  ignore?: string[];
  name?: string;
  instance?: ContainerInstanceSize;
  launch?: Record<string, unknown>;
}

/** The checked options with their defaults. */
export interface ContainerSettings {
  workspace: WorkspaceRef;
  egress: WorkspaceEgressPolicy;
  egressHost: string;
  containerPort: number;
  containerEnv: Record<string, string>;
  connectTimeoutMs: number;
  heartbeatIntervalMs: number;
  restartAttempts: number;
  healthProbeTimeoutMs: number;
  healthRetryInitialDelayMs: number;
  healthRetryMaxDelayMs: number;
  /** The configured ignore globs; `undefined`: the backend has no such option and the daemon's are not checked. */
  ignore: string[] | undefined;
  name: string;
  instance?: ContainerInstanceSize;
  launch?: Record<string, unknown>;
}

/**
 * Checks the shared options and applies the defaults of spec 02 §7.1.
 * `label` names the class in messages (`new <label>({ <option> }): …`);
 * `ignore: false` leaves the daemon's ignore globs unchecked (the legacy backend has no such option).
 * @throws TypeError for a missing `workspace`, a bad number (`containerPort` above 65535),
 * egress mode, ignore glob or `containerEnv` name (empty, or holding `=` or NUL).
 */
export function containerSettings(options: SharedContainerOptions, label: string, features: { ignore: boolean }): ContainerSettings {
  const positiveInt = (value: unknown, name: string, fallback: number, allowZero = false): number => {
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
      throw new TypeError(`new ${label}({ ${name} }): ${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${String(value)}`);
    }
    return value;
  };
  const checkIgnore = (glob: unknown): string => {
    if (typeof glob !== "string") throw new TypeError(`new ${label}({ ignore }): every glob must be a string, got ${typeof glob}`);
    const body = glob.startsWith("!") ? glob.slice(1) : glob;
    if (!(body.startsWith("/") || body.startsWith("**/"))) throw new TypeError(`new ${label}({ ignore }): ${JSON.stringify(glob)} must start with "/" or "**/" (after an optional "!")`);
    if (/[{}[\]?\\()|]/.test(body)) throw new TypeError(`new ${label}({ ignore }): ${JSON.stringify(glob)} uses one of {}[]?\\()|, which are not supported`);
    if (glob.length > 4096) throw new TypeError(`new ${label}({ ignore }): a glob is ${glob.length} characters; at most 4096`);
    return glob;
  };
  const ws = options.workspace;
  if (!ws || typeof ws.binding !== "string" || ws.binding === "" || typeof ws.id !== "string" || ws.id === "") {
    throw new TypeError(`new ${label}({ workspace }): workspace must be { binding, id } (the Durable Object namespace binding's name and the id of the object that owns the Workspace)`);
  }
  const egress = options.egress ?? { mode: "none" };
  if (!egress || !["none", "direct", "http-gateway"].includes((egress as { mode?: string }).mode ?? "")) {
    throw new TypeError(`new ${label}({ egress }): egress.mode must be "none", "direct" or "http-gateway"`);
  }
  if (egress.mode === "http-gateway" && typeof (egress as { gateway?: { fetch?: unknown } }).gateway?.fetch !== "function") {
    throw new TypeError(`new ${label}({ egress }): { mode: "http-gateway" } needs gateway, a Fetcher (e.g. a service binding) that decides on each request`);
  }
  if (options.egressHost !== undefined && (typeof options.egressHost !== "string" || !/^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/.test(options.egressHost))) {
    throw new TypeError(`new ${label}({ egressHost }): egressHost must be a host name (letters, digits, "." and "-"), optionally with ":<port>", got ${JSON.stringify(options.egressHost)}`);
  }
  if (options.containerEnv !== undefined && (typeof options.containerEnv !== "object" || options.containerEnv === null || Object.values(options.containerEnv).some((v) => typeof v !== "string"))) {
    throw new TypeError(`new ${label}({ containerEnv }): containerEnv must be an object of string values`);
  }
  for (const key of Object.keys(options.containerEnv ?? {})) {
    if (key === "" || key.includes("=") || key.includes("\0")) {
      throw new TypeError(
        `new ${label}({ containerEnv }): ${JSON.stringify(key)} is not an environment variable name; a name must be non-empty and hold no "=" or NUL (e.g. "LOG_LEVEL")`,
      );
    }
  }
  if (options.containerPort !== undefined && typeof options.containerPort === "number" && Number.isSafeInteger(options.containerPort) && options.containerPort > 65535) {
    throw new TypeError(`new ${label}({ containerPort }): containerPort must be a TCP port, 1 to 65535, got ${options.containerPort}`);
  }
  if (features.ignore && options.ignore !== undefined && !Array.isArray(options.ignore)) throw new TypeError(`new ${label}({ ignore }): ignore must be an array of globs`);
  const settings: ContainerSettings = {
    workspace: { ...ws },
    egress,
    egressHost: options.egressHost ?? "computer.internal",
    containerPort: positiveInt(options.containerPort, "containerPort", 8080),
    containerEnv: { ...(options.containerEnv ?? {}) },
    connectTimeoutMs: positiveInt(options.connectTimeoutMs, "connectTimeoutMs", 30_000),
    heartbeatIntervalMs: positiveInt(options.heartbeatIntervalMs, "heartbeatIntervalMs", 20_000, true),
    ignore: features.ignore ? (options.ignore ?? []).map(checkIgnore) : undefined,
    restartAttempts: positiveInt(options.restartAttempts, "restartAttempts", 1, true),
    healthProbeTimeoutMs: positiveInt(options.healthProbeTimeoutMs, "healthProbeTimeoutMs", 2000),
    healthRetryInitialDelayMs: positiveInt(options.healthRetryInitialDelayMs, "healthRetryInitialDelayMs", 250),
    healthRetryMaxDelayMs: positiveInt(options.healthRetryMaxDelayMs, "healthRetryMaxDelayMs", 2000),
    name: options.name ?? "app",
  };
  if (options.instance !== undefined) settings.instance = options.instance;
  if (options.launch !== undefined) settings.launch = options.launch;
  return settings;
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
 * Bytes of the container's answer to a refused `POST /connect` (not HTTP 200)
 * that a connect reads and shows in its error: 512 (the rest is cancelled
 * unread, and the error says `… (answer cut at 512 bytes)`). Whatever listens
 * on the container's port — a command can kill the daemon and bind it — so
 * cannot make the error, or the object's memory, grow with its answer. The
 * body is read within the connect's deadline (`connectTimeoutMs`): one that
 * stalls is cut there (`… (answer cut: no more within the connect's
 * deadline)`). A 200 answer's body is not read.
 */
export const MAX_CONNECT_ANSWER_BYTES = 512;

/**
 * The first {@link MAX_CONNECT_ANSWER_BYTES} of `response`'s body as text (a
 * character cut at the end dropped), read until `deadline` (epoch ms, the
 * connect's) at the latest; the rest cancelled. A body still sending at the
 * deadline shows what came, then `… (answer cut: no more within the
 * connect's deadline)`.
 */
async function answerText(response: Response, deadline: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const bytes = new Uint8Array(MAX_CONNECT_ANSWER_BYTES);
  let size = 0;
  let cut = false;
  let late = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()))));
  /** The next read, or `undefined` (and `late`) once the deadline passed first. */
  const read = async () => {
    const next = await Promise.race([reader.read(), timeout]);
    if (next !== "late") return next;
    late = true;
    return undefined;
  };
  try {
    for (;;) {
      const next = await read();
      if (next === undefined || next.done) break;
      const value: unknown = next.value;
      const chunk = value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer);
      const take = Math.min(chunk.byteLength, MAX_CONNECT_ANSWER_BYTES - size);
      bytes.set(chunk.subarray(0, take), size);
      size += take;
      if (take < chunk.byteLength || size === MAX_CONNECT_ANSWER_BYTES) {
        cut = take < chunk.byteLength || (await read())?.done === false;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    // Not awaited: a body that stalls may stall its cancel too.
    reader.cancel().catch(() => {});
  }
  const text = utf8Decoder().decode(bytes.subarray(0, size), { stream: cut || late });
  if (cut) return `${text}… (answer cut at ${MAX_CONNECT_ANSWER_BYTES} bytes)`;
  return late ? `${text}… (answer cut: no more within the connect's deadline)` : text;
}

/**
 * One backend's connection to its container: the launch spec, the connect
 * stages and the daemon's way back in (`handleFetch`). Internal: the
 * backends own one each.
 */
export class ContainerConnector {
  /** The checked options. */
  readonly settings: ContainerSettings;
  /** The connect waiting for the daemon's WebSocket: how to hand the socket over. */
  #pending: { resolve(socket: WebSocket): void } | undefined;
  /** The daemon's bearer secret of the current container run (from `start`). */
  #secret: string | undefined;
  #gatewayToken: string | undefined;

  constructor(settings: ContainerSettings) {
    this.settings = settings;
  }

  /** The launch spec (env: `PORT`, `MOUNT_POINT`, `MOUNT_IGNORE` when there are ignore globs, then `containerEnv`). */
  launchSpec(): ContainerLaunchSpec {
    const o = this.settings;
    const env: Record<string, string> = { PORT: String(o.containerPort), MOUNT_POINT: "/workspace" };
    if (o.ignore && o.ignore.length > 0) env.MOUNT_IGNORE = JSON.stringify(o.ignore);
    Object.assign(env, o.containerEnv);
    const spec: ContainerLaunchSpec = { name: o.name, env, enableInternet: o.egress.mode === "direct" };
    if (o.instance !== undefined) spec.instance = o.instance;
    if (o.launch !== undefined) spec.launch = o.launch;
    return spec;
  }

  /**
   * Requests for the Workspace's object (spec 02 §7.1): gateway-token
   * requests → the gateway (`http-gateway`: `egress.gateway.fetch`; a
   * non-http(s) URL → 400); a path other than `/api` → 404; not a WebSocket
   * upgrade → 400; a wrong bearer → 401; no connect waiting for the daemon →
   * 409; else 101, the daemon's session.
   */
  async handleFetch(request: Request): Promise<Response> {
    const token = request.headers.get(GATEWAY_TOKEN_HEADER);
    if (token !== null && this.#gatewayToken !== undefined && token === this.#gatewayToken) {
      const url = new URL(request.url);
      if (url.protocol !== "http:" && url.protocol !== "https:") return new Response(`the gateway forwards http: and https: only, not ${url.protocol}`, { status: 400 });
      const headers = new Headers(request.headers);
      headers.delete(GATEWAY_TOKEN_HEADER);
      const egress = this.settings.egress;
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

  /**
   * Connects in the stages of the module comment; `api()` is called first,
   * inside the `start` stage. @throws ContainerTransportError naming the
   * stage (`connect` also when a refused `POST /connect` answer's body
   * stalls past the connect's deadline); ContainerIgnoreMismatchError; Error
   * `ETIMEDOUT` when the daemon's `info` (boot id, ignore globs) is not
   * answered within `REMOTE_SYNC_CALL_TIMEOUT_MS` (10000).
   */
  async connect(getApi: () => IWorkspaceContainerAPI | Promise<IWorkspaceContainerAPI>): Promise<BackendHandle> {
    const o = this.settings;
    const deadline = Date.now() + o.connectTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    let api: IWorkspaceContainerAPI;
    let secret: string;
    const spec = this.launchSpec();
    try {
      api = await withTimeout(Promise.resolve().then(getApi), left(), "getting the container API");
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
    let relay: ContainerRelay | undefined;
    try {
      relay = (await withTimeout(Promise.resolve(api.relay?.()), left(), "relay")) ?? undefined;
    } catch (error) {
      throw new ContainerTransportError("connect", why(error));
    }
    this.#secret = secret;
    const socket = new Promise<WebSocket>((resolve) => (this.#pending = { resolve }));
    try {
      const response = await withTimeout(
        port("/connect", { method: "POST", headers: { Authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ url: relay?.url ?? `http://${o.egressHost}/api` }) }),
        left(),
        "POST /connect",
      );
      if (response.status !== 200) throw new Error(`POST /connect answered HTTP ${response.status}: ${await answerText(response, deadline)}`);
      await response.body?.cancel();
      // Local development: the daemon dialled the host's relay. Either the holder routes the other
      // end to this object (as the platform's interception would), or this backend opens it itself.
      if (relay && "forward" in relay) await withTimeout(relay.forward(), left(), "routing the daemon's dial-back");
      else if (relay) await this.#acceptRelay(relay);
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
    if (o.ignore !== undefined) {
      // Bounded as the handle's own info (REMOTE_SYNC_CALL_TIMEOUT_MS); the session is closed when it fails.
      const info = await boundedSync(rpc)
        .info()
        .catch((error: unknown) => {
          close();
          throw error;
        });
      // Compared without JSON: a daemon's answer may hold what JSON cannot show (capnweb carries BigInt), and anything
      // but the configured list of strings is a mismatch.
      const applied: unknown = (info as { ignore?: unknown } | undefined)?.ignore;
      if (!sameGlobs(applied, o.ignore)) {
        close();
        throw new ContainerIgnoreMismatchError(o.ignore, applied);
      }
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
    let delay = this.settings.healthRetryInitialDelayMs;
    let last = "no probe";
    while (Date.now() < deadline) {
      try {
        const response = await withTimeout(port("/health"), Math.min(this.settings.healthProbeTimeoutMs, Math.max(1, deadline - Date.now())), "health probe");
        await response.body?.cancel();
        if (response.ok) return true;
        last = `HTTP ${response.status}`;
      } catch (error) {
        last = why(error);
      }
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
      delay = Math.min(delay * 2, this.settings.healthRetryMaxDelayMs);
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
      new Request(`http://${this.settings.egressHost}/api`, { headers: { Upgrade: "websocket", ...(authorization !== null ? { Authorization: authorization } : {}) } }),
    );
    spliceSockets(remote, answer);
  }
}

/**
 * Joins the relay's socket `remote` with the session `answer` (a 101 with a
 * WebSocket) in both directions. @throws Error (closing `remote`) when
 * `answer` is not a 101.
 */
export function spliceSockets(remote: WebSocket, answer: Response): void {
  const local = (answer as Response & { webSocket?: WebSocket | null }).webSocket;
  (remote as WebSocket & { accept(): void }).accept();
  if (answer.status !== 101 || !local) {
    remote.close(1008, `refused: HTTP ${answer.status}`);
    throw new Error(`the daemon's session was refused: HTTP ${answer.status}`);
  }
  (local as WebSocket & { accept(): void }).accept();
  pipe(remote, local);
  pipe(local, remote);
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
