/**
 * Option parsing for `workspace.fs` methods: each helper checks one argument
 * and returns it normalised, or throws the documented error (`TypeError` for
 * a malformed page or flag option, `WorkspaceFsError` `EINVAL` for a bad mode
 * or `readFile` option). No I/O.
 *
 * @module
 */
import { isNonNegativeInteger, nonNegativeInteger, positiveInteger } from "../util/validate.js";
import { WorkspaceFsError } from "./errors.js";
import type { ReadFileOptions } from "./types.js";
import { quoteCut, valueCut } from "../util/cut.js";

/** Default permission bits of a new file (`writeFile`). */
export const FILE_MODE = 0o644;
/** Default permission bits of a new directory (`mkdir`, and parents made by `mkdir -p`). */
export const DIR_MODE = 0o755;
/** Permission bits of a symbolic link. */
export const LINK_MODE = 0o777;

/**
 * Internal option key of `writeFile` and `mkdir` (not exported from the
 * package): with `[NO_FOLLOW]: true` the walk of the path follows no
 * symbolic link anywhere — a link among the parent directories fails the
 * call `ENOTDIR`, a link at the path itself fails `writeFile` `ELOOP` (or
 * `EEXIST` when `exclusive`) and `mkdir` `EEXIST` — and it is applied where
 * the call resolves the path, so in `writeFile`'s commit transaction too
 * (after a streamed content was read). A mount's write API uses it (issue
 * 20, seventeenth attack run: a link swapped in for a parent while a
 * streamed file arrived was followed at commit).
 */
export const NO_FOLLOW: unique symbol = Symbol("agent-computer fs: follow no symbolic link in the path");

/** Options carrying {@link NO_FOLLOW}. */
export interface NoFollowOption {
  readonly [NO_FOLLOW]?: boolean;
}

/** Whether `options` asks for {@link NO_FOLLOW}. */
export function noFollowOption(options: object | undefined): boolean {
  return options !== undefined && (options as NoFollowOption)[NO_FOLLOW] === true;
}

/**
 * Internal option key of `readdir` (not exported from the package): with
 * `[MAX_NAME_LENGTH]: n` (a non-negative safe integer) the page holds only
 * the entries whose name is at most `n` characters (Unicode code points,
 * counted by SQLite's `length()`), filtered in the query before `limit` and
 * `offset` apply, so longer names are never read. A name of at most `n`
 * UTF-16 code units always passes; one that passes has at most `2 × n`.
 * Any other value is ignored, and so is the key by a filesystem that does
 * not know it (a remote stub drops symbol keys): its callers bound what
 * they read either way. The tools' Unicode-twin scan and the output
 * directory's prune use it to read only names that can matter to them
 * (issue 20, scout after the nineteenth attack run).
 */
export const MAX_NAME_LENGTH: unique symbol = Symbol("agent-computer fs: readdir only names of at most this many characters");

/** Options carrying {@link MAX_NAME_LENGTH}. */
export interface MaxNameLengthOption {
  readonly [MAX_NAME_LENGTH]?: number;
}

/** The {@link MAX_NAME_LENGTH} `options` ask for, or `undefined` (absent, or not a non-negative safe integer). */
export function maxNameLengthOption(options: object | undefined): number | undefined {
  const value = options === undefined || options === null ? undefined : (options as MaxNameLengthOption)[MAX_NAME_LENGTH];
  return isNonNegativeInteger(value) ? value : undefined;
}

/** A `readFile` byte window and encoding. */
export interface ReadWindow {
  encoding?: "utf8";
  byteOffset: number;
  byteLength?: number;
}

/** `readFile`'s second argument: `"utf8"`, `{ encoding?, byteOffset?, byteLength? }` or nothing. */
export function readOptions(arg: "utf8" | ReadFileOptions | undefined, path: string | undefined): ReadWindow {
  if (arg === undefined || arg === null) return { byteOffset: 0 };
  if (typeof arg === "string") {
    if (arg !== "utf8") throw new WorkspaceFsError("EINVAL", "readFile", path, `unsupported encoding ${quoteCut(arg)}: use "utf8" or none`);
    return { encoding: "utf8", byteOffset: 0 };
  }
  if (typeof arg !== "object" || Array.isArray(arg)) {
    throw new WorkspaceFsError("EINVAL", "readFile", path, "options must be \"utf8\" or an object { encoding?, byteOffset?, byteLength? }");
  }
  if (arg.encoding !== undefined && arg.encoding !== "utf8") {
    throw new WorkspaceFsError("EINVAL", "readFile", path, `unsupported encoding ${valueCut(arg.encoding)}: use "utf8" or none`);
  }
  for (const key of ["byteOffset", "byteLength"] as const) {
    const value = arg[key];
    if (value !== undefined && !isNonNegativeInteger(value)) {
      throw new WorkspaceFsError("EINVAL", "readFile", path, `${key} must be a non-negative safe integer (bytes), got ${valueCut(value)}`);
    }
  }
  return { encoding: arg.encoding, byteOffset: arg.byteOffset ?? 0, byteLength: arg.byteLength };
}

/** A paging or count option (`offset`, `limit`, `context`): absent is `fallback`. */
export function pageOption(value: unknown, key: string, method: string, fallback: number): number {
  if (value === undefined) return fallback;
  return nonNegativeInteger(value, `${method}: ${key}`, { got: true });
}

/** A positive bound (`maxLineLength`, `maxTotalLength`): absent is `Infinity`; else a positive safe integer, or a `TypeError`. */
export function positiveOption(value: unknown, key: string, method: string): number {
  if (value === undefined) return Infinity;
  return positiveInteger(value, `${method}: ${key}`, { got: true });
}

/** grep's `include`: absent, a glob string, or an array of glob strings. */
export function includeOption(value: unknown, method: string): string | string[] | undefined {
  if (value === undefined || typeof value === "string") return value;
  if (!Array.isArray(value) || value.some((glob) => typeof glob !== "string")) {
    throw new TypeError(`${method}: include must be a glob string or an array of glob strings`);
  }
  return value;
}

/** `exclude`: absent, or an array of glob strings. */
export function excludeOption(value: unknown, method: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((glob) => typeof glob !== "string")) {
    throw new TypeError(`${method}: exclude must be an array of glob strings`);
  }
  return value;
}

/** An options argument: `undefined`/`null`, or a plain object. */
export function objectOption<T>(value: T | undefined, method: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`${method}: options must be an object, got ${Array.isArray(value) ? "an array" : typeof value}`);
  }
  return value;
}

/** A boolean option: absent is `false`; anything but a boolean is a `TypeError`. */
export function flagOption(value: unknown, key: string, method: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new TypeError(`${method}: options.${key} must be a boolean, got ${typeof value}`);
  return value;
}

/** A mode argument: a non-negative safe integer, else `EINVAL` (`mode must be a non-negative integer, got …`). */
export function checkMode(value: unknown, syscall: string, path: string): number {
  if (!isNonNegativeInteger(value)) {
    throw new WorkspaceFsError("EINVAL", syscall, path, `mode must be a non-negative integer, got ${valueCut(value)}`);
  }
  return value;
}

/** A `mode` option: absent is `fallback`; kept to its permission bits (`& 0o7777`). */
export function modeOption(value: unknown, fallback: number, syscall: string, path: string): number {
  if (value === undefined) return fallback;
  return checkMode(value, syscall, path) & 0o7777;
}
