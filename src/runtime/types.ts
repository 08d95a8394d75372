/**
 * Public shapes of `workspace.runtime` and of the backends it routes to
 * (spec 02 §1, §2, §8).
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { WorkspaceDatabase } from "../storage/database.js";

/**
 * JSON-compatible data: what `input` and a module's return value may hold.
 *
 * Arrays and objects are the named interfaces {@link WorkspaceRuntimeArray}
 * and {@link WorkspaceRuntimeObject} rather than inline `T[]` / `{ [key]: T }`:
 * the recursion then goes through named types, which Workers RPC's type
 * machinery (`Rpc.Serializable`, `Rpc.Stubify` in
 * `@cloudflare/workers-types`) walks lazily. With the inline form, a Durable
 * Object method returning a `WorkspaceRuntimeResult` failed to type-check
 * through a stub (`TS2589: Type instantiation is excessively deep`). Any
 * JSON value (`number[]`, `{ a: [1, "x"] }`, …) is assignable either way.
 */
export type WorkspaceRuntimeValue = null | boolean | number | string | WorkspaceRuntimeArray | WorkspaceRuntimeObject;

/** A JSON array of {@link WorkspaceRuntimeValue}s. */
export interface WorkspaceRuntimeArray extends Array<WorkspaceRuntimeValue> {}

/** A JSON object whose values are {@link WorkspaceRuntimeValue}s. */
export interface WorkspaceRuntimeObject {
  [key: string]: WorkspaceRuntimeValue;
}

/** Signals `killExec` accepts (the JavaScript backend ignores the signal). */
export type KillSignal = "SIGTERM" | "SIGKILL" | "SIGINT" | "SIGHUP";

/** Output-chunk type: strings with `encoding: "utf8"`, else bytes. */
export type WorkspaceRuntimeChunk<E extends "utf8" | undefined> = E extends "utf8" ? string : Uint8Array;

/** Per-run override of the Workspace's long-output limits (spec 02 §2). */
export interface WorkspaceRuntimeOutputOptions {
  /** Lines kept per stream in `result()`; positive integer. */
  maxLines?: number;
  /** Bytes kept per stream in `result()`; positive integer. */
  maxBytes?: number;
}

/** Options of `runtime.exec(source, options)` (spec 02 §1). */
export interface WorkspaceRuntimeExecOptions<E extends "utf8" | undefined = undefined> {
  /** Caller-chosen execution id (non-empty, ≤ 256 UTF-8 bytes). Default: a UUID minted by the backend. */
  id?: string;
  /** Backend id. Default: the first registered backend. */
  backend?: string;
  /** Working directory; for JavaScript the base of relative imports. Default: the backend's root. */
  cwd?: string;
  /** `"utf8"` makes output chunks and result streams strings. Default: bytes. */
  encoding?: E;
  /** Structured input (callable backends only; JavaScript: the default export's argument, default `null`). */
  input?: WorkspaceRuntimeValue;
  /** Environment for this run only (JavaScript: `process.env`). */
  env?: Record<string, string>;
  /** Standard input; a string is UTF-8 encoded. */
  stdin?: Uint8Array | string;
  /** Wall-clock limit in ms (JavaScript: ≤ the backend's `maxTimeoutMs`). */
  timeoutMs?: number;
  /** Remote-store command backends only. */
  sync?: "wait" | "defer";
  /** Interrupt policy override (spec 02 §5, not implemented: runs interrupted by a restart fail). */
  onInterrupt?: "fail" | "restart" | "replay";
  /** Long-output limits for this run, or `false` to keep output whole. */
  output?: WorkspaceRuntimeOutputOptions | false;
}

/** Options of `runtime.getExec(id, options)`. */
export interface WorkspaceRuntimeGetExecOptions<E extends "utf8" | undefined = undefined> {
  backend?: string;
  encoding?: E;
  /** `"full"` (default) replays from seq 1; a number n replays `seq > n`; `"tail"` only events after the call. */
  resume?: "tail" | "full" | number;
  output?: WorkspaceRuntimeOutputOptions | false;
}

/** A stream saved to (or not saved to) a Workspace file because it went over the limits (spec 02 §2). */
export type TruncatedOutput =
  | { status: "saved"; path: string; totalBytes: number; totalLines: number; firstLine: number; partialLine: boolean }
  | { status: "not-saved"; reason: string; totalBytes: number; totalLines: number; firstLine: number; partialLine: boolean };

/** The streams that were cut; absent keys were kept whole. */
export interface WorkspaceRuntimeTruncation {
  stdout?: TruncatedOutput;
  stderr?: TruncatedOutput;
}

/** One event of a run (spec 02 §1.4). `seq` counts from 1; exactly one `exit`, last. */
export type WorkspaceRuntimeEvent<E extends "utf8" | undefined = undefined> =
  | { id: string; seq: number; name: "stdout" | "stderr"; value: WorkspaceRuntimeChunk<E> }
  | {
      id: string;
      seq: number;
      name: "exit";
      code: number;
      result?: WorkspaceRuntimeValue;
      truncated?: WorkspaceRuntimeTruncation;
    };

/** A raw event as a backend produces it: bytes, no truncation. */
export type ExecEvent =
  | { id: string; seq: number; name: "stdout" | "stderr"; value: Uint8Array }
  | { id: string; seq: number; name: "exit"; code: number; result?: unknown };

/** A Workspace path that could not be synchronised (remote-store backends). */
export interface SkippedEntry {
  path: string;
  reason: string;
}

/** Sync outcome of a run; always complete for module backends. */
export type ExecSyncResult =
  | { status: "complete"; applied: number; skipped: SkippedEntry[] }
  | { status: "pending"; applied: number; skipped: SkippedEntry[]; error?: string; backend?: string; runtimeId?: string };

/** The settled result of a run (spec 02 §1.5). */
export interface WorkspaceRuntimeResult<E extends "utf8" | undefined = undefined> {
  /** `completed` for exit 0; `cancelled` for 129, 130, 137, 143; else `failed` (-1 when no exit event arrived). */
  status: "completed" | "failed" | "cancelled";
  exitCode: number;
  /** The whole stream, or its kept tail when `truncated.stdout` is set. */
  stdout: WorkspaceRuntimeChunk<E>;
  stderr: WorkspaceRuntimeChunk<E>;
  /** A callable backend's return value when it exited 0. */
  value?: WorkspaceRuntimeValue;
  truncated?: WorkspaceRuntimeTruncation;
  pushed: number;
  pulled: number;
  skipped: SkippedEntry[];
  sync: ExecSyncResult;
}

/**
 * A run: a pull-based `ReadableStream` of its events, plus `id`, `backend`,
 * `result()`, `kill()` and `[Symbol.dispose]()` (spec 02 §1.3). Consume
 * either the stream or `result()`, not both.
 */
export interface WorkspaceRuntimeExecHandle<E extends "utf8" | undefined = undefined>
  extends ReadableStream<WorkspaceRuntimeEvent<E>> {
  readonly id: string;
  readonly backend: string;
  /** The settled result; the same promise on every call. Throws `already streaming` after the stream was read. */
  result(): Promise<WorkspaceRuntimeResult<E>>;
  /** Same as `runtime.killExec(id, { backend, signal })`. */
  kill(signal?: KillSignal): Promise<void>;
  /** Cancels the active reader; does not kill the run. */
  [Symbol.dispose](): void;
}

/** What `runtime.backends()` reports for a backend (spec 02 §1.1). */
export interface WorkspaceBackendInfo {
  id: string;
  protocol: "command" | "module";
  callable: boolean;
  description?: string;
}

/** An event stream returned by a backend for one run. */
export interface ModuleExecutionEnvelope {
  id: string;
  runtimeId?: string;
  events: ReadableStream<WorkspaceRuntimeEvent | ExecEvent>;
}

/** A connected module backend (spec 02 §8). */
export interface WorkspaceModuleBackendHandle {
  /** Starts a run; resolves once launched with its event stream (raw bytes). */
  exec(input: {
    id?: string;
    source: string;
    cwd?: string;
    input?: WorkspaceRuntimeValue;
    env?: Record<string, string>;
    stdin?: Uint8Array | string;
    timeoutMs?: number;
    sync?: "wait" | "defer";
    onInterrupt?: "fail" | "restart" | "replay";
  }): Promise<ModuleExecutionEnvelope>;
  /** Replays a run (`after` omitted: from seq 1). Unknown id → `ENOENT`. */
  getExec(input: { id: string; after?: number | "tail"; runtimeId?: string }): Promise<ModuleExecutionEnvelope>;
  killExec(input: { id: string; signal?: KillSignal; runtimeId?: string }): Promise<void>;
  disposeExec(input: { id: string; runtimeId?: string }): Promise<void>;
  recover?(): Promise<void>;
  close?(): Promise<void>;
}

/** What a module backend's `connect` receives. */
export interface WorkspaceBackendHost {
  /** The Workspace's SQL database (the only SQL outside `src/fs`: journals, tables prefixed by the backend). */
  db: WorkspaceDatabase;
  fs: WorkspaceFilesystem;
  /** The runtime itself (host modules such as `ws:container` route through it). */
  runtime: WorkspaceRuntimeLike;
  /** The Workspace clock (ms). */
  now: () => number;
  /** Git client when the Workspace has one; fails on use otherwise. */
  git: unknown;
  /** Artifacts client when configured; fails on use otherwise (code `ENOCONFIG`). */
  artifacts: unknown;
  assets?: unknown;
}

/** A backend that runs module source (spec 02 §8). `protocol` must be `"module"`. */
export interface WorkspaceModuleBackend {
  readonly protocol: "module";
  readonly id: string;
  readonly type: string;
  /** `true` admits `input`. */
  readonly callable?: boolean;
  /** Plain-language text the exec tool shows the model. */
  readonly description?: string;
  connect(host: WorkspaceBackendHost): Promise<WorkspaceModuleBackendHandle>;
}

/** Shell RPC of a command backend (spec 02 §8). */
export interface ShellRPC {
  exec(input: {
    source: string;
    cwd?: string;
    id?: string;
    timeoutMs?: number;
    env?: Record<string, string>;
    stdin?: Uint8Array;
  }): Promise<{ id: string; events: ReadableStream<ExecEvent> }>;
  getExec(input: { id: string; after?: number | "tail" }): Promise<{ id: string; events: ReadableStream<ExecEvent> }>;
  killExec(input: { id: string; signal?: KillSignal }): Promise<void>;
  disposeExec(input: { id: string }): Promise<void>;
}

/** A connected command backend. Only `sync: "none"` is supported by this runtime. */
export interface BackendHandle {
  rpc: { shell: ShellRPC; sync?: unknown };
  runtimeId?: string;
  /** `"none"`: the backend works on the Workspace directly. `"remote"` is not supported here. */
  sync?: "remote" | "none";
  /** Settles when the transport is lost; the handle is dropped and the next call reconnects. */
  closed?: Promise<void>;
  close(): Promise<void>;
}

/** A backend that runs shell text (command protocol, spec 02 §8). */
export interface WorkspaceCommandBackend {
  readonly protocol?: "command";
  readonly id: string;
  readonly type: string;
  readonly callable?: boolean;
  readonly description?: string;
  connect(host: WorkspaceBackendHost): Promise<BackendHandle>;
}

/** Anything `new Workspace({ backends })` accepts. */
export type WorkspaceBackend = WorkspaceModuleBackend | WorkspaceCommandBackend;

/** The part of the runtime host modules and tools use. */
export interface WorkspaceRuntimeLike {
  backends(): WorkspaceBackendInfo[];
  isCallable(id: string): boolean;
  exec<E extends "utf8" | undefined = undefined>(
    source: string,
    options?: WorkspaceRuntimeExecOptions<E>,
  ): Promise<WorkspaceRuntimeExecHandle<E>>;
  getExec<E extends "utf8" | undefined = undefined>(
    id: string,
    options?: WorkspaceRuntimeGetExecOptions<E>,
  ): Promise<WorkspaceRuntimeExecHandle<E>>;
  killExec(id: string, options?: { backend?: string; signal?: KillSignal }): Promise<void>;
  disposeExec(id: string, options?: { backend?: string }): Promise<void>;
}
