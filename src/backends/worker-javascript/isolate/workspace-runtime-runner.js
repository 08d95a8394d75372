// @ts-check
/**
 * Module `workspace-runtime-runner.js`, the main module of every run's
 * Dynamic Worker (spec 02 §3.5): a `process` shim, console routed to the
 * run's stdout/stderr, evaluation of the entry module's default export, and
 * the checks of its result (plain JSON data within `maxResultBytes`).
 */
/** @import { IsolateBridge, RunnerContext, RunnerOutcome } from "../protocol.js" */
import { WorkerEntrypoint } from "cloudflare:workers";
import { __install, __activate, __violation } from "./workspace-capabilities.js";
const enc = new TextEncoder();
/** Bytes sent to the host per `output` call. */
const SEND_CHUNK = 256 * 1024;
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
 * The run's output: writes are queued and sent after the current task, at
 * most `max` bytes in all (cut on a UTF-8 boundary, then `...[stdio truncated]`).
 * @param {IsolateBridge} bridge
 * @param {number} max
 */
function makeOutput(bridge, max) {
  let used = 0, cut = false, chain = Promise.resolve(), scheduled = false;
  /** @type {{ stream: "stdout" | "stderr", parts: Uint8Array[] }[]} */
  let queue = [];
  async function send() {
    scheduled = false;
    const items = queue; queue = [];
    for (const it of items) {
      const b = concat(it.parts);
      for (let o = 0; o < b.byteLength; o += SEND_CHUNK) await bridge.output(it.stream, b.subarray(o, o + SEND_CHUNK));
    }
  }
  /**
   * @param {"stdout" | "stderr"} stream
   * @param {unknown} data
   * @returns {true}
   */
  function write(stream, data) {
    if (cut) return true;
    let bytes = toBytes(data);
    if (bytes.byteLength === 0) return true;
    if (used + bytes.byteLength > max) {
      let n = max - used;
      while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
      bytes = concat([bytes.subarray(0, n), enc.encode("...[stdio truncated]")]);
      cut = true;
    }
    used += bytes.byteLength;
    const last = queue[queue.length - 1];
    if (last && last.stream === stream) last.parts.push(bytes); else queue.push({ stream, parts: [bytes] });
    if (!scheduled) { scheduled = true; chain = chain.then(() => new Promise((r) => setTimeout(r, 0))).then(send); }
    return true;
  }
  async function flush() { await chain; if (queue.length) await send(); }
  return { write, flush };
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
    __install(bridge);
    const out = makeOutput(bridge, context.maxStdioBytes);
    const EXIT = Symbol("process.exit");
    /** @param {unknown} code */
    const exitCodeOf = (code) => { const n = Number(code ?? 0); return Number.isInteger(n) && n >= 0 && n <= 255 ? n : 1; };
    /** @param {any} e @returns {Promise<RunnerOutcome>} */
    const exited = async (e) => { await out.flush(); const code = e[EXIT]; return code === 0 ? { code: 0, value: "null" } : { code }; };
    /** @param {unknown} e */
    const isExit = (e) => { try { return !!e && typeof e === "object" && EXIT in e; } catch { return false; } };
    /** @param {string} message @returns {Promise<RunnerOutcome>} */
    const fail = async (message) => { out.write("stderr", message.endsWith("\n") ? message : message + "\n"); await out.flush(); return { code: 1 }; };
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
      exit: (code) => { throw { [EXIT]: exitCodeOf(code === undefined ? proc.exitCode : code) }; },
      /** @param {(...args: unknown[]) => void} fn @param {unknown[]} args */
      nextTick: (fn, ...args) => queueMicrotask(() => fn(...args)),
      stdin: {
        isTTY: false,
        async *[Symbol.asyncIterator]() {
          if (stdinUsed) return;
          stdinUsed = true;
          if (stdin && stdin.byteLength > 0) yield stdin;
        },
      },
      stdout: { isTTY: false, write: /** @param {unknown} d */ (d) => out.write("stdout", d) },
      stderr: { isTTY: false, write: /** @param {unknown} d */ (d) => out.write("stderr", d) },
    };
    // Delete first: defining over the lazy "process" getter of nodejs_compat would build Node's process
    // object (several ms per cold run) only to throw it away.
    delete /** @type {{ process?: unknown }} */ (globalThis).process;
    Object.defineProperty(globalThis, "process", { value: proc, configurable: true, writable: true });
    // Like Node's console: strings as they are, errors with their stack, objects as JSON
    // (Map/Set/BigInt made readable); never throws, whatever is logged.
    /** @param {unknown} a @returns {string} */
    const show = (a) => {
      if (typeof a === "string") return a;
      if (typeof a === "bigint") return a.toString() + "n";
      try {
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
    /** @param {unknown[]} args */
    const line = (args) => args.map(show).join(" ") + "\n";
    for (const k of /** @type {const} */ (["log", "info", "debug"])) console[k] = (...a) => { out.write("stdout", line(a)); };
    for (const k of /** @type {const} */ (["warn", "error"])) console[k] = (...a) => { out.write("stderr", line(a)); };
    /** @type {unknown[]} */
    const rejections = [];
    addEventListener("unhandledrejection", (event) => { rejections.push(event.reason); if (event.preventDefault) event.preventDefault(); });
    const names = Object.entries(context.names || {});
    let mod;
    try {
      mod = await import(context.entry);
    } catch (e) {
      if (isExit(e)) return exited(e);
      return fail(unmap(describe(e), names));
    }
    const violation = __violation();
    if (violation) return fail(violation.message);
    __activate(true);
    let value;
    try {
      const d = mod.default;
      value = typeof d === "function" ? await d(input) : await d;
    } catch (e) {
      __activate(false);
      if (isExit(e)) return exited(e);
      return fail(unmap(describe(e), names));
    }
    await new Promise((r) => setTimeout(r, 0));
    __activate(false);
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
    await out.flush();
    const exitCode = exitCodeOf(proc.exitCode);
    if (exitCode !== 0) return { code: exitCode };
    return { code: 0, value: json };
  }
}
