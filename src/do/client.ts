/**
 * `getWorkspace(source)`: one client for a Workspace, in the Durable Object
 * that owns it or in another Worker over RPC (spec 01 §5.2).
 *
 * @module
 */
import { gitNotConfiguredError, Workspace } from "../workspace.js";
import type { ArtifactClient } from "../artifacts/types.js";
import type { GitCliInput, GitCliResult } from "../git/types.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { WorkspaceBackendInfo } from "../runtime/index.js";
import type { PublishOptions } from "./assets-stub.js";
import type { WorkspaceHost } from "./host.js";
import { GIT_CLI_ABORTED, WORKSPACE } from "./symbol.js";
import { createRemoteFilesystem, type RemoteFilesystemStub } from "./remote-fs.js";
import { callRemote, CONNECTION_RESET_CODE, type RemoteProbe } from "./remote-error.js";
import { ArtifactError } from "../artifacts/errors.js";
import {
  createLocalRuntimeClient,
  createRemoteRuntimeClient,
  type RemoteRuntimeStub,
  type WorkspaceRuntimeClient,
} from "./runtime-client.js";
import { compactView } from "../util/rpc-bytes.js"; // compact views: run 35, fixer UV

/** A Durable Object (or its stub) that can hand out a Workspace. */
export type WorkspaceHandle =
  | {
      /** The local Workspace, under `withWorkspace`'s private symbol (the object itself, `getWorkspace(this)`). */
      [WORKSPACE]?: unknown;
    }
  | {
      /** The RPC method `withWorkspace` adds: resolves to a new `WorkspaceStub` (a stub from another Worker). */
      __getWorkspaceStub(): PromiseLike<unknown>;
    };

/** A handle, or a function returning one (called at load time, and again after a failed load). */
export type WorkspaceSource = WorkspaceHandle | (() => WorkspaceHandle | PromiseLike<WorkspaceHandle>);

/** Every method of `T`, returning a promise. */
export type AsyncMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** The assets publisher as a client offers it (`share` → URL). */
export interface WorkspaceAssetsClient {
  /**
   * Uploads the file at `path` and resolves to a presigned URL valid for
   * `options.expiresAfter` ms (spec 04 §1); the other options go to the
   * host's `assets.share`.
   * @throws (rejects) the host publisher's errors (a `WorkspaceFsError` such as `ENOENT` or `EISDIR` for the path); Error `code` `E2BIG` (`assets.share: the call is over 32 MiB, …`) for arguments workerd refuses to send.
   */
  share(path: string, options: PublishOptions): Promise<string>;
}

/** A loaded client: `await getWorkspace(source)`. Dispose it with `using`. */
export interface WorkspaceClient {
  /** The filesystem; locally `=== workspace.fs`. */
  readonly fs: WorkspaceFilesystem;
  /** The runtime; `backends()` is a snapshot taken at load. */
  readonly runtime: WorkspaceRuntimeClient;
  /**
   * Git. Locally `workspace.git` itself (read on access; throws
   * synchronously when git is not configured); remotely a
   * {@link WorkspaceRemoteGitClient} — `cli` only — whose calls reject
   * when the Workspace has no git.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly git: any;
  /** The assets publisher, or `undefined` when the Workspace has none. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly assets: any;
  /**
   * The Workspace's Artifacts client (spec 04 §3.3). Locally
   * `workspace.artifacts` (without `WorkspaceOptions.artifacts` its methods
   * throw `ENOCONFIG` synchronously and `cli` runs in unconfigured mode);
   * remotely the same ten methods through `WorkspaceStub.artifacts`, which
   * reject instead of throwing (arguments past workerd's 32 MiB: `ArtifactError`
   * `E2BIG`, `artifacts.<method>: the call is over 32 MiB, …`).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly artifacts: any;
  /**
   * The Workspace's `sessionId` (`""` when none). An addition to 0.8.0's
   * client: tools built from a client prefix published keys (`agent-<id>`)
   * exactly as tools built from the Workspace do.
   */
  readonly sessionId: string;
  /** Releases the remote stub (and its sub-stubs); a no-op locally. */
  [Symbol.dispose](): void;
}

/** What `getWorkspace` returns before it is awaited. */
export interface LazyWorkspaceClient extends PromiseLike<WorkspaceClient> {
  /**
   * Forwards each call to the loaded client: `lazy.fs.stat(p)` ≡ `(await lazy).fs.stat(p)`.
   * (Every fs method is already async, so this is `AsyncMethods<WorkspaceFilesystem>` with the overloads kept.)
   */
  readonly fs: WorkspaceFilesystem;
  /** Forwards calls; `backends()` is always a frozen `[]` here (await the client for the snapshot). */
  readonly runtime: WorkspaceRuntimeClient;
  /** Forwards each call to the loaded client's `git` (`lazy.git.cli(input)` ≡ `(await lazy).git.cli(input)`; rejects when git is not configured). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly git: any;
  /** Forwards each call to the loaded client's `artifacts` (rejects `ENOCONFIG` when Artifacts is not configured). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly artifacts: any;
  /** Always `undefined` before loading. */
  readonly assets: undefined;
  /** Marks the client disposed and disposes the loaded client once loading settles. */
  [Symbol.dispose](): void;
}

/**
 * A remote client's `git` (spec 04 §2.2): the Workspace's git CLI, run in
 * its Durable Object through `WorkspaceGitStub`.
 */
export interface WorkspaceRemoteGitClient {
  /**
   * Runs one git command line (spec 04 §2.5) in the Durable Object.
   * @throws (rejects) Error `git is not configured on this Workspace: …` (`code` `ENOCONFIG`) without `WorkspaceOptions.git`; the disposal error after the client is disposed; Error `code` `E2BIG` (`git.cli: the call is over 32 MiB, …`) for an input workerd refuses to send (a `stdin` that large: write it to a Workspace file and `git add` it).
   */
  cli(input: GitCliInput): Promise<GitCliResult>;
}

/** The Workspace stub as seen through RPC. */
interface RemoteWorkspaceStub {
  readonly fs: RemoteFilesystemStub;
  readonly runtime: RemoteRuntimeStub;
  readonly git: { cli(input: GitCliInput): Promise<GitCliResult> };
  readonly assets: { publish(path: string, options: PublishOptions): Promise<string> };
  readonly hasAssets: boolean | PromiseLike<boolean>;
  readonly sessionId: string | PromiseLike<string>;
  readonly artifacts: RemoteArtifactsStub;
  [Symbol.dispose]?(): void;
}

/** What a remote client reads of `WorkspaceStub.artifacts`: its session scope and the ten methods. */
type RemoteArtifactsStub = { readonly sessionId: string | null | PromiseLike<string | null> } & {
  [K in ArtifactMethod]: (...args: Parameters<ArtifactClient[K]>) => ReturnType<ArtifactClient[K]>;
};

type ArtifactMethod = Exclude<keyof ArtifactClient, "sessionId">;

/** The ten `ArtifactClient` methods a remote client forwards to `WorkspaceStub.artifacts` (spec 04 §3.3). */
const ARTIFACT_METHODS: readonly ArtifactMethod[] = [
  "create",
  "get",
  "list",
  "import",
  "delete",
  "createToken",
  "listTokens",
  "revokeToken",
  "getToken",
  "cli",
];

const EMPTY_BACKENDS: readonly WorkspaceBackendInfo[] = Object.freeze([]);

/**
 * The disposal message. It starts with spec 01 §5.2's text, so code matching
 * that keeps working, and goes on to name the usual cause and the fix.
 */
const DISPOSED =
  "workspace client is disposed: it was called after its `using` block ended (or after [Symbol.dispose]()). " +
  "A function that does `using workspace = await getWorkspace(stub)` and then `return generateText(...)` " +
  "disposes the client before the model calls any tool: write `return await generateText(...)` so the tools " +
  "run inside the block, or get a new client with getWorkspace()";

function notConfigured(what: string): never {
  throw new Error(`${what} is not configured on this Workspace`);
}

/**
 * A remote client's `artifacts`: each method runs in the Durable Object
 * through `WorkspaceStub.artifacts`, errors keeping their `code` (arguments
 * workerd refuses past 32 MiB: `ArtifactError` `E2BIG` naming the method). Without
 * `WorkspaceOptions.artifacts` the methods reject `ENOCONFIG` (locally they
 * throw it synchronously) and `cli` runs in unconfigured mode.
 */
function remoteArtifacts(live: () => RemoteArtifactsStub, sessionId: string | null, probe: RemoteProbe): ArtifactClient {
  const client: Record<string, unknown> = { sessionId: typeof sessionId === "string" ? sessionId : undefined };
  for (const name of ARTIFACT_METHODS) {
    client[name] = (...args: unknown[]) =>
      callRemote(
        () => (live()[name] as (...a: unknown[]) => Promise<unknown>)(...args),
        `artifacts.${name}`,
        (message) => new ArtifactError("E2BIG", message),
        probe,
      );
  }
  return client as unknown as ArtifactClient;
}

/**
 * A `git.cli` input as it can cross RPC: an `AbortSignal` cannot (workerd's `DataCloneError`), so `signal` is taken
 * out — one already aborted is sent as its reason's message ({@link GIT_CLI_ABORTED}; the object then answers as with
 * the signal: `git <sub>: cancelled: <reason>; it did not start, so nothing changed`, exit 1), a live one is dropped
 * (an abort after the call is not forwarded). Any other `signal` value goes as it is (the object refuses it, 129).
 * A `stdin` view into a larger `ArrayBuffer` is sent as a compact copy of its own bytes (`compactView`: structured
 * clone would send its whole buffer; issue 20, run 35, fixer UV).
 */
function remoteCliInput(input: GitCliInput): GitCliInput {
  if (input === null || typeof input !== "object") return input;
  // A `stdin` view of a larger buffer goes as a compact copy of its bytes (issue 20, run 35, fixer UV).
  const stdin = (input as { stdin?: unknown }).stdin;
  if (ArrayBuffer.isView(stdin) && compactView(stdin) !== stdin) input = { ...input, stdin: compactView(stdin) } as GitCliInput;
  const { signal, ...rest } = input as GitCliInput & { signal?: unknown };
  if (typeof AbortSignal === "undefined" || !(signal instanceof AbortSignal)) return input;
  if (!signal.aborted) return rest;
  const reason: unknown = signal.reason;
  return { ...rest, [GIT_CLI_ABORTED]: reason instanceof Error ? reason.message : String(reason) } as GitCliInput;
}

function localClient(host: WorkspaceHost): WorkspaceClient {
  const runtime = createLocalRuntimeClient(host.runtime);
  return {
    fs: host.fs,
    runtime,
    get git() {
      const git = host.git;
      if (git === undefined || git === null) throw gitNotConfiguredError();
      return git;
    },
    assets: host.assets,
    sessionId: host.sessionId,
    get artifacts() {
      return host.artifacts ?? notConfigured("artifacts");
    },
    [Symbol.dispose]() {},
  };
}

/**
 * The client over a remote `WorkspaceStub`. `onBroken` hears of a stream read or an exec handle's call that met a
 * restart of the object (`ECONNRESET`) after the call that returned it resolved.
 */
async function remoteClient(stub: RemoteWorkspaceStub, onBroken?: (error: Error) => void): Promise<WorkspaceClient> {
  let backends: WorkspaceBackendInfo[];
  let hasAssets: boolean;
  let sessionId: string;
  let artifactsSession: string | null;
  try {
    [backends, hasAssets, sessionId, artifactsSession] = await Promise.all([
      stub.runtime.backends(),
      stub.hasAssets,
      stub.sessionId,
      stub.artifacts.sessionId,
    ]);
  } catch (error) {
    try {
      stub[Symbol.dispose]?.();
    } catch {
      // Keep the load error.
    }
    throw error;
  }
  let disposed = false;
  // After dispose, calls fail with the documented error instead of workerd's "stub used after being disposed".
  const live = (): RemoteWorkspaceStub => {
    if (disposed) throw new Error(DISPOSED);
    return stub;
  };
  const fs = createRemoteFilesystem(() => live().fs, onBroken);
  const runtime = createRemoteRuntimeClient(() => live().runtime, backends, onBroken);
  // One cheap call over the workspace stub: after an uncoded error, it tells a restart of the object apart.
  const probe = () => live().sessionId;
  const git: WorkspaceRemoteGitClient = { cli: (input) => callRemote(() => live().git.cli(remoteCliInput(input)), "git.cli", undefined, probe) };
  const assets: WorkspaceAssetsClient | undefined = hasAssets
    ? { share: (path, options) => callRemote(() => live().assets.publish(path, options), "assets.share", undefined, probe) }
    : undefined;
  return {
    fs,
    runtime,
    git,
    assets,
    sessionId: typeof sessionId === "string" ? sessionId : "",
    artifacts: remoteArtifacts(() => live().artifacts, artifactsSession, probe),
    [Symbol.dispose]() {
      if (disposed) return;
      disposed = true;
      stub[Symbol.dispose]?.();
    },
  };
}

function isFunctionSource(source: WorkspaceSource): source is () => WorkspaceHandle | PromiseLike<WorkspaceHandle> {
  // An RPC stub is callable too, but any property read on it (such as
  // `__getWorkspaceStub`) is a function; a plain function has no such property.
  return typeof source === "function" && typeof (source as { __getWorkspaceStub?: unknown }).__getWorkspaceStub !== "function";
}

async function load(source: WorkspaceSource, onBroken?: (error: Error) => void): Promise<WorkspaceClient> {
  const handle = isFunctionSource(source) ? await source() : source;
  if (handle === null || (typeof handle !== "object" && typeof handle !== "function")) {
    throw new TypeError("getWorkspace(source): source must be a Durable Object (or its stub) built with withWorkspace, or a function returning one");
  }
  const local = (handle as { [WORKSPACE]?: unknown })[WORKSPACE];
  if (local instanceof Workspace) {
    await local.ready();
    return localClient(local);
  }
  const getStub = (handle as { __getWorkspaceStub?: unknown }).__getWorkspaceStub;
  if (typeof getStub !== "function") {
    throw new TypeError("getWorkspace(source): source has no Workspace; build its class with withWorkspace(Base, options)");
  }
  const stub = (await (handle as { __getWorkspaceStub(): PromiseLike<unknown> }).__getWorkspaceStub()) as RemoteWorkspaceStub;
  return remoteClient(stub, onBroken);
}


class LazyClient implements LazyWorkspaceClient {
  readonly #source: WorkspaceSource;
  #loading?: Promise<WorkspaceClient>;
  #disposed = false;
  readonly fs: WorkspaceFilesystem;
  readonly runtime: WorkspaceRuntimeClient;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly git: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly artifacts: any;
  readonly assets: undefined = undefined;

  constructor(source: WorkspaceSource) {
    this.#source = source;
    this.fs = this.#forward<WorkspaceFilesystem>((client) => client.fs);
    this.git = this.#forward((client) => client.git);
    this.artifacts = this.#forward((client) => client.artifacts);
    this.runtime = new Proxy(this.#forward<WorkspaceRuntimeClient>((client) => client.runtime), {
      get: (target, key) => (key === "backends" ? () => EMPTY_BACKENDS : Reflect.get(target, key)),
    });
  }

  /**
   * After a call failed because the Durable Object restarted (`ECONNRESET`, {@link callRemote}), a function source
   * is called again on the next use (its stub is broken for good); a stub source cannot be re-asked, so it stays.
   */
  #dropBroken(client: WorkspaceClient, error: unknown): void {
    if (!isFunctionSource(this.#source) || (error as { code?: unknown } | null)?.code !== CONNECTION_RESET_CODE) return;
    const loading = this.#loading;
    if (loading === undefined) return;
    void loading.then((loaded) => {
      if (loaded !== client || this.#loading !== loading) return;
      this.#loading = undefined;
      try {
        client[Symbol.dispose]();
      } catch {
        // A broken stub may refuse disposal; it is gone either way.
      }
    }, () => {});
  }

  #load(): Promise<WorkspaceClient> {
    if (this.#disposed) return Promise.reject(new Error(DISPOSED));
    if (this.#loading === undefined) {
      // A stream or exec handle the client returned that meets a restart later drops the load as a call does.
      let loaded: WorkspaceClient | undefined;
      this.#loading = load(this.#source, (error) => {
        if (loaded !== undefined) this.#dropBroken(loaded, error);
      }).then(
        (client) => (loaded = client),
        (error: unknown) => {
          this.#loading = undefined;
          throw error;
        },
      );
    }
    return this.#loading.then((client) => {
      if (this.#disposed) throw new Error(DISPOSED);
      return client;
    });
  }

  /**
   * An object typed as `T` whose every string key reads as an async function
   * that loads the client and calls that method of `pick(client)`; `then`
   * and symbol keys read `undefined` (so it is not a thenable).
   */
  #forward<T extends object>(pick: (client: WorkspaceClient) => unknown): T {
    return new Proxy({} as T, {
      get: (_target, key) => {
        if (typeof key === "symbol" || key === "then") return undefined;
        return async (...args: unknown[]) => {
          const loading = this.#load();
          const client = await loading;
          const target: unknown = pick(client);
          const method: unknown = typeof target === "object" && target !== null ? Reflect.get(target, key) : undefined;
          if (typeof method !== "function") throw new TypeError(`${key} is not a method of this Workspace client`);
          try {
            return await Reflect.apply(method, target, args);
          } catch (error) {
            this.#dropBroken(client, error);
            throw error;
          }
        };
      },
    });
  }

  then<A = WorkspaceClient, B = never>(
    onfulfilled?: ((value: WorkspaceClient) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#load().then(onfulfilled, onrejected);
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#loading?.then(
      (client) => client[Symbol.dispose](),
      () => {},
    );
  }
}

/**
 * A client for the Workspace of a Durable Object built with
 * {@link withWorkspace}: pass the object itself (`getWorkspace(this)`, local:
 * `client.fs === workspace.fs`) or its stub from another Worker
 * (`getWorkspace(env.Agent.get(id))`, remote over RPC: streams cross as one
 * byte stream, errors keep `code` and `path`).
 *
 * Returns at once; nothing is contacted before the first call or `await`.
 * Loading happens once; a failed load is retried on the next use, and so is
 * a load whose Durable Object has since restarted when the source is a
 * function (`getWorkspace(() => env.Agent.get(id))`): the call that met the
 * restart rejects `ECONNRESET`, the next one calls the function again.
 * `runtime.backends()` of the loaded client is a frozen snapshot, so tools
 * built from it match tools built from the Workspace.
 *
 * @example
 * ```ts
 * using workspace = await getWorkspace(env.Agent.get(id));
 * const text = await workspace.fs.readFile("/workspace/README.md", "utf8");
 * ```
 * Dispose the client after the tools are done with it. With `using` in a
 * function that returns a promise, **`return await`** it: `return
 * generateText(...)` leaves the block (and disposes the client) before the
 * model's tool calls arrive.
 *
 * @throws (rejects) TypeError when the source has no Workspace; an `Error`
 * whose message starts `workspace client is disposed` (and says what to write
 * instead) for a call or `await` after disposal; an `Error` with `code`
 * `ECONNRESET` naming the call when the Durable Object restarted or was reset
 * under a loaded client (workerd's uncoded error as `cause`) — so does a read
 * of a stream the client returned (`fs.readFile`, an exec handle's events) and
 * an exec handle's `result()` / `kill()`.
 */
export function getWorkspace(source: WorkspaceSource): LazyWorkspaceClient {
  if (source === null || source === undefined) {
    throw new TypeError("getWorkspace(source): pass a Durable Object built with withWorkspace, its stub, or a function returning one");
  }
  return new LazyClient(source);
}
