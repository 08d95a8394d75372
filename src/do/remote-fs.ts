/**
 * `client.fs` for a remote Workspace: each call goes to the
 * `WorkspaceFilesystemStub` in one RPC (pipelined through `stub.fs`), streams
 * cross as one byte stream, and errors come back with their `code` and `path`.
 *
 * @module
 */
import type {
  FindOptions,
  GrepOptions,
  MkdirOptions,
  ReaddirOptions,
  ReadFileOptions,
  RmOptions,
  WorkspaceDirentResult,
  WorkspaceFilesystem,
  WorkspaceFoundEntry,
  WorkspaceGrepMatch,
  WorkspaceStatResult,
  WriteFileOptions,
} from "../fs/types.js";
import { fromRemoteError } from "./remote-error.js";

/**
 * The filesystem stub as seen through RPC: `workspace.fs`'s methods (one
 * `readFile` signature instead of the overloads) plus the stub-only helpers.
 */
export interface RemoteFilesystemStub extends Omit<WorkspaceFilesystem, "readFile"> {
  readFile(path: string, options?: "utf8" | ReadFileOptions): Promise<string | ReadableStream<Uint8Array>>;
  exists(path: string): Promise<boolean>;
  statOrNull(path: string): Promise<WorkspaceStatResult | null>;
  lstatOrNull(path: string): Promise<WorkspaceStatResult | null>;
}

/** `workspace.fs` plus the stub-only helpers, as a remote client offers it. */
export interface RemoteWorkspaceFilesystem extends WorkspaceFilesystem {
  /** `true` when the path exists (links followed). */
  exists(path: string): Promise<boolean>;
  /** `stat`, or `null` on `ENOENT`. */
  statOrNull(path: string): Promise<WorkspaceStatResult | null>;
  /** `lstat`, or `null` on `ENOENT`. */
  lstatOrNull(path: string): Promise<WorkspaceStatResult | null>;
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw fromRemoteError(error);
  }
}

/** Builds the remote `fs`; `fs()` returns the (pipelined) `stub.fs` for each call. */
export function createRemoteFilesystem(fs: () => RemoteFilesystemStub): RemoteWorkspaceFilesystem {
  const remote = {
    readFile: (path: string, options?: "utf8" | ReadFileOptions) => call(() => fs().readFile(path, options)),
    writeFile: (path: string, content: string | Uint8Array | ReadableStream<Uint8Array>, options?: WriteFileOptions) =>
      call(() => fs().writeFile(path, content, options)),
    mkdir: (path: string, options?: MkdirOptions) => call(() => fs().mkdir(path, options)),
    readdir: (path: string, options?: ReaddirOptions) => call(() => fs().readdir(path, options)),
    stat: (path: string) => call(() => fs().stat(path)),
    lstat: (path: string) => call(() => fs().lstat(path)),
    rm: (path: string, options?: RmOptions) => call(() => fs().rm(path, options)),
    rename: (oldPath: string, newPath: string) => call(() => fs().rename(oldPath, newPath)),
    symlink: (target: string, path: string) => call(() => fs().symlink(target, path)),
    readlink: (path: string) => call(() => fs().readlink(path)),
    chmod: (path: string, mode: number) => call(() => fs().chmod(path, mode)),
    find: (directory: string, pattern?: string, options?: FindOptions) => call(() => fs().find(directory, pattern, options)),
    ls: (prefix: string) => call(() => fs().ls(prefix)),
    grep: (pattern: string, path: string, options?: GrepOptions) => call(() => fs().grep(pattern, path, options)),
    exists: (path: string) => call(() => fs().exists(path)),
    statOrNull: (path: string) => call(() => fs().statOrNull(path)),
    lstatOrNull: (path: string) => call(() => fs().lstatOrNull(path)),
  };
  return remote as unknown as RemoteWorkspaceFilesystem;
}

export { call as callRemote };
