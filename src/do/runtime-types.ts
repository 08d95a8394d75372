/**
 * The parts of `workspace.runtime` the stubs and clients use, as structural
 * types (spec 02 §1). The runtime module owns the full types; these only name
 * what crosses the Durable Object boundary.
 *
 * @module
 */
import type { WorkspaceBackendInfo } from "../runtime/index.js";
import type { RuntimeEventLike } from "./exec-events.js";

export type { WorkspaceBackendInfo, RuntimeEventLike };

/** Signals `killExec` accepts. */
export type KillSignalLike = "SIGTERM" | "SIGKILL" | "SIGINT" | "SIGHUP";

/** Options of `runtime.exec` (spec 02 §1): passed through unchanged. */
export interface ExecOptionsLike {
  id?: string;
  backend?: string;
  cwd?: string;
  encoding?: "utf8";
  input?: unknown;
  env?: Record<string, string>;
  stdin?: Uint8Array | string;
  timeoutMs?: number;
  [option: string]: unknown;
}

/** Options of `runtime.getExec`. */
export interface GetExecOptionsLike {
  backend?: string;
  encoding?: "utf8";
  resume?: "tail" | "full" | number;
  [option: string]: unknown;
}

/**
 * An execution handle (spec 02 §1.3): a `ReadableStream` of events with
 * `id`, `backend`, `result()`, `kill()` and `[Symbol.dispose]()`.
 */
export interface ExecHandleLike extends ReadableStream<RuntimeEventLike> {
  readonly id: string;
  readonly backend: string;
  result(): Promise<unknown>;
  kill(signal?: KillSignalLike): Promise<void>;
  [Symbol.dispose](): void;
}

/** A waiting host-module call (spec 02 §5). */
export interface PendingCallLike {
  id: string;
  backend: string;
  callId: string;
  payload: unknown;
  since: number;
}

/** What the stubs call on `workspace.runtime`. */
export interface RuntimeLike {
  backends(): WorkspaceBackendInfo[];
  exec(source: string, options?: ExecOptionsLike): Promise<ExecHandleLike>;
  getExec(id: string, options?: GetExecOptionsLike): Promise<ExecHandleLike>;
  killExec(id: string, options?: { backend?: string; signal?: KillSignalLike }): Promise<void>;
  disposeExec(id: string, options?: { backend?: string }): Promise<void>;
  pending?(): Promise<PendingCallLike[]>;
  respond?(id: string, callId: string, answer: unknown, options?: { backend?: string }): Promise<void>;
}
