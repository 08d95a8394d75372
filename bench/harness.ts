/**
 * The benchmark harness: what a suite is, what it is given, what it returns.
 *
 * A suite is a module `bench/suites/<name>.ts` whose default export is a
 * {@link BenchSuite}. `npm run bench` bundles every suite into one Worker and
 * runs each, in order of file name, inside workerd on a fresh Durable Object
 * with real SQLite storage. A suite returns {@link BenchResult} rows: our
 * figure beside a raw-SQL baseline measured in the same run, and a target.
 *
 * @module
 */
import { Workspace, type WorkspaceOptions } from "../src/index.js";

/** Bindings of the bench Worker, available to suites as `ctx.env`. */
export interface BenchEnv {
  /** The Durable Object class every suite runs in (one fresh object per suite). */
  BENCH: DurableObjectNamespace;
  /** A Worker Loader (Dynamic Workers), for runtime/backends suites. */
  LOADER: WorkerLoader;
  /**
   * The `git` suite's native side, served by `bench/git-native.mjs` in Node: its base URL
   * (`http://127.0.0.1:<port>`), or `"error: <why>"` when it did not start (no real git).
   */
  GIT_NATIVE: string;
  /**
   * The `container` suite's Node side, served by `bench/container-native.mjs`: its base URL (the
   * local container host's URL is at `GET /info`), or `"error: <why>"` when it did not start.
   */
  CONTAINER_NATIVE: string;
}

/** What a figure measures; decides how it is printed. */
export type BenchUnit = "MB/s" | "ms" | "rows" | "ops/s" | "MB" | "files/s";

/**
 * A target for one row.
 *
 * - `ratio-min`: `ours / baseline` must be **at least** `value` (throughput: `0.8` = 80 % of raw).
 * - `ratio-max`: `ours / baseline` must be **at most** `value` (time: `5` = at most 5× raw).
 * - `max`: `ours` itself must be at most `value` (e.g. rows read per call).
 */
export type BenchTarget =
  | { readonly kind: "ratio-min"; readonly value: number }
  | { readonly kind: "ratio-max"; readonly value: number }
  | { readonly kind: "max"; readonly value: number; readonly note?: string };

/** `ours / baseline ≥ value` (throughput rows). */
export const ratioAtLeast = (value: number): BenchTarget => ({ kind: "ratio-min", value });
/** `ours / baseline ≤ value` (time rows). */
export const ratioAtMost = (value: number): BenchTarget => ({ kind: "ratio-max", value });
/** `ours ≤ value` (absolute bound; `note` explains it, e.g. `"2×200+3"`). */
export const atMost = (value: number, note?: string): BenchTarget => ({ kind: "max", value, note });

/** One row as a suite reports it. */
export interface BenchRow {
  /** What was measured, short (e.g. `"64 MiB stream write"`). */
  label: string;
  unit: BenchUnit;
  /** Our figure (the library under test). */
  ours: number;
  /** The raw-SQL floor for the same work, measured in the same run. Omit when there is none. */
  baseline?: number;
  /** Omit for an informational row. */
  target?: BenchTarget;
  /** Extra detail printed under the table (sizes, method, caveats). */
  note?: string;
}

/** A row after evaluation: `ratio = ours / baseline`, `pass` against the target. */
export interface BenchResult extends BenchRow {
  suite: string;
  ratio?: number;
  /** `undefined` when the row has no target. */
  pass?: boolean;
}

/** What a suite's `run` receives. */
export interface BenchContext {
  /** The Durable Object's storage (`ctx.storage`): fresh and empty for each suite. */
  readonly storage: DurableObjectStorage;
  /** Shorthand for `storage.sql`. */
  readonly sql: SqlStorage;
  /** The bench Worker's bindings (`LOADER` for Worker Loader suites). */
  readonly env: BenchEnv;
  /**
   * Loopback bindings for the bench Worker's top-level exports (the Durable Object's
   * `ctx.exports`). Named exports of a suite module are re-exported by the Worker, so a suite can
   * define a `WorkerEntrypoint` and reach it here as `ctx.exports.<Name>`.
   */
  readonly exports: Cloudflare.Exports;
  /** `new Workspace({ storage: ctx.storage, ...options })`. All Workspaces of a suite share one store. */
  newWorkspace(options?: Partial<WorkspaceOptions>): Workspace;
  /** Milliseconds taken by `fn` (wall clock, `performance.now()`; workerd advances it during CPU work locally). */
  time(fn: () => unknown): Promise<number>;
  /**
   * Median in ms of `runs` timings of `fn`. `setup(i)` runs before, `teardown(i)` after, each
   * run, outside the timing. With `repeat`, each timing calls `fn` that many times and the
   * per-call time is reported (use it for calls well under 10 ms: workerd's clock ticks in 1 ms).
   */
  median(fn: (i: number) => unknown, options?: MedianOptions): Promise<number>;
  /**
   * Medians of `ours` and `raw`, timed alternately (ours, raw, ours, raw, …) so drift during the
   * run (cache warmth, database growth) affects both alike. Same options as {@link median}.
   */
  compare(ours: (i: number) => unknown, raw: (i: number) => unknown, options?: CompareOptions): Promise<{ ours: number; raw: number }>;
  /** Progress line on the terminal (stderr of `npm run bench`). */
  log(message: string): void;
}

/** Options of {@link BenchContext.median}. */
export interface MedianOptions {
  /** Timed runs. Default `5`. */
  runs?: number;
  /** Calls of `fn` per timed run; the result is per call. Default `1`. */
  repeat?: number;
  /** Before each timed run (its index), not timed. */
  setup?: (i: number) => unknown;
  /** After each timed run (its index), not timed. */
  teardown?: (i: number) => unknown;
}

/** Options of {@link BenchContext.compare}: like {@link MedianOptions}, per side. */
export interface CompareOptions {
  /** Timed runs of each side. Default `5`. */
  runs?: number;
  /** Calls per timed run, ours and raw. Default `1` each. */
  repeat?: number | { ours: number; raw: number };
  setup?: { ours?: (i: number) => unknown; raw?: (i: number) => unknown };
  teardown?: { ours?: (i: number) => unknown; raw?: (i: number) => unknown };
}

/** A benchmark suite: the default export of `bench/suites/<name>.ts`. */
export interface BenchSuite {
  /** Short name shown in the table and used to select it: `npm run bench -- <name>`. */
  name: string;
  /** Runs the suite and returns its rows. Throwing marks the suite failed; other suites still run. */
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

/** Identity, for type checking a suite's default export. */
export function defineSuite(suite: BenchSuite): BenchSuite {
  return suite;
}

/** MB/s (10^6 bytes per second) for `bytes` in `ms`. */
export function mbps(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : Number.POSITIVE_INFINITY;
}

/** Median of a non-empty list. */
export function medianOf(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Adds `ratio` and `pass` to a suite's row. */
export function evaluate(suite: string, row: BenchRow): BenchResult {
  const ratio = row.baseline !== undefined && row.baseline > 0 ? row.ours / row.baseline : undefined;
  let pass: boolean | undefined;
  const target = row.target;
  if (target?.kind === "ratio-min") pass = ratio !== undefined && ratio >= target.value;
  else if (target?.kind === "ratio-max") pass = ratio !== undefined && ratio <= target.value;
  else if (target?.kind === "max") pass = row.ours <= target.value;
  return { suite, ...row, ratio, pass };
}

/** Builds the {@link BenchContext} for one suite on one Durable Object. */
export function createContext(state: DurableObjectState, env: BenchEnv, log: (message: string) => void): BenchContext {
  const storage = state.storage;
  const time = async (fn: () => unknown): Promise<number> => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const timedRun = async (
    fn: (i: number) => unknown,
    i: number,
    repeat: number,
    setup?: (i: number) => unknown,
    teardown?: (i: number) => unknown,
  ): Promise<number> => {
    if (!Number.isSafeInteger(repeat) || repeat < 1) throw new RangeError(`repeat must be a positive integer, got ${repeat}`);
    await setup?.(i);
    const ms = await time(async () => {
      for (let r = 0; r < repeat; r++) await fn(i);
    });
    await teardown?.(i);
    return ms / repeat;
  };
  return {
    storage,
    sql: storage.sql,
    env,
    exports: state.exports,
    newWorkspace: (options) => new Workspace({ ...options, storage }),
    time,
    async median(fn, options = {}) {
      const runs = options.runs ?? 5;
      const timings: number[] = [];
      for (let i = 0; i < runs; i++) timings.push(await timedRun(fn, i, options.repeat ?? 1, options.setup, options.teardown));
      return medianOf(timings);
    },
    async compare(ours, raw, options = {}) {
      const runs = options.runs ?? 5;
      const repeat = typeof options.repeat === "object" ? options.repeat : { ours: options.repeat ?? 1, raw: options.repeat ?? 1 };
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < runs; i++) {
        a.push(await timedRun(ours, i, repeat.ours, options.setup?.ours, options.teardown?.ours));
        b.push(await timedRun(raw, i, repeat.raw, options.setup?.raw, options.teardown?.raw));
      }
      return { ours: medianOf(a), raw: medianOf(b) };
    },
    log,
  };
}
