/**
 * Mount types (spec 01 §6.1): a mount fills a directory of the Workspace from
 * an outside source (an R2 bucket, the Worker bundle) when `ready()` runs.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { SQLiteWorkspaceProvider } from "../fs/provider.js";

/** What every mount declares. */
export interface MountBase {
  /** Source kind, e.g. `"r2"`, `"worker-bundle"`; recorded in the store. */
  readonly kind: string;
  /** `"read-only"`: every mutation at, under or above the root rejects with `EROFS` (spec 01 §6.3). */
  readonly mode: "read-only" | "read-write";
  /**
   * Most bytes `materialize` may write, summed over files; beyond, the run
   * fails `mount <root>: maxBytes=<n> exceeded`.
   * @defaultValue no limit
   */
  readonly maxBytes?: number;
  /**
   * Most `writeFile` + `mkdir` calls `materialize` may make; beyond, the run
   * fails `mount <root>: maxEntries=<n> exceeded`.
   * @defaultValue no limit
   */
  readonly maxEntries?: number;
  /**
   * Content version, or a function resolving it (run by every `ready()`
   * pass). When it differs from the recorded one, the next `ready()`
   * replaces the copy.
   * @defaultValue none: the mount runs once per store
   */
  readonly version?: string | (() => Promise<string>);
}

/** A mount copied into the Workspace in full by `ready()`. 0.8.0 has no lazy mounts. */
export interface EagerMount extends MountBase {
  /** Always `"eager"`: the whole content is copied by `ready()`. */
  readonly strategy: "eager";
  /** Writes the mount's contents through `api`. A rejection fails the mount (it is cleared and retried on the next `ready()`). */
  materialize(api: MountWriteAPI): Promise<void>;
}

/** A mount. */
export type Mount = EagerMount;

/**
 * What a mount factory receives (spec 01 §6): `vfs` is the Workspace's
 * node:fs-style provider (`workspace.provider()`).
 */
export interface MountContext {
  /** The Workspace's session id. */
  readonly sessionId: string;
  /** The mount's root, e.g. `"/workspace/data"`. */
  readonly root: string;
  /** The Workspace's node:fs-style provider, `workspace.provider()` ({@link SQLiteWorkspaceProvider}). */
  readonly vfs: SQLiteWorkspaceProvider;
}

/** Builds a mount at construction of the Workspace (called once). */
export type MountFactory = (ctx: MountContext) => Mount;

/** How `materialize` writes (spec 01 §6.2). */
export interface MountWriteAPI {
  /** The mount root (canonical, absolute). */
  readonly root: string;
  /**
   * Streams `source` into `absPath` (under the root), creating parents.
   * `mode` defaults to `0o644`. Never follows a symbolic link under the
   * root: a new file is created exclusively, a file already at the path is
   * overwritten in place only while the path still leads to it.
   * @throws Error for a path outside the root, or when `maxEntries` / `maxBytes` is exceeded;
   *   `mount <root>: "<path>" is a symbolic link placed while the mount was being copied; …` for a
   *   link at the path or among its directories under the root; code `ENOTDIR` / `EISDIR` for a file
   *   where a directory is needed / a directory at the path; the Workspace's `EEXIST` / `ESTALE` /
   *   `ENOENT` when another writer changed the path during the write (a file held in memory is
   *   tried again up to `MOUNT_WRITE_RETRIES` times first).
   */
  writeFile(absPath: string, source: ReadableStream<Uint8Array>, mode?: number): Promise<void>;
  /**
   * Creates directory `absPath` (the root or under it) and its parents,
   * each checked with `lstat` (a link is never followed). `mode` (of
   * `absPath` only, when it is created) defaults to `0o755`.
   * @throws Error for a path outside the root, or when `maxEntries` is exceeded; the symbolic-link
   *   error of `writeFile`, or code `ENOTDIR`, for a link or a file among the directories.
   */
  mkdir(absPath: string, mode?: number): Promise<void>;
}

/** The part of an R2 binding an {@link R2Bucket} mount uses (a Workers `R2Bucket` fits). */
export interface R2BucketBinding {
  /**
   * One page of keys: those starting with `prefix` (default: all), after
   * `cursor` (default: from the start), at most `limit` (default: R2's 1000).
   */
  list(options?: {
    /** Only keys starting with it. Default: all keys. */
    prefix?: string;
    /** Where the previous page ended. Default: from the start. */
    cursor?: string;
    /** Keys in the page, at most 1000. Default: 1000. */
    limit?: number;
  }): Promise<{
    objects: { key: string; size: number }[];
    truncated: boolean;
    cursor?: string;
  }>;
  /** The object's body stream and size in bytes, or `null` when there is no object at `key`. */
  get(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | null>;
}

/** Options of {@link R2Bucket}. */
export interface R2BucketOptions {
  /**
   * Only keys under this prefix, stripped from paths. Normalised like a path:
   * empty segments are dropped (a leading `/` too) and a trailing `/` is
   * added, so `"/datasets/v3"` lists `datasets/v3/`. Default: the whole bucket.
   */
  prefix?: string;
  /**
   * `"read-only"`: every mutation at, under or above the root rejects with `EROFS`.
   * @defaultValue `"read-only"`
   */
  mode?: "read-only" | "read-write";
  /**
   * Keys per `list` call, 1–1000.
   * @defaultValue `1000`
   */
  listLimit?: number;
  /**
   * Object bodies streamed at once, ≥ 1.
   * @defaultValue `8`
   */
  concurrency?: number;
  /**
   * See {@link MountBase.maxBytes}.
   * @defaultValue no limit
   */
  maxBytes?: number;
  /**
   * See {@link MountBase.maxEntries}.
   * @defaultValue no limit
   */
  maxEntries?: number;
}

/**
 * A file of a bundle tree: text (written as UTF-8) or bytes. An
 * `ArrayBuffer` or another `ArrayBufferView` is accepted as bytes too (a Data
 * module's default export is an `ArrayBuffer`).
 */
export type WorkerBundleFile = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/**
 * Relative path → file, or an async loader of it (called while
 * materialising). A loader may resolve to a module with a default export
 * (`() => import("./notes.txt")` with a Text or Data module rule).
 */
export type WorkerBundleTree = Readonly<
  Record<string, WorkerBundleFile | (() => Promise<WorkerBundleFile | { readonly default: WorkerBundleFile }>)>
>;

/** A bundle tree with an optional declared version. */
export interface WorkerBundleSource {
  /** The file tree. */
  readonly files: WorkerBundleTree;
  /** The tree's version, used as the mount's version (see {@link WorkerBundle}). Default: derived from the content. */
  readonly version?: string;
}

/** An entry shown to {@link WorkerBundleOptions.filter}: its path relative to the bundle directory. */
export interface WorkerBundleEntry {
  /** Relative path, `/`-separated, no leading `/` (e.g. `"docs/a.md"`). */
  readonly path: string;
  /** A file or a directory. */
  readonly type: "file" | "dir";
}

/** Options of {@link WorkerBundle}. */
export interface WorkerBundleOptions {
  /**
   * `false` skips an entry (for a directory, its whole subtree).
   * @defaultValue none: every entry is included
   */
  filter?: (entry: WorkerBundleEntry) => boolean;
  /**
   * File mode of `path`; `undefined` falls back to the default.
   * @defaultValue `0o755` for files starting `#!`, else `0o644`
   */
  fileMode?: (path: string, bytes: Uint8Array) => number | undefined;
  /**
   * `false`: no version (copied once per store); a string: used as is.
   * @defaultValue derived (spec 01 §6.5)
   */
  version?: string | false;
  /**
   * See {@link MountBase.maxBytes}.
   * @defaultValue no limit
   */
  maxBytes?: number;
  /**
   * See {@link MountBase.maxEntries}.
   * @defaultValue no limit
   */
  maxEntries?: number;
}
