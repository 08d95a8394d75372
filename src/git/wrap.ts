/**
 * Turning failures into {@link GitError}s (spec 04 §2.4) and the `dir`
 * checks every operation starts with.
 *
 * @module
 */
import { normalizePath } from "../util/path.js";
import type { GitContext } from "./context.js";
import { GitError, NotARepositoryError } from "./errors.js";

/**
 * Normalises a method's `dir`: absolute, default `"/"`.
 * @throws GitError `EUSAGE` when `dir` is given and is not a string.
 */
export function resolveDir(dir: unknown): string {
  if (dir === undefined) return "/";
  if (typeof dir !== "string" || dir === "") throw new GitError("EUSAGE", `dir must be a non-empty string, got ${describe(dir)}`);
  return normalizePath(dir);
}

/** `<dir>/.git` (or `/.git` for `/`). */
export function gitdirOf(dir: string): string {
  return dir === "/" ? "/.git" : `${dir}/.git`;
}

/**
 * Resolves when `dir` holds a `.git` directory.
 * @throws NotARepositoryError otherwise.
 */
export async function requireRepo(ctx: GitContext, dir: string): Promise<void> {
  const stat = await ctx.workspace.fs.stat(gitdirOf(dir)).catch(() => undefined);
  if (!stat?.isDirectory) throw new NotARepositoryError(dir);
}

/**
 * Runs one operation, turning anything that is not already a
 * {@link GitError} into `GitError` `E<OP>FAIL` with message
 * `git <op> failed: <cause>` (the cause kept as `cause`). `op` is the
 * lower-case operation name (`add`, `commit`, `fetch`, …); the code is its
 * upper-case form without dashes (`EUPDATEREFFAIL` for `update-ref`).
 */
export async function runOp<T>(op: string, dir: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toGitError(op, dir, error);
  }
}

/** The {@link GitError} `runOp` throws for `error`. */
export function toGitError(op: string, dir: string, error: unknown): GitError {
  if (error instanceof GitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GitError(`E${op.toUpperCase().replace(/[^A-Z]/g, "")}FAIL`, `git ${op} failed: ${message}`, { cause: error });
}

function describe(value: unknown): string {
  return value === null ? "null" : typeof value === "string" ? JSON.stringify(value) : typeof value;
}
