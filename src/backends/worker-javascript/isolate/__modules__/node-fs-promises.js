// @ts-check
/**
 * Module `__modules__/node-fs-promises.js` of every run's Dynamic Worker:
 * `node:fs/promises` over the host bridge (spec 02 §3.4). Paths resolve
 * against the run's cwd and stay under the backend's root; the host checks
 * them. Its named exports are the method list the backend's description
 * shows (derived by scripts/gen-isolate.mjs, not repeated by hand).
 */
import { call } from "../workspace-capabilities.js";

/**
 * @typedef {object} RawStat What the host returns for `stat`/`lstat`.
 * @property {string} name
 * @property {number} inode
 * @property {number} mode
 * @property {number} mtime
 * @property {number} size
 * @property {boolean} isFile
 * @property {boolean} isDirectory
 * @property {boolean} isSymbolicLink
 */

/**
 * @typedef {object} Stats Node's `Stats` subset: the host's fields and the three type tests.
 * @property {string} name
 * @property {number} inode
 * @property {number} mode
 * @property {number} mtime
 * @property {number} size
 * @property {() => boolean} isFile
 * @property {() => boolean} isDirectory
 * @property {() => boolean} isSymbolicLink
 */

/** @typedef {{ name: string, isFile: boolean, isDirectory: boolean, isSymbolicLink: boolean }} RawEntry */
/** @typedef {{ name: string, isFile: () => boolean, isDirectory: () => boolean, isSymbolicLink: () => boolean }} Dirent */
/** @typedef {string | { encoding?: string | null, flag?: string } | null | undefined} FileOptions */

/**
 * The encoding an options argument asks for: `"utf8"`, or `null` for bytes.
 * @param {FileOptions} o
 * @param {string} fn the function named in the error.
 * @returns {"utf8" | null}
 * @throws TypeError for any other encoding.
 */
function encodingOf(o, fn) {
  const e = typeof o === "string" ? o : o && typeof o === "object" ? o.encoding : undefined;
  if (e === undefined || e === null) return null;
  if (e === "utf8" || e === "utf-8") return "utf8";
  throw new TypeError(fn + ": encoding " + JSON.stringify(e) + " is not supported; use \"utf8\" or read bytes");
}

/**
 * @param {RawStat} s
 * @returns {Stats}
 */
function statOf(s) {
  return {
    name: s.name, inode: s.inode, mode: s.mode, mtime: s.mtime, size: s.size,
    isFile: () => s.isFile, isDirectory: () => s.isDirectory, isSymbolicLink: () => s.isSymbolicLink,
  };
}

/**
 * The file's bytes, or its text with `"utf8"` — a leading byte order mark
 * kept (U+FEFF, as Node's), an invalid sequence U+FFFD. At most `maxCapabilityBytes`.
 * @param {string} path
 * @param {FileOptions} [options] `"utf8"` / `{ encoding: "utf8" }`; default bytes.
 * @returns {Promise<string | Uint8Array>}
 * @throws `ENOENT`, `EISDIR`, `E2BIG` (over maxCapabilityBytes), `EACCES` (outside root, through a link).
 */
export async function readFile(path, options) {
  return call("fs", "", "readFile", [path, encodingOf(options, "readFile")]);
}

/**
 * Writes text (UTF-8) or bytes, replacing the file (`flag "w"`, default) or
 * failing when it exists (`flag "wx"`).
 * @param {string} path
 * @param {string | ArrayBufferView | ArrayBuffer} data
 * @param {FileOptions} [options]
 * @returns {Promise<void>}
 * @throws TypeError for another flag or data; `EEXIST` with `"wx"`; `EROFS` on a read-only backend or mount.
 */
export async function writeFile(path, data, options) {
  const flag = options && typeof options === "object" && options.flag !== undefined ? options.flag : "w";
  if (flag !== "w" && flag !== "wx") throw new TypeError("writeFile: flag " + JSON.stringify(flag) + " is not supported; use \"w\" or \"wx\"");
  let bytes;
  if (typeof data === "string") bytes = data;
  else if (data instanceof Uint8Array) bytes = data;
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else throw new TypeError("writeFile: data must be a string or bytes");
  await call("fs", "", "writeFile", [path, bytes, flag]);
}

/**
 * @param {string} path
 * @param {{ recursive?: boolean }} [options]
 * @returns {Promise<void>}
 */
export async function mkdir(path, options) {
  await call("fs", "", "mkdir", [path, !!(options && options.recursive)]);
}

/**
 * Removes a file or a link; a directory only with `recursive` (as Node's).
 * @param {string} path
 * @param {{ recursive?: boolean, force?: boolean }} [options]
 * @returns {Promise<void>}
 * @throws `ERR_FS_EISDIR` (`Path is a directory: rm returned EISDIR (is a directory) <path>`) for a directory
 *   without `recursive`, nothing removed; `EPERM` for the backend root itself.
 */
export async function rm(path, options) {
  await call("fs", "", "rm", [path, !!(options && options.recursive), !!(options && options.force)]);
}

/**
 * @param {string} path
 * @param {number} mode
 * @returns {Promise<void>}
 */
export async function chmod(path, mode) { await call("fs", "", "chmod", [path, mode]); }

/**
 * @param {string} target must resolve under the backend root.
 * @param {string} path
 * @returns {Promise<void>}
 */
export async function symlink(target, path) { await call("fs", "", "symlink", [target, path]); }

/**
 * @param {string} path
 * @returns {Promise<string>}
 */
export async function readlink(path) { return call("fs", "", "readlink", [path]); }

/**
 * Entry names, or `Dirent`-like objects with `withFileTypes`. At most `maxDirectoryEntries`.
 * @param {string} [path] default `"."` (the cwd).
 * @param {{ withFileTypes?: boolean }} [options]
 * @returns {Promise<string[] | Dirent[]>}
 * @throws `E2BIG` over maxDirectoryEntries.
 */
export async function readdir(path = ".", options) {
  /** @type {RawEntry[]} */
  const entries = await call("fs", "", "readdir", [path]);
  if (options && options.withFileTypes) {
    return entries.map((e) => ({ name: e.name, isFile: () => e.isFile, isDirectory: () => e.isDirectory, isSymbolicLink: () => e.isSymbolicLink }));
  }
  return entries.map((e) => e.name);
}

/**
 * @param {string} path
 * @returns {Promise<Stats>}
 */
export async function stat(path) { return statOf(await call("fs", "", "stat", [path])); }

/**
 * @param {string} path
 * @returns {Promise<Stats>}
 */
export async function lstat(path) { return statOf(await call("fs", "", "lstat", [path])); }

/**
 * @param {string} path
 * @returns {Promise<void>}
 * @throws `ENOENT` when nothing is there.
 */
export async function access(path) { await call("fs", "", "access", [path]); }

const fs = { readFile, writeFile, mkdir, rm, chmod, symlink, readlink, readdir, stat, lstat, access };
export default fs;
