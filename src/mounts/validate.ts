/** Shared option checks for mounts. @module */
import { isPositiveInteger } from "../util/validate.js";

/**
 * `undefined`, or a positive safe integer.
 *
 * @throws TypeError `<what> must be a positive integer, got <value>` (a non-number value as JSON) for anything else.
 */
export function positiveInteger(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!isPositiveInteger(value)) {
    throw new TypeError(`${what} must be a positive integer, got ${typeof value === "number" ? value : JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}
