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

/** The largest `.git/HEAD` taken as valid, in bytes (a real one is under 300: `ref: refs/heads/<name>` or an oid). */
const MAX_HEAD_BYTES = 4096;

/**
 * Whether `dir` holds a repository, as real git decides it
 * (`is_git_directory` / `validate_headref`): `<dir>/.git` is a directory and
 * its `HEAD` is a symbolic ref into `refs/` (`ref: refs/…`, or a link whose
 * target starts with `refs/`) or an object id. A `HEAD` such as
 * `ref: ../../secret` or `ref: /etc/x` makes it no repository, so nothing
 * outside the gitdir is ever read through it (issue 20, seventh attack run).
 * Never throws.
 */
export async function isRepository(ctx: GitContext, dir: string): Promise<boolean> {
  const fs = ctx.workspace.fs;
  const gitdir = gitdirOf(dir);
  const stat = await fs.stat(gitdir).catch(() => undefined);
  if (!stat?.isDirectory) return false;
  const head = `${gitdir}/HEAD`;
  const link = await fs.lstat(head).catch(() => undefined);
  if (!link) return false;
  if (link.isSymbolicLink) return (await fs.readlink(head).catch(() => "")).startsWith("refs/");
  if (!link.isFile || link.size > MAX_HEAD_BYTES) return false;
  const text = await fs.readFile(head, "utf8").catch(() => "");
  if (text.startsWith("ref:")) return text.slice(4).trimStart().startsWith("refs/");
  return /^[0-9a-f]{40}/.test(text);
}

/**
 * Resolves when `dir` holds a repository: a `.git` directory whose `HEAD`
 * is valid (see {@link isRepository}).
 * @throws NotARepositoryError otherwise.
 */
export async function requireRepo(ctx: GitContext, dir: string): Promise<void> {
  if (!(await isRepository(ctx, dir))) throw new NotARepositoryError(dir);
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

/**
 * What an operation throws when its `signal` (`BaseWorktreeOptions.signal`,
 * kept as {@link GitContext.signal}) has aborted: the operations that write
 * the working tree check it before each file they read, write or remove.
 * {@link runOp} reports it as `GitError` `ECANCELED`.
 */
export class OperationCancelledError extends Error {
  constructor(
    /** The signal's reason (its message is shown). */
    readonly reason: unknown,
    /** What is left behind, when it is not the usual (see {@link toGitError}). */
    readonly left?: string,
  ) {
    super(`cancelled: ${reason instanceof Error ? reason.message : reason === undefined ? "the operation was aborted" : String(reason)}`);
    this.name = "OperationCancelledError";
  }
}

/**
 * Throws {@link OperationCancelledError} when the operation's signal has
 * aborted; nothing otherwise (also without a signal).
 */
export function throwIfCancelled(ctx: GitContext): void {
  if (ctx.signal?.aborted) throw new OperationCancelledError(ctx.signal.reason);
}

/** What an operation that stopped at its signal while only reading leaves behind (see {@link throwIfReadCancelled}). */
export const READ_CANCELLED_LEFT = "it stopped while reading the repository; nothing was changed";

/**
 * {@link throwIfCancelled} for the reads (`diff`, `diffSummary`, `status`,
 * `lsFiles`, `log`, and the walks `add` and `commit` make before they
 * change anything): checked between the paths and commits they read; the
 * `ECANCELED` message ends `it stopped while reading the repository;
 * nothing was changed`.
 */
export function throwIfReadCancelled(ctx: GitContext): void {
  if (ctx.signal?.aborted) throw new OperationCancelledError(ctx.signal.reason, READ_CANCELLED_LEFT);
}

/** The {@link GitError} `runOp` throws for `error`. */
export function toGitError(op: string, dir: string, error: unknown): GitError {
  if (error instanceof GitError) return error;
  if (error instanceof OperationCancelledError) {
    const left =
      error.left ??
      "it stopped before its next file: HEAD, the branches and the index are as they were, and the files it had written stay in the working tree (`git status` shows them; `git reset --hard` and `git clean` undo them)";
    return new GitError("ECANCELED", `git ${op} ${error.message}; ${left}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GitError(`E${op.toUpperCase().replace(/[^A-Z]/g, "")}FAIL`, `git ${op} failed: ${message}`, { cause: error });
}

function describe(value: unknown): string {
  return value === null ? "null" : typeof value === "string" ? JSON.stringify(value) : typeof value;
}
