// @ts-check
/**
 * Errors of the daemon. They cross the capnweb session as data: capnweb copies an error's own
 * enumerable properties, so a client sees `code` (and `syscall`, `path` when set) on the error it
 * receives, never parsed from the message text.
 */

/** An error with a POSIX-style or daemon-specific `code` (`EINVAL`, `ENOENT`, `EEXEC_BUSY`, …). */
export class DaemonError extends Error {
  /**
   * @param {string} code error code, e.g. `EINVAL`, `ENOENT`, `EACCES`, `EEXEC_BUSY`, `ELOG_TRUNCATED`
   * @param {string} message human-readable message (starts with the code)
   * @param {{ syscall?: string, path?: string }} [extra]
   */
  constructor(code, message, extra = {}) {
    super(`${code}: ${message}`);
    /** @type {string} */
    this.code = code;
    /** @type {string | undefined} the system call, when about one */
    this.syscall;
    /** @type {string | undefined} the mount-relative path, when about one */
    this.path;
    if (extra.syscall !== undefined) this.syscall = extra.syscall;
    if (extra.path !== undefined) this.path = extra.path;
  }
}

/**
 * An error as data, the shape `apply` reports per op.
 * @typedef {{ code: string, message: string, syscall?: string, path?: string }} ErrorData
 */

/**
 * Turn any thrown value into {@link ErrorData}. Node's fs errors keep their `code` and `syscall`;
 * the absolute host path in Node's message is replaced by the mount-relative path given.
 * @param {unknown} err
 * @param {string} [relPath] the mount-relative path the operation was about
 * @returns {ErrorData}
 */
export function errorData(err, relPath) {
  if (err instanceof DaemonError) {
    /** @type {ErrorData} */
    const out = { code: err.code, message: err.message };
    const extra = /** @type {{ syscall?: string, path?: string }} */ (err);
    if (extra.syscall !== undefined) out.syscall = extra.syscall;
    if (extra.path !== undefined) out.path = extra.path;
    else if (relPath !== undefined) out.path = relPath;
    return out;
  }
  const e = /** @type {{ code?: unknown, message?: unknown, syscall?: unknown }} */ (err ?? {});
  const code = typeof e.code === "string" ? e.code : "EIO";
  let desc = typeof e.message === "string" ? e.message : String(err);
  desc = desc.replace(/^[A-Z_]+: /, "");
  if (typeof e.syscall === "string") {
    const at = desc.lastIndexOf(`, ${e.syscall}`);
    if (at >= 0) desc = desc.slice(0, at);
  }
  /** @type {ErrorData} */
  const out = { code, message: `${code}: ${desc}${relPath === undefined ? "" : ` (${relPath === "" ? "." : relPath})`}` };
  if (typeof e.syscall === "string") out.syscall = e.syscall;
  if (relPath !== undefined) out.path = relPath;
  return out;
}

/**
 * Rethrow a Node fs error as a {@link DaemonError} naming the mount-relative path, so absolute host
 * paths do not leak through RPC and the code survives.
 * @param {unknown} err
 * @param {string} relPath
 * @returns {never}
 */
export function rethrow(err, relPath) {
  if (err instanceof DaemonError) throw err;
  const d = errorData(err, relPath);
  const out = new DaemonError(d.code, "", { syscall: d.syscall, path: relPath });
  out.message = d.message;
  throw out;
}
