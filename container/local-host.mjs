#!/usr/bin/env node
// @ts-check
/**
 * The local container host: plays the container platform on one machine without a Docker engine.
 * Each "container" is the same daemon (`daemon.mjs`) run as a local process with a directory of
 * its own (`<root>/<name>/workspace`), driven over a small HTTP JSON API on loopback; a WebSocket
 * relay pairs the daemon's outgoing `POST /connect` socket with a socket the Durable Object opens
 * (workerd cannot be dialled by a local process). See README.md, "Local development without Docker".
 *
 * CLI: `node container/local-host.mjs [--port 8788] [--host 127.0.0.1] [--root <dir>] [--relay-wait-ms 30000]`
 * prints its URL (`http://127.0.0.1:<port>`) on one line once listening; SIGINT / SIGTERM stop
 * every daemon and exit 0.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WebSocketServer } from "ws";
import { writeWhole } from "./lib/sync.mjs";

/** `GET …/files` reads a file up to this size (bytes) whole and sends it with its length; a larger one streams. */
const FILES_WHOLE_BYTES = 16 * 1024 * 1024;

const DAEMON = fileURLToPath(new URL("./daemon.mjs", import.meta.url));
/** A container or relay name: URL-safe, 1..128 characters. */
const NAME = /^[A-Za-z0-9._-]{1,128}$/;
/** Largest JSON request body (1 MiB). */
const MAX_JSON_BODY = 1024 * 1024;
/** Grace between SIGTERM and SIGKILL for `stop` without a signal (5 s). */
const STOP_GRACE_MS = 5000;
/** Bytes of a daemon's stderr kept for error messages. */
const STDERR_TAIL = 8192;
/** WebSocket close code for a relay socket whose peer never came (like HTTP 408). */
export const RELAY_TIMEOUT_CODE = 4408;

/**
 * @typedef {object} LocalHostOptions
 * @property {number} [port] TCP port of the host API; default 0 (a free port)
 * @property {string} [host] interface; default `"127.0.0.1"`. Loopback only (`127.x.x.x`, `::1`,
 *   `localhost`), anything else throws: the API runs arbitrary commands.
 * @property {string} [root] directory holding one subdirectory per container
 *   (`<root>/<name>/workspace`); default a new directory under the OS temp dir
 * @property {number} [relayWaitMs] how long the first socket of a relay pair waits for its peer
 *   before it is closed with code 4408; default 30000 ms
 * @property {number} [startTimeoutMs] how long `start` waits for a daemon to listen and answer
 *   `/health`; default 15000 ms
 */

/**
 * A running local host.
 * @typedef {object} LocalHost
 * @property {string} url base URL of the API, `http://127.0.0.1:<port>`
 * @property {number} port its TCP port
 * @property {string} root the containers' directory
 * @property {() => Promise<void>} close stop every daemon (SIGTERM, SIGKILL after 2 s), close every
 *   relay socket and the server
 */

/**
 * What a container's `start` recorded, compared JSON-equal (keys sorted) to adopt or relaunch.
 * @typedef {{ env: Record<string, string>, launch: unknown }} LaunchSpec
 */

/**
 * One container: its last spec and, while it runs, its daemon process.
 * @typedef {object} Container
 * @property {string} name
 * @property {LaunchSpec} spec the spec of the last start
 * @property {string} mountPoint absolute MOUNT_POINT of the last start
 * @property {import("node:child_process").ChildProcess | undefined} proc the daemon while it runs
 * @property {number | undefined} port its port while it runs
 * @property {Promise<{ exitCode: number | null, signal: string | null }> | undefined} exited resolves when `proc` exits
 * @property {{ exitCode: number | null, signal: string | null } | undefined} exit how the last daemon ended
 * @property {Promise<unknown>} lock serialises start / stop / restart
 */

/** An error answered as `{ error }` with an HTTP status. */
class HttpError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * JSON with object keys sorted, so two specs compare equal whatever their key order.
 * @param {unknown} value
 * @returns {string}
 */
function canonical(value) {
  return JSON.stringify(value, (_k, v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/** @returns {Promise<number>} a TCP port free on 127.0.0.1 right now */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** @param {string} host */
function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Start the local container host.
 * @param {LocalHostOptions} [options]
 * @returns {Promise<LocalHost>}
 * @throws {Error} when `host` is not a loopback address, or the port cannot be bound
 */
export async function startLocalHost({ port = 0, host = "127.0.0.1", root, relayWaitMs = 30_000, startTimeoutMs = 15_000 } = {}) {
  if (!isLoopback(host)) throw new Error(`local-host: host must be a loopback address, got ${JSON.stringify(host)}`);
  const rootDir = path.resolve(root ?? (await fsp.mkdtemp(path.join(os.tmpdir(), "computer-local-host-"))));
  await fsp.mkdir(rootDir, { recursive: true });

  /** @type {Map<string, Container>} */
  const containers = new Map();
  /** @type {Set<import("node:child_process").ChildProcess>} */
  const children = new Set();
  /**
   * Relay sockets waiting for their peer, by token: the socket, its request's Authorization, the
   * messages it sent meanwhile, the wait timer, and a function that stops the buffering.
   * @type {Map<string, { ws: import("ws").WebSocket, authorization: string | undefined, buffered: { data: import("ws").RawData, isBinary: boolean }[], timer: NodeJS.Timeout, stopBuffering: () => void }>}
   */
  const waiting = new Map();
  /** @type {Set<import("ws").WebSocket>} */
  const relaySockets = new Set();
  /** A private directory (0700) for the secret files handed to daemons, made at the first start. @type {string | undefined} */
  let secretDir;
  let secretCount = 0;
  let closed = false;
  /** The port the server listens on (set once listening, before any request). */
  let boundPort = port;
  /** `Host` header values naming this host (`127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`, `<host>:<port>`), lower case. @type {Set<string>} */
  const selfHosts = new Set();

  // ---- daemons -------------------------------------------------------------------------------

  /**
   * Signal every daemon now (synchronous: used when this process exits). SIGTERM, not SIGKILL: a
   * daemon then kills its commands' process groups (each command has its own) and exits within 2 s
   * even if we are gone; SIGKILL would leave those commands running.
   */
  const signalAll = () => {
    for (const child of children) {
      try {
        child.kill("SIGTERM");
      } catch {}
    }
  };
  const onExit = () => {
    signalAll();
    if (secretDir !== undefined) fs.rmSync(secretDir, { recursive: true, force: true });
  };
  /** @param {NodeJS.Signals} sig */
  const onSignal = (sig) => {
    // Keep the default behaviour (exit) when nobody else listens for the signal; a process that
    // handles it itself and exits runs the "exit" hook.
    if (process.listenerCount(sig) === 1) {
      signalAll();
      removeProcessHooks();
      process.kill(process.pid, sig);
    }
  };
  const onSigint = () => onSignal("SIGINT");
  const onSigterm = () => onSignal("SIGTERM");
  process.on("exit", onExit);
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  const removeProcessHooks = () => {
    process.off("exit", onExit);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
  };

  /**
   * Run `fn` after every earlier operation on `c` has finished.
   * @template T
   * @param {Container} c
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  const locked = (c, fn) => {
    const next = c.lock.then(fn, fn);
    c.lock = next.catch(() => {});
    return next;
  };

  /**
   * Launch a daemon for `c` with `c.spec`; resolves once it answers `/health`.
   * @param {Container} c
   */
  const launch = async (c) => {
    const env = c.spec.env;
    const mountPoint = path.resolve(rootDir, c.name, env.MOUNT_POINT ?? "workspace");
    await fsp.mkdir(mountPoint, { recursive: true });
    c.mountPoint = mountPoint;
    let lastError;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = env.PORT !== undefined ? undefined : await freePort();
      try {
        await spawnDaemon(c, { ...process.env, HOST: "127.0.0.1", ...(port !== undefined ? { PORT: String(port) } : {}), ...env, MOUNT_POINT: mountPoint });
        return;
      } catch (err) {
        lastError = err;
        // Another process took the free port in between: try another one.
        if (port === undefined || !/EADDRINUSE/.test(String(err))) break;
      }
    }
    throw lastError;
  };

  /**
   * @param {Container} c
   * @param {NodeJS.ProcessEnv} env
   */
  const spawnDaemon = async (c, env) => {
    // The secret goes by a file the daemon reads and deletes before it serves anything
    // (COMPUTERD_AUTH_FILE), not by its environment: /proc/<daemon pid>/environ keeps the
    // environment a process started with and its commands (same user) can read it.
    env = { ...env };
    /** @type {string | undefined} */
    let secretFile;
    if (env.COMPUTERD_SECRET !== undefined) {
      if (env.COMPUTERD_SECRET !== "") {
        secretDir ??= await fsp.mkdtemp(path.join(os.tmpdir(), "computer-local-host-secrets-"));
        secretFile = path.join(secretDir, `${process.pid}-${++secretCount}`);
        await fsp.writeFile(secretFile, env.COMPUTERD_SECRET, { mode: 0o600, flag: "wx" });
        env.COMPUTERD_AUTH_FILE = secretFile;
      }
      delete env.COMPUTERD_SECRET;
    }
    // --disable-sigusr1 (Node >= 22.14): a command's `kill -USR1 $PPID` must not open the
    // inspector (the daemon also ignores SIGUSR1 itself, for older Node).
    const args = process.allowedNodeEnvironmentFlags.has("--disable-sigusr1") ? ["--disable-sigusr1", DAEMON] : [DAEMON];
    const proc = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"], cwd: c.mountPoint });
    children.add(proc);
    let stderr = "";
    proc.stderr?.on("data", (d) => {
      stderr = (stderr + d).slice(-STDERR_TAIL);
    });
    /** @type {Promise<{ exitCode: number | null, signal: string | null }>} */
    const exited = new Promise((resolve) => {
      proc.once("exit", (exitCode, signal) => {
        children.delete(proc);
        const exit = { exitCode, signal };
        if (c.proc === proc) {
          c.proc = undefined;
          c.port = undefined;
          c.exit = exit;
        }
        resolve(exit);
      });
    });
    proc.once("error", () => {}); // spawn failures surface as "exit" (code null) below
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    try {
      const port = await new Promise((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the daemon did not listen within ${startTimeoutMs} ms; stderr: ${stderr}`)), startTimeoutMs);
        let out = "";
        proc.stdout?.on("data", (d) => {
          if (out.includes("\n")) return; // drain the rest
          out += d;
          const nl = out.indexOf("\n");
          if (nl < 0) return;
          try {
            resolve(/** @type {{ port: number }} */ (JSON.parse(out.slice(0, nl))).port);
          } catch {
            reject(new Error(`the daemon printed ${JSON.stringify(out.slice(0, nl))} instead of its listening line`));
          }
        });
        void exited.then((e) => reject(new Error(`the daemon exited (code ${e.exitCode}, signal ${e.signal}) before it listened; stderr: ${stderr.trim()}`)));
      });
      const deadline = Date.now() + startTimeoutMs;
      for (;;) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
          if (res.status === 200) break;
        } catch {}
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`the daemon exited before /health answered; stderr: ${stderr.trim()}`);
        if (Date.now() > deadline) throw new Error(`the daemon did not answer /health within ${startTimeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      c.proc = proc;
      c.port = /** @type {number} */ (port);
      c.exited = exited;
      c.exit = undefined;
    } catch (err) {
      proc.kill("SIGKILL");
      c.exit = await exited;
      throw err;
    } finally {
      clearTimeout(timer);
      // The daemon deleted it at start; a daemon that failed before that did not.
      if (secretFile !== undefined) await fsp.rm(secretFile, { force: true });
    }
  };

  /**
   * Stop `c`'s daemon: `signal`, or SIGTERM then SIGKILL after 5 s. Resolves with how it ended
   * (or how it last ended when it was not running).
   * @param {Container} c
   * @param {"SIGTERM" | "SIGKILL" | undefined} signal
   */
  const stopDaemon = async (c, signal) => {
    const proc = c.proc;
    if (!proc || !c.exited) return c.exit ?? { exitCode: null, signal: null };
    const exited = c.exited;
    proc.kill(signal ?? "SIGTERM");
    /** @type {NodeJS.Timeout | undefined} */
    let force;
    if (signal !== "SIGKILL") force = setTimeout(() => proc.kill("SIGKILL"), STOP_GRACE_MS);
    const exit = await exited;
    clearTimeout(force);
    return exit;
  };

  /** @param {Container} c */
  const running = (c) => ({ name: c.name, port: /** @type {number} */ (c.port), pid: /** @type {number} */ (c.proc?.pid), url: `http://127.0.0.1:${c.port}`, mountPoint: c.mountPoint });

  /**
   * `POST /containers/<name>/start`.
   * @param {string} name
   * @param {LaunchSpec} spec
   */
  const start = async (name, spec) => {
    let c = containers.get(name);
    if (!c) {
      c = { name, spec, mountPoint: "", proc: undefined, port: undefined, exited: undefined, exit: undefined, lock: Promise.resolve() };
      containers.set(name, c);
    }
    const container = c;
    return locked(container, async () => {
      if (closed) throw new HttpError(503, "the local host is closing");
      /** @type {"launched" | "adopted" | "relaunched"} */
      let outcome = "launched";
      if (container.proc) {
        if (canonical(container.spec) === canonical(spec)) return { ...running(container), outcome: "adopted" };
        await stopDaemon(container, undefined);
        outcome = "relaunched";
      }
      container.spec = spec;
      await launch(container);
      return { ...running(container), outcome };
    });
  };

  /** @param {string} name */
  const known = (name) => {
    const c = containers.get(name);
    if (!c) throw new HttpError(404, `no container ${JSON.stringify(name)}`);
    return c;
  };

  // ---- files (test support) ------------------------------------------------------------------

  /**
   * Resolve `rel` inside `c`'s mount point; 400 when it is absolute, escapes with `..`, or an
   * existing parent resolves (through a symlink) outside the mount point.
   * @param {Container} c
   * @param {string | null} rel
   * @param {{ allowRoot?: boolean }} [o]
   */
  const confined = async (c, rel, o = {}) => {
    if (rel === null) throw new HttpError(400, "the path query parameter is required");
    if (rel.includes("\0")) throw new HttpError(400, "path contains a NUL byte");
    if (rel.startsWith("/") || path.isAbsolute(rel)) throw new HttpError(400, `path must be relative to the mount point: ${JSON.stringify(rel)}`);
    const norm = path.posix.normalize(rel === "" ? "." : rel);
    if (norm === ".." || norm.startsWith("../")) throw new HttpError(400, `path escapes the mount point: ${JSON.stringify(rel)}`);
    if (norm === "." && !o.allowRoot) throw new HttpError(400, "path names the mount point itself");
    await fsp.mkdir(c.mountPoint, { recursive: true });
    const realRoot = await fsp.realpath(c.mountPoint);
    const abs = path.join(realRoot, norm);
    // The deepest existing parent must resolve inside the mount point (a command's symlink cannot carry us out).
    let parent = path.dirname(abs);
    for (;;) {
      try {
        const real = await fsp.realpath(parent);
        if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw new HttpError(400, `path escapes the mount point through a symlink: ${JSON.stringify(rel)}`);
        break;
      } catch (err) {
        if (err instanceof HttpError) throw err;
        if (parent === realRoot || parent === path.dirname(parent)) break;
        parent = path.dirname(parent);
      }
    }
    return { abs, realRoot, rel: norm };
  };

  /**
   * @param {Container} c
   * @returns {Promise<{ path: string, kind: "file" | "directory" | "symlink" | "other", size: number, mode: number, target?: string }[]>}
   */
  const tree = async (c) => {
    /** @type {{ path: string, kind: "file" | "directory" | "symlink" | "other", size: number, mode: number, target?: string }[]} */
    const out = [];
    /** @param {string} dir @param {string} prefix */
    const walk = async (dir, prefix) => {
      /** @type {string[]} */
      let names;
      try {
        names = await fsp.readdir(dir);
      } catch {
        return;
      }
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const name of names) {
        const abs = path.join(dir, name);
        const rel = prefix ? `${prefix}/${name}` : name;
        let st;
        try {
          st = await fsp.lstat(abs);
        } catch {
          continue;
        }
        const mode = st.mode & 0o7777;
        if (st.isSymbolicLink()) {
          const target = await fsp.readlink(abs);
          out.push({ path: rel, kind: "symlink", size: Buffer.byteLength(target), mode, target });
        } else if (st.isDirectory()) {
          out.push({ path: rel, kind: "directory", size: 0, mode });
          await walk(abs, rel);
        } else out.push({ path: rel, kind: st.isFile() ? "file" : "other", size: st.isFile() ? st.size : 0, mode });
      }
    };
    await walk(c.mountPoint, "");
    return out;
  };

  // ---- HTTP ----------------------------------------------------------------------------------

  /**
   * @param {http.ServerResponse} res
   * @param {number} status
   * @param {unknown} body
   */
  const json = (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
    res.end(text);
  };

  /**
   * Why a request (HTTP or WebSocket upgrade) may come from a web page rather than from a local
   * program, or `undefined` when it may not. A page the developer has open can send requests to
   * loopback (a `no-cors` POST with a text body needs no preflight; WebSockets need no CORS at all),
   * and a DNS-rebound name makes the page "same-origin" with us. Browsers mark such requests:
   * refused when `Host` is not this host's own loopback `name:port` (rebinding), when `Origin` is
   * present and not `http://<that Host>` (`null` included), or when `Sec-Fetch-Site` is present
   * and not `same-origin` / `none`. Local clients (Node's fetch, workerd's fetch, `ws`) send none of
   * `Origin` / `Sec-Fetch-Site` and the right `Host`.
   * @param {http.IncomingMessage} req
   * @returns {string | undefined}
   */
  const crossSiteRefusal = (req) => {
    const hostHeader = (req.headers.host ?? "").toLowerCase();
    if (!selfHosts.has(hostHeader)) return `refused: Host ${JSON.stringify(req.headers.host ?? null)} is not this local host (127.0.0.1:${boundPort}, localhost:${boundPort} or [::1]:${boundPort}); requests from web pages are not served`;
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${hostHeader}`) return `refused: a request from the web page ${JSON.stringify(origin)} (Origin header); the local host serves local programs only`;
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin" && site !== "none") return `refused: a ${JSON.stringify(site)} request from a web page (Sec-Fetch-Site); the local host serves local programs only`;
    return undefined;
  };

  /** @param {http.IncomingMessage} req @returns {Promise<Record<string, unknown>>} */
  const readJson = async (req) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > MAX_JSON_BODY) throw new HttpError(413, "body larger than 1 MiB");
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString("utf8").trim();
    if (text === "") return {};
    /** @type {unknown} */
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, "body must be a JSON object");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "body must be a JSON object");
    return /** @type {Record<string, unknown>} */ (body);
  };

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  const route = async (req, res) => {
    const refusal = crossSiteRefusal(req);
    if (refusal !== undefined) throw new HttpError(403, refusal);
    const url = new URL(req.url ?? "/", "http://local-host");
    const method = req.method ?? "GET";
    if (url.pathname === "/health" && method === "GET") return json(res, 200, { ok: true });
    const m = /^\/containers\/([^/]*)(?:\/(start|stop|restart|files|tree))?$/.exec(url.pathname);
    if (!m) throw new HttpError(404, `no route ${method} ${url.pathname}`);
    let name;
    try {
      name = decodeURIComponent(m[1]);
    } catch {
      throw new HttpError(400, "bad container name");
    }
    if (!NAME.test(name)) throw new HttpError(400, `a container name is 1..128 of [A-Za-z0-9._-], got ${JSON.stringify(name)}`);
    const action = m[2];
    /** @param {string} want */
    const only = (want) => {
      if (method !== want) throw new HttpError(405, `${method} not allowed here`);
    };

    if (action === undefined) {
      only("GET");
      const c = containers.get(name);
      if (!c) return json(res, 200, { state: "unknown" });
      if (c.proc) return json(res, 200, { state: "running", port: c.port, pid: c.proc.pid, mountPoint: c.mountPoint });
      return json(res, 200, { state: "stopped", exitCode: c.exit?.exitCode ?? null, signal: c.exit?.signal ?? null, mountPoint: c.mountPoint });
    }
    if (action === "start") {
      only("POST");
      const body = await readJson(req);
      const env = body.env ?? {};
      if (env === null || typeof env !== "object" || Array.isArray(env) || !Object.values(env).every((v) => typeof v === "string")) throw new HttpError(400, "env must be a Record<string, string>");
      return json(res, 200, await start(name, { env: /** @type {Record<string, string>} */ (env), launch: body.launch ?? null }));
    }
    if (action === "stop") {
      only("POST");
      const body = await readJson(req);
      const signal = body.signal;
      if (signal !== undefined && signal !== "SIGTERM" && signal !== "SIGKILL") throw new HttpError(400, 'signal must be "SIGTERM" or "SIGKILL"');
      const c = known(name);
      return json(res, 200, await locked(c, () => stopDaemon(c, /** @type {"SIGTERM" | "SIGKILL" | undefined} */ (signal))));
    }
    if (action === "restart") {
      only("POST");
      const c = known(name);
      return json(
        res,
        200,
        await locked(c, async () => {
          const wasRunning = c.proc !== undefined;
          await stopDaemon(c, undefined);
          if (closed) throw new HttpError(503, "the local host is closing");
          await launch(c);
          return { ...running(c), outcome: wasRunning ? "relaunched" : "launched" };
        }),
      );
    }
    const c = known(name);
    if (action === "tree") {
      only("GET");
      return json(res, 200, await tree(c));
    }
    // files
    if (method === "GET") {
      const { abs, realRoot } = await confined(c, url.searchParams.get("path"));
      let real;
      try {
        real = await fsp.realpath(abs);
      } catch {
        throw new HttpError(404, `no file ${url.searchParams.get("path")}`);
      }
      if (!real.startsWith(realRoot + path.sep)) throw new HttpError(400, "path escapes the mount point through a symlink");
      // Opened once (non-blocking: a fifo put there cannot hold the request) and answered from that handle. A file
      // up to FILES_WHOLE_BYTES is read whole and sent with the length read, so a file a command rewrites meanwhile
      // (truncated, then written) is sent as one consistent read — a length taken from stat() before the read made
      // the response end short of its content-length, which the client saw as "Network connection lost". A larger
      // file streams without a content-length (chunked): as many bytes as the read finds.
      const handle = await fsp.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      try {
        const st = await handle.stat();
        if (!st.isFile()) throw new HttpError(400, "not a regular file");
        if (st.size <= FILES_WHOLE_BYTES) {
          const bytes = await handle.readFile();
          res.writeHead(200, { "content-type": "application/octet-stream", "content-length": bytes.length, "cache-control": "no-store" });
          res.end(bytes);
          return;
        }
        res.writeHead(200, { "content-type": "application/octet-stream", "cache-control": "no-store" });
        await pipeline(handle.createReadStream({ autoClose: false }), res);
      } finally {
        await handle.close();
      }
      return;
    }
    if (method === "PUT") {
      const modeText = url.searchParams.get("mode");
      if (modeText !== null && !/^0?[0-7]{1,4}$/.test(modeText)) throw new HttpError(400, "mode must be octal, e.g. 644 or 0755");
      const { abs, realRoot, rel } = await confined(c, url.searchParams.get("path"));
      await fsp.mkdir(path.dirname(abs), { recursive: true });
      const st = await fsp.lstat(abs).catch(() => undefined);
      if (st?.isDirectory()) throw new HttpError(400, "a directory is there");
      const real = await fsp.realpath(path.dirname(abs));
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw new HttpError(400, "path escapes the mount point through a symlink");
      const mode = modeText === null ? undefined : parseInt(modeText, 8);
      // As the daemon's `write` op: a new file beside it, renamed into place once the whole body is written — a
      // body that fails part way (ENOSPC, the client gone) leaves the old file whole; a symlink, fifo or hard link
      // there is replaced, never written through. The size counted as written, not stat'ed by name: a command in
      // the container may rename or remove the file the moment it appears (a test's "go" file did).
      let written;
      try {
        written = await writeWhole(abs, rel, req, mode);
      } catch (err) {
        const code = /** @type {{ code?: unknown }} */ (err).code;
        throw new HttpError(code === "ENOSPC" || code === "EDQUOT" ? 507 : 500, err instanceof Error ? err.message : String(err));
      }
      if (written === null) {
        // The temporary name does not fit beside it (near PATH_MAX): written in place.
        if (st?.isSymbolicLink()) await fsp.unlink(abs);
        const file = await fsp.open(abs, "w", 0o644);
        try {
          await file.writeFile(req);
          if (mode !== undefined) await file.chmod(mode);
          written = (await file.stat()).size;
        } finally {
          await file.close();
        }
      }
      return json(res, 200, { written });
    }
    if (method === "DELETE") {
      const { abs } = await confined(c, url.searchParams.get("path"));
      const st = await fsp.lstat(abs).catch(() => undefined);
      if (!st) throw new HttpError(404, `no file ${url.searchParams.get("path")}`);
      await fsp.rm(abs, { recursive: true, force: true });
      return json(res, 200, { deleted: true });
    }
    throw new HttpError(405, `${method} not allowed here`);
  };

  const server = http.createServer((req, res) => {
    route(req, res).catch((/** @type {unknown} */ err) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (!res.headersSent) json(res, status, { error: err instanceof Error ? err.message : String(err) });
      else res.destroy();
      req.resume();
    });
  });

  // ---- relay ---------------------------------------------------------------------------------

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  /** The peer's Authorization for a second socket being upgraded. @type {WeakMap<http.IncomingMessage, string>} */
  const relayAuthorization = new WeakMap();
  wss.on("headers", (headers, req) => {
    const auth = relayAuthorization.get(req);
    if (auth !== undefined) headers.push(`x-relay-authorization: ${auth}`);
  });

  /**
   * Close `ws` the way its peer closed: same code and reason when the code may be sent; an
   * abnormal end (1006) is mirrored by terminating.
   * @param {import("ws").WebSocket} ws
   * @param {number} code
   * @param {Buffer} reason
   */
  const closeLike = (ws, code, reason) => {
    if (ws.readyState === ws.CLOSED || ws.readyState === ws.CLOSING) return;
    const sendable = (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
    if (code === 1006) ws.terminate();
    else if (sendable) ws.close(code, reason);
    else ws.close();
  };

  /**
   * Pipe two open sockets both ways; closing one closes the other.
   * @param {import("ws").WebSocket} a
   * @param {import("ws").WebSocket} b
   */
  const pair = (a, b) => {
    a.on("message", (data, isBinary) => b.readyState === b.OPEN && b.send(data, { binary: isBinary }));
    b.on("message", (data, isBinary) => a.readyState === a.OPEN && a.send(data, { binary: isBinary }));
    a.on("close", (code, reason) => closeLike(b, code, reason));
    b.on("close", (code, reason) => closeLike(a, code, reason));
  };

  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://local-host");
    /** @param {number} status @param {string} text */
    const refuse = (status, text) => {
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
    };
    const refusal = crossSiteRefusal(req);
    if (refusal !== undefined) return refuse(403, refusal);
    const m = /^\/relay\/([^/]+)$/.exec(url.pathname);
    if (!m) return refuse(404, "not found");
    if (!NAME.test(m[1])) return refuse(400, "a relay token is 1..128 of [A-Za-z0-9._-]");
    if (closed) return refuse(503, "the local host is closing");
    const token = m[1];
    const first = waiting.get(token);
    if (!first) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        relaySockets.add(ws);
        ws.on("close", () => relaySockets.delete(ws));
        ws.on("error", () => ws.terminate());
        /** @type {{ data: import("ws").RawData, isBinary: boolean }[]} */
        const buffered = [];
        const onMessage = (/** @type {import("ws").RawData} */ data, /** @type {boolean} */ isBinary) => void buffered.push({ data, isBinary });
        ws.on("message", onMessage);
        const entry = {
          ws,
          authorization: req.headers.authorization,
          buffered,
          timer: setTimeout(() => {
            if (waiting.get(token) === entry) waiting.delete(token);
            closeLike(ws, RELAY_TIMEOUT_CODE, Buffer.from(`relay: no peer within ${relayWaitMs} ms`));
          }, relayWaitMs),
          stopBuffering: () => void ws.off("message", onMessage),
        };
        entry.timer.unref();
        ws.once("close", () => {
          clearTimeout(entry.timer);
          if (waiting.get(token) === entry) waiting.delete(token);
        });
        waiting.set(token, entry);
      });
      return;
    }
    waiting.delete(token);
    clearTimeout(first.timer);
    if (first.authorization !== undefined) relayAuthorization.set(req, first.authorization);
    wss.handleUpgrade(req, socket, head, (ws) => {
      relaySockets.add(ws);
      ws.on("close", () => relaySockets.delete(ws));
      ws.on("error", () => ws.terminate());
      first.stopBuffering();
      if (first.ws.readyState !== first.ws.OPEN) {
        closeLike(ws, 1001, Buffer.from("relay: the peer is gone"));
        return;
      }
      for (const { data, isBinary } of first.buffered) ws.send(data, { binary: isBinary });
      first.buffered.length = 0;
      pair(first.ws, ws);
    });
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const addr = server.address();
  boundPort = typeof addr === "object" && addr ? addr.port : port;
  for (const name of ["127.0.0.1", "localhost", "[::1]", host.includes(":") ? `[${host}]` : host]) {
    selfHosts.add(`${name.toLowerCase()}:${boundPort}`);
    if (boundPort === 80) selfHosts.add(name.toLowerCase());
  }
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${boundPort}`;

  const close = async () => {
    if (closed) return;
    closed = true;
    for (const { timer } of waiting.values()) clearTimeout(timer);
    waiting.clear();
    for (const ws of relaySockets) ws.terminate();
    wss.close();
    // SIGTERM lets a daemon kill its commands' process groups (SIGKILL would leave them running);
    // the daemon forces its own exit within 2 s, SIGKILL after that anyway.
    const exits = [...children].map((child) => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once("exit", () => resolve(undefined));
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 2000).unref();
    }));
    await Promise.all(exits);
    if (secretDir !== undefined) await fsp.rm(secretDir, { recursive: true, force: true });
    removeProcessHooks();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  };

  return { url, port: boundPort, root: rootDir, close };
}

// ---- CLI -------------------------------------------------------------------------------------

const direct = process.argv[1] !== undefined && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href;
if (direct) {
  /** @type {LocalHostOptions} */
  const options = {};
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[i + 1];
    const need = () => {
      if (value === undefined) {
        console.error(`local-host: ${arg} needs a value`);
        process.exit(2);
      }
      i++;
      return value;
    };
    if (arg === "--port") options.port = Number(need());
    else if (arg === "--host") options.host = need();
    else if (arg === "--root") options.root = need();
    else if (arg === "--relay-wait-ms") options.relayWaitMs = Number(need());
    else {
      console.error(`local-host: unknown argument ${arg}\nusage: node container/local-host.mjs [--port 8788] [--host 127.0.0.1] [--root <dir>] [--relay-wait-ms 30000]`);
      process.exit(2);
    }
  }
  const hostRun = await startLocalHost(options).catch((err) => {
    console.error(`local-host: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
  process.stdout.write(`${hostRun.url}\n`);
  process.stderr.write(`local-host: containers under ${hostRun.root}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void hostRun.close().then(() => process.exit(0));
  };
  // Registered after startLocalHost's own hooks, so they do not re-raise the signal.
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
