/**
 * **Stand-in** for Cloudflare's Artifacts binding (`env.ARTIFACTS`), for
 * tests only. The platform service has no local simulation (Miniflare and
 * workerd have none), so this class implements the binding's interface as
 * this package uses it (spec 04 §3.1) in memory: `create`, `get`, `import`,
 * `list` (limit 1–200, default 50, opaque cursors), `delete`, and repository
 * handles with `info`, `createToken` (scope `write`, ttl 86400 s by default;
 * ttl 60–31,536,000 s), `listTokens`, `revokeToken`. Failures reject with an
 * error named `ArtifactsError` carrying the platform's string `code`
 * (`NOT_FOUND`, `ALREADY_EXISTS`, `INVALID_REPO_NAME`, `INVALID_TTL`,
 * `INVALID_INPUT`, `INTERNAL_ERROR`).
 *
 * Given `gitServerUrl` (the loopback server of `git-server.ts`, e.g.
 * `gitServer().baseUrl`), every repository is a real, empty bare repository
 * on that server (made with `POST /admin/fork`, refs cleared, `HEAD` on the
 * default branch), and its `remote` is that repository's smart-HTTP URL: a
 * push to it lands commits the real `git` reads (`serverGit`). `import` of a
 * `<gitServerUrl>/git/<name>.git` URL copies that repository. The server
 * ignores credentials, so any token "works" for git; token checks are not
 * simulated.
 *
 * Messages, token shapes (`art_v2_x_<40 hex>?expires=<unix s>`, ids of 16
 * base-36 characters) and limits follow Miniflare's local Artifacts
 * simulator. Differences: names are case-sensitive, `list` is sorted by
 * name, a repository's tokens are all listed (expired and revoked included,
 * with their `state`), and `create`/`import` also report `tokenExpiresAt`.
 *
 * Pure JavaScript plus `fetch`: runs on Node and inside workerd.
 *
 * @example
 * ```ts
 * const binding = new ArtifactsStandIn({ gitServerUrl: gitServer().baseUrl });
 * const client = createArtifact(binding, "s1");
 * const repo = await client.create("notes");      // repo.remote = http://127.0.0.1:<port>/git/art-….git
 * ```
 *
 * @module
 */
import type {
  ArtifactCreateOptions,
  ArtifactImportOptions,
  ArtifactImportSource,
  ArtifactRepoSummary,
  Artifacts,
  ArtifactScope,
  ArtifactsCreateRepoResult,
  ArtifactsCreateTokenResult,
  ArtifactsRepo,
  ArtifactsRepoInfo,
  ArtifactsRepoListResult,
  ArtifactsTokenListResult,
} from "../../src/artifacts/types.js";

/** Options of {@link ArtifactsStandIn}. */
export interface ArtifactsStandInOptions {
  /**
   * Base URL of the loopback git server (`http://127.0.0.1:<port>`). Without
   * it, remotes are `https://artifacts.standin.invalid/<namespace>/<name>.git`
   * with no git behind them.
   */
  gitServerUrl?: string;
  /** Namespace shown in placeholder remotes. Default `standin`. */
  namespace?: string;
  /**
   * `advance` (default): real paging. `repeat`: a page asked with a cursor
   * answers with that same cursor (a non-advancing cursor, as a faulty service might).
   * `endless`: every page answers a new cursor, past the end too (a service whose listing never ends).
   */
  cursor?: "advance" | "repeat" | "endless";
  /** The clock, in ms since the epoch (token expiry, timestamps). Default `Date.now`. */
  now?: () => number;
}

/** What the stand-in rejects with: the platform's `ArtifactsError` shape (`name`, string `code`). */
export class ArtifactsStandInError extends Error {
  /** The platform's string code, e.g. `NOT_FOUND`. */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "ArtifactsError";
    this.code = code;
  }
}

/** One recorded call on the stand-in (binding or handle), for asserting what reached the "service". */
export interface StandInCall {
  /** `create`, `get`, `import`, `list`, `delete`, `repo.info`, `repo.createToken`, `repo.listTokens`, `repo.revokeToken`. */
  method: string;
  /** The arguments, as passed. */
  args: unknown[];
}

interface TokenRecord {
  id: string;
  secret: string;
  plaintext: string;
  scope: ArtifactScope;
  createdAt: number;
  expiresAt: number;
  revoked: boolean;
}

interface RepoRecord {
  id: string;
  name: string;
  description: string | null;
  defaultBranch: string;
  createdAt: string;
  updatedAt: string;
  source: string | null;
  readOnly: boolean;
  remote: string;
  tokens: TokenRecord[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_NAME = 256;
const MIN_TTL = 60;
const MAX_TTL = 31_536_000;
const DEFAULT_TTL = 86_400;
const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;

/** In-memory stand-in for the Artifacts binding (see the module description). */
export class ArtifactsStandIn implements Artifacts {
  /** Every call that reached the stand-in, in order. */
  readonly calls: StandInCall[] = [];
  readonly #repos = new Map<string, RepoRecord>();
  /** Names being created or imported (their git repository is being made). */
  readonly #pending = new Set<string>();
  readonly #options: ArtifactsStandInOptions;
  #ids = 0;

  constructor(options: ArtifactsStandInOptions = {}) {
    this.#options = options;
  }

  /** Names of the stored repositories, sorted. */
  names(): string[] {
    return [...this.#repos.keys()].sort();
  }

  async create(name: string, opts?: ArtifactCreateOptions): Promise<ArtifactsCreateRepoResult> {
    this.calls.push({ method: "create", args: opts === undefined ? [name] : [name, opts] });
    this.#checkName(name);
    this.#reserve(name);
    const defaultBranch = opts?.setDefaultBranch ?? "main";
    let remote: string;
    try {
      remote = await this.#newRemote(name, { branch: defaultBranch });
    } finally {
      this.#pending.delete(name);
    }
    const repo = this.#store(name, remote, defaultBranch, opts?.description ?? null, opts?.readOnly === true, null);
    const token = this.#mint(repo, "write", DEFAULT_TTL);
    return this.#created(repo, token);
  }

  async get(name: string): Promise<ArtifactsRepo> {
    this.calls.push({ method: "get", args: [name] });
    const repo = this.#repos.get(name);
    if (repo === undefined) throw notFound(name);
    return this.#handle(repo.id, name);
  }

  async import(params: {
    source: ArtifactImportSource;
    target: { name: string; opts?: ArtifactImportOptions };
  }): Promise<ArtifactsCreateRepoResult> {
    this.calls.push({ method: "import", args: [params] });
    const { source, target } = params ?? ({} as typeof params);
    if (typeof source?.url !== "string" || !/^https?:\/\//.test(source.url)) {
      throw new ArtifactsStandInError("INVALID_INPUT", `source.url must be an http(s) URL (got ${JSON.stringify(source?.url)})`);
    }
    if (source.depth !== undefined && (!Number.isSafeInteger(source.depth) || source.depth < 1)) {
      throw new ArtifactsStandInError("INVALID_INPUT", `source.depth must be a positive integer (got ${source.depth})`);
    }
    const name = target?.name;
    this.#checkName(name);
    this.#reserve(name);
    let made: { remote: string; defaultBranch: string };
    try {
      made = await this.#importRemote(name, source);
    } finally {
      this.#pending.delete(name);
    }
    const { remote, defaultBranch } = made;
    const repo = this.#store(name, remote, defaultBranch, target.opts?.description ?? null, target.opts?.readOnly === true, `git:${source.url}`);
    const token = this.#mint(repo, "write", DEFAULT_TTL);
    return this.#created(repo, token);
  }

  /** The git side of `import`: a copy of a `<gitServerUrl>/git/<name>.git` repository, or a placeholder remote. */
  async #importRemote(name: string, source: ArtifactImportSource): Promise<{ remote: string; defaultBranch: string }> {
    const base = this.#options.gitServerUrl;
    if (base === undefined) return { remote: this.#placeholderRemote(name), defaultBranch: source.branch ?? "main" };
    const from = new RegExp(`^${escapeRegExp(base)}/git/([A-Za-z0-9][A-Za-z0-9._-]*)\\.git$`).exec(source.url)?.[1];
    if (from === undefined) {
      throw new ArtifactsStandInError("INVALID_URL", `the stand-in imports only from ${base}/git/<name>.git (got ${source.url})`);
    }
    const remote = await this.#newRemote(name, { from, branch: source.branch });
    const defaultBranch = source.branch ?? (await this.#git(remoteRepoName(remote), ["symbolic-ref", "--short", "HEAD"])).stdout.trim();
    return { remote, defaultBranch };
  }

  async list(opts?: { limit?: number; cursor?: string }): Promise<ArtifactsRepoListResult> {
    this.calls.push({ method: "list", args: opts === undefined ? [] : [opts] });
    const limit = opts?.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new ArtifactsStandInError("INVALID_INPUT", `Invalid limit: must be between 1 and ${MAX_LIMIT}.`);
    }
    let offset = 0;
    if (opts?.cursor !== undefined) {
      const match = /^cursor-([0-9]+)$/.exec(opts.cursor);
      if (match === null) throw new ArtifactsStandInError("INVALID_INPUT", `bad cursor '${opts.cursor}'`);
      offset = Number(match[1]);
    }
    const all = this.names();
    const repos: ArtifactRepoSummary[] = all.slice(offset, offset + limit).map((n) => {
      const { remote: _remote, ...summary } = this.#info(this.#repos.get(n)!);
      return summary;
    });
    const result: ArtifactsRepoListResult = { repos, total: all.length };
    if (this.#options.cursor === "repeat" && opts?.cursor !== undefined) result.cursor = opts.cursor;
    else if (this.#options.cursor === "endless") result.cursor = `cursor-${offset + limit}`;
    else if (offset + limit < all.length) result.cursor = `cursor-${offset + limit}`;
    return result;
  }

  async delete(name: string): Promise<boolean> {
    this.calls.push({ method: "delete", args: [name] });
    this.#checkName(name);
    return this.#repos.delete(name);
  }

  // -------------------------------------------------------------------------

  #handle(id: string, name: string): ArtifactsRepo {
    const live = (): RepoRecord => {
      const repo = this.#repos.get(name);
      if (repo === undefined || repo.id !== id) throw notFound(name);
      return repo;
    };
    return {
      info: async () => {
        this.calls.push({ method: "repo.info", args: [name] });
        return this.#info(live());
      },
      createToken: async (scope: ArtifactScope = "write", ttl: number = DEFAULT_TTL): Promise<ArtifactsCreateTokenResult> => {
        this.calls.push({ method: "repo.createToken", args: [name, scope, ttl] });
        const repo = live();
        if (scope !== "read" && scope !== "write") throw new ArtifactsStandInError("INVALID_INPUT", `scope must be read or write (got ${String(scope)})`);
        if (!Number.isSafeInteger(ttl) || ttl < MIN_TTL || ttl > MAX_TTL) {
          throw new ArtifactsStandInError("INVALID_TTL", `Invalid TTL ${ttl}: must be between ${MIN_TTL} and ${MAX_TTL} seconds.`);
        }
        const token = this.#mint(repo, scope, ttl);
        return { id: token.id, plaintext: token.plaintext, scope, expiresAt: new Date(token.expiresAt).toISOString() };
      },
      listTokens: async (): Promise<ArtifactsTokenListResult> => {
        this.calls.push({ method: "repo.listTokens", args: [name] });
        const now = this.#now();
        const tokens = live().tokens.map((t) => ({
          id: t.id,
          scope: t.scope,
          state: t.revoked ? ("revoked" as const) : t.expiresAt <= now ? ("expired" as const) : ("active" as const),
          createdAt: new Date(t.createdAt).toISOString(),
          expiresAt: new Date(t.expiresAt).toISOString(),
        }));
        return { tokens, total: tokens.length };
      },
      revokeToken: async (tokenOrId: string): Promise<boolean> => {
        this.calls.push({ method: "repo.revokeToken", args: [name, tokenOrId] });
        const repo = live();
        if (typeof tokenOrId !== "string" || tokenOrId === "") throw new ArtifactsStandInError("INVALID_INPUT", "tokenOrId must be a non-empty string");
        const token = repo.tokens.find((t) => t.id === tokenOrId || t.plaintext === tokenOrId || t.secret === tokenOrId);
        if (token === undefined || token.revoked) return false;
        token.revoked = true;
        return true;
      },
    };
  }

  /** Refuses a name that exists or is being made; marks it as being made. */
  #reserve(name: string): void {
    if (this.#repos.has(name) || this.#pending.has(name)) throw new ArtifactsStandInError("ALREADY_EXISTS", `repo already exists: ${name}`);
    this.#pending.add(name);
  }

  #checkName(name: unknown): asserts name is string {
    if (typeof name !== "string" || name.length > MAX_NAME || !NAME.test(name)) {
      throw new ArtifactsStandInError("INVALID_REPO_NAME", "Invalid repo name.");
    }
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #store(
    name: string,
    remote: string,
    defaultBranch: string,
    description: string | null,
    readOnly: boolean,
    source: string | null,
  ): RepoRecord {
    const at = new Date(this.#now()).toISOString();
    const repo: RepoRecord = {
      id: `repo_${++this.#ids}_${randomHex(4)}`,
      name,
      description,
      defaultBranch,
      createdAt: at,
      updatedAt: at,
      source,
      readOnly,
      remote,
      tokens: [],
    };
    this.#repos.set(name, repo);
    return repo;
  }

  #mint(repo: RepoRecord, scope: ArtifactScope, ttl: number): TokenRecord {
    const createdAt = this.#now();
    const expiresAt = createdAt + ttl * 1000;
    const secret = `art_v2_x_${randomHex(20)}`;
    const token: TokenRecord = {
      id: randomBase36(16),
      secret,
      plaintext: `${secret}?expires=${Math.floor(expiresAt / 1000)}`,
      scope,
      createdAt,
      expiresAt,
      revoked: false,
    };
    repo.tokens.push(token);
    return token;
  }

  #info(repo: RepoRecord): ArtifactsRepoInfo {
    return {
      id: repo.id,
      name: repo.name,
      description: repo.description,
      defaultBranch: repo.defaultBranch,
      createdAt: repo.createdAt,
      updatedAt: repo.updatedAt,
      lastPushAt: null,
      source: repo.source,
      readOnly: repo.readOnly,
      remote: repo.remote,
    };
  }

  #created(repo: RepoRecord, token: TokenRecord): ArtifactsCreateRepoResult {
    return {
      id: repo.id,
      name: repo.name,
      description: repo.description,
      defaultBranch: repo.defaultBranch,
      remote: repo.remote,
      token: token.plaintext,
      tokenExpiresAt: new Date(token.expiresAt).toISOString(),
    };
  }

  #placeholderRemote(name: string): string {
    return `https://artifacts.standin.invalid/${this.#options.namespace ?? "standin"}/${name}.git`;
  }

  /** A fresh bare repository on the git server (empty, or a copy of `from`), `HEAD` on `branch` when given. */
  async #newRemote(name: string, init: { from?: string; branch?: string | undefined }): Promise<string> {
    const base = this.#options.gitServerUrl;
    if (base === undefined) return this.#placeholderRemote(name);
    const forked = await admin<{ name: string; url: string }>(base, "fork", { from: init.from ?? "fixture" });
    if (init.from === undefined) {
      // An empty repository: drop every ref of the fixture copy.
      const refs = await this.#git(forked.name, ["for-each-ref", "--format=delete %(refname)"]);
      await this.#git(forked.name, ["update-ref", "--stdin"], new TextEncoder().encode(refs.stdout));
    }
    if (init.branch !== undefined) {
      if (init.from !== undefined) {
        const exists = await admin<{ code: number }>(base, "git", { repo: forked.name, args: ["rev-parse", "--verify", "-q", `refs/heads/${init.branch}`] });
        if (exists.code !== 0) throw new ArtifactsStandInError("NOT_FOUND", `branch '${init.branch}' not found in the source repository`);
      }
      const set = await admin<{ code: number; stderr: string }>(base, "git", {
        repo: forked.name,
        args: ["symbolic-ref", "HEAD", `refs/heads/${init.branch}`],
      });
      if (set.code !== 0) throw new ArtifactsStandInError("INVALID_INPUT", `bad default branch '${init.branch}': ${set.stderr.trim()}`);
    }
    return forked.url;
  }

  async #git(repo: string, args: string[], stdin?: Uint8Array): Promise<{ stdout: string }> {
    const body: Record<string, unknown> = { repo, args };
    if (stdin !== undefined) body.stdin = btoa(String.fromCharCode(...stdin));
    const result = await admin<{ code: number; stdout: string; stderr: string }>(this.#options.gitServerUrl!, "git", body);
    if (result.code !== 0) throw new ArtifactsStandInError("INTERNAL_ERROR", `stand-in: git ${args.join(" ")} failed: ${result.stderr.trim()}`);
    return result;
  }
}

/** The server's repository name in a `<base>/git/<name>.git` URL. */
function remoteRepoName(url: string): string {
  return /\/git\/([^/]+)\.git$/.exec(url)![1]!;
}

function notFound(name: string): ArtifactsStandInError {
  return new ArtifactsStandInError("NOT_FOUND", `Repository not found: ${name}.`);
}

async function admin<T>(base: string, route: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}/admin/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const value = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new ArtifactsStandInError("INTERNAL_ERROR", `stand-in: git server /admin/${route}: ${value.error ?? res.status}`);
  return value;
}

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return [...buf].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function randomBase36(length: number): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  const buf = new Uint8Array(length);
  crypto.getRandomValues(buf);
  return [...buf].map((b) => alphabet[b % alphabet.length]).join("");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
