/** Shared option checks for mounts. @module */

/** `undefined`, or a positive safe integer; anything else throws a TypeError naming `what`. */
export function positiveInteger(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${what} must be a positive integer, got ${typeof value === "number" ? value : JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}
