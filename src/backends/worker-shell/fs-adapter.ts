/**
 * `WorkspaceFsAdapter` (spec 02 §6): just-bash's `IFileSystem` over the
 * Workspace filesystem. There is no second store and nothing to sync: every
 * call goes straight to `workspace.fs` (or to an RPC stub of the same
 * methods inside the shell's Dynamic Worker), so `echo hi > a.txt` is
 * visible to `workspace.fs.readFile` as soon as the command returns, and a
 * `workspace.fs` write is visible to the next command.
 *
 * This module is self-contained (no runtime imports): it is bundled into
 * the shell Worker, and just-bash is imported only as types.
 *
 * @module
 */
import type {
  BufferEncoding,
  ByteString,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from "just-bash";
import type { WorkspaceDirentResult, WorkspaceFilesystem, WorkspaceStatResult } from "../../fs/types.js";
import { concatBytes, toHex } from "../../util/bytes.js";
import { directoryForm } from "../../util/path.js";
import { utf8EscapeDecode, utf8EscapeEncode } from "../../util/utf8-escape.js";
import { nodeFsError, posixCodeOf, realpathOf, symlinkThroughParentLinks, type LinkReader } from "../../fs/node-errors.js"; // symlinkThroughParentLinks: fixer SL
import { appendStreamed, shouldRetryAppend } from "../../fs/append.js";
import { isByteStream, isRpcSizeError, readJsonLines, sendableBytes } from "../../util/rpc-bytes.js"; // compact views: run 35, fixer UV

/**
 * The `workspace.fs` methods the adapter calls, and nothing else: a local
 * {@link WorkspaceFilesystem} satisfies it, and so does an RPC stub of these
 * methods (arguments and results are plain data, `Uint8Array`s and
 * `ReadableStream`s; failures are recognised by their `code`, never by
 * `instanceof`).
 */
export type WorkspaceFs = Pick<
  WorkspaceFilesystem,
  "readFile" | "writeFile" | "stat" | "lstat" | "readdir" | "mkdir" | "rm" | "rename" | "symlink" | "readlink" | "chmod"
> &
  Partial<Pick<WorkspaceFilesystem, "appendFile">>; // fixer AP, run 36: used by appendFile when there (O(appended bytes))

/** One entry of a {@link WorkspaceFsAdapterListing}: a `readdir` entry, without the listed directory's path. */
export type WorkspaceFsAdapterListedEntry = Omit<WorkspaceDirentResult, "parentPath">;

/**
 * What {@link WorkspaceFsAdapterOptions.listWithContents} answers: the
 * entries (in listing order) and the contents of some small files by name.
 * A listing too large to answer at once (the shell's host: past 16 MiB
 * estimated) has its entries in `entryLines` instead — a stream of UTF-8
 * JSON lines, one entry a line (`jsonLinesStream` in util/rpc-bytes.ts) —
 * and `entries` empty.
 */
export interface WorkspaceFsAdapterListing {
  /** The entries, in listing order (none when they come as `entryLines`). */
  entries: WorkspaceFsAdapterListedEntry[];
  /** Contents of some regular files of the listing, by name. */
  contents: Record<string, Uint8Array>;
  /** Every entry as a JSON line, when there were too many to answer at once. Default: none. */
  entryLines?: ReadableStream<Uint8Array>;
}

/** Options for {@link WorkspaceFsAdapter}. */
export interface WorkspaceFsAdapterOptions {
  /**
   * Largest file, in bytes, that `readFile`, `readFileBuffer` and
   * `readFileBytes` load into memory. A larger file is refused with `EFBIG`
   * (the read is streamed and stops as soon as the limit is passed).
   * Positive safe integer. Default {@link DEFAULT_MAX_READ_BYTES} (64 MiB).
   */
  maxReadBytes?: number;
  /**
   * Reads a whole file in one call: resolves with its bytes — or, for a
   * file too large to answer at once across RPC, a stream of them, which the
   * adapter reads to the end, refusing it with `EFBIG` past `maxBytes` — or
   * rejects with the filesystem's error (`EFBIG` past `maxBytes`). When given,
   * the adapter uses it instead of streaming `fs.readFile` — across RPC that
   * is one round trip per file instead of several (the shell's Dynamic
   * Worker passes its host's `readBytes`). Default: none (stream `fs.readFile`).
   */
  readBytes?: (path: string, maxBytes: number) => Promise<Uint8Array | ReadableStream<Uint8Array>>;
  /**
   * Lists a directory together with the contents of its small files (which
   * files, and how much in all, is the callee's choice; none when
   * `options.contents` is `false`), the entries without `parentPath`, a long
   * listing as a stream ({@link WorkspaceFsAdapterListing}). When given,
   * every listing of the adapter (`readdir`, `cp -r`) uses it, and
   * `readdirWithFileTypes` keeps the contents for this adapter's
   * next read of each file — so `grep -r` over many small files costs one
   * round trip per directory instead of one per file. A kept content is used
   * once, within {@link PREFETCH_TTL_MS} of the listing; any change made
   * through this adapter, and {@link WorkspaceFsAdapter.forgetPrefetched}
   * (called around every command that changes the Workspace on the host:
   * `git`, `artifacts`, `assets`, custom commands), drops them all; at most
   * {@link PREFETCH_KEPT_BYTES} bytes in {@link PREFETCH_KEPT_FILES} files
   * are kept at once (the oldest go first). Default:
   * none (`fs.readdir`, and each file read when asked for).
   */
  listWithContents?: (path: string, options?: { contents?: boolean }) => Promise<WorkspaceFsAdapterListing>;
  /**
   * Appends bytes to a file (creating it) as one step on the callee's side;
   * more than 16 MiB are passed as a stream of them.
   * When given, `appendFile` uses it instead of reading and rewriting the
   * file itself — the shell's host runs appends to one path one at a time,
   * so concurrent `>>` from several commands all land. Default: none.
   */
  appendBytes?: (path: string, bytes: Uint8Array | ReadableStream<Uint8Array>) => Promise<void>;
  /**
   * The shell's command names. When given, `/bin` and `/usr/bin`
   * ({@link COMMAND_DIRS}) are answered by the adapter — read-only
   * directories listing these names as executables — without asking the
   * Workspace: just-bash looks a command up there on every invocation, which
   * over RPC cost several round trips per command. Default: none (those
   * paths go to the Workspace like any other).
   */
  commands?: readonly string[];
}

/**
 * How a command's tree walk treats symbolic links ({@link WorkspaceFsAdapter.walking}):
 * - `"skip-links"`: listings (`readdirWithFileTypes`) leave links out — GNU `grep -r`, which
 *   follows no link met while walking;
 * - `"once"`: a directory already listed in this walk (by its real path) lists as empty —
 *   `grep -R`, which follows links but stops at a loop;
 * - `"links-as-links"`: `stat` reports a link as the link (as `lstat`) — `tar -c`, which
 *   stores a link as a link.
 */
export type WalkMode = "skip-links" | "once" | "links-as-links";

/** Options of `WorkspaceFsAdapter.writeFile` and `appendFile` (or the encoding alone). */
export interface WorkspaceFsAdapterWriteOptions {
  /** How a string `content` becomes bytes. Default `"utf8"`. */
  encoding?: BufferEncoding;
}

/**
 * How long contents brought along by a listing may stand in for a read: 250 ms.
 * A file another writer changes in that window reads as it was at the listing
 * (as if read then); later reads go to the Workspace.
 */
export const PREFETCH_TTL_MS = 250;

/**
 * Most bytes of listed contents a {@link WorkspaceFsAdapter} keeps at once:
 * 4 MiB (four full listings of the shell's host). A new listing first drops
 * the expired ones, then the oldest until its own fit; a dropped content is
 * read from the Workspace when asked for. Bounds what a walk over many
 * directories (e.g. `find`, which reads none of them) holds for the command.
 */
export const PREFETCH_KEPT_BYTES = 4 * 1024 * 1024;

/** Most listed contents (files) a {@link WorkspaceFsAdapter} keeps at once: 1,024, dropped as for {@link PREFETCH_KEPT_BYTES}. */
export const PREFETCH_KEPT_FILES = 1024;

/** The directories the adapter answers itself when it has `commands`. */
export const COMMAND_DIRS: readonly string[] = ["/bin", "/usr/bin"];

/** Default of {@link WorkspaceFsAdapterOptions.maxReadBytes}: 64 MiB. */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

/**
 * The one path the adapter answers itself: just-bash opens `/dev/null` through
 * the file system for `2>/dev/null` and `< /dev/null` (its own InMemoryFs
 * creates the file), so reads of it are empty, writes to it are discarded and
 * it exists as a character device (neither file nor directory). Nothing is stored.
 */
export const DEV_NULL = "/dev/null";

/**
 * An `Error` with a POSIX `code`, the just-bash `syscall` name and the
 * `path` as the command gave it; the message is Node's (and just-bash
 * InMemoryFs's) form `"<CODE>: <description>, <syscall> '<path>'"`, which
 * just-bash's commands test with `message.includes("ENOENT")` and print.
 * The object is a `RangeError` (so `instanceof Error` holds): just-bash
 * 3.4.2 reports a RangeError that escapes a top-level command, such as a
 * refused `>` redirect, as `bash: <message>` with exit code 1, where any
 * other error would make `Bash.exec` reject. The Workspace's own error, when
 * there was one, is the `cause`.
 */
export interface WorkspaceFsAdapterError extends Error {
  /** POSIX code: `ENOENT`, `EISDIR`, `ENOTDIR`, `EEXIST`, `ENOTEMPTY`, `EROFS`, `EINVAL`, `ENOSYS`, `ELOOP`, `EACCES`, `EPERM`, `EFBIG`, `ESTALE`, `EIO`, `EBUSY`. */
  code: string;
  /** The operation, in just-bash's words (`open`, `write`, `scandir`, `rm`, …). */
  syscall: string;
  /** The path as passed to the adapter. */
  path: string;
}

function fsError(code: string, syscall: string, path: string, detail?: string, cause?: unknown): WorkspaceFsAdapterError {
  // A RangeError because just-bash 3.4.2 turns only a RangeError escaping a top-level command (a failed `>` redirect
  // open, for one) into `bash: <message>` with exit 1; any other error class rejects `Bash.exec` instead.
  return nodeFsError(code, syscall, path, detail, cause, RangeError);
}

/** The POSIX code of a Workspace failure (local or across RPC), if it has one. */
const codeOf = posixCodeOf;

/**
 * Re-throws a Workspace failure in just-bash's form for `syscall` on `path`
 * (the original error is the `cause`); an error without a POSIX code (a
 * `TypeError`, a failed stream) is re-thrown unchanged.
 */
function rethrow(error: unknown, syscall: string, path: string): never {
  const code = codeOf(error);
  if (code === undefined) {
    // workerd's uncoded refusal of an RPC value past 32 MiB: what failed is the size, never the file's existence.
    if (isRpcSizeError(error)) {
      const big = syscall === "open" || syscall === "read" || syscall === "write" || syscall === "append" || syscall === "cp";
      throw fsError(big ? "EFBIG" : "EIO", syscall, path, `${big ? "file too large" : "i/o error"}: more than crosses Workers RPC at once (${(error as Error).message})`, error);
    }
    throw error;
  }
  throw fsError(code, syscall, path, undefined, error);
}

async function call<T>(syscall: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    rethrow(error, syscall, path);
  }
}

/** POSIX-normalises an absolute path: `.`, `..` (clamped at `/`), repeated and trailing slashes (no links followed). @internal */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

/** A `..` segment anywhere in a path (fixer DD, issue 20 run 35). */
const DOT_DOT = /(?:^|\/)\.\.(?:\/|$)/;

/**
 * `path` (absolute) with empty and `.` segments dropped and each `..` kept, except one at `/` (`/..` is `/`);
 * a trailing `/` stays for {@link WorkspaceFsAdapter.resolvePath} to put back. Linear (fixer DD, issue 20 run 35).
 */
function keepDotDots(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length === 0) continue;
    out.push(segment);
  }
  return `/${out.join("/")}`;
}

function isDevNull(path: string): boolean {
  return path === DEV_NULL || (path.startsWith("/") && normalize(path) === DEV_NULL);
}

const stubEncoder = new TextEncoder();
/** What reading `/usr/bin/<name>` gives: a two-line script naming the built-in. */
function commandStub(name: string): Uint8Array {
  return stubEncoder.encode(`#!/bin/bash\n# ${name}: a built-in command of this shell\n`);
}

const DEV_NULL_STAT: FsStat = Object.freeze({
  isFile: false,
  isDirectory: false,
  isSymbolicLink: false,
  mode: 0o666,
  size: 0,
  mtime: new Date(0),
});

function checkPath(path: string, syscall: string): void {
  if (typeof path !== "string") throw new TypeError(`${syscall}: path must be a string`);
  // The empty path names nothing (open(2), stat(2), unlink(2) on "" are ENOENT); resolvePath keeps it empty.
  if (path === "") throw fsError("ENOENT", syscall, path);
  if (path.includes("\0")) throw fsError("ENOENT", syscall, path, "path contains null byte");
  // A byte that is not UTF-8 travels as a lone surrogate escape (U+DC80-U+DCFF, src/util/utf8-escape.ts); the
  // Workspace stores UTF-8 names only and would make every such byte U+FFFD, so `a\xff` and `a\xfe` would be one
  // file and a write to one would overwrite the other. Refused instead: EILSEQ (lead, issue 20 run 24).
  if (NOT_UTF8_BYTE.test(path)) throw fsError("EILSEQ", syscall, path, "invalid or incomplete multibyte or wide character: names are UTF-8 only");
}

/** A lone low surrogate U+DC80-U+DCFF: the escape of a byte that is not UTF-8 (never half of a pair). */
const NOT_UTF8_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** @internal Also used by isolate/dev-stdin.ts (issue 20, run 33, fixer SD). */ export function encodingOf(options: { encoding?: BufferEncoding | null } | BufferEncoding | null | undefined): BufferEncoding | undefined {
  if (options === null || options === undefined) return undefined;
  if (typeof options === "string") return options;
  return options.encoding ?? undefined;
}

/** One char per byte (`binary`/`latin1`); chunked to keep `fromCharCode` argument lists small. */
function latin1Decode(bytes: Uint8Array, mask = 0xff): string {
  let out = "";
  const step = 0x2000;
  for (let i = 0; i < bytes.length; i += step) {
    const part = bytes.subarray(i, Math.min(i + step, bytes.length));
    out += String.fromCharCode(...(mask === 0xff ? part : part.map((b) => b & mask)));
  }
  return out;
}

function latin1Encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

function base64Encode(bytes: Uint8Array): string {
  return btoa(latin1Decode(bytes));
}

function base64Decode(text: string): Uint8Array {
  // Node-style leniency: URL-safe alphabet, whitespace and missing padding are accepted; decoding stops at the first invalid character.
  let clean = text.replace(/[\s]/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const bad = clean.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) clean = clean.slice(0, bad);
  const eq = clean.indexOf("=");
  if (eq >= 0) clean = clean.slice(0, eq);
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  clean += "=".repeat((4 - (clean.length % 4)) % 4);
  return latin1Encode(atob(clean));
}


function hexDecode(text: string): Uint8Array {
  // Node-style: pairs of hex digits, stopping at the first pair that is not one.
  const out: number[] = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    const pair = text.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
    out.push(parseInt(pair, 16));
  }
  return Uint8Array.from(out);
}

/** Bytes of `content` in `encoding` (default UTF-8); a `Uint8Array` is taken as is. */
/** @internal Also used by isolate/dev-stdout.ts (issue 20, run 33, fixer SO). */ export function toBytes(content: FileContent, encoding: BufferEncoding | undefined): Uint8Array {
  if (content instanceof Uint8Array) return content;
  if (ArrayBuffer.isView(content)) {
    const view = content as ArrayBufferView;
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  const text = String(content);
  switch (encoding) {
    case "binary":
    case "latin1":
    case "ascii":
      return latin1Encode(text);
    case "base64":
      return base64Decode(text);
    case "hex":
      return hexDecode(text);
    default:
      return utf8EscapeEncode(text);
  }
}

/** `bytes` as a string in `encoding` (default UTF-8, bytes that are not UTF-8 escaped as U+DC80…U+DCFF). */
/** @internal Also used by isolate/dev-stdin.ts (issue 20, run 33, fixer SD). */ export function fromBytes(bytes: Uint8Array, encoding: BufferEncoding | undefined): string {
  switch (encoding) {
    case "binary":
    case "latin1":
      return latin1Decode(bytes);
    case "ascii":
      return latin1Decode(bytes, 0x7f);
    case "base64":
      return base64Encode(bytes);
    case "hex":
      return toHex(bytes);
    default:
      return utf8EscapeDecode(bytes);
  }
}

/**
 * What the shell reports as a directory's `st_size`: 4096 bytes, one block of
 * an ext4 directory on Linux, where bash and GNU coreutils run (`stat -c %s d`
 * is `4096`, `%b` `8`; `ls -l`, `find -size`, `test -s`, `du` agree). The
 * Workspace's own `stat` of a directory stays `size: 0` (spec 01); only the
 * shell's view uses this (issue 20, run 36, fixer FS).
 */
export const SHELL_DIRECTORY_SIZE = 4096; // fixer FS

function toFsStat(stat: WorkspaceStatResult): FsStat {
  return {
    isFile: stat.isFile,
    isDirectory: stat.isDirectory,
    isSymbolicLink: stat.isSymbolicLink,
    mode: stat.mode,
    // A directory is 4096 bytes in the shell, as on ext4: `find -size 0` lists empty files only (fixer FS).
    size: stat.isDirectory ? SHELL_DIRECTORY_SIZE : stat.size,
    mtime: new Date(stat.mtime),
    ino: stat.inode,
    identity: `workspace:${stat.inode}`,
  };
}

/**
 * just-bash's `IFileSystem` over the Workspace filesystem (spec 02 §6).
 * Every method maps to one or a few `workspace.fs` calls; paths are absolute
 * (just-bash resolves them against the shell's cwd with
 * {@link WorkspaceFsAdapter.resolvePath} first).
 *
 * Failures reject with an `Error` carrying a POSIX `code` (see
 * {@link WorkspaceFsAdapterError}) and the message form just-bash's
 * commands expect, e.g. `ENOENT: no such file or directory, open '/x'`.
 *
 * Semantics that differ from a POSIX disk:
 * - `link` (hard links) rejects `ENOSYS`: the Workspace has none.
 * - `utimes` only checks that the path exists; the Workspace sets `mtime` itself.
 * - `appendFile` and `cp` are synthesized from streamed reads and writes.
 * - `getAllPaths()` returns `[]`: the Workspace cannot be enumerated synchronously.
 * - `writeFile` does not create missing parents (`ENOENT`), unlike just-bash's InMemoryFs.
 * - `/dev/null` ({@link DEV_NULL}) is answered by the adapter: empty to read, writes discarded.
 * - New files get `0o666 & ~umask` and new directories `0o777 & ~umask` ({@link WorkspaceFsAdapter.umask}, the
 *   shell's `umask`; 022 unless changed).
 * - A path ending in `/` or a last `.` after a name (`f/`, `f/.`) must lead to a directory, as on a
 *   POSIX disk ({@link WorkspaceFsAdapter.resolvePath} keeps that form; the Workspace itself drops it).
 */
export class WorkspaceFsAdapter implements IFileSystem {
  readonly #fs: WorkspaceFs;
  readonly #maxReadBytes: number;
  readonly #readBytes: WorkspaceFsAdapterOptions["readBytes"];
  readonly #listWithContents: WorkspaceFsAdapterOptions["listWithContents"];
  readonly #appendBytes: WorkspaceFsAdapterOptions["appendBytes"];
  #commands: Set<string> | undefined;
  /**
   * The shell's file-creation mask (bash's `umask` builtin sets it, isolate/umask.ts): a file
   * {@link WorkspaceFsAdapter.writeFile}/{@link WorkspaceFsAdapter.appendFile} create gets `0o666 & ~umask`, a
   * directory {@link WorkspaceFsAdapter.mkdir} makes `0o777 & ~umask`. 0o022 (0644 files, 0755 directories) for
   * each new adapter, that is each run.
   */
  umask = 0o022;
  /**
   * Contents fetched with a listing (`listWithContents`), by path, oldest
   * first; each used once, all dropped on any change (forgetPrefetched), at
   * most {@link PREFETCH_KEPT_BYTES} bytes / {@link PREFETCH_KEPT_FILES} files.
   */
  readonly #prefetched = new Map<string, { bytes: Uint8Array; until: number }>();
  /** Bytes held in {@link #prefetched}. */
  #prefetchedBytes = 0;
  /** Bumped by every drop: a listing answered after one (it may predate the change) keeps nothing. */
  #generation = 0;
  /** The tree walk of the command running now ({@link WorkspaceFsAdapter.walking}), if any. */
  #walk: { mode: WalkMode; seen: Set<string> } | undefined;

  /**
   * @param fs `workspace.fs`, or an RPC stub of the {@link WorkspaceFs} methods.
   * @param options `maxReadBytes` (default 64 MiB).
   * @throws TypeError when `fs` lacks a method or `maxReadBytes` is not a positive safe integer.
   */
  constructor(fs: WorkspaceFs, options: WorkspaceFsAdapterOptions = {}) {
    if (fs === null || (typeof fs !== "object" && typeof fs !== "function")) throw new TypeError("WorkspaceFsAdapter: fs must be the Workspace filesystem");
    const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
    if (!Number.isSafeInteger(maxReadBytes) || maxReadBytes <= 0) {
      throw new TypeError("WorkspaceFsAdapter: maxReadBytes must be a positive safe integer");
    }
    if (options.readBytes !== undefined && typeof options.readBytes !== "function") throw new TypeError("WorkspaceFsAdapter: readBytes must be a function");
    if (options.listWithContents !== undefined && typeof options.listWithContents !== "function") {
      throw new TypeError("WorkspaceFsAdapter: listWithContents must be a function");
    }
    this.#fs = fs;
    this.#maxReadBytes = maxReadBytes;
    this.#readBytes = options.readBytes;
    this.#listWithContents = options.listWithContents;
    if (options.appendBytes !== undefined && typeof options.appendBytes !== "function") throw new TypeError("WorkspaceFsAdapter: appendBytes must be a function");
    this.#appendBytes = options.appendBytes;
    if (options.commands !== undefined) {
      if (!Array.isArray(options.commands) || options.commands.some((c) => typeof c !== "string")) {
        throw new TypeError("WorkspaceFsAdapter: commands must be an array of command names");
      }
      this.#commands = new Set(options.commands);
    }
  }

  /**
   * What `path` is inside {@link COMMAND_DIRS}, when the adapter answers it:
   * `"dir"` (a command directory), a command name (an executable in one), or
   * `"none"` (nothing there). `undefined`: not a command path (ask the Workspace).
   */
  #commandPath(path: string): string | undefined {
    if (this.#commands === undefined || !path.startsWith("/")) return undefined;
    const p = normalize(path);
    for (const dir of COMMAND_DIRS) {
      if (p === dir) return "dir";
      if (p.startsWith(`${dir}/`)) {
        const name = p.slice(dir.length + 1);
        return this.#commands.has(name) ? name : "none";
      }
    }
    return undefined;
  }

  /** The stat of a command path, or `ENOENT` for `"none"`. */
  #commandStat(kind: string, syscall: string, path: string): FsStat {
    if (kind === "none") throw fsError("ENOENT", syscall, path);
    const dir = kind === "dir";
    return { isFile: !dir, isDirectory: dir, isSymbolicLink: false, mode: dir ? 0o755 : 0o755, size: dir ? SHELL_DIRECTORY_SIZE : commandStub(kind).byteLength, mtime: new Date(0) }; // fixer FS
  }

  /** Refuses a change inside {@link COMMAND_DIRS} with `EROFS`. */
  #refuseCommandPath(path: string, syscall: string): void {
    if (this.#commandPath(path) !== undefined) throw fsError("EROFS", syscall, path);
  }

  /** Before any change: refuse one inside {@link COMMAND_DIRS}, and drop what listings brought along. */
  #beforeChange(path: unknown, syscall: string): void {
    if (typeof path === "string") this.#refuseCommandPath(path, syscall);
    this.forgetPrefetched();
  }

  /**
   * Drops every content brought along by a listing, and whatever listings
   * still in flight bring: later reads go to the Workspace. The adapter does
   * this itself before each change it makes; call it before and after
   * anything that changes the Workspace without going through the adapter
   * (the shell runtime does, around its `git`, `artifacts`, `assets` and
   * custom commands), or a read of a file listed just before would see it
   * as it was at the listing.
   */
  forgetPrefetched(): void {
    this.#generation++;
    this.#prefetched.clear();
    this.#prefetchedBytes = 0;
  }

  /** Keeps a listing's `contents` under `base`, within {@link PREFETCH_KEPT_BYTES} / {@link PREFETCH_KEPT_FILES}. */
  #keep(base: string, contents: Record<string, Uint8Array>): void {
    const now = Date.now();
    for (const [path, kept] of this.#prefetched) if (kept.until < now) this.#drop(path);
    const until = now + PREFETCH_TTL_MS;
    for (const [name, bytes] of Object.entries(contents)) {
      if (!(bytes instanceof Uint8Array) || bytes.byteLength > PREFETCH_KEPT_BYTES) continue;
      const path = base + name;
      this.#drop(path);
      while (this.#prefetched.size > 0 && (this.#prefetched.size >= PREFETCH_KEPT_FILES || this.#prefetchedBytes + bytes.byteLength > PREFETCH_KEPT_BYTES)) {
        this.#drop(this.#prefetched.keys().next().value!);
      }
      this.#prefetched.set(path, { bytes, until });
      this.#prefetchedBytes += bytes.byteLength;
    }
  }

  /** Drops the content kept for `path`, if any. */
  #drop(path: string): void {
    const kept = this.#prefetched.get(path);
    if (kept === undefined) return;
    this.#prefetched.delete(path);
    this.#prefetchedBytes -= kept.bytes.byteLength;
  }

  /**
   * A path in directory form ({@link directoryForm}: `f/`, `f/.`) must lead,
   * links followed, to a directory — the Workspace drops the tail, so without
   * this `f.txt/` would read or replace the file `f.txt`. A file there is
   * `ENOTDIR`; nothing there is left for the call to report (`ENOENT`).
   * `create` (a call that would create a file, as open(2) with `O_CREAT`):
   * `f/` is `EISDIR` whatever is there, and a missing `f/.` is `ENOENT`. A
   * path not in that form costs nothing; one in it, one `stat`.
   */
  async #checkDirectoryForm(path: string, syscall: string, create = false): Promise<void> {
    const form = directoryForm(path);
    if (form === null) return;
    if (create && form === "slash") throw fsError("EISDIR", syscall, path);
    let stat: WorkspaceStatResult;
    try {
      stat = await this.#fs.stat(path);
    } catch (error) {
      if (codeOf(error) !== "ENOENT") rethrow(error, syscall, path);
      if (create) throw fsError("ENOENT", syscall, path);
      return;
    }
    if (!stat.isDirectory) throw fsError("ENOTDIR", syscall, path);
  }

  /** The whole file as bytes, streamed and refused with `EFBIG` past `maxReadBytes`. */
  async #readAll(path: string, syscall: string): Promise<Uint8Array> {
    checkPath(path, syscall);
    if (isDevNull(path)) return new Uint8Array(0);
    const command = this.#commandPath(path);
    if (command !== undefined) {
      if (command === "dir") throw fsError("EISDIR", "read", path);
      if (command === "none") throw fsError("ENOENT", syscall, path);
      return commandStub(command);
    }
    await this.#checkDirectoryForm(path, syscall);
    const kept = this.#prefetched.get(path);
    if (kept !== undefined) {
      this.#drop(path);
      if (Date.now() <= kept.until && kept.bytes.byteLength <= this.#maxReadBytes) return kept.bytes;
    }
    let stream: Uint8Array | ReadableStream<Uint8Array>;
    try {
      // The host's readBytes answers a file too large for one RPC answer as a stream, read here like fs.readFile's.
      stream = this.#readBytes !== undefined ? await this.#readBytes(path, this.#maxReadBytes) : await this.#fs.readFile(path);
    } catch (error) {
      if (codeOf(error) === "EFBIG") {
        throw fsError("EFBIG", syscall, path, `file too large (the shell reads at most ${this.#maxReadBytes} bytes of a file)`);
      }
      // Node and just-bash's InMemoryFs say `read` for a directory: "EISDIR: illegal operation on a directory, read '/d'".
      rethrow(error, codeOf(error) === "EISDIR" ? "read" : syscall, path);
    }
    if (!isByteStream(stream)) return stream;
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        total += next.value.byteLength;
        if (total > this.#maxReadBytes) {
          await reader.cancel().catch(() => {});
          throw fsError("EFBIG", syscall, path, `file too large (the shell reads at most ${this.#maxReadBytes} bytes of a file)`);
        }
        chunks.push(next.value);
      }
    } catch (error) {
      if (codeOf(error) === "EFBIG") throw error;
      rethrow(error, syscall, path);
    }
    return concatBytes(chunks, total);
  }

  /**
   * The file decoded in `options` encoding (default UTF-8, a leading BOM
   * kept, each byte that is not UTF-8 as the lone surrogate U+DC80…U+DCFF,
   * which `writeFile`/`appendFile` in UTF-8 write back as that byte — so
   * `sed -i` keeps a Latin-1 or binary file's other bytes); `binary`/`latin1` map each byte to one char,
   * `ascii` drops the high bit, `base64`/`hex` encode the bytes.
   * @throws `ENOENT` missing · `EISDIR` a directory · `ELOOP` · `EFBIG` larger than `maxReadBytes`.
   */
  async readFile(
    path: string,
    options?: {
      /** How bytes become the string. Default `"utf8"`. */
      encoding?: BufferEncoding | null;
    } | BufferEncoding,
  ): Promise<string> {
    return fromBytes(await this.#readAll(path, "open"), encodingOf(options));
  }

  /**
   * The raw bytes as a latin1 byte string (one char per byte), the shape
   * just-bash's byte pipeline uses.
   * @throws as {@link WorkspaceFsAdapter.readFile}.
   */
  async readFileBytes(path: string): Promise<ByteString> {
    return latin1Decode(await this.#readAll(path, "open")) as unknown as ByteString;
  }

  /**
   * The raw bytes.
   * @throws as {@link WorkspaceFsAdapter.readFile}.
   */
  async readFileBuffer(path: string): Promise<Uint8Array> {
    return this.#readAll(path, "open");
  }

  /** The mode a new file gets: `0o666` less the shell's {@link WorkspaceFsAdapter.umask}. */
  #newFileMode(): number {
    return 0o666 & ~this.umask;
  }

  /** The mode to keep when replacing `path`: its current bits if it is a file, else undefined (a new file's mode then). */
  async #modeToKeep(path: string): Promise<number | undefined> {
    try {
      const stat = await this.#fs.stat(path);
      return stat.isFile ? stat.mode : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Creates or replaces the file with `content` (a string in `options`
   * encoding, default UTF-8, or bytes). An existing file keeps its mode
   * (as POSIX `open(O_TRUNC)` does); a new file gets `0o666 & ~umask` (`0o644`). Parents are
   * not created. A final link is written through.
   * @throws `ENOENT` missing parent · `ENOTDIR` · `EISDIR` a directory · `EROFS` a read-only mount · `ELOOP`.
   */
  async writeFile(
    path: string,
    content: FileContent,
    options?: WorkspaceFsAdapterWriteOptions | BufferEncoding,
  ): Promise<void> {
    this.#beforeChange(path, "write");
    checkPath(path, "write");
    const bytes = toBytes(content, encodingOf(options));
    if (isDevNull(path)) return;
    await this.#checkDirectoryForm(path, "open", true);
    const mode = await this.#modeToKeep(path);
    // Past 16 MiB the bytes go as a stream: across RPC one value may not pass 32 MiB, a stream crosses in chunks.
    // A view of a larger buffer (split's part of the file it read) goes as a compact copy (run 35, fixer UV).
    await call("write", path, () => this.#fs.writeFile(path, sendableBytes(bytes), { mode: mode ?? this.#newFileMode() }));
  }

  /**
   * Appends `content` (encoded as in {@link WorkspaceFsAdapter.writeFile}),
   * creating the file if it is missing. Synthesized: the old bytes are
   * streamed from the Workspace into one atomic rewrite (not bounded by
   * `maxReadBytes`), keeping the mode, bound to the file as `stat` found it
   * (`writeFile`'s `ifUnmodified`, src/fs/append.ts): a write by anyone else
   * that lands while the copy runs is kept — the rewrite fails and the
   * append is made again after it, at most `APPEND_ATTEMPTS` (10) tries in
   * all. A file removed between the `stat` and the rewrite is created (as
   * `O_APPEND|O_CREAT` does), within the same tries. Appending nothing to an
   * existing file (what a `>>` redirect does before its first write) writes nothing.
   * Over an fs with `appendFile` (`workspace.fs`, its RPC stub) an existing file takes that append instead:
   * its full 512 KiB chunks kept, O(appended bytes + one chunk), bound with `ifInode` (fixer AP, run 36).
   * @throws `EISDIR` a directory · `ENOENT` missing parent · `EROFS` · `ELOOP` ·
   * `ESTALE` the file kept changing through every try (nothing appended).
   */
  async appendFile(
    path: string,
    content: FileContent,
    options?: WorkspaceFsAdapterWriteOptions | BufferEncoding,
  ): Promise<void> {
    this.#beforeChange(path, "append");
    checkPath(path, "append");
    const bytes = toBytes(content, encodingOf(options));
    if (isDevNull(path)) return;
    await this.#checkDirectoryForm(path, "open", true);
    const append = this.#appendBytes;
    if (append !== undefined) {
      // The host's append makes a missing file 0644: under another umask the file is made here first, with its mode.
      if (this.umask !== 0o022) {
        try {
          await this.#createForAppend(path, bytes);
          return;
        } catch (error) {
          if (codeOf(error) !== "EEXIST") rethrow(error, "append", path);
        }
      }
      await call("append", path, () => append(path, sendableBytes(bytes))); // run 35, fixer UV: compact or streamed
      return;
    }
    for (let attempt = 1; ; attempt++) {
      let stat: WorkspaceStatResult | undefined;
      try {
        stat = await this.#fs.stat(path);
      } catch (error) {
        if (codeOf(error) !== "ENOENT") rethrow(error, "append", path);
      }
      if (stat?.isDirectory) throw fsError("EISDIR", "append", path);
      if (stat !== undefined && bytes.byteLength === 0) return;
      try {
        if (stat === undefined) await this.#createForAppend(path, bytes);
        // Bound to the file found (inode, size, mtime, then its revision at the commit): a write that lands
        // in between fails the rewrite with ESTALE, and the append looks again, after it.
        // The Workspace's own append when the fs has it: O(appended bytes + one chunk), bound to the file found
        // (ifInode), made again by the store from the file as it then is when another write lands (fixer AP, run 36).
        else if (typeof this.#fs.appendFile === "function") await this.#fs.appendFile(path, sendableBytes(bytes), { ifInode: stat.inode });
        else await appendStreamed(this.#fs, path, stat, bytes); // fixer AP, run 36: an fs without appendFile
        return;
      } catch (error) {
        // ESTALE/EEXIST: another writer changed or created it; ENOENT after the stat found it: removed, created next.
        if (shouldRetryAppend(codeOf(error), attempt, stat !== undefined)) continue;
        rethrow(error, "append", path);
      }
    }
  }

  /**
   * The file an append found missing: created with `bytes` only if it is
   * still missing (`EEXIST` otherwise: another writer created it, the append
   * looks again). A dangling link is followed, as `>>` does: its target
   * (from the link's real directory) is created the same way, exclusively,
   * so a target someone creates meanwhile is appended to, not replaced.
   * @throws `ELOOP` past 40 links; `EISDIR` for a target ending in `/`.
   */
  async #createForAppend(path: string, bytes: Uint8Array): Promise<void> {
    let at = path;
    for (let links = 0; ; links++) {
      try {
        // Compact, or a fresh stream past 16 MiB each try (run 35, fixer UV).
        await this.#fs.writeFile(at, sendableBytes(bytes), { exclusive: true, mode: this.#newFileMode() });
        return;
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw error;
        const entry = await this.#fs.lstat(at).catch(() => undefined);
        // A file or directory (or nothing any more): the append looks again.
        if (!entry?.isSymbolicLink) throw error;
        if (links >= 40) throw fsError("ELOOP", "append", path);
        const target = await this.#fs.readlink(at);
        if (target.endsWith("/")) throw fsError("EISDIR", "append", path);
        const dir = await realpathOf(this.#fs, at.slice(0, at.lastIndexOf("/")) || "/", (code) => fsError(code, "append", path));
        at = normalize(target.startsWith("/") ? target : `${dir}/${target}`);
      }
    }
  }

  /**
   * Whether `path` exists, following links (a dangling link is `false`), as
   * Node's `existsSync` and just-bash's InMemoryFs answer. Never rejects.
   */
  async exists(path: string): Promise<boolean> {
    if (typeof path !== "string" || path === "" || path.includes("\0")) return false;
    if (isDevNull(path)) return true;
    const command = this.#commandPath(path);
    if (command !== undefined) return command !== "none";
    try {
      const stat = await this.#fs.stat(path);
      return stat.isDirectory || directoryForm(path) === null;
    } catch {
      return false;
    }
  }

  /**
   * Metadata, following a final link (not during a `"links-as-links"`
   * {@link WorkspaceFsAdapter.walking}): `mode` is the permission bits,
   * `size` in bytes, `mtime` a `Date`, `ino` the Workspace inode and
   * `identity` `"workspace:<inode>"` (just-bash uses it to tell same files apart).
   * @throws `ENOENT` missing or dangling · `ELOOP`.
   */
  async stat(path: string): Promise<FsStat> {
    if (this.#walk?.mode === "links-as-links") return this.lstat(path);
    checkPath(path, "stat");
    if (isDevNull(path)) return { ...DEV_NULL_STAT, mtime: new Date(0) };
    const command = this.#commandPath(path);
    if (command !== undefined) return this.#commandStat(command, "stat", path);
    const stat = await call("stat", path, () => this.#fs.stat(path));
    if (!stat.isDirectory && directoryForm(path) !== null) throw fsError("ENOTDIR", "stat", path);
    return toFsStat(stat);
  }

  /**
   * Metadata of the entry itself (a link is reported as the link).
   * @throws `ENOENT` missing · `ELOOP`.
   */
  async lstat(path: string): Promise<FsStat> {
    checkPath(path, "lstat");
    if (isDevNull(path)) return { ...DEV_NULL_STAT, mtime: new Date(0) };
    const command = this.#commandPath(path);
    if (command !== undefined) return this.#commandStat(command, "lstat", path);
    if (directoryForm(path) !== null) {
      // lstat(2) of `link/` follows the link: the path names what it leads to, which must be a directory.
      const stat = await call("lstat", path, () => this.#fs.stat(path));
      if (!stat.isDirectory) throw fsError("ENOTDIR", "lstat", path);
      return toFsStat(stat);
    }
    return toFsStat(await call("lstat", path, () => this.#fs.lstat(path)));
  }

  /**
   * Creates a directory, mode `0o777 & ~umask` (`recursive`: with missing parents, made 0755 by the Workspace,
   * and an existing directory is fine — also a link leading to one, as GNU `mkdir -p`).
   * @throws `EEXIST` (with `recursive`: a file, a link to one, or a dangling link) · `ENOENT` missing parent · `ENOTDIR` · `EROFS`.
   */
  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    this.#beforeChange(path, "mkdir");
    checkPath(path, "mkdir");
    const recursive = options?.recursive === true;
    // mkdir(2) of `new/.` is ENOENT (the Workspace would make `new`); `-p` makes it, as coreutils does.
    if (!recursive && directoryForm(path) === "dot") await this.#checkDirectoryForm(path, "mkdir", true);
    // Missing parents: the Workspace makes them 0755; GNU `mkdir -p` gives them `(0777 & ~umask) | 0300`.
    if (recursive && this.umask !== 0o022) await this.#makeParents(path);
    try {
      await call("mkdir", path, () => this.#fs.mkdir(path, { recursive, mode: 0o777 & ~this.umask }));
    } catch (error) {
      // The Workspace takes a link at the leaf as it is; coreutils' make_dir_parents stats an existing leaf (through
      // links) and is done when it is a directory — otherwise the mkdir's EEXIST stands (a dangling link included).
      if (!recursive || codeOf(error) !== "EEXIST") throw error;
      const leads = await this.#fs.stat(path).then(
        (stat) => stat.isDirectory,
        () => false,
      );
      if (!leads) throw error;
    }
  }

  /**
   * Makes the missing parents of `path` one by one, each `(0o777 & ~umask) | 0o300` as GNU `mkdir -p` does (under a
   * umask other than 022, where that differs from the Workspace's own 0755). What fails is left for the mkdir of
   * `path` itself to report.
   */
  async #makeParents(path: string): Promise<void> {
    const missing: string[] = [];
    for (let dir = normalize(path).replace(/\/[^/]*$/, ""); dir !== "" && dir !== "/"; dir = dir.replace(/\/[^/]*$/, "")) {
      const found = await this.#fs.stat(dir).then(
        () => true,
        () => false,
      );
      if (found) break;
      missing.unshift(dir);
    }
    const mode = (0o777 & ~this.umask) | 0o300;
    for (const dir of missing) {
      try {
        await this.#fs.mkdir(dir, { mode });
      } catch {
        return;
      }
    }
  }

  /**
   * The entries of directory `path`: with `listWithContents`, from it (a long
   * listing read from its stream of JSON lines; with `keep`, the contents it
   * brings are kept for the next reads), else from `fs.readdir`.
   */
  async #listing(path: string, syscall: string, keep = false): Promise<WorkspaceFsAdapterListedEntry[]> {
    const list = this.#listWithContents;
    if (list === undefined) return call(syscall, path, () => this.#fs.readdir(path));
    const generation = this.#generation;
    const listed = await call(syscall, path, () => (keep ? list(path) : list(path, { contents: false })));
    const entries = listed.entryLines !== undefined && listed.entryLines !== null ? await call(syscall, path, () => readJsonLines<WorkspaceFsAdapterListedEntry>(listed.entryLines!)) : listed.entries;
    // A change made while the listing was in flight may postdate its contents: keep none then.
    if (keep && generation === this.#generation) {
      const dir = normalize(path);
      this.#keep(dir === "/" ? dir : `${dir}/`, listed.contents ?? {});
    }
    return entries;
  }

  /**
   * Names of the directory's children, in UTF-8 byte order.
   * @throws `ENOENT` · `ENOTDIR` · `ELOOP`.
   */
  async readdir(path: string): Promise<string[]> {
    checkPath(path, "scandir");
    const command = this.#commandPath(path);
    if (command === "dir") return [...(this.#commands ?? [])].sort();
    if (command !== undefined) throw fsError(command === "none" ? "ENOENT" : "ENOTDIR", "scandir", path);
    const entries = await this.#listing(path, "scandir");
    return entries.map((entry) => entry.name);
  }

  /**
   * The directory's children with their types (links reported as links,
   * not followed), from one Workspace `readdir`; during a
   * {@link WorkspaceFsAdapter.walking} without links, or once per directory.
   * @throws `ENOENT` · `ENOTDIR` · `ELOOP`.
   */
  async readdirWithFileTypes(path: string): Promise<{ name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean }[]> {
    checkPath(path, "scandir");
    const command = this.#commandPath(path);
    if (command === "dir") return [...(this.#commands ?? [])].sort().map((name) => ({ name, isFile: true, isDirectory: false, isSymbolicLink: false }));
    if (command !== undefined) throw fsError(command === "none" ? "ENOENT" : "ENOTDIR", "scandir", path);
    let entries = await this.#listing(path, "scandir", true);
    const walk = this.#walk;
    if (walk?.mode === "skip-links") entries = entries.filter((entry) => !entry.isSymbolicLink);
    else if (walk?.mode === "once") {
      const real = await this.realpath(path);
      if (walk.seen.has(real)) return [];
      walk.seen.add(real);
    }
    return entries.map((entry) => ({
      name: entry.name,
      isFile: entry.isFile,
      isDirectory: entry.isDirectory,
      isSymbolicLink: entry.isSymbolicLink,
    }));
  }

  /**
   * Runs `fn` (one command's work, e.g. just-bash's own `grep`) with tree
   * walks treating links as `mode` says ({@link WalkMode}): just-bash's
   * `grep -r`/`-R` and `tar -c` decide whether to descend with `stat`, which
   * follows links, so a link to `.` or `..` made them walk the same
   * directories again until the path held 40 links (~2^40 paths with two
   * such links). Walks nest (the inner mode holds until it ends). The mode
   * holds for every call made meanwhile: just-bash runs a script's commands
   * one at a time.
   */
  async walking<T>(mode: WalkMode, fn: () => Promise<T>): Promise<T> {
    const previous = this.#walk;
    this.#walk = { mode, seen: new Set() };
    try {
      return await fn();
    } finally {
      this.#walk = previous;
    }
  }

  /**
   * Removes a file, link or empty directory; `recursive` removes a whole
   * tree (one Workspace transaction); `force` makes a missing path a success.
   * A path whose last segment is `.` (`d/.`, as {@link WorkspaceFsAdapter.resolvePath}
   * keeps it) is refused, as rmdir(2) refuses it, even with `force`: it names
   * the directory d only through itself.
   * @throws `ENOENT` (unless `force`; the empty path always) · `EINVAL` a last `.` · `ENOTEMPTY` · `EROFS` · `EPERM` for `/`.
   */
  async rm(path: string, options?: RmOptions): Promise<void> {
    this.#beforeChange(path, "rm");
    checkPath(path, "rm");
    if (directoryForm(path) === "dot") throw fsError("EINVAL", "rm", path);
    await this.#checkDirectoryForm(path, "rm");
    await call("rm", path, () => this.#fs.rm(path, { recursive: options?.recursive === true, force: options?.force === true }));
  }

  /**
   * Copies `src` to `dest`, replacing a file there: a file's bytes are
   * streamed and its mode kept; a link is copied as a link (same target);
   * a directory needs `recursive` and is copied entry by entry into `dest`
   * (created if missing, merged if present).
   * @throws `ENOENT` · `EISDIR` a directory without `recursive` · `EINVAL` a directory into itself · `EROFS` · `ENOTDIR`.
   */
  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    this.#beforeChange(dest, "cp");
    checkPath(src, "cp");
    checkPath(dest, "cp");
    await this.#checkDirectoryForm(src, "cp");
    // A source in directory form (`link/`, `link/.`) names what it leads to, as stat(2) reads it: a link to a
    // directory is followed and the directory copied (GNU cp), not the link.
    const stat = await call("cp", src, () => (directoryForm(src) !== null ? this.#fs.stat(src) : this.#fs.lstat(src)));
    if (!stat.isDirectory) await this.#checkDirectoryForm(dest, "cp", true);
    if (stat.isDirectory) {
      if (options?.recursive !== true) throw fsError("EISDIR", "cp", src, "is a directory");
      const from = normalize(src);
      const to = normalize(dest);
      if (to === from || from === "/" || to.startsWith(`${from}/`)) {
        throw fsError("EINVAL", "cp", src, `cannot copy '${src}' into itself, '${dest}'`);
      }
    }
    await this.#copy(src, dest, stat.isDirectory ? "dir" : stat.isSymbolicLink ? "link" : "file", stat.mode);
  }

  async #copy(src: string, dest: string, kind: "file" | "dir" | "link", mode: number): Promise<void> {
    if (kind === "link") {
      const target = await call("cp", src, () => this.#fs.readlink(src));
      await this.#clearForCopy(dest);
      await this.#symlinkThroughParents(target, dest, "cp"); // a link among dest's parents is followed (fixer SL, run 35)
      return;
    }
    if (kind === "file") {
      // A link at `dest` is written through, as GNU cp does (the Workspace's writeFile follows a final link).
      await call("cp", dest, async () => {
        const bytes = await this.#fs.readFile(src);
        try {
          await this.#fs.writeFile(dest, bytes, { mode });
        } catch (error) {
          // Refused before or while the source was read: end that read, its chunk leases with it (issue 20, run 40,
          // fixer f40fs). A stream sent over RPC, or read to its end, is left as it is.
          if (!bytes.locked) await bytes.cancel(error).catch(() => {});
          throw error;
        }
      });
      return;
    }
    await call("cp", dest, () => this.#fs.mkdir(dest, { recursive: true }));
    const entries = await this.#listing(src, "cp");
    for (const entry of entries) {
      const from = `${src === "/" ? "" : src}/${entry.name}`;
      const to = `${dest === "/" ? "" : dest}/${entry.name}`;
      if (entry.isSymbolicLink) await this.#copy(from, to, "link", 0o777);
      else if (entry.isDirectory) await this.#copy(from, to, "dir", 0o755);
      else await this.#copy(from, to, "file", (await call("cp", from, () => this.#fs.lstat(from))).mode);
    }
  }

  /** Before copying a link: a file or link at `dest` is replaced (a directory is left for `symlink` to refuse). */
  async #clearForCopy(dest: string): Promise<void> {
    try {
      const existing = await this.#fs.lstat(dest);
      if (!existing.isDirectory) await call("cp", dest, () => this.#fs.rm(dest));
    } catch (error) {
      if (codeOf(error) !== "ENOENT") rethrow(error, "cp", dest);
    }
  }

  /**
   * Moves `src` to `dest` with one Workspace `rename` (atomic; keeps inode
   * and mtime; a file or link replaces a file or link, a directory an empty
   * directory). As rename(2): a source whose last segment is `.` (`d/.`) is
   * `EBUSY`, and one ending in `/` that is a link (`link/`) is `ENOTDIR` —
   * the entry itself is not a directory.
   * @throws `ENOENT` · `EBUSY` a last `.` · `EINVAL` a directory into itself · `EISDIR` · `ENOTDIR` · `ENOTEMPTY` · `EROFS`.
   */
  async mv(src: string, dest: string): Promise<void> {
    this.#beforeChange(dest, "rename");
    this.#beforeChange(src, "rename");
    checkPath(src, "mv");
    checkPath(dest, "mv");
    const srcForm = directoryForm(src);
    if (srcForm === "dot") throw fsError("EBUSY", "mv", src, "resource busy or locked");
    await this.#checkDirectoryForm(src, "mv");
    if (srcForm !== null && (await call("mv", src, () => this.#fs.lstat(src))).isSymbolicLink) throw fsError("ENOTDIR", "mv", src);
    if (directoryForm(dest) !== null) {
      // rename(2): a new path in directory form needs the old one (the entry itself) to be a directory.
      const source = await call("mv", src, () => this.#fs.lstat(src));
      if (!source.isDirectory) throw fsError("ENOTDIR", "mv", dest);
      await this.#checkDirectoryForm(dest, "mv");
    }
    await call("mv", src, () => this.#fs.rename(src, dest));
  }

  /**
   * `path` resolved against `base`: absolute paths are taken as they are,
   * relative ones joined to `base`; then `.`, `..` (clamped at `/`) and
   * repeated slashes are normalised lexically, as POSIX shells do — except
   * that a path that can only name a directory keeps that form: a name
   * followed by `/` resolves with one trailing `/` (`f.txt/` →
   * `<base>/f.txt/`), and one followed by a last `.` segment with `/.`
   * (`f.txt/.`, `f.txt/./` → `<base>/f.txt/.`), which the adapter's methods
   * then require to be a directory (`ENOTDIR`, `EISDIR` or `ENOENT`, as
   * open(2) and stat(2)). A `..` segment is kept (the rest is tidied:
   * `a/./b//../c` → `<base>/a/b/../c`, a `..` at `/` dropped), because what
   * it names depends on the links before it: every method that takes the
   * path resolves it as the kernel does, the prefix up to the last `..`
   * walked physically (see {@link WorkspaceFsAdapter.physicalPath}, fixer DD,
   * issue 20 run 35; reinstated by fixer DD2, run 36). A command's arguments
   * holding such a `..` are resolved physically once before it runs
   * (isolate/dot-dots.ts), so the tree walkers, which normalise what this gives
   * lexically, start from the real directory. Code that walks up with
   * `resolvePath(dir, "..")` never reaches `/` (rg's did; it now walks up
   * lexically, fixer DD2). `cd`/`$PWD` stay logical (bash's `cd -L`): the shell
   * canonicalises them itself. The empty path stays `""`, which every method answers with
   * `ENOENT` (`exists`: `false`), as every POSIX call on "" does — it is not
   * the cwd (`rm -rf "$UNSET"` removes nothing).
   */
  resolvePath(base: string, path: string): string {
    if (path === "") return "";
    const joined = path.startsWith("/") ? path : `${base}/${path}`;
    // A `..` stays for the method that takes the path to walk physically (fixer DD, issue 20 run 35).
    const resolved = DOT_DOT.test(joined) ? keepDotDots(joined) : normalize(joined);
    const form = resolved === "/" ? null : directoryForm(path);
    return form === null ? resolved : form === "dot" ? `${resolved}/.` : `${resolved}/`;
  }

  /**
   * Always `[]`. just-bash calls this synchronously (only `ls` with a
   * pattern its shell did not expand uses it); the Workspace can only be
   * listed asynchronously, and listing it whole would be unbounded. Shell
   * globbing does not need it: it walks directories with `readdirWithFileTypes`.
   */
  getAllPaths(): string[] {
    return [];
  }

  /**
   * Sets the permission bits (`mode & 0o7777`), following a final link.
   * @throws `ENOENT` · `EROFS` · `EINVAL` a bad mode.
   */
  async chmod(path: string, mode: number): Promise<void> {
    this.#beforeChange(path, "chmod");
    checkPath(path, "chmod");
    await this.#checkDirectoryForm(path, "chmod");
    await call("chmod", path, () => this.#fs.chmod(path, mode));
  }

  /**
   * Creates a link at `linkPath` holding `target` verbatim (may dangle). Links among `linkPath`'s parents are
   * followed, as symlink(2) does: with `lnk -> real`, `lnk/x` is made as `real/x` (issue 20, run 35, fixer SL).
   * @throws `EEXIST` · `ENOENT` missing parent, dangling link among the parents, or empty target · `ENOTDIR` a file among the parents (fixer SL) · `ELOOP` · `EROFS`.
   */
  async symlink(target: string, linkPath: string): Promise<void> {
    this.#beforeChange(linkPath, "symlink");
    checkPath(linkPath, "symlink");
    // The target is stored as text too: a byte that is not UTF-8 would become U+FFFD (two targets one), so EILSEQ.
    if (typeof target === "string" && NOT_UTF8_BYTE.test(target)) throw fsError("EILSEQ", "symlink", linkPath, "invalid or incomplete multibyte or wide character: link targets are UTF-8 only");
    // symlink(2): a link path in directory form is ENOENT unless something is there (the call then says EEXIST).
    if (directoryForm(linkPath) !== null && !(await this.#fs.lstat(linkPath).then(() => true, () => false))) throw fsError("ENOENT", "symlink", linkPath);
    await this.#symlinkThroughParents(target, linkPath, "symlink"); // issue 20, run 35, fixer SL
  }

  /**
   * Makes the link `linkPath` → `target` as symlink(2) does, links among `linkPath`'s parents followed
   * (`lnk/x` with `lnk -> real` is made as `real/x`, {@link symlinkThroughParentLinks}): what `ln -s`, `cp -P`/`-a`/`-r`
   * of a link and `tar -x` of a link member make. Errors are `syscall`'s on `linkPath` (`ENOENT` a dangling link or
   * missing directory among the parents, `ENOTDIR` a file, `ELOOP`, `EEXIST`, `EROFS` — also a parent leading into the
   * command directories). Issue 20, run 35, fixer SL.
   */
  async #symlinkThroughParents(target: string, linkPath: string, syscall: string): Promise<void> {
    const reader: LinkReader = { lstat: (candidate) => this.#fs.lstat(candidate), readlink: (candidate) => this.#fs.readlink(candidate) };
    const make = async (at: string): Promise<void> => {
      if (at !== linkPath) this.#refuseCommandPath(at, syscall); // fixer SL
      await this.#fs.symlink(target, at);
    };
    await call(syscall, linkPath, () => symlinkThroughParentLinks(make, (dir) => realpathOf(reader, dir, (code) => fsError(code, syscall, linkPath)), linkPath)); // fixer SL
  }

  /**
   * Hard links do not exist in the Workspace.
   * @throws always `ENOSYS` (`ENOSYS: function not implemented, link '<existingPath>'`).
   */
  async link(existingPath: string, _newPath: string): Promise<void> {
    throw fsError("ENOSYS", "link", existingPath);
  }

  /**
   * The target a link holds, verbatim.
   * @throws `EINVAL` not a link · `ENOENT` · `ELOOP`.
   */
  async readlink(path: string): Promise<string> {
    checkPath(path, "readlink");
    await this.#checkDirectoryForm(path, "readlink");
    return call("readlink", path, () => this.#fs.readlink(path));
  }

  /**
   * The canonical path: every link in `path` resolved (relative targets
   * against the link's directory), `.` and `..` removed, by walking the
   * segments with `lstat`/`readlink`.
   * @throws `ENOENT` a missing segment or dangling link · `ENOTDIR` a file mid-path · `ELOOP` more than 40 links.
   */
  async realpath(path: string): Promise<string> {
    checkPath(path, "realpath");
    if (isDevNull(path)) return DEV_NULL;
    const command = this.#commandPath(path);
    if (command === "none") throw fsError("ENOENT", "realpath", path);
    if (command !== undefined) return normalize(path);
    // `path` as given, not normalised first: a `..` goes up from where the link before it leads (fixer DD, run 35).
    const reader: LinkReader = {
      lstat: (candidate) => call("realpath", path, () => this.#fs.lstat(candidate)),
      readlink: (candidate) => call("realpath", path, () => this.#fs.readlink(candidate)),
    };
    const real = await realpathOf(reader, path, (code) => fsError(code, "realpath", path)); // fixer DD
    if (directoryForm(path) !== null && !(await call("realpath", path, () => this.#fs.stat(real))).isDirectory) throw fsError("ENOTDIR", "realpath", path);
    return real;
  }

  /**
   * A no-op beyond checking that `path` exists: the Workspace keeps `mtime`
   * itself (it is set on every write), so `touch` on an existing file leaves it.
   * @throws `ENOENT` missing or dangling.
   */
  async utimes(path: string, _atime: Date, _mtime: Date): Promise<void> {
    checkPath(path, "utimes");
    if (isDevNull(path)) return;
    const stat = await call("utimes", path, () => this.#fs.stat(path));
    if (!stat.isDirectory && directoryForm(path) !== null) throw fsError("ENOTDIR", "utimes", path);
  }

  /**
   * `path` with every `..` resolved as the kernel's path walk does (path_resolution(7)): the prefix up to the
   * last `..` segment is walked with `lstat`/`readlink` ({@link realpathOf}), so a `..` after a link goes up
   * from where the link leads (`lnk/../f` with `lnk -> a/b` is `a/f`, as bash on Linux), and the segments after
   * it are passed on as they are (the Workspace follows the links among them, a final one as the call does). A
   * directory form (`/`, `/.`) at the end is kept. A path without `..` is returned unchanged, with no call to
   * the Workspace; one inside the command directories or `/dev/null` is normalised lexically (they are not in
   * the Workspace). Linear in the segments walked (one `lstat` per segment of the prefix, one `readlink` per
   * link). Fixer DD, issue 20 run 35.
   * @throws `ENOENT` a missing segment or dangling link before a `..` · `ENOTDIR` a file before a `..` ·
   * `ELOOP` more than 40 links — each for `syscall` on `path`, as the call itself would fail.
   */
  async physicalPath(path: string, syscall: string): Promise<string> {
    if (typeof path !== "string" || !path.startsWith("/") || !DOT_DOT.test(path)) return path;
    if (isDevNull(path) || this.#commandPath(path) !== undefined) return normalize(path);
    const form = path.endsWith("/.") ? "/." : path.endsWith("/") ? "/" : "";
    const segments = path.slice(0, path.length - form.length).split("/");
    const last = segments.lastIndexOf("..");
    const reader: LinkReader = {
      lstat: (candidate) => call(syscall, path, () => this.#fs.lstat(candidate)),
      readlink: (candidate) => call(syscall, path, () => this.#fs.readlink(candidate)),
    };
    const dir = await realpathOf(reader, segments.slice(0, last + 1).join("/") || "/", (code) => fsError(code, syscall, path));
    const rest = segments.slice(last + 1).filter((s) => s !== "" && s !== ".");
    if (rest.length === 0) return dir === "/" || form === "" ? dir : `${dir}${form}`;
    return `${dir === "/" ? "" : dir}/${rest.join("/")}${form}`;
  }

  // Every method that takes a path resolves its `..` physically first (physicalPath): the name, the syscall its
  // errors carry, and which arguments are paths (a link's target is stored verbatim: symlink's first is not).
  // One table, so that no method is missed (fixer DD, issue 20 run 35).
  static {
    const methods: readonly [name: string, syscall: string, paths: readonly number[]][] = [
      ["readFile", "open", [0]],
      ["readFileBytes", "open", [0]],
      ["readFileBuffer", "open", [0]],
      ["writeFile", "write", [0]],
      ["appendFile", "append", [0]],
      ["stat", "stat", [0]],
      ["lstat", "lstat", [0]],
      ["readdir", "scandir", [0]],
      ["readdirWithFileTypes", "scandir", [0]],
      ["rm", "rm", [0]],
      ["cp", "cp", [0, 1]],
      ["mv", "mv", [0, 1]],
      ["chmod", "chmod", [0]],
      ["symlink", "symlink", [1]],
      ["readlink", "readlink", [0]],
      ["utimes", "utimes", [0]],
    ];
    const proto = this.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const [name, syscall, paths] of methods) {
      const method = proto[name] as (...args: unknown[]) => Promise<unknown>;
      proto[name] = async function (this: WorkspaceFsAdapter, ...args: unknown[]): Promise<unknown> {
        for (const i of paths) if (typeof args[i] === "string") args[i] = await this.physicalPath(args[i] as string, syscall);
        return method.apply(this, args);
      };
    }
    // exists never rejects: a prefix that cannot be walked names nothing.
    const exists = proto.exists as (path: unknown) => Promise<boolean>;
    proto.exists = async function (this: WorkspaceFsAdapter, path: unknown): Promise<boolean> {
      if (typeof path !== "string") return exists.call(this, path);
      const physical = await this.physicalPath(path, "access").catch(() => undefined);
      return physical === undefined ? false : exists.call(this, physical);
    };
    // mkdir -p makes what a `..` goes up from when it is missing (GNU `mkdir -p new/../b` makes `new` and `b`):
    // the part before the last `..` first (itself the same way), then the walk again.
    const mkdir = proto.mkdir as (path: unknown, options?: MkdirOptions) => Promise<void>;
    proto.mkdir = async function (this: WorkspaceFsAdapter, path: unknown, options?: MkdirOptions | undefined): Promise<void> {
      if (typeof path !== "string") return mkdir.call(this, path, options);
      let physical: string;
      try {
        physical = await this.physicalPath(path, "mkdir");
      } catch (error) {
        if (options?.recursive !== true || codeOf(error) !== "ENOENT") throw error;
        const segments = path.split("/");
        let last = segments.length - 1;
        while (last > 0 && segments[last] !== "..") last--;
        await this.mkdir(segments.slice(0, last).join("/") || "/", options);
        physical = await this.physicalPath(path, "mkdir");
      }
      return mkdir.call(this, physical, options);
    } as (...args: unknown[]) => Promise<unknown>;
  }
}
