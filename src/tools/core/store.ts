/**
 * The store the file tools run over (spec 03 §5.1–5.2): a small seam, like
 * pi's "operations", so read, write, edit and delete work over any
 * filesystem. {@link WorkspaceFileStore} adapts `workspace.fs`.
 *
 * @module
 */
import { isWorkspaceFsErrorCode, WorkspaceFsError } from "../../fs/errors.js";
import type { WorkspaceFilesystem } from "../../fs/types.js";
import { concatBytes } from "../../util/bytes.js";
import { directoryForm, dirname, normalizePath } from "../../util/path.js";
import { nonNegativeInteger } from "../../util/validate.js";
import { confinedTarget } from "./root.js";

/** What the file tools need to know about a regular file. */
export interface FileStat {
  /** Size in bytes. */
  size: number;
  /** Modification time, ms since the epoch. */
  mtime: number;
  /** Permission bits (e.g. `0o644`), when the store has them. */
  mode?: number;
  /**
   * The file's inode number (a final link followed), when the store has one:
   * with `size` and `mtime`, what a guarded write binds itself to with
   * `write`'s `ifUnmodified` for a file above the ledger's hash limit
   * (issue 20, run 33, fixer WG).
   */
  inode?: number;
}

/** Read and write access to files for the read, write and edit tools. */
export interface FileStore {
  /**
   * Mutations (write, edit, delete) on stores with the same identity share
   * locks. Stores that can reach the same files should share one. Default:
   * the store object itself.
   */
  readonly lockIdentity?: object;
  /**
   * The key a tool's path is locked under: equal keys (and, for subtree
   * locks, nested ones) conflict. Default: the path normalised lexically.
   * {@link WorkspaceFileStore} under a tool set's `root` resolves relative
   * paths against the root, so `f.txt` and `/root/f.txt` share a lock.
   */
  lockPath?(path: string): string;
  /** The file's stat, or `null` when the path is missing or is not a regular file. */
  stat(path: string): Promise<FileStat | null>;
  /**
   * Streams bytes `[byteOffset, byteOffset + byteLength)` without holding the
   * whole file. Yields nothing at or past the end; otherwise exactly
   * `min(byteLength ?? size - byteOffset, size - byteOffset)` bytes. Throws
   * when the path is missing.
   */
  readChunks(path: string, byteOffset?: number, byteLength?: number): AsyncIterable<Uint8Array>;
  /** The whole file, or `null` when missing. Only for callers that bound the size first (edit). */
  readAll(path: string): Promise<Uint8Array | null>;
  /** Writes the whole file, creating missing parents. */
  write(
    path: string,
    content: Uint8Array,
    options?: {
      /** Permission bits for the file (write and edit pass an existing file's mode, to keep it). Default: the store's (`0o644` on `workspace.fs`, an overwrite included). */
      mode?: number;
      /**
       * Write only if the file still has this content (SHA-256, 64 lowercase
       * hex digits), else reject with an error whose `code` is `"ESTALE"`
       * (`ENOENT` when it is gone) and change nothing: edit passes the hash of
       * what it read, so a change by another writer in between (another
       * client, another Workspace on the same storage) is never overwritten.
       * A store that ignores it gives edit no protection across writers.
       * Default: unconditional.
       */
      ifMatch?: string;
      /**
       * Write only if the path still leads to the file with this `inode`, and
       * it still has this `size` (bytes) and `mtime` (ms) — `fs.writeFile`'s
       * `ifUnmodified` — else reject with `code` `"ESTALE"` (`ENOENT` when it
       * is gone) and change nothing. A guarded write passes it for a file
       * above the ledger's hash limit (no SHA-256 to pass as `ifMatch`), from
       * the stat it checked fresh. A store that ignores it gives such writes
       * no protection across writers. Default: unconditional (issue 20, run 33, fixer WG).
       */
      ifUnmodified?: { inode: number; size: number; mtime: number };
    },
  ): Promise<void>;
  /**
   * One page of a directory's entries in name order, like `workspace.fs.readdir`
   * (throws `ENOENT` for a missing directory). Used only to name a sibling
   * whose name differs in Unicode normalisation alone (a not-found hint, or
   * write refusing to create such a twin). Default: absent — no hints, and
   * write creates any name.
   */
  readdir?(
    path: string,
    options: {
      /** Entries to return at most. */
      limit: number;
      /** Entries to skip. */
      offset: number;
    },
  ): Promise<ReadonlyArray<{ name: string; isDirectory: boolean; isSymbolicLink: boolean }>>;
  /**
   * The inode number of the entry at `path` itself (a link is not
   * followed), or `null` when it is missing; inodes grow with creation
   * order. With `readdir` and `remove`, lets write settle two writers that
   * created spellings of one name in different Unicode normalisations at
   * once: the later one takes its file back. Default: absent (no such check).
   */
  inode?(path: string): Promise<number | null>;
}

/** A {@link FileStore} that can also remove paths (the delete tool). */
export interface MutableFileStore extends FileStore {
  /** Removes a path. */
  remove(
    path: string,
    options?: {
      /** `true` removes a directory and everything under it. Default `false` (a non-empty directory fails `ENOTEMPTY`). */
      recursive?: boolean;
      /** `true` makes a missing path succeed. Default `false` (a missing path fails `ENOENT`). */
      force?: boolean;
    },
  ): Promise<void>;
}

/** The `workspace.fs` methods the file tools call. */
export type WorkspaceFsLike = Pick<
  WorkspaceFilesystem,
  "stat" | "readFile" | "writeFile" | "mkdir" | "rm" | "find" | "grep" | "readdir"
>;

/**
 * Anything with a `fs` shaped like `workspace.fs`: a `Workspace`, a client
 * from `getWorkspace()`, or a structural equivalent (spec 03 §2.1).
 */
export interface WorkspaceLike {
  /** `workspace.fs` (spec 01 §3), or any object with its `stat`, `readFile`, `writeFile`, `mkdir`, `rm`, `find`, `grep` and `readdir`. */
  readonly fs: WorkspaceFsLike;
}

/**
 * True when a store or `workspace.fs` call failed because the path is
 * missing: `code === "ENOENT"`, or — for a client whose errors arrive without
 * their code — a message naming ENOENT or "no such".
 */
export function isNotFound(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  if ((err as { code?: unknown }).code === "ENOENT") return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === "string" && /ENOENT|no such/i.test(message);
}

function checkByteArg(name: string, value: number | undefined): void {
  if (value !== undefined) nonNegativeInteger(value, `readChunks: ${name}`);
}

/**
 * A {@link MutableFileStore} over `workspace.fs` (spec 03 §5.2).
 *
 * Every store built over the same `workspace.fs` object has that object as
 * its `lockIdentity`, so mutations from separate tool sets (even from
 * different adapters) serialise on the same locks.
 *
 * @example
 * ```ts
 * const store = new WorkspaceFileStore(workspace);
 * const read = createReadTool({ store });
 * ```
 */
export class WorkspaceFileStore implements MutableFileStore {
  readonly #fs: WorkspaceFsLike;

  /** @param workspace any object with `fs.stat/readFile/writeFile/mkdir/rm`. */
  constructor(workspace: { readonly fs: Pick<WorkspaceFilesystem, "stat" | "readFile" | "writeFile" | "mkdir" | "rm"> }) {
    if (!workspace || typeof workspace !== "object" || !workspace.fs) {
      throw new TypeError("new WorkspaceFileStore(workspace) needs an object with a `fs` (a Workspace or a getWorkspace() client)");
    }
    this.#fs = workspace.fs as WorkspaceFsLike;
  }

  /** `workspace.fs` itself: one identity per filesystem (for a tool set's confined view under `root`, the filesystem behind it). */
  get lockIdentity(): object {
    return confinedTarget(this.#fs)?.fs ?? this.#fs;
  }

  /** The absolute path `path` names: resolved against the root of a confined view, lexically (spec 03 §2.4). */
  lockPath(path: string): string {
    return normalizePath(path, confinedTarget(this.#fs)?.root ?? "/");
  }

  /** `fs.lstat(path).inode`; `null` for a missing path, or when `fs` has no `lstat`. Other errors pass on. */
  async inode(path: string): Promise<number | null> {
    const fs = this.#fs as Partial<Pick<WorkspaceFilesystem, "lstat">>;
    if (typeof fs.lstat !== "function") return null;
    try {
      return (await fs.lstat(path)).inode;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * `{size, mtime, mode, inode}` for a regular file (a final link followed; `inode` added in run 33, fixer WG); `null` for a directory or a missing path. Other errors pass on.
   *
   * @throws WorkspaceFsError `ENOTDIR` (`stat`) for a path in directory form (`f.txt/`, `f.txt/.`) that leads to a non-directory, as stat(2).
   */
  async stat(path: string): Promise<FileStat | null> {
    try {
      const st = await this.#fs.stat(path);
      if (!st.isDirectory && directoryForm(path) !== null) throw new WorkspaceFsError("ENOTDIR", "stat", path);
      if (!st.isFile) return null;
      const stat: FileStat = { size: st.size, mtime: st.mtime, mode: st.mode };
      if (typeof st.inode === "number") stat.inode = st.inode; // run 33, fixer WG: for ifUnmodified
      return stat;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Opens one ranged `fs.readFile` stream and yields its non-empty chunks; cancels it if the consumer stops early. */
  async *readChunks(path: string, byteOffset = 0, byteLength?: number): AsyncIterable<Uint8Array> {
    checkByteArg("byteOffset", byteOffset);
    checkByteArg("byteLength", byteLength);
    if (byteLength === 0) return;
    await this.#checkDirectoryForm(path, "readFile");
    const options = byteLength === undefined ? { byteOffset } : { byteOffset, byteLength };
    const stream = (await this.#fs.readFile(path, options)) as ReadableStream<Uint8Array>;
    const reader = stream.getReader();
    let done = false;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) {
          done = true;
          return;
        }
        if (next.value && next.value.byteLength > 0) yield next.value;
      }
    } finally {
      if (!done) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }

  /** The whole file, or `null` when it is missing. */
  async readAll(path: string): Promise<Uint8Array | null> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for await (const chunk of this.readChunks(path)) {
        chunks.push(chunk);
        total += chunk.byteLength;
      }
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    return concatBytes(chunks, total);
  }

  /**
   * `mkdir(parent, {recursive: true})` unless the parent is `/` or the write
   * is conditional (`ifMatch`, `ifUnmodified`: the file must exist, so no
   * parent is made — one removed meanwhile is `ENOENT` and nothing is
   * created; run 33, fixer WG), then `writeFile`. A parent that is a link to a directory is accepted (the VFS's
   * mkdir reports EEXIST for any link at the leaf, spec 01 §3); one that is
   * not a directory fails with `ENOTDIR` (`writeFile`, the path as given), a
   * link that leads nowhere with `stat`'s code (`ENOENT`, `ELOOP`); a path
   * in directory form (`f/`, `f/.`) fails before anything is created:
   * `ENOTDIR` when a non-directory is there (`f.txt/` of a file, as the
   * file tools answer alike), else `EISDIR`.
   * Under a tool set's `root`, a relative path's parent is taken from
   * {@link lockPath} (`notes.md`'s parent is the root, created when missing);
   * the root itself (`.`, the root's path) is `EISDIR` (`writeFile`, the
   * root) and `""` is `EINVAL`, never a refusal of the root's parent.
   */
  async write(
    path: string,
    content: Uint8Array,
    options?: {
      /** Permission bits for the file. Default: `fs.writeFile`'s, `0o644` (an overwrite included). */
      mode?: number;
      /** `fs.writeFile`'s `ifMatch`: write only if the file still has content with this SHA-256 (`ESTALE` otherwise). Default: unconditional. */
      ifMatch?: string;
      /** `fs.writeFile`'s `ifUnmodified`: write only if the path still leads to this inode with this size and mtime (`ESTALE` otherwise). Default: unconditional (issue 20, run 33, fixer WG). */
      ifUnmodified?: { inode: number; size: number; mtime: number };
    },
  ): Promise<void> {
    const target = path.startsWith("/") || !confinedTarget(this.#fs) ? path : this.lockPath(path);
    // The root of a tool set's confined view, however spelled ("", ".", the root itself), is a directory:
    // EISDIR, as open(2) answers — not its parent's mkdir refused as outside. "" names no file: EINVAL.
    const root = confinedTarget(this.#fs)?.root;
    if (root !== undefined && root !== "/" && this.lockPath(path) === root) {
      if (path === "") throw new WorkspaceFsError("EINVAL", undefined, undefined, "invalid argument, writeFile: the path is empty; give the path of the file to write.");
      throw new WorkspaceFsError("EISDIR", "writeFile", root);
    }
    // A path in directory form names a directory: nothing is created. A file there is ENOTDIR (`f.txt/` is not
    // a directory, whichever tool is asked); a directory or nothing is EISDIR, as open(2) with O_CREAT.
    if (directoryForm(path) !== null && normalizePath(target) !== "/") {
      await this.#checkDirectoryForm(path, "writeFile");
      throw new WorkspaceFsError("EISDIR", "writeFile", normalizePath(target));
    }
    const parent = dirname(target);
    // A conditional write (ifMatch, ifUnmodified) lands only in an existing file, so its parent exists: creating
    // parents would recreate, empty, a directory another writer removed meanwhile, for a write then refused
    // ENOENT (issue 20, run 33, fixer WG). Nothing is created; writeFile answers ENOENT.
    const conditional = options?.ifMatch !== undefined || options?.ifUnmodified !== undefined;
    if (parent !== "/" && !conditional) {
      try {
        await this.#fs.mkdir(parent, { recursive: true });
      } catch (error) {
        if ((error as { code?: unknown })?.code !== "EEXIST") throw error;
        // The parent is there: a directory or a link to one (accepted), or not a directory — ENOTDIR, as
        // POSIX open(2) says, rather than mkdir's EEXIST; a link leading nowhere is stat's own code (ENOENT, ELOOP).
        let stat: Awaited<ReturnType<WorkspaceFsLike["stat"]>>;
        try {
          stat = await this.#fs.stat(parent);
        } catch (statError) {
          const code = (statError as { code?: unknown })?.code;
          throw isWorkspaceFsErrorCode(code) ? new WorkspaceFsError(code, "writeFile", path) : error;
        }
        if (!stat.isDirectory) throw new WorkspaceFsError("ENOTDIR", "writeFile", path);
      }
    }
    const writeOptions: { mode?: number; ifMatch?: string; ifUnmodified?: { inode: number; size: number; mtime: number } } = {};
    if (options?.mode !== undefined) writeOptions.mode = options.mode;
    if (options?.ifMatch !== undefined) writeOptions.ifMatch = options.ifMatch;
    if (options?.ifUnmodified !== undefined) writeOptions.ifUnmodified = options.ifUnmodified; // run 33, fixer WG
    await this.#fs.writeFile(path, content, Object.keys(writeOptions).length === 0 ? undefined : writeOptions);
  }

  /**
   * `fs.readdir(path, options)`: one page of entries in name order.
   *
   * @throws WorkspaceFsError `ENOENT` for a missing directory, `ENOTDIR` for a file; `TypeError` when `fs` has no `readdir`.
   */
  async readdir(
    path: string,
    options: {
      /** Entries to return at most. */
      limit: number;
      /** Entries to skip. */
      offset: number;
    },
  ): Promise<ReadonlyArray<{ name: string; isDirectory: boolean; isSymbolicLink: boolean }>> {
    if (typeof this.#fs.readdir !== "function") throw new TypeError("workspace.fs has no readdir");
    return this.#fs.readdir(path, options);
  }

  /**
   * `fs.rm(path, options)`.
   *
   * @throws WorkspaceFsError `ENOENT` for a missing path (unless `force`),
   *   `ENOTEMPTY` for a non-empty directory (unless `recursive`), `EROFS`
   *   in a read-only mount (spec 01 §3); `ENOTDIR` for a path in directory
   *   form (`f.txt/`) that leads to a non-directory, as unlink(2); `EPERM`
   *   for the root of a tool set's confined view itself (as for `/`).
   */
  async remove(
    path: string,
    options?: {
      /** `true` removes a directory and everything under it. Default `false`. */
      recursive?: boolean;
      /** `true` makes a missing path succeed. Default `false`. */
      force?: boolean;
    },
  ): Promise<void> {
    const root = confinedTarget(this.#fs)?.root;
    if (root !== undefined && root !== "/" && this.lockPath(path) === root) {
      throw new WorkspaceFsError("EPERM", "rm", root, `operation not permitted, the tool set's root cannot be deleted (delete the entries inside it instead)`);
    }
    await this.#checkDirectoryForm(path, "rm");
    await this.#fs.rm(path, options);
  }

  /**
   * A path in directory form (`f.txt/`, `f.txt/.`) must lead, links
   * followed, to a directory: the filesystem drops the tail, so without this
   * `f.txt/` would read, replace or remove the file `f.txt`. A non-directory
   * there is `ENOTDIR` (`syscall`, the path as given); nothing there is left
   * for the call itself to report. Costs one `stat`, only for such a path.
   */
  async #checkDirectoryForm(path: string, syscall: string): Promise<void> {
    if (directoryForm(path) === null) return;
    let isDirectory: boolean;
    try {
      isDirectory = (await this.#fs.stat(path)).isDirectory;
    } catch (err) {
      if (isNotFound(err) || (err as { code?: unknown } | null)?.code === "ENOTDIR") return;
      throw err;
    }
    if (!isDirectory) throw new WorkspaceFsError("ENOTDIR", syscall, path);
  }
}
