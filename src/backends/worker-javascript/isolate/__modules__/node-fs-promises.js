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
/** @typedef {{ name: string | Uint8Array, parentPath: string, path: string, isFile: () => boolean, isDirectory: () => boolean, isSymbolicLink: () => boolean }} Dirent */
/** @typedef {string | { encoding?: string | null, flag?: string } | null | undefined} FileOptions */

/** Node's encoding names (matched case-insensitively), by the codec this module uses for each. */
/** @type {Record<string, "utf8" | "utf16le" | "latin1" | "ascii" | "base64" | "base64url" | "hex">} */
const ENCODINGS = {
  utf8: "utf8", "utf-8": "utf8", utf16le: "utf16le", "utf-16le": "utf16le", ucs2: "utf16le", "ucs-2": "utf16le",
  latin1: "latin1", binary: "latin1", ascii: "ascii", base64: "base64", base64url: "base64url", hex: "hex",
};

/**
 * A TypeError or RangeError shaped as Node's (`code` set).
 * @param {"TypeError" | "RangeError"} kind
 * @param {string} code
 * @param {string} message
 */
function nodeError(kind, code, message) {
  const err = kind === "RangeError" ? new RangeError(message) : new TypeError(message);
  return Object.assign(err, { code });
}

/**
 * The encoding an options argument asks for (one of {@link ENCODINGS}' codecs), or `null` for bytes.
 * @param {FileOptions} o
 * @returns {"utf8" | "utf16le" | "latin1" | "ascii" | "base64" | "base64url" | "hex" | null}
 * @throws TypeError as Node's: `ERR_UNKNOWN_ENCODING` for `"buffer"`, `ERR_INVALID_ARG_VALUE` for another unknown name.
 */
function encodingOf(o) {
  const e = typeof o === "string" ? o : o && typeof o === "object" ? o.encoding : undefined;
  if (e === undefined || e === null) return null;
  const codec = typeof e === "string" && Object.prototype.hasOwnProperty.call(ENCODINGS, e.toLowerCase()) ? ENCODINGS[e.toLowerCase()] : undefined;
  if (codec !== undefined) return codec;
  if (e === "buffer") throw nodeError("TypeError", "ERR_UNKNOWN_ENCODING", "Unknown encoding: buffer");
  throw nodeError("TypeError", "ERR_INVALID_ARG_VALUE", "The argument 'encoding' is invalid encoding. Received " + (typeof e === "string" ? "'" + e + "'" : String(e)));
}

/**
 * Bytes handed to agent code as Node hands them: a `Buffer` over the same memory when `globalThis.Buffer` exists
 * (the `nodejs_compat` flag, the default), so `toString()`, `String(buf)` and `JSON.parse(buf)` decode UTF-8 as
 * Node's do; the plain `Uint8Array` otherwise (a `Buffer` is one, so "bytes" holds either way).
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
function nodeBytes(bytes) {
  /** @type {any} */
  const B = /** @type {any} */ (globalThis).Buffer;
  return typeof B === "function" && typeof B.from === "function" ? B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
}

/**
 * The encoding a name-returning call (`readlink`, `readdir`) asks for: `null` for UTF-8 text (the default),
 * `"buffer"` for bytes, else one of {@link ENCODINGS}' codecs, as Node's.
 * @param {FileOptions} o
 * @returns {"buffer" | "utf16le" | "latin1" | "ascii" | "base64" | "base64url" | "hex" | null}
 * @throws TypeError `ERR_INVALID_ARG_VALUE` for an unknown name, as Node's.
 */
function nameEncodingOf(o) {
  const e = typeof o === "string" ? o : o && typeof o === "object" ? o.encoding : undefined;
  if (e === "buffer") return "buffer";
  const codec = encodingOf(o);
  return codec === "utf8" ? null : codec;
}

/**
 * A name (link target, directory entry) in the encoding {@link nameEncodingOf} gave, from its UTF-8 bytes.
 * @param {string} name
 * @param {"buffer" | "utf16le" | "latin1" | "ascii" | "base64" | "base64url" | "hex" | null} codec
 * @returns {string | Uint8Array}
 */
function nameIn(name, codec) {
  if (codec === null) return name;
  const bytes = new TextEncoder().encode(name);
  return codec === "buffer" ? nodeBytes(bytes) : encodeBytes(bytes, codec);
}

/**
 * One char per byte (`mask` 0x7f: `ascii`, as Node's drops the high bit).
 * @param {Uint8Array} bytes
 * @param {number} [mask]
 */
function byteString(bytes, mask = 0xff) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x2000) {
    const part = bytes.subarray(i, Math.min(i + 0x2000, bytes.length));
    out += String.fromCharCode.apply(null, Array.from(mask === 0xff ? part : part.map((b) => b & mask)));
  }
  return out;
}

/**
 * A string's bytes in a codec other than UTF-8, as Node's `Buffer.from(string, encoding)`: `latin1`/`ascii` keep
 * each char's low byte; `utf16le` two bytes a char; `hex` pairs of digits up to the first pair that is not one;
 * `base64`/`base64url` read either alphabet, skip other characters and stop at the first `=`.
 * @param {string} text
 * @param {"utf16le" | "latin1" | "ascii" | "base64" | "base64url" | "hex"} codec
 * @returns {Uint8Array}
 */
function decodeString(text, codec) {
  if (codec === "latin1" || codec === "ascii") {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
    return out;
  }
  if (codec === "utf16le") {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 * i] = c & 0xff;
      out[2 * i + 1] = c >> 8;
    }
    return out;
  }
  if (codec === "hex") {
    const out = new Uint8Array(text.length >> 1);
    let n = 0;
    for (; n < out.length; n++) {
      const pair = text.slice(2 * n, 2 * n + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
      out[n] = parseInt(pair, 16);
    }
    return out.slice(0, n);
  }
  let clean = text.replace(/[^A-Za-z0-9+/\-_=]/g, "");
  const eq = clean.indexOf("=");
  if (eq >= 0) clean = clean.slice(0, eq);
  clean = clean.replace(/-/g, "+").replace(/_/g, "/");
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  return decodeString(atob(clean + "=".repeat((4 - (clean.length % 4)) % 4)), "latin1");
}

/**
 * Bytes as a string in a codec other than UTF-8, as Node's `buffer.toString(encoding)`.
 * @param {Uint8Array} bytes
 * @param {"utf16le" | "latin1" | "ascii" | "base64" | "base64url" | "hex"} codec
 * @returns {string}
 */
function encodeBytes(bytes, codec) {
  if (codec === "latin1") return byteString(bytes);
  if (codec === "ascii") return byteString(bytes, 0x7f);
  if (codec === "hex") {
    let out = "";
    for (const b of bytes) out += (b < 16 ? "0" : "") + b.toString(16);
    return out;
  }
  if (codec === "utf16le") {
    let out = "";
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
    return out;
  }
  const b64 = btoa(byteString(bytes));
  return codec === "base64" ? b64 : b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A file mode argument as Node's `parseFileMode`: an integer 0..2^32-1 or an octal string; `fallback` when absent.
 * @param {unknown} mode
 * @param {number} fallback
 * @returns {number}
 */
function modeOf(mode, fallback) {
  if (mode === undefined || mode === null) return fallback;
  if (typeof mode === "string") {
    if (/^[0-7]+$/.test(mode)) return parseInt(mode, 8);
    throw nodeError("TypeError", "ERR_INVALID_ARG_VALUE", "The argument 'mode' must be a 32-bit unsigned integer or an octal string. Received '" + mode + "'");
  }
  if (typeof mode !== "number") {
    throw nodeError("TypeError", "ERR_INVALID_ARG_TYPE", "The \"mode\" argument must be of type number. Received " + typeof mode);
  }
  if (!Number.isInteger(mode)) {
    throw nodeError("RangeError", "ERR_OUT_OF_RANGE", "The value of \"mode\" is out of range. It must be an integer. Received " + String(mode));
  }
  if (mode < 0 || mode > 4294967295) {
    // Node writes an integer past 2^32 with `_` between groups of three digits (addNumericalSeparator).
    const received = Math.abs(mode) > 2 ** 32 ? String(mode).replace(/\B(?=(\d{3})+(?!\d))/g, "_") : String(mode);
    throw nodeError("RangeError", "ERR_OUT_OF_RANGE", "The value of \"mode\" is out of range. It must be >= 0 && <= 4294967295. Received " + received);
  }
  return mode;
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
 * The file's bytes, or its text in the encoding given: `"utf8"` — a leading byte order mark kept (U+FEFF, as
 * Node's), an invalid sequence U+FFFD — or any other of Node's (`base64`, `base64url`, `hex`, `latin1`/`binary`,
 * `ascii`, `utf16le`/`ucs2`), encoded as Node's `Buffer#toString`. At most `maxCapabilityBytes`. Bytes are a
 * `Buffer` when the isolate has one (`nodejs_compat`), as Node's; a `Uint8Array` otherwise.
 * @param {string} path
 * @param {FileOptions} [options] an encoding, or `{ encoding }`; default bytes.
 * @returns {Promise<string | Uint8Array>}
 * @throws TypeError for an unknown encoding (Node's `ERR_INVALID_ARG_VALUE`, `ERR_UNKNOWN_ENCODING` for "buffer");
 *   `ENOENT`, `EISDIR`, `E2BIG` (over maxCapabilityBytes), `EACCES` (outside root, through a link).
 */
export async function readFile(path, options) {
  const codec = encodingOf(options);
  if (codec === "utf8") return call("fs", "", "readFile", [path, codec]);
  if (codec === null) return nodeBytes(await call("fs", "", "readFile", [path, null]));
  return encodeBytes(await call("fs", "", "readFile", [path, null]), codec);
}

/**
 * Writes text or bytes, replacing the file (`flag "w"`, default; an existing file keeps its mode, as open(2) with
 * `O_TRUNC`) or failing when it exists (`flag "wx"`). A string is decoded with the encoding given (default UTF-8;
 * any of Node's, as `Buffer.from(string, encoding)`); a new file gets `mode` (default `0o666`) less the umask `022`.
 * @param {string} path
 * @param {string | ArrayBufferView | ArrayBuffer} data
 * @param {FileOptions & { mode?: number | string }} [options]
 * @returns {Promise<void>}
 * @throws TypeError for another flag, an unknown encoding or mode, or data; `EEXIST` with `"wx"`; `EROFS` on a read-only backend or mount.
 */
export async function writeFile(path, data, options) {
  const object = options && typeof options === "object" ? options : undefined;
  const flag = object && object.flag !== undefined ? object.flag : "w";
  if (flag !== "w" && flag !== "wx") throw new TypeError("writeFile: flag " + JSON.stringify(flag) + " is not supported; use \"w\" or \"wx\"");
  const codec = encodingOf(options);
  const mode = modeOf(object ? object.mode : undefined, 0o666);
  let bytes;
  if (typeof data === "string") bytes = codec === null || codec === "utf8" ? data : decodeString(data, codec);
  else if (data instanceof Uint8Array) bytes = data;
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else throw new TypeError("writeFile: data must be a string or bytes");
  await call("fs", "", "writeFile", [path, bytes, flag, mode]);
}

/**
 * Creates a directory with `mode` (default `0o777`; a number, an octal string, or the options' `mode`) less the
 * umask `022`; `recursive` creates missing parents (mode `0o755`) and accepts an existing directory.
 * @param {string} path
 * @param {{ recursive?: boolean, mode?: number | string } | number | string} [options]
 * @returns {Promise<string | undefined>} with `recursive`, the first directory created (as the path was written;
 *   `undefined` when none was), as Node's; else `undefined`.
 */
export async function mkdir(path, options) {
  const object = options && typeof options === "object" ? options : undefined;
  const mode = modeOf(object ? object.mode : options, 0o777);
  const first = await call("fs", "", "mkdir", [path, !!(object && object.recursive), mode]);
  return first === null ? undefined : first;
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
 * Sets the permission bits (`mode & 0o7777`), as Node's: `mode` is an integer 0..2^32-1 or an octal string
 * (`"755"`).
 * @param {string} path
 * @param {number | string} mode
 * @returns {Promise<void>}
 * @throws TypeError `ERR_INVALID_ARG_TYPE` (no mode, or not a number or string), `ERR_INVALID_ARG_VALUE` (a string
 *   that is not octal); RangeError `ERR_OUT_OF_RANGE` (below 0 or past 2^32-1) — as Node's, before the host is asked.
 */
export async function chmod(path, mode) {
  const bits = modeOf(mode === null ? undefined : mode, NaN);
  if (Number.isNaN(bits)) {
    throw nodeError("TypeError", "ERR_INVALID_ARG_TYPE", "The \"mode\" argument must be of type number. Received " + (mode === null ? "null" : "undefined"));
  }
  await call("fs", "", "chmod", [path, bits & 0o7777]);
}

/**
 * @param {string} target must resolve under the backend root.
 * @param {string} path
 * @returns {Promise<void>}
 */
export async function symlink(target, path) { await call("fs", "", "symlink", [target, path]); }

/**
 * The link's target; with an encoding (a string or `{ encoding }`) as Node's: `"buffer"` its UTF-8 bytes (a
 * `Buffer` under `nodejs_compat`), `"hex"`, `"base64"` … those bytes encoded.
 * @param {string} path
 * @param {FileOptions} [options]
 * @returns {Promise<string | Uint8Array>}
 * @throws TypeError `ERR_INVALID_ARG_VALUE` for an unknown encoding.
 */
export async function readlink(path, options) {
  const codec = nameEncodingOf(options);
  return nameIn(await call("fs", "", "readlink", [path]), codec);
}

/**
 * `dir` under `base`, normalized as Node's `path.join` (no `.`, `..` after a name resolved, one `/` between).
 * @param {string} base
 * @param {string} dir
 */
function joinPath(base, dir) {
  /** @type {string[]} */
  const out = [];
  for (const s of (base + "/" + dir).split("/")) {
    if (s === "" || s === ".") continue;
    if (s === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (s !== ".." || !base.startsWith("/")) out.push(s);
  }
  return (base.startsWith("/") ? "/" : "") + (out.join("/") || ".");
}

/**
 * Entry names, or `Dirent`-like objects with `withFileTypes` (`name`, `parentPath`, `path` and the type tests).
 * `recursive` walks the subtree as Node's does (the directories read last first): names are relative to `path`
 * (`e/f.txt`); dirents keep the entry's own name and its directory in `parentPath`. A symbolic link is listed,
 * never followed. At most `maxDirectoryEntries` in all. An encoding (a string or `{ encoding }`) gives the names
 * as {@link readlink}'s.
 * @param {string} [path] default `"."` (the cwd).
 * @param {string | { withFileTypes?: boolean, recursive?: boolean, encoding?: string | null }} [options]
 * @returns {Promise<(string | Uint8Array)[] | Dirent[]>}
 * @throws `E2BIG` over maxDirectoryEntries (for `recursive`, in all).
 */
export async function readdir(path = ".", options) {
  const codec = nameEncodingOf(options);
  const recursive = !!(options && typeof options === "object" && options.recursive);
  /** @type {(RawEntry & { dir?: string })[]} */
  const entries = await call("fs", "", "readdir", recursive ? [path, true] : [path]);
  if (options && typeof options === "object" && options.withFileTypes) {
    return entries.map((e) => {
      const parentPath = e.dir ? joinPath(path, e.dir) : path;
      return { name: nameIn(e.name, codec), parentPath, path: parentPath, isFile: () => e.isFile, isDirectory: () => e.isDirectory, isSymbolicLink: () => e.isSymbolicLink };
    });
  }
  return entries.map((e) => nameIn(e.dir ? e.dir + "/" + e.name : e.name, codec));
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

/**
 * Node's `fs.constants` as on Linux (Node 22: the same object on `node:fs` and `node:fs/promises`, null prototype,
 * not frozen): file-access (`F_OK`, `R_OK`, `W_OK`, `X_OK`), open flags, mode bits and copy flags.
 */
export const constants = Object.assign(Object.create(null), {
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2,
  UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4, UV_DIRENT_SOCKET: 5,
  UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7, S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFCHR: 8192, S_IFBLK: 24576,
  S_IFIFO: 4096, S_IFLNK: 40960, S_IFSOCK: 49152, O_CREAT: 64, O_EXCL: 128, UV_FS_O_FILEMAP: 0, O_NOCTTY: 256,
  O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536, O_NOATIME: 262144, O_NOFOLLOW: 131072, O_SYNC: 1052672,
  O_DSYNC: 4096, O_DIRECT: 16384, O_NONBLOCK: 2048, S_IRWXU: 448, S_IRUSR: 256, S_IWUSR: 128, S_IXUSR: 64,
  S_IRWXG: 56, S_IRGRP: 32, S_IWGRP: 16, S_IXGRP: 8, S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2, S_IXOTH: 1,
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE: 2, UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
});

const fs = { readFile, writeFile, mkdir, rm, chmod, symlink, readlink, readdir, stat, lstat, access, constants };
export default fs;
