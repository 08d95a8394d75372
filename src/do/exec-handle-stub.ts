/**
 * `WorkspaceRuntimeExecHandleStub`: one execution as an RPC target
 * (spec 01 §5.3).
 *
 * @module
 */
import type { KillSignal, WorkspaceRuntimeResult } from "../runtime/index.js";
import { encodeEventStream } from "./exec-events.js";
import type { AnyExecHandle } from "./host.js";
import { answerRemote } from "./remote-error.js";
import { checkExecRpcResult } from "./rpc-size.js";
import { RpcTargetBase } from "./rpc-target.js";

/**
 * One execution over RPC. `stream()` returns the events as NDJSON bytes
 * (decoded by the client); `result()` the final result. As with the local
 * handle (spec 02 §1.3), consume one of the two, once.
 */
export class WorkspaceRuntimeExecHandleStub extends RpcTargetBase {
  readonly #handle: AnyExecHandle;
  readonly #onDispose?: () => void;

  /**
   * @param handle the local handle it forwards to.
   * @param onDispose called once by `[Symbol.dispose]()` (the runtime stub forgets it). Default: none.
   */
  constructor(handle: AnyExecHandle, onDispose?: () => void) {
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

  /**
   * The settled result (spec 02 §1.5): status, exit code, output (bytes, or
   * strings with `encoding: "utf8"`), value, truncation and sync outcome.
   * @throws Error `already streaming` after `stream()` was read.
   * @throws WorkspaceRuntimeError `E2BIG` when the result is over
   * `MAX_FS_RPC_RESULT_BYTES` (30 MiB) as it would cross RPC (output kept
   * whole): read the run's events instead (`runtime.getExec(id)`), or keep
   * the output limits on. The run is not affected.
   */
  result(): Promise<WorkspaceRuntimeResult<"utf8" | undefined>> {
    return answerRemote(async () => checkExecRpcResult(this.#handle.id, await this.#handle.result()));
  }

  /**
   * The events as NDJSON bytes, one JSON event per line (`Uint8Array` values
   * as `{"$bytes": base64}`), pulled one event per chunk.
   */
  stream(): ReadableStream<Uint8Array> {
    return encodeEventStream(this.#handle);
  }

  /**
   * Stops the run, like `runtime.killExec(id, { backend, signal })`.
   * @param signal sent to the backend. Default: none (the backend's own; the JavaScript backend ignores it).
   */
  kill(signal?: KillSignal): Promise<void> {
    return answerRemote(() => this.#handle.kill(signal));
  }

  /** Cancels the local reader; does not kill the run. Never throws. */
  [Symbol.dispose](): void {
    this.#onDispose?.();
    try {
      this.#handle[Symbol.dispose]?.();
    } catch {
      // Disposal never throws.
    }
  }
}
