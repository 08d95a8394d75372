/**
 * Public shapes of `workspace.fs` (spec 01 §3.1). Every method returns a
 * promise and reports every failure as a rejection.
 *
 * @module
 */
import type { WorkspaceFsError } from "./errors.js";

/** Options for a ranged read (spec 01 §3.3 readFile). */
export interface ReadFileOptions {
  /** `"utf8"` returns a string; omitted returns a `ReadableStream<Uint8Array>`. Default: omitted (a stream). */
  encoding?: "utf8";
  /** First byte to read, in bytes. Default `0`; clamped to the file size. */
  byteOffset?: number;
  /** Number of bytes to read. Default: the rest of the file; clamped to the file size. */
  byteLength?: number;
}

/** Options for {@link WorkspaceFilesystem.writeFile}. */
export interface WriteFileOptions {
  /** Permission bits, masked with `0o7777`. Default `0o644` (also on overwrite). */
  mode?: number;
  /** Fail with `EEXIST` if any entry already exists at the path. Default `false`. */
  exclusive?: boolean;
  /**
   * Write only if the file at the path (a final link followed) still has
   * this content: its SHA-256 as 64 lowercase hex digits, like an HTTP
   * `If-Match` with a strong ETag. Checked before the new content is read
   * and again in the commit transaction, so a change in between by anyone
   * (another client, another Workspace on the same storage) is never
   * overwritten. Costs one read of the current content. Rejects
   * `ESTALE` when the content differs or changed, `ENOENT` when no file is
   * there; the file is left as it was. Default: unconditional. Not in
   * 0.8.0 (docs/porting.md).
   */
  ifMatch?: string;
  /**
   * Write only if the path (a final link followed) leads to the file with
   * this inode (`stat().inode`): checked with `ifMatch` (or alone) before
   * the new content is read and again in the commit transaction, so the
   * write never lands in another file put at the path meanwhile (renamed
   * over it, or reached through a link made since). Rejects `ESTALE` when
   * the path leads to another file, `ENOENT` when no file is there; the
   * file is left as it was. Default: any file. Not in 0.8.0
   * (docs/porting.md).
   */
  ifInode?: number;
  /**
   * Write only if the path (a final link followed) still leads to the file
   * with this `inode` and it still has this `size` (bytes) and `mtime` (ms),
   * as `stat()` gave them (a whole `WorkspaceStatResult` may be passed):
   * checked before the new content is read, and the file's revision again in
   * the commit transaction — so, like `ifMatch`, a change by anyone in
   * between is never overwritten, without reading the content (every
   * content change moves `mtime`; the inode tells apart another file of the
   * same size and mtime renamed over the path, or written after a removal).
   * All three are required. Rejects `ESTALE` when any differs or the file
   * changed before the commit, `ENOENT` when no file is there; the file is
   * left as it was. Default: unconditional. Not in 0.8.0 (docs/porting.md).
   * @throws TypeError when it is not `{ inode, size, mtime }` (an inode
   * number, a non-negative integer, a finite number).
   */
  ifUnmodified?: { inode: number; size: number; mtime: number };
}

/** Options for {@link WorkspaceFilesystem.appendFile} (issue 20, run 36, fixer AP). */
export interface AppendFileOptions {
  /**
   * Permission bits (masked with `0o7777`) of a file the append creates.
   * Default `0o644`. An existing file keeps its own mode.
   */
  mode?: number;
  /**
   * Append only if the path (a final link followed) leads to the file with
   * this inode (`stat().inode`), checked again in the commit transaction: an
   * append through a handle never lands in another file put at the path
   * meanwhile. Rejects `ESTALE` when the path leads to another file or to
   * none (nothing is created). Default: whatever file is there.
   */
  ifInode?: number;
}

/** Options for {@link WorkspaceFilesystem.mkdir}. */
export interface MkdirOptions {
  /** Create missing ancestors (mode `0o755`) and succeed if the leaf is already a directory. Default `false`. */
  recursive?: boolean;
  /** Permission bits of the leaf. Default `0o755`. */
  mode?: number;
}

/** Options for {@link WorkspaceFilesystem.rm}. */
export interface RmOptions {
  /** Remove a non-empty directory and its whole subtree (one transaction). Default `false`. */
  recursive?: boolean;
  /** Treat a missing path (or missing parent) as success. Default `false`. */
  force?: boolean;
}

/** Pagination for {@link WorkspaceFilesystem.readdir}. */
export interface ReaddirOptions {
  /** Maximum entries to return. Default: all. Non-negative safe integer, else `TypeError`. */
  limit?: number;
  /** Entries to skip. Default `0`. Non-negative safe integer, else `TypeError`. */
  offset?: number;
}

/** Result of `stat` / `lstat` (spec 01 §3.2). */
export interface WorkspaceStatResult {
  /** Last segment of the canonical requested path (`""` for `/`). */
  name: string;
  /** Positive integer, `1` for `/`, kept across overwrite and rename, never reused. */
  inode: number;
  /** Permission bits only (`mode & 0o7777`), no type bits. */
  mode: number;
  /** Modification time, ms since the epoch (the Workspace's `now()` clock). */
  mtime: number;
  /** Bytes for a file, `0` for a directory, target length (UTF-16 units) for a link. */
  size: number;
  /** A regular file (after following a final link, for `stat`). */
  isFile: boolean;
  /** A directory (after following a final link, for `stat`). */
  isDirectory: boolean;
  /** A symbolic link: only from `lstat`, which does not follow it. */
  isSymbolicLink: boolean;
}

/** One entry of `readdir`: the child itself (links are not followed). */
export interface WorkspaceDirentResult {
  /** The child's name (one segment). */
  name: string;
  /** The canonical path that was listed. */
  parentPath: string;
  /** Bytes for a file, `0` for a directory, target length (UTF-16 units) for a link. */
  size: number;
  /** Modification time, ms since the epoch. */
  mtime: number;
  /** A regular file. */
  isFile: boolean;
  /** A directory. */
  isDirectory: boolean;
  /** A symbolic link (reported as such, never followed). */
  isSymbolicLink: boolean;
}

/** One `find` result. `path` is absolute. Links are reported as `"symlink"` (as 0.8.0 does). */
export interface WorkspaceFoundEntry {
  /** Absolute path: the searched directory plus the entry's relative path. */
  path: string;
  /** What the entry is; a link is `"symlink"` and is never followed. */
  type: "file" | "dir" | "symlink";
}

/** Options for {@link WorkspaceFilesystem.find}. */
export interface FindOptions {
  /** Maximum matches. Default: all. */
  limit?: number;
  /** Matches to skip. Default `0`. */
  offset?: number;
  /** Globs tested on the relative path first; a matching directory is pruned (not walked). Default: none. */
  exclude?: string[];
}

/** Options for {@link WorkspaceFilesystem.grep}. */
export interface GrepOptions {
  /** Case-insensitive matching (adds the `i` flag). Default `false`. */
  ignoreCase?: boolean;
  /**
   * Treat `pattern` as JavaScript regular-expression source, matched in linear
   * time: no backreferences or lookaround (a TypeError names them). Default
   * `false` (literal).
   */
  regex?: boolean;
  /** Lines of context before and after each match. Default `0`. */
  context?: number;
  /** Maximum matching lines. Default: all. */
  limit?: number;
  /** Matching lines to skip (across all files). Default `0`. */
  offset?: number;
  /**
   * Glob a file's path relative to the searched directory must match, or a
   * list of globs it must match one of: each glob of a list is read alone
   * (a `,` or `{` in one never joins another), all together at most 4096
   * characters with `{a,b}` expanded (else a TypeError); `""` entries are
   * ignored. Default: none (every file).
   */
  include?: string | string[];
  /** Globs of relative paths to skip; matching directories are pruned. Default: none. */
  exclude?: string[];
  /**
   * Leave out files that look binary: a NUL byte in their first 8 KiB (as
   * git and ripgrep decide; only the file's first chunk is read for it).
   * Each such file is reported once, at its place in file order, as
   * `{ path, line: 0, text: "", binary: true }` — not a match: `limit` and
   * `offset` do not count it, and it is reported only once `offset`
   * matches have gone by. An addition to spec 01 §3.3. Default `false`
   * (every file is searched as text).
   */
  skipBinary?: boolean;
  /**
   * Characters (UTF-16 code units) kept of each reported line, match and
   * context lines alike. A longer line is cut to this many around its first
   * match (a context line that does not match: from its start), with a
   * marker `[… N characters cut …]` on each side that was cut, and is marked
   * `clipped`; a cut match line also gets `column`. An addition to
   * spec 01 §3.3. Default: none (whole lines).
   */
  maxLineLength?: number;
  /**
   * Characters of reported text (each match's `path` and `text`, and its
   * context lines' `text`, after `maxLineLength`) after which the search
   * stops: the match that passes this total is the last one returned, with
   * its context, so fewer than `limit` matches can come back although more
   * follow. The path counts once per match, as each match carries it (so a
   * file under a long directory name cannot make the answer many times the
   * bound); a binary-file entry (`skipBinary`) is not counted. An addition to
   * spec 01 §3.3; before issue 20 run 25 only the `text`s counted. Default: none.
   */
  maxTotalLength?: number;
}

/** One context line around a grep match. */
export interface WorkspaceGrepContextLine {
  /** Line number, counting from 1. */
  line: number;
  /** The line's text, without its `\n` (a trailing `\r` is kept). */
  text: string;
  /** `true` for the matching line itself. */
  isMatch: boolean;
  /** `true` when `text` was cut to `maxLineLength` (only with that option). */
  clipped?: boolean;
}

/** One matching line. `line` counts from 1; `text` keeps a trailing `\r`. */
export interface WorkspaceGrepMatch {
  /** Absolute path of the file, built from the path given to `grep`. */
  path: string;
  /** Line number, counting from 1. */
  line: number;
  /** The line's text, without its `\n` (a trailing `\r` is kept). */
  text: string;
  /** Present only when `context > 0`: before-lines, the match, after-lines. */
  context?: WorkspaceGrepContextLine[];
  /**
   * 1-based column (UTF-16 code units) where the line's first match starts,
   * given when `text` was cut (`maxLineLength`) and the pattern can place
   * its match (literal patterns).
   */
  column?: number;
  /** `true` when `text` was cut to `maxLineLength` (only with that option). */
  clipped?: boolean;
  /**
   * `true` on an entry that is not a match but a file left out because it
   * looks binary (only with `skipBinary`); its `line` is `0`, its `text` `""`.
   */
  binary?: boolean;
}

/**
 * The `workspace.fs` surface (spec 01 §3): a POSIX-flavoured filesystem on
 * SQL storage. Paths are absolute and canonicalised lexically first
 * (spec 01 §2.1); every method returns a promise and reports every failure as
 * a rejection, never a synchronous throw: a {@link WorkspaceFsError} with a
 * POSIX `code`, the `syscall` (the method name) and the canonical `path`, or a
 * plain `TypeError` for options of the wrong type. The codes below are listed
 * in check order, as in docs/filesystem.md; `EROFS` means the path overlaps a
 * read-only mount (spec 01 §6.3); `ELOOP` means more than 40 link expansions.
 * The methods are listed once more, with their span attributes, in
 * `FS_METHODS` (`fs/methods.ts`), which the RPC stub and client are built from.
 */
export interface WorkspaceFilesystem {
  /**
   * The whole file as a lazy `ReadableStream` of bytes, read one stored chunk
   * (≤ 512 KiB) per pull; a snapshot, so later writes cannot tear it
   * (spec 01 §3.3). A final link is followed.
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing, dangling link, or a file mid-path · `ELOOP` > 40 links · `EISDIR` a directory (`/` too) · `EIO` a stored chunk is missing.
   */
  readFile(path: string): Promise<ReadableStream<Uint8Array>>;
  /**
   * The whole file as a string, decoded as non-fatal UTF-8 (bad bytes become
   * U+FFFD, a leading BOM is dropped; spec 01 §3.3). A final link is followed.
   * @throws WorkspaceFsError `EINVAL` bad path or an encoding other than `"utf8"` · `ENOENT` missing, dangling link, or a file mid-path · `ELOOP` > 40 links · `EISDIR` a directory · `EIO` a stored chunk is missing.
   */
  readFile(path: string, encoding: "utf8"): Promise<string>;
  /**
   * A byte window of the file as a lazy `ReadableStream`: `byteOffset`
   * (default `0`) and `byteLength` (default: the rest) are in **bytes** and
   * clamped to the file, so an offset past the end gives an empty stream;
   * only the chunks overlapping the window are read (spec 01 §3.3).
   * @throws WorkspaceFsError `EINVAL` `byteOffset`/`byteLength` not a non-negative safe integer, or a bad path · `ENOENT` missing, dangling link, or a file mid-path · `ELOOP` > 40 links · `EISDIR` a directory · `EIO` a stored chunk is missing.
   */
  readFile(
    path: string,
    options: ReadFileOptions & {
      /** Omitted (or `undefined`): the result is a byte stream. Default: omitted. */
      encoding?: undefined;
    },
  ): Promise<ReadableStream<Uint8Array>>;
  /**
   * A byte window of the file, decoded as non-fatal UTF-8: `byteOffset`
   * (default `0`) and `byteLength` (default: the rest) count **bytes**, not
   * characters, and are clamped to the file (spec 01 §3.3). Only the file's
   * leading BOM (a window from byte 0) is dropped; a U+FEFF that starts a
   * later window is kept, as in Node.
   * @throws WorkspaceFsError `EINVAL` bad `byteOffset`/`byteLength` or path · `ENOENT` missing, dangling link, or a file mid-path · `ELOOP` > 40 links · `EISDIR` a directory · `EIO` a stored chunk is missing.
   */
  readFile(path: string, options: ReadFileOptions & { encoding: "utf8" }): Promise<string>;
  /**
   * A byte window of the file: a string when `options.encoding` is `"utf8"`,
   * else a `ReadableStream` of bytes; offsets in bytes, defaults `0` and the
   * rest of the file, clamped (spec 01 §3.3).
   * @throws WorkspaceFsError `EINVAL` bad options or path · `ENOENT` missing, dangling link, or a file mid-path · `ELOOP` > 40 links · `EISDIR` a directory · `EIO` a stored chunk is missing.
   */
  readFile(path: string, options: ReadFileOptions): Promise<string | ReadableStream<Uint8Array>>;
  /**
   * Creates or replaces the whole file (spec 01 §3.3). `content` is a string
   * (written as UTF-8), bytes (any `ArrayBufferView`, as its raw bytes), or a
   * byte stream consumed incrementally (about one 512 KiB chunk in memory).
   * Parents are not created. The mode is `options.mode ?? 0o644` —
   * overwriting without `mode` resets it to `0o644`; `exclusive` defaults to
   * `false`. A final link is written through. Atomic: on any failure,
   * including a stream that errors, the old file is untouched. A stream the
   * call refuses or stops reading is cancelled with its error (a read stream
   * of another file then ends its chunk leases; run 40, fixer f40fs).
   * @throws WorkspaceFsError `EINVAL` bad path or `mode` · `EISDIR` `/` · `EROFS` a read-only mount at the path or where a link leads · `ENOENT` missing parent · `ENOTDIR` a file in the parent chain · `ELOOP` > 40 links · `EEXIST` `exclusive` and an entry exists · `EISDIR` the target is a directory · `ESTALE` `ifMatch` and the content differs or changed before the commit (`ENOENT` when no file is there).
   * @throws TypeError when `options` is not an object or `exclusive` not a boolean; a failing stream rejects with its own error.
   */
  writeFile(
    path: string,
    content: string | Uint8Array | ReadableStream<Uint8Array>,
    options?: WriteFileOptions,
  ): Promise<void>;
  /**
   * Adds `content` at the end of the file (a final link followed), creating
   * it — or a dangling link's target — with `options.mode ?? 0o644` when
   * missing; parents are not created. `content` is a string (as UTF-8),
   * bytes, or a byte stream read once, about one 512 KiB chunk in memory.
   * Costs O(appended bytes + one chunk), whatever the file's size: the
   * file's full 512 KiB chunks are kept, only its last partial chunk is cut
   * again with the new bytes (spec 01 §4.2–4.4). One transaction: the file
   * is its old bytes or its old bytes followed by all of `content`, never a
   * mix; it is stamped as a write (size, mtime, revision, change log), its
   * mode kept. An append whose file another writer changes before the commit
   * starts again from the file as it then is (so concurrent appends all
   * land), at most 10 tries. Appending nothing to an existing file changes
   * nothing, as write(2) of 0 bytes. Node's `fs.promises.appendFile` without
   * its encoding/flag options; not in 0.8.0 (issue 20, run 36, fixer AP).
   * A stream the call refuses or stops reading is cancelled with its error,
   * as `writeFile` cancels it (run 40, fixer f40fs).
   * @throws WorkspaceFsError `EINVAL` bad path or `mode` · `EISDIR` `/` or a directory · `EROFS` a read-only mount at the path or where a link leads · `ENOENT` missing parent · `ENOTDIR` a file in the parent chain · `ELOOP` > 40 links · `ESTALE` `ifInode` and the path leads elsewhere or nowhere, or the file kept changing through 10 tries (nothing appended) · `EIO` a stored chunk is missing.
   * @throws TypeError when `options` is not an object, `ifInode` not an inode number, or `content` not a string, bytes or a byte stream; a failing stream rejects with its own error (nothing appended).
   */
  appendFile(path: string, content: string | Uint8Array | ReadableStream<Uint8Array>, options?: AppendFileOptions): Promise<void>;
  /**
   * Creates a directory with mode `options.mode ?? 0o755`, in one
   * transaction (spec 01 §3.3, POSIX `mkdir`). With `recursive` (default
   * `false`) missing ancestors are created (`0o755`) and an existing
   * directory at the leaf is a success. Links in the parent chain are
   * followed; a link at the leaf is not. A call that creates nothing is not
   * refused by a read-only mount (issue 20, run 33, fixer MB), as Linux's
   * mkdir(2) answers `EEXIST` before `EROFS`: an existing leaf on, in or above
   * a mount is `EEXIST`, or with `recursive` and a directory a success.
   * @throws WorkspaceFsError `EINVAL` bad path or `mode` · `EEXIST` `/` · `EROFS` a directory to create at, under or above a read-only mount's root, or where a link leads · `ENOENT` missing parent without `recursive`, or a dangling link in the chain · `ENOTDIR` a file in the chain · `ELOOP` > 40 links · `EEXIST` the leaf exists (unless `recursive` and a directory).
   * @throws TypeError when `options` is not an object or `recursive` not a boolean.
   */
  mkdir(path: string, options?: MkdirOptions): Promise<void>;
  /**
   * The immediate children of a directory (a final link is followed), ordered
   * by name in UTF-8 byte order, each describing the child itself; paged in
   * SQL with `offset` (default `0`) and `limit` (default: all)
   * (spec 01 §3.3, §3.5).
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing · `ELOOP` > 40 links · `ENOTDIR` not a directory.
   * @throws TypeError when `limit`/`offset` is not a non-negative safe integer.
   */
  readdir(path: string, options?: ReaddirOptions): Promise<WorkspaceDirentResult[]>;
  /**
   * Metadata of the entry, following a final link (spec 01 §3.2, POSIX
   * `stat`): permission bits, `mtime` in ms, `size` in bytes (`0` for a
   * directory), and a stable `inode`.
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing, a file mid-path, or a dangling link · `ELOOP` > 40 links.
   */
  stat(path: string): Promise<WorkspaceStatResult>;
  /**
   * Metadata of the entry itself: a final link is reported as the link (mode
   * `0o777`, `size` = target length in UTF-16 units), not followed
   * (spec 01 §3.2, POSIX `lstat`).
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing or a file mid-path · `ELOOP` > 40 links.
   */
  lstat(path: string): Promise<WorkspaceStatResult>;
  /**
   * Removes a file, a link (never its target) or an empty directory
   * (spec 01 §3.3). `recursive` (default `false`) removes a non-empty
   * directory with its subtree in one transaction; `force` (default `false`)
   * makes a missing path a success, but bypasses no other error.
   * @throws WorkspaceFsError `EINVAL` bad path · `EPERM` `/` (even with both flags) · `EROFS` a read-only mount at, below or above the path · `ELOOP` > 40 links · `ENOENT` missing, unless `force` · `ENOTEMPTY` a non-empty directory without `recursive`.
   * @throws TypeError when `options` is not an object or a flag not a boolean.
   */
  rm(path: string, options?: RmOptions): Promise<void>;
  /**
   * Moves a file, directory or link (the link itself) in one transaction,
   * replacing a destination of a compatible kind: file or link over file or
   * link, directory over an empty directory (spec 01 §3.3, POSIX `rename`).
   * The same entry at both ends is a no-op; the moved entry keeps its inode
   * and `mtime`.
   * @throws WorkspaceFsError `EINVAL` bad path or `/` at either end · `EROFS` a read-only mount at either end · `ENOENT` source missing, or destination parent missing · `EINVAL` a directory into its own subtree · `EISDIR` a file onto a directory · `ENOTDIR` a directory onto a file · `ENOTEMPTY` onto a non-empty directory.
   */
  rename(oldPath: string, newPath: string): Promise<void>;
  /**
   * Creates a link at `path` holding `target` verbatim (relative or absolute,
   * may dangle), mode `0o777` (spec 01 §2.3, §3.3). The parent chain must be
   * real directories (links there are not followed).
   * @throws WorkspaceFsError `EINVAL` bad path, or a `target` that is not a string or holds NUL · `ENOENT` an empty `target` (as on Linux) · `EEXIST` `/` · `EROFS` a read-only mount · `ENOENT` a parent segment missing · `ENOTDIR` a parent segment is a file or link · `EEXIST` an entry exists at `path`.
   */
  symlink(target: string, path: string): Promise<void>;
  /**
   * The target a link holds, verbatim (spec 01 §3.3, POSIX `readlink`).
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing · `ELOOP` > 40 links · `EINVAL` not a link.
   */
  readlink(path: string): Promise<string>;
  /**
   * Sets the permission bits to `mode & 0o7777` (`0o100755` → `0o755`) and
   * `mtime` to now, following a final link (spec 01 §3.2, POSIX `chmod`).
   * `mode` must be a non-negative safe integer.
   * @throws WorkspaceFsError `EINVAL` bad path or `mode` · `EROFS` a read-only mount at the given path or where its links lead (the mount's root, under it or above it) · `ENOENT` missing or a dangling link · `ELOOP` > 40 links.
   */
  chmod(path: string, mode: number): Promise<void>;
  /**
   * Walks `directory` (a final link is followed; links inside are reported,
   * never descended) depth-first, a directory before its contents, siblings
   * by name, and returns `{ path, type }` for each entry whose path relative
   * to `directory` matches the glob `pattern` (default: everything;
   * spec 01 §3.3, §3.4). `exclude` (default: none) drops entries and prunes
   * excluded directories unread; `offset` (default `0`) and `limit` (default:
   * all) count matches, and the walk stops once the page is full.
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing · `ELOOP` > 40 links · `ENOTDIR` not a directory.
   * @throws TypeError for a bad `limit`/`offset`, `exclude` not an array of strings, or `pattern` not a string.
   */
  find(directory: string, pattern?: string, options?: FindOptions): Promise<WorkspaceFoundEntry[]>;
  /**
   * Absolute paths of every regular file at or under `prefix`, sorted by full
   * path in byte order; segment-aware (`/notes` never yields `/notes-old/x`),
   * following no link. A missing prefix, or one through a file or a link,
   * gives `[]` (spec 01 §3.3).
   * @throws WorkspaceFsError `EINVAL` bad path (the only error).
   */
  ls(prefix: string): Promise<string[]>;
  /**
   * Searches a file, or every regular file `find(path, include, { exclude })`
   * yields, line by line (spec 01 §3.3): literal and case-sensitive by
   * default, `regex: true` for JavaScript regex source, `ignoreCase` for the
   * `i` flag. A regex is matched in linear time (RE2 semantics: no
   * backreferences or lookaround; V8 runs only patterns a static analysis
   * proves cannot backtrack badly). Matches come in file discovery order, then line order; lines
   * are numbered from 1. `context` (default `0`) adds up to that many lines
   * around each match; `offset` (default `0`) and `limit` (default: all)
   * count matching lines across files, and the scan stops once the page is full.
   * @throws WorkspaceFsError `EINVAL` bad path · `ENOENT` missing · `ELOOP` > 40 links.
   * @throws TypeError for a bad `context`/`limit`/`offset`, an `include` that is neither a glob nor a list of globs, or an
   *   invalid regular expression (`Invalid regular expression: …`; a pattern past 200 characters is quoted by its start and length),
   *   including one a linear-time engine cannot run (`… backreference \1 is not supported (grep uses a linear-time engine: …)`)
   *   or whose RE2 program is over 1,000 instructions (`… too large for grep's linear-time engine (program size N, at most 1000) …`).
   * @throws RangeError `grep stopped: …` when one call's RE2 work (program size × characters scanned) passes 300,000,000.
   */
  grep(pattern: string, path: string, options?: GrepOptions): Promise<WorkspaceGrepMatch[]>;
}
