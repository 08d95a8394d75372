// @ts-check
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { RpcSession } from "capnweb";
import { WebSocket, WebSocketServer } from "ws";
import { Computerd } from "./api.mjs";
import { ignoreMatcher } from "./config.mjs";
import { Mount } from "./paths.mjs";
import { Runs } from "./runs.mjs";
import { WsTransport } from "./transport.mjs";

/** Largest `POST /connect` body (64 KiB). */
const MAX_CONNECT_BODY = 64 * 1024;
/** How long `POST /connect` waits for the outgoing WebSocket to open (30 s). */
const CONNECT_TIMEOUT_MS = 30_000;

const version = /** @type {{ version: string }} */ (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))).version;

/**
 * Start the daemon: HTTP on `config.host:config.port`.
 * @param {import("./config.mjs").DaemonConfig} config
 * @returns {Promise<{ server: http.Server, port: number, close: () => Promise<void> }>}
 */
export async function startDaemon(config) {
  const mount = await Mount.open(config.mountPoint);
  const runs = new Runs(config);
  /** @type {import("./api.mjs").DaemonState} */
  const state = { config, mount, ignored: ignoreMatcher(config.ignore), runs, version, bootId: randomUUID() };
  /** The bearer secret: COMPUTERD_SECRET, else the one the first `POST /connect` carried. */
  let secret = config.secret;
  /** @type {Set<WebSocket>} */
  const sockets = new Set();

  /**
   * @param {http.IncomingMessage} req
   * @returns {string | undefined} the bearer token
   */
  const bearer = (req) => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    return m ? m[1] : undefined;
  };
  /** @param {string | undefined} token */
  const authorized = (token) => {
    if (secret === undefined || token === undefined) return false;
    const a = createHash("sha256").update(token).digest();
    const b = createHash("sha256").update(secret).digest();
    return timingSafeEqual(a, b);
  };

  /** Serve the daemon's RPC interface on an open socket. @param {WebSocket} ws */
  const serve = (ws) => {
    sockets.add(ws);
    ws.on("close", () => sockets.delete(ws));
    new RpcSession(new WsTransport(ws), new Computerd(state));
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });

  /**
   * @param {http.ServerResponse} res
   * @param {number} status
   * @param {unknown} body JSON body, or a string sent as text/plain
   */
  const send = (res, status, body) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://computerd");
    if (url.pathname === "/health") {
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "method not allowed");
      return send(res, 200, "ok");
    }
    if (url.pathname === "/api") {
      if (!authorized(bearer(req))) return send(res, 401, "unauthorized");
      return send(res, 426, "expected a WebSocket upgrade");
    }
    if (url.pathname === "/connect") {
      if (req.method !== "POST") return send(res, 405, "method not allowed");
      const token = bearer(req);
      if (secret === undefined && token !== undefined) secret = token; // first connect sets the secret
      if (!authorized(token)) return send(res, 401, "unauthorized");
      return void connect(req, res);
    }
    send(res, 404, "not found");
  });

  /**
   * `POST /connect { url, token? }`: open a WebSocket to `url` with `Authorization: Bearer
   * <token ?? secret>` and serve the RPC session on it. 200 `{ connected: true }` once it is open;
   * 400 bad body; 502 `{ error }` when it cannot be opened within 30 s.
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  const connect = async (req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    for await (const c of req) {
      size += c.length;
      if (size > MAX_CONNECT_BODY) return send(res, 413, { error: "body larger than 64 KiB" });
      chunks.push(c);
    }
    /** @type {any} */
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, { error: "body must be JSON { url, token? }" });
    }
    if (body === null || typeof body !== "object" || typeof body.url !== "string") return send(res, 400, { error: "body must be JSON { url, token? }" });
    if (body.token !== undefined && typeof body.token !== "string") return send(res, 400, { error: "token must be a string" });
    let target;
    try {
      target = new URL(body.url);
    } catch {
      return send(res, 400, { error: "url is not a URL" });
    }
    if (target.protocol === "http:") target.protocol = "ws:";
    else if (target.protocol === "https:") target.protocol = "wss:";
    else if (target.protocol !== "ws:" && target.protocol !== "wss:") return send(res, 400, { error: "url must be ws:, wss:, http: or https:" });
    const ws = new WebSocket(target, { headers: { authorization: `Bearer ${body.token ?? secret}` }, handshakeTimeout: CONNECT_TIMEOUT_MS, maxPayload: 64 * 1024 * 1024 });
    try {
      await new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
        ws.once("unexpected-response", (_r, resp) => reject(new Error(`the WebSocket upgrade was answered with HTTP ${resp.statusCode}`)));
      });
    } catch (err) {
      ws.terminate();
      return send(res, 502, { error: err instanceof Error ? err.message : String(err) });
    }
    serve(ws);
    send(res, 200, { connected: true });
  };

  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://computerd");
    /** @param {number} status @param {string} text */
    const refuse = (status, text) => {
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
    };
    if (url.pathname !== "/api") return refuse(404, "not found");
    if (!authorized(bearer(req))) return refuse(401, "unauthorized");
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve(undefined));
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : config.port;

  const close = async () => {
    runs.close();
    for (const ws of sockets) ws.terminate();
    wss.close();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  };
  return { server, port, close };
}
