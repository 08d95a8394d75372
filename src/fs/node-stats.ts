/**
 * node:fs `Stats` of a Workspace entry, for the layers that present the
 * Workspace to node:fs-style code (the git bridge, {@link SQLiteWorkspaceProvider}).
 *
 * @module
 */
import type { WorkspaceFilesystem, WorkspaceStatResult } from "./types.js";

/** File-type bits of `st_mode` (POSIX `<sys/stat.h>`). */
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;
export const S_IFLNK = 0o120000;

/**
 * The `is…()` tests node:fs `Stats` and `Dirent` share, from the entry's
 * file-type bits ({@link S_IFREG}, {@link S_IFDIR}, {@link S_IFLNK}).
 */
export abstract class WorkspaceEntryType {
  readonly #type: number;
  /** @param type The file-type bits. */
  protected constructor(type: number) {
    this.#type = type;
  }
  /** A regular file. */
  isFile(): boolean {
    return this.#type === S_IFREG;
  }
  /** A directory. */
  isDirectory(): boolean {
    return this.#type === S_IFDIR;
  }
  /** A symbolic link (only from `lstat`). */
  isSymbolicLink(): boolean {
    return this.#type === S_IFLNK;
  }
  /** Always `false`: the Workspace has no devices, FIFOs or sockets. */
  isBlockDevice(): boolean {
    return false;
  }
  /** Always `false`. */
  isCharacterDevice(): boolean {
    return false;
  }
  /** Always `false`. */
  isFIFO(): boolean {
    return false;
  }
  /** Always `false`. */
  isSocket(): boolean {
    return false;
  }
}

/**
 * A node:fs `Stats` object for one Workspace entry. The Workspace keeps one
 * time per entry, its `mtime`; `atime`, `ctime` and `birthtime` report it
 * too. It has no hard links (`nlink` is `1`), owners (`uid`/`gid` `0`) or
 * devices (`dev`/`rdev` `0`).
 */
export class WorkspaceStats extends WorkspaceEntryType {
  /** Always `0`: the Workspace is one device. */
  readonly dev = 0;
  /** The Workspace inode (stable across overwrite and rename, never reused). */
  readonly ino: number;
  /** File-type bits and permission bits, e.g. `0o100644`, `0o100755`, `0o120777`, `0o40755`. */
  readonly mode: number;
  /** Always `1`: the Workspace has no hard links. */
  readonly nlink = 1;
  /** Always `0`. */
  readonly uid = 0;
  /** Always `0`. */
  readonly gid = 0;
  /** Always `0`. */
  readonly rdev = 0;
  /** Bytes (file), `0` (directory), or bytes of the UTF-8 target (link). */
  readonly size: number;
  /** `4096`, a usual block size. */
  readonly blksize = 4096;
  /** 512-byte blocks: `ceil(size / 512)`. */
  readonly blocks: number;
  /** Modification time, ms since the epoch. */
  readonly mtimeMs: number;
  /** Same as `mtimeMs`: the Workspace records no access time. */
  readonly atimeMs: number;
  /** Same as `mtimeMs`: the Workspace records no separate change time. */
  readonly ctimeMs: number;
  /** Same as `mtimeMs`: the Workspace records no creation time. */
  readonly birthtimeMs: number;
  /** `mtimeMs` as a Date. */
  readonly mtime: Date;
  /** `atimeMs` as a Date. */
  readonly atime: Date;
  /** `ctimeMs` as a Date. */
  readonly ctime: Date;
  /** `birthtimeMs` as a Date. */
  readonly birthtime: Date;

  /**
   * @param stat What `workspace.fs.stat`/`lstat` returned.
   * @param size The size to report (default `stat.size`; a link's is its target's UTF-8 bytes, see {@link statsOf}).
   */
  constructor(stat: WorkspaceStatResult, size = stat.size) {
    const type = stat.isSymbolicLink ? S_IFLNK : stat.isDirectory ? S_IFDIR : S_IFREG;
    super(type);
    this.ino = stat.inode;
    this.mode = type | (stat.mode & 0o7777);
    this.size = size;
    this.blocks = Math.ceil(size / 512);
    this.mtimeMs = this.atimeMs = this.ctimeMs = this.birthtimeMs = stat.mtime;
    this.mtime = new Date(stat.mtime);
    this.atime = new Date(stat.mtime);
    this.ctime = new Date(stat.mtime);
    this.birthtime = new Date(stat.mtime);
  }
}

const encoder = new TextEncoder();

/** Stats of `path` from `workspace.fs`; a link's `size` counts the UTF-8 bytes of its target, as on disk. */
export async function statsOf(fs: Pick<WorkspaceFilesystem, "stat" | "lstat" | "readlink">, path: string, follow: boolean): Promise<WorkspaceStats> {
  const stat = follow ? await fs.stat(path) : await fs.lstat(path);
  if (!stat.isSymbolicLink) return new WorkspaceStats(stat);
  const target = await fs.readlink(path);
  return new WorkspaceStats(stat, encoder.encode(target).byteLength);
}
