/**
 * `WorkspaceStub`, what `workspace.stub()` and `__getWorkspaceStub()` return
 * (spec 01 §5.3), and its factory. Every stub extends `RpcTarget` under
 * workerd (see `rpc-target.ts`), so Workers RPC passes them by reference;
 * members are getters and prototype methods, which is what RPC exposes. The
 * sub-stubs live one per file: `fs-stub.ts`, `runtime-stub.ts`,
 * `exec-handle-stub.ts`, `assets-stub.ts`, `git-stub.ts`, `artifacts-stub.ts`.
 *
 * @module
 */
import { WorkspaceArtifactsStub } from "./artifacts-stub.js";
import { WorkspaceAssetsStub } from "./assets-stub.js";
import { WorkspaceFilesystemStub } from "./fs-stub.js";
import { WorkspaceGitStub } from "./git-stub.js";
import type { WorkspaceHost } from "./host.js";
import { RpcTargetBase } from "./rpc-target.js";
import { WorkspaceRuntimeStub } from "./runtime-stub.js";
import { disposedError, newStubState } from "./sub-stub.js";

/**
 * The Workspace over RPC (spec 01 §5.3). `fs`, `runtime`, `git` and `assets` are
 * getters, so RPC pipelines them: `stub.fs.writeFile(…)` is one round trip.
 * Disposing it disposes its sub-stubs.
 */
export class WorkspaceStub extends RpcTargetBase {
  readonly #host: WorkspaceHost;
  readonly #state = newStubState();
  #fs?: WorkspaceFilesystemStub;
  #runtime?: WorkspaceRuntimeStub;
  #assets?: WorkspaceAssetsStub;
  #git?: WorkspaceGitStub;
  #artifacts?: WorkspaceArtifactsStub;

  /** @param host the Workspace it serves (a `Workspace`, or anything shaped like {@link WorkspaceHost}). */
  constructor(host: WorkspaceHost) {
    super();
    this.#host = host;
  }

  #check(): void {
    if (this.#state.disposed) throw disposedError("WorkspaceStub");
  }

  /**
   * The filesystem stub (the same one on every read).
   * @throws Error when this stub is disposed.
   */
  get fs(): WorkspaceFilesystemStub {
    this.#check();
    return (this.#fs ??= new WorkspaceFilesystemStub(this.#host, this.#state));
  }

  /**
   * The runtime stub (the same one on every read).
   * @throws Error when this stub is disposed.
   */
  get runtime(): WorkspaceRuntimeStub {
    this.#check();
    return (this.#runtime ??= new WorkspaceRuntimeStub(this.#host, this.#state));
  }

  /**
   * The git stub (the same one on every read): `cli(input)` only (spec 04
   * §2.2). Present whether or not git is configured; without it, `cli`
   * rejects with the not-configured error.
   * @throws Error when this stub is disposed.
   */
  get git(): WorkspaceGitStub {
    this.#check();
    return (this.#git ??= new WorkspaceGitStub(this.#host, this.#state));
  }

  /**
   * The Artifacts stub (the same one on every read): the ten methods of
   * `workspace.artifacts` (spec 04 §3.3). Present whether or not Artifacts
   * is configured; without it every method but `cli` rejects `ENOCONFIG`.
   * @throws Error when this stub is disposed.
   */
  get artifacts(): WorkspaceArtifactsStub {
    this.#check();
    return (this.#artifacts ??= new WorkspaceArtifactsStub(this.#host, this.#state));
  }

  /**
   * The assets stub, or `undefined` when the Workspace has no assets publisher.
   * @throws Error when this stub is disposed.
   */
  get assets(): WorkspaceAssetsStub | undefined {
    this.#check();
    if (!this.hasAssets) return undefined;
    return (this.#assets ??= new WorkspaceAssetsStub(this.#host, this.#state));
  }

  /** Whether the Workspace has an assets publisher. */
  get hasAssets(): boolean {
    return this.#host.assets !== undefined && this.#host.assets !== null;
  }

  /** The Workspace's `sessionId` (`""` when none), so remote tools prefix published keys like local ones. */
  get sessionId(): string {
    return this.#host.sessionId;
  }

  /** Switches off its `fs`, `runtime`, `git`, `artifacts` and `assets` stubs and disposes open exec handle stubs. Idempotent. */
  [Symbol.dispose](): void {
    if (this.#state.disposed) return;
    this.#state.disposed = true;
    for (const handle of [...this.#state.handles]) handle[Symbol.dispose]();
    this.#state.handles.clear();
  }
}

/** A new {@link WorkspaceStub} for `host` (what `workspace.stub()` returns). */
export function createWorkspaceStub(host: WorkspaceHost): WorkspaceStub {
  return new WorkspaceStub(host);
}
