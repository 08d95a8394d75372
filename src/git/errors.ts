/**
 * Git errors (spec 04 §2.4). Every failure of a {@link GitClient} method is a
 * {@link GitError} with a `code`; subclasses set `name` to the class name so
 * it survives RPC and `JSON` round trips.
 *
 * @module
 */

/**
 * A failed git operation. `code` is one of `ENOTAREPO`, `EALREADYINIT`,
 * `EIDENTITY`, `EPATHOUTSIDE`, `EPATHSPEC`, `EMSG` (blank commit message),
 * `EUSAGE` (bad argument to a client method), `ECANCELED` (the
 * operation's `signal` aborted), or `E<OP>FAIL` (e.g.
 * `EADDFAIL`, `ECOMMITFAIL`, `EFETCHFAIL`) wrapping the cause as
 * `git <op> failed: <cause>`.
 */
export class GitError extends Error {
  /** Machine-readable code (see the class description). */
  readonly code: string;
  constructor(
    code: string,
    message: string,
    options?: {
      /** The underlying error (kept as `error.cause`). Default: none. */
      cause?: unknown;
    },
  ) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** `ENOTAREPO`: no `.git` at or above `dir`. Message `not a git repository: <dir>`. */
export class NotARepositoryError extends GitError {
  constructor(
    dir: string,
    options?: {
      /** The underlying error (kept as `error.cause`). Default: none. */
      cause?: unknown;
    },
  ) {
    super("ENOTAREPO", `not a git repository: ${dir}`, options);
  }
}

/** `EALREADYINIT`: `init` where a `.git` exists. Message `git repository already exists at <dir>`. */
export class AlreadyInitializedError extends GitError {
  constructor(dir: string) {
    super("EALREADYINIT", `git repository already exists at ${dir}`);
  }
}

/** `EIDENTITY`: no author/committer name and e-mail anywhere in the identity chain. */
export class MissingIdentityError extends GitError {
  constructor() {
    super(
      "EIDENTITY",
      "author identity unknown: pass author { name, email }, set GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL in env, " +
        "run `git config user.name …` and `git config user.email …` in the repository, " +
        "or give the Workspace defaultGitIdentity",
    );
  }
}

/** `EPATHOUTSIDE`: a path leaves the repository. Message `path '<p>' is outside the repository at <dir>`. */
export class PathOutsideRepoError extends GitError {
  constructor(path: string, dir: string) {
    super("EPATHOUTSIDE", `path '${path}' is outside the repository at ${dir}`);
  }
}

/** `EPATHSPEC`: a path matched nothing. Message `pathspec '<p>' did not match any files`. */
export class PathspecNotFoundError extends GitError {
  /** The pathspec as given. */
  readonly pathspec: string;
  constructor(path: string) {
    super("EPATHSPEC", `pathspec '${path}' did not match any files`);
    this.pathspec = path;
  }
}

/** A ref's `error` when push refused it before sending: the remote's tip does not descend from it. */
export const PUSH_NON_FAST_FORWARD = "non-fast-forward (fetch and merge first, or push with force)";
/** A ref's `error` when push refused it before sending: the tag exists on the remote. */
export const PUSH_TAG_EXISTS = "tag already exists";
