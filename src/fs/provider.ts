/**
 * `SQLiteWorkspaceProvider`: the Workspace as a node:fs-style file system
 * provider (spec 01 §1.2 `workspace.provider()`), in the shape of the
 * `VirtualProvider` of Node's `node:vfs` and its userland shim
 * `@platformatic/vfs` — so `create(workspace.provider())` from either gives
 * a node:fs-like object (`vfs.promises.readFile`, `vfs.open`, `vfs.watch`, …)
 * over the same store as `workspace.fs`.
 *
 * Every call goes to `workspace.fs`, so the provider sees (and makes) the
 * same changes as the file tools, the shell, git and other Workspaces on the
 * same storage, and every mutation is recorded by the VFS's change log.
 *
 * @module
 */
import { shouldRetryAppend } from "./append.js";
import { WorkspaceFsError } from "./errors.js";
import { nodeFsError as nodeFsErrorBase, posixCodeOf, realpathOf, symlinkThroughParentLinks, type NodeFsError } from "./node-errors.js";
import { S_IFDIR, S_IFLNK, S_IFREG, WorkspaceEntryType, WorkspaceStats, statsOf } from "./node-stats.js";
import { canonicalPath } from "./path.js";
import type { ChangeCursor, ChangePage } from "./changes.js";
import type { WorkspaceFilesystem } from "./types.js";
import { concatBytes, decodeUtf8, readStreamBytes, sha256Hex } from "../util/bytes.js";
import { directoryForm } from "../util/path.js";
import { cutWithMark, MAX_QUOTED_CHARS, quoteCut, valueCut } from "../util/cut.js";

/** Options of {@link SQLiteWorkspaceProvider}. */
export interface SQLiteWorkspaceProviderOptions {
  /**
   * Bits cleared from the `mode` of files and directories the provider
   * creates, as a process's umask. Default `0o022` (a `0o666` file lands as
   * `0o644`, a `0o777` directory as `0o755`).
   */
  umask?: number;
  /**
   * Most bytes one open file handle holds while it is written
   * ({@link WorkspaceFileHandle}: writes are kept in memory and stored at
   * `sync()`/`close()`). Opening a larger file for writing, or writing past
   * this, fails with `EFBIG`. Default 64 MiB (67,108,864).
   */
  maxOpenFileBytes?: number;
  /**
   * Most bytes all open handles of the provider hold together (the sum of
   * what each holds, each also within `maxOpenFileBytes`): a write, or a
   * first write that loads the file, past it fails with `ENOMEM` until a
   * handle is closed (or synced, for append handles). A Durable Object has
   * 128 MB. Default 64 MiB (67,108,864).
   */
  maxHeldBytes?: number;
  /**
   * How often `watch`/`watchAsync` look for changes, in ms: a positive
   * integer (else `TypeError`); more than 2^31 − 1 is capped to it
   *. Default `100`.
   */
  watchIntervalMs?: number;
}

/** {@link SQLiteWorkspaceProviderOptions.maxOpenFileBytes} by default: 64 MiB. */
export const DEFAULT_MAX_OPEN_FILE_BYTES = 64 * 1024 * 1024;

/** {@link SQLiteWorkspaceProviderOptions.maxHeldBytes} by default: 64 MiB. */
export const DEFAULT_MAX_HELD_BYTES = 64 * 1024 * 1024;
/**
 * How many times {@link SQLiteWorkspaceProvider.truncate} tries in all when
 * other writers keep changing the file between its look and its store: 10.
 * Past it the truncate fails `ESTALE`, having cut nothing (their writes are kept).
 */
export const TRUNCATE_ATTEMPTS = 10;

/** {@link SQLiteWorkspaceProviderOptions.watchIntervalMs} by default. */
export const DEFAULT_WATCH_INTERVAL_MS = 100;
/** `watchFile`'s poll interval by default (ms), as node:fs. */
export const DEFAULT_WATCH_FILE_INTERVAL_MS = 5007;

/**
 * Longest poll interval a watcher's timer uses (ms): `setTimeout`'s maximum,
 * 2^31 − 1 (about 24.8 days). A longer `interval` / `watchIntervalMs` is
 * capped to it — `setInterval` would otherwise treat it as 1 ms.
 */
const MAX_WATCH_INTERVAL_MS = 2 ** 31 - 1;

/** `COPYFILE_EXCL` of node:fs `constants`: `copyFile` fails with `EEXIST` if the destination exists. */
const COPYFILE_EXCL = 1;
/** `access` modes of node:fs `constants`. */
const X_OK = 1;

/** The change log a watcher reads: `WorkspaceFs`'s internal `revision()`/`changesSince()`. */
interface ChangeLog {
  revision(): number;
  changesSince(cursor: ChangeCursor, options?: { limit?: number }): ChangePage;
}

/** A Workspace, or anything with its `fs`. */
export interface WorkspaceProviderSource {
  /** The Workspace filesystem every call goes through. */
  readonly fs: WorkspaceFilesystem;
}

/** The object form of {@link ProviderDataOptions}. */
export interface ProviderDataOptionsObject {
  /** `"utf8"`/`"utf-8"` for strings, `"buffer"` or `null` for bytes; anything else is `EINVAL`. Default: bytes. */
  encoding?: string | null;
  /** Permission bits of a file the call creates, masked with the umask. Default `0o666`. */
  mode?: number;
  /** node:fs open flags (`"w"`, `"wx"`, `"a"`, `"r+"`, …), honoured as node:fs does. Default `"w"` for `writeFile`, `"a"` for `appendFile`, `"r"` for `readFile`. */
  flag?: string | number;
}

/** `encoding` / `flag` / `mode` as node:fs takes them: a string (the encoding) or an object. */
export type ProviderDataOptions = string | ProviderDataOptionsObject | null | undefined;

/** Options of `stat`/`lstat`. */
export interface ProviderStatOptions {
  /** `true` is refused (`EINVAL`): no bigint stats. Default `false`. */
  bigint?: boolean;
}

/** Options of {@link SQLiteWorkspaceProvider.readdir}. */
export interface ProviderReaddirOptions {
  /** Return {@link WorkspaceDirent}s instead of names. Default `false`. */
  withFileTypes?: boolean;
  /** List the whole subtree, names relative to the directory. Default `false`. */
  recursive?: boolean;
  /** Names are strings whatever this says. Default `"utf8"`. */
  encoding?: string | null;
}

/** Options of {@link SQLiteWorkspaceProvider.mkdir}. */
export interface ProviderMkdirOptions {
  /** Create missing parents; an existing directory is then not an error. Default `false`. */
  recursive?: boolean;
  /** Permission bits, masked with the umask. Default `0o777`. */
  mode?: number;
}

/** Options of {@link SQLiteWorkspaceProvider.rmdir}. */
export interface ProviderRmdirOptions {
  /** Remove a non-empty directory with everything under it. Default `false`. */
  recursive?: boolean;
}

/** Options of {@link SQLiteWorkspaceProvider.watchFile}. */
export interface ProviderWatchFileOptions {
  /** Poll interval in ms: a positive integer (else `TypeError`); more than 2^31 − 1 is capped to it. Default 5007 (as node:fs). */
  interval?: number;
  /** `false` unrefs the timer (on Node, it does not keep the process alive). Default `true`. */
  persistent?: boolean;
}

/** What `open()` parsed from node:fs `flags`. */
interface OpenFlags {
  text: string;
  read: boolean;
  write: boolean;
  append: boolean;
  create: boolean;
  exclusive: boolean;
  truncate: boolean;
  /** `O_NOFOLLOW`: a link as the final component is `ELOOP`. */
  noFollow?: boolean;
  /** `O_DIRECTORY`: anything but a directory is `ENOTDIR`. */
  directory?: boolean;
}

const STRING_FLAGS: Record<string, Omit<OpenFlags, "text">> = {};
for (const [names, read, write, append, create, exclusive, truncate] of [
  [["r", "rs", "sr"], true, false, false, false, false, false],
  [["r+", "rs+", "sr+"], true, true, false, false, false, false],
  [["w"], false, true, false, true, false, true],
  [["wx", "xw"], false, true, false, true, true, true],
  [["w+"], true, true, false, true, false, true],
  [["wx+", "xw+"], true, true, false, true, true, true],
  [["a", "as", "sa"], false, true, true, true, false, false],
  [["ax", "xa"], false, true, true, true, true, false],
  [["a+", "as+", "sa+"], true, true, true, true, false, false],
  [["ax+", "xa+"], true, true, true, true, true, false],
] as const) {
  for (const name of names) STRING_FLAGS[name] = { read, write, append, create, exclusive, truncate };
}

/** Linux `O_*` bits node:fs accepts as numeric flags. */
const O_WRONLY = 1;
const O_RDWR = 2;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const O_TRUNC = 0o1000;
const O_APPEND = 0o2000;
const O_DIRECTORY = 0o200000;
const O_NOFOLLOW = 0o400000;
/** Bits accepted and without effect here: `O_NOCTTY`, `O_NONBLOCK`, `O_DSYNC`, `O_DIRECT`, `O_NOATIME`, `O_CLOEXEC`, `O_SYNC` (every store is already durable). */
const O_IGNORED = 0o400 | 0o4000 | 0o10000 | 0o40000 | 0o1000000 | 0o2000000 | 0o4010000;
const O_KNOWN = 3 | O_CREAT | O_EXCL | O_TRUNC | O_APPEND | O_DIRECTORY | O_NOFOLLOW | O_IGNORED;

function parseFlags(flags: unknown, path: string): OpenFlags {
  if (flags === undefined || flags === null) return { text: "r", ...STRING_FLAGS.r! };
  if (typeof flags === "string") {
    const parsed = STRING_FLAGS[flags];
    if (parsed) return { text: flags, ...parsed };
  } else if (typeof flags === "number" && Number.isInteger(flags) && flags >= 0) {
    const access = flags & 3;
    if (access !== 3 && (flags & ~O_KNOWN) === 0) {
      return {
        text: String(flags),
        read: access !== O_WRONLY,
        write: access === O_WRONLY || access === O_RDWR,
        append: (flags & O_APPEND) !== 0,
        create: (flags & O_CREAT) !== 0,
        exclusive: (flags & O_EXCL) !== 0,
        truncate: (flags & O_TRUNC) !== 0,
        noFollow: (flags & O_NOFOLLOW) !== 0,
        directory: (flags & O_DIRECTORY) !== 0,
      };
    }
  }
  throw nodeFsError("EINVAL", "open", path, `invalid flags ${typeof flags === "string" || typeof flags === "number" ? quoteCut(String(flags)) : valueCut(flags)}: use r, r+, w, wx, w+, wx+, a, ax, a+, ax+ or O_* bits (O_RDONLY|O_WRONLY|O_RDWR with O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_DIRECTORY, O_NOFOLLOW)`);
}

const UTF8 = new Set(["utf8", "utf-8"]);

/** The encoding of a node:fs options argument, lower-cased; `undefined` for bytes. Only UTF-8 (and `buffer`) are supported. */
function encodingOf(options: ProviderDataOptions, syscall: string, path: string): "utf8" | undefined {
  const raw = typeof options === "string" ? options : (options?.encoding ?? undefined);
  if (raw === undefined || raw === null) return undefined;
  const encoding = String(raw).toLowerCase();
  if (encoding === "buffer") return undefined;
  if (UTF8.has(encoding)) return "utf8";
  throw nodeFsError("EINVAL", syscall, path, `unsupported encoding '${typeof raw === "string" ? cutWithMark(encoding, MAX_QUOTED_CHARS) : valueCut(raw)}': only utf8 (or buffer) is supported`);
}

/** Bytes as node:fs returns them: a `Buffer` when the runtime has one (Node; workerd with `nodejs_compat`), else the `Uint8Array`. */
function nodeBytes(bytes: Uint8Array): Uint8Array {
  const B = (globalThis as { Buffer?: { from(b: ArrayBufferLike, o: number, l: number): Uint8Array } }).Buffer;
  return B ? B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
}

const encoder = new TextEncoder();

/** `data` as bytes or a string `workspace.fs.writeFile` takes. */
function contentOf(data: unknown, syscall: string, path: string): string | Uint8Array {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw nodeFsError("EINVAL", syscall, path, "data must be a string, an ArrayBufferView or an ArrayBuffer");
}

function bytesOf(data: unknown, syscall: string, path: string): Uint8Array {
  const content = contentOf(data, syscall, path);
  return typeof content === "string" ? encoder.encode(content) : content;
}

/**
 * node:fs's (libuv's) wording where it differs from the shared table, which
 * the shell adapter uses with glibc's (`ls`, `cat` print "Too many levels of
 * symbolic links"; node:fs prints "too many symbolic links encountered").
 */
const NODE_ONLY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  ELOOP: "too many symbolic links encountered",
};

/** {@link nodeFsErrorBase} with node:fs's own descriptions ({@link NODE_ONLY_DESCRIPTIONS}). */
function nodeFsError(code: string, syscall: string, path: string, detail?: string, cause?: unknown): NodeFsError {
  return nodeFsErrorBase(code, syscall, path, detail ?? NODE_ONLY_DESCRIPTIONS[code], cause);
}

/** A path that names a directory by its form: it ends in `/` or `/.` (not `/` itself). */
function endsAsDirectory(path: unknown): path is string {
  return typeof path === "string" && path.length > 1 && (path.endsWith("/") || path.endsWith("/.")) && /[^/.]/.test(path);
}

/** The last segment of `path` as written (trailing slashes ignored): `"."` and `".."` name a directory by a dot. */
function lastSegmentAsWritten(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** The `workspace.fs` methods whose first argument (`rename`'s both, `symlink`'s second only: the first is a target, kept verbatim) is checked by {@link trailingSlashAware}. */
const SLASH_CHECKED = new Set(["stat", "lstat", "readFile", "writeFile", "rm", "rename", "readlink", "chmod", "readdir", "symlink"]);

/**
 * `fs` with node:fs's reading of a trailing slash (`/f/`, `/f/.`): the path
 * must lead (links followed) to a directory. `workspace.fs` drops a trailing
 * `/` (spec 01 §2.1), so without this `readFile("/f/")` would read file `/f`;
 * here a file or a link to one there is `ENOTDIR`, and `writeFile` of a
 * missing `/g/` is `EISDIR` (as open(2) with `O_CREAT`). As rename(2), a
 * trailing slash on `rename`'s new path needs the old one (not followed) to
 * be a directory (`ENOTDIR`, nothing moved); as symlink(2), a link path
 * with one must name an existing entry (then `EEXIST`), else `ENOENT`. A
 * path without a trailing slash costs nothing more; one with it, one or
 * two `stat`s.
 */
function trailingSlashAware(fs: WorkspaceFilesystem): WorkspaceFilesystem {
  const check = async (method: string, path: string): Promise<void> => {
    let isDirectory: boolean;
    try {
      isDirectory = (await fs.stat(path)).isDirectory;
    } catch (error) {
      if (posixCodeOf(error) !== "ENOENT") throw error;
      if (method === "writeFile") throw new WorkspaceFsError("EISDIR", method, canonicalPath(path, method));
      return; // missing: the call itself says so
    }
    if (!isDirectory) throw new WorkspaceFsError("ENOTDIR", method, canonicalPath(path, method));
  };
  /** The entry at `path` (a final link not followed), `undefined` when missing; another failure is thrown. */
  const lstatOrUndefined = async (path: string) => {
    try {
      return await fs.lstat(path);
    } catch (error) {
      if (posixCodeOf(error) !== "ENOENT") throw error;
      return undefined;
    }
  };
  /** Whether an existing parent of `path` is not a directory (links followed); the first missing one ends the walk. */
  const fileAmongParents = async (path: string, method: string): Promise<boolean> => {
    let segments: string[];
    try {
      segments = canonicalPath(path, method).split("/").filter(Boolean);
    } catch {
      return false; // a path the Workspace refuses: its own error stands
    }
    for (let i = 1; i < segments.length; i++) {
      try {
        if (!(await fs.stat(`/${segments.slice(0, i).join("/")}`)).isDirectory) return true;
      } catch (error) {
        return posixCodeOf(error) === "ENOTDIR";
      }
    }
    return false;
  };
  /**
   * `run()`'s ENOENT as the kernel's path walk answers it: ENOTDIR when a parent of a path the call names is a file
   * (or a link to one) — `f.txt/x` — which the Workspace's walk reports as missing. Costs nothing unless it fails.
   */
  const parentsChecked = (method: string, args: unknown[], run: () => unknown): unknown => {
    const result = run();
    if (!(result instanceof Promise)) return result;
    return result.catch(async (error: unknown) => {
      if (posixCodeOf(error) === "ENOENT") {
        const paths = method === "symlink" ? [args[1]] : method === "rename" || method === "copyFile" || method === "cp" ? [args[0], args[1]] : [args[0]];
        for (const path of paths) {
          if (typeof path === "string" && (await fileAmongParents(path, method))) throw new WorkspaceFsError("ENOTDIR", method, canonicalPath(path, method));
        }
      }
      throw error;
    });
  };
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof key !== "string") return bound;
      const method = key;
      if (!SLASH_CHECKED.has(method)) return (...args: unknown[]) => parentsChecked(method, args, () => bound(...args));
      return (...args: unknown[]) => parentsChecked(method, args, () => slashChecked(...args));
      async function slashChecked(...args: unknown[]): Promise<unknown> {
        if (method === "symlink") {
          // symlink(2): a trailing slash on the link path is ENOENT unless something is there (the call then says EEXIST).
          if (endsAsDirectory(args[1]) && (await lstatOrUndefined(args[1])) === undefined) {
            throw new WorkspaceFsError("ENOENT", method, canonicalPath(args[1], method));
          }
          return bound(...args);
        }
        if (method === "lstat" && endsAsDirectory(args[0])) {
          // lstat(2) of `x/`: the trailing slash resolves a final link, so it answers what the path leads to — a
          // directory — or fails as stat does (ENOENT, ELOOP; ENOTDIR for a file).
          const stats = await fs.stat(args[0]);
          if (!stats.isDirectory) throw new WorkspaceFsError("ENOTDIR", method, canonicalPath(args[0], method));
          return stats;
        }
        if (method === "readlink" && endsAsDirectory(args[0])) {
          // readlink(2) of `x/`: the path resolves through a final link, so what it names is never a link — a
          // directory is EINVAL, anything else ENOTDIR, nothing there ENOENT (the stat says so).
          const isDirectory = (await fs.stat(args[0])).isDirectory;
          throw new WorkspaceFsError(isDirectory ? "EINVAL" : "ENOTDIR", method, canonicalPath(args[0], method));
        }
        if (method === "rename" || method === "rm") {
          // rename(2), unlink(2), rmdir(2): a trailing `/` on a link (to a directory or not, dangling too) is
          // ENOTDIR on Linux — the link is not moved or removed, nor is what it names.
          for (const path of method === "rename" ? [args[0], args[1]] : [args[0]]) {
            if (typeof path === "string" && path.length > 1 && path.endsWith("/") && (await lstatOrUndefined(path))?.isSymbolicLink === true) {
              throw new WorkspaceFsError("ENOTDIR", method, canonicalPath(path, method));
            }
          }
        }
        if (endsAsDirectory(args[0])) await check(method, args[0]);
        if (method === "rename" && endsAsDirectory(args[1])) {
          // rename(2): a trailing slash on the new path needs the old one (the entry itself) to be a directory.
          const source = typeof args[0] === "string" ? await lstatOrUndefined(args[0]) : undefined;
          if (source !== undefined && !source.isDirectory) throw new WorkspaceFsError("ENOTDIR", method, canonicalPath(args[1], method));
          await check(method, args[1]);
        }
        return bound(...args);
      }
    },
  });
}

/** A node:fs-style path argument: a string (a `file:` URL or Buffer is refused, as `workspace.fs` refuses them). */
function pathArg(path: unknown, syscall: string): string {
  if (typeof path !== "string") throw nodeFsError("EINVAL", syscall, valueCut(path), "path must be a string");
  return path;
}

/** {@link canonicalPath}, failing with a node:fs error (`EINVAL` for a relative path or a NUL). */
function canonical(path: unknown, syscall: string): string {
  try {
    return canonicalPath(path, syscall);
  } catch (error) {
    throw nodeFsError(posixCodeOf(error) ?? "EINVAL", syscall, typeof path === "string" ? path : valueCut(path), undefined, error);
  }
}

/** A truncate's store refused because the file changed since that try looked at it (`cause`: the refusal); the truncate tries again. */
class TruncateRaced extends Error {
  constructor(override readonly cause: unknown) {
    super("truncate raced another writer");
  }
}

/** Runs a `workspace.fs` call, re-throwing a Workspace failure in node:fs's form (the original is the `cause`). */
async function call<T>(syscall: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = posixCodeOf(error);
    // Not a filesystem failure (a TypeError), or already in node:fs's form: as it is.
    if (code === undefined || isNodeFsError(error)) throw error;
    throw nodeFsError(code, syscall, path, undefined, error);
  }
}

/** {@link call} for a two-path operation: the error names both paths (`rename '/a' -> '/b'`) and has `dest`, as node:fs. */
async function callWithDest<T>(syscall: string, path: string, dest: string, run: () => Promise<T>): Promise<T> {
  try {
    return await call(syscall, path, run);
  } catch (error) {
    if (isNodeFsError(error) && error.syscall === syscall && error.path === path) {
      Object.assign(error, { dest, message: `${error.message} -> '${dest}'` });
    }
    throw error;
  }
}

function isNodeFsError(error: unknown): error is NodeFsError {
  return error instanceof Error && typeof (error as NodeFsError).syscall === "string" && (error as { name: string }).name !== "WorkspaceFsError";
}

function syncUnsupported(method: string): NodeFsError {
  return nodeFsError("ENOSYS", method, "", `SQLiteWorkspaceProvider is asynchronous: ${method} is not supported; use the promise form (${method.replace(/Sync$/, "")}, or vfs.promises.*)`);
}

/**
 * A `mode` argument as node:fs takes it: an unsigned 32-bit integer or an
 * octal string (`"644"`), of which the permission and special bits
 * (`0o7777`) are kept (the file type bits of a whole `st_mode` are
 * ignored); anything else is `EINVAL`. `undefined` → `fallback`.
 */
function modeArg(mode: unknown, fallback: number, syscall: string, path: string): number {
  if (mode === undefined || mode === null) return fallback;
  if (typeof mode === "string" && /^[0-7]{1,11}$/.test(mode)) mode = Number.parseInt(mode, 8);
  if (typeof mode !== "number" || !Number.isInteger(mode) || mode < 0 || mode > 0xffffffff) {
    throw nodeFsError("EINVAL", syscall, path, `mode must be an unsigned 32-bit integer or an octal string, got ${valueCut(mode)}`);
  }
  return mode & 0o7777;
}

/**
 * The options of `writeFile`/`appendFile`: the path and encoding checked,
 * the open flag (default `fallback`; one that does not write is `EBADF`, as
 * node:fs) and the requested mode (default `0o666`, before the umask).
 */
function wholeFileOptions(path: string, options: ProviderDataOptions, fallback: "w" | "a"): { parsed: OpenFlags; requested: number } {
  pathArg(path, "open");
  encodingOf(options, "open", path);
  const object = typeof options === "object" && options !== null ? options : undefined;
  const parsed = parseFlags(object?.flag ?? fallback, path);
  if (!parsed.write) throw nodeFsError("EBADF", "write", path, `bad file descriptor: flag "${parsed.text}" does not allow writing`);
  return { parsed, requested: modeArg(object?.mode, 0o666, "open", path) };
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) throw new TypeError(`SQLiteWorkspaceProvider: ${name} must be a positive integer, got ${valueCut(value)}`);
  return value;
}

/** Bytes the open handles of one provider hold together, and the most they may ({@link SQLiteWorkspaceProviderOptions.maxHeldBytes}). */
interface HeldBytes {
  bytes: number;
  readonly max: number;
}

/** Gives back what a handle held when it is collected without `close()` (where the runtime has FinalizationRegistry). */
const HANDLE_RELEASE =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<{ held: HeldBytes; account: { bytes: number } }>(({ held, account }) => {
        held.bytes -= account.bytes;
        account.bytes = 0;
      })
    : undefined;

/**
 * A node:fs-style provider over a Workspace's filesystem (spec 01 §1.2;
 * `workspace.provider()` returns one, memoised). Its methods have the names
 * and arguments of Node's `node:vfs` `VirtualProvider` (and
 * `@platformatic/vfs`), so a `VirtualFileSystem` can be built on it.
 *
 * - Paths are absolute Workspace paths; `..` is lexical (spec 01 §2.1).
 * - Errors are node:fs's: an `Error` with `code`, negative `errno`,
 *   `syscall` and `path`, message `"ENOENT: no such file or directory, open '/x'"`
 *   (ELOOP: `"too many symbolic links encountered"`, as node);
 *   the Workspace's own `WorkspaceFsError` is the `cause`.
 * - A path ending in `/` (or `/.`) must lead to a directory, as in node:fs:
 *   a file there is `ENOTDIR`; `writeFile` of a missing one is `EISDIR`.
 * - A path past the Workspace's limits (256 KiB of UTF-8; its ancestors' paths 32 MiB together) is `ENAMETOOLONG`. Bad option
 *   values (a wrong `flags` string, an encoding other than UTF-8) are `EINVAL`.
 * - Strings are UTF-8 (`"utf8"`, `"utf-8"`); bytes are `Buffer`s where
 *   the runtime has `Buffer`, else `Uint8Array`s.
 * - New files and directories get `mode & ~umask` (umask default `0o022`).
 * - Asynchronous only: every `…Sync` method throws `ENOSYS` naming the
 *   promise form to use (the Workspace may have to wait for storage, a
 *   mount or a stream; node:fs's sync API cannot).
 * - No hard links: `link` rejects `ENOSYS` (the Workspace keeps one name
 *   per entry; the shell's `ln` answers the same).
 * - `utimes`/`lutimes` check that the entry exists and leave its `mtime`:
 *   the Workspace sets `mtime` itself on every change.
 * - `watch`/`watchAsync`/`watchFile` read the Workspace's change log, so
 *   they see changes made by anyone on the same storage.
 */
export class SQLiteWorkspaceProvider {
  readonly #fs: WorkspaceFilesystem;
  readonly #log: ChangeLog | undefined;
  readonly #umask: number;
  readonly #maxOpenFileBytes: number;
  /** What all the provider's open handles hold together ({@link SQLiteWorkspaceProviderOptions.maxHeldBytes}). */
  readonly #held: HeldBytes;
  readonly #watchIntervalMs: number;
  readonly #fileWatchers = new Map<string, WorkspaceStatWatcher>();
  readonly #watchers = new Set<WorkspaceWatcher>();
  /** The last append queued per canonical path ({@link SQLiteWorkspaceProvider.#appendBytes}). */
  readonly #appends = new Map<string, Promise<void>>();
  #nextFd = 3;

  /**
   * @param workspace A `Workspace` (or any object with its `fs`).
   * @param options See {@link SQLiteWorkspaceProviderOptions}.
   * @throws TypeError when `workspace.fs` is missing or an option is out of range.
   */
  constructor(workspace: WorkspaceProviderSource, options: SQLiteWorkspaceProviderOptions = {}) {
    const fs = workspace?.fs;
    if (fs === null || typeof fs !== "object" || typeof fs.stat !== "function") throw new TypeError("SQLiteWorkspaceProvider: pass a Workspace (an object with its fs)");
    this.#fs = trailingSlashAware(fs);
    const log = fs as unknown as Partial<ChangeLog>;
    this.#log = typeof log.revision === "function" && typeof log.changesSince === "function" ? (log as ChangeLog) : undefined;
    const umask = options.umask ?? 0o022;
    if (typeof umask !== "number" || !Number.isInteger(umask) || umask < 0 || umask > 0o777) throw new TypeError(`SQLiteWorkspaceProvider: umask must be an integer 0..0o777, got ${valueCut(umask)}`);
    this.#umask = umask;
    this.#maxOpenFileBytes = positiveInteger(options.maxOpenFileBytes, "maxOpenFileBytes", DEFAULT_MAX_OPEN_FILE_BYTES);
    this.#held = { bytes: 0, max: positiveInteger(options.maxHeldBytes, "maxHeldBytes", DEFAULT_MAX_HELD_BYTES) };
    this.#watchIntervalMs = positiveInteger(options.watchIntervalMs, "watchIntervalMs", DEFAULT_WATCH_INTERVAL_MS);
  }

  /** `false`: writes go through (a read-only mount still rejects them with `EROFS`). */
  get readonly(): boolean {
    return false;
  }
  /** `true`. */
  get supportsSymlinks(): boolean {
    return true;
  }
  /** `true` over a local Workspace (its change log); `false` over a remote `fs` without one. */
  get supportsWatch(): boolean {
    return this.#log !== undefined;
  }

  // ── open files ───────────────────────────────────────────────────────

  /**
   * Opens a file. `flags` as node:fs (`r` default, `r+`, `w`, `wx`, `w+`,
   * `a`, `ax`, `a+`, …, or `O_*` bits); `mode` (default `0o666`, masked
   * with the umask) for a file it creates. A final link is followed; a
   * dangling one (a link to a missing file) is created through, as
   * open(2) with `O_CREAT` does: its target is made (unless `O_EXCL`:
   * `EEXIST`).
   * @returns A {@link WorkspaceFileHandle}.
   * @throws `ENOENT` missing (without a create flag) or missing parent (of a dangling link's target, too) · `EEXIST` exclusive and present (a link included, not followed: a directory or a link loop too; run 40, fixer f40fs) · `EISDIR` a directory opened for writing, or a path ending in `/` with a create flag (nothing is created) · `ENOTDIR` · `ELOOP` · `EROFS` · `EFBIG` a file over `maxOpenFileBytes` opened for writing · `EINVAL` bad flags.
   */
  async open(path: string, flags?: string | number, mode?: number | string): Promise<WorkspaceFileHandle> {
    pathArg(path, "open");
    const parsed = parseFlags(flags, path);
    const fileMode = modeArg(mode, 0o666, "open", path) & ~this.#umask;
    if (parsed.create) await this.#createThroughSlash(path, "open");
    // O_CREAT|O_EXCL: anything at the path is EEXIST, a final link not followed — a directory, a link loop, a link
    // with O_NOFOLLOW too — as open(2) answers (issue 20, run 40, fixer f40fs).
    if (parsed.exclusive && parsed.create && (await this.#statOrUndefined(path, false, "open")) !== undefined) {
      throw nodeFsError("EEXIST", "open", path);
    }
    if (parsed.noFollow && (await this.#statOrUndefined(path, false, "open"))?.isSymbolicLink()) {
      throw nodeFsError("ELOOP", "open", path); // O_NOFOLLOW and the path is a link: node:fs's message
    }
    let stat = await this.#statOrUndefined(path, true, "open");
    if (parsed.directory && stat !== undefined && !stat.isDirectory()) throw nodeFsError("ENOTDIR", "open", path);
    if (stat?.isDirectory()) {
      if (parsed.write) throw nodeFsError("EISDIR", "open", path);
    } else if (stat === undefined) {
      if (!parsed.create) throw nodeFsError("ENOENT", "open", path);
      try {
        await this.#create(path, new Uint8Array(0), fileMode, !parsed.exclusive, "open");
      } catch (error) {
        // Another caller created it meanwhile: without O_EXCL that is the file to open.
        if (parsed.exclusive || posixCodeOf(error) !== "EEXIST") throw nodeFsError(posixCodeOf(error) ?? "EIO", "open", path, undefined, error);
      }
      stat = await call("open", path, () => statsOf(this.#fs, path, true));
    } else if (parsed.exclusive && parsed.create) {
      throw nodeFsError("EEXIST", "open", path);
    } else if (parsed.truncate) {
      await call("open", path, () => this.#fs.writeFile(path, new Uint8Array(0), { mode: stat!.mode & 0o7777 }));
      stat = await call("open", path, () => statsOf(this.#fs, path, true));
    }
    if (parsed.write && !parsed.append && stat.size > this.#maxOpenFileBytes) {
      throw nodeFsError("EFBIG", "open", path, `file too large to open for writing (${stat.size} bytes; maxOpenFileBytes is ${this.#maxOpenFileBytes})`);
    }
    return new WorkspaceFileHandle(this.#fs, path, parsed, this.#nextFd++, this.#maxOpenFileBytes, stat.ino, (p, bytes, syscall, ino) => this.#appendBytes(p, bytes, undefined, syscall, ino), this.#held);
  }

  // ── metadata ─────────────────────────────────────────────────────────

  /**
   * Stats of `path`, a final link followed.
   * @throws `ENOENT` (also a dangling link) · `ENOTDIR` · `ELOOP` · `EINVAL` `{ bigint: true }` (not supported).
   */
  async stat(path: string, options?: ProviderStatOptions): Promise<WorkspaceStats> {
    this.#noBigint(options, "stat", path);
    return call("stat", pathArg(path, "stat"), () => statsOf(this.#fs, path, true));
  }

  /**
   * Stats of the entry itself (a link is not followed) — but a path written with a trailing `/` (`ld/`) is resolved
   * through a final link, as lstat(2): it answers the directory the link names.
   * @throws `ENOENT` · `ELOOP` · `ENOTDIR` (`lf/`, a link to a file) · `EINVAL` `{ bigint: true }`.
   */
  async lstat(path: string, options?: ProviderStatOptions): Promise<WorkspaceStats> {
    this.#noBigint(options, "lstat", path);
    return call("lstat", pathArg(path, "lstat"), () => statsOf(this.#fs, path, false));
  }

  /**
   * A directory's entries in byte order of name: names, or
   * {@link WorkspaceDirent}s with `{ withFileTypes: true }`. `{ recursive:
   * true }` lists the whole subtree (names relative to `path`, each
   * directory's entries after it, breadth first, as node:fs; links are not
   * followed).
   * @throws `ENOENT` · `ENOTDIR` · `ELOOP`.
   */
  async readdir(path: string, options?: ProviderReaddirOptions): Promise<string[] | WorkspaceDirent[]> {
    pathArg(path, "scandir");
    const withTypes = options?.withFileTypes === true;
    const base = canonical(path, "scandir");
    const out: (string | WorkspaceDirent)[] = [];
    const queue: { dir: string; rel: string }[] = [{ dir: base, rel: "" }];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const entries = await call("scandir", path, () => this.#fs.readdir(next.dir));
      for (const entry of entries) {
        const rel = next.rel === "" ? entry.name : `${next.rel}/${entry.name}`;
        out.push(withTypes ? new WorkspaceDirent(entry.name, next.dir, entry.isFile, entry.isDirectory, entry.isSymbolicLink) : rel);
        if (options?.recursive === true && entry.isDirectory) queue.push({ dir: next.dir === "/" ? `/${entry.name}` : `${next.dir}/${entry.name}`, rel });
      }
    }
    return out as string[] | WorkspaceDirent[];
  }

  /**
   * Whether something is at `path` (a final link followed: a dangling link is `false`). Never rejects.
   */
  async exists(path: string): Promise<boolean> {
    try {
      await this.#fs.stat(path);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Checks that `path` exists (`F_OK`, the default) and, for `X_OK`, that a
   * file has an execute bit. `R_OK`/`W_OK` need nothing more: the Workspace
   * has no owners (a read-only mount's writes still fail with `EROFS`).
   * @throws `ENOENT` · `EACCES` `X_OK` on a file without an execute bit.
   */
  async access(path: string, mode = 0): Promise<void> {
    const stats = await this.stat(path);
    if ((mode & X_OK) !== 0 && stats.isFile() && (stats.mode & 0o111) === 0) throw nodeFsError("EACCES", "access", path);
  }

  /**
   * The canonical path with every link resolved (realpath(3)).
   * @throws `ENOENT` a missing segment or dangling link · `ENOTDIR` (also a path ending in `/` that resolves to a file) · `ELOOP` more than 40 links.
   */
  async realpath(path: string, _options?: unknown): Promise<string> {
    const real = canonical(pathArg(path, "realpath"), "realpath");
    const reader = {
      lstat: (candidate: string) => call("realpath", path, () => this.#fs.lstat(candidate)),
      readlink: (candidate: string) => call("realpath", path, () => this.#fs.readlink(candidate)),
    };
    const resolved = await realpathOf(reader, real, (code) => nodeFsError(code, "realpath", path));
    // `/f/` (or `/f/.`) must lead to a directory, as realpath(3).
    if (endsAsDirectory(path) && !(await call("realpath", path, () => this.#fs.lstat(resolved))).isDirectory) throw nodeFsError("ENOTDIR", "realpath", path);
    return resolved;
  }

  /**
   * A link's target: a string, or its UTF-8 bytes with `{ encoding: "buffer" }` / `"buffer"`.
   * @throws `ENOENT` · `EINVAL` not a link (also `ld/`: the trailing `/` resolves through the link) · `ENOTDIR` `lf/` (a link to a file).
   */
  async readlink(path: string, options?: ProviderDataOptions): Promise<string | Uint8Array> {
    const target = await call("readlink", pathArg(path, "readlink"), () => this.#fs.readlink(path));
    const raw = typeof options === "string" ? options : options?.encoding;
    return raw === "buffer" ? nodeBytes(encoder.encode(target)) : target;
  }

  // ── tree changes ─────────────────────────────────────────────────────

  /**
   * Creates a directory (`mode` default `0o777`, masked with the umask).
   * `{ recursive: true }` creates missing parents and accepts an existing
   * directory — also a link leading to one, as node:fs on Linux (unlike
   * `workspace.fs.mkdir`, which is `EEXIST` for any link at the leaf).
   * @returns With `recursive`, the first directory created (`undefined` if none), as node:fs; else `undefined`.
   * @throws `EEXIST` the path exists (without `recursive`; with it, a file or a link to one) · `ENOENT` missing parent, or with `recursive` a dangling link at the leaf · `ENOTDIR` a file in the chain, with `recursive` a dangling link in it, or `file/` · `ELOOP` · `EROFS`.
   */
  async mkdir(path: string, options?: number | string | ProviderMkdirOptions): Promise<string | undefined> {
    pathArg(path, "mkdir");
    const recursive = typeof options === "object" && options !== null && options.recursive === true;
    const mode = modeArg(typeof options === "number" || typeof options === "string" ? options : typeof options === "object" && options !== null ? options.mode : undefined, 0o777, "mkdir", path) & ~this.#umask;
    if (!recursive) {
      await call("mkdir", path, () => this.#fs.mkdir(path, { mode }));
      return undefined;
    }
    const target = canonical(path, "mkdir");
    // The first missing directory, for the return value: walk down while entries exist.
    const segments = target.split("/").filter(Boolean);
    let first: string | undefined;
    for (let i = 1; i <= segments.length; i++) {
      const prefix = `/${segments.slice(0, i).join("/")}`;
      // A failure on the way (ENOTDIR, ELOOP) names the path given, as mkdir(2)'s does.
      if ((await this.#statOrUndefined(prefix, true, "mkdir", path)) === undefined) {
        first = prefix;
        break;
      }
    }
    try {
      await call("mkdir", path, () => this.#fs.mkdir(target, { recursive: true, mode }));
    } catch (error) {
      // As node:fs's promises (libuv's mkdirp) on Linux, where the Workspace takes a link at the leaf as it is:
      // an existing leaf is looked at through links — a directory there is fine (nothing made), a dangling link is
      // the stat's ENOENT (ELOOP for a loop), `f/` of a non-directory ENOTDIR; a dangling link further up is ENOTDIR,
      // naming that link (the first entry the walk above did not find).
      const code = posixCodeOf(error);
      if (code === "ENOENT") throw nodeFsError("ENOTDIR", "mkdir", first ?? path, undefined, error);
      if (code !== "EEXIST") throw error;
      let stats: WorkspaceStats;
      try {
        stats = await statsOf(this.#fs, target, true);
      } catch (statError) {
        throw nodeFsError(posixCodeOf(statError) ?? "EIO", "mkdir", path, undefined, statError);
      }
      if (stats.isDirectory()) return undefined;
      if (directoryForm(path) !== null) throw nodeFsError("ENOTDIR", "mkdir", path, undefined, error);
      throw error;
    }
    return first;
  }

  /**
   * Removes an empty directory; `{ recursive: true }` removes a non-empty one with everything under it.
   * @throws `ENOENT` · `ENOTDIR` not a directory (a link to one included, written with a trailing `/` or not) · `ENOTEMPTY` (also a last segment `..`) · `EINVAL` a last segment `.` · `EPERM` `/` · `EROFS`.
   */
  async rmdir(path: string, options?: ProviderRmdirOptions): Promise<void> {
    if (await this.#linkWrittenAsDirectory(path)) throw nodeFsError("ENOTDIR", "rmdir", path);
    const stats = await this.lstat(path);
    // rmdir(2): a last segment "." is EINVAL, ".." ENOTEMPTY — the Workspace would drop it and remove the directory it names.
    const last = typeof path === "string" ? lastSegmentAsWritten(path) : "";
    if (last === "." && stats.isDirectory()) throw nodeFsError("EINVAL", "rmdir", path);
    if (last === ".." && stats.isDirectory()) throw nodeFsError("ENOTEMPTY", "rmdir", path);
    if (!stats.isDirectory()) throw nodeFsError("ENOTDIR", "rmdir", path);
    await call("rmdir", path, () => this.#fs.rm(path, { recursive: options?.recursive === true }));
  }

  /**
   * Whether `path` is a link written with a trailing `/` (to a directory, a file or nothing): rmdir(2) and unlink(2)
   * refuse it with ENOTDIR, the link and what it names left alone.
   */
  async #linkWrittenAsDirectory(path: unknown): Promise<boolean> {
    if (typeof path !== "string" || path.length < 2 || !path.endsWith("/")) return false;
    const entry = await this.#fs.lstat(path.replace(/\/+$/, "")).catch(() => undefined);
    return entry?.isSymbolicLink === true;
  }

  /**
   * Removes a file or link (not a directory).
   * @throws `ENOENT` · `EISDIR` a directory · `ENOTDIR` a link written with a trailing `/` (kept, as Linux) · `EROFS`.
   */
  async unlink(path: string): Promise<void> {
    if (await this.#linkWrittenAsDirectory(path)) throw nodeFsError("ENOTDIR", "unlink", path);
    const stats = await call("unlink", pathArg(path, "unlink"), () => this.#fs.lstat(path));
    if (stats.isDirectory) throw nodeFsError("EISDIR", "unlink", path);
    await call("unlink", path, () => this.#fs.rm(path));
  }

  /**
   * Moves an entry, replacing what is at `newPath` as rename(2) does.
   * @throws `ENOENT` · `EISDIR` a file onto a directory · `ENOTDIR` (also a `newPath` ending in `/` when `oldPath` is not a directory: nothing moves; either path ending in `/` on a link; a file among `newPath`'s parents) · `ENOTEMPTY` · `EINVAL` a directory into itself · `EBUSY` a path whose last segment is `.` or `..` (as Linux; `ENOENT` when it names nothing) · `EROFS`.
   */
  async rename(oldPath: string, newPath: string): Promise<void> {
    // rename(2): either path ending in "." or ".." names a directory by a dot — EBUSY when it is there, ENOENT when not
    // (the Workspace would drop the dot and move, or create, the directory it names).
    for (const path of [oldPath, newPath]) {
      if (typeof path !== "string") continue;
      const last = lastSegmentAsWritten(path);
      if (last !== "." && last !== "..") continue;
      await call("rename", path, () => this.#fs.stat(path));
      throw nodeFsError("EBUSY", "rename", path);
    }
    await callWithDest("rename", pathArg(oldPath, "rename"), pathArg(newPath, "rename"), () => this.#fs.rename(oldPath, newPath));
  }

  /**
   * Creates a link at `path` holding `target` verbatim (`type` is ignored, as on Linux). Links among `path`'s
   * parents are followed, as symlink(2) does (`/w/lnk/x` with `lnk -> real` makes `/w/real/x`; see
   * {@link symlinkThroughParentLinks}); a `..` in `path` is lexical, as in every provider path (issue 20, run 35,
   * fixer SL).
   * @throws `EEXIST` · `ENOENT` missing parent, a dangling link among the parents, or a `path` ending in `/` with nothing there · `ENOTDIR` a file among the parents · `ELOOP` · `EROFS`.
   */
  async symlink(target: string, path: string, _type?: string): Promise<void> {
    await callWithDest("symlink", pathArg(target, "symlink"), pathArg(path, "symlink"), () => {
      const make = (at: string) => this.#fs.symlink(target, at);
      // The Workspace refuses a link among the parents (ENOTDIR): made again in the parent's real directory (fixer SL).
      const reader = { lstat: (candidate: string) => this.#fs.lstat(candidate), readlink: (candidate: string) => this.#fs.readlink(candidate) };
      const realpath = (dir: string) => realpathOf(reader, dir, (code) => new WorkspaceFsError(code, "symlink", path));
      let canonicalLink: string | undefined;
      try {
        canonicalLink = directoryForm(path) === null ? canonicalPath(path, "symlink") : undefined;
      } catch {
        canonicalLink = undefined; // a path the Workspace refuses: its own error stands
      }
      return canonicalLink === undefined ? make(path) : symlinkThroughParentLinks(make, realpath, canonicalLink);
    });
  }

  /**
   * Hard links are not supported: the Workspace keeps one name per entry.
   * @throws `ENOSYS` always (after `ENOENT` when `existingPath` is missing).
   */
  async link(existingPath: string, newPath: string): Promise<void> {
    await this.lstat(existingPath);
    throw nodeFsError("ENOSYS", "link", pathArg(newPath, "link"), "hard links are not supported by the Workspace (use symlink, or copyFile)");
  }

  /**
   * Sets the permission bits (`mode & 0o7777`; no umask). A final link is followed.
   * @throws `ENOENT` · `EINVAL` · `EROFS`.
   */
  async chmod(path: string, mode: number | string): Promise<void> {
    const bits = modeArg(mode, 0, "chmod", pathArg(path, "chmod"));
    await call("chmod", path, () => this.#fs.chmod(path, bits));
  }

  /**
   * Checks that `path` exists and leaves its times: the Workspace sets
   * `mtime` itself on every change and keeps no access time.
   * @throws `ENOENT` (also a dangling link).
   */
  async utimes(path: string, _atime: unknown, _mtime: unknown): Promise<void> {
    await this.stat(path);
  }

  /** As {@link utimes}, without following a final link. */
  async lutimes(path: string, _atime: unknown, _mtime: unknown): Promise<void> {
    await this.lstat(path);
  }

  /**
   * Cuts or zero-extends a file to `len` bytes (default `0`), keeping its
   * mode. A file over `maxOpenFileBytes` can be cut (its first `len` bytes
   * are streamed into the new content), not grown. As truncate(2), it is
   * one step on whatever the file holds when it lands: the new content is
   * bound to the version of the file it was made from (the large file's
   * rewrite with `ifUnmodified` — inode, size and mtime of the stat, its
   * revision at commit — its prefix read only after that check; a smaller
   * file's through a `r+` handle, stored with `ifMatch`), so a write by
   * anyone else that lands in between is never undone: the truncate starts
   * again from the file as it then is, at most {@link TRUNCATE_ATTEMPTS}
   * (10) tries in all (issue 20, run 39, fixer PT; before, a large file's
   * cut wrote back the old prefix over such a write, and a small file's
   * failed `ESTALE`).
   * @throws `ENOENT` (also a file removed meanwhile) · `EISDIR` · `EINVAL` a negative or non-integer `len` · `EFBIG` a new size over `maxOpenFileBytes` that is also larger than the file · `ESTALE` other writers changed the file on each of the 10 tries (nothing was cut; their writes are kept) · `EROFS`.
   */
  async truncate(path: string, len = 0): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#truncateOnce(path, len);
        return;
      } catch (error) {
        // Another writer changed, replaced or (for the handle) moved the file between this try's look and its store:
        // nothing was stored; look again. A file removed meanwhile is found missing then (ENOENT, as truncate(2)).
        if (!(error instanceof TruncateRaced)) throw error;
        if (attempt < TRUNCATE_ATTEMPTS) continue;
        if (posixCodeOf(error.cause) !== "ESTALE") throw error.cause;
        throw nodeFsError("ESTALE", "ftruncate", path, `other writers changed the file during each of ${TRUNCATE_ATTEMPTS} tries; nothing was cut and their writes are kept — truncate again`, error.cause);
      }
    }
  }

  /** One try of {@link truncate}; a store refused because the file changed since this try looked is a {@link TruncateRaced}. */
  async #truncateOnce(path: string, len: number): Promise<void> {
    const stats = await this.#statOrUndefined(pathArg(path, "open"), true, "open");
    if (stats?.isFile() && stats.size > this.#maxOpenFileBytes) {
      if (!Number.isSafeInteger(len) || len < 0) throw nodeFsError("EINVAL", "ftruncate", path, "length must be a non-negative integer");
      if (len > stats.size) throw nodeFsError("EFBIG", "ftruncate", path, `a file over maxOpenFileBytes (${this.#maxOpenFileBytes}) can be cut, not grown`);
      if (len === stats.size) return;
      const mode = stats.mode & 0o7777;
      try {
        await call("ftruncate", path, () => this.#cutLarge(path, len, mode, stats));
      } catch (error) {
        // ESTALE: the file changed since the stat; ENOENT from the store's check: it was removed (or moved) since.
        const code = posixCodeOf(error);
        if (code === "ESTALE" || code === "ENOENT") throw new TruncateRaced(error);
        throw error;
      }
      return;
    }
    let handle: WorkspaceFileHandle | undefined;
    let stored = false;
    try {
      handle = await this.open(path, "r+");
      await handle.truncate(len);
      await handle.close();
      stored = true;
    } catch (error) {
      const code = posixCodeOf(error);
      // ESTALE: replaced, moved or changed since the handle opened or read it. EFBIG (from open, or the handle's read)
      // with a `len` a handle can hold: the file grew past maxOpenFileBytes since the stat — the next try cuts it.
      if (code === "ESTALE" || (code === "EFBIG" && Number.isSafeInteger(len) && len >= 0 && len <= this.#maxOpenFileBytes)) throw new TruncateRaced(error);
      throw error;
    } finally {
      if (!stored) await handle?.close().catch(() => {});
    }
  }

  /**
   * Rewrites the large file `stats` describes as its first `len` bytes,
   * bound to that version: `ifUnmodified` (its inode, size and mtime) is
   * checked and the file's revision read before the prefix is read — the
   * content stream opens its read only on the store's first pull — and the
   * revision is checked again at commit. So the bytes stored are the
   * prefix of the version that is replaced, or nothing is stored (`ESTALE`;
   * `ENOENT` when the file is gone).
   */
  async #cutLarge(path: string, len: number, mode: number, stats: WorkspaceStats): Promise<void> {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let done = false;
    const content =
      len === 0
        ? new Uint8Array(0)
        : new ReadableStream<Uint8Array>(
            {
              pull: async (controller) => {
                reader ??= (await this.#fs.readFile(path, { byteOffset: 0, byteLength: len })).getReader();
                const next = await reader.read();
                if (next.done) {
                  done = true;
                  controller.close();
                } else controller.enqueue(next.value);
              },
              cancel: (reason) => reader?.cancel(reason),
            },
            // No pull before the store asks: the read must open after the store's version check.
            { highWaterMark: 0 },
          );
    try {
      await this.#fs.writeFile(path, content, { mode, ifUnmodified: { inode: stats.ino, size: stats.size, mtime: stats.mtimeMs } });
    } catch (error) {
      // Refused before or while the prefix was read: end that read (its chunk leases).
      if (reader !== undefined && !done) await reader.cancel(error).catch(() => {});
      throw error;
    }
  }

  // ── whole files ──────────────────────────────────────────────────────

  /**
   * The whole file: bytes, or a string with `"utf8"` / `{ encoding: "utf8" }`
   * (decoded as node:fs does: invalid sequences as U+FFFD, a BOM kept). A final link is followed.
   * `flag` (default `"r"`) opens the file as node:fs does (as {@link open}): `"w+"` truncates it
   * and reads `""`, `"a+"` creates a missing file, `"wx+"` of an existing path is `EEXIST`, a
   * flag that does not read (`"w"`, `"a"`) is `EBADF` after its open (run 40, fixer f40fs).
   * @throws `ENOENT` · `EISDIR` · `ENOTDIR` · `ELOOP` · `EINVAL` another encoding or bad flags · `EEXIST` · `EBADF` (as above).
   */
  async readFile(path: string, options?: ProviderDataOptions): Promise<Uint8Array | string> {
    const encoding = encodingOf(options, "open", pathArg(path, "open"));
    const flag = typeof options === "object" && options !== null ? options.flag : undefined;
    if (flag !== undefined && flag !== null) {
      const parsed = parseFlags(flag, path);
      if (parsed.create || parsed.truncate || !parsed.read || parsed.noFollow === true || parsed.directory === true) {
        // A flag that creates, truncates, refuses reading or checks the entry: opened with it, as node:fs opens it
        // (`w+` truncates and reads "", `a+` creates a missing file, `wx+` of an existing one is EEXIST, `w` EBADF
        // after truncating), then read through the handle (issue 20, run 40, fixer f40fs).
        const handle = await this.open(path, flag);
        let read = false;
        try {
          const out = await handle.readFile(encoding);
          read = true;
          return out;
        } finally {
          // A failed read's error is the one reported.
          if (read) await handle.close();
          else await handle.close().catch(() => {});
        }
      }
    }
    const bytes = await call("open", path, async () => readStreamBytes(await this.#fs.readFile(path)));
    return encoding === "utf8" ? decodeUtf8(bytes) : nodeBytes(bytes);
  }

  /**
   * Creates or replaces a file with `data` (a string is written as UTF-8),
   * in one transaction. `mode` (default `0o666`, masked with the umask);
   * `flag` `"wx"` fails when the path exists, `"a"` appends (as {@link appendFile}).
   * A flag without truncate or without create (`"r+"`, `O_WRONLY` alone, …)
   * does what node:fs does with it: opens the file as {@link open} would
   * (`ENOENT` when missing and the flag does not create), writes `data` from
   * offset 0 over what is there, keeping the rest, and stores it at close
   * (a file over `maxOpenFileBytes` is then `EFBIG`).
   * @throws `ENOENT` missing parent, or missing file with `"r+"` · `ENOTDIR` · `EISDIR` (also a path ending in `/` with a create flag: nothing is created) · `EEXIST` (`wx`) · `EFBIG` · `EROFS` · `EINVAL`.
   */
  async writeFile(path: string, data: unknown, options?: ProviderDataOptions): Promise<void> {
    const { parsed, requested } = wholeFileOptions(path, options, "w");
    if (parsed.append) return this.appendFile(path, data, options);
    const content = contentOf(data, "write", path);
    if (parsed.create) await this.#createThroughSlash(path, "open");
    if (!parsed.exclusive && (!parsed.truncate || !parsed.create)) {
      const object = typeof options === "object" && options !== null ? options : undefined;
      const bytes = typeof content === "string" ? encoder.encode(content) : content;
      const handle = await this.open(path, object?.flag, object?.mode);
      let written = false;
      try {
        await handle.write(bytes, 0, bytes.byteLength, 0);
        written = true;
      } finally {
        // A failed write stores nothing; its error is the one reported.
        if (written) await handle.close();
        else await handle.close().catch(() => {});
      }
      return;
    }
    const existing = parsed.exclusive ? undefined : await this.#statOrUndefined(path, true, "open");
    // An existing file keeps its mode, as open(2) with O_TRUNC does.
    const mode = existing?.isFile() ? existing.mode & 0o7777 : requested & ~this.#umask;
    await call("open", path, () => this.#fs.writeFile(path, content, { mode, exclusive: parsed.exclusive }));
  }

  /**
   * Adds `data` at the end of a file, creating it (`mode` default `0o666`
   * masked with the umask) when missing; the append lands in one
   * transaction, costing O(`data` + one 512 KiB chunk) whatever the file's
   * size (the Workspace's `appendFile`, run 36, fixer AP). Appends through
   * this provider to one path are queued, and the store is guarded against
   * other writers (made again from the file as it then is when it changed
   * meanwhile), so every append lands. Appending nothing to an existing file
   * changes nothing (as write(2) of 0 bytes). Through a dangling link the
   * link's target is created, as node:fs does. A `flag` without append
   * (`"w"`, `"w+"`, `"r+"`, …) writes as {@link writeFile} does with it, as
   * node:fs's `appendFile` does (run 40, fixer f40fs).
   * @throws `ENOENT` missing parent (of a dangling link's target, too) · `ENOTDIR` · `EISDIR` (also a path ending in `/`: nothing is created) · `EROFS` · `EINVAL`.
   */
  async appendFile(path: string, data: unknown, options?: ProviderDataOptions): Promise<void> {
    const { parsed, requested } = wholeFileOptions(path, options, "a");
    // A flag without O_APPEND writes as it says, as node:fs's appendFile (writeFile with flag "a" by default) does:
    // `w`/`w+` truncate first, `r+` writes from offset 0 over what is there (ENOENT when missing). Run 40, fixer f40fs.
    if (!parsed.append) return this.writeFile(path, data, options);
    const added = bytesOf(data, "write", path);
    if (parsed.create) await this.#createThroughSlash(path, "open");
    if (parsed.exclusive) {
      await call("open", path, () => this.#fs.writeFile(path, added, { mode: requested & ~this.#umask, exclusive: true }));
      return;
    }
    await this.#appendBytes(path, added, requested & ~this.#umask, "open");
  }

  /**
   * Copies a file's bytes and mode (streamed). `mode` `COPYFILE_EXCL` (1)
   * fails when `dest` exists.
   * @throws `ENOENT` · `EISDIR` · `EEXIST` (`COPYFILE_EXCL`) · `EROFS`.
   */
  async copyFile(src: string, dest: string, mode = 0): Promise<void> {
    if (!Number.isInteger(mode) || mode < 0 || mode > 7) throw nodeFsError("EINVAL", "copyfile", src, `mode must be an integer 0..7 (COPYFILE_EXCL, COPYFILE_FICLONE, COPYFILE_FICLONE_FORCE), got ${valueCut(mode)}`);
    const stats = await this.stat(src);
    if (stats.isDirectory()) throw nodeFsError("EISDIR", "copyfile", src);
    const exclusive = (mode & COPYFILE_EXCL) !== 0;
    const stream = await call("copyfile", src, () => this.#fs.readFile(src));
    try {
      await call("copyfile", pathArg(dest, "copyfile"), () => this.#fs.writeFile(dest, stream, { mode: stats.mode & 0o7777, exclusive }));
    } catch (error) {
      // Refused (EISDIR, ENOENT, EEXIST, …) before or while the source was read: end that read, its chunk leases
      // with it (issue 20, run 40, fixer f40fs). A stream read to its end, or locked, is left as it is.
      if (!stream.locked) await stream.cancel(error).catch(() => {});
      throw error;
    }
  }

  /** Stat-like number node's module loader asks for: `0` file, `1` directory, negative missing. Never rejects. */
  async internalModuleStat(path: string): Promise<number> {
    try {
      const stat = await this.#fs.stat(path);
      return stat.isDirectory ? 1 : 0;
    } catch {
      return -2;
    }
  }

  // ── watching ─────────────────────────────────────────────────────────

  /**
   * Watches `path` (a file, or a directory's entries; `{ recursive: true }`
   * its whole subtree) by reading the Workspace change log every
   * `watchIntervalMs` (default 100). Emits `"change"` with
   * `(eventType, filename)`: `"rename"` when an entry appears or goes,
   * `"change"` when one seen before changes; `filename` is relative to a
   * watched directory, or the file's name. Sees changes by anyone on the
   * same storage. `persistent: false` unrefs its timer (Node); `signal`
   * closes it. A `path` that does not exist, or a poll that fails (the
   * storage closed), emits one `"error"` (an `ENOENT`/… node:fs error) and
   * closes the watcher; without an `"error"` listener it just closes.
   * @throws `ENOSYS` over an `fs` without a change log.
   */
  watch(path: string, options?: ProviderWatchOptions): WorkspaceWatcher {
    if (!this.#log) throw nodeFsError("ENOSYS", "watch", path, "watching needs a local Workspace (its change log)");
    const watcher = new WorkspaceWatcher(this.#fs, this.#log, canonical(pathArg(path, "watch"), "watch"), options ?? {}, this.#watchIntervalMs);
    if (!watcher.closed) {
      this.#watchers.add(watcher);
      watcher.once("close", (() => this.#watchers.delete(watcher)) as Listener);
    }
    return watcher;
  }

  /**
   * Closes every watcher of this provider (`watch`, `watchAsync`,
   * `watchFile`). `workspace.close()` calls it, so no poll outlives the
   * Workspace's storage.
   */
  unwatchAll(): void {
    for (const watcher of [...this.#watchers]) watcher.close();
    for (const [key, watcher] of [...this.#fileWatchers]) {
      watcher.stop();
      this.#fileWatchers.delete(key);
    }
  }

  /**
   * {@link watch} as an async iterable of `{ eventType, filename }` (node:fs/promises `watch`).
   * Ends when `signal` aborts (rejecting with an `AbortError`, as Node) or
   * `return()` is called. At most 1,000 unread events are kept; older ones are dropped.
   */
  watchAsync(path: string, options?: ProviderWatchOptions): AsyncIterableIterator<{ eventType: string; filename: string }> {
    const watcher = this.watch(path, options);
    return watcherIterator(watcher, options?.signal);
  }

  /**
   * Calls `listener(current, previous)` when the stats of `path` change
   * (node:fs `watchFile`), checking every `interval` ms (default 5007, as
   * Node) — only when the Workspace revision moved. A missing file reports
   * zeroed stats, as Node.
   */
  watchFile(path: string, options?: ProviderWatchFileOptions | ((curr: WorkspaceStats, prev: WorkspaceStats) => void), listener?: (curr: WorkspaceStats, prev: WorkspaceStats) => void): WorkspaceStatWatcher {
    if (typeof options === "function") {
      listener = options;
      options = undefined;
    }
    if (typeof listener !== "function") throw new TypeError("watchFile: listener must be a function");
    const key = canonical(pathArg(path, "watch"), "watch");
    let watcher = this.#fileWatchers.get(key);
    if (!watcher) {
      watcher = new WorkspaceStatWatcher(this.#fs, this.#log, key, positiveInteger(options?.interval, "interval", DEFAULT_WATCH_FILE_INTERVAL_MS), options?.persistent !== false);
      this.#fileWatchers.set(key, watcher);
    }
    watcher.addListener(listener);
    return watcher;
  }

  /** Stops `listener` (or every listener) of {@link watchFile} on `path`. */
  unwatchFile(path: string, listener?: (curr: WorkspaceStats, prev: WorkspaceStats) => void): void {
    const key = canonical(pathArg(path, "watch"), "watch");
    const watcher = this.#fileWatchers.get(key);
    if (!watcher) return;
    if (listener) watcher.removeListener(listener);
    else watcher.removeAllListeners("change");
    if (watcher.hasNoListeners()) {
      watcher.stop();
      this.#fileWatchers.delete(key);
    }
  }

  // ── synchronous forms: not supported ─────────────────────────────────

  /** @throws `ENOSYS` always: use {@link open}. */
  openSync(): never {
    throw syncUnsupported("openSync");
  }
  /** @throws `ENOSYS` always: use {@link stat}. */
  statSync(): never {
    throw syncUnsupported("statSync");
  }
  /** @throws `ENOSYS` always: use {@link lstat}. */
  lstatSync(): never {
    throw syncUnsupported("lstatSync");
  }
  /** @throws `ENOSYS` always: use {@link readdir}. */
  readdirSync(): never {
    throw syncUnsupported("readdirSync");
  }
  /** @throws `ENOSYS` always: use {@link mkdir}. */
  mkdirSync(): never {
    throw syncUnsupported("mkdirSync");
  }
  /** @throws `ENOSYS` always: use {@link rmdir}. */
  rmdirSync(): never {
    throw syncUnsupported("rmdirSync");
  }
  /** @throws `ENOSYS` always: use {@link unlink}. */
  unlinkSync(): never {
    throw syncUnsupported("unlinkSync");
  }
  /** @throws `ENOSYS` always: use {@link rename}. */
  renameSync(): never {
    throw syncUnsupported("renameSync");
  }
  /** @throws `ENOSYS` always: use {@link readFile}. */
  readFileSync(): never {
    throw syncUnsupported("readFileSync");
  }
  /** @throws `ENOSYS` always: use {@link writeFile}. */
  writeFileSync(): never {
    throw syncUnsupported("writeFileSync");
  }
  /** @throws `ENOSYS` always: use {@link appendFile}. */
  appendFileSync(): never {
    throw syncUnsupported("appendFileSync");
  }
  /** @throws `ENOSYS` always: use {@link exists}. */
  existsSync(): never {
    throw syncUnsupported("existsSync");
  }
  /** @throws `ENOSYS` always: use {@link copyFile}. */
  copyFileSync(): never {
    throw syncUnsupported("copyFileSync");
  }
  /** @throws `ENOSYS` always: use {@link realpath}. */
  realpathSync(): never {
    throw syncUnsupported("realpathSync");
  }
  /** @throws `ENOSYS` always: use {@link access}. */
  accessSync(): never {
    throw syncUnsupported("accessSync");
  }
  /** @throws `ENOSYS` always: use {@link readlink}. */
  readlinkSync(): never {
    throw syncUnsupported("readlinkSync");
  }
  /** @throws `ENOSYS` always: use {@link symlink}. */
  symlinkSync(): never {
    throw syncUnsupported("symlinkSync");
  }

  // ── helpers ──────────────────────────────────────────────────────────

  /**
   * Adds `bytes` at the end of the file at `path`, creating it with
   * `createMode` (or `ENOENT` when `undefined`). One append per path at a
   * time through this provider; an existing file takes the Workspace's
   * `appendFile` (run 36, fixer AP: O(appended bytes + one chunk), one
   * transaction, re-made by the store itself when another writer — another
   * provider, the tools, another Workspace — changed the file in between),
   * bound to the inode the step found (`ifInode`), so it never lands in a
   * file put at the path meanwhile: then `ESTALE`, and the step looks again,
   * at most `APPEND_ATTEMPTS` (10) tries in all (a file removed after the
   * step found it is looked for again: created, or `ESTALE` for a handle).
   * `ino` (an append handle's): the path must lead to that file when the
   * append's turn comes, else `ESTALE`.
   */
  async #appendBytes(path: string, bytes: Uint8Array, createMode: number | undefined, syscall: string, ino?: number): Promise<void> {
    const key = canonical(path, syscall);
    const previous = this.#appends.get(key) ?? Promise.resolve();
    const run = previous.then(async () => {
      for (let attempt = 1; ; attempt++) {
        let existing: WorkspaceStats | undefined;
        if (ino === undefined) existing = await this.#statOrUndefined(path, true, syscall);
        else {
          // The handle's file, checked in the append's own turn: another append before it may have taken its time.
          existing = await statsOf(this.#fs, path, true).catch((error: unknown) => {
            throw nodeFsError("ESTALE", syscall, path, "stale file handle: the file was removed or moved since it was opened", error);
          });
          if (existing.ino !== ino) throw nodeFsError("ESTALE", syscall, path, "stale file handle: the path now leads to another file than the one opened");
        }
        try {
          if (existing === undefined) {
            if (createMode === undefined) throw nodeFsError("ENOENT", syscall, path);
            await this.#create(path, bytes, createMode, true, syscall);
            return;
          }
          if (existing.isDirectory()) throw nodeFsError("EISDIR", syscall, path);
          // The Workspace's own append (run 36, fixer AP): the file's full chunks kept, its last partial one cut
          // again with the new bytes, in one transaction bound to the file found (ifInode); a write by anyone in
          // between makes it start again from the file as it then is. O(appended bytes + one chunk), not O(file).
          await this.#fs.appendFile(path, bytes, { ifInode: existing.ino });
          return;
        } catch (error) {
          const code = posixCodeOf(error);
          // Someone else wrote (ESTALE), created (EEXIST) or removed the file found (ENOENT) in between: look again.
          if (shouldRetryAppend(code, attempt, existing !== undefined)) continue;
          if (isNodeFsError(error)) throw error;
          throw nodeFsError(code ?? "EIO", syscall, path, undefined, error);
        }
      }
    });
    const settled = run.catch(() => {});
    this.#appends.set(key, settled);
    void settled.then(() => {
      if (this.#appends.get(key) === settled) this.#appends.delete(key);
    });
    return run;
  }

  /**
   * Creates a new file holding `content` where `path` leads, never replacing
   * one: at `path`, or — `follow`, and `path` is a link (or a chain of them)
   * to nothing — at the last link's target, as open(2) with `O_CREAT`
   * without `O_EXCL` does. A relative target is taken from the link's
   * real directory (its parent's links resolved, as the filesystem does).
   * @throws `EEXIST` an entry is there (with `follow`: a file or directory at the end of the links) · `ENOENT` the (target's) parent is missing · `ELOOP` more than 40 links · `EISDIR` a target ending in `/` · what `writeFile` throws.
   */
  async #create(path: string, content: Uint8Array, mode: number, follow: boolean, syscall: string): Promise<void> {
    let at = canonical(path, syscall);
    for (let links = 0; ; links++) {
      try {
        await this.#fs.writeFile(at, content, { mode, exclusive: true });
        return;
      } catch (error) {
        if (!follow || posixCodeOf(error) !== "EEXIST") throw error;
        const entry = await this.#fs.lstat(at).catch(() => undefined);
        // A file or directory (or nothing any more: it was removed meanwhile) — the caller looks again.
        if (!entry?.isSymbolicLink) throw error;
        if (links >= 40) throw nodeFsError("ELOOP", syscall, path);
        const target = await this.#fs.readlink(at);
        if (target.endsWith("/")) throw nodeFsError("EISDIR", syscall, path, "the link names a directory (its target ends in /)");
        // From the link's real directory (its parent's links resolved), as the filesystem reads the target.
        const dir = await realpathOf(this.#fs, at.slice(0, at.lastIndexOf("/")) || "/", (code) => nodeFsError(code, syscall, path));
        at = canonical(target.startsWith("/") ? target : `${dir === "/" ? "" : dir}/${target}`, syscall);
      }
    }
  }

  /**
   * A trailing slash on a path opened with a create flag, as open(2) with
   * `O_CREAT` (so `open`, `writeFile` and `appendFile` refuse it before
   * anything is created): `/m/` is `EISDIR` whatever is there once its
   * parent is found to be a directory (else that walk's `ENOENT`/`ENOTDIR`/
   * `ELOOP`); `/m/.` must lead to a directory (`ENOENT` missing, `ENOTDIR`
   * a file; a directory is left to the call's `EISDIR`). Other paths: nothing.
   */
  async #createThroughSlash(path: string, syscall: string): Promise<void> {
    if (!endsAsDirectory(path)) return;
    const full = canonical(path, syscall);
    if (path.endsWith("/")) {
      const parent = full.slice(0, full.lastIndexOf("/")) || "/";
      if (!(await call(syscall, path, () => this.#fs.stat(parent))).isDirectory) throw nodeFsError("ENOTDIR", syscall, path);
      throw nodeFsError("EISDIR", syscall, path);
    }
    if (!(await call(syscall, path, () => this.#fs.stat(full))).isDirectory) throw nodeFsError("ENOTDIR", syscall, path);
  }

  async #statOrUndefined(path: string, follow: boolean, syscall: string, named = path): Promise<WorkspaceStats | undefined> {
    try {
      return await statsOf(this.#fs, path, follow);
    } catch (error) {
      if (posixCodeOf(error) === "ENOENT") return undefined;
      throw nodeFsError(posixCodeOf(error) ?? "EIO", syscall, named, undefined, error);
    }
  }

  #noBigint(options: ProviderStatOptions | undefined, syscall: string, path: string): void {
    if (typeof options === "object" && options !== null && options.bigint === true) throw nodeFsError("EINVAL", syscall, path, "bigint stats are not supported");
  }
}

/** A directory entry as node:fs `Dirent` (links are not followed). */
export class WorkspaceDirent extends WorkspaceEntryType {
  /**
   * @param name The entry's name.
   * @param parentPath The directory it is in.
   */
  constructor(
    /** The entry's name (one segment). */
    readonly name: string,
    /** The directory it is in (canonical). */
    readonly parentPath: string,
    file: boolean,
    directory: boolean,
    link: boolean,
  ) {
    super(link ? S_IFLNK : directory ? S_IFDIR : file ? S_IFREG : 0);
  }
  /** Same as `parentPath` (node:fs's older name). */
  get path(): string {
    return this.parentPath;
  }
}

/** How a handle stores appended bytes: {@link SQLiteWorkspaceProvider}'s serialised, guarded append. */
type AppendBytes = (path: string, bytes: Uint8Array, syscall: string, ino: number) => Promise<void>;

/**
 * An open file of {@link SQLiteWorkspaceProvider.open}, shaped as node:fs's
 * `FileHandle` (`read`, `write`, `readFile`, `writeFile`, `stat`,
 * `truncate`, `sync`, `close`).
 *
 * - It names the file it opened, not the path: every read and store first
 *   checks that the path still leads to that file (same inode); a file
 *   renamed, removed or replaced (a directory on the way swapped for a
 *   link included) fails with `ESTALE` instead of reaching another file.
 * - Reads come from the Workspace (byte ranges, nothing cached) until the
 *   handle first writes. From then on a `r+`/`w` handle holds the file's
 *   bytes (at most `maxOpenFileBytes`, else `EFBIG`), applies its writes to
 *   them, and stores them — one transaction, keeping the mode — at
 *   `sync()`/`datasync()`/`close()`, only if nobody changed the file since
 *   the handle read it (else `ESTALE`, and the file keeps the other
 *   writer's content). Other readers see a handle's writes from then on. A
 *   handle that is never closed stores nothing.
 * - An append handle (`a`, `a+`) writes at the end whatever the position,
 *   as `O_APPEND`: it keeps only the bytes it appends and adds them to the
 *   file's current end at `sync()`/`close()` (and before a read), so
 *   appends by several handles, `appendFile` and other writers all land.
 */
export class WorkspaceFileHandle {
  readonly #fs: WorkspaceFilesystem;
  readonly #flags: OpenFlags;
  readonly #maxBytes: number;
  readonly #ino: number;
  readonly #append: AppendBytes;
  readonly #held: HeldBytes;
  /** Bytes this handle counts in {@link HeldBytes} (its buffer and unstored appends); an object so a handle dropped without `close()` gives them back when collected. */
  readonly #account = { bytes: 0 };
  /** The file's bytes once a `r+`/`w` handle has written (`#length` of them are valid). */
  #data: Uint8Array | undefined;
  #length = 0;
  /** SHA-256 of the content the handle last read or stored: the store is guarded by it. */
  #hash: string | undefined;
  #dirty = false;
  /** An append handle's bytes not stored yet. */
  #appended: Uint8Array[] = [];
  #appendedBytes = 0;
  #closed = false;
  #queue: Promise<unknown> = Promise.resolve();
  /** The file position for reads and writes without an explicit position. */
  position = 0;

  /** @internal Made by {@link SQLiteWorkspaceProvider.open}. */
  constructor(
    fs: WorkspaceFilesystem,
    /** The path it was opened at. */
    readonly path: string,
    flags: OpenFlags,
    /** A number naming the handle, unique per provider (from 3), for diagnostics; not an OS descriptor. */
    readonly fd: number,
    maxBytes: number,
    ino: number,
    append: AppendBytes,
    held: HeldBytes = { bytes: 0, max: Number.MAX_SAFE_INTEGER },
  ) {
    this.#fs = fs;
    this.#flags = flags;
    this.#maxBytes = maxBytes;
    this.#ino = ino;
    this.#append = append;
    this.#held = held;
    HANDLE_RELEASE?.register(this, { held, account: this.#account });
  }

  /**
   * Admits holding `total` bytes (buffer + unstored appends) before they are
   * allocated: `ENOMEM` when the provider's open handles would hold more
   * than `maxHeldBytes` together.
   */
  #admit(total: number, syscall: string): void {
    const more = total - this.#account.bytes;
    if (more > 0 && this.#held.bytes + more > this.#held.max) {
      throw nodeFsError(
        "ENOMEM",
        syscall,
        this.path,
        `open file handles hold at most ${this.#held.max} bytes together (maxHeldBytes; ${this.#held.bytes} held): close or sync a handle first`,
      );
    }
  }

  /**
   * {@link #admit}s `total` bytes and counts them at once in the provider's total, before they are
   * allocated (so concurrent loads cannot both pass the check); {@link #settle} later replaces the
   * reservation with what the handle really holds.
   */
  #reserve(total: number, syscall: string): void {
    this.#admit(total, syscall);
    this.#held.bytes += total - this.#account.bytes;
    this.#account.bytes = total;
  }

  /** Counts what the handle holds now in the provider's total (ending any reservation). */
  #settle(): void {
    const now = (this.#data?.byteLength ?? 0) + this.#appendedBytes;
    this.#held.bytes += now - this.#account.bytes;
    this.#account.bytes = now;
  }

  /** The flags it was opened with, as given (`"r"`, `"w+"`, …). */
  get flags(): string {
    return this.#flags.text;
  }
  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Reads up to `length` bytes into `buffer` at `offset`, from `position`
   * (or the file position, which then advances).
   * @returns `{ bytesRead, buffer }` (`bytesRead` `0` at the end of the file).
   * @throws `EBADF` closed or write-only · `EISDIR` a directory · `ESTALE` the file was replaced · `EINVAL` bad offset/length.
   */
  read(
    bufferOrOptions?: Uint8Array | { buffer?: Uint8Array; offset?: number; length?: number; position?: number | null },
    offsetOrOptions?: number | { offset?: number; length?: number; position?: number | null },
    length?: number,
    position?: number | null,
  ): Promise<{ bytesRead: number; buffer: Uint8Array }> {
    // node:fs forms: read(), read({ buffer, offset, length, position }), read(buffer, { offset, length, position }), read(buffer, offset, length, position).
    let buffer: unknown = bufferOrOptions;
    let offset: number | undefined;
    if (bufferOrOptions === undefined || (typeof bufferOrOptions === "object" && bufferOrOptions !== null && !ArrayBuffer.isView(bufferOrOptions))) {
      const o = (bufferOrOptions ?? {}) as { buffer?: Uint8Array; offset?: number; length?: number; position?: number | null };
      buffer = o.buffer ?? new Uint8Array(16384);
      ({ offset, length, position } = o);
    } else if (typeof offsetOrOptions === "object" && offsetOrOptions !== null) {
      ({ offset, length, position } = offsetOrOptions);
    } else {
      offset = offsetOrOptions;
    }
    if (!(buffer instanceof Uint8Array)) return Promise.reject(nodeFsError("EINVAL", "read", this.path, "buffer must be a Uint8Array (or Buffer)"));
    const start = offset ?? 0;
    return this.#serial(() => this.#read(buffer as Uint8Array, start, length ?? (buffer as Uint8Array).byteLength - start, position ?? null));
  }

  async #read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number; buffer: Uint8Array }> {
    this.#check("read", this.#flags.read);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > buffer.byteLength) {
      throw nodeFsError("EINVAL", "read", this.path, "offset and length must fit in the buffer");
    }
    const at = this.#at(position, "read");
    let bytes: Uint8Array;
    if (this.#data !== undefined) {
      bytes = this.#data.subarray(Math.min(at, this.#length), Math.min(at + length, this.#length));
    } else {
      await this.#flushAppended("read");
      await this.#checkSame("read");
      bytes = length === 0 ? new Uint8Array(0) : await call("read", this.path, async () => readStreamBytes(await this.#fs.readFile(this.path, { byteOffset: at, byteLength: length })));
    }
    buffer.set(bytes, offset);
    if (position === null || position === undefined) this.position = at + bytes.byteLength;
    return { bytesRead: bytes.byteLength, buffer };
  }

  /**
   * Writes bytes at `position` (or the file position, which then advances;
   * the end, for an append handle). A gap past the end is zero-filled. Two
   * forms, as node:fs: `write(buffer, offset?, length?, position?)` and
   * `write(string, position?, encoding?)` (the encoding UTF-8 only).
   * @returns `{ bytesWritten, buffer }`.
   * @throws `EBADF` closed or read-only · `EFBIG` past `maxOpenFileBytes` · `ESTALE` the file was replaced · `EINVAL` bad offset/length/position/encoding.
   */
  write(buffer: Uint8Array | string, offsetOrPosition?: number | null, lengthOrEncoding?: number | string | null, position: number | null = null): Promise<{ bytesWritten: number; buffer: Uint8Array | string }> {
    return this.#serial(() => this.#write(buffer, offsetOrPosition, lengthOrEncoding, position));
  }

  async #write(buffer: Uint8Array | string, offsetOrPosition?: number | null, lengthOrEncoding?: number | string | null, position: number | null = null): Promise<{ bytesWritten: number; buffer: Uint8Array | string }> {
    this.#check("write", this.#flags.write);
    let source: Uint8Array;
    let at: number | null | undefined;
    if (typeof buffer === "string") {
      encodingOf(typeof lengthOrEncoding === "string" ? lengthOrEncoding : undefined, "write", this.path);
      source = encoder.encode(buffer);
      at = offsetOrPosition;
    } else {
      const whole = bytesOf(buffer, "write", this.path);
      const start = offsetOrPosition ?? 0;
      const count = typeof lengthOrEncoding === "number" ? lengthOrEncoding : whole.byteLength - start;
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count) || start < 0 || count < 0 || start + count > whole.byteLength) {
        throw nodeFsError("EINVAL", "write", this.path, "offset and length must fit in the buffer");
      }
      source = whole.subarray(start, start + count);
      at = position;
    }
    const count = source.byteLength;
    if (this.#flags.append && this.#data === undefined) {
      if (this.#appendedBytes + count > this.#maxBytes) throw nodeFsError("EFBIG", "write", this.path, `a handle holds at most ${this.#maxBytes} bytes (maxOpenFileBytes)`);
      this.#admit(this.#account.bytes + count, "write");
      this.#appended.push(source.slice());
      this.#appendedBytes += count;
      this.#settle();
      return { bytesWritten: count, buffer };
    }
    // An append handle that truncated holds the file (see #truncate): it appends to what it holds.
    const offset = this.#flags.append ? this.#length : this.#at(at, "write");
    await this.#load();
    this.#ensure(offset + count);
    this.#data!.set(source, offset);
    this.#length = Math.max(this.#length, offset + count);
    this.#dirty = true;
    if (!this.#flags.append && (at === null || at === undefined)) this.position = offset + count;
    return { bytesWritten: count, buffer };
  }

  /**
   * The rest of the file from the file position (which moves to the end): bytes, or a string with `"utf8"`.
   * @throws `EBADF` · `EISDIR` · `ESTALE` · `EINVAL` another encoding.
   */
  readFile(options?: ProviderDataOptions): Promise<Uint8Array | string> {
    return this.#serial(() => this.#readFile(options));
  }

  async #readFile(options?: ProviderDataOptions): Promise<Uint8Array | string> {
    this.#check("read", this.#flags.read);
    const encoding = encodingOf(options, "read", this.path);
    let bytes: Uint8Array;
    if (this.#data !== undefined) bytes = this.#data.slice(Math.min(this.position, this.#length), this.#length);
    else {
      await this.#flushAppended("read");
      await this.#checkSame("read");
      bytes = await call("read", this.path, async () => readStreamBytes(await this.#fs.readFile(this.path, { byteOffset: this.position })));
    }
    this.position += bytes.byteLength;
    return encoding === "utf8" ? decodeUtf8(bytes) : nodeBytes(bytes);
  }

  /**
   * Writes `data` from the file position (the end, for an append handle), as node:fs `FileHandle.writeFile`.
   * @throws As {@link write}.
   */
  writeFile(data: unknown, options?: ProviderDataOptions): Promise<void> {
    return this.#serial(async () => {
      encodingOf(options, "write", this.path);
      await this.#write(bytesOf(data, "write", this.path));
    });
  }

  /**
   * Stats of the file, with the size the handle's writes give it.
   * @throws `EBADF` closed · `ESTALE` the file was replaced or removed.
   */
  stat(_options?: unknown): Promise<WorkspaceStats> {
    return this.#serial(() => this.#stat());
  }

  async #stat(): Promise<WorkspaceStats> {
    this.#check("fstat", true);
    const stats = await this.#checkSame("fstat");
    if (this.#data === undefined && this.#appendedBytes === 0) return stats;
    const size = this.#data !== undefined ? this.#length : stats.size + this.#appendedBytes;
    return new WorkspaceStats({ name: "", inode: stats.ino, mode: stats.mode & 0o7777, mtime: stats.mtimeMs, size, isFile: true, isDirectory: false, isSymbolicLink: false });
  }

  /**
   * Cuts or zero-extends the file to `len` bytes (default `0`). On an
   * append handle (`a`, `a+`) its appends so far are added first; from then
   * on it holds the file, as a `r+` handle does, and its later writes go to
   * the end of what it holds (node:fs: `"hello"`, `truncate(0)`,
   * `write("X")` → `"X"`); all of it is stored at `sync()`/`close()`, only
   * if nobody else changed the file meanwhile.
   * @throws `EBADF` closed or read-only · `EINVAL` bad `len` · `EFBIG` · `ESTALE`.
   */
  truncate(len = 0): Promise<void> {
    return this.#serial(() => this.#truncate(len));
  }

  async #truncate(len: number): Promise<void> {
    this.#check("ftruncate", this.#flags.write);
    if (!Number.isSafeInteger(len) || len < 0) throw nodeFsError("EINVAL", "ftruncate", this.path, "length must be a non-negative integer");
    await this.#flushAppended("ftruncate");
    await this.#load();
    this.#ensure(len);
    if (len < this.#length) this.#data!.fill(0, len, this.#length);
    this.#length = len;
    this.#dirty = true;
  }

  /**
   * Stores the handle's writes (nothing when it has none): appended bytes at
   * the file's end; a `r+`/`w` handle's content in one transaction keeping
   * the mode, only if the file is unchanged since the handle read it.
   * @throws `EBADF` closed · `ESTALE` the file was replaced, removed, or changed by another writer (its content is then kept) · `EROFS`.
   */
  sync(): Promise<void> {
    return this.#serial(async () => {
      this.#check("fsync", true);
      await this.#flush();
    });
  }

  /** Same as {@link sync}. */
  async datasync(): Promise<void> {
    await this.sync();
  }

  /**
   * Stores the handle's writes ({@link sync}) and closes it. Closing twice is a no-op.
   * @throws As {@link sync}; the handle is closed either way.
   */
  close(): Promise<void> {
    return this.#serial(async () => {
      if (this.#closed) return;
      try {
        await this.#flush(true);
      } finally {
        this.#closed = true;
        this.#data = undefined;
        this.#appended = [];
        this.#appendedBytes = 0;
        this.#settle();
      }
    });
  }

  /** Runs the handle's calls one at a time, in call order (a write issued before `close()` is stored by it). */
  #serial<T>(run: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(run);
    this.#queue = result.catch(() => {});
    return result;
  }

  /** `await using` support: {@link close}. */
  async [Symbol.asyncDispose ?? Symbol.for("Symbol.asyncDispose")](): Promise<void> {
    await this.close();
  }

  #check(syscall: string, allowed: boolean): void {
    if (this.#closed) throw nodeFsError("EBADF", syscall, this.path);
    if (!allowed) throw nodeFsError("EBADF", syscall, this.path, `bad file descriptor: the handle was opened with flags "${this.#flags.text}"`);
  }

  #at(position: number | null | undefined, syscall: string): number {
    if (position === null || position === undefined || position === -1) return this.position;
    if (!Number.isSafeInteger(position) || position < 0) throw nodeFsError("EINVAL", syscall, this.path, "position must be a non-negative integer or null");
    return position;
  }

  /** The file's stats, if the path still leads to the file the handle opened; else `ESTALE`. */
  async #checkSame(syscall: string): Promise<WorkspaceStats> {
    let stats: WorkspaceStats;
    try {
      stats = await statsOf(this.#fs, this.path, true);
    } catch (error) {
      throw nodeFsError("ESTALE", syscall, this.path, "stale file handle: the file was removed or moved since it was opened", error);
    }
    if (stats.ino !== this.#ino) throw nodeFsError("ESTALE", syscall, this.path, "stale file handle: the path now leads to another file than the one opened");
    return stats;
  }

  /** Loads the file's bytes for writing (once), and the hash that guards their store. */
  async #load(): Promise<void> {
    if (this.#data !== undefined) return;
    const stats = await this.#checkSame("write");
    if (stats.isDirectory()) throw nodeFsError("EISDIR", "write", this.path);
    if (stats.size > this.#maxBytes) throw nodeFsError("EFBIG", "write", this.path, `file too large to write through a handle (${stats.size} bytes; maxOpenFileBytes is ${this.#maxBytes})`);
    // Reserved before the read: handles loading at once each count what they will hold, so together they
    // stay within maxHeldBytes (one gets ENOMEM). The reservation becomes the real size below, or is given back.
    this.#reserve(stats.size + this.#appendedBytes, "write");
    try {
      const bytes = stats.size === 0 ? new Uint8Array(0) : await call("read", this.path, async () => readStreamBytes(await this.#fs.readFile(this.path)));
      // The file may have grown since its stat: hold the bytes read only within the budget.
      this.#reserve(bytes.byteLength + this.#appendedBytes, "write");
      this.#hash = await sha256Hex(bytes);
      this.#data = bytes;
      this.#length = bytes.byteLength;
    } finally {
      this.#settle();
    }
  }

  /** Grows the buffer to hold `size` bytes (doubling), within `maxOpenFileBytes`. */
  #ensure(size: number): void {
    if (size > this.#maxBytes) throw nodeFsError("EFBIG", "write", this.path, `a handle holds at most ${this.#maxBytes} bytes (maxOpenFileBytes)`);
    const data = this.#data!;
    if (size <= data.byteLength) return;
    let capacity = Math.min(this.#maxBytes, Math.max(size, data.byteLength * 2, 4096));
    // Doubling may not take the provider past maxHeldBytes when the exact size fits.
    if (this.#held.bytes + (capacity + this.#appendedBytes - this.#account.bytes) > this.#held.max) capacity = size;
    this.#admit(capacity + this.#appendedBytes, "write");
    const grown = new Uint8Array(capacity);
    grown.set(data.subarray(0, this.#length));
    this.#data = grown;
    this.#settle();
  }

  async #flushAppended(syscall: string): Promise<void> {
    if (this.#appendedBytes === 0) return;
    await this.#checkSame(syscall);
    const bytes = this.#appended.length === 1 ? this.#appended[0]! : concatBytes(this.#appended, this.#appendedBytes);
    // Checked again in the append's turn, and the store bound to this inode.
    await this.#append(this.path, bytes, syscall, this.#ino);
    this.#appended = [];
    this.#appendedBytes = 0;
    this.#settle();
  }

  /** Stores pending writes; `last` (from close) skips hashing what was stored, as nothing is stored after it. */
  async #flush(last = false): Promise<void> {
    await this.#flushAppended("write");
    if (!this.#dirty || this.#data === undefined) return;
    const stats = await this.#checkSame("write");
    const bytes = this.#data.subarray(0, this.#length);
    try {
      await this.#fs.writeFile(this.path, bytes, { mode: stats.mode & 0o7777, ifMatch: this.#hash!, ifInode: this.#ino });
    } catch (error) {
      if (posixCodeOf(error) === "ESTALE") throw nodeFsError("ESTALE", "write", this.path, "stale file handle: another writer changed the file since this handle read it; its writes were not stored", error);
      throw nodeFsError(posixCodeOf(error) ?? "EIO", "write", this.path, undefined, error);
    }
    this.#hash = last ? undefined : await sha256Hex(bytes);
    this.#dirty = false;
  }
}

/** Options of {@link SQLiteWorkspaceProvider.watch}. */
export interface ProviderWatchOptions {
  /** Watch the whole subtree of a directory. Default `false`: its entries only. */
  recursive?: boolean;
  /** `false` unrefs the timer (on Node, the watcher does not keep the process alive). Default `true`. */
  persistent?: boolean;
  /** Closes the watcher when aborted. Default: none. */
  signal?: AbortSignal;
  /** Poll interval in ms: a positive integer (else `TypeError`); more than 2^31 − 1 is capped to it. Default: the provider's `watchIntervalMs`. */
  interval?: number;
}

type Listener = (...args: never[]) => void;

/** The smallest part of node:events' `EventEmitter` the watchers need (no `node:events` import: the root entry runs without `nodejs_compat`). */
class Emitter {
  readonly #listeners = new Map<string, Listener[]>();
  /** Adds `listener` for `event`. */
  on(event: string, listener: Listener): this {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener]);
    return this;
  }
  /** Same as {@link on}. */
  addListener(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  /** Adds `listener` for the next `event` only. */
  once(event: string, listener: Listener): this {
    const wrapped = ((...args: never[]) => {
      this.off(event, wrapped);
      listener(...args);
    }) as Listener;
    return this.on(event, wrapped);
  }
  /** Removes `listener` for `event`. */
  off(event: string, listener: Listener): this {
    const list = this.#listeners.get(event);
    if (list) this.#listeners.set(event, list.filter((l) => l !== listener));
    return this;
  }
  /** Same as {@link off}. */
  removeListener(event: string, listener: Listener): this {
    return this.off(event, listener);
  }
  /** Removes every listener (of `event`, or of all events). */
  removeAllListeners(event?: string): this {
    if (event === undefined) this.#listeners.clear();
    else this.#listeners.delete(event);
    return this;
  }
  /** Number of listeners of `event`. */
  listenerCount(event: string): number {
    return this.#listeners.get(event)?.length ?? 0;
  }
  /** Calls each listener of `event`; an `"error"` with none is thrown, as node:events does. */
  emit(event: string, ...args: unknown[]): boolean {
    const list = this.#listeners.get(event);
    if (!list || list.length === 0) {
      if (event === "error") throw args[0];
      return false;
    }
    for (const listener of [...list]) (listener as (...a: unknown[]) => void)(...args);
    return true;
  }
}

type Timer = ReturnType<typeof setInterval> & { unref?: () => void; ref?: () => void };

function unrefTimer(timer: Timer): void {
  if (typeof timer === "object" && timer !== null && typeof timer.unref === "function") timer.unref();
}

/**
 * A watcher of {@link SQLiteWorkspaceProvider.watch} (node:fs `FSWatcher`):
 * events `"change"` `(eventType, filename)`, `"error"` `(error)` and
 * `"close"`. Reads the change log every interval; stops at {@link close}.
 */
export class WorkspaceWatcher extends Emitter {
  readonly #fs: WorkspaceFilesystem;
  readonly #log: ChangeLog;
  #path: string;
  readonly #asGiven: string;
  readonly #recursive: boolean;
  #cursor: ChangeCursor;
  #timer: Timer | undefined;
  #closed = false;
  #polling = false;
  readonly #seen = new Set<string>();
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => this.close();

  /** @internal Made by {@link SQLiteWorkspaceProvider.watch}. */
  constructor(fs: WorkspaceFilesystem, log: ChangeLog, path: string, options: ProviderWatchOptions, interval: number) {
    super();
    if (options.recursive !== undefined && typeof options.recursive !== "boolean") throw new TypeError(`watch: options.recursive must be a boolean, got ${typeof options.recursive}`);
    if (options.persistent !== undefined && typeof options.persistent !== "boolean") throw new TypeError(`watch: options.persistent must be a boolean, got ${typeof options.persistent}`);
    if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new TypeError("watch: options.signal must be an AbortSignal");
    this.#fs = fs;
    this.#log = log;
    this.#path = path;
    this.#asGiven = path;
    this.#recursive = options.recursive === true;
    this.#signal = options.signal;
    const every = positiveInteger(options.interval, "interval", interval);
    // What exists now and the revision it is at, read together: a local Workspace answers these calls
    // synchronously (their promises only deliver), so no change can land between the listing and the cursor.
    const stat = fs.stat(path);
    const listing = this.#recursive ? fs.find(path, "**") : fs.readdir(path);
    const real = fs.readlink !== undefined ? this.#realpath(path) : Promise.resolve(path);
    this.#cursor = { rev: log.revision(), path: null };
    for (const p of [stat, listing, real]) (p as Promise<unknown>).catch(() => {});
    if (this.#signal?.aborted) {
      this.#closed = true;
      return;
    }
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
    this.#timer = setInterval(() => void this.#poll(), Math.min(every, MAX_WATCH_INTERVAL_MS)) as Timer;
    if (options.persistent === false) unrefTimer(this.#timer);
    void this.#prime(stat, listing, real);
  }

  /** `path` with every link resolved (a watch through a link to a directory watches the directory). */
  async #realpath(path: string): Promise<string> {
    return realpathOf(this.#fs, path, (code) => nodeFsError(code, "watch", path));
  }

  /** Whether {@link close} was called (or `signal` aborted). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Stops watching; emits `"close"` once. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.emit("close");
  }

  /** node:fs compatibility: lets a Node process exit while watching. */
  unref(): this {
    if (this.#timer !== undefined) unrefTimer(this.#timer);
    return this;
  }

  /** node:fs compatibility: undoes {@link unref}. */
  ref(): this {
    if (this.#timer?.ref) this.#timer.ref();
    return this;
  }

  /**
   * Emits `"error"` once, then closes. With no `"error"` listener it only
   * closes: node:events would throw, which in a Durable Object or a Node
   * process would crash what has nothing to do with the watcher.
   */
  #fail(error: unknown): void {
    if (this.listenerCount("error") > 0) this.emit("error", error);
    this.close();
  }

  /** Records what existed at the cursor, so a later change of it is `"change"`, not `"rename"`. A missing path fails the watcher (`ENOENT`). */
  async #prime(stat: Promise<unknown>, listing: Promise<{ name?: string; path?: string }[]>, real: Promise<string>): Promise<void> {
    try {
      await stat;
      const resolved = await real;
      if (resolved !== this.#path) this.#path = resolved;
    } catch (error) {
      if (!this.#closed) this.#fail(nodeFsError(posixCodeOf(error) ?? "EIO", "watch", this.#path, undefined, error));
      return;
    }
    this.#seen.add(this.#path);
    try {
      const base = this.#path;
      for (const entry of await listing) {
        if (this.#recursive) {
          // find() answers with the path as watched; re-root it under the real path.
          const found = entry.path!;
          this.#seen.add(base === this.#asGiven ? found : base + found.slice(this.#asGiven.length));
          continue;
        }
        this.#seen.add(base === "/" ? `/${entry.name}` : `${base}/${entry.name}`);
      }
    } catch {
      // A file, not a directory: nothing below it.
    }
  }

  async #poll(): Promise<void> {
    if (this.#closed || this.#polling) return;
    this.#polling = true;
    try {
      while (!this.#closed && this.#log.revision() > this.#cursor.rev) {
        const page = this.#log.changesSince(this.#cursor);
        this.#cursor = page.cursor;
        for (const entry of page.entries) this.#dispatch(entry);
        if (page.done) break;
      }
    } catch (error) {
      // As node:fs's FSWatcher: one "error", then the watcher closes (the storage may be gone).
      if (!this.#closed) this.#fail(error);
    } finally {
      this.#polling = false;
    }
  }

  #dispatch(entry: ChangePage["entries"][number]): void {
    if (this.#closed) return;
    const watched = this.#path;
    const p = entry.path;
    const deleted = entry.kind === "deleted";
    const under = (path: string, dir: string) => dir === "/" ? path !== "/" : path.startsWith(`${dir}/`);
    const name = watched === "/" ? "" : watched.slice(watched.lastIndexOf("/") + 1);
    if (p === watched || (deleted && entry.subtree && under(watched, p))) {
      this.#emitFor(watched, name, deleted);
      return;
    }
    if (!under(p, watched)) return;
    const relative = watched === "/" ? p.slice(1) : p.slice(watched.length + 1);
    if (!this.#recursive && relative.includes("/")) return;
    this.#emitFor(p, relative, deleted);
    if (deleted && entry.subtree) for (const seen of [...this.#seen]) if (under(seen, p)) this.#seen.delete(seen);
  }

  #emitFor(path: string, filename: string, deleted: boolean): void {
    let eventType: "rename" | "change";
    if (deleted) {
      eventType = "rename";
      this.#seen.delete(path);
    } else if (this.#seen.has(path)) {
      eventType = "change";
    } else {
      eventType = "rename";
      this.#seen.add(path);
    }
    this.emit("change", eventType, filename);
  }
}

/** At most this many unread events of {@link SQLiteWorkspaceProvider.watchAsync}; older ones are dropped. */
const MAX_QUEUED_WATCH_EVENTS = 1_000;

function watcherIterator(watcher: WorkspaceWatcher, signal: AbortSignal | undefined): AsyncIterableIterator<{ eventType: string; filename: string }> {
  const queue: { eventType: string; filename: string }[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  watcher.on("error", ((error: unknown) => {
    failure ??= error;
    wake?.();
  }) as Listener);
  watcher.on("change", ((eventType: string, filename: string) => {
    queue.push({ eventType, filename });
    if (queue.length > MAX_QUEUED_WATCH_EVENTS) queue.shift();
    wake?.();
  }) as Listener);
  watcher.on("close", (() => {
    ended = true;
    wake?.();
  }) as Listener);
  const abortError = () => Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" });
  const iterator: AsyncIterableIterator<{ eventType: string; filename: string }> = {
    async next() {
      for (;;) {
        if (queue.length > 0) return { value: queue.shift()!, done: false };
        if (signal?.aborted) throw abortError();
        if (failure !== undefined) {
          const error = failure;
          failure = undefined;
          ended = true;
          throw error;
        }
        if (ended) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
    async return() {
      watcher.close();
      return { value: undefined, done: true };
    },
    async throw(error?: unknown) {
      watcher.close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

const MISSING: WorkspaceStats = new WorkspaceStats({ name: "", inode: 0, mode: 0, mtime: 0, size: 0, isFile: false, isDirectory: false, isSymbolicLink: false });

/**
 * A poller of {@link SQLiteWorkspaceProvider.watchFile} (node:fs
 * `StatWatcher`): calls each listener with `(current, previous)` stats
 * when they change; zeroed stats for a missing file.
 */
export class WorkspaceStatWatcher extends Emitter {
  readonly #fs: WorkspaceFilesystem;
  readonly #log: ChangeLog | undefined;
  readonly #path: string;
  readonly #timer: Timer;
  #previous: WorkspaceStats | undefined;
  #revision = -1;
  #stopped = false;

  /** @internal Made by {@link SQLiteWorkspaceProvider.watchFile}. */
  constructor(fs: WorkspaceFilesystem, log: ChangeLog | undefined, path: string, interval: number, persistent: boolean) {
    super();
    this.#fs = fs;
    this.#log = log;
    this.#path = path;
    this.#timer = setInterval(() => void this.#poll(), Math.min(interval, MAX_WATCH_INTERVAL_MS)) as Timer;
    if (!persistent) unrefTimer(this.#timer);
    void this.#read().then((stats) => (this.#previous ??= stats));
  }

  /** Adds a `(current, previous)` listener. */
  override addListener(listener: Listener): this;
  override addListener(event: string, listener: Listener): this;
  override addListener(a: string | Listener, b?: Listener): this {
    return typeof a === "function" ? super.on("change", a) : super.on(a, b!);
  }

  /** Removes a listener. */
  override removeListener(listener: Listener): this;
  override removeListener(event: string, listener: Listener): this;
  override removeListener(a: string | Listener, b?: Listener): this {
    return typeof a === "function" ? super.off("change", a) : super.off(a, b!);
  }

  /** Whether no `change` listener is left. */
  hasNoListeners(): boolean {
    return this.listenerCount("change") === 0;
  }

  /** Stops polling. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    this.emit("stop");
  }

  /** node:fs compatibility: lets a Node process exit while watching. */
  unref(): this {
    unrefTimer(this.#timer);
    return this;
  }

  /** node:fs compatibility: undoes {@link unref}. */
  ref(): this {
    this.#timer.ref?.();
    return this;
  }

  async #read(): Promise<WorkspaceStats> {
    try {
      return await statsOf(this.#fs, this.#path, true);
    } catch (error) {
      if (error instanceof WorkspaceFsError || posixCodeOf(error) !== undefined) return MISSING;
      throw error;
    }
  }

  async #poll(): Promise<void> {
    if (this.#stopped) return;
    if (this.#log) {
      const revision = this.#log.revision();
      if (revision === this.#revision) return;
      this.#revision = revision;
    }
    const current = await this.#read().catch(() => MISSING);
    const previous = this.#previous ?? MISSING;
    this.#previous = current;
    if (current.ino === previous.ino && current.mtimeMs === previous.mtimeMs && current.size === previous.size && current.mode === previous.mode) return;
    if (!this.#stopped) this.emit("change", current, previous);
  }
}

