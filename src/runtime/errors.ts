/**
 * Runtime errors (spec 02 §1.7): plain `Error`s carrying a string `code`.
 *
 * @module
 */
import { headCut } from "../util/cut.js";

/** Codes the runtime and its backends reject with. */
export type WorkspaceRuntimeErrorCode =
  | "EEXEC_BUSY"
  | "EEXEC_EXISTS"
  | "ENOENT"
  | "ECLOSED"
  | "EEXEC_LOST"
  | "ENOTWAITING"
  | "EPROTOCOL"
  | "ELOG_TRUNCATED"
  | "EINVAL"
  | "E2BIG";

/** An `Error` with `name === "WorkspaceRuntimeError"` and a `code` from spec 02 §1.7. */
export class WorkspaceRuntimeError extends Error {
  /** Always `"WorkspaceRuntimeError"`, so the error is recognised across realms and RPC. */
  override readonly name: string = "WorkspaceRuntimeError";
  /** The code from spec 02 §1.7, e.g. `EEXEC_BUSY`, `ENOENT`. */
  readonly code: WorkspaceRuntimeErrorCode;
  constructor(code: WorkspaceRuntimeErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Shorthand for `new WorkspaceRuntimeError(code, message)`. */
export function runtimeError(code: WorkspaceRuntimeErrorCode, message: string): WorkspaceRuntimeError {
  return new WorkspaceRuntimeError(code, message);
}

/**
 * `EEXEC_LOST` (spec 02 §1.7): an id-addressed call (`getExec`, `killExec`,
 * `disposeExec`) for a run of a command backend whose container runtime was
 * replaced since the run started; its outcome cannot be known.
 */
export class WorkspaceExecutionLostError extends WorkspaceRuntimeError {
  override readonly name: string = "WorkspaceExecutionLostError";
  constructor(message: string) {
    super("EEXEC_LOST", message);
  }
}


/** The signals `killExec` accepts (spec 02 §1, `KillSignal`). */
export const KILL_SIGNALS = ["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP"] as const;

/**
 * Throws `EINVAL` unless `signal` is `undefined` or one of {@link KILL_SIGNALS}: a signal that does not end a process
 * (`SIGSTOP`, `SIGCONT`, a number) never reaches a backend. The message quotes at most 64 characters of a string.
 */
export function checkKillSignal(signal: unknown, what: string): void {
  if (signal === undefined || (KILL_SIGNALS as readonly unknown[]).includes(signal)) return;
  const got = typeof signal === "string" ? JSON.stringify(headCut(signal, 64)) : typeof signal;
  throw new WorkspaceRuntimeError("EINVAL", `${what}: signal must be one of ${KILL_SIGNALS.join(", ")} (got ${got})`);
}
