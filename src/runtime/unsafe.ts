/**
 * `unsafeToRepeat` (spec 02 §5): marks a host-module function whose call
 * must not run twice. When a replay run is interrupted while such a call is
 * in flight, the run fails instead of calling it again on resume.
 *
 * @module
 */

/** The mark, a registered symbol so copies of this package in one isolate agree. */
const UNSAFE = Symbol.for("agent-computer.unsafeToRepeat");

/**
 * Marks host-module function `fn` as unsafe to repeat and returns `fn`
 * itself (spec 02 §5). A replay run (`onInterrupt: "replay"`) interrupted
 * while a call of `fn` was in flight then fails with `… isn't safe to
 * repeat (unsafeToRepeat)` instead of calling `fn` again when it resumes.
 * Calls that finished before the interruption are never repeated anyway
 * (their answers are replayed from the journal). To make a function safe
 * to repeat instead, deduplicate its side effect by `ctx.callId`.
 *
 * @example
 * ```ts
 * modules: { "ws:mail": { send: unsafeToRepeat(async ([to, body]) => mailer.send(to, body)) } }
 * ```
 * @throws TypeError when `fn` is not a function.
 */
export function unsafeToRepeat<F extends (...args: never[]) => unknown>(fn: F): F {
  if (typeof fn !== "function") throw new TypeError(`unsafeToRepeat() takes a function, got ${fn === null ? "null" : typeof fn}`);
  Object.defineProperty(fn, UNSAFE, { value: true, configurable: true });
  return fn;
}

/** True when `fn` was marked by {@link unsafeToRepeat}. */
export function isUnsafeToRepeat(fn: unknown): boolean {
  return typeof fn === "function" && (fn as unknown as Record<symbol, unknown>)[UNSAFE] === true;
}

/** The mark of {@link journalStartAtOnce}: `true`, or the predicate on the call's arguments. */
const START_AT_ONCE = Symbol.for("agent-computer.journalStartAtOnce");

/**
 * Marks host-module function `fn` so that, in a replay run (`onInterrupt:
 * "replay"`, spec 02 §5), the start of each of its calls is journaled at
 * once — written before `fn` runs — instead of with the next journal flush
 * (up to 50 ms later, `JOURNAL_FLUSH_MS`). An interruption at any moment
 * of the call then finds it in flight, so the resumed call always has
 * `ctx.resumed` `true` and the function can keep from repeating its side
 * effect (see `atMostOnce` in `modules/replay.ts`). With `when`, only calls
 * whose raw arguments (as the isolate sent them, not yet checked) make
 * `when` return `true` are marked; a throw counts as `true`. Returns `fn`.
 * Outside replay runs the mark does nothing.
 *
 * @throws TypeError when `fn` is not a function or `when` is given and is not one.
 */
export function journalStartAtOnce<F extends (...args: never[]) => unknown>(fn: F, when?: (args: readonly unknown[]) => boolean): F {
  if (typeof fn !== "function") throw new TypeError(`journalStartAtOnce() takes a function, got ${fn === null ? "null" : typeof fn}`);
  if (when !== undefined && typeof when !== "function") throw new TypeError(`journalStartAtOnce(fn, when): when must be a function, got ${when === null ? "null" : typeof when}`);
  Object.defineProperty(fn, START_AT_ONCE, { value: when ?? true, configurable: true });
  return fn;
}

/** True when a call of `fn` with `args` must be journaled as started at once: `fn` is {@link unsafeToRepeat}, or marked by {@link journalStartAtOnce} (and its `when` accepts `args`). */
export function startsAtOnce(fn: unknown, args: readonly unknown[]): boolean {
  if (typeof fn !== "function") return false;
  if (isUnsafeToRepeat(fn)) return true;
  const mark = (fn as unknown as Record<symbol, unknown>)[START_AT_ONCE];
  if (mark === true) return true;
  if (typeof mark !== "function") return false;
  try {
    return (mark as (a: readonly unknown[]) => unknown)(args) === true;
  } catch {
    return true;
  }
}
