/**
 * `TestBackend` (spec 02 §8): a command backend on a `computerd` daemon that
 * is already running at a URL — a local process (container/README.md,
 * "Local development without Docker"), or a container you started
 * yourself. Remote sync: `/workspace` is pushed before each command and
 * the daemon's changes are pulled after (spec 02 §7.3).
 *
 * @module
 */
import { newWebSocketRpcSession } from "capnweb";
import type { BackendHandle, WorkspaceBackendHost, WorkspaceCommandBackend } from "../runtime/types.js";
import { daemonHandle, type DaemonApi } from "./daemon/handle.js";

/** Options of {@link TestBackend}. */
export interface TestBackendOptions {
  /** The daemon's base URL, `http:` or `https:` (e.g. `http://127.0.0.1:8080`); `/health` and `/api` are below it. */
  url: string;
  /** The backend id. Default `"test"`. */
  id?: string;
  /**
   * The daemon's bearer secret (its `COMPUTERD_SECRET`), sent on the
   * `/api` upgrade. Default: none — a daemon that was given a secret
   * refuses the session (401). Not in 0.8.0.
   */
  secret?: string;
}

/**
 * A command backend (`type "test"`) on a running `computerd`: `connect()`
 * GETs `<url>/health`, then opens a capnweb session over a WebSocket to
 * `<url as ws(s)>/api`. Remote sync; no description.
 *
 * @example
 * ```ts
 * const workspace = new Workspace({ storage: ctx.storage, backends: [new TestBackend({ url: "http://127.0.0.1:8080", secret })] });
 * const result = await (await workspace.runtime.exec("npm test", { cwd: "/workspace/app", encoding: "utf8" })).result();
 * ```
 */
export class TestBackend implements WorkspaceCommandBackend {
  /** Always `"command"`. */
  readonly protocol = "command" as const;
  /** Default `"test"`. */
  readonly id: string;
  /** Always `"test"`. */
  readonly type = "test";
  readonly #url: URL;
  readonly #secret: string | undefined;

  /** @throws TypeError when `url` is not an `http:`/`https:` URL, or `id` / `secret` is not a non-empty string. */
  constructor(options: TestBackendOptions) {
    if (!options || typeof options !== "object") throw new TypeError("new TestBackend({ url }): options must be an object");
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError(`new TestBackend({ url }): url must be an http: or https: URL, got ${JSON.stringify(options.url)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`new TestBackend({ url }): url must be an http: or https: URL, got ${JSON.stringify(options.url)}`);
    if (options.id !== undefined && (typeof options.id !== "string" || options.id === "")) throw new TypeError("new TestBackend({ id }): id must be a non-empty string");
    if (options.secret !== undefined && (typeof options.secret !== "string" || options.secret === "")) throw new TypeError("new TestBackend({ secret }): secret must be a non-empty string");
    this.#url = url;
    this.id = options.id ?? "test";
    this.#secret = options.secret;
  }

  /**
   * Checks `/health`, then opens the session.
   * @throws Error naming the URL when the daemon is unreachable or answers
   *   `/health` with a non-2xx status, or refuses the `/api` upgrade (e.g. 401: wrong or missing secret).
   */
  async connect(_host: WorkspaceBackendHost): Promise<BackendHandle> {
    const base = this.#url.href.replace(/\/+$/, "");
    let health: Response;
    try {
      health = await fetch(`${base}/health`);
    } catch (error) {
      throw new Error(`TestBackend: the daemon at ${base} is unreachable (${error instanceof Error ? error.message : String(error)})`);
    }
    await health.body?.cancel();
    if (!health.ok) throw new Error(`TestBackend: ${base}/health answered HTTP ${health.status}`);
    const headers: Record<string, string> = { Upgrade: "websocket" };
    if (this.#secret !== undefined) headers.Authorization = `Bearer ${this.#secret}`;
    const upgrade = await fetch(`${base}/api`, { headers });
    const socket = (upgrade as Response & { webSocket?: WebSocket | null }).webSocket;
    if (upgrade.status !== 101 || !socket) {
      await upgrade.body?.cancel();
      throw new Error(`TestBackend: ${base}/api refused the WebSocket session (HTTP ${upgrade.status}${upgrade.status === 401 ? ": wrong or missing secret" : ""})`);
    }
    (socket as WebSocket & { accept(): void }).accept();
    const closed = new Promise<void>((resolve) => {
      socket.addEventListener("close", () => resolve());
      socket.addEventListener("error", () => resolve());
    });
    const api = newWebSocketRpcSession<DaemonApi>(socket as never) as unknown as DaemonApi;
    return daemonHandle(api, {
      closed,
      close: () => {
        try {
          socket.close(1000, "closed");
        } catch {
          // already closed
        }
      },
    });
  }
}
