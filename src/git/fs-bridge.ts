/**
 * The bridge from a Workspace's filesystem to the node:fs-style
 * `{ promises }` object isomorphic-git reads and writes through (spec 04
 * §2.1; issue 15: "the fs bridge … is ours — over `workspace.fs`,
 * streaming, with no copy of the tree in memory").
 *
 * Every call goes straight to `ws.fs`; nothing is cached, so the Workspace
 * (and other writers) always see the repository as git left it. A read
 * gathers the file's stream into one buffer, because isomorphic-git needs
 * whole buffers; no other copy of any file is kept. Calls are paced: every
 * {@link GIT_PACE_SLICE_MS} ms or {@link GIT_PACE_CALLS} calls, the next one
 * waits a moment on a timer, so a long clone or checkout lets other
 * requests to the Durable Object in.
 *
 * Semantics follow Node's `fs.promises` on Linux, as isomorphic-git expects:
 * - errors are the Workspace's `WorkspaceFsError`s (an `Error` with a POSIX
 *   `code`: `ENOENT`, `ENOTDIR`, `EEXIST`, `ENOTEMPTY`, `EISDIR`, …);
 *   isomorphic-git branches on those codes;
 * - `mode` options pass through a umask of `0o022`, as a process with
 *   the usual umask sees: isomorphic-git writes executables with
 *   `{ mode: 0o777 }`, which lands as `0o755`; files default to `0o644`,
 *   directories to `0o755`;
 * - `stat`/`lstat` give `mode` with the file-type bits (`0o100644`,
 *   `0o100755`, `0o120777`, `0o40755`), `ino` = the Workspace inode,
 *   `mtimeMs`/`ctimeMs` = the Workspace `mtime` (it keeps no ctime), and
 *   `dev`/`uid`/`gid` = `0`.
 *
 * Paths are absolute Workspace paths (isomorphic-git joins them onto `dir`,
 * which the client resolves to an absolute path first).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { WorkspaceFsError } from "../fs/errors.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { GitFsAdapter, WorkspaceLike } from "./types.js";
import { decodeUtf8, readStreamBytes } from "../util/bytes.js";
import { WorkspaceStats, statsOf } from "../fs/node-stats.js";

/** The umask applied to `mode` options, as a Node process usually has. */
export const GIT_FS_UMASK = 0o022;

/**
 * After this long of back-to-back bridge calls (ms, by the clock), the
 * bridge lets the event loop run for {@link GIT_PACE_GAP_MS} before the next
 * call. workerd hands a Durable Object another request (another client's
 * call, an alarm, `ctx.abort()`) only when the object is idle, and a long
 * checkout or clone is one unbroken run of fs calls otherwise (issue 20,
 * fifth attack run, O3: another client waited 46.7 s for a deep clone).
 */
export const GIT_PACE_SLICE_MS = 50;
/**
 * …or after this many calls, whichever comes first: workerd's clock moves
 * only at I/O, and the Workspace's SQLite calls are not I/O, so inside a
 * Durable Object the clock alone may never mark a slice as long.
 */
export const GIT_PACE_CALLS = 1_000;
/** How long the bridge leaves the event loop free after a busy slice (ms). */
export const GIT_PACE_GAP_MS = 1;

/** `EncodingOption` as node:fs takes it: a string, or `{ encoding }`. */
type EncodingOption = string | { encoding?: string | null; mode?: number; flag?: string } | null | undefined;

/**
 * Node-style `Stats` of one Workspace entry, as isomorphic-git reads them
 * (`normalizeStats`: `ctimeMs`, `mtimeMs`, `dev`, `ino`, `mode`, `uid`,
 * `gid`, `size`; and the `is…()` methods). The same class as the provider's.
 */
export { WorkspaceStats as GitFsStats };

/** The `{ promises }` object {@link createWorkspaceFsBridge} returns. */
export interface WorkspaceGitFs extends GitFsAdapter {
  promises: WorkspaceGitFsPromises;
}

/** node:fs/promises-style methods over `workspace.fs`. Each rejects with a `WorkspaceFsError`. */
export interface WorkspaceGitFsPromises {
  /**
   * The whole file: a `Buffer` (node:buffer) over its bytes, or a string when the encoding (`"utf8"`, or
   * `{ encoding: "utf8" }`) is given; decoded as non-fatal UTF-8 keeping a
   * BOM, as Node does. A final link is followed.
   * @throws WorkspaceFsError `ENOENT` · `ENOTDIR` · `EISDIR` · `ELOOP` · `EINVAL` (an encoding other than UTF-8).
   */
  readFile(path: string, options?: EncodingOption): Promise<Uint8Array | string>;
  /**
   * Creates or replaces a file with `data` (a string is written as UTF-8).
   * `mode` (default `0o666`) is masked with the umask (`0o022`).
   * @throws WorkspaceFsError `ENOENT` missing parent · `ENOTDIR` · `EISDIR` · `EROFS` · `EINVAL`.
   */
  writeFile(path: string, data: string | ArrayBufferView | ArrayBuffer, options?: EncodingOption): Promise<void>;
  /**
   * Removes a file or link (not a directory).
   * @throws WorkspaceFsError `ENOENT` · `ENOTDIR` · `EISDIR` a directory · `EROFS`.
   */
  unlink(path: string): Promise<void>;
  /**
   * The names of a directory's children, in byte order.
   * @throws WorkspaceFsError `ENOENT` · `ENOTDIR` · `ELOOP`.
   */
  readdir(path: string, options?: unknown): Promise<string[]>;
  /**
   * Creates one directory (`mode` default `0o777`, masked with the umask);
   * `{ recursive: true }` creates missing parents and accepts an existing
   * directory.
   * @throws WorkspaceFsError `EEXIST` the path exists · `ENOENT` missing parent · `ENOTDIR` · `EROFS`.
   */
  mkdir(path: string, options?: number | { recursive?: boolean; mode?: number }): Promise<void>;
  /**
   * Removes an empty directory.
   * @throws WorkspaceFsError `ENOENT` · `ENOTDIR` not a directory · `ENOTEMPTY` · `EPERM` `/` · `EROFS`.
   */
  rmdir(path: string): Promise<void>;
  /**
   * Removes a file, link or directory; `recursive` (default `false`) for a
   * non-empty directory (in one transaction), `force` (default `false`)
   * makes a missing path a success.
   * @throws WorkspaceFsError `ENOENT` (unless `force`) · `ENOTEMPTY` (without `recursive`) · `EPERM` `/` · `EROFS`.
   */
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  /**
   * Stats, following a final link.
   * @throws WorkspaceFsError `ENOENT` (also a dangling link or a file mid-path) · `ELOOP`.
   */
  stat(path: string, options?: unknown): Promise<WorkspaceStats>;
  /**
   * Stats of the entry itself (a link is not followed).
   * @throws WorkspaceFsError `ENOENT` · `ELOOP`.
   */
  lstat(path: string, options?: unknown): Promise<WorkspaceStats>;
  /**
   * A link's target: a string, or its UTF-8 bytes (a `Buffer`) with `{ encoding: "buffer" }` / `"buffer"`.
   * @throws WorkspaceFsError `ENOENT` · `EINVAL` not a link.
   */
  readlink(path: string, options?: EncodingOption): Promise<string | Uint8Array>;
  /**
   * Creates a link at `path` holding `target` verbatim.
   * @throws WorkspaceFsError `EEXIST` · `ENOENT` missing parent · `ENOTDIR` · `EROFS`.
   */
  symlink(target: string, path: string, type?: string): Promise<void>;
  /**
   * Sets the permission bits (`mode & 0o7777`; no umask).
   * @throws WorkspaceFsError `ENOENT` · `EINVAL` · `EROFS`.
   */
  chmod(path: string, mode: number): Promise<void>;
}

/** The encoding named by a node:fs options argument, lower-cased, or `undefined`. */
function encodingOf(options: EncodingOption): string | undefined {
  const encoding = typeof options === "string" ? options : (options?.encoding ?? undefined);
  return typeof encoding === "string" ? encoding.toLowerCase() : undefined;
}

/** `mode` of a node:fs options argument, or `fallback`. */
function modeOf(options: EncodingOption | number | { mode?: number }, fallback: number): number {
  if (typeof options === "number") return options;
  const mode = typeof options === "object" && options !== null ? options.mode : undefined;
  return typeof mode === "number" ? mode : fallback;
}

/** Node's names for UTF-8. */
const UTF8 = new Set(["utf8", "utf-8"]);

/** `data` as something `workspace.fs.writeFile` takes (a string, or a Uint8Array over the same bytes). */
function contentOf(data: string | ArrayBufferView | ArrayBuffer): string | Uint8Array {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new WorkspaceFsError("EINVAL", "writeFile", undefined, "data must be a string, an ArrayBufferView or an ArrayBuffer");
}

/**
 * The `{ promises }` fs isomorphic-git uses, over `ws.fs` (spec 04 §2.1).
 * The client builds one per Workspace on its first call, unless
 * `createGitClient({ adapter })` replaces it.
 */
export async function createWorkspaceFsBridge(ws: WorkspaceLike): Promise<WorkspaceGitFs> {
  const fs = ws.fs;
  const methods: WorkspaceGitFsPromises = {
    async readFile(path, options) {
      const encoding = encodingOf(options);
      if (encoding !== undefined && encoding !== "buffer" && !UTF8.has(encoding)) {
        throw new WorkspaceFsError("EINVAL", "readFile", path, `unsupported encoding '${encoding}'`);
      }
      const bytes = await readStreamBytes(await fs.readFile(path));
      // workspace.fs's own "utf8" drops a BOM; Node's keeps it.
      if (encoding !== undefined && encoding !== "buffer") return decodeUtf8(bytes);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async writeFile(path, data, options) {
      const encoding = encodingOf(options);
      if (encoding !== undefined && !UTF8.has(encoding)) {
        throw new WorkspaceFsError("EINVAL", "writeFile", path, `unsupported encoding '${encoding}'`);
      }
      await fs.writeFile(path, contentOf(data), { mode: modeOf(options, 0o666) & ~GIT_FS_UMASK & 0o7777 });
    },
    async unlink(path) {
      const stat = await fs.lstat(path);
      if (stat.isDirectory) throw new WorkspaceFsError("EISDIR", "unlink", path);
      await fs.rm(path);
    },
    async readdir(path) {
      return (await fs.readdir(path)).map((entry) => entry.name);
    },
    async mkdir(path, options) {
      const recursive = typeof options === "object" && options !== null && options.recursive === true;
      await fs.mkdir(path, { recursive, mode: modeOf(options, 0o777) & ~GIT_FS_UMASK & 0o7777 });
    },
    async rmdir(path) {
      const stat = await fs.lstat(path);
      if (!stat.isDirectory) throw new WorkspaceFsError("ENOTDIR", "rmdir", path);
      await fs.rm(path);
    },
    async rm(path, options) {
      await fs.rm(path, { recursive: options?.recursive === true, force: options?.force === true });
    },
    stat(path) {
      return statsOf(fs, path, true);
    },
    lstat(path) {
      return statsOf(fs, path, false);
    },
    async readlink(path, options) {
      const target = await fs.readlink(path);
      return encodingOf(options) === "buffer" ? Buffer.from(target, "utf8") : target;
    },
    async symlink(target, path) {
      await fs.symlink(target, path);
    },
    async chmod(path, mode) {
      await fs.chmod(path, mode);
    },
  };
  return { promises: paced(methods) };
}

/**
 * `methods` with every call paced: after {@link GIT_PACE_SLICE_MS} or
 * {@link GIT_PACE_CALLS} calls since the last pause, the next call first
 * waits {@link GIT_PACE_GAP_MS} on a timer, so other requests to the object
 * get in during a long git operation. The pause is one timer shared by every
 * call that arrives while it runs: isomorphic-git makes hundreds of calls at
 * once (status, diff, checkout), and a timer per call queued each behind the
 * others' work — a 2,000-file status took 1.3 s in workerd instead of 65 ms.
 */
function paced(methods: WorkspaceGitFsPromises): WorkspaceGitFsPromises {
  let sliceStart = Date.now();
  let calls = 0;
  let gap: Promise<void> | undefined;
  const pause = (): Promise<void> | undefined => {
    if (gap) return gap;
    if (++calls < GIT_PACE_CALLS && Date.now() - sliceStart < GIT_PACE_SLICE_MS) return undefined;
    gap = new Promise<void>((resolve) => setTimeout(resolve, GIT_PACE_GAP_MS)).then(() => {
      gap = undefined;
      sliceStart = Date.now();
      calls = 0;
    });
    return gap;
  };
  const out = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, method] of Object.entries(methods) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    out[name] = async (...args: unknown[]) => {
      const wait = pause();
      if (wait) await wait;
      return method(...args);
    };
  }
  return out as unknown as WorkspaceGitFsPromises;
}
