/**
 * Sources of the internal modules loaded into every Dynamic Worker: the
 * runner entrypoint, the capability channel, `node:fs` / `node:fs/promises`
 * and the `ws:*` host-module stubs. They are plain strings so the backend
 * can hand them to the Worker Loader.
 *
 * @module
 */

/** Main module of each Dynamic Worker. */
export const RUNNER_MODULE = "workspace-runtime-runner.js";
/** The capability channel shared by fs and host-module stubs. */
export const CAPABILITIES_MODULE = "workspace-capabilities.js";

/** The capability channel: host calls are allowed only while the default export runs. */
export const CAPABILITIES_SOURCE = String.raw`
let bridge = null;
const state = { active: false, violation: null };
export function __install(b) { bridge = b; }
export function __activate(on) { state.active = on; }
export function __violation() { return state.violation; }
function rebuild(e) {
  const Ctor = e && e.name === "TypeError" ? TypeError : e && e.name === "RangeError" ? RangeError : Error;
  const err = new Ctor(e && e.message ? e.message : String(e));
  if (e && typeof e.code === "string") err.code = e.code;
  if (e && typeof e.path === "string") err.path = e.path;
  return err;
}
export async function call(kind, target, name, args) {
  if (!state.active) {
    const what = kind === "fs" ? "fs." + name + "()" : target + " " + name + "()";
    const err = new Error(what + " was called at module scope (top level). File and host calls only work inside the default export: put them in export default async function (input) { ... }.");
    if (!state.violation) state.violation = err;
    throw err;
  }
  const r = await bridge.call(kind, target, name, args);
  if (!r.ok) throw rebuild(r.error);
  return r.value;
}
`;

/** `node:fs/promises` over the host bridge (spec 02 §3.4). */
export const FS_PROMISES_SOURCE = String.raw`
import { call } from "/workspace-capabilities.js";
function encodingOf(o, fn) {
  const e = typeof o === "string" ? o : o && typeof o === "object" ? o.encoding : undefined;
  if (e === undefined || e === null) return null;
  if (e === "utf8" || e === "utf-8") return "utf8";
  throw new TypeError(fn + ": encoding " + JSON.stringify(e) + " is not supported; use \"utf8\" or read bytes");
}
function statOf(s) {
  return {
    name: s.name, inode: s.inode, mode: s.mode, mtime: s.mtime, size: s.size,
    isFile: () => s.isFile, isDirectory: () => s.isDirectory, isSymbolicLink: () => s.isSymbolicLink,
  };
}
export async function readFile(path, options) {
  return call("fs", "", "readFile", [path, encodingOf(options, "readFile")]);
}
export async function writeFile(path, data, options) {
  const flag = options && typeof options === "object" && options.flag !== undefined ? options.flag : "w";
  if (flag !== "w" && flag !== "wx") throw new TypeError("writeFile: flag " + JSON.stringify(flag) + " is not supported; use \"w\" or \"wx\"");
  let bytes;
  if (typeof data === "string") bytes = data;
  else if (data instanceof Uint8Array) bytes = data;
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else throw new TypeError("writeFile: data must be a string or bytes");
  await call("fs", "", "writeFile", [path, bytes, flag]);
}
export async function mkdir(path, options) {
  await call("fs", "", "mkdir", [path, !!(options && options.recursive)]);
}
export async function rm(path, options) {
  await call("fs", "", "rm", [path, !!(options && options.recursive), !!(options && options.force)]);
}
export async function chmod(path, mode) { await call("fs", "", "chmod", [path, mode]); }
export async function symlink(target, path) { await call("fs", "", "symlink", [target, path]); }
export async function readlink(path) { return call("fs", "", "readlink", [path]); }
export async function readdir(path = ".", options) {
  const entries = await call("fs", "", "readdir", [path]);
  if (options && options.withFileTypes) {
    return entries.map((e) => ({ name: e.name, isFile: () => e.isFile, isDirectory: () => e.isDirectory, isSymbolicLink: () => e.isSymbolicLink }));
  }
  return entries.map((e) => e.name);
}
export async function stat(path) { return statOf(await call("fs", "", "stat", [path])); }
export async function lstat(path) { return statOf(await call("fs", "", "lstat", [path])); }
export async function access(path) { await call("fs", "", "access", [path]); }
const fs = { readFile, writeFile, mkdir, rm, chmod, symlink, readlink, readdir, stat, lstat, access };
export default fs;
`;

/** `node:fs`: the same promise API, plus `promises`. */
export const FS_SOURCE = String.raw`
import fs from "/__modules__/node-fs-promises.js";
export { readFile, writeFile, mkdir, rm, chmod, symlink, readlink, readdir, stat, lstat, access } from "/__modules__/node-fs-promises.js";
export const promises = fs;
export default { ...fs, promises: fs };
`;

/** A `ws:*` stub: each export forwards its arguments to the host function. */
export function hostModuleSource(name: string, exports: readonly string[]): string {
  // Export names may be reserved words (`delete`), so bind locals and export them by name.
  const lines = [`import { call } from "/workspace-capabilities.js";`];
  exports.forEach((fn, i) => {
    lines.push(`const __f${i} = (...args) => call("host", ${JSON.stringify(name)}, ${JSON.stringify(fn)}, args);`);
    lines.push(`export { __f${i} as ${fn} };`);
  });
  return lines.join("\n");
}

/** The runner: process shim, console routing, evaluation of the entry, result checks. */
export const RUNNER_SOURCE = String.raw`
import { WorkerEntrypoint } from "cloudflare:workers";
import { __install, __activate, __violation } from "/workspace-capabilities.js";
const enc = new TextEncoder();
const SEND_CHUNK = 256 * 1024;
function concat(parts) {
  if (parts.length === 1) return parts[0];
  let n = 0; for (const p of parts) n += p.byteLength;
  const out = new Uint8Array(n); let o = 0;
  for (const p of parts) { out.set(p, o); o += p.byteLength; }
  return out;
}
// Total: never throws, whatever was thrown (null-prototype objects, throwing getters/toString, revoked proxies).
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
function toBytes(d) {
  if (typeof d === "string") return enc.encode(d);
  if (d instanceof Uint8Array) return d;
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  if (d instanceof ArrayBuffer) return new Uint8Array(d);
  return enc.encode(String(d));
}
function makeOutput(bridge, max) {
  let used = 0, cut = false, queue = [], chain = Promise.resolve(), scheduled = false;
  async function send() {
    scheduled = false;
    const items = queue; queue = [];
    for (const it of items) {
      const b = concat(it.parts);
      for (let o = 0; o < b.byteLength; o += SEND_CHUNK) await bridge.output(it.stream, b.subarray(o, o + SEND_CHUNK));
    }
  }
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
function checkPlain(value, path, seen) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("it holds a non-finite number at " + path);
    return value;
  }
  if (typeof value !== "object") throw new TypeError("it holds a " + typeof value + " at " + path);
  if (seen.has(value)) throw new TypeError("it holds a cycle at " + path);
  seen.add(value);
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
function unmap(message, names) {
  let m = message;
  for (const [internal, original] of names) m = m.split(internal).join(original);
  return m;
}
export default class WorkspaceRuntimeRunner extends WorkerEntrypoint {
  async evaluate(input, bridge, context) {
    __install(bridge);
    const out = makeOutput(bridge, context.maxStdioBytes);
    const EXIT = Symbol("process.exit");
    const exitCodeOf = (code) => { const n = Number(code ?? 0); return Number.isInteger(n) && n >= 0 && n <= 255 ? n : 1; };
    const exited = async (e) => { await out.flush(); const code = e[EXIT]; return code === 0 ? { code: 0, value: "null" } : { code }; };
    const isExit = (e) => { try { return !!e && typeof e === "object" && EXIT in e; } catch { return false; } };
    const fail = async (message) => { out.write("stderr", message.endsWith("\n") ? message : message + "\n"); await out.flush(); return { code: 1 }; };
    let stdinUsed = false;
    const stdin = context.stdin;
    const proc = {
      env: { ...context.env },
      argv: ["workspace", context.entryName],
      argv0: "workspace",
      cwd: () => context.cwd,
      platform: "linux",
      exitCode: undefined,
      // Ends the run with this exit code (like Node's process.exit); output so far is kept.
      exit: (code) => { throw { [EXIT]: exitCodeOf(code === undefined ? proc.exitCode : code) }; },
      nextTick: (fn, ...args) => queueMicrotask(() => fn(...args)),
      stdin: {
        isTTY: false,
        async *[Symbol.asyncIterator]() {
          if (stdinUsed) return;
          stdinUsed = true;
          if (stdin && stdin.byteLength > 0) yield stdin;
        },
      },
      stdout: { isTTY: false, write: (d) => out.write("stdout", d) },
      stderr: { isTTY: false, write: (d) => out.write("stderr", d) },
    };
    // Delete first: defining over the lazy "process" getter of nodejs_compat would build Node's process
    // object (several ms per cold run) only to throw it away.
    delete globalThis.process;
    Object.defineProperty(globalThis, "process", { value: proc, configurable: true, writable: true });
    // Like Node's console: strings as they are, errors with their stack, objects as JSON
    // (Map/Set/BigInt made readable); never throws, whatever is logged.
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
    const line = (args) => args.map(show).join(" ") + "\n";
    for (const k of ["log", "info", "debug"]) console[k] = (...a) => { out.write("stdout", line(a)); };
    for (const k of ["warn", "error"]) console[k] = (...a) => { out.write("stderr", line(a)); };
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
`;
