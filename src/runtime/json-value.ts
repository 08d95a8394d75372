/**
 * Runtime values (spec 02 §1: JSON data) checked and copied: what host
 * modules receive and return, run input, and `respond()` answers.
 *
 * @module
 */
import type { WorkspaceRuntimeValue } from "./types.js";

/**
 * Arrays and objects a value may nest. Deeper values cannot cross RPC
 * (structured clone overflows about 5,000 levels down) and recursive
 * consumers overflow the stack; they are refused with a RangeError naming
 * the limit instead.
 */
export const MAX_JSON_DEPTH = 1024;

/**
 * A property a prebuilt host function may carry (internal, not part of the
 * public API): when a call's arguments are not JSON-compatible, the
 * JavaScript backend's bridge first passes the raw arguments to it, so it can
 * throw a TypeError naming the option and what it accepts (e.g. `stdin` given
 * bytes); if it returns, the bridge throws its generic
 * `arguments of <module> <name> must be JSON-compatible: …`.
 */
export const explainArguments: unique symbol = Symbol("explainArguments");

/** A host function that may carry {@link explainArguments}. */
export type ExplainsArguments = { [explainArguments]?: (args: readonly unknown[]) => void };

/** Sets an own enumerable data property (also for the key `"__proto__"`). */
export function defineKey<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy of `value` as plain JSON data: `undefined` → null (dropped in
 * objects).
 * @throws TypeError `<where> must be JSON-compatible: …` for a non-finite
 *   number, a function, a symbol, a bigint, a cycle or a non-plain object;
 *   RangeError `<where> is nested deeper than 1024 levels`.
 */
export function normalizeJson(value: unknown, where: string, seen = new Set<object>(), depth = 0): WorkspaceRuntimeValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${where} must be JSON-compatible: it holds a non-finite number`);
    return value;
  }
  if (typeof value !== "object") throw new TypeError(`${where} must be JSON-compatible: it holds a ${typeof value}`);
  if (seen.has(value)) throw new TypeError(`${where} must be JSON-compatible: it holds a cycle`);
  if (depth >= MAX_JSON_DEPTH) throw new RangeError(`${where} is nested deeper than ${MAX_JSON_DEPTH} levels`);
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => normalizeJson(v, where, seen, depth + 1));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`${where} must be JSON-compatible: it holds a ${(value as object).constructor?.name ?? "non-plain object"}`);
    }
    const out: Record<string, WorkspaceRuntimeValue> = {};
    // defineProperty, not `out[k] =`: a "__proto__" key stays an ordinary key.
    for (const [k, v] of Object.entries(value)) if (v !== undefined) defineKey(out, k, normalizeJson(v, where, seen, depth + 1));
    return out;
  } finally {
    seen.delete(value);
  }
}

const measureEncoder = new TextEncoder();

/**
 * Size of a value as the JavaScript backend's bridge counts it (its `maxCapabilityBytes`, `maxCapabilityResponseBytes`): UTF-8 of strings/keys, the
 * `byteLength` of any ArrayBuffer view (a typed array is never walked
 * element by element), 8 per scalar/container — and 8 per hole of a sparse
 * array, which costs nothing on the wire.
 *
 * `limit` (bytes, default no limit): the walk stops as soon as the running
 * total passes it and returns that total (a lower bound, over `limit`), so a
 * sparse array of length 10^9 is refused after about `limit / 8` indices,
 * not walked whole.
 */
export function measure(value: unknown, counter = { values: 0 }, seen = new Set<object>(), limit = Infinity): number {
  counter.values++;
  if (typeof value === "string") return measureEncoder.encode(value).byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value === null || value === undefined || typeof value !== "object") return 8;
  if (seen.has(value)) throw new TypeError("must be JSON-compatible: it holds a cycle");
  seen.add(value);
  let n = 8;
  if (Array.isArray(value)) {
    for (const v of value) {
      if (n > limit) break;
      n += measure(v, counter, seen, limit - n);
    }
  } else {
    for (const [k, v] of Object.entries(value)) {
      if (n > limit) break;
      n += measureEncoder.encode(k).byteLength;
      n += measure(v, counter, seen, limit - n);
    }
  }
  seen.delete(value);
  return n;
}
