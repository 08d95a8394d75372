/**
 * RPC targets returned by `workspace.stub()` / `__getWorkspaceStub()`
 * (spec 01 §5.3). Every class extends `RpcTarget` under workerd (see
 * `rpc-target.ts`), so Workers RPC passes them by reference; members are
 * getters and prototype methods, which is what RPC exposes.
 *
 * @module
 */
import type { Workspace } from "../workspace.js";
import type {
  FindOptions,
  GrepOptions,
  MkdirOptions,
  ReaddirOptions,
  ReadFileOptions,
  RmOptions,
  WorkspaceDirentResult,
  WorkspaceFilesystem,
  WorkspaceFoundEntry,
  WorkspaceGrepMatch,
  WorkspaceStatResult,
  WriteFileOptions,
} from "../fs/types.js";
import type { WorkspaceAttributes } from "../observer.js";
import { isWorkspaceFsError } from "../fs/errors.js";
import { RpcTargetBase } from "./rpc-target.js";
import { toRemoteError } from "./remote-error.js";
import { withSpan } from "./spans.js";
import { encodeEventStream } from "./exec-events.js";
import type {
  ExecHandleLike,
  ExecOptionsLike,
  GetExecOptionsLike,
  KillSignalLike,
  PendingCallLike,
  RuntimeLike,
  WorkspaceBackendInfo,
} from "./runtime-types.js";

function disposedError(what: string): Error {
  return new Error(`${what} is disposed: get a new one with getWorkspace() or workspace.stub()`);
}

/**
 * State shared by a {@link WorkspaceStub} and its sub-stubs. Workers RPC calls
 * `[Symbol.dispose]` on a target whenever a caller's reference to it is
 * released (for example the `stub.fs` in a pipelined `stub.fs.stat(p)`), so a
 * sub-stub's own dispose must not switch it off; only the parent's does.
 */
export interface StubState {
  disposed: boolean;
  readonly handles: Set<WorkspaceRuntimeExecHandleStub>;
}

function newState(): StubState {
  return { disposed: false, handles: new Set() };
}

async function remote<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toRemoteError(error);
  }
}

/**
 * `workspace.fs` over RPC: every filesystem method with the same arguments and
 * results, plus `exists`, `statOrNull` and `lstatOrNull`. Each call runs in an
 * observer span `workspace.fs.<method>` (spec 01 §5.4). Failures reject with
 * the filesystem's error; its `code` leads the message so it survives any
 * transport.
 */
export class WorkspaceFilesystemStub extends RpcTargetBase {
  readonly #workspace: Workspace;
  readonly #state: StubState;

  constructor(workspace: Workspace, state: StubState = newState()) {
    super();
    this.#workspace = workspace;
    this.#state = state;
  }

  #call<T>(method: string, attributes: WorkspaceAttributes, run: (fs: WorkspaceFilesystem) => Promise<T>, onResult?: (result: T) => WorkspaceAttributes): Promise<T> {
    return remote(() => {
      if (this.#state.disposed) throw disposedError("WorkspaceFilesystemStub");
      return withSpan(
        this.#workspace.observer,
        `workspace.fs.${method}`,
        attributes,
        () => run(this.#workspace.fs),
        onResult
          ? (result, span) => {
              for (const [key, value] of Object.entries(onResult(result))) if (value !== undefined) span.setAttribute(key, value);
            }
          : undefined,
      );
    });
  }

  /** `fs.readFile`: a byte stream (one stream over RPC, ranged with `byteOffset`/`byteLength`) or, with `"utf8"`, a string. */
  readFile(path: string, options?: "utf8" | ReadFileOptions): Promise<string | ReadableStream<Uint8Array>> {
    return this.#call("readFile", { "workspace.fs.path": path }, (fs) => fs.readFile(path, options as ReadFileOptions));
  }

  /** `fs.writeFile`: a string, bytes, or a byte stream consumed incrementally. */
  writeFile(path: string, content: string | Uint8Array | ReadableStream<Uint8Array>, options?: WriteFileOptions): Promise<void> {
    return this.#call("writeFile", { "workspace.fs.path": path, "workspace.fs.mode": options?.mode }, (fs) => fs.writeFile(path, content, options));
  }

  mkdir(path: string, options?: MkdirOptions): Promise<void> {
    return this.#call("mkdir", { "workspace.fs.path": path, "workspace.fs.recursive": options?.recursive, "workspace.fs.mode": options?.mode }, (fs) => fs.mkdir(path, options));
  }

  readdir(path: string, options?: ReaddirOptions): Promise<WorkspaceDirentResult[]> {
    return this.#call("readdir", { "workspace.fs.path": path }, (fs) => fs.readdir(path, options), (r) => ({ "workspace.fs.entries": r.length }));
  }

  stat(path: string): Promise<WorkspaceStatResult> {
    return this.#call("stat", { "workspace.fs.path": path }, (fs) => fs.stat(path));
  }

  lstat(path: string): Promise<WorkspaceStatResult> {
    return this.#call("lstat", { "workspace.fs.path": path }, (fs) => fs.lstat(path));
  }

  rm(path: string, options?: RmOptions): Promise<void> {
    return this.#call("rm", { "workspace.fs.path": path, "workspace.fs.recursive": options?.recursive, "workspace.fs.force": options?.force }, (fs) => fs.rm(path, options));
  }

  rename(oldPath: string, newPath: string): Promise<void> {
    return this.#call("rename", { "workspace.fs.path": oldPath, "workspace.fs.destination": newPath }, (fs) => fs.rename(oldPath, newPath));
  }

  symlink(target: string, path: string): Promise<void> {
    return this.#call("symlink", { "workspace.fs.path": path, "workspace.fs.target": target }, (fs) => fs.symlink(target, path));
  }

  readlink(path: string): Promise<string> {
    return this.#call("readlink", { "workspace.fs.path": path }, (fs) => fs.readlink(path));
  }

  chmod(path: string, mode: number): Promise<void> {
    return this.#call("chmod", { "workspace.fs.path": path, "workspace.fs.mode": mode }, (fs) => fs.chmod(path, mode));
  }

  find(directory: string, pattern?: string, options?: FindOptions): Promise<WorkspaceFoundEntry[]> {
    return this.#call("find", { "workspace.fs.path": directory, "workspace.fs.pattern": pattern }, (fs) => fs.find(directory, pattern, options), (r) => ({ "workspace.fs.matches": r.length }));
  }

  ls(prefix: string): Promise<string[]> {
    return this.#call("ls", { "workspace.fs.path": prefix }, (fs) => fs.ls(prefix), (r) => ({ "workspace.fs.entries": r.length }));
  }

  grep(pattern: string, path: string, options?: GrepOptions): Promise<WorkspaceGrepMatch[]> {
    return this.#call("grep", { "workspace.fs.path": path, "workspace.fs.pattern": pattern }, (fs) => fs.grep(pattern, path, options), (r) => ({ "workspace.fs.matches": r.length }));
  }

  /** `true` when `statOrNull(path)` is not `null` (links followed). */
  exists(path: string): Promise<boolean> {
    return this.#call("exists", { "workspace.fs.path": path }, async (fs) => (await orNull(() => fs.stat(path))) !== null);
  }

  /** `stat`, with `null` instead of `ENOENT`; other errors reject. */
  statOrNull(path: string): Promise<WorkspaceStatResult | null> {
    return this.#call("statOrNull", { "workspace.fs.path": path }, (fs) => orNull(() => fs.stat(path)));
  }

  /** `lstat`, with `null` instead of `ENOENT`; other errors reject. */
  lstatOrNull(path: string): Promise<WorkspaceStatResult | null> {
    return this.#call("lstatOrNull", { "workspace.fs.path": path }, (fs) => orNull(() => fs.lstat(path)));
  }

  /** Releases a reference; the stub stays usable until its {@link WorkspaceStub} is disposed. */
  [Symbol.dispose](): void {}
}

async function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (isWorkspaceFsError(error, "ENOENT")) return null;
    throw error;
  }
}

/**
 * One execution over RPC (spec 01 §5.3). `stream()` returns the events as
 * NDJSON bytes (decoded by the client); `result()` the final result. Like the
 * local handle, consume one of the two, once.
 */
export class WorkspaceRuntimeExecHandleStub extends RpcTargetBase {
  readonly #handle: ExecHandleLike;
  readonly #onDispose?: () => void;

  constructor(handle: ExecHandleLike, onDispose?: () => void) {
    super();
    this.#handle = handle;
    this.#onDispose = onDispose;
  }

  /** The execution id. */
  get id(): string {
    return this.#handle.id;
  }

  /** The id of the backend that runs it. */
  get backend(): string {
    return this.#handle.backend;
  }

  /** The final result (spec 02 §1.5). */
  result(): Promise<unknown> {
    return remote(async () => this.#handle.result());
  }

  /** The events as NDJSON bytes, one JSON event per line (`Uint8Array` values as `{"$bytes": base64}`). */
  stream(): ReadableStream<Uint8Array> {
    return encodeEventStream(this.#handle);
  }

  /** Stops the run (`killExec`). */
  kill(signal?: KillSignalLike): Promise<void> {
    return remote(() => this.#handle.kill(signal));
  }

  /** Cancels the local reader; does not kill the run. */
  [Symbol.dispose](): void {
    this.#onDispose?.();
    try {
      this.#handle[Symbol.dispose]?.();
    } catch {
      // Disposal never throws.
    }
  }
}

/**
 * `workspace.runtime` over RPC. `exec` and `getExec` first await
 * `workspace.ready(options.backend)` and resolve to a
 * {@link WorkspaceRuntimeExecHandleStub}.
 */
export class WorkspaceRuntimeStub extends RpcTargetBase {
  readonly #workspace: Workspace;
  readonly #state: StubState;

  constructor(workspace: Workspace, state: StubState = newState()) {
    super();
    this.#workspace = workspace;
    this.#state = state;
  }

  get #runtime(): RuntimeLike {
    if (this.#state.disposed) throw disposedError("WorkspaceRuntimeStub");
    return this.#workspace.runtime as unknown as RuntimeLike;
  }

  /** The registered backends, in registration order. */
  backends(): WorkspaceBackendInfo[] {
    return this.#runtime.backends().map((info) => ({ ...info }));
  }

  exec(source: string, options?: ExecOptionsLike): Promise<WorkspaceRuntimeExecHandleStub> {
    return remote(async () => {
      const runtime = this.#runtime;
      await this.#workspace.ready(options?.backend);
      return this.#track(await runtime.exec(source, options));
    });
  }

  getExec(id: string, options?: GetExecOptionsLike): Promise<WorkspaceRuntimeExecHandleStub> {
    return remote(async () => {
      const runtime = this.#runtime;
      await this.#workspace.ready(options?.backend);
      return this.#track(await runtime.getExec(id, options));
    });
  }

  killExec(id: string, options?: { backend?: string; signal?: KillSignalLike }): Promise<void> {
    return remote(() => this.#runtime.killExec(id, options));
  }

  disposeExec(id: string, options?: { backend?: string }): Promise<void> {
    return remote(() => this.#runtime.disposeExec(id, options));
  }

  pending(): Promise<PendingCallLike[]> {
    return remote(async () => {
      const runtime = this.#runtime;
      if (!runtime.pending) throw new Error("this Workspace runtime does not support pending()");
      return runtime.pending();
    });
  }

  respond(id: string, callId: string, answer: unknown, options?: { backend?: string }): Promise<void> {
    return remote(async () => {
      const runtime = this.#runtime;
      if (!runtime.respond) throw new Error("this Workspace runtime does not support respond()");
      return runtime.respond(id, callId, answer, options);
    });
  }

  #track(handle: ExecHandleLike): WorkspaceRuntimeExecHandleStub {
    const stub = new WorkspaceRuntimeExecHandleStub(handle, () => this.#state.handles.delete(stub));
    this.#state.handles.add(stub);
    return stub;
  }

  /** Releases a reference; the stub stays usable until its {@link WorkspaceStub} is disposed. */
  [Symbol.dispose](): void {}
}

/** Options of `assets.share` / `publish` (spec 04 §1). */
export interface PublishOptions {
  /** Link lifetime in ms. */
  expiresAfter: number;
  [option: string]: unknown;
}

/** The Workspace's assets publisher over RPC: `publish(path, { expiresAfter })` → URL. */
export class WorkspaceAssetsStub extends RpcTargetBase {
  readonly #workspace: Workspace;
  readonly #state: StubState;

  constructor(workspace: Workspace, state: StubState = newState()) {
    super();
    this.#workspace = workspace;
    this.#state = state;
  }

  /** `assets.share(path, options)` in span `workspace.assets.publish`; resolves to the URL. */
  publish(path: string, options: PublishOptions): Promise<string> {
    return remote(() => {
      if (this.#state.disposed) throw disposedError("WorkspaceAssetsStub");
      return withSpan(this.#workspace.observer, "workspace.assets.publish", { "workspace.assets.path": path }, async () => {
        const assets = this.#workspace.assets as { share?: (p: string, o: PublishOptions) => Promise<string> } | undefined;
        if (!assets || typeof assets.share !== "function") throw new Error("this Workspace has no assets publisher: pass assets to new Workspace()");
        return assets.share(path, options);
      });
    });
  }

  [Symbol.dispose](): void {}
}

/**
 * The Workspace over RPC (spec 01 §5.3). `fs`, `runtime` and `assets` are
 * getters, so RPC pipelines them: `stub.fs.writeFile(…)` is one round trip.
 * Disposing it disposes its sub-stubs.
 */
export class WorkspaceStub extends RpcTargetBase {
  readonly #workspace: Workspace;
  readonly #state = newState();
  #fs?: WorkspaceFilesystemStub;
  #runtime?: WorkspaceRuntimeStub;
  #assets?: WorkspaceAssetsStub;

  constructor(workspace: Workspace) {
    super();
    this.#workspace = workspace;
  }

  #check(): void {
    if (this.#state.disposed) throw disposedError("WorkspaceStub");
  }

  get fs(): WorkspaceFilesystemStub {
    this.#check();
    return (this.#fs ??= new WorkspaceFilesystemStub(this.#workspace, this.#state));
  }

  get runtime(): WorkspaceRuntimeStub {
    this.#check();
    return (this.#runtime ??= new WorkspaceRuntimeStub(this.#workspace, this.#state));
  }

  /** The assets stub, or `undefined` when the Workspace has no assets publisher. */
  get assets(): WorkspaceAssetsStub | undefined {
    this.#check();
    if (!this.hasAssets) return undefined;
    return (this.#assets ??= new WorkspaceAssetsStub(this.#workspace, this.#state));
  }

  /** Whether the Workspace has an assets publisher. */
  get hasAssets(): boolean {
    return this.#workspace.assets !== undefined && this.#workspace.assets !== null;
  }

  /** The Workspace's `sessionId` (`""` when none), so remote tools prefix published keys like local ones. */
  get sessionId(): string {
    return this.#workspace.sessionId;
  }

  /** Switches off its `fs`, `runtime` and `assets` stubs and disposes open exec handle stubs. Idempotent. */
  [Symbol.dispose](): void {
    if (this.#state.disposed) return;
    this.#state.disposed = true;
    for (const handle of [...this.#state.handles]) handle[Symbol.dispose]();
    this.#state.handles.clear();
  }
}

/** A new {@link WorkspaceStub} for `workspace` (what `workspace.stub()` returns). */
export function createWorkspaceStub(workspace: Workspace): WorkspaceStub {
  return new WorkspaceStub(workspace);
}
