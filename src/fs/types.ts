/**
 * Public shapes of `workspace.fs` (spec 01 §3.1). Every method returns a
 * promise and reports every failure as a rejection.
 *
 * @module
 */

/** Options for a ranged read (spec 01 §3.3 readFile). */
export interface ReadFileOptions {
  /** `"utf8"` returns a string; omitted returns a `ReadableStream<Uint8Array>`. */
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
}

/** Options for {@link WorkspaceFilesystem.mkdir}. */
export interface MkdirOptions {
  /** Create missing ancestors (mode `0o755`) and succeed if the leaf is already a directory. */
  recursive?: boolean;
  /** Permission bits of the leaf. Default `0o755`. */
  mode?: number;
}

/** Options for {@link WorkspaceFilesystem.rm}. */
export interface RmOptions {
  /** Remove a non-empty directory and its whole subtree (one transaction). */
  recursive?: boolean;
  /** Treat a missing path (or missing parent) as success. */
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
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** One entry of `readdir`: the child itself (links are not followed). */
export interface WorkspaceDirentResult {
  name: string;
  /** The canonical path that was listed. */
  parentPath: string;
  size: number;
  mtime: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** One `find` result. `path` is absolute. Links are reported as `"symlink"` (as 0.8.0 does). */
export interface WorkspaceFoundEntry {
  path: string;
  type: "file" | "dir" | "symlink";
}

/** Options for {@link WorkspaceFilesystem.find}. */
export interface FindOptions {
  /** Maximum matches. Default: all. */
  limit?: number;
  /** Matches to skip. Default `0`. */
  offset?: number;
  /** Globs tested on the relative path first; a matching directory is pruned (not walked). */
  exclude?: string[];
}

/** Options for {@link WorkspaceFilesystem.grep}. */
export interface GrepOptions {
  /** Case-insensitive matching (adds the `i` flag). Default `false`. */
  ignoreCase?: boolean;
  /** Treat `pattern` as JavaScript regular-expression source. Default `false` (literal). */
  regex?: boolean;
  /** Lines of context before and after each match. Default `0`. */
  context?: number;
  /** Maximum matching lines. Default: all. */
  limit?: number;
  /** Matching lines to skip (across all files). Default `0`. */
  offset?: number;
  /** Glob a file's path relative to the searched directory must match. */
  include?: string;
  /** Globs of relative paths to skip; matching directories are pruned. */
  exclude?: string[];
}

/** One context line around a grep match. */
export interface WorkspaceGrepContextLine {
  line: number;
  text: string;
  isMatch: boolean;
}

/** One matching line. `line` counts from 1; `text` keeps a trailing `\r`. */
export interface WorkspaceGrepMatch {
  path: string;
  line: number;
  text: string;
  /** Present only when `context > 0`: before-lines, the match, after-lines. */
  context?: WorkspaceGrepContextLine[];
}

/** The `workspace.fs` surface (spec 01 §3). */
export interface WorkspaceFilesystem {
  readFile(path: string): Promise<ReadableStream<Uint8Array>>;
  readFile(path: string, encoding: "utf8"): Promise<string>;
  readFile(path: string, options: ReadFileOptions & { encoding?: undefined }): Promise<ReadableStream<Uint8Array>>;
  readFile(path: string, options: ReadFileOptions & { encoding: "utf8" }): Promise<string>;
  readFile(path: string, options: ReadFileOptions): Promise<string | ReadableStream<Uint8Array>>;
  writeFile(
    path: string,
    content: string | Uint8Array | ReadableStream<Uint8Array>,
    options?: WriteFileOptions,
  ): Promise<void>;
  mkdir(path: string, options?: MkdirOptions): Promise<void>;
  readdir(path: string, options?: ReaddirOptions): Promise<WorkspaceDirentResult[]>;
  stat(path: string): Promise<WorkspaceStatResult>;
  lstat(path: string): Promise<WorkspaceStatResult>;
  rm(path: string, options?: RmOptions): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  chmod(path: string, mode: number): Promise<void>;
  find(directory: string, pattern?: string, options?: FindOptions): Promise<WorkspaceFoundEntry[]>;
  ls(prefix: string): Promise<string[]>;
  grep(pattern: string, path: string, options?: GrepOptions): Promise<WorkspaceGrepMatch[]>;
}
