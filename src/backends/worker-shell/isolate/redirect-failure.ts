/**
 * What the shell prints when the output of a redirection (`>`, `>>`, `&>`,
 * `2>`) cannot be written: bash's `bash: <path>: <strerror>` line, so the
 * script goes on with `$?` 1 as in bash. just-bash 3.4.2 lets such a failure
 * escape the command and end the whole script; scripts/gen-shell.mjs patches
 * its redirection writer to call this instead.
 *
 * @module
 */

import { headCut } from "../../../util/cut.js";

/** strerror(3) wording (glibc) of the codes the Workspace fs adapter throws. */
export const STRERROR: Readonly<Record<string, string>> = {
  ENOENT: "No such file or directory",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  EROFS: "Read-only file system",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  EFBIG: "File too large",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EINVAL: "Invalid argument",
  EIO: "Input/output error",
  ESTALE: "Stale file handle",
  ENOSPC: "No space left on device",
  EILSEQ: "Invalid or incomplete multibyte or wide character",
};

/**
 * True for a filesystem failure of the target: an error with a POSIX `code`
 * (`ENOENT`, `EROFS`, …), as the Workspace fs adapter throws — except
 * `ECANCELED` and `ETIMEDOUT`, which say the run itself was stopped (its
 * deadline, a kill), so they still end the script.
 */
export function isFsFailure(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code) && code !== "ECANCELED" && code !== "ETIMEDOUT";
}

/**
 * The stderr line for a redirection to `path` whose write failed with
 * `error`: `bash: <path>: <strerror of its code>\n`, or the error's own
 * message (first line, at most 1,024 characters) for a code without a wording.
 * @throws `error` itself when it is not a filesystem failure ({@link isFsFailure}): just-bash's own errors (its limits) keep their course.
 */
export function redirectFailure(path: string, error: unknown): string {
  if (!isFsFailure(error)) throw error;
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  let reason = typeof code === "string" ? STRERROR[code] : undefined;
  if (reason === undefined) {
    let message: string;
    try {
      message = error instanceof Error ? String(error.message) : String(error);
    } catch {
      message = "write error";
    }
    reason = headCut(message.split("\n", 1)[0]!, 1024) || "write error";
  }
  return `bash: ${path}: ${reason}\n`;
}

/**
 * bash's refusal of an output redirection target before any file is opened,
 * or `null`: an empty target (`> ""`, `> "$unset"`) is `No such file or
 * directory`; one ending in `/` names a directory, `Is a directory` — the
 * Workspace's paths drop a trailing slash, so without this `> f.txt/`
 * overwrote the file `f.txt` and `> new/` made a file `new`.
 */
export function redirectTargetError(target: string): string | null {
  if (target === "") return "bash: : No such file or directory\n";
  if (target.endsWith("/")) return `bash: ${target}: Is a directory\n`;
  return null;
}
