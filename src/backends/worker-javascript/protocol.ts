/**
 * The contract between the host and a run's Dynamic Worker (spec 02 §3.4–§3.6):
 * what the runner's `evaluate()` receives and returns, and the bridge the
 * isolate calls back into. Types only, importing nothing, so the isolate's
 * JavaScript (`isolate/**\/*.js`, checked by `isolate/tsconfig.json`) is
 * type-checked against the same declarations as the host.
 *
 * @module
 */

/** A failure the isolate rebuilds as an Error with the same message, code and path. */
export interface BridgeError {
  /** `"TypeError"`, `"RangeError"`, or `"Error"` for anything else. */
  name: string;
  /** The message, unchanged. */
  message: string;
  /** POSIX-style code (`ENOENT`, `EACCES`, `E2BIG`, `ETIMEDOUT`, …), when the failure had one. */
  code?: string;
  /** The path the failure concerns, when it had one. */
  path?: string;
}

/** What a call returns over RPC: never a rejection, failures are data. */
export type BridgeResult = { ok: true; value: unknown } | { ok: false; error: BridgeError };

/**
 * Which side of the host a call goes to: `node:fs` over the Workspace, a
 * `ws:*` host module, or (replay runs only, spec 02 §5) `fetch` sent by the
 * host under the backend's egress policy.
 */
export type BridgeCallKind = "fs" | "host" | "fetch";

/**
 * What a replay run's isolate sends along with each call and output batch
 * (spec 02 §5): the call's number and the tape entries recorded since the
 * last message.
 */
export interface CallMeta {
  /** The call's number in the run, from 1, in the order the code made them (stable across replays). */
  seq: number;
  /** Tape entries recorded since the last message (see {@link ReplayContext.tape}). */
  tape: number[];
}

/**
 * A replay run's deterministic inputs (spec 02 §5), given to the runner at
 * each attempt.
 */
export interface ReplayContext {
  /** Seed of the run's random numbers: four unsigned 32-bit integers, saved at the start. */
  seed: number[];
  /** The clock (ms since the epoch) `Date.now()` reads until the first event: the run's start. */
  clock: number;
  /**
   * The events of earlier attempts in the order the code saw them, as flat
   * triples `[kind, n, t]`: kind 0 = call `n` answered, kind 1 = timer `n`
   * fired; `t` = the clock at that moment (ms since the epoch).
   */
  tape: number[];
}

/** The RPC object the runner gets (the host's `RunBridge`); every method is a call back into the host. */
export interface IsolateBridge {
  /**
   * Appends a batch of output, in the order it was written: `bytes` holds
   * the batch's segments one after another and `segments[i]` is the byte
   * length of segment i — positive for stdout, negative for stderr (so
   * alternating writes of the two streams cost one call, not one each).
   * Bytes past the listed segments count as stdout. The host keeps at most
   * `maxStdioBytes + stdioReserveBytes` bytes of each stream and drops
   * (and counts) the rest.
   */
  output(bytes: Uint8Array, segments: number[], tape?: number[]): void | Promise<void>;
  /**
   * Reports how many bytes of `stream` the runner has dropped so far past
   * `maxStdioBytes` (a running total, never decreasing); the host states
   * the count in a marker line at the end of that stream when the run ends.
   */
  dropped(stream: "stdout" | "stderr", bytes: number): void | Promise<void>;
  /**
   * One `node:fs` (`kind "fs"`, `target ""`) or host-module (`kind "host"`,
   * `target "ws:…"`) call with JSON-compatible `args`. Resolves
   * `{ ok: false, error }` for every failure (limits of spec 02 §3.6,
   * confinement, the function's own error).
   *
   * `output` (outside replay runs): the output the runner queued since its last send, as `[bytes, segments]` of
   * {@link IsolateBridge.output} (at most 64 KiB), taken when the call went on the wire; the host appends it before
   * anything else about the call, so every byte written before a call is the host's when the call arrives, at the
   * cost of no extra round trip (issue 20, run 34, fixer JL).
   */
  call(kind: BridgeCallKind, target: string, name: string, args: unknown[], meta?: CallMeta, output?: [bytes: Uint8Array, segments: number[]]): Promise<BridgeResult>;
}

/** The third argument of the runner's `evaluate(input, bridge, context)`. */
export interface RunnerContext {
  /** Absolute working directory of the run (`process.cwd()`). */
  cwd: string;
  /** `process.env` of the run. */
  env: Record<string, string>;
  /** Bytes `process.stdin` yields once (empty: none). */
  stdin: Uint8Array;
  /** File name of the entry module (`process.argv[1]`). */
  entryName: string | undefined;
  /**
   * Bytes of each stream (stdout and stderr apart) the runner sends; the
   * write that crosses it is cut on a UTF-8 boundary, later output of that
   * stream is dropped and counted (reported with `bridge.dropped`).
   */
  maxStdioBytes: number;
  /** Bytes of stderr past `maxStdioBytes` kept for the runner's own failure message. */
  stdioReserveBytes: number;
  /** Bytes of JSON the default export may return. */
  maxResultBytes: number;
  /**
   * The backend's `maxCapabilityBytes` and `maxCapabilityRequestBytes`: a
   * call whose arguments cannot cross RPC (past workerd's 32 MiB) and are
   * over either is refused in the isolate with the host's `E2BIG` message,
   * measured as the host measures; every other call is the host's to decide.
   * Absent: the host decides alone.
   */
  maxCapabilityBytes?: number;
  maxCapabilityRequestBytes?: number;
  /**
   * The backend's `maxConcurrentCapabilityCalls` and `maxCapabilityCalls`: the isolate keeps at most twice the
   * first (at most 1,024) host calls on the wire at once, the rest wait their turn in order; and outside replay
   * runs, once the host refused a call past `maxCapabilityCalls`, the later ones are refused in the isolate with
   * the host's error, without a round trip. Absent: 32, and every call goes to the host.
   */
  maxConcurrentCapabilityCalls?: number;
  maxCapabilityCalls?: number;
  /** Internal module name (`/…`) → the specifier or path the code used, for error messages. */
  names: Record<string, string>;
  /** Internal name of the entry module to import (`/<cwd>/__workspace_entry__.js`). */
  entry: string;
  /** Present in replay runs only (spec 02 §5): the clock, random numbers and timers are then deterministic. */
  replay?: ReplayContext;
}

/**
 * What `evaluate()` resolves: the exit code (0–255; anything else counts
 * as 1), and on success the JSON text of the default export's value.
 */
export interface RunnerOutcome {
  code: number;
  value?: string;
  /** Replay runs: why the run took a different path than its journal (the host fails the run with it). */
  diverged?: string;
  /** Replay runs: how many calls the code made in this attempt. */
  calls?: number;
}
