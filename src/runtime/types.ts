/**
 * Public shapes of `workspace.runtime` and of the backends it routes to
 * (spec 02 §1, §2, §8).
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { WorkspaceDatabase } from "../storage/database.js";
import type { GitClient } from "../git/types.js";
import type { ArtifactClient } from "../artifacts/types.js";

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

/**
 * What happens to a JavaScript run a restart of the Durable Object
 * interrupts (spec 02 §5): `"fail"` settles it failed, `"restart"` reruns it
 * from the beginning, `"replay"` reruns it serving what it saw before from
 * the journal, so it goes on where it was (see docs/runtime.md "Approvals
 * and durable runs").
 */
export type WorkspaceRuntimeInterruptPolicy = "fail" | "restart" | "replay";

/** Output-chunk type: strings with `encoding: "utf8"`, else bytes. */
export type WorkspaceRuntimeChunk<E extends "utf8" | undefined> = E extends "utf8" ? string : Uint8Array;

/** Per-run override of the Workspace's long-output limits (spec 02 §2). */
export interface WorkspaceRuntimeOutputOptions {
  /**
   * Lines kept per stream in `result()`; a positive integer, else `exec` /
   * `getExec` reject with TypeError `exec: output.maxLines must be a positive integer, got <value>`.
   * Default: the Workspace's `output.maxLines` (2000 unless configured).
   */
  maxLines?: number;
  /**
   * Bytes (UTF-8) kept per stream in `result()`; a positive integer, else
   * `exec` / `getExec` reject with TypeError. Default: the Workspace's
   * `output.maxBytes` (65536 unless configured).
   */
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
  /** Environment for this run only (JavaScript: exactly `process.env`; string values only). Default: none (JavaScript: `{}`). */
  env?: Record<string, string>;
  /** Standard input; a string is UTF-8 encoded. Default: empty. */
  stdin?: Uint8Array | string;
  /**
   * Wall-clock limit in ms. Default: the backend's (JavaScript:
   * `defaultTimeoutMs`, 60000 unless configured; it rejects a value over
   * `maxTimeoutMs` with RangeError `timeout cannot exceed <n> milliseconds`).
   */
  timeoutMs?: number;
  /**
   * Sync mode of remote-store command backends (spec 02 §7.3); passed to
   * module backends, not to command backends (this runtime supports only
   * `sync: "none"` ones). Default: none (the backend's behaviour).
   */
  sync?: "wait" | "defer";
  /**
   * Interrupt policy override (spec 02 §5), passed to module backends.
   * Default: the backend's (`"fail"`); only `"fail"` is implemented: runs
   * interrupted by a restart fail.
   */
  onInterrupt?: "fail" | "restart" | "replay";
  /**
   * Long-output limits for this run (each field overrides the Workspace's),
   * or `false` to keep this run's output whole (spec 02 §2). Default: the
   * Workspace's `output`; when that is `false`, per-run limits cannot re-enable it.
   */
  output?: WorkspaceRuntimeOutputOptions | false;
}

/** Options of `runtime.getExec(id, options)`. */
export interface WorkspaceRuntimeGetExecOptions<E extends "utf8" | undefined = undefined> {
  /** Id of the backend that ran it. Default: the first registered backend. */
  backend?: string;
  /** `"utf8"` makes output chunks and result streams strings. Default: bytes (`Uint8Array`). */
  encoding?: E;
  /**
   * `"full"` (default) replays from seq 1; a number n (≥ 0) replays
   * `seq > n`; `"tail"` only events after the call. Anything else rejects
   * with TypeError `getExec: resume must be "full", "tail" or a non-negative number`.
   */
  resume?: "tail" | "full" | number;
  /**
   * Long-output limits, as for `exec` (spec 02 §2); they apply to full
   * replays only (a partial replay keeps output whole). Default: the Workspace's `output`.
   */
  output?: WorkspaceRuntimeOutputOptions | false;
}

/** A stream saved to (or not saved to) a Workspace file because it went over the limits (spec 02 §2). */
export type TruncatedOutput =
  | {
      /** The whole stream was written to `path`. */
      status: "saved";
      /** The full-output file: `<dir>/<backend>.<id>.<stream>.log` (each name `encodeURIComponent`ed, `.` → `%2E`). */
      path: string;
      /** Bytes of the whole stream. */
      totalBytes: number;
      /** Lines of the whole stream: `\n`s, plus 1 when it ends without one. */
      totalLines: number;
      /** 1-based number of the first line kept in the result. */
      firstLine: number;
      /** `true` when the only kept line is cut at its start (a line longer than `maxBytes`). */
      partialLine: boolean;
    }
  | {
      /** The file could not be written; the run is unaffected. */
      status: "not-saved";
      /** Why: `Could not save command output to <path>: <error message>`. */
      reason: string;
      /** Bytes of the whole stream. */
      totalBytes: number;
      /** Lines of the whole stream: `\n`s, plus 1 when it ends without one. */
      totalLines: number;
      /** 1-based number of the first line kept in the result. */
      firstLine: number;
      /** `true` when the only kept line is cut at its start (a line longer than `maxBytes`). */
      partialLine: boolean;
    };

/** The streams that were cut; absent keys were kept whole. */
export interface WorkspaceRuntimeTruncation {
  /** Present when stdout went over the limits. */
  stdout?: TruncatedOutput;
  /** Present when stderr went over the limits. */
  stderr?: TruncatedOutput;
}

/** One event of a run (spec 02 §1.4). `seq` counts from 1; exactly one `exit`, last. */
export type WorkspaceRuntimeEvent<E extends "utf8" | undefined = undefined> =
  | {
      /** The execution id. */
      id: string;
      /**
       * Position in the run, from 1. With `encoding: "utf8"`, a multi-byte
       * remainder flushed before `exit` gets a fractional `seq` between its neighbours.
       */
      seq: number;
      /** The stream the chunk belongs to. */
      name: "stdout" | "stderr";
      /** The chunk: a string with `encoding: "utf8"` (decoded per stream), else bytes. Never cut (spec 02 §1.4). */
      value: WorkspaceRuntimeChunk<E>;
    }
  | {
      /** The execution id. */
      id: string;
      /** Position in the run: the last one. */
      seq: number;
      /** The run ended; exactly one `exit`, the last event. */
      name: "exit";
      /** Exit code: 0 success; 130 cancelled (JavaScript kill); see spec 02 §1.5. */
      code: number;
      /** A callable backend's return value when it exited 0 (JavaScript: `null` for no return); absent otherwise. */
      result?: WorkspaceRuntimeValue;
      /** Added by the router when a stream went over the long-output limits (spec 02 §2); absent otherwise. */
      truncated?: WorkspaceRuntimeTruncation;
    };

/** A raw event as a backend produces it: bytes, no truncation. */
export type ExecEvent =
  | {
      /** The execution id. */
      id: string;
      /** Position in the run, from 1, increasing. */
      seq: number;
      /** The stream the chunk belongs to. */
      name: "stdout" | "stderr";
      /** The chunk's bytes (the router decodes `"utf8"`). */
      value: Uint8Array;
    }
  | {
      /** The execution id. */
      id: string;
      /** Position in the run: the last one. */
      seq: number;
      /** The run ended; exactly one `exit`, the last event. */
      name: "exit";
      /** Exit code (spec 02 §1.5). */
      code: number;
      /** A callable backend's return value when it exited 0; absent otherwise. */
      result?: unknown;
    };

/** A Workspace path that could not be synchronised (remote-store backends, spec 02 §7.3, spec 01 §6.3). */
export interface SkippedEntry {
  /** The Workspace path. */
  path: string;
  /** Why it was skipped: `"read-only"` for a read-only mount, else the error's message or what kind of entry it was. */
  reason: string;
  /** What a pull would have done: write (create or replace) or delete. Absent for push refusals. */
  op?: "write" | "delete";
  /** The read-only mount's root, when that is why. */
  mountRoot?: string;
}

/** Sync outcome of a run (spec 02 §1.5, §7.3); always complete for module and `sync: "none"` backends. */
export type ExecSyncResult =
  | {
      /** The post-command pull finished. */
      status: "complete";
      /** Entries the pull applied to the Workspace. */
      applied: number;
      /** Entries it did not apply (read-only mounts, special files, …). */
      skipped: SkippedEntry[];
    }
  | {
      /** The pull failed or was deferred (`sync: "defer"`): `workspace.pull()` completes it. */
      status: "pending";
      /** Entries applied before it stopped (they stay applied). */
      applied: number;
      /** Entries it did not apply. */
      skipped: SkippedEntry[];
      /** Why it failed; absent for a deferred pull. */
      error?: string;
      /** The backend whose pull is pending. */
      backend?: string;
      /** The container runtime that ran the command. */
      runtimeId?: string;
    };

/**
 * Progress of `workspace.push()` / `pull()` (spec 01 §1.2): one per
 * backend synced (a Workspace with no syncing backend yields one with
 * `operationId: "none"`).
 */
export interface SyncProgress {
  /** Whether the operation finished (`false`: it failed; see `error`; a pull is then pending). */
  complete: boolean;
  /** Entries pushed or applied (files, directories, links, deletions). */
  entries: number;
  /** Bytes of file content moved. */
  bytes: number;
  /** Entries skipped (see `skippedEntries`). */
  skipped: number;
  /** The entries skipped, at most 100. */
  skippedEntries?: SkippedEntry[];
  /** A fresh id of this operation, `"none"` when nothing syncs. */
  operationId: string;
  /** The container runtime the sync ran against (the daemon's boot id), `"none"` when nothing syncs. */
  generation: string;
  /** Always `"entries"` (the sync moves whole entries). */
  mode: "entries";
  /** The Workspace change-log position this backend has pushed up to (`{ rev: 0, path: null }` when nothing syncs). */
  cursor: { rev: number; path: string | null };
  /** The backend synced; absent when nothing syncs. */
  backend?: string;
  /** Why it did not complete. */
  error?: string;
}

/** The settled result of a run (spec 02 §1.5). */
export interface WorkspaceRuntimeResult<E extends "utf8" | undefined = undefined> {
  /** `completed` for exit 0; `cancelled` for 129, 130, 137, 143; else `failed` (-1 when no exit event arrived). */
  status: "completed" | "failed" | "cancelled";
  /** The `exit` event's code, or -1 when the stream ended without one. */
  exitCode: number;
  /** The whole stream, or its kept tail when `truncated.stdout` is set. */
  stdout: WorkspaceRuntimeChunk<E>;
  /** The whole stream, or its kept tail when `truncated.stderr` is set. */
  stderr: WorkspaceRuntimeChunk<E>;
  /** A callable backend's return value when it exited 0. */
  value?: WorkspaceRuntimeValue;
  /** The streams cut by the long-output limits (spec 02 §2); absent when both were kept whole. */
  truncated?: WorkspaceRuntimeTruncation;
  /** Files pushed to a remote-store backend: always 0 here (module and `sync: "none"` backends). */
  pushed: number;
  /** Files pulled from a remote-store backend: always 0 here. */
  pulled: number;
  /** Paths that could not be synchronised: always `[]` here. */
  skipped: SkippedEntry[];
  /** Sync outcome: always `{ status: "complete", applied: 0, skipped: [] }` here. */
  sync: ExecSyncResult;
}

/**
 * A run: a pull-based `ReadableStream` of its events, plus `id`, `backend`,
 * `result()`, `kill()` and `[Symbol.dispose]()` (spec 02 §1.3). Consume
 * either the stream or `result()`, not both.
 */
export interface WorkspaceRuntimeExecHandle<E extends "utf8" | undefined = undefined>
  extends ReadableStream<WorkspaceRuntimeEvent<E>> {
  /** The execution id: the caller's `id`, or the one the backend minted (non-enumerable). */
  readonly id: string;
  /** The id of the backend that runs it (resolved: the default's id when none was named; non-enumerable). */
  readonly backend: string;
  /**
   * The settled result; the same promise on every call. A partial handle
   * (`getExec` with `resume: "tail"` or a number) or a cancelled one builds
   * it from a fresh full replay (spec 02 §1.3).
   *
   * @throws Error `already streaming` (synchronously) after the stream was read or locked;
   *   reading the stream after `result()` errors it with `already consumed by result()`.
   */
  result(): Promise<WorkspaceRuntimeResult<E>>;
  /** Same as `runtime.killExec(id, { backend, signal })`: a `signal` outside {@link KillSignal} rejects `EINVAL`. */
  kill(signal?: KillSignal): Promise<void>;
  /** Cancels the active reader; does not kill the run. */
  [Symbol.dispose](): void;
}

/** What `runtime.backends()` reports for a backend (spec 02 §1.1). */
export interface WorkspaceBackendInfo {
  /** The backend's id (the `backend` option of `exec`). */
  id: string;
  /** `"module"` when the backend's `protocol` is `"module"`, else `"command"`. */
  protocol: "command" | "module";
  /** `backend.callable === true`: whether it admits `input`. */
  callable: boolean;
  /** The backend's plain-language description; the key is present only when the backend defines one. */
  description?: string;
}

/** An event stream returned by a backend for one run. */
export interface ModuleExecutionEnvelope {
  /** The execution id (the caller's, or one the backend minted). */
  id: string;
  /** Identifies the backend's runtime instance (remote backends); not read by this runtime. */
  runtimeId?: string;
  /** The run's events, raw bytes, from the requested point; `seq` from 1, one final `exit`. */
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
  getExec(input: {
    /** The run's id. */
    id: string;
    /** Events with `seq` greater than this; `"tail"` only events after the call. Default: from seq 1. */
    after?: number | "tail";
    /** The runtime that ran it (command backends that can be replaced). Default: the current one. */
    runtimeId?: string;
  }): Promise<ModuleExecutionEnvelope>;
  /** Stops a live run (a finished one: no-op). Unknown id → rejects `ENOENT`; a `signal` outside {@link KillSignal} → `EINVAL`. */
  killExec(input: {
    /** The run's id. */
    id: string;
    /** Signal to send. Default: none (the backend decides how to stop the run). */
    signal?: KillSignal;
    /** The runtime that runs it. Default: the current one. */
    runtimeId?: string;
  }): Promise<void>;
  /** Deletes a finished run's record and events. Running → rejects `EEXEC_BUSY`; unknown → `ENOENT`. */
  disposeExec(input: { id: string; runtimeId?: string }): Promise<void>;
  /** Resumes or settles runs interrupted by a restart (spec 02 §3.7, §5); called by `runtime.recover()`. */
  recover?(): Promise<void>;
  /**
   * Calls of this backend's runs waiting for an answer (spec 02 §5); absent
   * when it has none. `runtime.pending()` pages with `options` so that a
   * page reads only its own calls' payloads: first each backend's
   * candidates without payloads (`first`, `payloads: false`), then the
   * page's payloads (`callIds`). A handle may ignore `options` and list
   * every call with its payload (slower, same result).
   */
  pending?(options?: WorkspaceModulePendingOptions): Promise<WorkspaceModulePendingCall[]>;
  /** Answers a waiting call (spec 02 §5); absent: the backend does not run calls that wait. Not waiting → `ENOTWAITING`. */
  respond?(input: { id: string; callId: string; answer: WorkspaceRuntimeValue }): Promise<void>;
  /** Releases the connection; called by `workspace.close()` (errors swallowed). */
  close?(): Promise<void>;
}

/** What {@link WorkspaceModuleBackendHandle.pending} may be asked for. */
export interface WorkspaceModulePendingOptions {
  /**
   * At least the first `first` calls in the order of `runtime.pending()`
   * (oldest `since` first): every call whose `since` is at most that of the
   * `first`-th oldest, ties included. Default: every call. Ignored with
   * `callIds`.
   */
  first?: number;
  /** `false`: leave each call's `payload` out (not read). Default: `true`. */
  payloads?: boolean;
  /** Only these calls (`callId`s), those of them still waiting unanswered, in any order. Default: every call. */
  callIds?: readonly string[];
}

/** A call waiting for an answer as a module backend lists it ({@link WorkspaceModuleBackendHandle.pending}). */
export interface WorkspaceModulePendingCall {
  /** The execution id of the waiting run. */
  id: string;
  /** The id of the backend that runs it. */
  backend: string;
  /** The waiting host call's `ctx.callId` (`<executionId>:<seq>`). */
  callId: string;
  /** What the host function passed to `ctx.interrupt(payload)`; absent when listed with `payloads: false`. */
  payload?: WorkspaceRuntimeValue;
  /** When the call started waiting, epoch ms. */
  since: number;
}

/** What a module backend's `connect` receives. */
export interface WorkspaceBackendHost {
  /** The Workspace's SQL database (the only SQL outside `src/fs`: journals, tables prefixed by the backend). */
  db: WorkspaceDatabase;
  /** The Workspace filesystem (`workspace.fs`, spec 01 §3). */
  fs: WorkspaceFilesystem;
  /** The runtime itself (host modules such as `ws:container` route through it). */
  runtime: WorkspaceRuntimeLike;
  /** The Workspace clock (ms). */
  now: () => number;
  /**
   * `workspace.git` (spec 04 §2.2); without `WorkspaceOptions.git`, a
   * stand-in whose every method rejects with the not-configured error
   * (`code` `ENOCONFIG`).
   */
  git: GitClient;
  /**
   * `workspace.artifacts` (spec 02 §8, spec 04 §3.3): without
   * `WorkspaceOptions.artifacts`, a client whose methods throw `ArtifactError`
   * `ENOCONFIG` and whose `cli` runs in unconfigured mode.
   */
  artifacts: ArtifactClient;
  /** The Workspace's assets publisher (`createAssets`), when it has one; absent otherwise. */
  assets?: unknown;
}

/** A backend that runs module source (spec 02 §8). `protocol` must be `"module"`. */
export interface WorkspaceModuleBackend {
  /** `"module"`: what makes a backend a module backend (spec 02 §1.1). */
  readonly protocol: "module";
  /** Unique among the Workspace's backends, non-empty (else `new Workspace` throws); the `backend` of `exec`. */
  readonly id: string;
  /** The backend's kind, e.g. `"worker-javascript"`. */
  readonly type: string;
  /** `true` admits `input`. */
  readonly callable?: boolean;
  /** Plain-language text the exec tool shows the model. */
  readonly description?: string;
  /**
   * Connects, on the first routed call (or `ready()`); concurrent callers
   * share one connect, and a rejection is not cached (the next call retries).
   * The handle is kept until `workspace.close()`.
   */
  connect(host: WorkspaceBackendHost): Promise<WorkspaceModuleBackendHandle>;
}

/** Shell RPC of a command backend (spec 02 §8). */
export interface ShellRPC {
  /** Starts a command (`source` is shell text); resolves once launched with its id and raw event stream. */
  exec(input: {
    /** Shell text to run (`/bin/sh -c` or just-bash). */
    source: string;
    /** Working directory. Default: the backend's (`/workspace`). */
    cwd?: string;
    /** Run id. Default: a fresh id the backend chooses. */
    id?: string;
    /** Time limit in ms; past it the command is stopped (exit 124). Default: the backend's (none for the shell, the daemon's for containers); `0` = none. */
    timeoutMs?: number;
    /** Environment variables added for this command. Default: none. */
    env?: Record<string, string>;
    /** Bytes on standard input. Default: none (empty input). */
    stdin?: Uint8Array;
  }): Promise<{ id: string; events: ReadableStream<ExecEvent> }>;
  /** Replays a run: `after` omitted from seq 1, a number n `seq > n`, `"tail"` only new events. Unknown → rejects `ENOENT`. */
  getExec(input: { id: string; after?: number | "tail" }): Promise<{ id: string; events: ReadableStream<ExecEvent> }>;
  /** Stops a live run (a finished one: no-op). Unknown → rejects `ENOENT`. */
  killExec(input: { id: string; signal?: KillSignal }): Promise<void>;
  /** Deletes a finished run. Running → rejects `EEXEC_BUSY`; unknown → `ENOENT`. */
  disposeExec(input: { id: string }): Promise<void>;
}

/** A connected command backend. Only `sync: "none"` is supported by this runtime. */
export interface BackendHandle {
  /** The backend's RPC: `shell` runs commands; `sync` (remote-store sync) is not used by this runtime. */
  rpc: { shell: ShellRPC; sync?: unknown };
  /** Identifies the backend's runtime instance (remote backends); not read by this runtime. */
  runtimeId?: string;
  /** `"none"`: the backend works on the Workspace directly. `"remote"` is not supported here. */
  sync?: "remote" | "none";
  /** Settles when the transport is lost; the handle is dropped and the next call reconnects. */
  closed?: Promise<void>;
  /** Releases the connection; called by `workspace.close()` and when a connect is refused (errors swallowed). */
  close(): Promise<void>;
}

/** A backend that runs shell text (command protocol, spec 02 §8). */
export interface WorkspaceCommandBackend {
  /** `"command"`, or absent: anything but `"module"` is a command backend. */
  readonly protocol?: "command";
  /** Unique among the Workspace's backends, non-empty (else `new Workspace` throws); the `backend` of `exec`. */
  readonly id: string;
  /** The backend's kind, e.g. `"worker-shell"`. */
  readonly type: string;
  /** `true` admits `input` (not passed to `ShellRPC.exec`). Default `false`. */
  readonly callable?: boolean;
  /** Plain-language text the exec tool shows the model; absent: the exec tool's generic line. */
  readonly description?: string;
  /**
   * Connects, on the first routed call (or `ready()`). A handle whose
   * `sync` is not `"none"` is closed and the connect rejects (remote sync
   * is not supported); a rejection is not cached.
   */
  connect(host: WorkspaceBackendHost): Promise<BackendHandle>;
}

/** Anything `new Workspace({ backends })` accepts. */
export type WorkspaceBackend = WorkspaceModuleBackend | WorkspaceCommandBackend;

/** The part of the runtime host modules and tools use. */
export interface WorkspaceRuntimeLike {
  /** The backends in registration order (synchronous, connects nothing; spec 02 §1.1). */
  backends(): WorkspaceBackendInfo[];
  /** Whether the backend with this id admits `input` (`false` when unknown). */
  isCallable(id: string): boolean;
  /**
   * Runs `source` on a backend; resolves once it is launched (spec 02 §1.2).
   *
   * @throws (rejects) when `id` is empty or over 256 bytes (`EINVAL`), the
   *   backend is unknown, `input` goes to a non-callable backend, or the
   *   backend refuses the run (`EEXEC_BUSY`, `EEXEC_EXISTS`, `ECLOSED`, validation errors).
   */
  exec<E extends "utf8" | undefined = undefined>(
    source: string,
    options?: WorkspaceRuntimeExecOptions<E>,
  ): Promise<WorkspaceRuntimeExecHandle<E>>;
  /** Reattaches to a run by id (spec 02 §1.6). Unknown id → rejects `ENOENT`. */
  getExec<E extends "utf8" | undefined = undefined>(
    id: string,
    options?: WorkspaceRuntimeGetExecOptions<E>,
  ): Promise<WorkspaceRuntimeExecHandle<E>>;
  /**
   * Stops a live run; a finished run is a no-op; unknown → rejects `ENOENT` (spec 02 §1.6); a `signal` outside
   * {@link KillSignal} rejects `EINVAL` before any backend is asked.
   */
  killExec(
    id: string,
    options?: {
      /** Id of the backend that runs it. Default: the first registered backend. */
      backend?: string;
      /** Signal to send; the JavaScript backend ignores it. Default: none (the backend decides how to stop the run). */
      signal?: KillSignal;
    },
  ): Promise<void>;
  /** Deletes a finished run's record; running → rejects `EEXEC_BUSY`; unknown → `ENOENT` (spec 02 §1.6). */
  disposeExec(
    id: string,
    options?: {
      /** Id of the backend that ran it. Default: the first registered backend. */
      backend?: string;
    },
  ): Promise<void>;
}
