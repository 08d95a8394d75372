/**
 * `createArtifact(binding, sessionId?)` (spec 04 §3.2): the Artifacts client
 * over the platform binding, with optional per-session naming.
 *
 * @module
 */
import { runArtifactsCLI } from "./cli.js";
import { quote } from "./duration.js";
import { ArtifactError, NotFoundError } from "./errors.js";
import { checkSessionId, localName, storedName } from "./names.js";
import type {
  ArtifactClient,
  ArtifactCreateOptions,
  ArtifactImportOptions,
  ArtifactImportSource,
  ArtifactRepoSummary,
  Artifacts,
  ArtifactScope,
  ArtifactsCLIInput,
  ArtifactsCLIResult,
  ArtifactsCreateRepoResult,
  ArtifactsCreateTokenResult,
  ArtifactsRepo,
  ArtifactsRepoInfo,
  ArtifactsTokenInfo,
  ArtifactsTokenListResult,
} from "./types.js";

/** Page size `list` asks the binding for (the binding allows at most 200). */
export const ARTIFACTS_LIST_PAGE_SIZE = 100;

/**
 * Most pages one `list()` reads (10,000 × 100 repositories) before it gives
 * up with `ArtifactError` `ELIMIT` — a bound against a binding whose cursors
 * never end.
 */
export const ARTIFACTS_LIST_MAX_PAGES = 10_000;

/**
 * An Artifacts client over `binding` (spec 04 §3.2).
 *
 * With a `sessionId`, every name is the caller's local name, stored as
 * `<sessionId>__<name>`; `list()` shows only this session's repositories,
 * with the prefix stripped. Without one (`undefined` or `null`), names go to
 * the binding as given.
 *
 * @param binding - The Artifacts binding (`env.ARTIFACTS`; see {@link Artifacts}).
 * @param sessionId - Scope for names; `undefined`/`null` = unscoped. Must match
 *   `^[A-Za-z0-9][A-Za-z0-9._-]*$` and not contain `__`.
 * @throws InvalidSessionIdError `EINVALIDSESSION` for `""`, a non-string, a
 *   pattern mismatch or a `__`.
 * @throws ArtifactError `EINVAL` when `binding` is not an object with `get`.
 *
 * @example
 * ```ts
 * const artifacts = createArtifact(env.ARTIFACTS, "chat-42");
 * const repo = await artifacts.create("notes");        // stored as "chat-42__notes"
 * const token = await artifacts.createToken("notes", "read", 3600);
 * ```
 */
export function createArtifact(binding: Artifacts, sessionId?: string | null): ArtifactClient {
  if ((typeof binding !== "object" && typeof binding !== "function") || binding === null || typeof binding.get !== "function") {
    throw new ArtifactError(
      "EINVAL",
      "createArtifact: binding must be an Artifacts binding (env.<NAME> of an `artifacts` binding in your wrangler config)",
    );
  }
  return new BindingArtifactClient(binding, checkSessionId(sessionId));
}

class BindingArtifactClient implements ArtifactClient {
  readonly sessionId?: string;
  readonly #binding: Artifacts;

  constructor(binding: Artifacts, sessionId: string | undefined) {
    this.#binding = binding;
    this.sessionId = sessionId;
  }

  async create(name: string, opts?: ArtifactCreateOptions): Promise<ArtifactsCreateRepoResult> {
    const stored = storedName(name, this.sessionId);
    const result = opts === undefined ? await this.#binding.create(stored) : await this.#binding.create(stored, opts);
    return { ...result, name: this.#echoName(result?.name, name) };
  }

  async get(name: string): Promise<ArtifactsRepoInfo> {
    const stored = storedName(name, this.sessionId);
    const info = await this.#withRepo(stored, (repo) => repo.info());
    return {
      id: info.id,
      name,
      description: info.description,
      defaultBranch: info.defaultBranch,
      createdAt: info.createdAt,
      updatedAt: info.updatedAt,
      lastPushAt: info.lastPushAt,
      source: info.source,
      readOnly: info.readOnly,
      remote: info.remote,
    };
  }

  async list(): Promise<ArtifactRepoSummary[]> {
    const out: ArtifactRepoSummary[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= ARTIFACTS_LIST_MAX_PAGES) {
        throw new ArtifactError(
          "ELIMIT",
          `artifacts list read ${ARTIFACTS_LIST_MAX_PAGES} pages without reaching the end; the binding keeps returning cursors`,
        );
      }
      const result = await this.#binding.list(
        cursor === undefined ? { limit: ARTIFACTS_LIST_PAGE_SIZE } : { limit: ARTIFACTS_LIST_PAGE_SIZE, cursor },
      );
      for (const repo of result?.repos ?? []) {
        const name = localName(String(repo.name), this.sessionId);
        if (name === undefined) continue;
        out.push({
          id: repo.id,
          name,
          description: repo.description,
          defaultBranch: repo.defaultBranch,
          createdAt: repo.createdAt,
          updatedAt: repo.updatedAt,
          lastPushAt: repo.lastPushAt,
          source: repo.source,
          readOnly: repo.readOnly,
        });
      }
      const next = result?.cursor;
      if (next === undefined || next === null || next === "") return out;
      if (seen.has(next)) throw new ArtifactError("EBADCURSOR", `artifacts list returned a non-advancing cursor: ${next}`);
      seen.add(next);
      cursor = next;
    }
  }

  async import(name: string, source: ArtifactImportSource, opts?: ArtifactImportOptions): Promise<ArtifactsCreateRepoResult> {
    const stored = storedName(name, this.sessionId);
    if (typeof source !== "object" || source === null || typeof source.url !== "string") {
      throw new ArtifactError("EINVAL", "import: source must be { url: string, branch?: string, depth?: number }");
    }
    const target: { name: string; opts?: ArtifactImportOptions } = { name: stored };
    if (opts !== undefined) target.opts = opts;
    const result = await this.#binding.import({ source, target });
    return { ...result, name: this.#echoName(result?.name, name) };
  }

  async delete(name: string): Promise<boolean> {
    return (await this.#binding.delete(storedName(name, this.sessionId))) === true;
  }

  async createToken(name: string, scope?: ArtifactScope, ttl?: number): Promise<ArtifactsCreateTokenResult> {
    const stored = storedName(name, this.sessionId);
    return this.#withRepo(stored, (repo) =>
      ttl !== undefined ? repo.createToken(scope, ttl) : scope !== undefined ? repo.createToken(scope) : repo.createToken(),
    );
  }

  async listTokens(name: string): Promise<ArtifactsTokenListResult> {
    return this.#withRepo(storedName(name, this.sessionId), (repo) => repo.listTokens());
  }

  async revokeToken(name: string, tokenOrId: string): Promise<boolean> {
    const stored = storedName(name, this.sessionId);
    return (await this.#withRepo(stored, (repo) => repo.revokeToken(tokenOrId))) === true;
  }

  async getToken(name: string, id: string): Promise<ArtifactsTokenInfo> {
    const { tokens } = await this.listTokens(name);
    const token = (tokens ?? []).find((t) => t.id === id);
    if (token === undefined) throw new NotFoundError(`no such token ${quote(id)} in repo ${quote(name)}`);
    return token;
  }

  cli(input: ArtifactsCLIInput): Promise<ArtifactsCLIResult> {
    return runArtifactsCLI(this, input);
  }

  /** The caller's name for a binding's echo: the echo unprefixed, else `fallback`. */
  #echoName(echo: unknown, fallback: string): string {
    if (typeof echo !== "string") return fallback;
    if (this.sessionId === undefined) return echo;
    return localName(echo, this.sessionId) ?? fallback;
  }

  /** Runs `use` on the repository handle, then releases the handle (an RPC stub on the platform). */
  async #withRepo<T>(stored: string, use: (repo: ArtifactsRepo) => Promise<T>): Promise<T> {
    const repo = await this.#binding.get(stored);
    try {
      return await use(repo);
    } finally {
      release(repo);
    }
  }
}

/** Disposes an RPC stub when it can be (`Symbol.dispose`); never throws. */
function release(handle: unknown): void {
  const dispose = (Symbol as { dispose?: symbol }).dispose;
  if (dispose === undefined || typeof handle !== "object" || handle === null) return;
  try {
    const fn = (handle as Record<symbol, unknown>)[dispose];
    if (typeof fn === "function") fn.call(handle);
  } catch {
    // A failed release must not hide the result.
  }
}
