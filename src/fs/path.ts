/**
 * Canonical paths (spec 01 §2.1): absolute, `/`-separated, empty and `.`
 * segments dropped, `..` applied lexically (before any link is resolved).
 *
 * @module
 */
import { cutWithMark } from "../util/cut.js";
import { isUnder, normalizePath } from "../util/path.js";
import { WorkspaceFsError } from "./errors.js";

/**
 * Where {@link canonicalPath} resolves a path: below a first segment no valid
 * path can hold (NUL is refused first), so the lexical `..` of
 * `normalizePath` removes this anchor exactly when the path climbs above `/`.
 */
const ANCHOR = "/\0";

/**
 * The longest canonical path a Workspace takes, in bytes of UTF-8: 256 KiB.
 * Names have no limit of their own (spec 01 §2.1 sets none) but must fit in
 * a path. A longer path fails with `ENAMETOOLONG` before any SQL runs: a
 * path key is one SQL value, and Durable Object SQLite refuses values past
 * 2 MB (raw `SQLITE_TOOBIG`).
 */
export const MAX_PATH_BYTES = 262_144;

/**
 * The most bytes of UTF-8 a path's ancestors' paths may hold together: 32
 * MiB. Each directory along a path has its own full path key, so `mkdir -p`
 * of a deep path stores depth × length bytes; this bounds that product (a
 * 2,000-deep path of 16 KiB is about 16 MiB). A path past it fails with
 * `ENAMETOOLONG` before any SQL runs.
 */
export const MAX_PATH_PREFIX_BYTES = 33_554_432;

/**
 * Most bytes of path keys one `rename` of a directory may add: each entry
 * below keeps its full path, so moving N entries to a place L bytes longer
 * rewrites N × L more bytes (250 files under a 200,000-byte name: 50 MB, from
 * one call — issue 20, thirteenth attack run). Past it, `ENAMETOOLONG`,
 * nothing moved. 32 MiB, the ancestors' bound.
 */
export const MAX_MOVE_GROWTH_BYTES = 33_554_432;

/** Text that a canonical path cannot hold: an empty, `.` or `..` segment, or NUL. */
const NOT_CANONICAL = /\/\/|\/\.\.?(?:\/|$)|\0/;

/**
 * Returns the canonical form of `path` (a lone surrogate replaced by U+FFFD).
 * @throws WorkspaceFsError `EINVAL` for a non-string, empty, relative or NUL-containing path, or one escaping `/`;
 * `ENAMETOOLONG` when the canonical path holds more than {@link MAX_PATH_BYTES} bytes of UTF-8, or
 * its ancestors' paths more than {@link MAX_PATH_PREFIX_BYTES} together.
 */
export function canonicalPath(given: unknown, syscall: string): string {
  return withinLimit(canonicalForm(given, syscall), syscall);
}

function canonicalForm(given: unknown, syscall: string): string {
  if (typeof given !== "string") {
    throw new WorkspaceFsError("EINVAL", syscall, undefined, `path must be a string, got ${describe(given)}`);
  }
  // A lone UTF-16 surrogate cannot be stored as UTF-8: it becomes U+FFFD here, as Node's fs does,
  // so every storage (node:sqlite, Durable Object SQLite) keeps and lists the same name.
  const text = given as string & { isWellFormed(): boolean; toWellFormed(): string };
  const path = text.isWellFormed() ? given : text.toWellFormed();
  // Already canonical (the common case): no empty, `.` or `..` segment, no trailing `/`, no NUL.
  if (path.length > 1 && path[0] === "/" && path[path.length - 1] !== "/" && !NOT_CANONICAL.test(path)) return path;
  if (path === "" || path[0] !== "/") {
    throw new WorkspaceFsError("EINVAL", syscall, path, "path must be absolute (start with /)");
  }
  if (path.includes("\0")) throw new WorkspaceFsError("EINVAL", syscall, path.replaceAll("\0", "\\0"), "path contains NUL");
  const anchored = normalizePath(`.${path}`, ANCHOR);
  if (!isUnder(anchored, ANCHOR)) throw new WorkspaceFsError("EINVAL", syscall, path, "path escapes the root");
  return anchored === ANCHOR ? "/" : anchored.slice(ANCHOR.length);
}

/**
 * `path` itself when it holds at most {@link MAX_PATH_BYTES} bytes of UTF-8
 * and its ancestors' paths at most {@link MAX_PATH_PREFIX_BYTES} together;
 * else `ENAMETOOLONG`. `where`, when given, is said after the limit (e.g.
 * `"where its links lead"` for a path reached through symbolic links).
 */
function withinLimit(path: string, syscall: string, where?: string): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4 bytes);
  // then the ancestors hold at most (length × 3)² / 2 bytes.
  if (path.length * 3 <= 4_096) return path;
  const fail = (what: string) => tooLong(what + (where ? `, ${where}` : ""), syscall, path, "use a shorter or shallower path");
  if (path.length > MAX_PATH_BYTES) {
    const bytes = utf8Length(path);
    if (bytes > MAX_PATH_BYTES) throw fail(`path too long: ${bytes} bytes of UTF-8, at most ${MAX_PATH_BYTES}`);
  }
  const { bytes, prefixes } = measurePath(path);
  if (bytes > MAX_PATH_BYTES) throw fail(`path too long: ${bytes} bytes of UTF-8, at most ${MAX_PATH_BYTES}`);
  if (prefixes > MAX_PATH_PREFIX_BYTES) {
    throw fail(`path too deep for its length: its ancestors' paths hold ${prefixes} bytes of UTF-8 together, at most ${MAX_PATH_PREFIX_BYTES}`);
  }
  return path;
}

/**
 * Checks a path the caller did not give literally — one reached through
 * symbolic links, or a moved entry's new path — against {@link MAX_PATH_BYTES}
 * and {@link MAX_PATH_PREFIX_BYTES}, as {@link canonicalPath} checks a given path.
 * @throws WorkspaceFsError `ENAMETOOLONG` naming the limit passed, `where` and the start of `path`.
 */
export function checkPathLimits(path: string, syscall: string, where: string): void {
  withinLimit(path, syscall, where);
}

/**
 * Bytes of UTF-8 in canonical `path` (`bytes`) and in its ancestors' paths
 * together (`prefixes`: the sum, over each `/` but the first, of the bytes
 * before it), as the limits count them.
 */
export function measurePath(path: string): { bytes: number; prefixes: number } {
  let bytes = 0;
  let prefixes = 0;
  for (let i = 0; i < path.length; i++) {
    const unit = path.charCodeAt(i);
    if (unit === 0x2f && i > 0) prefixes += bytes; // the ancestor path ending before this `/`
    bytes += unit >= 0xd800 && unit <= 0xdfff ? 2 : unit >= 0x800 ? 3 : unit >= 0x80 ? 2 : 1;
  }
  return { bytes, prefixes };
}

/**
 * Throws unless `target` is a link target the Workspace stores — what
 * `symlink` checks before anything else: a string, without NUL (`EINVAL`),
 * not empty (`ENOENT`, as Linux), at most {@link MAX_PATH_BYTES} bytes of
 * UTF-8 (`ENAMETOOLONG`). Git's checkout calls it too, to refuse a tree
 * whose link it could not make before it writes anything (issue 20, run 29, GL).
 * `canonical` is the link's path, named in the error.
 * @throws WorkspaceFsError `EINVAL` · `ENOENT` · `ENAMETOOLONG`, syscall `symlink`.
 */
export function checkSymlinkTarget(target: unknown, canonical: string): asserts target is string {
  if (typeof target !== "string") throw new WorkspaceFsError("EINVAL", "symlink", canonical, "link target must be a string");
  if (target.includes("\0")) throw new WorkspaceFsError("EINVAL", "symlink", canonical, "link target contains NUL");
  if (target === "") throw new WorkspaceFsError("ENOENT", "symlink", canonical, "link target is empty");
  // Linux refuses a target past PATH_MAX; here, past the longest path a Workspace takes.
  if (target.length > MAX_PATH_BYTES / 3 && utf8Length(target) > MAX_PATH_BYTES) {
    throw tooLong(`link target too long: ${utf8Length(target)} bytes of UTF-8, at most ${MAX_PATH_BYTES}`, "symlink", target, "use a shorter target");
  }
}

/** The `ENAMETOOLONG` error: `what` went wrong, what to do, and the first 60 characters of `path` (never half a character) then `…`. */
export function tooLong(what: string, syscall: string, path: string, todo: string): WorkspaceFsError {
  return new WorkspaceFsError("ENAMETOOLONG", syscall, undefined, `${what}; ${todo}: ${cutWithMark(path, 61)}`);
}

/** Bytes of UTF-8 in a well-formed string. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) bytes += 1; // each unit of a pair: 2 units → 4 bytes
    else if (unit >= 0x800) bytes += 2;
    else if (unit >= 0x80) bytes += 1;
  }
  return bytes;
}

/** True when `path` is absolute and already canonical (no empty, `.` or `..` segments, no trailing `/` but for `/`). */
export function isCanonicalPath(path: string): boolean {
  try {
    return canonicalPath(path, "check") === path;
  } catch {
    return false;
  }
}

/** Segments of a canonical path (`[]` for `/`). */
export function segmentsOf(canonical: string): string[] {
  return canonical === "/" ? [] : canonical.slice(1).split("/");
}

/** `dir` + `/` + `rel`, without doubling the slash at the root. */
export function joinPath(dir: string, rel: string): string {
  return dir === "/" ? `/${rel}` : `${dir}/${rel}`;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
