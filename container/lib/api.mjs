// @ts-check
import os from "node:os";
import { RpcTarget } from "capnweb";
import { diskId } from "./disk.mjs";
import { DaemonError } from "./errors.mjs";
import { MAX_TIMEOUT_MS, MAX_WAIT_MS } from "./runs.mjs";
import { apply, nonNegInt, read, repairMount, scan, SCAN_MAX_LIMIT } from "./sync.mjs";

/**
 * `text` JSON-quoted for an error message: whole when at most 64 characters, else its first 64 (never half a
 * character) then `…" (<n> characters)` — as the library's quoteCut (src/util/cut.ts), so a caller's huge argument
 * is not echoed whole.
 * @param {string} text
 */
function quoteCut(text) {
  if (text.length <= 64) return JSON.stringify(text);
  let end = 64;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${JSON.stringify(`${text.slice(0, end)}…`)} (${text.length} characters)`;
}

/**
 * Environment variables of the daemon that a command never sees.
 */
const HIDDEN_ENV = ["COMPUTERD_SECRET", "COMPUTERD_AUTH_FILE"];

/**
 * @typedef {object} DaemonState
 * @property {import("./config.mjs").DaemonConfig} config
 * @property {import("./paths.mjs").Mount} mount
 * @property {(absPath: string) => boolean} ignored
 * @property {import("./runs.mjs").Runs} runs
 * @property {string} version
 * @property {string} bootId random id of this daemon process (a new one after every start)
 * @property {Promise<string | undefined>} [diskId] the disk id (disk.mjs), looked up by the first `info()`
 */

/**
 * The daemon's main RPC interface, served on every capnweb session (`/api` and `POST /connect`).
 * Errors thrown carry `code` (and `syscall`, `path` when about a path) as data.
 * See README.md, "RPC surface".
 */
export class Computerd extends RpcTarget {
  /** @param {DaemonState} state */
  constructor(state) {
    super();
    /** @type {DaemonState} */
    this.s = state;
  }

  /**
   * What this daemon is and how it is set up.
   * @returns {Promise<{ version: string, mountPoint: string, ignore: string[], pid: number, bootId: string, diskId?: string }>}
   *   `mountPoint` as configured; `ignore` the applied MOUNT_IGNORE globs in order; `bootId` changes on every daemon start;
   *   `diskId` names the disk (the same after a restart on it, a new one on a fresh disk; disk.mjs), absent when none can be kept
   */
  async info() {
    const disk = await (this.s.diskId ??= diskId(this.s.mount.abs));
    const info = { version: this.s.version, mountPoint: this.s.mount.abs, ignore: [...this.s.config.ignore], pid: process.pid, bootId: this.s.bootId };
    return disk === undefined ? info : { ...info, diskId: disk };
  }

  /**
   * Start `/bin/sh -c command` in its own process group and return at once; read its output with
   * {@link events}.
   * @param {{ id: string, command: string, cwd?: string, env?: Record<string, string> | [string, string][], stdin?: Uint8Array | string, timeoutMs?: number }} args
   *   `id` non-empty, ≤ 256 UTF-8 bytes; `cwd` a directory relative to MOUNT_POINT (default its root; confined,
   *   `EACCES` outside, `ENOENT`/`ENOTDIR`); `env` merged over the daemon's environment (minus COMPUTERD_SECRET),
   *   caller wins — an object of strings, or an array of `[name, value]` pairs (what a client sends for names an
   *   RPC layer drops from objects: `constructor`, `toString`, `__proto__`, `toJSON` …; a later pair wins); `stdin` written then closed (absent → /dev/null); `timeoutMs` absent → COMPUTERD_TIMEOUT_MS
   *   (320000), 0 = none; at the timeout SIGTERM to the group, SIGKILL after COMPUTERD_KILL_GRACE_MS (5000)
   * @returns {Promise<{ id: string, pid: number | undefined }>}
   * @throws `EEXEC_BUSY` when a live run has this id; `EINVAL` for bad arguments (an env name over 64 characters
   *   quoted as its first 64 and its length: `exec: bad env name "<64>…" (<n> characters)`). A mount point a command removed or
   *   replaced by something else than a directory is made an empty directory again first
   */
  async exec(args) {
    const a = obj(args, "exec");
    const id = a.id;
    if (typeof id !== "string" || id === "" || Buffer.byteLength(id) > 256) throw new DaemonError("EINVAL", "exec: id must be a non-empty string of at most 256 bytes");
    if (typeof a.command !== "string") throw new DaemonError("EINVAL", "exec: command must be a string");
    if (a.command.includes("\0")) throw new DaemonError("EINVAL", "exec: command contains a NUL byte");
    // No prototype: a variable named constructor, toString or __proto__ is one like any other.
    /** @type {Record<string, string>} */
    const env = Object.create(null);
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !HIDDEN_ENV.includes(k)) env[k] = v;
    if (a.env !== undefined) {
      if (a.env === null || typeof a.env !== "object") throw new DaemonError("EINVAL", "exec: env must be an object of strings or an array of [name, value] pairs");
      for (const pair of Array.isArray(a.env) ? a.env : Object.entries(a.env)) {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") throw new DaemonError("EINVAL", "exec: env must be an object of strings or an array of [name, value] pairs");
        const [k, v] = pair;
        if (k === "" || k.includes("=") || k.includes("\0")) throw new DaemonError("EINVAL", `exec: bad env name ${quoteCut(k)}`);
        if (typeof v !== "string" || v.includes("\0")) throw new DaemonError("EINVAL", `exec: env ${k.length <= 64 ? k : quoteCut(k)} must be a string without NUL`);
        env[k] = v;
      }
    }
    let stdin;
    if (a.stdin !== undefined) {
      if (typeof a.stdin === "string") stdin = new TextEncoder().encode(a.stdin);
      else if (a.stdin instanceof Uint8Array) stdin = a.stdin;
      else throw new DaemonError("EINVAL", "exec: stdin must be a Uint8Array or a string");
    }
    let timeoutMs = this.s.config.defaultTimeoutMs;
    if (a.timeoutMs !== undefined) {
      timeoutMs = nonNegInt(a.timeoutMs, "timeoutMs");
      if (timeoutMs > MAX_TIMEOUT_MS) throw new DaemonError("EINVAL", `exec: timeoutMs must be ≤ ${MAX_TIMEOUT_MS}`);
    }
    if (this.s.runs.runs.get(id)?.live) throw new DaemonError("EEXEC_BUSY", `run ${JSON.stringify(id)} is still running`);
    await repairMount(this.s.mount); // a mount point a command removed or replaced by a link: a directory again
    const cwd = await this.s.mount.directory(a.cwd ?? "", "cwd");
    env.PWD = cwd;
    return this.s.runs.start({ id, command: a.command, cwd, env, stdin, timeoutMs });
  }

  /**
   * Events of run `id` with `seq > after`, oldest first, at most 1 MiB of output data per call.
   * When there are none yet and `waitMs > 0`, waits up to `waitMs` (≤ 60000) for the next one.
   * With `ack: false` the call only looks: `after` does not tell the daemon the reader has the events up
   * to it (no trimming, flow control not lifted) — for a second reader (a tail) beside the run's first.
   * @param {{ id: string, after?: number, waitMs?: number, ack?: boolean }} args `after` default 0 (from the start), `ack` default true
   * @returns {Promise<{ events: import("./runs.mjs").RunEvent[], done: boolean }>} `done` once the `exit` event has been returned
   * @throws `ENOENT` unknown id; `ELOG_TRUNCATED` when events after `after` are no longer kept
   */
  async events(args) {
    const a = obj(args, "events");
    if (typeof a.id !== "string") throw new DaemonError("EINVAL", "events: id must be a string");
    const after = nonNegInt(a.after ?? 0, "after");
    const waitMs = Math.min(nonNegInt(a.waitMs ?? 0, "waitMs"), MAX_WAIT_MS);
    if (a.ack !== undefined && typeof a.ack !== "boolean") throw new DaemonError("EINVAL", "events: ack must be a boolean");
    return this.s.runs.events(a.id, after, waitMs, a.ack !== false);
  }

  /**
   * Signal a live run's process group. Without `signal`: SIGTERM, then SIGKILL after the grace
   * period if the run is still alive. A finished run is left alone (`killed: false`).
   * @param {{ id: string, signal?: string | number }} args `signal` a name (`"SIGINT"`, `"INT"`) or a number
   * @returns {{ killed: boolean }}
   * @throws `ENOENT` unknown id; `EINVAL` unknown signal
   */
  kill(args) {
    const a = obj(args, "kill");
    if (typeof a.id !== "string") throw new DaemonError("EINVAL", "kill: id must be a string");
    return this.s.runs.kill(a.id, a.signal === undefined ? undefined : signalArg(a.signal));
  }

  /**
   * Forget a finished run's log: the id is unknown from then on (`events` give `ENOENT`) and can be reused.
   * @param {{ id: string }} args
   * @returns {{ disposed: true }}
   * @throws `ENOENT` unknown id; `EEXEC_BUSY` while it runs
   */
  dispose(args) {
    const a = obj(args, "dispose");
    if (typeof a.id !== "string") throw new DaemonError("EINVAL", "dispose: id must be a string");
    this.s.runs.dispose(a.id);
    return { disposed: true };
  }

  /**
   * One page of the tree under MOUNT_POINT (ignore globs honoured; ignored directories are not entered).
   * @param {{ since?: number, cursor?: string | null, limit?: number }} [args]
   *   `since` ms since the epoch: only entries whose mtime or ctime is ≥ since (deletions are not reported);
   *   `cursor` from the previous page; `limit` entries per page (default 1000, ≤ 10000)
   * @returns {Promise<import("./sync.mjs").ScanPage>}
   * @throws `ENOTDIR` when a command replaced the mount point by a symlink, a file or a special file (not walked;
   *   the next `exec` or `apply` makes it an empty directory again)
   */
  async scan(args = {}) {
    const a = obj(args, "scan");
    if (a.since !== undefined && (typeof a.since !== "number" || !Number.isFinite(a.since))) throw new DaemonError("EINVAL", "scan: since must be a number (ms since the epoch)");
    if (a.cursor !== undefined && a.cursor !== null && typeof a.cursor !== "string") throw new DaemonError("EINVAL", "scan: cursor must be a string");
    const limit = a.limit === undefined ? undefined : nonNegInt(a.limit, "limit");
    if (limit !== undefined && (limit < 1 || limit > SCAN_MAX_LIMIT)) throw new DaemonError("EINVAL", `scan: limit must be in 1..${SCAN_MAX_LIMIT}`);
    return scan(this.s.mount, this.s.ignored, { since: a.since, cursor: a.cursor, limit });
  }

  /**
   * Read bytes of a file.
   * @param {{ path: string, offset?: number, length?: number }} args `offset` default 0; `length` default and max 1 MiB
   * @returns {Promise<{ data: Uint8Array, size: number, mtimeMs: number, ctimeMs: number, dev: number, ino: number, eof: boolean }>}
   *   `size` the file's size now; `eof` when the read reached it; `dev`/`ino` the file read and `ctimeMs` its status-change
   *   time (a client reading pieces compares them: another file, or the file changed, between two reads)
   * @throws `ENOENT`, `EISDIR`, `ELOOP` (a symlink), `EACCES` (outside the mount point), `EINVAL`
   */
  read(args) {
    const a = obj(args, "read");
    return read(this.s.mount, { path: a.path, offset: a.offset, length: a.length });
  }

  /**
   * Apply changes to the tree, in order; each op succeeds or fails on its own.
   * @param {{ ops: import("./sync.mjs").ApplyOp[] }} args at most 10000 ops; `write` data ≤ 1 MiB per op
   * @returns {Promise<{ results: import("./sync.mjs").ApplyResult[] }>} one result per op, same order
   */
  apply(args) {
    const a = obj(args, "apply");
    return apply(this.s.mount, a.ops);
  }
}

/**
 * @param {unknown} v
 * @param {string} method
 * @returns {Record<string, any>}
 */
function obj(v, method) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new DaemonError("EINVAL", `${method}: expected an options object`);
  return /** @type {Record<string, any>} */ (v);
}

/**
 * @param {unknown} s
 * @returns {NodeJS.Signals | number}
 */
function signalArg(s) {
  const signals = /** @type {Record<string, number>} */ (os.constants.signals);
  if (typeof s === "number" && Number.isInteger(s) && Object.values(signals).includes(s)) return s;
  if (typeof s === "string") {
    const name = s.toUpperCase().startsWith("SIG") ? s.toUpperCase() : `SIG${s.toUpperCase()}`;
    if (name in signals) return /** @type {NodeJS.Signals} */ (name);
  }
  throw new DaemonError("EINVAL", `unknown signal ${typeof s === "string" ? quoteCut(s) : typeof s === "number" ? String(s) : `of type ${s === null ? "null" : typeof s}`}`);
}
