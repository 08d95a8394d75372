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
