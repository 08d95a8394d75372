/**
 * Integer option checks shared by every layer, with the messages the
 * library has always used. Pure (imports only `cut.ts`).
 *
 * @module
 */
import { valueCut } from "./cut.js";

/** True for a safe integer ≥ 1. */
export function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** True for a safe integer ≥ 0. */
export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** How a failed check reports itself. */
export interface IntegerCheckOptions {
  /** End the message with `, got <value>` (`valueCut`: a string quoted, at most 64 characters). Default `false`. */
  readonly got?: boolean;
  /** The error class thrown. Default `TypeError`. */
  readonly error?: new (message: string) => Error;
}

function fail(what: string, kind: string, value: unknown, options: IntegerCheckOptions, end: string): never {
  const Err = options.error ?? TypeError;
  throw new Err(`${what} must be ${kind}${options.got ? `, got ${valueCut(value)}` : end}`);
}

/**
 * `value` when it is a positive safe integer.
 *
 * @example
 * positiveInteger(0, "createReadTool: maxLines")                 // throws TypeError "createReadTool: maxLines must be a positive integer."
 * positiveInteger(1.5, "exec: output.maxBytes", { got: true })   // throws TypeError "exec: output.maxBytes must be a positive integer, got 1.5"
 * @throws TypeError (or `options.error`) `<what> must be a positive integer.`, or with `got`
 *   `<what> must be a positive integer, got <value>`.
 */
export function positiveInteger(value: unknown, what: string, options: IntegerCheckOptions = {}): number {
  if (!isPositiveInteger(value)) fail(what, "a positive integer", value, options, ".");
  return value;
}

/**
 * `value` when it is a non-negative safe integer.
 *
 * @throws TypeError (or `options.error`) `<what> must be a non-negative safe integer`, or with
 *   `got` `<what> must be a non-negative safe integer, got <value>`.
 */
export function nonNegativeInteger(value: unknown, what: string, options: IntegerCheckOptions = {}): number {
  if (!isNonNegativeInteger(value)) fail(what, "a non-negative safe integer", value, options, "");
  return value;
}
