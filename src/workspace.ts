/**
 * The Workspace: a durable filesystem on SQL storage (`fs`), an execution
 * runtime with pluggable backends (`runtime`), and hooks for assets,
 * git and Artifacts (spec 01 §1).
 *
 * @module
 */
import { Database, type WorkspaceDatabase } from "./storage/database.js";
import type { DurableObjectStorageLike } from "./storage/types.js";
import { WorkspaceFs } from "./fs/index.js";
import { SQLiteWorkspaceProvider } from "./fs/provider.js";
import type { WorkspaceFilesystem } from "./fs/types.js";
import { WorkspaceRuntime, type WorkspaceRegisteredBackend } from "./runtime/index.js";
import type { SyncProgress } from "./runtime/types.js";
import { noopObserver, type WorkspaceObserver } from "./observer.js";
// Type only: the Durable Object layer builds the stub and installs its
// factory with provideStubFactory(), so the core never loads do/.
import type { WorkspaceStub } from "./do/stub.js";
import { isCanonicalPath } from "./fs/path.js";
import { MountRegistry } from "./mounts/registry.js";
import type { Mount, MountFactory } from "./mounts/types.js";
import type { AssetsClient } from "./assets/types.js";
// Type only: the root entry never loads git (isomorphic-git is imported by the client on first use).
import type { GitClient, GitClientFactory, GitIdentity } from "./git/types.js";
import { positiveInteger } from "./util/validate.js";
import { resolveSyncTelemetry, type SyncLogger } from "./runtime/sync-telemetry.js";
import { createArtifact } from "./artifacts/client.js";
import { unconfiguredArtifacts } from "./artifacts/unconfigured.js";
import type { Artifacts, ArtifactClient } from "./artifacts/types.js";
import { valueCut } from "./util/cut.js";

/** Where long command output is saved and how much `result()` keeps (spec 02 §2). */
export interface WorkspaceOutputOptions {
  /** Lines kept in `result()` per stream. Default `2000`. */
  readonly maxLines?: number;
  /** Bytes kept in `result()` per stream. Default `65536`. */
  readonly maxBytes?: number;
  /** Absolute directory for full-output files. Default `"/.computer/output"`. */
  readonly dir?: string;
  /** Output files kept. Default `50`. */
  readonly keep?: number;
}

/** Options for `new Workspace(options)` (spec 01 §1.1). */
export interface WorkspaceOptions {
  /** Required. A Durable Object's `ctx.storage`, or `nodeSqliteStorage()` on Node. */
  storage: DurableObjectStorageLike;
  /** Execution backends; the first is the default. Duplicate ids throw. Default `[]`. */
  backends?: WorkspaceRegisteredBackend[];
  /**
   * Clock in ms for every `mtime`. Default `Date.now`. It dates mtimes only:
   * the chunk leases that protect a streamed write or read from another
   * Workspace's, process's or isolate's sweep are a protocol between every
   * connection to the storage and use the wall clock (`Date.now()`), whatever
   * this returns (issue 20, run 40, fixer f40fs).
   */
  now?: () => number;
  /** Exposed as `workspace.sessionId`. Default `""`. */
  sessionId?: string;
  /**
   * Root → mount (`R2Bucket(…)`, `WorkerBundle(…)`) or a factory called once
   * here with `{ sessionId, root, vfs }` (spec 01 §6). Roots must be absolute,
   * canonical, without a trailing `/`, and must not nest (else `new Workspace`
   * throws). Contents are copied in by `ready()`; read-only mounts reject
   * every write with `EROFS`. Default: none (no mounts).
   */
  mounts?: Record<string, Mount | MountFactory>;
  /**
   * Span hook for stub calls. Default {@link noopObserver}.
   * `new Workspace` throws a `TypeError` when it is given but is not an object with a `span` function.
   */
  observer?: WorkspaceObserver;
  /**
   * Assets publisher (`createAssets` from `agent-computer/assets`), or a function
   * called once at the end of construction with the Workspace (spec 04 §1.7).
   * Errors it throws propagate from `new Workspace`. Default: none
   * (`workspace.assets` is `undefined`, and tool sets have no publish tool).
   */
  assets?: AssetsClient | ((ws: Workspace) => AssetsClient);
  /**
   * Long-output limits (spec 02 §2), each field over its default, or `false`
   * to keep every run's output whole. Default: `{ maxLines: 2000, maxBytes:
   * 65536, dir: "/.computer/output", keep: 50 }`.
   *
   * @throws Error from `new Workspace` when `maxLines`, `maxBytes` or `keep`
   *   is not a positive integer, or `dir` is not absolute, is `/`, or ends in `/`.
   */
  output?: WorkspaceOutputOptions | false;
  /**
   * The git client factory: `createGitClient()` from `agent-computer/git`
   * (spec 04 §2.2). Called once, on the first read of `workspace.git`, with
   * `{ ws: workspace, defaultIdentity: defaultGitIdentity }`. Default: none
   * (reading `workspace.git` throws; backends and host modules get a
   * stand-in whose methods reject with the same message).
   *
   * @throws TypeError from `new Workspace` when it is not a function.
   */
  git?: WorkspaceGitFactory;
  /**
   * Fallback author and committer of commits, merges and pulls when no
   * explicit identity, `GIT_AUTHOR_*`/`GIT_COMMITTER_*` env or repository
   * `user.name`/`user.email` gives one (spec 04 §2.3). Default: none
   * (`MissingIdentityError` `EIDENTITY` then).
   *
   * @throws TypeError from `new Workspace` when it is not `{ name: string, email: string }`.
   */
  defaultGitIdentity?: GitIdentity;
  /**
   * Where sync telemetry goes when `syncTelemetryEnabled` is `true`: a
   * {@link SyncLogger} (`createSyncLogger({ write })`, or any object with
   * `block` and `operation`). Default: `createSyncLogger()`, JSON lines on
   * `console.log`. Given alone it logs nothing: telemetry is off by default.
   *
   * @throws TypeError from `new Workspace` when it lacks `block`/`operation` methods.
   */
  syncTelemetry?: SyncLogger;
  /**
   * `true` reports every block (`sync.block`) and every push or pull
   * (`sync.operation`) of the Workspace ⇄ container sync to `syncTelemetry`
   * (docs/runtime.md "Sync telemetry"). Default `false`.
   *
   * @throws TypeError from `new Workspace` when it is not a boolean.
   */
  syncTelemetryEnabled?: boolean;
  /**
   * The Artifacts binding (spec 04 §3.3), as `{ binding: env.ARTIFACTS,
   * sessionId? }`. The session scope is `artifacts.sessionId` unless that
   * is `undefined` (`null` = namespace-wide), else `options.sessionId`
   * (absent = namespace-wide). Default: none (`workspace.artifacts` still
   * exists; its methods throw `ENOCONFIG` and its `cli` runs in
   * unconfigured mode).
   *
   * @throws InvalidSessionIdError (`EINVALIDSESSION`) from `new Workspace`
   *   when the scope is `""`, does not match `^[A-Za-z0-9][A-Za-z0-9._-]*$`
   *   or contains `__`.
   * @throws TypeError from `new Workspace` when it is not `{ binding }`
   *   with an object binding, or `sessionId` is neither a string, `null`
   *   nor `undefined`.
   */
  artifacts?: {
    /** The Artifacts binding (`env.ARTIFACTS`). */
    binding: Artifacts;
    /** The session scope: a session id, `null` for namespace-wide, or `undefined` for `WorkspaceOptions.sessionId`. Default `undefined`. */
    sessionId?: string | null;
  };
}

/** What `WorkspaceOptions.git` takes: `createGitClient()` from `agent-computer/git` (spec 01 §1.1). */
export type WorkspaceGitFactory = GitClientFactory;

/**
 * What reading `workspace.git` throws when `WorkspaceOptions.git` is unset
 * (spec 04 §2.2); host modules' and backends' stand-in rejects with it too.
 */
export const GIT_NOT_CONFIGURED_MESSAGE =
  "git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git";

/** A new `Error` with {@link GIT_NOT_CONFIGURED_MESSAGE} and `code` `"ENOCONFIG"`. */
export function gitNotConfiguredError(): Error & { code: "ENOCONFIG" } {
  return Object.assign(new Error(GIT_NOT_CONFIGURED_MESSAGE), { code: "ENOCONFIG" as const });
}

/** Builds what `workspace.stub()` returns; installed by the Durable Object layer. */
export type WorkspaceStubFactory = (workspace: Workspace) => WorkspaceStub;

let stubFactory: WorkspaceStubFactory | undefined;

/**
 * Installs the factory behind {@link Workspace.stub}. The Durable Object
 * layer (`do/mixin.ts`) calls it when it loads, which the root entry always
 * does; the core itself never imports that layer. Not a public API.
 */
export function provideStubFactory(factory: WorkspaceStubFactory): void {
  stubFactory = factory;
}

const DEFAULT_OUTPUT = { maxLines: 2000, maxBytes: 65536, dir: "/.computer/output", keep: 50 } as const;

/**
 * A durable computer for an agent. Construct it in a Durable Object over
 * `ctx.storage` (or on Node over `nodeSqliteStorage()`); the schema is created
 * synchronously, so `workspace.fs` is usable at once.
 *
 * @example
 * ```ts
 * export class Agent extends DurableObject {
 *   workspace = new Workspace({ storage: this.ctx.storage });
 * }
 * ```
 * @throws Error when two backends share an id, or `output` is invalid.
 * @throws WorkspaceFsError `EIO` when the store was written by a newer, incompatible schema.
 */
export class Workspace {
  /** The filesystem (spec 01 §3). Same object on every access. */
  readonly fs: WorkspaceFilesystem;
  /** Diagnostic handle on the SQL store (statement and rows-read counters). Its shape is not a stable API. */
  readonly db: WorkspaceDatabase;
  /** `options.sessionId`, or `""`: recorded in shared assets' metadata; a non-empty one makes the publish tool store links under `agent-<sessionId>`. */
  readonly sessionId: string;
  /** `options.observer`, or {@link noopObserver}: receives a span per stub call (spec 01 §5.4). */
  readonly observer: WorkspaceObserver;
  /** Resolved long-output settings, or `false` when disabled. */
  readonly output: Required<WorkspaceOutputOptions> | false;
  /** The assets publisher, when configured (spec 04 §1.7). */
  readonly assets?: AssetsClient;
  /** The sync logger in use: `options.syncTelemetry` (or a `console.log` one) when `syncTelemetryEnabled`, else `undefined`. */
  readonly syncTelemetry: SyncLogger | undefined;
  /**
   * The Artifacts client (spec 04 §3.3), always present. With
   * `WorkspaceOptions.artifacts`, `createArtifact(binding, sessionId)` over
   * the Workspace's binding and session scope; without it, `sessionId` is
   * `undefined`, every method throws (synchronously) `ArtifactError`
   * `ENOCONFIG` `Workspace Artifacts binding is not configured`, and `cli`
   * runs in unconfigured mode (help, and that message for commands).
   *
   * @example
   * ```ts
   * const workspace = new Workspace({ storage: ctx.storage, artifacts: { binding: env.ARTIFACTS }, sessionId: "alice" });
   * const { remote, token } = await workspace.artifacts.create("notes"); // stored as alice__notes
   * ```
   */
  readonly artifacts: ArtifactClient;
  readonly #now: () => number;
  readonly #backends: readonly WorkspaceRegisteredBackend[];
  readonly #mounts: MountRegistry;
  readonly #gitFactory: WorkspaceGitFactory | undefined;
  readonly #defaultGitIdentity: GitIdentity | undefined;
  #git?: GitClient;
  #provider?: SQLiteWorkspaceProvider;
  #runtime?: WorkspaceRuntime;

  constructor(options: WorkspaceOptions) {
    if (!options || typeof options !== "object") throw new TypeError("new Workspace(options) needs { storage }");
    this.#now = options.now ?? Date.now;
    this.sessionId = options.sessionId ?? "";
    const observer: unknown = options.observer;
    if (observer !== undefined && (observer === null || (typeof observer !== "object" && typeof observer !== "function") || typeof (observer as { span?: unknown }).span !== "function")) {
      const got = observer !== null && (typeof observer === "object" || typeof observer === "function") ? "an object without a span function" : describe(observer);
      throw new TypeError(
        `Workspace observer must be a WorkspaceObserver with a span(name, attributes, run) function (e.g. createOpenTelemetryObserver from agent-computer/observe/opentelemetry), or left out; got ${got}`,
      );
    }
    this.observer = options.observer ?? noopObserver;
    const backends = options.backends ?? [];
    const seen = new Set<string>();
    for (const backend of backends) {
      if (seen.has(backend.id)) throw new Error(`duplicate backend id "${backend.id}": every backend needs its own id`);
      seen.add(backend.id);
    }
    this.#backends = backends;
    this.output = resolveOutput(options.output);
    if (options.git !== undefined && typeof options.git !== "function") {
      throw new TypeError(`Workspace git must be a git client factory such as createGitClient() from agent-computer/git, got ${describe(options.git)}`);
    }
    this.#gitFactory = options.git;
    this.#defaultGitIdentity = resolveIdentity(options.defaultGitIdentity);
    this.syncTelemetry = resolveSyncTelemetry(options.syncTelemetry, options.syncTelemetryEnabled);
    this.artifacts = resolveArtifacts(options.artifacts, options.sessionId);
    const db = new Database(options.storage);
    this.db = db;
    this.fs = new WorkspaceFs(db, { now: this.#now });
    this.#mounts = new MountRegistry(options.mounts, { fs: this.fs, provider: () => this.provider(), db, sessionId: this.sessionId });
    if (options.assets !== undefined) {
      this.assets = typeof options.assets === "function" ? options.assets(this) : options.assets;
    }
  }

  /** The clock used for `mtime` (ms). */
  now(): number {
    return this.#now();
  }

  /**
   * The git client (spec 04 §2.2): made by `WorkspaceOptions.git` on the
   * first read, with `{ ws: this, defaultIdentity: defaultGitIdentity }`,
   * and the same object on every read after. It has no network gate of its
   * own: clone, fetch, pull and push run from this Durable Object.
   *
   * @example
   * ```ts
   * const workspace = new Workspace({ storage: ctx.storage, git: createGitClient() });
   * await workspace.git.init({ dir: "/repo" });
   * const { stdout } = await workspace.git.cli({ argv: ["status", "-s"], cwd: "/repo" });
   * ```
   * @throws Error (synchronously, `code` `"ENOCONFIG"`) `git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git` when the option is unset; what the factory throws (not cached: the next read calls it again).
   */
  get git(): GitClient {
    if (this.#git) return this.#git;
    if (!this.#gitFactory) throw gitNotConfiguredError();
    const options: { ws: Workspace; defaultIdentity?: GitIdentity } = { ws: this };
    if (this.#defaultGitIdentity) options.defaultIdentity = this.#defaultGitIdentity;
    return (this.#git = this.#gitFactory(options));
  }

  /**
   * The Workspace as a node:fs-style file system provider (spec 01 §1.2),
   * in the shape of `node:vfs`'s `VirtualProvider`: `new
   * VirtualFileSystem(workspace.provider())` from `@platformatic/vfs` gives
   * a node:fs-like object over this store (its `create()` accepts only its
   * own provider classes). Open files, watching through the change log,
   * node:fs errors. Created on first call; the same object after. See
   * {@link SQLiteWorkspaceProvider} for what it does and does not support
   * (asynchronous only; no hard links).
   */
  provider(): SQLiteWorkspaceProvider {
    return (this.#provider ??= new SQLiteWorkspaceProvider(this));
  }

  /** The execution runtime (spec 02 §1). Created on first access. */
  get runtime(): WorkspaceRuntime {
    return (this.#runtime ??= new WorkspaceRuntime(this, this.#backends));
  }

  /**
   * Gets the Workspace ready (spec 01 §1.2): first materialises the mounts
   * that need it (see {@link Workspace.ensureMountsIndexed}); then a backend
   * id also connects that backend, `{ all: true }` connects every backend in
   * parallel; without arguments nothing is connected. Concurrent callers
   * share one pass; a failed one is not cached, so the next call retries.
   * @throws Error for an unregistered backend id (when any backend is configured), a mount's failure, or the backend's connect error.
   */
  async ready(
    options?:
      | string
      | {
          /** `true` connects every backend, in parallel. Default `false` (no backend is connected). */
          all?: boolean;
        },
  ): Promise<void> {
    await this.#mounts.ensure();
    if (this.#backends.length === 0) return;
    if (typeof options === "string") await this.runtime.ready(options);
    else if (options?.all === true) await this.runtime.ready({ all: true });
  }

  /**
   * Materialises the mounts alone (spec 01 §6.2): each mount whose stored
   * record is missing or incomplete, or whose `version` differs from the
   * recorded one, has its root cleared (user files there included) and
   * refilled. Mounts run in parallel; rejects with the first failure after
   * all settle, and a failed mount is retried on the next call.
   */
  ensureMountsIndexed(): Promise<void> {
    return this.#mounts.ensure();
  }

  /** A copy of the mount registry: root → mount. */
  mounts(): Map<string, Mount> {
    return this.#mounts.mounts();
  }

  /**
   * Forgets the mount recorded at `root` (an addition to 0.8.0, which has no
   * way out): its protection ends at once and its files stay, as ordinary
   * files. Use it after removing or moving a mount in the options — a
   * recorded read-only mount otherwise stays protected for good (spec 01
   * §6.3). A root still in the options is copied in again by the next
   * `ready()`. Resolves to whether a record was dropped.
   * @throws Error when `root` is not an absolute canonical path.
   */
  async unmount(root: string): Promise<boolean> {
    if (typeof root !== "string" || !isCanonicalPath(root)) {
      throw new Error(`unmount(root): root must be an absolute canonical path such as "/workspace/data", got ${valueCut(root)}`);
    }
    const dropped = await this.#mounts.unmount(root);
    this.#mounts.forget();
    return dropped;
  }

  /**
   * A new RPC target over this Workspace on every call (spec 01 §5.3): what
   * `withWorkspace`'s `__getWorkspaceStub()` returns to other Workers.
   * @throws Error when the Durable Object layer is not loaded (only when this
   *   module is imported on its own, not through `agent-computer`).
   */
  stub(): WorkspaceStub {
    if (!stubFactory) throw new Error("workspace.stub() needs agent-computer's Durable Object layer: import Workspace from \"agent-computer\"");
    return stubFactory(this);
  }

  /**
   * Sends the Workspace's changes under `/workspace` to remote-store
   * backends (a container): backend `id`, or every one connected or synced
   * before (spec 01 §1.2, experimental). Serialised with their commands.
   * Yields one progress record per backend; with none, one with
   * `operationId: "none"`. A transport failure yields `complete: false` with `error`.
   */
  push(id?: string): AsyncIterable<SyncProgress> {
    return this.runtime.push(id);
  }

  /**
   * Copies remote-store backends' changes into the Workspace: backend `id`,
   * or every connected one and every one whose pull is pending (a command's
   * pull that failed, or ran with `sync: "defer"`), completing it (spec 01
   * §1.2, spec 02 §7.3). Yields as {@link push}.
   */
  pull(id?: string): AsyncIterable<SyncProgress> {
    return this.runtime.pull(id);
  }

  /** Closes backend connections (errors swallowed) and forgets `ready()`, so the next call checks the mounts again. `fs` keeps working. */
  async close(): Promise<void> {
    this.#provider?.unwatchAll();
    this.#mounts.forget();
    await this.#runtime?.close().catch(() => {});
  }
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function shown(value: unknown): string {
  if (typeof value !== "object" || value === null) return describe(value);
  try {
    return JSON.stringify(value) ?? describe(value);
  } catch {
    return describe(value);
  }
}

function resolveIdentity(identity: WorkspaceOptions["defaultGitIdentity"]): GitIdentity | undefined {
  if (identity === undefined) return undefined;
  const ok =
    typeof identity === "object" &&
    identity !== null &&
    typeof identity.name === "string" &&
    identity.name.trim() !== "" &&
    typeof identity.email === "string" &&
    identity.email.trim() !== "";
  if (!ok) {
    throw new TypeError(`Workspace defaultGitIdentity must be { name, email } with non-empty strings, got ${shown(identity)}`);
  }
  return Object.freeze({ name: identity.name, email: identity.email });
}

/**
 * `workspace.artifacts` (spec 04 §3.3): the unconfigured client without
 * `artifacts`; else `createArtifact(binding, scope)` with scope =
 * `artifacts.sessionId` unless `undefined`, else `sessionId` (`createArtifact`
 * throws `InvalidSessionIdError` for `""` or an invalid id).
 */
function resolveArtifacts(artifacts: WorkspaceOptions["artifacts"], sessionId: string | undefined): ArtifactClient {
  if (artifacts === undefined) return unconfiguredArtifacts();
  const binding: unknown = artifacts !== null && typeof artifacts === "object" ? (artifacts as { binding?: unknown }).binding : undefined;
  if (binding === null || (typeof binding !== "object" && typeof binding !== "function")) {
    throw new TypeError(`Workspace artifacts must be { binding, sessionId? } with the Artifacts binding (env.ARTIFACTS) as binding, got ${shown(artifacts)}`);
  }
  const own = artifacts.sessionId;
  if (own !== undefined && own !== null && typeof own !== "string") {
    throw new TypeError(`Workspace artifacts.sessionId must be a string, null (namespace-wide) or undefined (use options.sessionId), got ${describe(own)}`);
  }
  return createArtifact(artifacts.binding, own !== undefined ? own : sessionId);
}

function resolveOutput(output: WorkspaceOptions["output"]): Required<WorkspaceOutputOptions> | false {
  if (output === false) return false;
  const merged = { ...DEFAULT_OUTPUT, ...(output ?? {}) };
  for (const key of ["maxLines", "maxBytes", "keep"] as const) positiveInteger(merged[key], `Workspace output.${key}`, { got: true, error: Error });
  const dir = merged.dir;
  if (typeof dir !== "string" || !dir.startsWith("/") || dir.length < 2 || dir.endsWith("/")) {
    throw new Error(`Workspace output.dir must be an absolute path other than "/" without a trailing slash, got ${valueCut(dir)}`);
  }
  return merged;
}
