/**
 * Sync telemetry (spec 01 §1.1 `syncTelemetry` / `syncTelemetryEnabled`,
 * spec 01 §7, spec 04 §4): one JSON line per block of a push or pull
 * (`"event": "sync.block"`) and one per finished operation
 * (`"event": "sync.operation"`), for tuning and debugging the Workspace ⇄
 * container sync. Off by default: a Workspace logs only with
 * `syncTelemetryEnabled: true`.
 *
 * A **block** is one page of the sync: on push, one page of the Workspace
 * change log (up to 1000 changed entries, sent in `apply` batches); on pull,
 * one page of the container's tree walk (up to 5000 entries), plus one last
 * block for the deletions found after the walk. An **operation** is one
 * push or one pull of one backend (the push before a command, the pull after
 * it, `workspace.push()` / `workspace.pull()`).
 *
 * @module
 */
import { sanitizeErrorMessage } from "../observer.js";
import { valueCut } from "../util/cut.js";

/**
 * The CPU time a Worker invocation may use by default (ms), `30000`: the
 * budget sync telemetry measures each block and operation against
 * (`cpuBudget` in a {@link TelemetryRecord}). Override it with
 * `createSyncLogger({ cpuLimitMs })` when the Worker has another
 * `limits.cpu_ms`.
 */
export const DEFAULT_CPU_LIMIT_MS = 30_000;

/** One block of a push or pull, as measured by the sync engine. */
export interface SyncBlockTelemetry {
  /** `"push"`: Workspace → container; `"pull"`: container → Workspace. */
  direction: "push" | "pull";
  /** Id of the backend synced (e.g. `"container-shell"`). */
  backend: string;
  /** Id shared by the blocks of one operation and its `sync.operation` record (a UUID). */
  operationId: string;
  /** Position of the block in its operation, from 1. */
  block: number;
  /** Entries sent (push) or applied (pull) in this block: files, directories, links, deletions. */
  entries: number;
  /** Bytes of file content sent or copied in this block. */
  bytes: number;
  /** Entries skipped in this block (read-only mounts, refused writes, invalid answers, …). */
  skipped: number;
  /** Wall time of the block (ms). An upper bound of its CPU time. */
  durationMs: number;
}

/** One finished push or pull of one backend. */
export interface SyncOperationTelemetry {
  /** `"push"` or `"pull"`. */
  direction: "push" | "pull";
  /** Id of the backend synced. */
  backend: string;
  /** The operation's id (its blocks carry it too). */
  operationId: string;
  /** Blocks the operation ran (the ones that finished). */
  blocks: number;
  /** Entries sent or applied in all. */
  entries: number;
  /** Bytes of file content sent or copied in all. */
  bytes: number;
  /** Entries skipped in all. */
  skipped: number;
  /** Wall time of the whole operation (ms). */
  durationMs: number;
  /** `false` when it failed (a transport error): then `error` says why, and a pull is left pending. */
  ok: boolean;
  /** The failure's message, sanitised (control characters blanked, credentials redacted, ≤ 512 characters). */
  error?: string;
}

/** What a record adds to the telemetry it was made from. */
interface RecordHeader<E extends "sync.block" | "sync.operation"> {
  /** The record kind; the first key of every JSON line. */
  event: E;
  /** When the record was made, epoch ms (the logger's clock). */
  time: number;
}

/** What a record adds at the end: the CPU budget the duration is measured against. */
interface RecordBudget {
  /** The CPU budget (ms) the record was measured against: {@link DEFAULT_CPU_LIMIT_MS} unless configured. */
  cpuLimitMs: number;
  /**
   * `durationMs / cpuLimitMs`, rounded to 4 decimals. Wall time bounds CPU
   * time from above, so a value well below 1 means the block cannot have
   * hit the CPU limit; near or above 1, look at the Worker's CPU metrics.
   */
  cpuBudget: number;
}

/**
 * One telemetry JSON line, parsed: `event` and `time` first, then the
 * telemetry's fields in declaration order, then `cpuLimitMs` and
 * `cpuBudget`. The line itself is `JSON.stringify(record)`.
 */
export type TelemetryRecord =
  | (RecordHeader<"sync.block"> & SyncBlockTelemetry & RecordBudget)
  | (RecordHeader<"sync.operation"> & SyncOperationTelemetry & RecordBudget);

/** Options of {@link createSyncLogger}, {@link syncBlockLog} and {@link syncOperationLog}. */
export interface SyncLoggerOptions {
  /**
   * Receives each JSON line (no trailing newline). Default `console.log`,
   * which the Workers runtime sends to Workers Logs / `wrangler tail`.
   * Errors it throws are swallowed: telemetry never fails a sync.
   */
  write?: (line: string) => void;
  /** The CPU budget records are measured against (ms); a positive finite number. Default {@link DEFAULT_CPU_LIMIT_MS}. */
  cpuLimitMs?: number;
  /** Clock for each record's `time` (epoch ms). Default `Date.now`. */
  now?: () => number;
}

/**
 * Where the sync engine reports its blocks and operations
 * (`WorkspaceOptions.syncTelemetry`). {@link createSyncLogger} makes one that
 * writes JSON lines; any object with these two methods works (e.g. to
 * collect metrics). Its methods are called synchronously by the sync engine
 * and their errors are swallowed.
 */
export interface SyncLogger {
  /** Called after each block of a push or pull. */
  block(telemetry: SyncBlockTelemetry): void;
  /** Called once when a push or pull ends, whether it succeeded or failed. */
  operation(telemetry: SyncOperationTelemetry): void;
}

interface ResolvedOptions {
  write: (line: string) => void;
  cpuLimitMs: number;
  now: () => number;
}

function resolve(options: SyncLoggerOptions | undefined, what: string): ResolvedOptions {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(`${what}: options must be an object, got ${options === null ? "null" : typeof options}`);
  }
  const o = options ?? {};
  if (o.write !== undefined && typeof o.write !== "function") throw new TypeError(`${what}: write must be a function (line: string) => void, got ${typeof o.write}`);
  if (o.now !== undefined && typeof o.now !== "function") throw new TypeError(`${what}: now must be a function returning epoch ms, got ${typeof o.now}`);
  const cpuLimitMs = o.cpuLimitMs ?? DEFAULT_CPU_LIMIT_MS;
  if (typeof cpuLimitMs !== "number" || !Number.isFinite(cpuLimitMs) || cpuLimitMs <= 0) {
    throw new TypeError(`${what}: cpuLimitMs must be a positive number of milliseconds, got ${valueCut(cpuLimitMs)}`);
  }
  return { write: o.write ?? ((line) => console.log(line)), cpuLimitMs, now: o.now ?? Date.now };
}

function budget(durationMs: number, cpuLimitMs: number): RecordBudget {
  return { cpuLimitMs, cpuBudget: Math.round((durationMs / cpuLimitMs) * 10_000) / 10_000 };
}

/** A count from the engine, kept a non-negative integer in the record. */
function count(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * The `sync.block` record of one block.
 *
 * @example
 * ```ts
 * JSON.stringify(syncBlockLog(
 *   { direction: "push", backend: "box", operationId: "op-1", block: 1, entries: 3, bytes: 120, skipped: 0, durationMs: 12 },
 *   { now: () => 1_700_000_000_000 },
 * ));
 * // {"event":"sync.block","time":1700000000000,"direction":"push","backend":"box","operationId":"op-1",
 * //  "block":1,"entries":3,"bytes":120,"skipped":0,"durationMs":12,"cpuLimitMs":30000,"cpuBudget":0.0004}
 * ```
 * @throws TypeError for invalid options (see {@link SyncLoggerOptions}).
 */
export function syncBlockLog(telemetry: SyncBlockTelemetry, options?: SyncLoggerOptions): TelemetryRecord {
  const o = resolve(options, "syncBlockLog");
  return blockRecord(telemetry, o);
}

/**
 * The `sync.operation` record of one finished push or pull; `error` is
 * sanitised again (control characters, credentials, 512 characters) and
 * present only when the operation failed.
 *
 * @throws TypeError for invalid options (see {@link SyncLoggerOptions}).
 */
export function syncOperationLog(telemetry: SyncOperationTelemetry, options?: SyncLoggerOptions): TelemetryRecord {
  const o = resolve(options, "syncOperationLog");
  return operationRecord(telemetry, o);
}

function blockRecord(t: SyncBlockTelemetry, o: ResolvedOptions): TelemetryRecord {
  const durationMs = Math.max(0, Number(t.durationMs) || 0);
  return {
    event: "sync.block",
    time: o.now(),
    direction: t.direction,
    backend: String(t.backend),
    operationId: String(t.operationId),
    block: count(t.block),
    entries: count(t.entries),
    bytes: count(t.bytes),
    skipped: count(t.skipped),
    durationMs,
    ...budget(durationMs, o.cpuLimitMs),
  };
}

function operationRecord(t: SyncOperationTelemetry, o: ResolvedOptions): TelemetryRecord {
  const durationMs = Math.max(0, Number(t.durationMs) || 0);
  const head = {
    event: "sync.operation" as const,
    time: o.now(),
    direction: t.direction,
    backend: String(t.backend),
    operationId: String(t.operationId),
    blocks: count(t.blocks),
    entries: count(t.entries),
    bytes: count(t.bytes),
    skipped: count(t.skipped),
    durationMs,
    ok: t.ok === true,
  };
  // `error` (failures only) goes before the budget fields, as declared.
  if (t.ok !== true && t.error !== undefined) return { ...head, error: sanitizeErrorMessage(messageOf(t.error)), ...budget(durationMs, o.cpuLimitMs) };
  return { ...head, ...budget(durationMs, o.cpuLimitMs) };
}

/** The text of a thrown value or message (never throws). */
function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "(an error that cannot be printed)";
  }
}

/**
 * A {@link SyncLogger} that writes each block and operation as one JSON
 * line ({@link syncBlockLog}, {@link syncOperationLog}) to `options.write`
 * (default `console.log`). Pass it as `WorkspaceOptions.syncTelemetry` with
 * `syncTelemetryEnabled: true`.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const workspace = new Workspace({
 *   storage: ctx.storage,
 *   backends: [container],
 *   syncTelemetryEnabled: true,
 *   syncTelemetry: createSyncLogger({ write: (line) => lines.push(line) }),
 * });
 * ```
 * @throws TypeError when `write` or `now` is not a function, or `cpuLimitMs` is not a positive number.
 */
export function createSyncLogger(options?: SyncLoggerOptions): SyncLogger {
  const o = resolve(options, "createSyncLogger");
  const emit = (record: TelemetryRecord): void => {
    try {
      o.write(JSON.stringify(record));
    } catch {
      /* telemetry never fails a sync */
    }
  };
  return {
    block: (telemetry) => emit(blockRecord(telemetry, o)),
    operation: (telemetry) => emit(operationRecord(telemetry, o)),
  };
}

/**
 * The logger a Workspace reports to: `logger` (default: a
 * {@link createSyncLogger} to `console.log`) when `enabled` is `true`,
 * else `undefined` (nothing is measured).
 *
 * @throws TypeError when `enabled` is given and not a boolean, or `logger` lacks `block`/`operation` methods.
 */
export function resolveSyncTelemetry(logger: SyncLogger | undefined, enabled: boolean | undefined): SyncLogger | undefined {
  if (enabled !== undefined && typeof enabled !== "boolean") throw new TypeError(`Workspace syncTelemetryEnabled must be a boolean, got ${typeof enabled}`);
  if (logger !== undefined && (typeof logger !== "object" || logger === null || typeof logger.block !== "function" || typeof logger.operation !== "function")) {
    throw new TypeError("Workspace syncTelemetry must be a SyncLogger ({ block(telemetry), operation(telemetry) }), e.g. createSyncLogger()");
  }
  if (enabled !== true) return undefined;
  return logger ?? createSyncLogger();
}

/** Cumulative totals of an operation, as the engine keeps them. */
export interface SyncTotals {
  /** Entries sent or applied so far. */
  entries: number;
  /** Bytes of content so far. */
  bytes: number;
  /** Entries skipped so far. */
  skipped: number;
}

/**
 * Measures one push or pull for a {@link SyncLogger}: {@link block} after
 * each block with the operation's running totals (the block's share is the
 * difference), {@link end} once. Without a logger every call is a no-op.
 * The logger's errors are swallowed. Internal to the sync engine.
 */
export class SyncTelemetryRun {
  readonly #logger: SyncLogger | undefined;
  readonly #base: { direction: "push" | "pull"; backend: string; operationId: string };
  readonly #started: number;
  #blockStarted: number;
  #blocks = 0;
  #last: SyncTotals = { entries: 0, bytes: 0, skipped: 0 };
  #ended = false;

  constructor(logger: SyncLogger | undefined, direction: "push" | "pull", backend: string) {
    this.#logger = logger;
    this.#base = { direction, backend, operationId: logger ? crypto.randomUUID() : "" };
    this.#started = this.#blockStarted = logger ? Date.now() : 0;
  }

  /** Reports the block that just ended; `totals` are the operation's so far. */
  block(totals: SyncTotals): void {
    if (!this.#logger || this.#ended) return;
    const t = Date.now();
    this.#blocks++;
    const telemetry: SyncBlockTelemetry = {
      ...this.#base,
      block: this.#blocks,
      entries: totals.entries - this.#last.entries,
      bytes: totals.bytes - this.#last.bytes,
      skipped: totals.skipped - this.#last.skipped,
      durationMs: t - this.#blockStarted,
    };
    this.#last = { entries: totals.entries, bytes: totals.bytes, skipped: totals.skipped };
    this.#blockStarted = t;
    try {
      this.#logger.block(telemetry);
    } catch {
      /* telemetry never fails a sync */
    }
  }

  /** Reports the operation: `error` when it failed. Only the first call counts. */
  end(totals: SyncTotals, error?: unknown): void {
    if (!this.#logger || this.#ended) return;
    this.#ended = true;
    const telemetry: SyncOperationTelemetry = {
      ...this.#base,
      blocks: this.#blocks,
      entries: totals.entries,
      bytes: totals.bytes,
      skipped: totals.skipped,
      durationMs: Date.now() - this.#started,
      ok: error === undefined,
    };
    if (error !== undefined) telemetry.error = sanitizeErrorMessage(messageOf(error));
    try {
      this.#logger.operation(telemetry);
    } catch {
      /* telemetry never fails a sync */
    }
  }
}
