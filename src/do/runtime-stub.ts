/**
 * `WorkspaceRuntimeStub`: `workspace.runtime` as an RPC target
 * (spec 01 §5.3, spec 02 §1).
 *
 * @module
 */
import type { WorkspaceBackendInfo, WorkspaceRuntimePendingCall } from "../runtime/index.js";
import { WorkspaceRuntimeExecHandleStub } from "./exec-handle-stub.js";
import type { AnyExecHandle, AnyExecOptions, AnyGetExecOptions, WorkspaceHostRuntime } from "./host.js";
import { answerRemote } from "./remote-error.js";
import { checkPendingRpcResult } from "./rpc-size.js";
import { liveHost, stateOf, SubStub } from "./sub-stub.js";

/**
 * `workspace.runtime` over RPC. `exec` and `getExec` first await
 * `workspace.ready(options.backend)` and resolve to a
 * {@link WorkspaceRuntimeExecHandleStub}. Failures reject with the runtime's
 * error, carrying its `code` as data (see `remote-error.ts`).
 */
export class WorkspaceRuntimeStub extends SubStub {
  get #runtime(): WorkspaceHostRuntime {
    return liveHost(this, "WorkspaceRuntimeStub").runtime;
  }

  /**
   * The registered backends in registration order, as copies (spec 02 §1.1).
   * @throws Error when the stub is disposed.
   */
  backends(): WorkspaceBackendInfo[] {
    return this.#runtime.backends().map((info) => ({ ...info }));
  }

  /**
   * `runtime.exec(source, options)` after `ready(options.backend)`: starts a
   * run on `options.backend` (default: the first registered) and resolves
   * once it is launched (spec 02 §1.2).
   * @throws (rejects) as `runtime.exec`: `EINVAL` for a bad id, the backend's `EEXEC_BUSY` / `EEXEC_EXISTS` / `ECLOSED`; TypeError for bad options; Error for an unknown backend or a failed connect.
   */
  exec(source: string, options?: AnyExecOptions): Promise<WorkspaceRuntimeExecHandleStub> {
    return answerRemote(async () => {
      const runtime = this.#runtime;
      await liveHost(this, "WorkspaceRuntimeStub").ready(options?.backend);
      return this.#track(await runtime.exec(source, options));
    });
  }

  /**
   * `runtime.getExec(id, options)` after `ready(options.backend)`: reattaches
   * to a run (`resume` default `"full"`, spec 02 §1.6).
   * @throws (rejects) the backend's `ENOENT` for an unknown id; TypeError for a bad `resume`.
   */
  getExec(id: string, options?: AnyGetExecOptions): Promise<WorkspaceRuntimeExecHandleStub> {
    return answerRemote(async () => {
      const runtime = this.#runtime;
      await liveHost(this, "WorkspaceRuntimeStub").ready(options?.backend);
      return this.#track(await runtime.getExec(id, options));
    });
  }

  /**
   * `runtime.killExec(id, options)`: stops a live run; a finished run is a no-op.
   * @param options `backend` (default: the first registered) and `signal` (default: none, the backend's own).
   * @throws (rejects) the backend's `ENOENT` for an unknown id.
   */
  killExec(id: string, options?: Parameters<WorkspaceHostRuntime["killExec"]>[1]): Promise<void> {
    return answerRemote(() => this.#runtime.killExec(id, options));
  }

  /**
   * `runtime.disposeExec(id, options)`: deletes a finished run's record.
   * @param options `backend`. Default: the first registered.
   * @throws (rejects) `EEXEC_BUSY` while the run is live; `ENOENT` for an unknown id.
   */
  disposeExec(id: string, options?: Parameters<WorkspaceHostRuntime["disposeExec"]>[1]): Promise<void> {
    return answerRemote(() => this.#runtime.disposeExec(id, options));
  }

  /**
   * `runtime.pending(options)`: calls waiting for an answer (spec 02 §5),
   * oldest first; `offset` / `limit` give one page of them.
   * @throws (rejects) `E2BIG` when the answer is over 30 MiB (more than
   *   crosses RPC): list a page at a time (`{ limit: 32, offset }`);
   *   RangeError for a bad `offset` or `limit`.
   */
  pending(options?: Parameters<WorkspaceHostRuntime["pending"]>[0]): Promise<WorkspaceRuntimePendingCall[]> {
    return answerRemote(async () => checkPendingRpcResult(await this.#runtime.pending(options)));
  }

  /**
   * `runtime.respond(id, callId, answer, options)` (spec 02 §5).
   * @param options `backend`. Default: the first registered.
   * @throws (rejects) Error: waiting calls are not supported, so this always rejects.
   */
  respond(id: string, callId: string, answer: unknown, options?: Parameters<WorkspaceHostRuntime["respond"]>[3]): Promise<void> {
    return answerRemote(() => this.#runtime.respond(id, callId, answer, options));
  }

  #track(handle: AnyExecHandle): WorkspaceRuntimeExecHandleStub {
    const { handles } = stateOf(this);
    const stub = new WorkspaceRuntimeExecHandleStub(handle, () => handles.delete(stub));
    handles.add(stub);
    return stub;
  }
}
