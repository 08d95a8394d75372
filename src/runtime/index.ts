/**
 * `workspace.runtime` (spec 02 §1): routes `exec`, `getExec`, `killExec` and
 * `disposeExec` to the Workspace's backends, connects them lazily, and wraps
 * each run in an execution handle with long-output handling (§2).
 *
 * @module
 */
import { normalizeJson } from "./json-value.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { WorkspaceDatabase } from "../storage/database.js";
import type { GitClient } from "../git/types.js";
import type { ArtifactClient } from "../artifacts/types.js";
import { unconfiguredArtifacts } from "../artifacts/unconfigured.js";
import { positiveInteger } from "../util/validate.js";
import { jsonCut, quoteCut, valueCut } from "../util/cut.js";
import { MAX_PATH_BYTES } from "../fs/path.js";
import { noopObserver, withSpan, type WorkspaceAttributes, type WorkspaceObserver, type WorkspaceSpan } from "../observer.js";
import { checkKillSignal, runtimeError, WorkspaceExecutionLostError } from "./errors.js";
import { createExecHandle, type SyncFields } from "./handle.js";
import { pulledBefore, RemoteSync, remoteCode, skippedCount, type SyncFilesystem, type SyncRPC } from "./sync.js";
import type { SyncLogger } from "./sync-telemetry.js";
import { compactView } from "../util/rpc-bytes.js"; // compact views: run 35, fixer UV
import type { SkippedEntry, SyncProgress } from "./types.js";
import type { OutputLimits } from "./output.js";
import type {
  BackendHandle,
  ExecEvent,
  KillSignal,
  ModuleExecutionEnvelope,
  WorkspaceBackend,
  WorkspaceBackendHost,
  WorkspaceBackendInfo,
  WorkspaceModuleBackendHandle,
  WorkspaceModulePendingCall,
  WorkspaceRuntimeEvent,
  WorkspaceRuntimeExecHandle,
  WorkspaceRuntimeExecOptions,
  WorkspaceRuntimeGetExecOptions,
  WorkspaceRuntimeLike,
  WorkspaceRuntimeOutputOptions,
} from "./types.js";

export type * from "./types.js";
export { WorkspaceRuntimeError, WorkspaceExecutionLostError, runtimeError } from "./errors.js";
export type { WorkspaceRuntimeErrorCode } from "./errors.js";
export { statusOf } from "./handle.js";
export { outputPath } from "./output.js";
export { keptTail, countLines } from "../util/tail.js";

/** @deprecated Use {@link WorkspaceBackend}. A backend as registered with `new Workspace({ backends })`. */
export type WorkspaceRegisteredBackend = WorkspaceBackend;

/** What the runtime needs from its Workspace. */
export interface RuntimeWorkspace {
  readonly fs: WorkspaceFilesystem;
  readonly db: WorkspaceDatabase;
  readonly output: OutputLimits | false;
  readonly assets?: unknown;
  /**
   * The git client (spec 04 §2.2). Reading it may throw (a Workspace
   * without `WorkspaceOptions.git` throws the not-configured error); then
   * backends and host modules get a stand-in whose methods reject with it.
   */
  readonly git?: unknown;
  /** Receives the runtime's spans (`workspace.connect`, `workspace.sync.*`, `workspace.runtime.exec.spawn`; spec 04 §4). Default: {@link noopObserver}. */
  readonly observer?: WorkspaceObserver;
  /** The Artifacts client (spec 04 §3.3); absent → backends and host modules get the unconfigured one (`ENOCONFIG`). */
  readonly artifacts?: ArtifactClient;
  /** Receives sync blocks and operations (`WorkspaceOptions.syncTelemetry` when `syncTelemetryEnabled`); absent: none. */
  readonly syncTelemetry?: SyncLogger;
  now(): number;
}

/** Interrupted or waiting calls (spec 02 §5); this runtime never has any. */
export interface WorkspaceRuntimePendingCall {
  /** The execution id of the waiting run. */
  id: string;
  /** The id of the backend that runs it. */
  backend: string;
  /** The waiting host call's `ctx.callId` (`<executionId>:<seq>`). */
  callId: string;
  /** What the host function passed to `ctx.interrupt(payload)` (JSON data). */
  payload: unknown;
  /** When the call started waiting, epoch ms. */
  since: number;
}

type Connected =
  | { kind: "module"; handle: WorkspaceModuleBackendHandle }
  | { kind: "command"; handle: BackendHandle; remote?: RemoteSync; lost?: boolean };

const textEncoder = new TextEncoder();

/**
 * Bytes of `stdin` a run on a remote command backend (a container) accepts
 * at most: 20 MiB (20971520). The input travels, base64-encoded, in the one
 * message that starts the command, and a WebSocket message is at most
 * 32 MiB (a larger one drops the session with every other live run's
 * stream), so a larger `stdin` is refused before anything is sent
 * (RangeError `code` `E2BIG`, naming `stdin`). Write bigger input to a
 * Workspace file and redirect it instead (`cmd < /workspace/input.bin`).
 */
export const MAX_REMOTE_STDIN_BYTES = 20 * 1024 * 1024;

/**
 * Size of the whole request that starts a run on a remote command backend (a
 * container) at most: 30 MiB (31457280 bytes), measured as it travels — the
 * command, `cwd`, `id` and each `env` name and value as JSON text in bytes of
 * UTF-8 (escapes included: one byte per ASCII character, two to three per
 * other character — `€` is three — four per pair of surrogates, six per
 * escaped control character or lone surrogate), `stdin` base64-encoded (4
 * per 3 bytes). The request is the one message that starts the command, and
 * a WebSocket message is at most 32 MiB (a larger one drops the session with
 * every other live run's stream), so a larger request is refused before
 * anything is sent or pushed (RangeError `code` `E2BIG`, naming the size of
 * each part). `stdin` has its own, lower limit
 * ({@link MAX_REMOTE_STDIN_BYTES}). Put long text in a Workspace file and
 * have the command read it (`sh /workspace/script.sh`, `cmd < /workspace/input`).
 */
export const MAX_REMOTE_EXEC_BYTES = 30 * 1024 * 1024;

/**
 * Runs on remote command backends (containers) whose runtime (the daemon's
 * boot id) a Workspace runtime remembers at most: 10000, oldest first, all
 * backends together. That memory is what makes `getExec`, `killExec` and
 * `disposeExec` of a run reject `EEXEC_LOST` once its container restarted
 * (spec 02 §7.3). A run's entry goes at its `disposeExec` and is replaced
 * when a later `exec` reuses the id; past the limit the oldest run started
 * is forgotten, and an id-addressed call for it goes to the container as it
 * is now (a restarted daemon answers `ENOENT` for it). The daemon itself
 * keeps at most 100 finished runs (10 minutes each), so a run that far back
 * is gone there anyway.
 */
export const MAX_REMOTE_RUNS_REMEMBERED = 10_000;

/**
 * Bytes of UTF-8 of `text` as a JSON string (`JSON.stringify(text)`, quotes
 * and escapes included), counted in one pass without building the JSON text.
 */
function jsonUtf8Length(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20) bytes += unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13 ? 2 : 6; // \n … or \u00XX
    else if (unit === 0x22 || unit === 0x5c) bytes += 2; // \" \\
    else if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a pair: one 4-byte character
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) bytes += 6; // a lone surrogate: \uDXXX
    else bytes += 3;
  }
  return bytes;
}

/**
 * Refuses a remote exec request over {@link MAX_REMOTE_STDIN_BYTES} of stdin
 * or {@link MAX_REMOTE_EXEC_BYTES} bytes of UTF-8 in all (RangeError `E2BIG`), before anything is sent.
 */
function checkRemoteExec(request: { source: string; id?: string; cwd?: string; env?: Record<string, string>; stdin?: Uint8Array }, backend: string): void {
  const stdin = request.stdin?.byteLength ?? 0;
  if (stdin > MAX_REMOTE_STDIN_BYTES) {
    const message = `exec: stdin is ${stdin} bytes, over the ${MAX_REMOTE_STDIN_BYTES} bytes (20 MiB) backend "${backend}" accepts; nothing was sent. Write the input to a Workspace file and redirect it (cmd < file) instead.`;
    throw Object.assign(new RangeError(message), { code: "E2BIG" });
  }
  const text = (value: unknown): number => jsonUtf8Length(typeof value === "string" ? value : String(value));
  const command = text(request.source);
  let env = 0;
  if (request.env !== null && typeof request.env === "object") {
    for (const [name, value] of Object.entries(request.env)) env += text(name) + text(value) + 2;
  }
  const other = (request.cwd !== undefined ? text(request.cwd) : 0) + (request.id !== undefined ? text(request.id) : 0);
  const stdinSent = Math.ceil((stdin * 4) / 3);
  const total = command + env + stdinSent + other;
  if (total <= MAX_REMOTE_EXEC_BYTES) return;
  const parts = [`command ${command}`, ...(env > 0 ? [`env ${env}`] : []), ...(stdin > 0 ? [`stdin ${stdinSent} (base64)`] : []), ...(other > 0 ? [`other fields ${other}`] : [])];
  const message = `exec: the request is ${total} bytes of UTF-8 as sent (${parts.join(", ")}), over the ${MAX_REMOTE_EXEC_BYTES} bytes (30 MiB) backend "${backend}" accepts; nothing was sent. Put long text in a Workspace file and have the command read it (sh /workspace/script.sh, cmd < /workspace/input) instead.`;
  throw Object.assign(new RangeError(message), { code: "E2BIG" });
}

/** `runtime.pending()`'s `offset` / `limit`: undefined, or an integer ≥ 0. */
/** Times `pending()` lists a page again when calls of it were answered while it read their payloads. */
const PENDING_LIST_TRIES = 3;

function pageBound(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`pending({ ${name} }): ${name} must be an integer ≥ 0, got ${typeof value === "number" ? value : typeof value}`);
  }
  return value;
}

/**
 * The Workspace's git client for backends and host modules (spec 04 §2.2):
 * `workspace.git`, or, when reading it throws (git not configured, or the
 * factory failed), a stand-in whose every method rejects with that error's
 * message and code.
 */
function gitFor(ws: RuntimeWorkspace): GitClient {
  let failure: unknown;
  try {
    const git = ws.git;
    if (git !== undefined && git !== null) return git as GitClient;
  } catch (error) {
    failure = error;
  }
  const message = failure instanceof Error ? failure.message : "git is not configured on this Workspace";
  const code = (failure as { code?: unknown } | undefined)?.code;
  return new Proxy(
    {},
    {
      get(_target, prop) {
        if (prop === "then" || typeof prop === "symbol") return undefined;
        return () => Promise.reject(Object.assign(new Error(message), { code: typeof code === "string" ? code : "ENOCONFIG" }));
      },
    },
  ) as GitClient;
}

/** Most UTF-8 bytes of an execution id (`exec`'s `id`): a longer one names no execution. */
const MAX_EXEC_ID_BYTES = 256;

/** Most UTF-8 bytes of a call id: an execution id, `:` and a sequence number or a UUID. */
const MAX_CALL_ID_BYTES = MAX_EXEC_ID_BYTES + 1 + 36;

/** Whether `text` holds more than `max` bytes of UTF-8 (encoded only when its length leaves it in doubt). */
function overBytes(text: string, max: number): boolean {
  if (text.length <= max / 3) return false;
  return text.length > max || textEncoder.encode(text).byteLength > max;
}

/**
 * Refuses, before any backend is asked, an id that can name no execution (over {@link MAX_EXEC_ID_BYTES} bytes):
 * `ENOENT` `no execution "<first 64 characters>…" (<n> characters) on backend "<id>"`, as an unknown id is.
 */
function checkRunId(id: unknown, backend: string): void {
  if (typeof id === "string" && overBytes(id, MAX_EXEC_ID_BYTES)) {
    throw runtimeError("ENOENT", `no execution ${quoteCut(id)} on backend "${backend}" (an execution id is at most ${MAX_EXEC_ID_BYTES} bytes)`);
  }
}

/**
 * Refuses, before the backend is asked, a `cwd` longer than a Workspace path can be ({@link MAX_PATH_BYTES}:
 * `ENAMETOOLONG`) and an env entry with a long name whose value is not a string (TypeError): their messages
 * quote at most 64 characters of what was given (shorter ones are the backend's to refuse, as before).
 */
function checkExecArguments(o: { cwd?: unknown; env?: unknown }): void {
  if (typeof o.cwd === "string" && overBytes(o.cwd, MAX_PATH_BYTES)) {
    throw Object.assign(new Error(`ENAMETOOLONG: exec: cwd is over ${MAX_PATH_BYTES} bytes (MAX_PATH_BYTES): ${quoteCut(o.cwd)}`), { code: "ENAMETOOLONG" });
  }
  if (o.env !== null && typeof o.env === "object" && !Array.isArray(o.env)) {
    for (const [name, value] of Object.entries(o.env)) {
      if (typeof value !== "string" && name.length > 64) throw new TypeError(`exec: env[${quoteCut(name)}] must be a string, got ${value === null ? "null" : typeof value}`);
    }
  }
}

function validateOutput(output: WorkspaceRuntimeOutputOptions | false | undefined, where: string): void {
  if (output === undefined || output === false) return;
  if (typeof output !== "object" || output === null) throw new TypeError(`${where}: output must be { maxLines?, maxBytes? } or false`);
  for (const key of ["maxLines", "maxBytes"] as const) {
    if (output[key] !== undefined) positiveInteger(output[key], `${where}: output.${key}`, { got: true });
  }
}

/**
 * A remote run's events; when the connection to the backend is lost before
 * its `exit`, the stream errors with `ECLOSED` and says how to reattach.
 */
function whileConnected(connected: Connected, backend: string, id: string, events: ReadableStream<ExecEvent>): ReadableStream<ExecEvent> {
  const reader = events.getReader();
  return new ReadableStream<ExecEvent>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          if (await connectionLost(connected, error)) {
            controller.error(
              runtimeError("ECLOSED", `the connection to backend "${backend}" was lost while run "${id}" was running; reattach with getExec("${id}") (EEXEC_LOST if the container's runtime was replaced meanwhile)`),
            );
          } else controller.error(error);
        }
      },
      async cancel(reason) {
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The post-command half of a remote run's sync bracket (`#pullAfter`): the pull, and `abandon` for a stream that ends without it. */
type PullBracket = (() => Promise<SyncFields>) & { abandon(): void };

/** A remote exec found its connection lost before sending the command: safe to send on a new one. */
class NotDispatched extends Error {}

/**
 * Whether `error` came from losing the connection of `connected` (its
 * `closed` settled, now or within 100 ms of the failure). It says nothing
 * about when the connection went relative to the failed call: `exec` tracks
 * whether it sent the command itself.
 */
async function connectionLost(connected: Connected, error: unknown): Promise<boolean> {
  if (connected.kind !== "command") return false;
  if (connected.lost) return remoteCode(error) === undefined;
  const closed = connected.handle.closed;
  if (!closed || remoteCode(error) !== undefined) return false;
  return Promise.race([closed.then(() => true, () => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 100))]);
}

/**
 * The execution runtime of a Workspace. Created by the Workspace; reach it
 * as `workspace.runtime`.
 */
export class WorkspaceRuntime implements WorkspaceRuntimeLike {
  readonly #workspace: RuntimeWorkspace;
  readonly #backends: readonly WorkspaceBackend[];
  readonly #connected = new Map<string, Connected>();
  readonly #connecting = new Map<string, Promise<Connected>>();
  /**
   * Remote backends: the runtime (`runtimeId`) each run id started on, `<backend>\0<id>` → id, oldest run first;
   * at most {@link MAX_REMOTE_RUNS_REMEMBERED} entries, an entry deleted at its `disposeExec`.
   */
  readonly #ranOn = new Map<string, string>();

  /**
   * @param workspace The owning Workspace (its `fs`, `db`, `output`, clock).
   * @param backends Registered backends; the first is the default. Duplicate ids throw.
   */
  constructor(workspace: RuntimeWorkspace, backends: readonly WorkspaceBackend[]) {
    const seen = new Set<string>();
    for (const backend of backends) {
      if (!backend || typeof backend.id !== "string" || backend.id === "") {
        throw new TypeError("every backend needs a non-empty string id");
      }
      if (seen.has(backend.id)) throw new Error(`duplicate backend id "${backend.id}": every backend needs its own id`);
      seen.add(backend.id);
    }
    this.#workspace = workspace;
    this.#backends = backends;
  }

  /** The backends in registration order (sync, no connect). */
  backends(): WorkspaceBackendInfo[] {
    return this.#backends.map((b) => {
      const info: WorkspaceBackendInfo = {
        id: b.id,
        protocol: b.protocol === "module" ? "module" : "command",
        callable: b.callable === true,
      };
      const description = b.description;
      if (description !== undefined) info.description = description;
      return info;
    });
  }

  /** True when the backend with this id admits `input` (false when unknown). */
  isCallable(id: string): boolean {
    return this.#backends.some((b) => b.id === id && b.callable === true);
  }

  #resolve(id: string | undefined): WorkspaceBackend {
    if (this.#backends.length === 0) {
      throw new Error("no execution backend configured: pass backends to new Workspace({ storage, backends })");
    }
    if (id === undefined) return this.#backends[0];
    const backend = this.#backends.find((b) => b.id === id);
    if (!backend) {
      const ids = this.#backends.map((b) => JSON.stringify(b.id)).join(", ");
      throw new Error(`no backend with id ${typeof id === "string" ? quoteCut(id) : jsonCut(id)}; this Workspace has ${ids}`);
    }
    return backend;
  }

  #host(): WorkspaceBackendHost {
    const ws = this.#workspace;
    const host: WorkspaceBackendHost = {
      db: ws.db,
      fs: ws.fs,
      runtime: this,
      now: () => ws.now(),
      git: gitFor(ws),
      artifacts: ws.artifacts ?? unconfiguredArtifacts(),
    };
    if (ws.assets !== undefined) host.assets = ws.assets;
    return host;
  }

  async #connect(backend: WorkspaceBackend): Promise<Connected> {
    const existing = this.#connected.get(backend.id);
    if (existing) return existing;
    let pending = this.#connecting.get(backend.id);
    if (!pending) {
      pending = (async (): Promise<Connected> => {
        if (backend.protocol === "module") {
          const handle = await this.#connectSpan(backend, () => backend.connect(this.#host()));
          return { kind: "module", handle };
        }
        const handle = await this.#connectSpan(backend, () => backend.connect(this.#host()));
        if (handle.sync === "none") return { kind: "command", handle };
        const sync = handle.rpc.sync as Partial<SyncRPC> | undefined;
        const fs = this.#workspace.fs as Partial<SyncFilesystem>;
        if (!sync || typeof sync.scan !== "function" || typeof sync.apply !== "function" || typeof sync.read !== "function" || typeof sync.info !== "function") {
          await handle.close().catch(() => {});
          throw new Error(
            `backend "${backend.id}" needs remote sync (sync: "${handle.sync ?? "remote"}") but its rpc.sync has no info/scan/read/apply; return sync: "none" from connect() when the backend works on the Workspace directly`,
          );
        }
        if (typeof fs.changesSince !== "function" || typeof fs.stampOf !== "function") {
          await handle.close().catch(() => {});
          throw new Error(`backend "${backend.id}" needs remote sync, which needs the Workspace's own filesystem (its change log)`);
        }
        return { kind: "command", handle, remote: new RemoteSync(this.#workspace.db, fs as SyncFilesystem, backend.id, sync as SyncRPC, this.#workspace.syncTelemetry) };
      })();
      this.#connecting.set(backend.id, pending);
      pending.then(
        (connected) => {
          this.#connecting.delete(backend.id);
          this.#connected.set(backend.id, connected);
          if (connected.kind === "command" && connected.handle.closed) {
            const gone = () => {
              connected.lost = true;
              this.#drop(backend.id, connected);
            };
            connected.handle.closed.then(gone, gone);
          }
        },
        () => this.#connecting.delete(backend.id),
      );
    }
    return pending;
  }

  /** Runs `run` in `observer.span(name, attributes)` (spec 04 §4): result attributes from `onResult`, errors recorded and rethrown. */
  #span<T>(name: string, attributes: WorkspaceAttributes, run: () => Promise<T>, onResult?: (result: T, span: WorkspaceSpan) => void): Promise<T> {
    return withSpan(this.#workspace.observer ?? noopObserver, name, attributes, run, onResult);
  }

  /** A backend's `connect` in span `workspace.connect` (`workspace.backend.id`, `workspace.backend.type`). */
  #connectSpan<T>(backend: WorkspaceBackend, run: () => Promise<T>): Promise<T> {
    const type: unknown = backend.type;
    return this.#span("workspace.connect", { "workspace.backend.id": backend.id, "workspace.backend.type": typeof type === "string" ? type : undefined }, run);
  }

  /** A command backend's `shell.exec` in span `workspace.runtime.exec.spawn`: the requested cwd, timeout and id; the run's actual id on success. */
  #spawnSpan<T extends { id: string }>(request: { cwd?: string; timeoutMs?: number }, requestedId: string | undefined, run: () => Promise<T>): Promise<T> {
    return this.#span(
      "workspace.runtime.exec.spawn",
      { "workspace.runtime.cwd": request.cwd, "workspace.runtime.timeout_ms": request.timeoutMs, "workspace.runtime.id": requestedId },
      run,
      (started, span) => span.setAttribute("workspace.runtime.id", started.id),
    );
  }

  /** A push of remote sync in span `workspace.sync.push` (or, for `workspace.push()`, `workspace.sync.push.block`). */
  #pushSpan(remote: RemoteSync, backend: string, name = "workspace.sync.push"): ReturnType<RemoteSync["push"]> {
    return this.#span(name, { "workspace.sync.backend": backend }, () => remote.push(), (out, span) => {
      if (name === "workspace.sync.push.block") span.setAttribute("workspace.sync.entries", out.pushed);
      else {
        span.setAttribute("workspace.sync.pushed", out.pushed);
        span.setAttribute("workspace.sync.skipped", skippedCount(out));
      }
    });
  }

  /** A pull of remote sync in span `workspace.sync.pull` (or, for `workspace.pull()`, `workspace.sync.pull.block`). */
  #pullSpan(remote: RemoteSync, backend: string, name = "workspace.sync.pull"): ReturnType<RemoteSync["pull"]> {
    return this.#span(name, { "workspace.sync.backend": backend }, () => remote.pull(), (out, span) => {
      if (name === "workspace.sync.pull.block") span.setAttribute("workspace.sync.entries", out.applied);
      else {
        span.setAttribute("workspace.sync.applied", out.applied);
        span.setAttribute("workspace.sync.skipped", skippedCount(out));
      }
    });
  }

  #drop(id: string, connected: Connected): void {
    if (this.#connected.get(id) === connected) this.#connected.delete(id);
  }

  /**
   * Connects a backend (by id), or every backend with `{ all: true }`.
   * Without arguments connects the default backend. Concurrent callers share
   * one connect; a failed connect is not cached (spec 02 §1.1).
   *
   * @throws (rejects) Error `no execution backend configured` when there are
   *   none, `no backend with id "<id>"` for an unknown id, or the backend's connect error.
   */
  async ready(
    options?:
      | string
      | {
          /** `true` connects every backend, in parallel. Default `false` (the default backend only). */
          all?: boolean;
        },
  ): Promise<void> {
    if (typeof options === "object" && options?.all) {
      await Promise.all(this.#backends.map((b) => this.#connect(b)));
      return;
    }
    await this.#connect(this.#resolve(typeof options === "string" ? options : undefined));
  }

  #limits(output: WorkspaceRuntimeOutputOptions | false | undefined): OutputLimits | false {
    const base = this.#workspace.output;
    if (base === false || output === false) return false;
    return { ...base, ...(output?.maxLines !== undefined ? { maxLines: output.maxLines } : {}), ...(output?.maxBytes !== undefined ? { maxBytes: output.maxBytes } : {}) };
  }

  #handle<E extends "utf8" | undefined>(
    envelope: { id: string; events: ReadableStream<WorkspaceRuntimeEvent | ExecEvent> },
    backend: string,
    encoding: E | undefined,
    limits: OutputLimits | false,
    partial: boolean,
    finish?: PullBracket,
  ): WorkspaceRuntimeExecHandle<E> {
    return createExecHandle<E>({
      ...(finish ? { finish, abandon: finish.abandon } : {}),
      id: envelope.id,
      backend,
      events: envelope.events,
      encoding: encoding as "utf8" | undefined,
      limits,
      partial,
      host: {
        fs: this.#workspace.fs,
        kill: (id, b, signal) => this.killExec(id, { backend: b, ...(signal !== undefined ? { signal } : {}) }),
        replay: async (id, b) => (await this.#getEnvelope(id, b, undefined)).events,
      },
    });
  }

  /**
   * Runs `source` on a backend and resolves once it is launched (spec 02 §1.2).
   *
   * @throws (rejects) TypeError when `source` is not a string (an array:
   *   `sh` misuse) or `output` is invalid; {@link WorkspaceRuntimeError}
   *   `EINVAL` when `id` is empty or over 256 UTF-8 bytes; Error when no
   *   backend is configured, the backend is unknown, or `input` goes to a
   *   non-callable backend (`Backend "<id>" is not callable; …`); the
   *   connect error; on a remote command backend (a container), RangeError
   *   `E2BIG` when `stdin` is over {@link MAX_REMOTE_STDIN_BYTES} or the whole
   *   request over {@link MAX_REMOTE_EXEC_BYTES} (nothing sent); or the
   *   backend's refusal (`EEXEC_BUSY`, `EEXEC_EXISTS`, `ECLOSED`, validation
   *   errors); a `cwd` over `MAX_PATH_BYTES` rejects `ENAMETOOLONG` and an `env` name over 64
   *   characters with a value that is not a string a TypeError, each quoting 64 characters and the length; so do
   *   the backends' own env-name and cwd refusals, and an unknown `backend` that is not a string is shown as its JSON
   *   cut to 64 characters and the length.
   */
  async exec<E extends "utf8" | undefined = undefined>(
    source: string,
    options: WorkspaceRuntimeExecOptions<E> = {},
  ): Promise<WorkspaceRuntimeExecHandle<E>> {
    if (typeof source !== "string") {
      throw new TypeError(`runtime.exec(source, options): source must be a string, got ${Array.isArray(source) ? "an array" : typeof source}`);
    }
    const o = options ?? {};
    if (o.id !== undefined) {
      if (typeof o.id !== "string" || o.id === "") throw runtimeError("EINVAL", "exec: id must be a non-empty string");
      if (textEncoder.encode(o.id).byteLength > 256) throw runtimeError("EINVAL", "exec: id must be at most 256 bytes");
      // A lone surrogate has no UTF-8 form: stored it would read back as U+FFFD, and naming the run's output file
      // (encodeURIComponent) threw an uncoded URIError (issue 20, run 33, fixer RC).
      const lone = o.id.search(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      if (lone >= 0) throw runtimeError("EINVAL", `exec: id must be well-formed Unicode; it has a lone surrogate at index ${lone}`);
    }
    const backend = this.#resolve(o.backend);
    checkExecArguments(o);
    if (o.input !== undefined && backend.callable !== true) {
      throw new Error(`Backend "${backend.id}" is not callable; it does not accept structured input.`);
    }
    validateOutput(o.output, "exec");
    const connected = await this.#connect(backend);
    let envelope: { id: string; events: ReadableStream<WorkspaceRuntimeEvent | ExecEvent> };
    if (connected.kind === "module") {
      const request: Parameters<WorkspaceModuleBackendHandle["exec"]>[0] = { source };
      if (o.id !== undefined) request.id = o.id;
      if (o.cwd !== undefined) request.cwd = o.cwd;
      if (o.input !== undefined) request.input = o.input;
      if (o.env !== undefined) request.env = o.env;
      // A view of a larger buffer crosses to the run's isolate as a compact copy (issue 20, run 35, fixer UV).
      if (o.stdin !== undefined) request.stdin = typeof o.stdin === "string" ? o.stdin : compactView(o.stdin);
      if (o.timeoutMs !== undefined) request.timeoutMs = o.timeoutMs;
      if (o.sync !== undefined) request.sync = o.sync;
      if (o.onInterrupt !== undefined) request.onInterrupt = o.onInterrupt;
      envelope = await connected.handle.exec(request);
    } else {
      const request: Parameters<BackendHandle["rpc"]["shell"]["exec"]>[0] = { source };
      if (o.id !== undefined) request.id = o.id;
      if (o.cwd !== undefined) request.cwd = o.cwd;
      if (o.env !== undefined) request.env = o.env;
      // A view of a larger buffer crosses to the shell's isolate or container as a compact copy (run 35, fixer UV).
      if (o.stdin !== undefined) request.stdin = typeof o.stdin === "string" ? textEncoder.encode(o.stdin) : compactView(o.stdin);
      if (o.timeoutMs !== undefined) request.timeoutMs = o.timeoutMs;
      if (connected.remote) {
        request.id ??= crypto.randomUUID();
        checkRemoteExec(request, backend.id);
        const id = request.id;
        const run = async (c: Extract<Connected, { kind: "command" }>, sending: { sent: boolean }) => {
          const remote = c.remote!;
          // Push, then spawn, under the backend's lock (spec 02 §7.3): a push failure rejects before the command is sent.
          return remote.exclusive(async () => {
            const pushedNow = await this.#pushSpan(remote, backend.id);
            if (c.lost) throw new NotDispatched(`the connection to backend "${backend.id}" was lost before run "${id}" was sent`);
            // From here on the command may reach the backend: a lost connection no longer proves it did not run.
            sending.sent = true;
            remote.commandSent();
            try {
              return { started: await this.#spawnSpan(request, o.id, () => c.handle.rpc.shell.exec(request)), pushed: pushedNow, c };
            } catch (error) {
              // The call may have reached the daemon and started the command (a timeout, a lost answer): its pull is
              // owed, so the next push pulls first and the command's changes win (an extra pull when it did not start).
              remote.commandAbandoned();
              throw error;
            }
          });
        };
        let attempt: Awaited<ReturnType<typeof run>> | undefined;
        for (let c: Connected = connected, retried = false; attempt === undefined; retried = true) {
          if (c.kind !== "command" || !c.remote) throw new Error(`backend "${backend.id}" reconnected without remote sync`);
          const sending = { sent: false };
          try {
            attempt = await run(c, sending);
          } catch (error) {
            // Retried once, on a new connection, only when the command provably was not sent (spec 02 §7.3):
            // the connection was lost (now or within moments of the failure) before the call to send it.
            if (sending.sent) {
              if (await connectionLost(c, error)) {
                throw new Error(`the connection to backend "${backend.id}" was lost while run "${id}" was being started; the command may have started: check with getExec("${id}") before running it again`);
              }
              throw error;
            }
            if (retried || !(error instanceof NotDispatched || (await connectionLost(c, error)))) throw error;
            c = await this.#connect(backend);
          }
        }
        const { started, pushed, c } = attempt;
        this.#rememberRun(`${backend.id}\0${started.id}`, c.handle.runtimeId);
        const finish = this.#pullAfter(c.remote!, backend.id, c.handle.runtimeId, pushed.pushed, o.sync === "defer", pushed.skipped, true);
        const events = whileConnected(c, backend.id, started.id, started.events);
        return this.#handle<E>({ id: started.id, events }, backend.id, o.encoding, this.#limits(o.output), false, finish);
      }
      envelope = await this.#spawnSpan(request, o.id, () => connected.handle.rpc.shell.exec(request));
    }
    return this.#handle<E>(envelope, backend.id, o.encoding, this.#limits(o.output), false);
  }

  /**
   * The post-command half of the sync bracket (spec 02 §7.3), run once when
   * the run's stream drains: pull (or, deferred, only mark it pending).
   * A failed pull keeps the command's result and is left pending for
   * `workspace.pull()`.
   */
  #pullAfter(remote: RemoteSync, backend: string, runtimeId: string | undefined, pushed: number, defer: boolean, pushSkipped: SkippedEntry[] = [], ownCommand = false): PullBracket {
    let once: Promise<SyncFields> | undefined;
    const where = { backend, ...(runtimeId !== undefined ? { runtimeId } : {}) };
    // The command exec sent (RemoteSync.commandSent) is settled once: by its pull, or when its stream ends without one
    // (`abandon`: the pull stays pending as COMMAND_SENT, so this connection's next push pulls first, beside live runs too).
    let settled = !ownCommand;
    const settle = (abandoned = false) => {
      if (settled) return;
      settled = true;
      if (abandoned) remote.commandAbandoned();
      else remote.commandSettled();
    };
    const finish = () =>
      (once ??= remote.exclusive(async (): Promise<SyncFields> => {
        settle();
        // `skipped`: what the push before the command could not send, then what the pull could not apply.
        if (defer) {
          remote.markPullPending(null);
          return { pushed, pulled: 0, skipped: pushSkipped, sync: { status: "pending", applied: 0, skipped: [], ...where } };
        }
        try {
          const pulled = await this.#pullSpan(remote, backend);
          return { pushed, pulled: pulled.applied, skipped: [...pushSkipped, ...pulled.skipped], sync: { status: "complete", applied: pulled.applied, skipped: pulled.skipped } };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          remote.markPullPending(message);
          // What it applied before failing stays applied, and is counted.
          const partial = pulledBefore(error);
          return {
            pushed,
            pulled: partial.applied,
            skipped: [...pushSkipped, ...partial.skipped],
            sync: { status: "pending", applied: partial.applied, skipped: partial.skipped, error: message, ...where },
          };
        }
      }));
    return Object.assign(finish, { abandon: () => settle(true) });
  }

  /** Records the runtime a run started on (`key` `<backend>\0<id>`): a reused id's entry becomes the newest; the oldest past the limit is dropped. */
  #rememberRun(key: string, runtimeId: string | undefined): void {
    this.#ranOn.delete(key);
    if (runtimeId === undefined) return;
    this.#ranOn.set(key, runtimeId);
    if (this.#ranOn.size > MAX_REMOTE_RUNS_REMEMBERED) this.#ranOn.delete(this.#ranOn.keys().next().value!);
  }

  async #getEnvelope(id: string, backendId: string | undefined, after: number | "tail" | undefined): Promise<ModuleExecutionEnvelope> {
    const backend = this.#resolve(backendId);
    checkRunId(id, backend.id);
    const request: { id: string; after?: number | "tail" } = { id };
    if (after !== undefined) request.after = after;
    return this.#byId(backend, id, (c) => (c.kind === "module" ? c.handle.getExec(request) : c.handle.rpc.shell.getExec(request)));
  }

  /**
   * An id-addressed call (getExec, killExec, disposeExec). On a remote
   * backend whose connection was lost, it is retried once on a new
   * connection — to the same runtime only: a run started on a runtime that
   * has since restarted is `EEXEC_LOST` (spec 02 §7.3).
   */
  async #byId<T>(backend: WorkspaceBackend, id: string, call: (c: Connected) => Promise<T>): Promise<T> {
    const connected = await this.#connect(backend);
    if (connected.kind !== "command" || !connected.remote) return call(connected);
    const ran = this.#ranOn.get(`${backend.id}\0${id}`);
    const lostRun = () => new WorkspaceExecutionLostError(`run "${id}" on backend "${backend.id}" is lost: the container's runtime restarted since it started (${ran} → now another)`);
    if (ran !== undefined && connected.handle.runtimeId !== undefined && connected.handle.runtimeId !== ran) throw lostRun();
    try {
      return await call(connected);
    } catch (error) {
      if (!(await connectionLost(connected, error))) throw error;
      const again = await this.#connect(backend);
      if (ran !== undefined && again.kind === "command" && again.handle.runtimeId !== undefined && again.handle.runtimeId !== ran) throw lostRun();
      return call(again);
    }
  }

  /**
   * Reattaches to a run by id (spec 02 §1.6). `resume` omitted or `"full"`
   * replays from seq 1; a number n replays `seq > n`; `"tail"` only events
   * after this call. Unknown id → rejects `ENOENT`.
   *
   * @throws (rejects) TypeError for an invalid `resume` or `output`; Error for
   *   an unknown backend; the backend's `ENOENT` for an unknown id — and `ENOENT` before any backend is asked for an
   *   id over 256 bytes (no run can have one), quoting its first 64 characters and its length.
   */
  async getExec<E extends "utf8" | undefined = undefined>(
    id: string,
    options: WorkspaceRuntimeGetExecOptions<E> = {},
  ): Promise<WorkspaceRuntimeExecHandle<E>> {
    const o = options ?? {};
    const resume = o.resume ?? "full";
    if (resume !== "full" && resume !== "tail" && !(typeof resume === "number" && Number.isFinite(resume) && resume >= 0)) {
      throw new TypeError(`getExec: resume must be "full", "tail" or a non-negative number, got ${valueCut(resume)}`);
    }
    validateOutput(o.output, "getExec");
    const backend = this.#resolve(o.backend);
    const after = resume === "full" ? undefined : resume;
    const envelope = await this.#getEnvelope(id, backend.id, after);
    const partial = after !== undefined;
    const connected = this.#connected.get(backend.id);
    // getExec does not push, but pulls after draining (spec 02 §7.3).
    const finish = connected?.kind === "command" && connected.remote ? this.#pullAfter(connected.remote, backend.id, connected.handle.runtimeId, 0, false) : undefined;
    return this.#handle<E>(envelope, backend.id, o.encoding, partial ? false : this.#limits(o.output), partial, finish);
  }

  /**
   * Stops a live run; a finished run is a no-op; unknown → rejects `ENOENT` (spec 02 §1.6).
   *
   * @throws (rejects) `EINVAL` when `signal` is not one of `KillSignal`'s four names (`SIGTERM`, `SIGKILL`, `SIGINT`,
   *   `SIGHUP`): a signal that does not end a process (`SIGSTOP`, `SIGCONT`, a number) never reaches a backend.
   */
  async killExec(
    id: string,
    options: {
      /** Id of the backend that runs it. Default: the first registered backend. */
      backend?: string;
      /** Signal to send; the JavaScript backend ignores it. Default: none (the backend decides how to stop the run). */
      signal?: KillSignal;
    } = {},
  ): Promise<void> {
    checkKillSignal(options?.signal, "killExec");
    const backend = this.#resolve(options?.backend);
    checkRunId(id, backend.id);
    const request: { id: string; signal?: KillSignal } = { id };
    if (options?.signal !== undefined) request.signal = options.signal;
    await this.#byId(backend, id, (c) => (c.kind === "module" ? c.handle.killExec(request) : c.handle.rpc.shell.killExec(request)));
  }

  /**
   * Deletes a finished run's record; running → rejects `EEXEC_BUSY`; unknown → `ENOENT` (spec 02 §1.6). Afterwards the id is free
   * (on a remote backend the runtime forgets which container runtime the run started on, {@link MAX_REMOTE_RUNS_REMEMBERED}).
   */
  async disposeExec(
    id: string,
    options: {
      /** Id of the backend that ran it. Default: the first registered backend. */
      backend?: string;
    } = {},
  ): Promise<void> {
    const backend = this.#resolve(options?.backend);
    checkRunId(id, backend.id);
    await this.#byId(backend, id, (c) => (c.kind === "module" ? c.handle.disposeExec({ id }) : c.handle.rpc.shell.disposeExec({ id })));
    this.#ranOn.delete(`${backend.id}\0${id}`);
  }

  /** Connects every module backend so interrupted runs settle (spec 02 §3.7). */
  async recover(): Promise<void> {
    for (const backend of this.#backends) {
      if (backend.protocol !== "module") continue;
      const connected = await this.#connect(backend);
      if (connected.kind === "module") await connected.handle.recover?.();
    }
  }

  /**
   * Calls waiting for an answer (spec 02 §5): those of every module backend
   * that runs them (connecting each), oldest `since` first. With `offset`
   * and/or `limit`, one page of that list: through a remote client
   * (`getWorkspace(stub)`) a list over 30 MiB does not cross RPC and rejects
   * with code `E2BIG`; a page of 32 calls always does.
   *
   * @throws (rejects) RangeError when `offset` or `limit` is not an integer
   *   ≥ 0; the routing errors of {@link WorkspaceRuntime.ready}.
   */
  async pending(
    options: {
      /** Calls to skip from the start of the list (oldest first). Default: 0. */
      offset?: number;
      /** Most calls to return. Default: all of them. */
      limit?: number;
    } = {},
  ): Promise<WorkspaceRuntimePendingCall[]> {
    const offset = pageBound(options?.offset, "offset") ?? 0;
    const limit = pageBound(options?.limit, "limit");
    // Each backend lists, without payloads, the calls that may be on the page (its first offset + limit by `since`);
    // then only the page's payloads are read. A call answered in between is gone from the page: listed again.
    const first = limit === undefined || offset + limit > Number.MAX_SAFE_INTEGER ? undefined : offset + limit;
    for (let attempt = 1; ; attempt++) {
      const listed: { call: WorkspaceModulePendingCall; handle: WorkspaceModuleBackendHandle }[] = [];
      for (const backend of this.#backends) {
        if (backend.protocol !== "module") continue;
        const connected = await this.#connect(backend);
        if (connected.kind !== "module") continue;
        const handle = connected.handle;
        if (!handle.pending) continue;
        for (const call of await handle.pending({ ...(first !== undefined ? { first } : {}), payloads: false })) listed.push({ call, handle });
      }
      // Ties in `since` are ordered by backend, execution id and call id: the same list each time, so pages do not overlap.
      const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      listed.sort(({ call: a }, { call: b }) => a.since - b.since || cmp(a.backend, b.backend) || cmp(a.id, b.id) || cmp(a.callId, b.callId));
      const page = limit === undefined ? listed.slice(offset) : listed.slice(offset, offset + limit);
      const found = new Map<string, WorkspaceModulePendingCall>();
      const asked = new Map<WorkspaceModuleBackendHandle, string[]>();
      for (const { call, handle } of page) {
        if (call.payload !== undefined) found.set(`${call.backend}\u0000${call.callId}`, call);
        else asked.set(handle, [...(asked.get(handle) ?? []), call.callId]);
      }
      for (const [handle, callIds] of asked) {
        for (const call of await handle.pending!({ callIds })) if (call.payload !== undefined) found.set(`${call.backend}\u0000${call.callId}`, call);
      }
      const out: WorkspaceRuntimePendingCall[] = [];
      for (const { call } of page) {
        const whole = found.get(`${call.backend}\u0000${call.callId}`);
        if (whole) out.push({ id: whole.id, backend: whole.backend, callId: whole.callId, payload: whole.payload, since: whole.since });
      }
      if (out.length === page.length || attempt >= PENDING_LIST_TRIES) return out;
    }
  }

  /**
   * Answers a waiting call (spec 02 §5): `ctx.interrupt()` of call `callId`
   * of run `id` returns `answer` when the run replays to it. Routed like
   * `exec` (name the backend unless it is the default).
   *
   * @throws (rejects) `ENOTWAITING` when the run is not running or the call
   *   is not waiting (already answered, unknown — also a `callId` not spelled
   *   as `pending()` lists it, `<id>:<n>` with `n` decimal digits without a
   *   leading zero: `w:01`, `w:+1`, `w:0x1` name no call); Error `backend "<id>"
   *   doesn't run calls that wait for an answer` for a backend without
   *   waiting calls; TypeError/RangeError for an answer that is not JSON
   *   data or is over 262,144 characters of JSON; the routing errors of
   *   {@link WorkspaceRuntime.ready}.
   */
  async respond(
    id: string,
    callId: string,
    answer: unknown,
    options: {
      /** Id of the backend that runs it. Default: the first registered backend. */
      backend?: string;
    } = {},
  ): Promise<void> {
    if (typeof id !== "string" || typeof callId !== "string") {
      throw new TypeError(`respond(id, callId, answer): id and callId must be strings, got ${id === null ? "null" : typeof id} and ${callId === null ? "null" : typeof callId}`);
    }
    // A copy taken now: changes the caller makes to `answer` after this call do not reach the run.
    const copy = normalizeJson(answer, "the answer");
    const backend = this.#resolve(options?.backend);
    const connected = await this.#connect(backend);
    if (connected.kind !== "module" || !connected.handle.respond) {
      throw new Error(`backend "${backend.id}" doesn't run calls that wait for an answer (execution ${quoteCut(id)})`);
    }
    if (overBytes(id, MAX_EXEC_ID_BYTES) || overBytes(callId, MAX_CALL_ID_BYTES)) {
      // Names no execution or call: refused as an unknown one is, quoting at most 64 characters of each.
      throw runtimeError("ENOTWAITING", `execution ${quoteCut(id)} has no call ${quoteCut(callId)} waiting for an answer on backend "${backend.id}"`);
    }
    await connected.handle.respond({ id, callId, answer: copy });
  }

  /**
   * The remote-store backends `push()`/`pull()` work on: `id`, or every
   * command backend that is connected with remote sync or has synced in this
   * Workspace before (connecting it). `wantPending`: only those with a pull pending or connected.
   */
  async #syncTargets(id: string | undefined, wantPending: boolean): Promise<{ id: string; remote: RemoteSync; runtimeId?: string }[]> {
    const known = new Map(RemoteSync.known(this.#workspace.db).map((k) => [k.backend, k]));
    const ids =
      id !== undefined
        ? [this.#resolve(id).id]
        : this.#backends
            .filter((b) => b.protocol !== "module")
            .filter((b) => {
              const c = this.#connected.get(b.id);
              if (c?.kind === "command" && c.remote) return true;
              const k = known.get(b.id);
              return k !== undefined && (!wantPending || k.pending);
            })
            .map((b) => b.id);
    const out: { id: string; remote: RemoteSync; runtimeId?: string }[] = [];
    for (const backendId of ids) {
      const connected = await this.#connect(this.#resolve(backendId));
      if (connected.kind === "command" && connected.remote) {
        out.push({ id: backendId, remote: connected.remote, ...(connected.handle.runtimeId !== undefined ? { runtimeId: connected.handle.runtimeId } : {}) });
      }
    }
    return out;
  }

  /**
   * Sends the Workspace's changes under `/workspace` to remote-store
   * backends (spec 01 §1.2; the push half of spec 02 §7.3), serialised with
   * their commands: `id`, or every one connected or synced before. Yields
   * one {@link SyncProgress} per backend; with none, one with `operationId: "none"`.
   */
  async *push(id?: string): AsyncGenerator<SyncProgress> {
    yield* this.#sync(id, "push");
  }

  /**
   * Copies remote-store backends' changes into the Workspace (spec 01
   * §1.2): `id`, or every connected one and every one with a pull pending
   * (a failed or deferred one), which this completes. Yields as {@link push}.
   */
  async *pull(id?: string): AsyncGenerator<SyncProgress> {
    yield* this.#sync(id, "pull");
  }

  async *#sync(id: string | undefined, direction: "push" | "pull"): AsyncGenerator<SyncProgress> {
    const targets = await this.#syncTargets(id, direction === "pull");
    if (targets.length === 0) {
      yield { complete: true, entries: 0, bytes: 0, skipped: 0, operationId: "none", generation: "none", mode: "entries", cursor: { rev: 0, path: null } };
      return;
    }
    for (const target of targets) {
      const base = { operationId: crypto.randomUUID(), generation: target.runtimeId ?? "none", mode: "entries" as const, backend: target.id };
      try {
        const done = await target.remote.exclusive(async () => {
          if (direction === "push") {
            const out = await this.#pushSpan(target.remote, target.id, "workspace.sync.push.block");
            return { entries: out.pushed, bytes: out.bytes, skipped: skippedCount(out), skippedEntries: out.skipped, cursor: out.cursor };
          }
          const out = await this.#pullSpan(target.remote, target.id, "workspace.sync.pull.block");
          return { entries: out.applied, bytes: out.bytes, skipped: skippedCount(out), skippedEntries: out.skipped, cursor: target.remote.pushedCursor() };
        });
        yield { complete: true, ...base, entries: done.entries, bytes: done.bytes, skipped: done.skipped, skippedEntries: done.skippedEntries.slice(0, 100), cursor: done.cursor };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (direction === "pull") target.remote.markPullPending(message);
        yield { complete: false, ...base, entries: 0, bytes: 0, skipped: 0, cursor: target.remote.pushedCursor(), error: message };
      }
    }
  }

  /** Closes every connected backend (errors swallowed). The next call reconnects. */
  async close(): Promise<void> {
    const connected = [...this.#connected.values()];
    this.#connected.clear();
    await Promise.all(
      connected.map(async (c) => {
        try {
          await c.handle.close?.();
        } catch {
          /* ignored */
        }
      }),
    );
  }
}
