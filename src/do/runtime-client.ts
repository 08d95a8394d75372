/**
 * `client.runtime` (spec 01 §5.2): `backends()` from a snapshot taken when the
 * client loads, `exec` with a caller-minted id and a `sh` tagged-template
 * form, and — for a remote Workspace — execution handles rebuilt on this side
 * of the RPC boundary from `WorkspaceRuntimeExecHandleStub`.
 *
 * @module
 */
import { sh, type ShellValue } from "../shell-quote.js";
import { decodeEventStream } from "./exec-events.js";
import { callRemote } from "./remote-fs.js";
import type {
  KillSignal,
  WorkspaceRuntimeExecHandle,
  WorkspaceRuntimeExecOptions,
  WorkspaceRuntimeGetExecOptions,
  WorkspaceRuntimePendingCall,
  WorkspaceRuntimeValue,
} from "../runtime/index.js";
import type {
  ExecHandleLike,
  ExecOptionsLike,
  GetExecOptionsLike,
  KillSignalLike,
  PendingCallLike,
  RuntimeEventLike,
  RuntimeLike,
  WorkspaceBackendInfo,
} from "./runtime-types.js";

/** `client.runtime`: the Workspace runtime as a client offers it (spec 01 §5.2, spec 02 §1). */
export interface WorkspaceRuntimeClient {
  /** The backends, from a snapshot taken when the client loaded: a frozen array of frozen copies, `===` on every call. */
  backends(): readonly WorkspaceBackendInfo[];
  /** Runs `source`; adds `id: crypto.randomUUID()` when none is given. Rejects like `workspace.runtime.exec`. */
  exec<E extends "utf8" | undefined = undefined>(source: string, options?: WorkspaceRuntimeExecOptions<E>): Promise<WorkspaceRuntimeExecHandle<E>>;
  /** Tagged form for command backends: values are quoted with `sh`, and the run uses `encoding: "utf8"`. */
  exec(strings: TemplateStringsArray, ...values: ShellValue[]): Promise<WorkspaceRuntimeExecHandle<"utf8">>;
  /** Reattaches to a run (`resume`: `"full"` default, `"tail"`, or a seq). Unknown id → `ENOENT`. */
  getExec<E extends "utf8" | undefined = undefined>(id: string, options?: WorkspaceRuntimeGetExecOptions<E>): Promise<WorkspaceRuntimeExecHandle<E>>;
  killExec(id: string, options?: { backend?: string; signal?: KillSignal }): Promise<void>;
  disposeExec(id: string, options?: { backend?: string }): Promise<void>;
  pending(): Promise<WorkspaceRuntimePendingCall[]>;
  respond(id: string, callId: string, answer: WorkspaceRuntimeValue, options?: { backend?: string }): Promise<void>;
}

/** A frozen copy of each backend description, in a frozen array. */
export function snapshotBackends(backends: readonly WorkspaceBackendInfo[]): readonly WorkspaceBackendInfo[] {
  return Object.freeze(backends.map((info) => Object.freeze({ ...info })));
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Array.isArray((value as unknown as TemplateStringsArray).raw);
}

/** Normalises the two `exec` forms into `(source, options)` with an id. */
export function execArguments(first: string | TemplateStringsArray, rest: unknown[]): [string, ExecOptionsLike] {
  if (isTemplate(first)) {
    return [sh(first, ...(rest as ShellValue[])), { id: crypto.randomUUID(), encoding: "utf8" }];
  }
  if (typeof first !== "string") {
    throw new TypeError(`runtime.exec(source, options): source must be a string (or use the tagged form exec\`…\`), got ${Array.isArray(first) ? "an array" : typeof first}`);
  }
  const options = (rest[0] ?? {}) as ExecOptionsLike;
  return [first, options.id === undefined ? { ...options, id: crypto.randomUUID() } : options];
}

/** The runtime client over a local `workspace.runtime`. */
export function createLocalRuntimeClient(runtime: RuntimeLike): WorkspaceRuntimeClient {
  const backends = snapshotBackends(runtime.backends());
  const client: RuntimeClientImpl = {
    backends: () => backends,
    exec: async (first: string | TemplateStringsArray, ...rest: unknown[]) => {
      const [source, options] = execArguments(first, rest);
      return runtime.exec(source, options);
    },
    getExec: (id, options) => runtime.getExec(id, options),
    killExec: (id, options) => runtime.killExec(id, options),
    disposeExec: (id, options) => runtime.disposeExec(id, options),
    pending: async () => {
      if (!runtime.pending) throw new Error("this Workspace runtime does not support pending()");
      return runtime.pending();
    },
    respond: async (id, callId, answer, options) => {
      if (!runtime.respond) throw new Error("this Workspace runtime does not support respond()");
      return runtime.respond(id, callId, answer, options);
    },
  };
  return client as unknown as WorkspaceRuntimeClient;
}

/** The untyped shape both implementations fill; cast to {@link WorkspaceRuntimeClient}. */
interface RuntimeClientImpl {
  backends(): readonly WorkspaceBackendInfo[];
  exec(first: string | TemplateStringsArray, ...rest: unknown[]): Promise<ExecHandleLike>;
  getExec(id: string, options?: GetExecOptionsLike): Promise<ExecHandleLike>;
  killExec(id: string, options?: { backend?: string; signal?: KillSignalLike }): Promise<void>;
  disposeExec(id: string, options?: { backend?: string }): Promise<void>;
  pending(): Promise<PendingCallLike[]>;
  respond(id: string, callId: string, answer: unknown, options?: { backend?: string }): Promise<void>;
}

/** The exec handle stub as seen through RPC. */
export interface RemoteExecHandleStub {
  readonly id: string | PromiseLike<string>;
  readonly backend: string | PromiseLike<string>;
  result(): Promise<unknown>;
  stream(): Promise<ReadableStream<Uint8Array>>;
  kill(signal?: KillSignalLike): Promise<void>;
  [Symbol.dispose]?(): void;
}

/** The runtime stub as seen through RPC. */
export interface RemoteRuntimeStub {
  backends(): Promise<WorkspaceBackendInfo[]>;
  exec(source: string, options?: ExecOptionsLike): Promise<RemoteExecHandleStub>;
  getExec(id: string, options?: GetExecOptionsLike): Promise<RemoteExecHandleStub>;
  killExec(id: string, options?: { backend?: string; signal?: KillSignalLike }): Promise<void>;
  disposeExec(id: string, options?: { backend?: string }): Promise<void>;
  pending(): Promise<PendingCallLike[]>;
  respond(id: string, callId: string, answer: unknown, options?: { backend?: string }): Promise<void>;
}

/**
 * An execution handle on the caller's side: a pull-based `ReadableStream` of
 * events (highWaterMark 0) decoded from the stub's NDJSON stream, with
 * non-enumerable `id`, `backend`, `result()`, `kill()` and
 * `[Symbol.dispose]()`. As locally: read the stream or call `result()`, not
 * both (`already streaming` / `already consumed by result()`).
 */
export function createRemoteExecHandle(stub: RemoteExecHandleStub, id: string, backend: string): ExecHandleLike {
  let mode: "idle" | "stream" | "result" = "idle";
  let reader: ReadableStreamDefaultReader<RuntimeEventLike> | undefined;
  let result: Promise<unknown> | undefined;
  const stream = new ReadableStream<RuntimeEventLike>(
    {
      async pull(controller) {
        if (mode === "result") {
          controller.error(new Error(`execution ${id}: the event stream was already consumed by result()`));
          return;
        }
        mode = "stream";
        reader ??= decodeEventStream(await callRemote(() => stub.stream())).getReader();
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
        return (result = callRemote(() => stub.result()));
      },
    },
    kill: { value: (signal?: KillSignalLike) => callRemote(() => stub.kill(signal)) },
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
  return stream as ExecHandleLike;
}

async function openRemoteHandle(open: () => Promise<RemoteExecHandleStub>): Promise<ExecHandleLike> {
  const stub = await callRemote(open);
  const [id, backend] = await Promise.all([stub.id, stub.backend]);
  return createRemoteExecHandle(stub, id, backend);
}

/** The runtime client over a remote `WorkspaceRuntimeStub`. */
export function createRemoteRuntimeClient(runtime: () => RemoteRuntimeStub, backendsSnapshot: readonly WorkspaceBackendInfo[]): WorkspaceRuntimeClient {
  const backends = snapshotBackends(backendsSnapshot);
  const client: RuntimeClientImpl = {
    backends: () => backends,
    exec: async (first: string | TemplateStringsArray, ...rest: unknown[]) => {
      const [source, options] = execArguments(first, rest);
      return openRemoteHandle(() => runtime().exec(source, options));
    },
    getExec: (id, options) => openRemoteHandle(() => runtime().getExec(id, options)),
    killExec: (id, options) => callRemote(() => runtime().killExec(id, options)),
    disposeExec: (id, options) => callRemote(() => runtime().disposeExec(id, options)),
    pending: () => callRemote(() => runtime().pending()),
    respond: (id, callId, answer, options) => callRemote(() => runtime().respond(id, callId, answer, options)),
  };
  return client as unknown as WorkspaceRuntimeClient;
}
