/**
 * Filesystem errors (spec 01 §2.2): `Error` with `name === "WorkspaceFsError"`,
 * a POSIX `code` and, where one applies, the `path`.
 *
 * @module
 */

/** Every code a `WorkspaceFsError` can carry. */
export type WorkspaceFsErrorCode =
  | "ENOENT"
  | "ENOTEMPTY"
  | "ENOTDIR"
  | "EISDIR"
  | "EEXIST"
  | "EINVAL"
  | "EACCES"
  | "EPERM"
  | "EROFS"
  | "ENOSYS"
  | "EBADF"
  | "ELOOP"
  | "ENAMETOOLONG"
  | "EUNKNOWN_HASH"
  | "ESTALE"
  | "EIO"
  | "E2BIG";

const DESCRIPTIONS: Record<WorkspaceFsErrorCode, string> = {
  ENOENT: "no such file or directory",
  ENOTEMPTY: "directory not empty",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  EEXIST: "file already exists",
  EINVAL: "invalid argument",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSYS: "function not implemented",
  EBADF: "bad file descriptor",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EUNKNOWN_HASH: "unknown content hash",
  ESTALE: "the file changed since it was read",
  EIO: "input/output error",
  E2BIG: "result too large to send over RPC",
};

/**
 * A failed filesystem operation. `code` is a POSIX error code; `syscall` names
 * the `workspace.fs` method; the message is `"<code>: <description>, <syscall>: <path>"`.
 */
export class WorkspaceFsError extends Error {
  /** Always `"WorkspaceFsError"`; `isWorkspaceFsError` tests it (also across realms). */
  override readonly name = "WorkspaceFsError";
  /** The POSIX error code (spec 01 §2.2). */
  readonly code: WorkspaceFsErrorCode;
  /** The canonical path the error is about; absent when none applies (e.g. a path that is not a string). */
  readonly path?: string;
  /** The `workspace.fs` method that failed (`"stat"`, `"writeFile"`, …), when known. */
  readonly syscall?: string;

  constructor(code: WorkspaceFsErrorCode, syscall?: string, path?: string, detail?: string) {
    let message = `${code}: ${detail ?? DESCRIPTIONS[code]}`;
    if (syscall) message += `, ${syscall}`;
    if (path !== undefined && !message.endsWith(`: ${path}`)) message += `: ${path}`;
    super(message);
    this.code = code;
    if (path !== undefined) this.path = path;
    if (syscall !== undefined) this.syscall = syscall;
  }
}

/**
 * True when `value` is one of the {@link WorkspaceFsErrorCode}s. The codes
 * are listed once, as the keys of the descriptions above; the RPC client uses
 * this to rebuild a {@link WorkspaceFsError} only from a code it knows.
 */
export function isWorkspaceFsErrorCode(value: unknown): value is WorkspaceFsErrorCode {
  return typeof value === "string" && Object.hasOwn(DESCRIPTIONS, value);
}

/** True when `error` is a {@link WorkspaceFsError} (also across realms, by `name` and `code`). */
export function isWorkspaceFsError(error: unknown, code?: WorkspaceFsErrorCode): error is WorkspaceFsError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "WorkspaceFsError" &&
    typeof (error as { code?: unknown }).code === "string" &&
    (code === undefined || (error as { code: string }).code === code)
  );
}

/**
 * Throws for a path walk that failed on the write side: `enoent`, `enotdir`
 * (a file in the chain) or `eloop`. A `found` or `missing` walk returns.
 */
export function throwIfWalkFailed(found: { status: string }, syscall: string, path: string): void {
  if (found.status === "enoent") throw new WorkspaceFsError("ENOENT", syscall, path);
  if (found.status === "enotdir") throw new WorkspaceFsError("ENOTDIR", syscall, path);
  if (found.status === "eloop") throw new WorkspaceFsError("ELOOP", syscall, path);
}
