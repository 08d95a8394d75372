// @ts-check
/**
 * Module `workspace-runtime-runner.js`, the main module of every run's
 * Dynamic Worker (spec 02 §3.5): a `process` shim, console routed to the
 * run's stdout/stderr, evaluation of the entry module's default export, and
 * the checks of its result (plain JSON data within `maxResultBytes`).
 */
/** @import { IsolateBridge, RunnerContext, RunnerOutcome } from "../protocol.js" */
import { WorkerEntrypoint } from "cloudflare:workers";
import { __install, __activate, __beforeCall, __violation, __end, __inflight, __settled, __hold, __setGuard, call } from "./workspace-capabilities.js";
import { createReplayFetch } from "./__modules__/workspace-fetch.js";
import { installReplay } from "./workspace-durable.js";
const enc = new TextEncoder();
/** The real timer: replay runs replace the global one with numbered, recorded timers (workspace-durable.js). */
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
/** The real `queueMicrotask`, for reporting a listener's exception after its dispatch (as Node's `process.nextTick`). */
const realQueueMicrotask = globalThis.queueMicrotask.bind(globalThis);
/** `util.promisify.custom` (a registered symbol, the same in every realm). */
const PROMISIFY_CUSTOM = Symbol.for("nodejs.util.promisify.custom");
/** Most bytes (estimated as workerd serializes them) of a result sent back to the host: 30 MiB (src/do/rpc-size.ts). */
const MAX_RPC_RESULT_BYTES = 30 * 1024 * 1024;
/** Bytes sent to the host per `output` call, however many segments they hold (also the largest buffer block). */
const SEND_CHUNK = 64 * 1024;
/** Size of the first buffer block of queued output; later blocks double up to {@link SEND_CHUNK}. */
const FIRST_BLOCK = 1024;
/**
 * @param {Uint8Array[]} parts
 * @returns {Uint8Array}
 */
function concat(parts) {
  if (parts.length === 1) return parts[0];
  let n = 0; for (const p of parts) n += p.byteLength;
  const out = new Uint8Array(n); let o = 0;
  for (const p of parts) { out.set(p, o); o += p.byteLength; }
  return out;
}
/**
 * Total: never throws, whatever was thrown (null-prototype objects, throwing getters/toString, revoked proxies).
 * @param {any} e anything thrown.
 * @returns {string}
 */
function describe(e) {
  try {
    if (e instanceof Error) { const m = e.message; if (typeof m === "string") return m; }
    if (e && (typeof e === "object" || typeof e === "function") && typeof e.message === "string") return e.message;
  } catch {}
  try {
    const s = String(e);
    if (typeof s === "string") return s;
  } catch {}
  try {
    if (e !== null && typeof e === "object" && Object.getPrototypeOf(e) === null) return "[object with null prototype]";
  } catch {}
  return "Uncaught exception (could not be converted to a string)";
}
/**
 * Text as UTF-8, bytes as they are, anything else as `String(d)`.
 * @param {unknown} d
 * @returns {Uint8Array}
 */
function toBytes(d) {
  if (typeof d === "string") return enc.encode(d);
  if (d instanceof Uint8Array) return d;
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  if (d instanceof ArrayBuffer) return new Uint8Array(d);
  return enc.encode(String(d));
}
/**
 * The run's output. Each stream has its own budget of `max` bytes (stdout
 * never starves stderr): the write that crosses it is cut on a UTF-8
 * boundary and everything after it on that stream is dropped and counted;
 * the host appends a marker line with that count when the run ends.
 * The runner's own failure message (`force`) may use `reserve` more bytes
 * of stderr, so a run that filled its stderr still says why it failed.
 *
 * Writes of both streams are copied into one queue of blocks (no per-write
 * object is kept, so a million tiny writes cost their bytes, not a million
 * arrays) with the length of each segment — consecutive writes of one
 * stream are one segment, signed by stream — and sent {@link SEND_CHUNK}
 * bytes and their segments per call, however often the streams alternate;
 * the count of dropped bytes follows each batch (`bridge.dropped`). A batch
 * goes when the code next calls the host (`beforeCall`, run as the call goes
 * on the wire: along with the call when it is one piece, else just before it
 * — RPC keeps the order — so the host has every byte written before a call
 * when the call arrives, and a stop that call meets keeps them), else after
 * the current task (a timer, which fires once the isolate is idle). A timer
 * alone starved while host answers streamed in back to back, and a stop then
 * dropped everything printed since the loop began (issue 20, run 34, fixer JL).
 * Each send puts all its calls on the wire at once, so sends never interleave.
 * @param {IsolateBridge} bridge
 * @param {number} max bytes kept per stream.
 * @param {number} reserve extra stderr bytes for the runner's failure message.
 * @param {(() => number[]) | null} tape replay runs: the tape entries to send along with each batch.
 */
function makeOutput(bridge, max, reserve, tape) {
  /** @typedef {{ used: number, dropped: number, reported: number, cut: boolean, last: number }} StreamState */
  /** @type {Record<"stdout" | "stderr", StreamState>} */
  const streams = {
    stdout: { used: 0, dropped: 0, reported: 0, cut: false, last: 10 },
    stderr: { used: 0, dropped: 0, reported: 0, cut: false, last: 10 },
  };
  let chain = /** @type {Promise<unknown>} */ (Promise.resolve()), scheduled = false;
  /** Queued bytes of both streams, in write order: blocks of {@link FIRST_BLOCK} doubling up to {@link SEND_CHUNK}. */
  /** @type {Uint8Array[]} */
  let blocks = [];
  /** Bytes used of the last block; bytes queued in all. */
  let fill = 0, queued = 0;
  /** Length of each queued segment: positive for stdout, negative for stderr; neighbours differ in sign. */
  /** @type {number[]} */
  let segments = [];
  /**
   * @param {"stdout" | "stderr"} stream
   * @param {Uint8Array} bytes
   */
  function append(stream, bytes) {
    const n = bytes.byteLength, last = segments.length - 1;
    if (stream === "stdout") { if (last >= 0 && segments[last] > 0) segments[last] += n; else segments.push(n); }
    else if (last >= 0 && segments[last] < 0) segments[last] -= n; else segments.push(-n);
    queued += n;
    for (let at = 0; at < n;) {
      let block = blocks[blocks.length - 1];
      if (!block || fill === block.byteLength) {
        block = new Uint8Array(block ? Math.min(SEND_CHUNK, block.byteLength * 2) : FIRST_BLOCK);
        blocks.push(block); fill = 0;
      }
      const k = Math.min(block.byteLength - fill, n - at);
      block.set(bytes.subarray(at, at + k), fill);
      fill += k; at += k;
    }
  }
  /**
   * Takes everything queued, as pieces of at most {@link SEND_CHUNK} bytes with their segments; the queue is empty after.
   * @returns {[Uint8Array, number[]][]}
   */
  function takePieces() {
    /** @type {[Uint8Array, number[]][]} */
    const out = [];
    const from = blocks, lengths = segments;
    let left = queued;
    blocks = []; segments = []; fill = 0; queued = 0;
    // Cursor into `from`: block index and offset.
    let b = 0, o = 0;
    let piece = new Uint8Array(Math.min(SEND_CHUNK, left)), at = 0;
    /** @type {number[]} */
    let parts = [];
    for (const length of lengths) {
      const sign = length > 0 ? 1 : -1;
      for (let rest = Math.abs(length); rest > 0;) {
        const n = Math.min(rest, piece.byteLength - at);
        // Copy n bytes from the cursor into the piece.
        for (let copied = 0; copied < n;) {
          const block = from[b];
          const k = Math.min(block.byteLength - o, n - copied);
          piece.set(block.subarray(o, o + k), at + copied);
          copied += k; o += k;
          if (o === block.byteLength) { b++; o = 0; }
        }
        at += n; rest -= n;
        parts.push(sign * n);
        if (at === piece.byteLength) {
          out.push([piece, parts]);
          left -= at;
          piece = new Uint8Array(Math.min(SEND_CHUNK, left)); at = 0; parts = [];
        }
      }
    }
    return out;
  }
  /** True when a count of dropped bytes waits to be sent. */
  const unreported = () => streams.stdout.dropped !== streams.stdout.reported || streams.stderr.dropped !== streams.stderr.reported;
  /** True when bytes or a count of dropped bytes wait to be sent. */
  const pending = () => segments.length > 0 || unreported();
  /**
   * Sends everything queued: every `bridge.output` and `bridge.dropped` call is made before this returns (run 34,
   * fixer JL: no await between them, so a later send or host call cannot overtake part of this one).
   * @returns {Promise<unknown>} settles once the host took them all.
   */
  function send() {
    /** @type {unknown[]} */
    const sent = [];
    for (const [piece, parts] of takePieces()) sent.push(tape ? bridge.output(piece, parts, tape()) : bridge.output(piece, parts));
    for (const stream of /** @type {const} */ (["stdout", "stderr"])) {
      const s = streams[stream];
      if (s.dropped !== s.reported) { s.reported = s.dropped; sent.push(bridge.dropped(stream, s.dropped)); }
    }
    return Promise.all(sent);
  }
  function schedule() {
    if (!scheduled) { scheduled = true; chain = chain.then(() => new Promise((r) => realSetTimeout(r, 0))).then(() => { scheduled = false; return send(); }); }
  }
  /**
   * Run right before each host call goes on the wire (outside replay runs; run 34, fixer JL): the output queued so
   * far, to go with the call (`[bytes, segments]`), when it is one piece and no count of dropped bytes waits;
   * otherwise it is sent at once by itself (its calls made before this returns) and `undefined` is returned, as
   * when nothing is queued. A send the timer scheduled still runs, and finds less or nothing.
   * @returns {[Uint8Array, number[]] | undefined}
   */
  function beforeCall() {
    if (!pending()) return undefined;
    if (queued <= SEND_CHUNK && !unreported()) return takePieces()[0];
    /** @type {Promise<unknown>} */
    let sent;
    try { sent = send(); } catch (e) { sent = Promise.reject(e); }
    sent.catch(() => {}); // seen through `chain` (flush)
    chain = chain.then(() => sent);
    return undefined;
  }
  /**
   * @param {"stdout" | "stderr"} stream
   * @param {unknown} data
   * @param {boolean} [force] the runner's failure message: may use the reserve, and is sent even after a cut.
   * @returns {true}
   */
  function write(stream, data, force = false) {
    const s = streams[stream];
    let bytes = toBytes(data);
    if (bytes.byteLength === 0) return true;
    if (s.cut && !force) { s.dropped += bytes.byteLength; schedule(); return true; }
    if (force && s.cut && s.last !== 10) bytes = concat([enc.encode("\n"), bytes]);
    const limit = max + (force ? reserve : 0);
    if (s.used + bytes.byteLength > limit) {
      let n = Math.max(0, limit - s.used);
      while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
      s.dropped += bytes.byteLength - n;
      bytes = bytes.subarray(0, n);
      s.cut = true;
    }
    if (bytes.byteLength > 0) {
      s.used += bytes.byteLength;
      s.last = bytes[bytes.byteLength - 1];
      append(stream, bytes);
    }
    schedule();
    return true;
  }
  /** Resolves once everything written so far was sent (every send goes through `chain`, in order). */
  async function flush() {
    for (;;) {
      await chain;
      if (!scheduled && !pending()) return;
      if (!scheduled) { scheduled = true; chain = chain.then(() => { scheduled = false; return send(); }); }
    }
  }
  return { write, flush, beforeCall };
}
/**
 * A copy of `value` as plain JSON data (`undefined` in arrays → null, in objects dropped).
 * @param {any} value
 * @param {string} path where `value` is, for the message.
 * @param {Set<object>} seen containers on the current path.
 * @returns {unknown}
 * @throws TypeError `it holds a … at <path>` for a non-finite number, a function, a cycle or a non-plain object.
 */
function checkPlain(value, path, seen) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("it holds a non-finite number at " + path);
    return value;
  }
  if (typeof value !== "object") throw new TypeError("it holds a " + typeof value + " at " + path);
  if (seen.has(value)) throw new TypeError("it holds a cycle at " + path);
  seen.add(value);
  /** @type {unknown} */
  let out;
  if (Array.isArray(value)) {
    out = value.map((v, i) => (v === undefined ? null : checkPlain(v, path + "[" + i + "]", seen)));
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError("it holds a " + (value.constructor && value.constructor.name || "non-plain object") + " at " + path);
    }
    out = {};
    for (const k of Object.keys(value)) {
      if (value[k] === undefined) continue;
      Object.defineProperty(out, k, { value: checkPlain(value[k], path + "." + k, seen), enumerable: true, writable: true, configurable: true });
    }
  }
  seen.delete(value);
  return out;
}
/**
 * `message` with every internal module name replaced by the name the code used.
 * @param {string} message
 * @param {[string, string][]} names internal → original.
 * @returns {string}
 */
function unmap(message, names) {
  let m = message;
  for (const [internal, original] of names) m = m.split(internal).join(original);
  return m;
}
export default class WorkspaceRuntimeRunner extends WorkerEntrypoint {
  /**
   * Runs the entry's default export once with `input`.
   * @param {unknown} input
   * @param {IsolateBridge} bridge
   * @param {RunnerContext} context
   * @returns {Promise<RunnerOutcome>} `{ code: 0, value }` on success; `{ code }` for `process.exit`,
   *   a non-zero `process.exitCode`, or a failure (message on stderr, code 1).
   */
  async evaluate(input, bridge, context) {
    const replay = context.replay ? installReplay(bridge, context.replay) : null;
    __install(bridge, replay ? replay.call : undefined, context);
    // Replay runs: fetch goes through the host, which journals its answers (spec 02 §5).
    if (replay) {
      const journaled = createReplayFetch((request) => call("fetch", "", "fetch", [request]));
      // In flight from the moment the code calls it (it reads the request's body before the call is made), so the
      // wait after the export covers an unawaited fetch (issue 20, run 39, fixer JD).
      /** @type {typeof fetch} */
      const replayFetch = function fetch(input, init) {
        const release = __hold();
        /** @type {Promise<Response>} */
        let p;
        try { p = journaled(input, init); } catch (e) { release(); throw e; }
        p.then(release, release);
        return p;
      };
      Object.defineProperty(globalThis, "fetch", { value: replayFetch, configurable: true, writable: true });
    }
    const out = makeOutput(bridge, context.maxStdioBytes, context.stdioReserveBytes, replay ? replay.take : null);
    if (replay) replay.beforeSend(out.flush);
    // Output written before a host call goes on the wire before it (run 34, fixer JL); replay runs flush instead.
    else __beforeCall(out.beforeCall);
    /** Replay runs: the outcome when playback found the code took another path, else null. */
    const divergedOutcome = async () => {
      const d = replay ? replay.finish() : null;
      if (d === null) return null;
      await out.flush();
      return /** @type {RunnerOutcome} */ ({ code: 1, diverged: d, calls: replay ? replay.calls() : 0 });
    };
    /**
     * What `process.exit` throws, each a fresh frozen object known only by its identity here (run 39, fixer JD: a
     * symbol key could be faked by a Proxy's `has` trap), with its exit code.
     * @type {WeakMap<object, number>}
     */
    const exits = new WeakMap();
    /**
     * The process's exit code, as Node's: an integer (or an integer's string) taken modulo 256 — `-1` → 255, `256` →
     * 0, as the operating system keeps its low 8 bits (run 39, fixer JD); anything else 1.
     * @param {unknown} code
     */
    const exitCodeOf = (code) => {
      const n = typeof code === "string" && /^\s*[+-]?\d+\s*$/.test(code) ? Number(code) : code ?? 0;
      return typeof n === "number" && Number.isSafeInteger(n) ? ((n % 256) + 256) % 256 : 1;
    };
    /** @param {number} code @returns {Promise<RunnerOutcome>} */
    const exited = async (code) => {
      await out.flush();
      const calls = replay ? { calls: replay.calls() } : {};
      return code === 0 ? { code: 0, value: "null", ...calls } : { code, ...calls };
    };
    /** @param {unknown} e */
    const isExit = (e) => !!e && typeof e === "object" && exits.has(e);
    /** @param {unknown} e process.exit's marker ({@link isExit}) @returns {Promise<RunnerOutcome>} */
    const exitedBy = (e) => exited(/** @type {number} */ (exits.get(/** @type {object} */ (e))));
    /**
     * How the run ended early (issue 20, run 38, fixer JR), as Node's process ends: `process.exit(code)` called
     * anywhere — the export, a timer, an unawaited promise reaction, a write callback — even when the code catches
     * what it throws (Node's cannot be caught); or an exception uncaught in a callback (a timer, `queueMicrotask`,
     * `process.nextTick`, a write callback) or an unhandled rejection. The first one wins; {@link endSignal} settles
     * {@link ended}, which the runner races against the default export and the wait after it, and the channel is
     * closed for good at once (workspace-capabilities.js `__end`), so nothing the code does after it reaches the host.
     * @type {{ exit: number } | { error: unknown } | { rejection: unknown } | null}
     */
    let end = null;
    /** @type {(v: unknown) => void} */
    let endSignal = () => {};
    const ENDED = Symbol("ended");
    const ended = new Promise((r) => { endSignal = r; }).then(() => ENDED);
    /**
     * `p`'s value, or {@link ENDED} once the run ended early, whichever comes first. Built on `await` alone, never
     * `Promise.race` (which calls `Promise.prototype.then`, which the code in the run may have replaced).
     * @param {unknown} p @returns {Promise<unknown>}
     */
    const untilEnd = (p) => new Promise((resolve, reject) => {
      (async () => { try { resolve(await p); } catch (e) { reject(e); } })();
      (async () => { resolve(await ended); })();
    });
    /** @param {{ exit: number } | { error: unknown } | { rejection: unknown }} how */
    const finish = (how) => {
      if (end !== null) return;
      end = how;
      __end("exit" in how ? "process.exit(" + how.exit + ") was called" : "error" in how ? "an uncaught exception" : "an unhandled rejection");
      endSignal(undefined);
    };
    /** @param {unknown} e thrown in a callback the export does not await: a process.exit marker was already handled. */
    const uncaught = (e) => { if (!isExit(e)) finish({ error: e }); };
    /**
     * `fn` wrapped so that what it throws ends the run (exit 1, its stack on stderr) instead of being logged by workerd
     * and forgotten; anything else is passed as it is.
     * @template T @param {T} fn @returns {T}
     */
    const guard = (fn) => {
      if (typeof fn !== "function") return fn;
      const f = /** @type {Function} */ (fn);
      return /** @type {any} */ (/** @this {unknown} */ function (/** @type {unknown[]} */ ...a) {
        try { return f.apply(this, a); } catch (e) { uncaught(e); }
      });
    };
    /** @param {string} message @returns {Promise<RunnerOutcome>} */
    const fail = async (message) => { out.write("stderr", message.endsWith("\n") ? message : message + "\n", true); await out.flush(); return replay ? { code: 1, calls: replay.calls() } : { code: 1 }; };
    /**
     * `process.stdout.write(data[, encoding][, callback])` as Node's Writable (issue 20, run 38, fixer JR): a string
     * `data` with an `encoding` other than UTF-8 (`latin1`, `hex`, `base64`, … as `Buffer.from`) is decoded with it; the
     * bytes are queued for the host and `callback` (the last argument, when a function) is called with no argument on
     * a microtask after, with `null` (no error) as Node's — Node calls it once the bytes are flushed; here they reach the host no later than the next host
     * call or the end of the run. Returns `true` (never back-pressure). Any other `data` than a string or a
     * Buffer/TypedArray/DataView throws Node's TypeError (`ERR_INVALID_ARG_TYPE`, `null` `ERR_STREAM_NULL_VALUES`).
     * @param {"stdout" | "stderr"} stream @param {unknown} d @param {unknown[]} rest
     */
    const streamWrite = (stream, d, rest) => {
      // Node's Writable checks the chunk first and writes nothing when it is not one (issue 20, run 40, fixer f40js).
      if (d === null) throw Object.assign(new TypeError("May not write null values to stream"), { code: "ERR_STREAM_NULL_VALUES" });
      if (typeof d !== "string" && !ArrayBuffer.isView(d)) throw invalidArgType("chunk", "of type string or an instance of Buffer, TypedArray, or DataView", d);
      const encoding = typeof rest[0] === "string" ? rest[0].toLowerCase() : "utf8";
      const B = /** @type {any} */ (globalThis).Buffer;
      if (typeof d === "string" && encoding !== "utf8" && encoding !== "utf-8" && B && typeof B.from === "function") d = B.from(d, encoding);
      if (end) return true; // nothing after the end is printed (run 38, fixer JR)
      out.write(stream, d);
      const cb = rest.length > 0 && typeof rest[rest.length - 1] === "function" ? rest[rest.length - 1] : null;
      if (cb) queueMicrotask(guard(() => /** @type {Function} */ (cb)(null)));
      return true;
    };
    /**
     * Node's `ERR_INVALID_ARG_TYPE` TypeError: `The "<name>" argument must be <expected>. Received <what v is>` (the
     * last part as Node's `determineSpecificType`).
     * @param {string} name @param {string} expected @param {unknown} v
     */
    const invalidArgType = (name, expected, v) => {
      /** @type {string} */
      let what;
      if (v === null || v === undefined) what = String(v);
      else if (typeof v === "function") what = "function " + v.name;
      else if (typeof v === "object") {
        let c;
        try { c = /** @type {{ constructor?: { name?: unknown } }} */ (v).constructor; } catch {}
        what = c && typeof c.name === "string" ? "an instance of " + c.name : "an object";
      } else if (typeof v === "string") {
        const t = v.length > 28 ? v.slice(0, 25) + "..." : v;
        what = "type string (" + (t.includes("'") ? JSON.stringify(t) : "'" + t + "'") + ")";
      } else what = "type " + typeof v + " (" + (typeof v === "number" ? num(v) : typeof v === "bigint" ? v + "n" : String(v)) + ")";
      return Object.assign(new TypeError('The "' + name + '" argument must be ' + expected + ". Received " + what), { code: "ERR_INVALID_ARG_TYPE" });
    };
    let stdinUsed = false;
    const stdin = context.stdin;
    const proc = {
      env: { ...context.env },
      argv: ["workspace", context.entryName],
      argv0: "workspace",
      cwd: () => context.cwd,
      platform: "linux",
      /** @type {unknown} */
      exitCode: undefined,
      // Ends the run with this exit code (like Node's process.exit); output so far is kept.
      /** @param {unknown} [code] @returns {never} */
      // Called anywhere it ends the run (run 38, fixer JR: see `finish`); the throw stops the caller's code now.
      exit: (code) => {
        const c = exitCodeOf(code === undefined ? proc.exitCode : code);
        finish({ exit: c });
        const marker = Object.freeze(Object.create(null));
        exits.set(marker, c);
        throw marker;
      },
      /** @param {unknown} fn @param {unknown[]} args */
      nextTick: (fn, ...args) => {
        // Checked at the call, as Node's (issue 20, run 40, fixer f40js): queued, it threw later, uncatchably.
        if (typeof fn !== "function") throw invalidArgType("callback", "of type function", fn);
        queueMicrotask(() => fn(...args));
      },
      stdin: {
        isTTY: false,
        async *[Symbol.asyncIterator]() {
          if (stdinUsed) return;
          stdinUsed = true;
          if (stdin && stdin.byteLength > 0) yield stdin;
        },
      },
      stdout: { isTTY: false, write: /** @param {unknown} d @param {unknown[]} rest */ (d, ...rest) => streamWrite("stdout", d, rest) },
      stderr: { isTTY: false, write: /** @param {unknown} d @param {unknown[]} rest */ (d, ...rest) => streamWrite("stderr", d, rest) },
    };
    // Delete first: defining over the lazy "process" getter of nodejs_compat would build Node's process
    // object (several ms per cold run) only to throw it away.
    delete /** @type {{ process?: unknown }} */ (globalThis).process;
    Object.defineProperty(globalThis, "process", { value: proc, configurable: true, writable: true });
    // Like Node's console: strings as they are, errors with their stack, -0 as `-0`, functions as `[Function: f]`,
    // objects as JSON (Map/Set/BigInt made readable); never throws, whatever is logged.
    /** @param {unknown} a @returns {string} */
    const show = (a) => {
      if (typeof a === "string") return a;
      if (typeof a === "bigint") return a.toString() + "n";
      if (typeof a === "number") return num(a);
      try {
        if (typeof a === "function") return fnName(a);
        if (a instanceof Error) return a.stack || String(a);
        if (a && typeof a === "object") {
          const json = JSON.stringify(a, (_k, v) =>
            typeof v === "bigint" ? v.toString() + "n" : v instanceof Map ? Object.fromEntries(v) : v instanceof Set ? [...v] : v);
          if (json !== undefined) return json;
        }
        return String(a);
      } catch {
        try { return Object.prototype.toString.call(a); } catch { return "[unprintable]"; }
      }
    };
    /** @param {number} n */
    function num(n) { return Object.is(n, -0) ? "-0" : String(n); }
    /**
     * A function as Node's util.inspect names it (issue 20, run 40, fixer f40js): `[Function: f]`, `[class A]`,
     * `[class B extends A]`, `[Function (anonymous)]`, `[AsyncFunction: g]`, `[GeneratorFunction: h]` — never its source.
     * @param {Function} f
     */
    function fnName(f) {
      const name = typeof f.name === "string" && f.name ? f.name : "";
      let source = "";
      try { source = Function.prototype.toString.call(f); } catch {}
      if (/^class\b/.test(source)) {
        const base = Object.getPrototypeOf(f);
        const ext = typeof base === "function" && base !== Function.prototype && base.name ? " extends " + base.name : "";
        return "[class " + (name || "(anonymous)") + ext + "]";
      }
      let type = "Function";
      try {
        const c = Object.getPrototypeOf(f)?.constructor;
        if (c && typeof c.name === "string" && /^(Async|Generator|AsyncGenerator)?Function$/.test(c.name)) type = c.name;
      } catch {}
      return "[" + type + (name ? ": " + name : " (anonymous)") + "]";
    }
    /**
     * A string quoted as Node's util.inspect quotes it: `'…'`, or `"…"` when it holds a `'` and no `"`, or `` `…` ``
     * when it holds both and no backtick; control characters escaped (`\n`, `\x1B`, …) (issue 20, run 40, fixer f40js).
     * @param {string} str
     */
    const quote = (str) => {
      let q = "'";
      if (str.includes("'")) {
        if (!str.includes('"')) q = '"';
        else if (!str.includes("`") && !str.includes("${")) q = "`";
      }
      /** @type {Record<string, string>} */
      const named = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", "\\": "\\\\" };
      const escaped = str.replace(/[\x00-\x1f\x7f\\'"`]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
        if (c === q) return "\\" + c;
        if (c === "'" || c === '"' || c === "`") return c;
        if (named[c]) return named[c];
        const code = c.charCodeAt(0);
        return code > 0xff ? "\\u" + code.toString(16) : "\\x" + code.toString(16).toUpperCase().padStart(2, "0");
      });
      return q + escaped + q;
    };
    /** A value as `util.inspect` prints it here: a string quoted, anything else as {@link show}. @param {unknown} a */
    const inspect = (a) => (typeof a === "string" ? quote(a) : show(a));
    /**
     * Node's `util.format` specifiers (Node 22 docs, util.format), when the first argument is a string and more
     * follow: `%s` (strings as they are, BigInt with `n`, -0 as `-0`, objects as `show` prints them), `%d` Number,
     * `%i` parseInt, `%f` parseFloat, `%j` JSON (`[Circular]` for a cycle), `%o`/`%O` as `inspect` (a string quoted; run 40), `%c` consumed and
     * printed as nothing, `%%` → `%`; a specifier with no argument left, or an unknown one, stays as written. The
     * remaining arguments follow, separated by spaces (issue 20, run 39).
     * @param {unknown[]} args
     */
    const line = (args) => {
      const first = args[0];
      if (typeof first !== "string" || args.length < 2 || !first.includes("%")) return args.map(show).join(" ") + "\n";
      let i = 1;
      /** @type {(a: unknown) => string} */
      const json = (a) => {
        try {
          const t = JSON.stringify(a, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
          return t === undefined ? "undefined" : t;
        } catch (e) {
          return e instanceof TypeError && /circular/i.test(e.message) ? "[Circular]" : show(a);
        }
      };
      /** @type {Record<string, (a: unknown) => string>} */
      const conv = {
        s: (a) => (typeof a === "number" ? num(a) : typeof a === "bigint" ? `${a}n` : typeof a === "symbol" ? String(a) : show(a)),
        d: (a) => (typeof a === "bigint" ? `${a}n` : typeof a === "symbol" ? "NaN" : num(Number(a))),
        i: (a) => (typeof a === "bigint" ? `${a}n` : typeof a === "symbol" ? "NaN" : num(parseInt(/** @type {string} */ (a)))),
        f: (a) => (typeof a === "symbol" ? "NaN" : num(parseFloat(/** @type {string} */ (a)))),
        j: json,
        o: inspect,
        O: inspect,
        c: () => "",
      };
      let text;
      try {
        text = first.replace(/%([sdifjoOc%])/g, (m, c) => {
          if (c === "%") return "%";
          if (i >= args.length) return m;
          return conv[c](args[i++]);
        });
      } catch {
        text = first;
        i = 1;
      }
      const rest = args.slice(i).map(show);
      return (rest.length > 0 ? text + " " + rest.join(" ") : text) + "\n";
    };
    // Nothing the code prints after the run ended early (`try { process.exit(1) } catch {}; console.log(…)`) is kept,
    // as nothing runs after Node's process.exit (run 38, fixer JR).
    /** `console.group`'s indentation: two spaces a level, put before every line printed, as Node's. */
    let indent = "";
    /** @param {"stdout" | "stderr"} stream @param {string} text lines ending in a newline. */
    const emit = (stream, text) => {
      if (end) return;
      out.write(stream, indent ? indent + text.slice(0, -1).split("\n").join("\n" + indent) + "\n" : text);
    };
    for (const k of /** @type {const} */ (["log", "info", "debug"])) console[k] = (...a) => emit("stdout", line(a));
    for (const k of /** @type {const} */ (["warn", "error"])) console[k] = (...a) => emit("stderr", line(a));
    // The rest of Node's console methods print to the run's output too, as Node 22's (issue 20, run 40, fixer f40js:
    // they were workerd's own and printed to its log, so a failed `console.assert` was lost). `console.time` /
    // `timeEnd` / `timeLog` stay workerd's (docs/runtime.md).
    /** @type {Map<string, number>} */
    const counts = new Map();
    /** @param {unknown[]} a */
    const group = (...a) => { if (a.length > 0) emit("stdout", line(a)); indent += "  "; };
    /**
     * Node's `console.table` (Node 22, left-aligned cells): rows by index or key, a column per property of the rows
     * (or `properties`), a `Values` column for primitive rows; a Map or Set by iteration index. Cells are printed as
     * `inspect` prints them (objects as JSON); widths count code points.
     * @param {unknown} data @param {unknown} [properties]
     */
    const table = (data, properties) => {
      if (data === null || typeof data !== "object") { emit("stdout", line([data])); return; }
      const props = Array.isArray(properties) ? properties.map((p) => `${p}`) : undefined;
      /** @type {string[]} */
      let head;
      /** @type {string[][]} */
      let columns;
      const indices = (/** @type {number} */ n) => Array.from({ length: n }, (_, i) => String(i));
      if (data instanceof Map) {
        const entries = [...data];
        head = ["(iteration index)", "Key", "Values"];
        columns = [indices(entries.length), entries.map(([k]) => inspect(k)), entries.map(([, v]) => inspect(v))];
      } else if (data instanceof Set) {
        const values = [...data];
        head = ["(iteration index)", "Values"];
        columns = [indices(values.length), values.map(inspect)];
      } else {
        const rows = Object.keys(data);
        /** @type {Map<string, string[]>} */
        const map = new Map();
        /** @type {string[]} */
        const primitives = [];
        let hasPrimitives = false;
        rows.forEach((key, i) => {
          const item = /** @type {Record<string, unknown>} */ (data)[key];
          const primitive = item === null || (typeof item !== "function" && typeof item !== "object");
          if (props === undefined && primitive) { hasPrimitives = true; primitives[i] = inspect(item); return; }
          for (const k of props || Object.keys(/** @type {object} */ (item))) {
            if (!map.has(k)) map.set(k, []);
            const cells = /** @type {string[]} */ (map.get(k));
            cells[i] = primitive || !Object.prototype.hasOwnProperty.call(item, k) ? "" : inspect(/** @type {Record<string, unknown>} */ (item)[k]);
          }
        });
        head = ["(index)", ...map.keys()];
        columns = [rows, ...map.values()];
        if (hasPrimitives) { head.push("Values"); columns.push(primitives); }
      }
      const width = (/** @type {string} */ t) => [...t].length;
      const widths = head.map(width);
      const count = Math.max(0, ...columns.map((c) => c.length));
      /** @type {string[][]} */
      const body = [];
      for (let j = 0; j < count; j++) {
        body.push(columns.map((c, i) => { const v = c[j] === undefined ? "" : c[j]; widths[i] = Math.max(widths[i], width(v)); return v; }));
      }
      const row = (/** @type {string[]} */ cells) => "│ " + cells.map((c, i) => c + " ".repeat(widths[i] - width(c))).join(" │ ") + " │\n";
      const rule = (/** @type {string} */ l, /** @type {string} */ m, /** @type {string} */ r) => l + widths.map((w) => "─".repeat(w + 2)).join(m) + r + "\n";
      emit("stdout", rule("┌", "┬", "┐") + row(head) + rule("├", "┼", "┤") + body.map(row).join("") + rule("└", "┴", "┘"));
    };
    Object.assign(console, {
      /** @param {unknown} v */
      dir: (v) => emit("stdout", inspect(v) + "\n"),
      /** @param {unknown[]} a */
      dirxml: (...a) => emit("stdout", line(a)),
      count: (label = "default") => {
        const k = `${label}`, n = (counts.get(k) || 0) + 1;
        counts.set(k, n);
        emit("stdout", k + ": " + n + "\n");
      },
      countReset: (label = "default") => { counts.delete(`${label}`); },
      group,
      groupCollapsed: group,
      groupEnd: () => { indent = indent.slice(0, -2); },
      /** @param {unknown} value @param {unknown[]} a */
      assert: (value, ...a) => {
        if (value) return;
        if (typeof a[0] === "string") a[0] = "Assertion failed: " + a[0];
        else a.unshift("Assertion failed");
        emit("stderr", line(a));
      },
      /** `Trace: <message>` and the stack of the call, as Node's. @param {unknown[]} a */
      trace: function trace(...a) {
        const e = { name: "Trace", message: a.length > 0 ? line(a).slice(0, -1) : "", stack: "" };
        const capture = /** @type {any} */ (Error).captureStackTrace;
        if (typeof capture === "function") capture(e, trace);
        const text = typeof e.stack === "string" && e.stack ? e.stack : e.message ? "Trace: " + e.message : "Trace";
        emit("stderr", unmap(text, Object.entries(context.names || {})) + "\n");
      },
      table,
    });
    /** @type {unknown[]} */
    const rejections = [];
    // An unhandled rejection ends the run at once, as Node's (`--unhandled-rejections=throw`, its default); one whose
    // reason is process.exit's marker is that exit, already handled (run 38, fixer JR).
    addEventListener("unhandledrejection", (event) => {
      if (event.preventDefault) event.preventDefault();
      if (isExit(event.reason)) return;
      rejections.push(event.reason);
      finish({ rejection: event.reason });
    });
    // An exception workerd reports as uncaught outside the callbacks guarded below (run 38, fixer JR).
    try {
      /** @type {any} */ (addEventListener)("error", (/** @type {any} */ event) => {
        try { if (event && event.preventDefault) event.preventDefault(); } catch {}
        uncaught(event && "error" in event ? event.error : event);
      });
    } catch {}
    // Callbacks of timers and microtasks (replay runs: the recorded timers installed above) run guarded: a throw in one
    // ends the run with exit 1 as Node's process ends (run 38, fixer JR).
    {
      const g = /** @type {Record<string, any>} */ (/** @type {unknown} */ (globalThis));
      /**
       * Puts `wrapped` where `name` lives — on the object of the global's prototype chain that owns it, with its
       * own attributes — so the code sees the same own globals as before (`setImmediate`, `queueMicrotask` stay on
       * the global scope's prototype, as attack6/sandbox-module-graph pins); a data property that cannot be
       * redefined there is shadowed on the global itself (run 38, lead).
       * @param {string} name @param {Function} wrapped
       */
      const replaceGlobal = (name, wrapped) => {
        /** @type {object | null} */
        let owner = globalThis;
        while (owner && !Object.prototype.hasOwnProperty.call(owner, name)) owner = Object.getPrototypeOf(owner);
        const d = owner ? Object.getOwnPropertyDescriptor(owner, name) : undefined;
        if (owner && d && "value" in d && d.configurable) {
          Object.defineProperty(owner, name, { value: wrapped, writable: d.writable, enumerable: d.enumerable, configurable: true });
        } else {
          Object.defineProperty(globalThis, name, { value: wrapped, configurable: true, writable: true });
        }
      };
      /** @type {Record<string, Function>} */
      const wrappedTimers = {};
      for (const name of ["setTimeout", "setInterval", "setImmediate"]) {
        const real = g[name];
        if (typeof real !== "function") continue;
        const wrapped = (/** @type {unknown} */ fn, /** @type {unknown[]} */ ...rest) => real.call(globalThis, guard(fn), ...rest);
        wrappedTimers[name] = wrapped;
        replaceGlobal(name, wrapped);
      }
      // `util.promisify(setTimeout)` / `(setImmediate)` as Node's (`[util.promisify.custom]`, as node:timers/promises):
      // `(delay, value, { signal })` / `(value, { signal })` resolve `value` through the run's own timers (replay
      // runs: the recorded ones); an aborted signal rejects with Node's AbortError (run 39, fixer JD).
      /** @param {unknown} options @param {(resolve: (v: unknown) => void) => unknown} start @param {(h: unknown) => void} stop */
      const promised = (options, start, stop) => new Promise((resolve, reject) => {
        if (options !== undefined && (options === null || typeof options !== "object")) {
          throw Object.assign(new TypeError('The "options" argument must be of type object. Received ' + (options === null ? "null" : "type " + typeof options)), { code: "ERR_INVALID_ARG_TYPE" });
        }
        const signal = options ? /** @type {{ signal?: AbortSignal }} */ (options).signal : undefined;
        const abortError = () => Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR", cause: signal && signal.reason });
        if (signal && signal.aborted) { reject(abortError()); return; }
        const onAbort = () => { stop(h); reject(abortError()); };
        const h = start((v) => { if (signal) signal.removeEventListener("abort", onAbort); resolve(v); });
        if (signal) signal.addEventListener("abort", onAbort, { once: true });
      });
      if (wrappedTimers.setTimeout) {
        const set = wrappedTimers.setTimeout, clear = g.clearTimeout;
        Object.defineProperty(set, PROMISIFY_CUSTOM, {
          value: (/** @type {unknown} */ ms, /** @type {unknown} */ value, /** @type {unknown} */ options) =>
            promised(options, (resolve) => set(() => resolve(value), ms), (h) => clear(h)),
        });
      }
      if (wrappedTimers.setImmediate) {
        const set = wrappedTimers.setImmediate, clear = g.clearImmediate;
        Object.defineProperty(set, PROMISIFY_CUSTOM, {
          value: (/** @type {unknown} */ value, /** @type {unknown} */ options) =>
            promised(options, (resolve) => set(() => resolve(value)), (h) => clear(h)),
        });
      }
      const realQueueMicrotask = g.queueMicrotask;
      if (typeof realQueueMicrotask === "function") {
        replaceGlobal("queueMicrotask", (/** @type {unknown} */ fn) => realQueueMicrotask.call(globalThis, guard(fn)));
      }
    }
    // Callbacks the platform calls elsewhere (issue 20, run 39, fixer JD): `node:timers` (its shim,
    // __modules__/node-timers.js, wraps them with this guard), the recorded timers of replay runs (their `fire`), and
    // every EventTarget listener and `on…` handler — an `AbortSignal.timeout` abort listener, `controller.abort()`'s,
    // `dispatchEvent`'s. As in Node, a listener's exception never reaches the dispatcher: the other listeners still
    // run, `dispatchEvent` and `abort()` return, and the run ends after the current code, on a microtask, with exit 1
    // and the error's stack (Node throws it again from `process.nextTick`).
    __setGuard(guard);
    if (replay) replay.guardWith(guard);
    /** @param {unknown} e */
    const reportLater = (e) => { realQueueMicrotask(() => uncaught(e)); };
    const ET = /** @type {typeof EventTarget | undefined} */ (/** @type {any} */ (globalThis).EventTarget);
    if (typeof ET === "function" && ET.prototype) {
      const proto = ET.prototype;
      const realAdd = proto.addEventListener, realRemove = proto.removeEventListener;
      /** Listener → its guarded wrapper (one each, so adding twice or removing finds the same). @type {WeakMap<object, Function>} */
      const wrappers = new WeakMap();
      /** Wrapper → listener (an `on…` getter gives back what was set). @type {WeakMap<Function, unknown>} */
      const originals = new WeakMap();
      /** @param {unknown} l @returns {unknown} */
      const wrapListener = (l) => {
        if (l === null || (typeof l !== "function" && typeof l !== "object")) return l;
        const key = /** @type {object} */ (l);
        let w = wrappers.get(key);
        if (!w) {
          w = /** @this {unknown} */ function (/** @type {Event} */ event) {
            try {
              if (typeof l === "function") return l.call(this, event);
              const handle = /** @type {{ handleEvent?: unknown }} */ (l).handleEvent;
              if (typeof handle !== "function") throw new TypeError("The \"listener\" object has no handleEvent method");
              return handle.call(l, event);
            } catch (e) {
              if (!isExit(e)) reportLater(e);
            }
          };
          wrappers.set(key, w);
          originals.set(w, l);
        }
        return w;
      };
      /** Replaces method `k` of `o`, keeping its attributes. @param {object} o @param {string} k @param {Function} f */
      const define = (o, k, f) => {
        const d = Object.getOwnPropertyDescriptor(o, k);
        Object.defineProperty(o, k, { value: f, writable: d ? !!d.writable : true, enumerable: d ? !!d.enumerable : false, configurable: true });
      };
      if (typeof realAdd === "function" && typeof realRemove === "function") {
        define(proto, "addEventListener", { addEventListener(/** @type {string} */ type, /** @type {unknown} */ listener, /** @type {unknown} */ options) {
          return realAdd.call(this, type, /** @type {any} */ (wrapListener(listener)), /** @type {any} */ (options));
        } }.addEventListener);
        define(proto, "removeEventListener", { removeEventListener(/** @type {string} */ type, /** @type {unknown} */ listener, /** @type {unknown} */ options) {
          const w = listener !== null && (typeof listener === "function" || typeof listener === "object") ? wrappers.get(/** @type {object} */ (listener)) : undefined;
          return realRemove.call(this, type, /** @type {any} */ (w || listener), /** @type {any} */ (options));
        } }.removeEventListener);
      }
      // `on…` handlers of every global EventTarget class (`AbortSignal#onabort`, …): the global and its prototype
      // chain (where workerd puts most of its classes), read without calling any getter.
      /** @type {Set<Function>} */
      const classes = new Set();
      for (let o = /** @type {object | null} */ (globalThis); o; o = Object.getPrototypeOf(o)) {
        for (const name of Object.getOwnPropertyNames(o)) {
          const d = Object.getOwnPropertyDescriptor(o, name);
          const C = d && "value" in d ? d.value : undefined;
          if (typeof C === "function" && C.prototype && typeof C.prototype === "object" && C.prototype instanceof ET) classes.add(C);
        }
      }
      for (const C of classes) {
        for (const k of Object.getOwnPropertyNames(C.prototype)) {
          if (!k.startsWith("on")) continue;
          const h = Object.getOwnPropertyDescriptor(C.prototype, k);
          if (!h || !h.get || !h.set || !h.configurable) continue;
          const get = h.get, set = h.set;
          Object.defineProperty(C.prototype, k, {
            configurable: true,
            enumerable: h.enumerable,
            get: /** @type {() => unknown} */ (Object.getOwnPropertyDescriptor({ get [k]() {
              const v = get.call(this);
              return typeof v === "function" && originals.has(v) ? originals.get(v) : v;
            } }, k)?.get),
            set: /** @type {(v: unknown) => void} */ (Object.getOwnPropertyDescriptor({ set [k](/** @type {unknown} */ v) {
              set.call(this, typeof v === "function" ? wrapListener(v) : v);
            } }, k)?.set),
          });
        }
      }
    }
    const names = Object.entries(context.names || {});
    /** @returns {Promise<RunnerOutcome>} the outcome of an early end ({@link end}). */
    const endOutcome = async () => {
      const how = /** @type {NonNullable<typeof end>} */ (end);
      if ("exit" in how) return exited(how.exit);
      if ("rejection" in how) return fail("Unhandled rejection: " + unmap(describe(how.rejection), names));
      const e = how.error;
      /** @type {string} */
      let text;
      try { text = e instanceof Error && typeof e.stack === "string" && e.stack ? e.stack : describe(e); } catch { text = describe(e); }
      return fail(unmap(text, names));
    };
    let mod;
    try {
      mod = await import(context.entry);
    } catch (e) {
      if (end) return endOutcome();
      if (isExit(e)) return exitedBy(e);
      return fail(unmap(describe(e), names));
    }
    if (end) return endOutcome();
    const violation = __violation();
    if (violation) return fail(violation.message);
    __activate(true);
    let value;
    try {
      const d = mod.default;
      const running = typeof d === "function" ? d(input) : d;
      if (replay) {
        const DIVERGED = Symbol("diverged");
        const first = await Promise.race([running, ended, replay.divergence.then(() => DIVERGED)]);
        if (first === DIVERGED) { __activate(false); return /** @type {RunnerOutcome} */ (await divergedOutcome()); }
        value = first;
      } else value = await untilEnd(running);
      if (value === ENDED) {
        const d = await divergedOutcome();
        return d || endOutcome();
      }
    } catch (e) {
      __activate(false);
      const d = await divergedOutcome();
      if (d) return d;
      if (end) return endOutcome();
      if (isExit(e)) return exitedBy(e);
      return fail(unmap(describe(e), names));
    }
    // After the export settles, the run stays alive while host calls it started are on the wire or waiting for room
    // in their window — and what their answers start in turn (`writeFile(a).then(() => writeFile(b))`, an unawaited
    // loop of awaited writes): a macrotask passes, and the run ends once none is in flight (issue 20, run 38, fixer
    // JR). Node waits for its whole event loop; pending timers are not waited for here (docs/runtime.md). The host's
    // timeoutMs bounds the wait.
    for (;;) {
      if ((await untilEnd(new Promise((r) => realSetTimeout(r, 0)))) === ENDED) break;
      if (__inflight() === 0) break;
      if ((await untilEnd(__settled())) === ENDED) break;
    }
    __activate(false);
    if (end) {
      const d = await divergedOutcome();
      return d || endOutcome();
    }
    const diverged = await divergedOutcome();
    if (diverged) return diverged;
    if (rejections.length > 0) return fail("Unhandled rejection: " + describe(rejections[0]));
    let json;
    try {
      json = JSON.stringify(checkPlain(value === undefined ? null : value, "the result", new Set()));
    } catch (e) {
      return fail("The default export returned a value that is not JSON-compatible plain data: " + describe(e));
    }
    const size = enc.encode(json).byteLength;
    if (size > context.maxResultBytes) {
      return fail("The default export returned " + size + " bytes of JSON, over maxResultBytes (" + context.maxResultBytes + " bytes).");
    }
    // maxResultBytes raised: the JSON goes back to the host in one RPC answer, which workerd refuses past 32 MiB
    // (its uncoded error would end the run instead). Estimated as workerd serializes it: one byte a character of
    // Latin-1 text, else two. (A replaced JSON.stringify may give no string: the host checks what it gets.)
    const sent = typeof json === "string" ? json.length * (/[^\u0000-\u00ff]/.test(json) ? 2 : 1) : 0;
    if (sent > MAX_RPC_RESULT_BYTES) {
      return fail("The default export returned " + size + " bytes of JSON (" + sent + " as sent), more than crosses RPC back to the host (" + MAX_RPC_RESULT_BYTES + " bytes; workerd's limit is 32 MiB). Write a large result to a file and return its path.");
    }
    await out.flush();
    const exitCode = exitCodeOf(proc.exitCode);
    const calls = replay ? { calls: replay.calls() } : {};
    if (exitCode !== 0) return { code: exitCode, ...calls };
    return { code: 0, value: json, ...calls };
  }
}
