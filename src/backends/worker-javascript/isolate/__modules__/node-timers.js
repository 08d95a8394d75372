// @ts-check
/**
 * Module `__modules__/node-timers.js` of every run's Dynamic Worker: `node:timers` (and `timers`) as workerd's, with
 * the callbacks of `setTimeout`, `setInterval` and `setImmediate` (named exports and the default object's) guarded by
 * the runner — an exception thrown in one ends the run with exit 1 and the error's stack on stderr, as an uncaught
 * exception ends Node's process (issue 20, run 39, fixer JD). `util.promisify` of them gives `node:timers/promises`'s
 * functions, as Node's. Everything else is workerd's module as it is.
 */
// workerd's module (nodejs_compat); the isolate is checked against the Workers runtime types, which do not declare it.
// @ts-ignore
import timers from "node:timers";
import { __guard } from "../workspace-capabilities.js";

// @ts-ignore
export * from "node:timers";

const PROMISIFY_CUSTOM = Symbol.for("nodejs.util.promisify.custom");
const promises = /** @type {Record<string, unknown> | undefined} */ (/** @type {any} */ (timers).promises);

/**
 * @param {string} name
 * @returns {(callback: unknown, ...rest: unknown[]) => unknown}
 */
function guarded(name) {
  const real = /** @type {Function} */ (/** @type {any} */ (timers)[name]);
  const f = { [name](/** @type {unknown} */ callback, /** @type {unknown[]} */ ...rest) { return real.call(timers, __guard(callback), ...rest); } }[name];
  const custom = promises && promises[name];
  if (typeof custom === "function" && name !== "setInterval") Object.defineProperty(f, PROMISIFY_CUSTOM, { value: custom });
  return f;
}

const guardedSetTimeout = guarded("setTimeout");
const guardedSetInterval = guarded("setInterval");
const guardedSetImmediate = guarded("setImmediate");
export { guardedSetTimeout as setTimeout, guardedSetInterval as setInterval, guardedSetImmediate as setImmediate };
export default { ...timers, setTimeout: guardedSetTimeout, setInterval: guardedSetInterval, setImmediate: guardedSetImmediate };
