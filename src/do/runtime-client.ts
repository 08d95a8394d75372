/**
 * `client.runtime` (spec 01 §5.2): `backends()` from a snapshot taken when the
 * client loads, `exec` with a caller-minted id and a `sh` tagged-template
 * form, and — for a remote Workspace — execution handles rebuilt on this side
 * of the RPC boundary from `WorkspaceRuntimeExecHandleStub`.
 *
 * @module
 */
import { sh, type ShellValue } from "../shell-quote.js";
import type {
  KillSignal,
  WorkspaceBackendInfo,
  WorkspaceRuntime,
  WorkspaceRuntimeExecHandle,
  WorkspaceRuntimeExecOptions,
  WorkspaceRuntimeGetExecOptions,
  WorkspaceRuntimePendingCall,
  WorkspaceRuntimeResult,
  WorkspaceRuntimeValue,
} from "../runtime/index.js";
import { decodeEventStream } from "./exec-events.js";
import type { AnyExecHandle, AnyExecOptions, AnyGetExecOptions, AnyRuntimeEvent, WorkspaceHostRuntime } from "./host.js";
import { callRemote as callRemoteAs, CONNECTION_RESET_CODE, remoteByteStream, type RemoteProbe } from "./remote-error.js";
import { runtimeError } from "../runtime/errors.js";
import { compactView } from "../util/rpc-bytes.js"; // compact views: run 35, fixer UV

/**
 * One call of the remote runtime client, named `runtime.<method>` (`exec.<method>` for a handle's): as
 * `callRemote`, a call workerd refuses past 32 MiB rejects `WorkspaceRuntimeError` `E2BIG` naming it.
 */
function callRemote<T>(method: string, run: () => T | Promise<T>, probe?: RemoteProbe): Promise<T> {
  return callRemoteAs(run, method, (message) => runtimeError("E2BIG", message), probe);
}

/**
 * {@link callRemote}, telling `onBroken` when the call rejects `ECONNRESET` (a handle's calls come after the lazy
 * client's own call returned, so it hears of a restart from here).
 */
async function callRemoteHeard<T>(
  method: string,
  run: () => T | Promise<T>,
  probe: RemoteProbe,
  onBroken: ((error: Error) => void) | undefined,
): Promise<T> {
  try {
    return await callRemote(method, run, probe);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === CONNECTION_RESET_CODE) onBroken?.(error as Error);
    throw error;
  }
}

/**
 * `client.runtime`: the Workspace runtime as a client offers it (spec 01 §5.2, spec 02 §1). Through a remote
 * client, a call whose arguments (or answer) workerd refuses past its 32 MiB limit — a 40 MiB `stdin` or `id` —
 * rejects `WorkspaceRuntimeError` `E2BIG` naming the call (`runtime.exec: the call is over 32 MiB, …`), nothing
 * run; 0.8.0 passed on workerd's uncoded `Error`. Put large input in a Workspace file (`fs.writeFile` streams it)
 * and have the command read it (`cmd < file`).
 */
export interface WorkspaceRuntimeClient {
  /** The backends, from a snapshot taken when the client loaded: a frozen array of frozen copies, `===` on every call. */
  backends(): readonly WorkspaceBackendInfo[];
  /**
   * Runs `source`; adds `id: crypto.randomUUID()` when none is given.
   * Resolves once the run is launched.
   * @throws (rejects) like `workspace.runtime.exec`: `EINVAL` for a bad id, the backend's `EEXEC_BUSY` / `EEXEC_EXISTS` / `ECLOSED`; TypeError when `source` is not a string; Error for an unknown backend.
   */
  exec<E extends "utf8" | undefined = undefined>(source: string, options?: WorkspaceRuntimeExecOptions<E>): Promise<WorkspaceRuntimeExecHandle<E>>;
  /**
   * Tagged form for command backends: values are quoted with `sh`, and the run uses `encoding: "utf8"`.
   * @throws TypeError (rejects) for a value `sh` cannot quote; otherwise as the string form.
   */
  exec(strings: TemplateStringsArray, ...values: ShellValue[]): Promise<WorkspaceRuntimeExecHandle<"utf8">>;
  /**
   * Reattaches to a run (`resume`: `"full"` default, `"tail"`, or a seq).
   * @throws (rejects) `ENOENT` for an unknown id.
   */
  getExec<E extends "utf8" | undefined = undefined>(id: string, options?: WorkspaceRuntimeGetExecOptions<E>): Promise<WorkspaceRuntimeExecHandle<E>>;
  /**
   * Stops a live run; a finished run is a no-op.
   * @param options `backend` (default: the first registered) and `signal` (default: none, the backend's own).
   * @throws (rejects) `ENOENT` for an unknown id.
   */
  killExec(id: string, options?: Parameters<WorkspaceRuntime["killExec"]>[1]): Promise<void>;
  /**
   * Deletes a finished run's record.
   * @param options `backend`. Default: the first registered.
   * @throws (rejects) `EEXEC_BUSY` while the run is live; `ENOENT` for an unknown id.
   */
  disposeExec(id: string, options?: Parameters<WorkspaceRuntime["disposeExec"]>[1]): Promise<void>;
  /**
   * Calls waiting for an answer (spec 02 §5), oldest first; `offset` /
   * `limit` give one page of them.
   * @throws (rejects) `E2BIG` through a remote client when the answer is
   *   over 30 MiB: list a page at a time (`{ limit: 32, offset }`);
   *   RangeError for a bad `offset` or `limit`.
   */
  pending(options?: Parameters<WorkspaceRuntime["pending"]>[0]): Promise<WorkspaceRuntimePendingCall[]>;
  /**
   * Answers a waiting call (spec 02 §5).
   * @param options `backend`. Default: the first registered.
   * @throws (rejects) Error: waiting calls are not supported, so this always rejects.
   */
  respond(id: string, callId: string, answer: WorkspaceRuntimeValue, options?: Parameters<WorkspaceRuntime["respond"]>[3]): Promise<void>;
}

/** A frozen copy of each backend description, in a frozen array. */
export function snapshotBackends(backends: readonly WorkspaceBackendInfo[]): readonly WorkspaceBackendInfo[] {
  return Object.freeze(backends.map((info) => Object.freeze({ ...info })));
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Array.isArray((value as { raw?: unknown }).raw);
}

/**
 * Normalises the two `exec` forms into `(source, options)` with an id: the
 * tagged form is quoted with `sh` and runs with `encoding: "utf8"`.
 * @throws TypeError when `first` is neither a string nor a template.
 */
export function execArguments(first: string | TemplateStringsArray, rest: unknown[]): [string, AnyExecOptions] {
  if (isTemplate(first)) {
    return [sh(first, ...(rest as ShellValue[])), { id: crypto.randomUUID(), encoding: "utf8" }];
  }
  if (typeof first !== "string") {
    throw new TypeError(`runtime.exec(source, options): source must be a string (or use the tagged form exec\`…\`), got ${Array.isArray(first) ? "an array" : typeof first}`);
  }
  const options = (rest[0] ?? {}) as AnyExecOptions;
  return [first, options.id === undefined ? { ...options, id: crypto.randomUUID() } : options];
}

/**
 * `options` as a remote client sends them: a `stdin` view into a larger
 * `ArrayBuffer` (a `subarray`) as a compact copy of its own bytes, since
 * structured clone sends a view's whole buffer — a 3-byte view of a 40 MiB
 * buffer would be refused `E2BIG` (issue 20, run 35, fixer UV). Otherwise
 * `options` itself.
 */
function sentExecOptions(options: AnyExecOptions): AnyExecOptions {
  const stdin = (options as { stdin?: unknown }).stdin;
  if (!ArrayBuffer.isView(stdin)) return options;
  const compact = compactView(stdin);
  return compact === stdin ? options : ({ ...options, stdin: compact } as AnyExecOptions);
}

/**
 * `exec` for a client: both forms in one function, which starts the run with
 * `open`. Typed as the overloads it implements; one function cannot be
 * generic in the encoding and in the form at once.
 */
function clientExec(open: (source: string, options: AnyExecOptions) => Promise<AnyExecHandle>): WorkspaceRuntimeClient["exec"] {
  const exec = async (first: string | TemplateStringsArray, ...rest: unknown[]): Promise<AnyExecHandle> => {
    const [source, options] = execArguments(first, rest);
    return open(source, options);
  };
  return exec as WorkspaceRuntimeClient["exec"];
}

/** The runtime client over a local `workspace.runtime`. */
export function createLocalRuntimeClient(runtime: WorkspaceHostRuntime): WorkspaceRuntimeClient {
  const backends = snapshotBackends(runtime.backends());
  return {
    backends: () => backends,
    exec: clientExec((source, options) => runtime.exec(source, options)),
    getExec: (id, options) => runtime.getExec(id, options),
    killExec: (id, options) => runtime.killExec(id, options),
    disposeExec: (id, options) => runtime.disposeExec(id, options),
    pending: (options) => runtime.pending(options),
    respond: (id, callId, answer, options) => runtime.respond(id, callId, answer, options),
  };
}

/** The exec handle stub as a caller sees it through RPC: getters read as promises. */
export interface RemoteExecHandleStub {
  /** The execution id. */
  readonly id: string | PromiseLike<string>;
  /** The id of the backend that runs it. */
  readonly backend: string | PromiseLike<string>;
  /** The settled result (spec 02 §1.5). */
  result(): Promise<WorkspaceRuntimeResult<"utf8" | undefined>>;
  /** The events as NDJSON bytes. */
  stream(): Promise<ReadableStream<Uint8Array>>;
  /** Stops the run. */
  kill(signal?: KillSignal): Promise<void>;
  /** Releases the stub. */
  [Symbol.dispose]?(): void;
}

/** The runtime stub as a caller sees it through RPC: every method resolves asynchronously. */
export interface RemoteRuntimeStub {
  /** The registered backends. */
  backends(): Promise<WorkspaceBackendInfo[]>;
  /** Starts a run; resolves to its handle stub. */
  exec(source: string, options?: AnyExecOptions): Promise<RemoteExecHandleStub>;
  /** Reattaches to a run; resolves to its handle stub. */
  getExec(id: string, options?: AnyGetExecOptions): Promise<RemoteExecHandleStub>;
  /** Stops a run. */
  killExec(id: string, options?: Parameters<WorkspaceRuntime["killExec"]>[1]): Promise<void>;
  /** Deletes a finished run's record. */
  disposeExec(id: string, options?: Parameters<WorkspaceRuntime["disposeExec"]>[1]): Promise<void>;
  /** Calls waiting for an answer (a page of them with `offset` / `limit`). */
  pending(options?: Parameters<WorkspaceRuntime["pending"]>[0]): Promise<WorkspaceRuntimePendingCall[]>;
  /** Answers a waiting call. */
  respond(id: string, callId: string, answer: unknown, options?: Parameters<WorkspaceRuntime["respond"]>[3]): Promise<void>;
}

/**
 * An execution handle on the caller's side: a pull-based `ReadableStream` of
 * events (highWaterMark 0) decoded from the stub's NDJSON stream, with
 * non-enumerable `id`, `backend`, `result()`, `kill()` and
 * `[Symbol.dispose]()`. As locally: read the stream or call `result()`, not
 * both (`already streaming` / `already consumed by result()`). When the
 * Durable Object restarts under it, a read of the events, `result()` and
 * `kill()` reject an `Error` `code` `ECONNRESET` naming `exec.stream` /
 * `exec.result` / `exec.kill` (not workerd's uncoded `ReadableStream received
 * over RPC disconnected prematurely.`), and `onBroken` hears of it.
 */
export function createRemoteExecHandle(stub: RemoteExecHandleStub, id: string, backend: string, onBroken?: (error: Error) => void): AnyExecHandle {
  let mode: "idle" | "stream" | "result" = "idle";
  // One cheap call over the handle's stub: after an uncoded error, it tells a restart of the object apart.
  const probe = () => stub.id;
  let reader: ReadableStreamDefaultReader<AnyRuntimeEvent> | undefined;
  let result: Promise<WorkspaceRuntimeResult<"utf8" | undefined>> | undefined;
  const stream = new ReadableStream<AnyRuntimeEvent>(
    {
      async pull(controller) {
        if (mode === "result") {
          controller.error(new Error(`execution ${id}: the event stream was already consumed by result()`));
          return;
        }
        mode = "stream";
        reader ??= decodeEventStream(
          remoteByteStream(await callRemoteHeard("exec.stream", () => stub.stream(), probe, onBroken), "exec.stream", probe, onBroken),
        ).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  Object.defineProperties(stream, {
    id: { value: id },
    backend: { value: backend },
    result: {
      value: () => {
        if (result) return result;
        if (mode === "stream") throw new Error(`execution ${id}: already streaming; read the events or call result(), not both`);
        mode = "result";
        return (result = callRemoteHeard("exec.result", () => stub.result(), probe, onBroken));
      },
    },
    kill: { value: (signal?: KillSignal) => callRemoteHeard("exec.kill", () => stub.kill(signal), probe, onBroken) },
    [Symbol.dispose]: {
      value: () => {
        reader?.cancel().catch(() => {});
        try {
          stub[Symbol.dispose]?.();
        } catch {
          // Disposal never throws.
        }
      },
    },
  });
  return stream as AnyExecHandle;
}

async function openRemoteHandle(
  method: string,
  open: () => Promise<RemoteExecHandleStub>,
  probe: RemoteProbe,
  onBroken?: (error: Error) => void,
): Promise<AnyExecHandle> {
  const stub = await callRemote(method, open, probe);
  const [id, backend] = await callRemote(method, () => Promise.all([stub.id, stub.backend]), probe);
  return createRemoteExecHandle(stub, id, backend, onBroken);
}

/**
 * The runtime client over a remote `WorkspaceRuntimeStub`; `runtime()` returns the (pipelined) stub for each call.
 * `onBroken` hears of a handle's read or call that met a restart of the object (`ECONNRESET`).
 */
export function createRemoteRuntimeClient(
  runtime: () => RemoteRuntimeStub,
  backendsSnapshot: readonly WorkspaceBackendInfo[],
  onBroken?: (error: Error) => void,
): WorkspaceRuntimeClient {
  const backends = snapshotBackends(backendsSnapshot);
  // One cheap call over the same stub: after an uncoded error, it tells a restart of the object apart.
  const probe = () => runtime().backends();
  return {
    backends: () => backends,
    exec: clientExec((source, options) => openRemoteHandle("runtime.exec", () => runtime().exec(source, sentExecOptions(options)), probe, onBroken)),
    getExec: (id, options) => openRemoteHandle("runtime.getExec", () => runtime().getExec(id, options), probe, onBroken),
    killExec: (id, options) => callRemote("runtime.killExec", () => runtime().killExec(id, options), probe),
    disposeExec: (id, options) => callRemote("runtime.disposeExec", () => runtime().disposeExec(id, options), probe),
    pending: (options) => callRemote("runtime.pending", () => (options === undefined ? runtime().pending() : runtime().pending(options)), probe),
    respond: (id, callId, answer, options) => callRemote("runtime.respond", () => runtime().respond(id, callId, answer, options), probe),
  };
}
