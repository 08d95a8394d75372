/**
 * Errors across Workers RPC.
 *
 * With current compatibility dates workerd keeps an error's own properties
 * (`name`, `code`, `path`) across RPC, but the caller receives a plain
 * `Error`, and older dates keep only the message. The stubs therefore throw
 * errors whose message starts with the code (`"ENOENT: …: /path"`), and the
 * client turns whatever arrives back into a {@link WorkspaceFsError} (or an
 * `Error` with `code`), reading `code`/`path` from the properties when present
 * and from the message otherwise.
 *
 * @module
 */
import { WorkspaceFsError, type WorkspaceFsErrorCode } from "../fs/errors.js";

const FS_CODES = new Set<string>([
  "ENOENT", "ENOTEMPTY", "ENOTDIR", "EISDIR", "EEXIST", "EINVAL", "EACCES", "EPERM",
  "EROFS", "ENOSYS", "EBADF", "ELOOP", "EUNKNOWN_HASH", "EIO",
]);

/** The code at the start of a message such as `"ENOENT: no such file…"`. */
function codeFromMessage(message: string): string | undefined {
  return /^([A-Z][A-Z0-9_]{2,}): /.exec(message)?.[1];
}

/** The path at the end of a message such as `"…, stat: /a/b"`. */
function pathFromMessage(message: string): string | undefined {
  return /, [a-zA-Z]+: (\/.*)$/.exec(message)?.[1];
}

/**
 * Prepares an error to be thrown from a stub method: a `code` that is not yet
 * in the message is prefixed to it, so it survives transports that keep only
 * the message. Other errors are returned as they are.
 */
export function toRemoteError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && codeFromMessage(error.message) !== code) {
    try {
      error.message = `${code}: ${error.message}`;
    } catch {
      // A frozen error: leave it.
    }
  }
  return error;
}

/**
 * Rebuilds an error received over RPC: filesystem codes become a
 * {@link WorkspaceFsError} with `code` and `path` (`instanceof` works again);
 * other coded errors (`EEXEC_BUSY`, …) keep `code` on a plain `Error`;
 * `TypeError`s and uncoded errors are returned unchanged.
 */
export function fromRemoteError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof WorkspaceFsError) return error;
  const ownCode = (error as { code?: unknown }).code;
  const code = typeof ownCode === "string" ? ownCode : codeFromMessage(error.message);
  if (code === undefined) return error;
  const ownPath = (error as { path?: unknown }).path;
  const path = typeof ownPath === "string" ? ownPath : pathFromMessage(error.message);
  // A filesystem error: named so (current transports keep `name`), or — when the
  // transport kept only the message — an uncoded error whose message starts with an fs code.
  if (FS_CODES.has(code) && (error.name === "WorkspaceFsError" || (typeof ownCode !== "string" && error.name === "Error"))) {
    const rebuilt = new WorkspaceFsError(code as WorkspaceFsErrorCode, undefined, path);
    rebuilt.message = error.message;
    const syscall = (error as { syscall?: unknown }).syscall;
    if (typeof syscall === "string") Object.assign(rebuilt, { syscall });
    if (error.stack) rebuilt.stack = error.stack;
    return rebuilt;
  }
  if (typeof ownCode !== "string") Object.assign(error, { code, ...(path !== undefined ? { path } : {}) });
  return error;
}
