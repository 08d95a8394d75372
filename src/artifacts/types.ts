/**
 * Types of the Artifacts surface (spec 04 §3.1–§3.2): the parts of the
 * platform's Artifacts binding this package uses, and the client and CLI
 * built on it.
 *
 * The binding types mirror `@cloudflare/workers-types`' globals of the same
 * names, reduced to what is used (so `env.ARTIFACTS` typed by workers-types
 * is assignable to {@link Artifacts}, and users without workers-types still
 * get complete typings).
 *
 * @module
 */

/** Token scope: `read` (clone/fetch) or `write` (also push). */
export type ArtifactScope = "read" | "write";

/** Metadata of one repository (`ArtifactsRepo.info()`). Timestamps are ISO 8601 strings. */
export interface ArtifactsRepoInfo {
  /** Unique repository id. */
  id: string;
  /** Repository name (the caller's, unprefixed, when returned by a session-scoped client). */
  name: string;
  /** Description, or `null` when unset. */
  description: string | null;
  /** Default branch, e.g. `main`. */
  defaultBranch: string;
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 last update time. */
  updatedAt: string;
  /** ISO 8601 time of the last push, or `null` when never pushed. */
  lastPushAt: string | null;
  /** Import/fork source (e.g. `github:owner/repo`), or `null`. */
  source: string | null;
  /** Whether pushes are refused. */
  readOnly: boolean;
  /** HTTPS git remote URL (no credentials). */
  remote: string;
}

/** A repository in a listing: {@link ArtifactsRepoInfo} without `remote`. */
export type ArtifactRepoSummary = Omit<ArtifactsRepoInfo, "remote">;

/** What `create` and `import` return: the repository and its first access token (scope `write`). */
export interface ArtifactsCreateRepoResult {
  /** Unique repository id. */
  id: string;
  /** Repository name (unprefixed when returned by a session-scoped client). */
  name: string;
  /** Description, or `null` when unset. */
  description: string | null;
  /** Default branch. */
  defaultBranch: string;
  /** HTTPS git remote URL (no credentials). */
  remote: string;
  /** Plaintext token (a secret; may end with `?expires=<unix seconds>`). */
  token: string;
  /** ISO 8601 expiry of `token`, when the binding reports it. */
  tokenExpiresAt?: string;
}

/** A freshly minted token (`ArtifactsRepo.createToken`). */
export interface ArtifactsCreateTokenResult {
  /** Token id (not a secret: use it to revoke or look the token up). */
  id: string;
  /** Plaintext token (a secret; may end with `?expires=<unix seconds>`). */
  plaintext: string;
  /** Scope granted. */
  scope: ArtifactScope;
  /** ISO 8601 expiry. */
  expiresAt: string;
}

/** Token metadata (no plaintext). */
export interface ArtifactsTokenInfo {
  /** Token id. */
  id: string;
  /** Scope granted. */
  scope: ArtifactScope;
  /** `active`, `expired` or `revoked`. */
  state: "active" | "expired" | "revoked";
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 expiry. */
  expiresAt: string;
}

/** `ArtifactsRepo.listTokens()` result. */
export interface ArtifactsTokenListResult {
  /** The repository's tokens. */
  tokens: ArtifactsTokenInfo[];
  /** How many tokens the repository has. */
  total: number;
}

/** One page of `Artifacts.list`. */
export interface ArtifactsRepoListResult {
  /** Repositories in this page. */
  repos: ArtifactRepoSummary[];
  /** Repositories in the namespace. */
  total: number;
  /** Cursor of the next page; absent on the last page. */
  cursor?: string;
}

/** Options of `create` (binding and client alike). */
export interface ArtifactCreateOptions {
  /** Refuse pushes. Default `false`. */
  readOnly?: boolean;
  /** Free-text description. Default none. */
  description?: string;
  /** Default branch name. Default: the service's (`main`). */
  setDefaultBranch?: string;
}

/** Where `import` copies a repository from. */
export interface ArtifactImportSource {
  /** HTTPS URL of a git repository. */
  url: string;
  /** Only this branch. Default: the source's default branch. */
  branch?: string;
  /** Shallow depth in commits (positive integer). Default: full history. */
  depth?: number;
}

/** Options of the repository `import` creates. */
export interface ArtifactImportOptions {
  /** Free-text description. Default none. */
  description?: string;
  /** Refuse pushes. Default `false`. */
  readOnly?: boolean;
}

/**
 * A repository capability (`Artifacts.get`), as used. The platform's handle
 * is an RPC stub: metadata only through `info()`.
 */
export interface ArtifactsRepo {
  /** Fresh metadata. Rejects `ArtifactsError` `NOT_FOUND` when the repository was deleted. */
  info(): Promise<ArtifactsRepoInfo>;
  /** Mints a token. Binding defaults: scope `write`, ttl 86400 s. */
  createToken(scope?: ArtifactScope, ttl?: number): Promise<ArtifactsCreateTokenResult>;
  /** Token metadata (no plaintexts). */
  listTokens(): Promise<ArtifactsTokenListResult>;
  /** Revokes by plaintext or id: `true` when revoked, `false` when not found. */
  revokeToken(tokenOrId: string): Promise<boolean>;
}

/**
 * The Artifacts binding (`env.ARTIFACTS`), as used (spec 04 §3.1). Its
 * errors are `ArtifactsError`s with a string `code` (`NOT_FOUND`,
 * `ALREADY_EXISTS`, `INVALID_REPO_NAME`, `INVALID_TTL`, …).
 */
export interface Artifacts {
  /** Creates a repository with a first `write` token. Rejects `ALREADY_EXISTS`, `INVALID_REPO_NAME`. */
  create(name: string, opts?: ArtifactCreateOptions): Promise<ArtifactsCreateRepoResult>;
  /** A handle on an existing repository. Rejects `NOT_FOUND` when absent. */
  get(name: string): Promise<ArtifactsRepo>;
  /** Copies a git repository from a URL into a new repository. */
  import(params: {
    source: ArtifactImportSource;
    target: { name: string; opts?: ArtifactImportOptions };
  }): Promise<ArtifactsCreateRepoResult>;
  /** One page of the namespace's repositories (`limit` 1–200, binding default 50). */
  list(opts?: { limit?: number; cursor?: string }): Promise<ArtifactsRepoListResult>;
  /** Deletes a repository and its tokens: `true` when deleted, `false` when absent. */
  delete(name: string): Promise<boolean>;
}

/**
 * Registers a git remote for `artifacts create` (spec 04 §3.4). The shell's
 * `artifacts` built-in runs `git remote add [--force] <name> <url>` at its
 * cwd. Resolve `{ ok: true }` on success, `{ ok: false, exists: true }` when
 * the remote exists and `force` was not asked, `{ ok: false, message }`
 * otherwise.
 */
export type RemoteAddFn = (remote: {
  /** Remote name, e.g. `origin` or the repository name. */
  name: string;
  /** Credentialed URL (a secret). */
  url: string;
  /** Replace an existing remote of that name. */
  force?: boolean;
}) => Promise<{ ok: boolean; exists?: boolean; message?: string }>;

/** Input of {@link ArtifactClient.cli} / `runArtifactsCLI`. */
export interface ArtifactsCLIInput {
  /** Arguments after `artifacts`, e.g. `["repo", "list"]`. */
  argv: string[];
  /** Environment of the caller (accepted for parity with the shell; not read by any command). */
  env?: Record<string, string>;
  /** How `artifacts create` registers its git remote; absent → it prints `remoteAddCommand` instead. */
  remoteAdd?: RemoteAddFn;
}

/** Output of the artifacts CLI: exit code 0 (success), 1 (operation failed) or 129 (usage error). */
export interface ArtifactsCLIResult {
  /** Standard output (JSON documents end with `\n`). */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** 0, 1 or 129. */
  exitCode: number;
}

/**
 * The Artifacts client (spec 04 §3.2): `createArtifact(binding, sessionId?)`
 * or `workspace.artifacts`. Names are the caller's; a session-scoped client
 * stores `<sessionId>__<name>` and shows only its own repositories. Invalid
 * names reject {@link InvalidRepoNameError} before the binding is called;
 * the binding's own errors pass through.
 */
export interface ArtifactClient {
  /** The session the names are scoped to; `undefined` when unscoped. */
  readonly sessionId?: string;
  /** Creates repository `name` (stored `<session>__<name>` when scoped); `name` in the result is the caller's. */
  create(name: string, opts?: ArtifactCreateOptions): Promise<ArtifactsCreateRepoResult>;
  /** Metadata of `name` (the ten info fields, `name` the caller's). Rejects the binding's `NOT_FOUND` when absent. */
  get(name: string): Promise<ArtifactsRepoInfo>;
  /**
   * Every repository visible to this client (pages of 100 until the last); a scoped client's names are stripped,
   * and it lists only `<session>__<rest>` whose `<rest>` is a name it could use (the name pattern, no `__`): session
   * `chat_`'s `chat___notes` is not session `chat`'s `_notes`.
   */
  list(): Promise<ArtifactRepoSummary[]>;
  /** Imports `source` into a new repository `name`. */
  import(name: string, source: ArtifactImportSource, opts?: ArtifactImportOptions): Promise<ArtifactsCreateRepoResult>;
  /** Deletes `name`: `true` when deleted, `false` when absent. */
  delete(name: string): Promise<boolean>;
  /** Mints a token on `name` (binding defaults when omitted: scope `write`, ttl 86400 s). `ttl` in seconds. */
  createToken(name: string, scope?: ArtifactScope, ttl?: number): Promise<ArtifactsCreateTokenResult>;
  /** Token metadata of `name`. */
  listTokens(name: string): Promise<ArtifactsTokenListResult>;
  /** Revokes a token of `name` by plaintext or id: `true` when revoked, `false` when not found. */
  revokeToken(name: string, tokenOrId: string): Promise<boolean>;
  /** One token's metadata. Rejects {@link NotFoundError} `no such token '<id>' in repo '<name>'`. */
  getToken(name: string, id: string): Promise<ArtifactsTokenInfo>;
  /** Runs the artifacts CLI (`runArtifactsCLI(client, input)`). */
  cli(input: ArtifactsCLIInput): Promise<ArtifactsCLIResult>;
}
