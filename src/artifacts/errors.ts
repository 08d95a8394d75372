/**
 * Artifacts errors (spec 04 §3.2). Every failure the Artifacts client makes
 * itself is an {@link ArtifactError} with a `code`; errors of the binding
 * (e.g. `ArtifactsError` with code `NOT_FOUND`) pass through unchanged.
 * Subclasses set `name` to the class name so it survives RPC and JSON.
 *
 * @module
 */
import { quote } from "./duration.js";

/** Message of {@link ArtifactError} `ENOCONFIG` (spec 04 §3.3). */
export const ARTIFACTS_NOT_CONFIGURED_MESSAGE = "Workspace Artifacts binding is not configured";

/**
 * A failed Artifacts operation. `code` is one of `EINVALIDNAME`,
 * `EINVALIDSESSION`, `ENOTFOUND` (the subclasses), `ENOCONFIG` (the
 * Workspace has no Artifacts binding: pass `new Workspace({ artifacts:
 * { binding: env.ARTIFACTS } })`), `EBADCURSOR` (the binding's `list`
 * repeated a cursor), `EINVAL` (a bad argument, e.g. no binding given) or,
 * over RPC only (`WorkspaceStub.artifacts`, `ArtifactsCLITarget`), `E2BIG`
 * (an answer over 30 MiB, more than crosses RPC).
 */
export class ArtifactError extends Error {
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

/**
 * `EINVALIDNAME`: a repository name the client refuses before calling the
 * binding. Message `invalid repository name '<name>': <reason>`, the name
 * cut to its first 64 characters and its length when longer (`'zzz…'
 * (1000001 characters)`); {@link InvalidRepoNameError.repoName} keeps it whole.
 */
export class InvalidRepoNameError extends ArtifactError {
  /** The name as given (`String()` of a non-string). */
  readonly repoName: string;
  constructor(name: string, reason: string) {
    super("EINVALIDNAME", `invalid repository name ${quote(name)}: ${reason}`);
    this.repoName = name;
  }
}

/**
 * `EINVALIDSESSION`: a session id refused by `createArtifact` (or the
 * Workspace constructor). Message `invalid session id '<id>': <reason>`, the
 * id quoted as {@link InvalidRepoNameError} quotes a name (64 characters at
 * most); {@link InvalidSessionIdError.sessionId} keeps it whole.
 */
export class InvalidSessionIdError extends ArtifactError {
  /** The session id as given (`String()` of a non-string). */
  readonly sessionId: string;
  constructor(sessionId: string, reason: string) {
    super("EINVALIDSESSION", `invalid session id ${quote(sessionId)}: ${reason}`);
    this.sessionId = sessionId;
  }
}

/** `ENOTFOUND`: something asked for does not exist, e.g. `no such token '<id>' in repo '<name>'`. */
export class NotFoundError extends ArtifactError {
  constructor(message: string) {
    super("ENOTFOUND", message);
  }
}

/** `ENOCONFIG` `Workspace Artifacts binding is not configured` (spec 04 §3.3). */
export function artifactsNotConfigured(): ArtifactError {
  return new ArtifactError("ENOCONFIG", ARTIFACTS_NOT_CONFIGURED_MESSAGE);
}

/**
 * How a binding's `NOT_FOUND` arrives when it crossed a JS RPC boundary that
 * kept only the message (Miniflare's local Artifacts simulator: a plain
 * `Error`, `message` `ArtifactsError: Repository not found: <name>.`, no
 * `code`).
 */
const RPC_NOT_FOUND = /^ArtifactsError: Repository not found\b/;

/**
 * True when `error` says a repository is absent (spec 04 §3.4): the
 * binding's `ArtifactsError` `NOT_FOUND`, this module's `ENOTFOUND`, or a
 * binding error that lost its `code` over RPC but keeps the service's
 * `ArtifactsError: Repository not found…` message.
 */
export function isNotFound(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === "NOT_FOUND" || code === "ENOTFOUND") return true;
  return code === undefined && typeof message === "string" && RPC_NOT_FOUND.test(message);
}
