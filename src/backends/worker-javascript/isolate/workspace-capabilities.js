// @ts-check
/**
 * Module `workspace-capabilities.js` of every run's Dynamic Worker: the
 * capability channel that `node:fs` and the `ws:*` host-module stubs call
 * the host through (spec 02 §3.4, §3.6). Host calls are allowed only while
 * the default export runs; one made at module scope fails the run.
 *
 * Runs inside the Dynamic Worker, never in the host: this folder mirrors the
 * isolate's module tree (a file's path under isolate/ is its module name),
 * and isolate-source.generated.ts carries the text.
 */
/** @import { BridgeCallKind, BridgeError, IsolateBridge } from "../protocol.js" */

/** @type {IsolateBridge | null} */
let bridge = null;
/** Replay runs: the numbered, journaled call path of workspace-durable.js. */
/** @type {((kind: BridgeCallKind, target: string, name: string, args: unknown[]) => Promise<import("../protocol.js").BridgeResult>) | null} */
let replayCall = null;
/** `ended`: why the run ended early (process.exit, an uncaught error), else `null` (issue 20, run 38, fixer JR). */
/** @type {{ active: boolean, violation: Error | null, ended: string | null }} */
const state = { active: false, violation: null, ended: null };
/** The backend's limits on one call's arguments (see {@link oversize}); `Infinity`: the host decides alone. */
const limits = { maxCapabilityBytes: Infinity, maxCapabilityRequestBytes: Infinity };

/**
 * Most host calls this isolate has on the wire at once, per window (see {@link makeWindow}): twice the backend's
 * `maxConcurrentCapabilityCalls` (so the host still sees more than it admits and refuses the excess, as it decides),
 * at most 1,024 — 64 by default. workerd's RPC costs each call time in proportion to the calls pending on the same
 * stub (issue 20 run 32, JP: 4,000 calls started at once took 13.6 s, 10,000 about 100 s, and the run's timeout
 * fired that late), so the calls past the window wait in the isolate, in order, and go as earlier ones are answered.
 */
const MAX_WINDOW = 1024;

/**
 * A FIFO window of at most `size` calls on the wire; a call past it waits its turn (O(1) to queue and to start).
 * @typedef {{ size: number, active: number, queue: Array<(() => void) | undefined>, head: number }} Window
 * @returns {Window}
 */
function makeWindow() {
  return { size: 64, active: 0, queue: [], head: 0 };
}

/** Host and `node:fs` calls, and (replay runs) `fetch` calls, each in their own window: a slow fetch never holds a file call back. */
const windows = { limited: makeWindow(), fetch: makeWindow() };

/**
 * Starts the waiting calls while the window has room (the queue is compacted once its consumed head is most of it).
 * @param {Window} w
 */
function pump(w) {
  while (w.active < w.size && w.head < w.queue.length) {
    const start = /** @type {() => void} */ (w.queue[w.head]);
    w.queue[w.head++] = undefined;
    if (w.head >= 1024 && w.head * 2 >= w.queue.length) {
      w.queue = w.queue.slice(w.head);
      w.head = 0;
    }
    start();
  }
}

/**
 * The refusal of the host's that answers every later host and `node:fs` call of this run, once seen (see
 * {@link call}); `null` before.
 * @type {BridgeError | null}
 */
let exhausted = null;

/**
 * Sends one call through `kind`'s window: `send` runs when the window has room (at once when it has), and the
 * returned promise settles as its answer does. Used by {@link call} and by replay runs' numbered call path
 * (workspace-durable.js), which builds the call's tape when it is sent.
 * @param {BridgeCallKind} kind
 * @param {() => Promise<import("../protocol.js").BridgeResult>} send
 * @returns {Promise<import("../protocol.js").BridgeResult>}
 */
export function __send(kind, send) {
  const w = kind === "fetch" ? windows.fetch : windows.limited;
  return new Promise((resolve, reject) => {
    const start = () => {
      // The run ended (process.exit, an uncaught error) while this call waited: it never goes on the wire (run 38, fixer JR).
      if (state.ended !== null) { reject(endedError()); return; }
      w.active++;
      /** @type {Promise<import("../protocol.js").BridgeResult>} */
      let sent;
      try {
        // Outside replay runs, a call that waited while the host refused one past maxCapabilityCalls is refused here, as the host would.
        sent = exhausted && kind !== "fetch" && !replayCall ? Promise.resolve({ ok: false, error: exhausted }) : send();
      } catch (e) {
        sent = Promise.reject(e);
      }
      sent.then(
        (r) => { w.active--; resolve(r); pump(w); settled(); },
        (e) => { w.active--; reject(e); pump(w); settled(); },
      );
    };
    if (w.active < w.size && w.head >= w.queue.length) start();
    else w.queue.push(start);
  });
}

/** Waiters of {@link __settled}. @type {Array<() => void>} */
let settleWaiters = [];
/** Wakes every {@link __settled} waiter: a call was answered. */
function settled() {
  const ws = settleWaiters;
  settleWaiters = [];
  for (const w of ws) w();
}

/** Calls made but not yet in a window (see {@link __hold}). */
let held = 0;

/**
 * Counts a host call as in flight from the moment the code makes it until it enters its window (issue 20, run 39,
 * fixer JD): a replay run's call first waits for the output written before it to reach the host, and a replay
 * run's `fetch` reads its request's body, before {@link __send} takes it — without this the runner's wait after the
 * export saw nothing in flight during that gap, ended the run, and the call was silently lost.
 * @returns {() => void} the release: call it once, right after the call entered its window (or failed before).
 */
export function __hold() {
  held++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    held--;
    settled();
  };
}

/**
 * Host calls of this run (every window) on the wire or waiting for room in their window (issue 20, run 38, fixer JR),
 * and calls made but not yet in a window ({@link __hold}; run 39, fixer JD): the runner keeps the run alive after
 * the default export settles while this is above 0.
 * @returns {number}
 */
export function __inflight() {
  return held + windows.limited.active + (windows.limited.queue.length - windows.limited.head) + windows.fetch.active + (windows.fetch.queue.length - windows.fetch.head);
}

/** What {@link __guard} wraps callbacks with: the runner's (run 39, fixer JD); the callback itself until it is set. */
/** @type {(fn: any) => any} */
let guardWith = (fn) => fn;

/**
 * Sets how callbacks the platform calls are guarded (the runner's `guard`: a throw in one ends the run, exit 1, as
 * an uncaught exception ends Node's process). Issue 20, run 39, fixer JD.
 * @param {(fn: any) => any} g
 */
export function __setGuard(g) { guardWith = g; }

/**
 * `fn` wrapped by the runner's guard (see {@link __setGuard}); anything but a function as it is. Used by the
 * `node:timers` shim (`__modules__/node-timers.js`).
 * @template T @param {T} fn @returns {T}
 */
export function __guard(fn) { return guardWith(fn); }

/**
 * Resolves the next time a host call of this run is answered (or refused) — see {@link __inflight}.
 * @returns {Promise<void>}
 */
export function __settled() {
  return new Promise((resolve) => { settleWaiters.push(() => resolve()); });
}

/** @returns {Error & { code: string }} the refusal of a call made after the run ended early ({@link __end}). */
function endedError() {
  return Object.assign(new Error("the run has ended (" + state.ended + "); no new host calls are accepted"), { code: "ECANCELED" });
}

/**
 * Ends the run early (issue 20, run 38, fixer JR): the channel closes for good — every later host and `node:fs`
 * call, and every call still waiting for room in its window, is refused with `ECANCELED` and never reaches the host,
 * as nothing runs after Node's `process.exit` or an uncaught exception. Calls already on the wire are not recalled.
 * @param {string} why for the refusal's message: `process.exit(2) was called`, `an uncaught exception`.
 */
export function __end(why) {
  if (state.ended !== null) return;
  state.ended = why;
  state.active = false;
  // Refuse the calls still queued now (their `start` sees `ended`).
  for (const w of [windows.limited, windows.fetch]) pump(w);
}

/**
 * Runs synchronously right before a host call goes on the wire, outside replay runs: the runner's queued output,
 * to send along with the call (or `undefined`: nothing, or sent by itself just now).
 * @type {() => [Uint8Array, number[]] | undefined}
 */
let beforeCall = () => undefined;

/**
 * Sets what runs right before each host call goes on the wire, outside replay runs (run 34, fixer JL): the runner
 * hands over the output queued so far, which goes with the call (the host appends it first), so it reaches the host
 * ahead of the call without a round trip of its own.
 * @param {() => [Uint8Array, number[]] | undefined} fn must not throw.
 */
export function __beforeCall(fn) { beforeCall = fn; }

/**
 * Installs the host's bridge; the runner calls it first thing in `evaluate`.
 * @param {IsolateBridge} b
 * @param {(kind: BridgeCallKind, target: string, name: string, args: unknown[]) => Promise<import("../protocol.js").BridgeResult>} [replay] in replay runs, the call path that numbers and journals calls.
 * @param {{ maxCapabilityBytes?: number, maxCapabilityRequestBytes?: number, maxConcurrentCapabilityCalls?: number, maxCapabilityCalls?: number }} [max]
 *   the backend's `maxCapabilityBytes`, `maxCapabilityRequestBytes`, `maxConcurrentCapabilityCalls` (the window's size) and
 *   `maxCapabilityCalls` (to know the host's refusal past it).
 */
export function __install(b, replay, max) {
  bridge = b;
  replayCall = replay || null;
  limits.maxCapabilityBytes = max && typeof max.maxCapabilityBytes === "number" ? max.maxCapabilityBytes : Infinity;
  limits.maxCapabilityRequestBytes = max && typeof max.maxCapabilityRequestBytes === "number" ? max.maxCapabilityRequestBytes : Infinity;
  const concurrent = max && typeof max.maxConcurrentCapabilityCalls === "number" && max.maxConcurrentCapabilityCalls > 0 ? max.maxConcurrentCapabilityCalls : 32;
  windows.limited.size = windows.fetch.size = Math.min(MAX_WINDOW, 2 * concurrent);
  countRefusal = max && typeof max.maxCapabilityCalls === "number" ? "this run made more than maxCapabilityCalls (" + max.maxCapabilityCalls + ") host calls" : null;
}

/**
 * True for the host's refusals that answer every later call of the run alike (bridge.ts `#admit`): past
 * `maxCapabilityCalls` (its count only grows), and a run being stopped (run.ts `refusal`: it never starts again).
 * @param {BridgeError} e
 */
function isFinalRefusal(e) {
  if (e.code === "E2BIG") return countRefusal !== null && e.message === countRefusal;
  return e.code === "ECANCELED" && typeof e.message === "string" && e.message.startsWith("execution ") && e.message.endsWith(" is being cancelled; no new host calls are accepted");
}

/** The host's message refusing a call past `maxCapabilityCalls` (bridge.ts `#admit`); `null`: not known. */
/** @type {string | null} */
let countRefusal = null;

const measureEncoder = new TextEncoder();

/**
 * Size of a value as the host's bridge counts it — src/runtime/json-value.ts `measure`, line for line (the host
 * refuses with the size this gives, so both must agree byte for byte): UTF-8 of strings and keys, the `byteLength`
 * of any ArrayBuffer view, 8 per scalar, container and array hole; the walk stops once the total passes `limit`.
 * @param {unknown} value
 * @param {Set<object>} seen
 * @param {number} limit
 * @returns {number}
 * @throws TypeError for a cycle (the host refuses it as it does).
 */
function measure(value, seen, limit) {
  if (typeof value === "string") return measureEncoder.encode(value).byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value === null || value === undefined || typeof value !== "object") return 8;
  if (seen.has(value)) throw new TypeError("must be JSON-compatible: it holds a cycle");
  seen.add(value);
  let n = 8;
  if (Array.isArray(value)) {
    for (const v of value) {
      if (n > limit) break;
      n += measure(v, seen, limit - n);
    }
  } else {
    for (const [k, v] of Object.entries(value)) {
      if (n > limit) break;
      n += measureEncoder.encode(k).byteLength;
      n += measure(v, seen, limit - n);
    }
  }
  seen.delete(value);
  return n;
}

/** Most bytes (estimated as workerd serializes them) of a call's arguments sent to the host: 30 MiB, as src/do/rpc-size.ts. */
const MAX_RPC_BYTES = 30 * 1024 * 1024;
/** The bytes one journaled call may hold in a replay run (src/backends/worker-javascript/durable.ts `MAX_JOURNALED_CALL_BYTES`). */
const MAX_JOURNALED_CALL_BYTES = 1_572_864;
const TWO_BYTE = /[^\u0000-\u00ff]/;

/**
 * An estimate of `value`'s size as workerd serializes it (V8's structured clone), never below it — src/do/rpc-size.ts
 * `estimateRpcSize` (strings one byte a character when all are Latin-1, else two; bytes by their length; a few bytes
 * a number, key and container), but with an array hole counted as 1 and the walk stopping once past `stopAt` (an
 * array longer than what is left counts its length, unvisited: a sparse array of any length is not walked). A view
 * (`Uint8Array`, `DataView`, …) counts its whole backing buffer, which is what structured clone sends; the arguments
 * of a call are first made compact ({@link compactArgs}; issue 20, run 35, fixer UV).
 * @param {unknown} value
 * @param {number} stopAt
 * @param {Set<object>} seen containers on the current path (a cycle crosses as a reference).
 * @returns {number}
 */
function rpcEstimate(value, stopAt, seen) {
  if (typeof value === "string") return value.length * (TWO_BYTE.test(value) ? 2 : 1) + 6;
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 2 ** 30 ? 6 : 9;
  if (typeof value === "bigint") return 9 + Math.ceil(value.toString(16).length / 2);
  if (typeof value !== "object" || value === null) return 1;
  // A view crosses with its whole backing buffer (structured clone; issue 20, run 35, fixer UV).
  if (ArrayBuffer.isView(value)) return value.buffer.byteLength + 9;
  if (value instanceof ArrayBuffer) return value.byteLength + 9;
  if (seen.has(value)) return 1;
  seen.add(value);
  let n = 5;
  if (Array.isArray(value)) {
    // At least a byte an index (a hole of a dense array): a longer one is over, without visiting its indices.
    if (value.length > stopAt - n) n += value.length;
    else for (const v of value) {
      if (n > stopAt) break;
      n += rpcEstimate(v, stopAt - n, seen);
    }
  } else {
    for (const [k, v] of Object.entries(value)) {
      if (n > stopAt) break;
      n += k.length * (TWO_BYTE.test(k) ? 2 : 1) + 2 + rpcEstimate(v, stopAt - n, seen);
    }
  }
  seen.delete(value);
  return n;
}

/** `%TypedArray%.prototype.slice`: a copy whatever a subclass overrides (a Node `Buffer`'s own `slice` shares memory). */
const typedArraySlice = Object.getPrototypeOf(Uint8Array.prototype).slice;

/** The most items of an array argument {@link compactArgs} looks into (run 35, lead). */
const COMPACT_ARRAY_ITEMS = 65_536;

/**
 * `args` as a call sends them: each argument (and each value of an options object or array given as an argument)
 * that is a view into a larger `ArrayBuffer` — `data.subarray(a, b)` given to `fs.writeFile`, a `Buffer` of Node's
 * pool — replaced by a compact copy of its own bytes, of the same kind; `args` itself when none is. Structured clone,
 * which workerd uses for RPC values, sends a view with its whole backing buffer: a 10-byte view of a 40 MiB buffer
 * would cross as 40 MiB and be refused past 32 MiB. The caller's values are never changed. The same rule as
 * src/util/rpc-bytes.ts `compactView` (this module cannot import it). Issue 20, run 35, fixer UV.
 * @param {unknown[]} args
 * @returns {unknown[]}
 */
function compactArgs(args) {
  if (!Array.isArray(args)) return args;
  /** @param {unknown} v */
  const compact = (v) => {
    if (!ArrayBuffer.isView(v) || v.buffer.byteLength === v.byteLength) return v;
    if (v instanceof DataView) return new DataView(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
    return typedArraySlice.call(v);
  };
  /** @type {unknown[] | null} */
  let out = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    let sent = compact(v);
    // One level into an argument that is a plain object or array (a request's body, a host call's record).
    if (sent === v && v !== null && typeof v === "object" && !ArrayBuffer.isView(v)) {
      const proto = Object.getPrototypeOf(v);
      if (Array.isArray(v)) {
        // Only an array of at most COMPACT_ARRAY_ITEMS items is looked into, index by index: a sparse
        // `new Array(1e9)` (cheap to send) is never walked hole by hole (attack16a; run 35, lead). A view further in
        // crosses with its buffer, and the estimates count it so (E2BIG past the limit, never a wrong write).
        if (v.length <= COMPACT_ARRAY_ITEMS) {
          /** @type {unknown[] | null} */
          let items = null;
          for (let j = 0; j < v.length; j++) {
            const item = v[j];
            const c = compact(item);
            if (c === item) continue;
            items ??= v.slice();
            items[j] = c;
          }
          if (items !== null) sent = items;
        }
      } else if (proto === Object.prototype || proto === null) {
        const entries = Object.entries(v);
        if (entries.some(([, item]) => compact(item) !== item)) sent = Object.assign(proto === null ? Object.create(null) : {}, Object.fromEntries(entries.map(([k, item]) => [k, compact(item)])));
      }
    }
    if (sent !== v) {
      out ??= [...args];
      out[i] = sent;
    }
  }
  return out ?? args;
}

/**
 * The host's refusal (src/backends/worker-javascript/bridge.ts: `#oversize` in replay runs, then `#admit`) of a call
 * whose arguments cannot cross RPC to it — estimated past {@link MAX_RPC_BYTES}, where workerd would refuse them
 * with its uncoded error — when they are over `maxCapabilityBytes` or `maxCapabilityRequestBytes`: the same message,
 * the size measured as the host measures it. `null` for every call that can cross (the host decides those, as
 * before) and for one within both limits (its RPC failure is coded by {@link __bridgeFailure}).
 * @param {BridgeCallKind} kind
 * @param {unknown[]} args
 * @returns {import("../protocol.js").BridgeError | null}
 */
function oversize(kind, args) {
  const max = limits.maxCapabilityBytes, run = limits.maxCapabilityRequestBytes;
  if (!Array.isArray(args) || (max === Infinity && run === Infinity)) return null;
  try {
    if (rpcEstimate(args, MAX_RPC_BYTES, new Set()) <= MAX_RPC_BYTES) return null;
    if (kind === "fetch") {
      if (measure(args, new Set(), run) <= run) return null;
      return { name: "Error", code: "E2BIG", message: "fetch requests exceed maxCapabilityRequestBytes (" + run + ") for this run: a replay run journals every fetch; fetch less, or raise the backend's maxCapabilityRequestBytes" };
    }
    if (replayCall) {
      // A replay run's host first walks up to the larger of maxCapabilityBytes and what one journaled call holds.
      const cap = Math.max(MAX_JOURNALED_CALL_BYTES, max);
      const size = measure(args, new Set(), cap);
      if (size > cap) return { name: "Error", code: "E2BIG", message: "host call request is " + size + " bytes, over maxCapabilityBytes (" + max + ")" };
    }
    const size = measure(args, new Set(), Math.min(max, run));
    if (size > max) return { name: "Error", code: "E2BIG", message: "host call request is " + size + " bytes, over maxCapabilityBytes (" + max + ")" };
    if (size > run) return { name: "Error", code: "E2BIG", message: "host call requests exceed maxCapabilityRequestBytes (" + run + ") for this run" };
  } catch {
    /* not measurable (a cycle): the host answers it */
  }
  return null;
}

/**
 * A call as messages name it: `fs.writeFile()`, `ws:x f()`, `fetch()`.
 * @param {BridgeCallKind} kind
 * @param {string} target
 * @param {string} name
 */
export function __callName(kind, target, name) {
  return kind === "fs" ? "fs." + name + "()" : kind === "fetch" ? "fetch()" : target + " " + name + "()";
}

/** What workerd says (no `code`) when an RPC value is past its size limit (src/util/rpc-bytes.ts). */
const RPC_SIZE_MESSAGE = "Serialized RPC arguments or return values are limited to";

/**
 * A failure of the bridge itself (the call did not reach the host or its answer did not come back): workerd's
 * refusal of an RPC value past 32 MiB becomes `E2BIG` naming the call; anything else is kept.
 * @param {unknown} e what `bridge.call` rejected with.
 * @param {string} what the call, as `fs.writeFile()` or `ws:x f()`.
 * @returns {Error & { code?: string }}
 */
export function __bridgeFailure(e, what) {
  const message = e && typeof e === "object" && "message" in e ? String(e.message) : String(e);
  if (message.includes(RPC_SIZE_MESSAGE) && !(e && typeof e === "object" && "code" in e && e.code !== undefined)) {
    return Object.assign(new Error(what + ": the call is over 32 MiB, more than crosses RPC (" + message + "); pass less at once (write big data to a file and pass its path)"), { code: "E2BIG" });
  }
  return e instanceof Error ? e : new Error(message);
}

/**
 * Opens (`true`, while the default export runs) or closes the channel.
 * @param {boolean} on
 */
export function __activate(on) { state.active = on && state.ended === null; }

/**
 * The first call made while the channel was closed (at module scope), else `null`.
 * @returns {Error | null}
 */
export function __violation() { return state.violation; }

/**
 * The host's failure as an Error of the same class, message, `code` and `path`.
 * @param {BridgeError} e
 * @returns {Error & { code?: string, path?: string }}
 */
function rebuild(e) {
  const Ctor = e && e.name === "TypeError" ? TypeError : e && e.name === "RangeError" ? RangeError : Error;
  /** @type {Error & { code?: string, path?: string }} */
  const err = new Ctor(e && e.message ? e.message : String(e));
  if (e && typeof e.code === "string") err.code = e.code;
  if (e && typeof e.path === "string") err.path = e.path;
  return err;
}

/**
 * One host call. Resolves the host's value, typed `T` by the caller.
 *
 * @template T
 * @param {BridgeCallKind} kind
 * @param {string} target `""` for fs, the `ws:…` name for a host module.
 * @param {string} name the method or export called.
 * @param {unknown[]} args JSON-compatible data (and bytes).
 * @returns {Promise<T>}
 * @throws Error when the channel is closed (module scope), naming the call;
 *   the host's error rebuilt (see {@link rebuild}) when the call failed.
 */
export async function call(kind, target, name, args) {
  args = compactArgs(args); // a view of a larger buffer goes compact (issue 20, run 35, fixer UV)
  if (state.ended !== null) throw endedError(); // run 38, fixer JR
  if (!state.active) {
    const what = kind === "fs" ? "fs." + name + "()" : target + " " + name + "()";
    const err = new Error(what + " was called at module scope (top level). File and host calls only work inside the default export: put them in export default async function (input) { ... }.");
    if (!state.violation) state.violation = err;
    throw err;
  }
  const refused = oversize(kind, args);
  if (refused) throw rebuild(refused);
  // Outside replay runs, once the host refused a call past maxCapabilityCalls it refuses every later host and node:fs
  // call the same way (its count only grows; issue 20 run 32, JP): answered here, without a round trip. A replay run
  // numbers and journals its calls, so each still goes to the host (through the window).
  if (exhausted && kind !== "fetch" && !replayCall) throw rebuild(exhausted);
  /** @type {import("../protocol.js").BridgeResult} */
  let r;
  try {
    const b = /** @type {IsolateBridge} */ (bridge);
    r = replayCall ? await replayCall(kind, target, name, args) : await __send(kind, () => {
          const output = beforeCall();
          return output ? b.call(kind, target, name, args, undefined, output) : b.call(kind, target, name, args);
        });
  } catch (e) {
    throw __bridgeFailure(e, __callName(kind, target, name));
  }
  if (!r.ok && kind !== "fetch" && r.error && isFinalRefusal(r.error)) exhausted = r.error;
  if (!r.ok) throw rebuild(r.error);
  return /** @type {T} */ (r.value);
}

/** Workspace modules a dynamic import already checked and loaded in this run (never checked again, as Node caches them). */
const freshLoaded = new Set();
const freshEncoder = new TextEncoder();

/**
 * Run before a rewritten dynamic `import("./x.js")` of a Workspace module the entry does not import statically
 * (graph.ts `FRESH_MODULE`; issue 20, run 36, fixer DI). The Worker Loader takes every module when the run starts
 * and no module can be added to a running isolate, so the import would load the text the module had then. Each
 * module the import loads for the first time in this run (`modules`: the target and its static imports not loaded
 * yet, `[path, digest]`) is read again through `node:fs` (one `fs.readFile` host call each, counted as any) and its
 * digest (SHA-256 of the UTF-8 text, a leading BOM dropped: graph.ts `moduleDigest`) compared with the one taken
 * when the run started. A module already loaded — by the entry's static imports or an earlier dynamic import — is
 * not checked again: Node too returns the module it loaded first, whatever was written since.
 * At module scope (the run has made no host call, so has written nothing) nothing is read.
 * @param {[string, string][]} modules
 * @param {string} spec the specifier as written, for the message.
 * @returns {Promise<void>}
 * @throws Error `ERR_MODULE_CHANGED` (`path`: the module) when a module's text differs from the run's start, or it
 *   was removed or can no longer be read as a file (`ENOENT`, `ENOTDIR`, `EISDIR`, `E2BIG`, `EACCES`); any other
 *   failure of the read as it is (a stopped run's `ECANCELED`, `E2BIG` past `maxCapabilityCalls`).
 */
export async function __fresh(modules, spec) {
  if (!state.active) return;
  for (const [path, digest] of modules) {
    if (freshLoaded.has(path)) continue;
    /** @type {string | null} */
    let text = null;
    /** @type {string} */
    let how = "was changed";
    try {
      text = await call("fs", "", "readFile", [path, "utf8"]);
    } catch (e) {
      const code = e && typeof e === "object" && "code" in e ? e.code : undefined;
      if (code === "E2BIG" && countRefusal !== null && e instanceof Error && e.message === countRefusal) throw e;
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EISDIR" && code !== "E2BIG" && code !== "EACCES") throw e;
      how = code === "ENOENT" || code === "ENOTDIR" ? "was removed" : "can no longer be read as a module (" + code + ")";
    }
    if (text !== null) {
      const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", freshEncoder.encode(body)));
      let hex = "";
      for (const b of hash) hex += b.toString(16).padStart(2, "0");
      if (hex === digest) continue;
    }
    const quoted = spec.length <= 64 ? JSON.stringify(spec) : JSON.stringify(spec.slice(0, 64)) + "… (" + spec.length + " characters)";
    const err = new Error(
      "ERR_MODULE_CHANGED: import(" + quoted + "): " + path + " " + how + " after this run started, and a run loads its modules when it starts; " +
      "write the module in one run and import it in the next, or read it with node:fs and use its text yourself",
    );
    throw Object.assign(err, { code: "ERR_MODULE_CHANGED", path });
  }
  for (const [path] of modules) freshLoaded.add(path);
}
