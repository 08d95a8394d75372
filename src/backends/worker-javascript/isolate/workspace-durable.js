// @ts-check
/**
 * Module `workspace-durable.js` of every run's Dynamic Worker: what makes a
 * replay run (`onInterrupt: "replay"`, spec 02 §5) repeat itself exactly
 * after an interruption.
 *
 * - The clock (`Date`, `performance.now`, `performance.timeOrigin`,
 *   `performance.mark` / `measure` without a time, `Intl.DateTimeFormat#format`
 *   / `formatToParts` without a date) moves only when an event is
 *   delivered — a host call answered, a timer fired — and reads the time
 *   recorded for that event, as workerd's own clock moves only on I/O.
 * - `Math.random`, `crypto.getRandomValues` and `crypto.randomUUID` come from
 *   a generator (sfc32) seeded per run.
 * - Timers (`setTimeout`, `setInterval`, `setImmediate`, `scheduler.wait`,
 *   `AbortSignal.timeout`) get numbers in creation order (the code gets
 *   `Timeout` / `Immediate` handles holding them, as workerd's; run 40,
 *   fixer f40js). Live, each is armed
 *   for its own delay from the real time it is set (an interval's next tick
 *   for its period from its firing), so they fire by due time, then creation
 *   order, and a cleared one never fires (run 33, fixer RC).
 * - Every event the code sees is recorded on a tape `[kind, n, t]` (kind 0:
 *   call n answered, kind 1: timer n fired) that goes to the host with the
 *   next call or output batch. On a later attempt the tape is played back:
 *   the answers (which the host serves from its journal) and the timer
 *   firings are delivered in the recorded order at the recorded times,
 *   each after the code's pending microtasks ran; when the tape is used up
 *   the run goes on live, recording again.
 *
 * The runner installs it before the entry module is imported; it keeps the
 * real timer functions for itself.
 */
/** @import { BridgeCallKind, BridgeResult, IsolateBridge, ReplayContext } from "../protocol.js" */
import { __bridgeFailure, __callName, __hold, __send } from "./workspace-capabilities.js";

const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
const RealDate = Date;
const realNow = () => RealDate.now();
/** How long playback may wait for the code to reach a recorded event before the run has diverged (ms, spec 02 §5). */
const STALL_MS = 1000;
const CALL = 0, TIMER = 1;

/**
 * The sfc32 generator: four 32-bit words of state, 2^128 period.
 * @param {number[]} seed four unsigned 32-bit integers.
 * @returns {() => number} the next unsigned 32-bit integer.
 */
function sfc32(seed) {
  let a = seed[0] >>> 0, b = seed[1] >>> 0, c = seed[2] >>> 0, d = seed[3] >>> 0;
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/**
 * Makes `Intl.DateTimeFormat#format()` and `#formatToParts()` called with no
 * date (or `undefined`) format the replayed clock's time: ECMA-402 (§11.5.6
 * FormatDateTime's callers, "If date is undefined, let x be Call(%Date.now%)")
 * reads the engine's own clock there, not the global `Date`. `format` stays a
 * getter returning the same bound function per formatter; a receiver that is
 * not a `DateTimeFormat` still throws the engine's TypeError. Run 33, fixer RC.
 *
 * @param {() => number} now the replayed clock (ms since the epoch).
 */
function installIntlClock(now) {
  if (typeof Intl !== "object" || !Intl || typeof Intl.DateTimeFormat !== "function") return;
  const proto = Intl.DateTimeFormat.prototype;
  const formatGetter = Object.getOwnPropertyDescriptor(proto, "format")?.get;
  if (formatGetter) {
    /** @type {WeakMap<object, (date?: unknown) => string>} */
    const bound = new WeakMap();
    Object.defineProperty(proto, "format", {
      configurable: true,
      enumerable: false,
      get: /** @type {() => unknown} */ (Object.getOwnPropertyDescriptor({ get format() {
        const self = /** @type {Intl.DateTimeFormat} */ (this);
        const real = formatGetter.call(self); // the engine's brand check (TypeError)
        let f = bound.get(self);
        if (!f) {
          f = (/** @type {unknown} */ date) => real(/** @type {any} */ (date === undefined ? now() : date));
          Object.defineProperty(f, "name", { value: "" });
          bound.set(self, f);
        }
        return f;
      } }, "format")?.get),
    });
  }
  const realFormatToParts = proto.formatToParts;
  if (typeof realFormatToParts === "function") {
    Object.defineProperty(proto, "formatToParts", {
      configurable: true,
      enumerable: false,
      writable: true,
      value: { formatToParts(/** @type {unknown} */ date) {
        return realFormatToParts.call(/** @type {Intl.DateTimeFormat} */ (this), /** @type {any} */ (date === undefined ? now() : date));
      } }.formatToParts,
    });
  }
}

/**
 * Makes `performance.mark(name)` with no `startTime`, and
 * `performance.measure()` with no end, read the replayed
 * `performance.now()` (User Timing Level 3 §3.1.1 / §3.1.3 read "the current
 * high resolution time" there; workerd reads its own clock, in ms since the
 * epoch). Otherwise workerd's own rules hold, measured on workerd 2026: given
 * times pass through; `measure(name)`, `measure(name, undefined, endMark)`,
 * `measure(name, {})` and an unknown start mark measure from 0 to now (workerd
 * raises no SyntaxError and ignores an end mark without a start); a start
 * mark is its last `mark` entry's `startTime`; a non-object `detail` is
 * workerd's TypeError.
 * Run 33, fixer RC.
 *
 * @param {Performance} perf
 * @param {() => number} now the replayed `performance.now()` (ms since `timeOrigin`).
 */
function installPerformanceMarks(perf, now) {
  const realMark = perf.mark;
  if (typeof realMark === "function") {
    Object.defineProperty(perf, "mark", {
      configurable: true,
      writable: true,
      value: { mark(/** @type {string} */ name, /** @type {PerformanceMarkOptions | undefined} */ options) {
        if (options === undefined || options === null) return realMark.call(perf, name, { startTime: now() });
        if (typeof options === "object" && options.startTime === undefined) {
          /** @type {PerformanceMarkOptions} */
          const withStart = { startTime: now() };
          if (options.detail !== undefined) withStart.detail = options.detail;
          return realMark.call(perf, name, withStart);
        }
        return realMark.call(perf, name, options);
      } }.mark,
    });
  }
  const realMeasure = perf.measure;
  if (typeof realMeasure === "function") {
    const call = (/** @type {unknown[]} */ ...a) => realMeasure.apply(perf, /** @type {any} */ (a));
    Object.defineProperty(perf, "measure", {
      configurable: true,
      writable: true,
      value: { measure(/** @type {string} */ name, /** @type {unknown} */ start, /** @type {string | undefined} */ endMark) {
        // workerd's own rules, with its clock reads replaced: a start mark and an end mark → no clock read; no
        // start → from 0 to now (workerd ignores an end mark then); an unknown start mark → from 0 to now.
        if (start === undefined || start === null) return call(name, { end: now() });
        if (typeof start === "object" || typeof start === "function") {
          // The options form (workerd ignores an end mark here): no end and no duration → ends now. A string
          // `start` workerd does not resolve (startTime null, duration 0): passed through as it is.
          const o = /** @type {PerformanceMeasureOptions} */ (start);
          if (o.end !== undefined || o.duration !== undefined || typeof o.start === "string") return call(name, start);
          /** @type {PerformanceMeasureOptions} */
          const withEnd = { end: now() };
          if (o.start !== undefined) withEnd.start = o.start;
          if (o.detail !== undefined) withEnd.detail = o.detail;
          return call(name, withEnd);
        }
        if (endMark !== undefined) return call(name, start, endMark);
        const marks = perf.getEntriesByName(`${/** @type {string} */ (start)}`, "mark");
        const mark = marks[marks.length - 1];
        return mark ? call(name, { start: mark.startTime, end: now() }) : call(name, { end: now() });
      } }.measure,
    });
  }
}

/**
 * @typedef {object} Timer
 * @property {(...args: unknown[]) => void} fn
 * @property {unknown[]} args
 * @property {number} due clock time (ms) it is due at.
 * @property {number} interval ms between firings of an interval; -1 for a one-shot timer.
 * @property {ReturnType<typeof setTimeout> | undefined} real the real timer while live.
 */

/**
 * @typedef {object} PendingCall
 * @property {(r: BridgeResult) => void} settle
 * @property {BridgeResult | undefined} answer the host's answer, held until its turn on the tape.
 */

/**
 * Installs the deterministic clock, random numbers and timers, and returns
 * the call path and the end-of-run checks.
 *
 * @param {IsolateBridge} bridge
 * @param {ReplayContext} ctx
 */
export function installReplay(bridge, ctx) {
  let clock = ctx.clock;
  const origin = ctx.clock;
  const tape = ctx.tape;
  /** Next tape entry to play back (an index into the flat triples). */
  let pos = 0;
  /** Entries recorded since the last message to the host. */
  /** @type {number[]} */
  let recorded = [];
  let callSeq = 0, timerSeq = 0;
  /** @type {Map<number, Timer>} */
  const timers = new Map();
  /** @type {Map<number, PendingCall>} */
  const calls = new Map();
  /** @type {string | null} */
  let diverged = null;
  /** @type {(message: string) => void} */
  let onDiverge = () => {};
  /** Settles (never rejects) with the divergence message when playback finds the code took another path. */
  /** @type {Promise<string>} */
  const divergence = new Promise((resolve) => { onDiverge = resolve; });
  let stallSince = 0;
  let scheduled = false;
  /** @type {() => unknown} What runs before each call is sent (the runner flushes output). */
  let beforeSend = () => undefined;
  /** What a fired timer's callback is wrapped with (the runner's guard: a throw ends the run; run 39, fixer JD). */
  /** @type {(fn: (...a: unknown[]) => void) => (...a: unknown[]) => void} */
  let guard = (fn) => fn;

  const replaying = () => pos < tape.length;
  /** @param {string} message */
  const diverge = (message) => {
    if (diverged !== null) return;
    diverged = "The execution took a different path when it resumed after an interruption: " + message;
    onDiverge(diverged);
  };

  // ---- random numbers ----
  const next = sfc32(ctx.seed);
  Object.defineProperty(Math, "random", { value: () => next() / 4294967296, configurable: true, writable: true });
  const realGetRandomValues = crypto.getRandomValues.bind(crypto);
  /** @template {ArrayBufferView | null} T @param {T} array @returns {T} */
  const getRandomValues = (array) => {
    realGetRandomValues(/** @type {any} */ (array)); // its checks: integer typed array, at most 65,536 bytes
    const v = /** @type {ArrayBufferView} */ (/** @type {unknown} */ (array));
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    for (let i = 0; i < bytes.length; i += 4) {
      const word = next();
      for (let k = 0; k < 4 && i + k < bytes.length; k++) bytes[i + k] = (word >>> (8 * k)) & 0xff;
    }
    return array;
  };
  Object.defineProperty(crypto, "getRandomValues", { value: getRandomValues, configurable: true, writable: true });
  const randomUUID = () => {
    const b = getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return /** @type {`${string}-${string}-${string}-${string}-${string}`} */ (`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
  };
  Object.defineProperty(crypto, "randomUUID", { value: randomUUID, configurable: true, writable: true });

  // ---- the clock ----
  /** @this {unknown} @param {any[]} args */
  function VirtualDate(...args) {
    if (!new.target) return new RealDate(clock).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [clock] : args, new.target);
  }
  // Date's own `prototype` (read-only) and `length` (7), as ECMA-262 §21.4.2 and workerd's (issue 20, run 40, fixer f40js).
  Object.defineProperty(VirtualDate, "prototype", { value: RealDate.prototype, writable: false });
  Object.defineProperty(VirtualDate, "length", { value: 7 });
  Object.defineProperty(VirtualDate, "name", { value: "Date" });
  VirtualDate.now = () => clock;
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, "constructor", { value: VirtualDate, configurable: true, writable: true });
  Object.defineProperty(globalThis, "Date", { value: VirtualDate, configurable: true, writable: true });
  if (typeof performance === "object" && performance) {
    Object.defineProperty(performance, "now", { value: () => clock - origin, configurable: true, writable: true });
    Object.defineProperty(performance, "timeOrigin", { value: origin, configurable: true });
    installPerformanceMarks(performance, () => clock - origin);
  }
  installIntlClock(() => clock);

  /** Records that an event is being delivered now (live). @param {number} kind @param {number} n */
  const record = (kind, n) => {
    clock = Math.max(clock, realNow());
    recorded.push(kind, n, clock);
  };
  /** The entries recorded since the last message, handed over to it. */
  const take = () => {
    const out = recorded;
    recorded = [];
    return out;
  };

  // ---- timers ----
  /** @param {number} id */
  const fire = (id) => {
    const t = timers.get(id);
    if (!t) return;
    if (t.interval >= 0) t.due = clock + t.interval;
    else timers.delete(id);
    if (!replaying() && t.interval >= 0) arm(id, t);
    // Guarded (run 39, fixer JD): `AbortSignal.timeout`'s and `scheduler.wait`'s own timers too, and a throw never
    // escapes into playback's `step`, which would stop delivering the tape.
    try { guard(t.fn)(...t.args); } catch {}
  };
  /** Arms a live timer for the real time left until it is due. @param {number} id @param {Timer} t */
  const arm = (id, t) => {
    t.real = realSetTimeout(() => {
      t.real = undefined;
      if (!timers.has(id)) return;
      record(TIMER, id);
      fire(id);
    }, Math.max(0, t.due - realNow()));
  };
  /** @param {unknown} fn @param {unknown} ms @param {number} interval @param {unknown[]} args */
  const create = (fn, ms, interval, args) => {
    if (typeof fn !== "function") throw new TypeError("The callback must be a function");
    const delay = Math.max(0, Number(ms) || 0);
    const id = ++timerSeq;
    // A live timer counts its delay from the real time it is set (run 33, fixer RC): the replayed clock stays at
    // the last event's time (the run's start until its first event), so `clock + delay` would be due already and
    // timers set in the same turn would fire in creation order, not by delay. In workerd the real clock is frozen
    // within a turn, so timers set in one turn keep their delays' order exactly. Played back, `due` only matters
    // once the tape runs out (`live`), and counts from the recorded time.
    const base = replaying() ? clock : Math.max(clock, realNow());
    /** @type {Timer} */
    const t = { fn: /** @type {(...a: unknown[]) => void} */ (fn), args, due: base + delay, interval: interval >= 0 ? Math.max(1, delay) : -1, real: undefined };
    timers.set(id, t);
    if (!replaying()) arm(id, t);
    else schedule();
    return id;
  };
  /** The timer number of each handle the code got back ({@link Timeout}, {@link Immediate}). @type {WeakMap<object, number>} */
  const handles = new WeakMap();
  /** @param {unknown} id a handle, or a timer's number (or its string). */
  const clear = (id) => {
    const n = id !== null && typeof id === "object" ? handles.get(id) : typeof id === "number" || typeof id === "string" ? Number(id) : undefined;
    const t = n === undefined ? undefined : timers.get(n);
    if (!t) return;
    if (t.real !== undefined) realClearTimeout(t.real);
    timers.delete(/** @type {number} */ (n));
  };
  /**
   * What `setTimeout` / `setInterval` return, as workerd's `Timeout` (nodejs_compat) and Node's: `ref()` / `unref()`
   * (no-ops but for `hasRef()`: pending timers are not waited for anyway), `refresh()` (the timer cleared and set
   * again for its delay from now, under a new number, as workerd's), `close()`, and the timer's number as its
   * primitive value (`+t`, `` `${t}` ``); `clearTimeout` takes the handle or that number (issue 20, run 40, fixer f40js:
   * the numbers alone had no `unref`, so `setTimeout(fn, ms).unref()` failed only in replay runs).
   */
  class Timeout {
    /** @type {number} */ #id;
    #refed = true;
    /** @type {() => number} */ #again;
    /** @param {() => number} set creates the timer, returning its number. */
    constructor(set) { this.#again = set; this.#id = set(); handles.set(this, this.#id); }
    ref() { this.#refed = true; return this; }
    unref() { this.#refed = false; return this; }
    hasRef() { return this.#refed; }
    refresh() { clear(this.#id); this.#id = this.#again(); handles.set(this, this.#id); return this; }
    close() { clear(this.#id); return this; }
    [Symbol.toPrimitive]() { return this.#id; }
  }
  /** What `setImmediate` returns, as workerd's and Node's `Immediate`: `ref()` / `unref()` / `hasRef()`. */
  class Immediate {
    #refed = true;
    /** @param {number} id */
    constructor(id) { handles.set(this, id); }
    ref() { this.#refed = true; return this; }
    unref() { this.#refed = false; return this; }
    hasRef() { return this.#refed; }
  }
  const dispose = /** @type {{ dispose?: symbol }} */ (Symbol).dispose;
  if (typeof dispose === "symbol") {
    for (const C of [Timeout, Immediate]) {
      Object.defineProperty(C.prototype, dispose, { value: { [dispose]() { clear(this); } }[dispose], writable: true, configurable: true });
    }
  }
  const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  g.setTimeout = /** @type {any} */ ((/** @type {unknown} */ fn, /** @type {unknown} */ ms, /** @type {unknown[]} */ ...args) => new Timeout(() => create(fn, ms, -1, args)));
  g.setInterval = /** @type {any} */ ((/** @type {unknown} */ fn, /** @type {unknown} */ ms, /** @type {unknown[]} */ ...args) => new Timeout(() => create(fn, ms, 1, args)));
  g.clearTimeout = clear;
  g.clearInterval = clear;
  if (typeof g.setImmediate === "function") {
    g.setImmediate = (/** @type {unknown} */ fn, /** @type {unknown[]} */ ...args) => new Immediate(create(fn, 0, -1, args));
    g.clearImmediate = clear;
  }
  const sched = /** @type {{ wait?: unknown } | undefined} */ (g.scheduler);
  if (sched && typeof sched === "object") {
    Object.defineProperty(sched, "wait", {
      configurable: true,
      writable: true,
      value: (/** @type {unknown} */ ms, /** @type {{ signal?: AbortSignal } | undefined} */ options) =>
        new Promise((resolve, reject) => {
          const signal = options && options.signal;
          if (signal && signal.aborted) return reject(signal.reason);
          const id = create(() => resolve(undefined), ms, -1, []);
          if (signal) signal.addEventListener("abort", () => { clear(id); reject(signal.reason); }, { once: true });
        }),
    });
  }
  Object.defineProperty(AbortSignal, "timeout", {
    configurable: true,
    writable: true,
    value: (/** @type {unknown} */ ms) => {
      const controller = new AbortController();
      create(() => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), ms, -1, []);
      return controller.signal;
    },
  });

  // ---- playback ----
  function schedule() {
    if (scheduled || !replaying() || diverged !== null) return;
    scheduled = true;
    realSetTimeout(step, 0);
  }
  /** Delivers the next tape entry once the code has reached it (its pending microtasks ran first). */
  function step() {
    scheduled = false;
    if (diverged !== null) return;
    if (!replaying()) return live();
    const kind = tape[pos], n = tape[pos + 1], t = tape[pos + 2];
    if (kind === CALL) {
      const call = calls.get(n);
      if (call && call.answer === undefined) { stallSince = 0; return; } // its answer is on its way: it schedules us
      if (call && call.answer !== undefined) {
        pos += 3;
        stallSince = 0;
        clock = t;
        calls.delete(n);
        call.settle(call.answer);
        return after();
      }
    } else if (kind === TIMER && timers.has(n)) {
      pos += 3;
      stallSince = 0;
      clock = t;
      fire(n);
      return after();
    }
    // The code has not made that call or timer (yet).
    const now = realNow();
    if (stallSince === 0) stallSince = now;
    if (now - stallSince > STALL_MS) {
      diverge(kind === CALL
        ? `it did not make call ${n} (it made ${callSeq} calls) within ${STALL_MS} ms`
        : `it did not set timer ${n} (it set ${timerSeq} timers) within ${STALL_MS} ms`);
      return;
    }
    scheduled = true;
    realSetTimeout(step, 10);
  }
  /** After a delivery: the next step once the code's microtasks ran (going live when the tape is used up). */
  function after() {
    scheduled = true;
    realSetTimeout(step, 0);
  }
  /** The tape is used up: answers held so far are delivered and timers armed, from now on live. */
  function live() {
    clock = Math.max(clock, realNow());
    // By due time, then creation order (run 33, fixer RC): timers already past due are armed at 0 ms in this order.
    const waiting = [...timers].filter(([, t]) => t.real === undefined).sort(([a, x], [b, y]) => x.due - y.due || a - b);
    for (const [id, t] of waiting) arm(id, t);
    for (const [n, call] of [...calls]) {
      if (call.answer === undefined) continue;
      calls.delete(n);
      record(CALL, n);
      call.settle(call.answer);
    }
  }
  if (replaying()) schedule();

  /**
   * One call through the bridge, numbered, with the tape recorded so far.
   * @param {BridgeCallKind} kind
   * @param {string} target
   * @param {string} name
   * @param {unknown[]} args
   * @returns {Promise<BridgeResult>}
   */
  function call(kind, target, name, args) {
    const seq = ++callSeq;
    return new Promise((settle) => {
      /** @type {PendingCall} */
      const pending = { settle, answer: undefined };
      calls.set(seq, pending);
      if (replaying()) schedule();
      // Output written before the call reaches the host before it (so a run that waits keeps it). The call goes
      // through the isolate's window of calls on the wire (issue 20 run 32, JP): its tape is taken when it is sent,
      // so the host gets the tape in the order it was recorded, whatever output batches go meanwhile.
      // Counted as in flight from now, not only once in the window: the flush before it is a timer and an RPC away,
      // and the runner's wait after the export would otherwise end the run meanwhile (issue 20, run 39, fixer JD).
      const release = __hold();
      /** @type {Promise<unknown>} */
      let flushed;
      try { flushed = Promise.resolve(beforeSend()); } catch (e) { flushed = Promise.reject(e); }
      flushed.then(
        () => { try { return __send(kind, () => bridge.call(kind, target, name, args, { seq, tape: take() })); } finally { release(); } },
        (e) => { release(); throw e; },
      ).then(
        (r) => answered(seq, r),
        (e) => {
          // workerd's refusal of a value past 32 MiB: E2BIG naming the call (as outside replay runs).
          const f = __bridgeFailure(e, __callName(kind, target, name));
          /** @type {import("../protocol.js").BridgeError} */
          const error = { name: "Error", message: f && f.message ? String(f.message) : String(f) };
          if (typeof f.code === "string") error.code = f.code;
          answered(seq, { ok: false, error });
        },
      );
    });
  }
  /** @param {number} seq @param {BridgeResult} r */
  function answered(seq, r) {
    const pending = calls.get(seq);
    if (!pending) return;
    // The host released this isolate while the call was held (the run waits for an answer): never seen.
    if (!r.ok && r.error && r.error.code === "ERELEASED") return;
    if (replaying()) {
      pending.answer = r;
      schedule();
      return;
    }
    calls.delete(seq);
    record(CALL, seq);
    pending.settle(r);
  }

  return {
    call,
    /** @param {() => unknown} fn runs before each call is sent. */
    beforeSend(fn) { beforeSend = fn; },
    /** @param {(fn: any) => any} g wraps each fired timer's callback (the runner's guard). */
    guardWith(g) { guard = g; },
    /** Entries recorded since the last message (for an output batch). */
    take,
    /** Settles with the divergence message if playback finds one. */
    divergence,
    /**
     * The checks when the default export has settled: a run that ends
     * before the tape's end took another path.
     * @returns {string | null} the divergence message, or null.
     */
    finish() {
      if (diverged !== null) return diverged;
      if (replaying()) diverge(`it finished before reaching event ${pos / 3 + 1} of ${tape.length / 3} recorded`);
      return diverged;
    },
    /** Calls made in this attempt. */
    calls: () => callSeq,
  };
}
