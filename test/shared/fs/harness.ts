/**
 * Shared harness for the `workspace.fs` conformance suites (spec 01 §1–§4).
 *
 * The case bodies in `test/shared/fs/*` are written once against
 * {@link FsTestContext}; each suite (Node over `node:sqlite`, workerd over
 * Durable Object SQLite) supplies an {@link FsHarness} whose `run` builds a
 * fresh Workspace and runs the body in the right place (in workerd: inside
 * `runInDurableObject`).
 */
import { expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import type { WorkspaceFilesystem } from "../../../src/fs/types.js";
import type { DurableObjectStorageLike } from "../../../src/storage/types.js";

/** 512 KiB: the storage chunk size (spec 01 §4.2). */
export const CHUNK = 524_288;

/** A clock the tests move by hand; every Workspace in a case reads it. */
export class ManualClock {
  value: number;
  constructor(start = 1_700_000_000_000) {
    this.value = start;
  }
  readonly now = (): number => this.value;
  advance(ms: number): number {
    this.value += ms;
    return this.value;
  }
  set(ms: number): number {
    this.value = ms;
    return ms;
  }
}

/** What a case body gets: a fresh Workspace on real SQL storage. */
export interface FsTestContext {
  readonly suite: "node" | "workers";
  /** The Workspace under test (replaced by {@link reopen}). */
  readonly workspace: Workspace;
  /** `workspace.fs` of the current Workspace. */
  readonly fs: WorkspaceFilesystem;
  /** The storage the Workspace runs on. */
  readonly storage: DurableObjectStorageLike;
  /** The injected `now` clock (ms). */
  readonly clock: ManualClock;
  /** Drops the current Workspace object and builds a new one over the same storage. */
  reopen(): Workspace;
  /** Runs raw SQL on the same storage and returns the rows. */
  sql<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): T[];
  /** Live memory (bytes) after a full GC, where the platform can measure it (Node), else undefined. */
  liveMemory?(): number;
}

/** How a suite runs shared cases. */
export interface FsHarness {
  readonly suite: "node" | "workers";
  /** Builds a fresh Workspace (own storage) and runs `body` with it; rejects if the body does. */
  run(body: (t: FsTestContext) => Promise<void>): Promise<void>;
  /** Model-based test size: `runs` independent sequences of `steps` operations each. */
  readonly model: { runs: number; steps: number };
  /** Size of the big streamed file (spec: 64 MiB). */
  readonly bigStreamBytes: number;
}

/** Builds a context object shared by both runners. */
export function makeContext(
  suite: "node" | "workers",
  storage: DurableObjectStorageLike,
  clock: ManualClock,
  create: (storage: DurableObjectStorageLike, now: () => number) => Workspace,
  liveMemory?: () => number,
): FsTestContext {
  let workspace = create(storage, clock.now);
  const ctx: FsTestContext = {
    suite,
    get workspace() {
      return workspace;
    },
    get fs() {
      return workspace.fs;
    },
    storage,
    clock,
    reopen() {
      workspace = create(storage, clock.now);
      return workspace;
    },
    sql<T>(query: string, ...bindings: unknown[]): T[] {
      return storage.sql.exec(query, ...bindings).toArray() as T[];
    },
  };
  if (liveMemory) ctx.liveMemory = liveMemory;
  return ctx;
}

/** Registers one `it` whose body runs through the harness. */
export function fsIt(
  harness: FsHarness,
  name: string,
  body: (t: FsTestContext) => Promise<void>,
  timeout?: number,
): void {
  it(name, () => harness.run(body), timeout);
}

// ---------------------------------------------------------------------------
// Assertions on errors (spec 01 §2.2)
// ---------------------------------------------------------------------------

async function settle(promise: unknown): Promise<unknown> {
  // Every method must return a promise and reject (never throw synchronously).
  expect(promise).toBeInstanceOf(Promise);
  return (promise as Promise<unknown>).then(
    (value) => {
      throw new Error(`expected a rejection, but it resolved with ${preview(value)}`);
    },
    (error: unknown) => error,
  );
}

/**
 * Asserts `promise` rejects with a `WorkspaceFsError` carrying `code`, and,
 * when `path` is given, `error.path === path` and a message ending in `": <path>"`.
 */
export async function expectFsError(promise: unknown, code: string, path?: string): Promise<Error> {
  const error = (await settle(promise)) as Error & { code?: unknown; path?: unknown };
  expect(error, `expected WorkspaceFsError ${code}, got ${String(error)}`).toBeInstanceOf(Error);
  expect({ name: error.name, code: error.code }, error.message).toEqual({ name: "WorkspaceFsError", code });
  if (path !== undefined) {
    expect(error.path).toBe(path);
    expect(error.message.endsWith(`: ${path}`), `message "${error.message}" should end with ": ${path}"`).toBe(true);
  }
  return error;
}

/** Asserts `promise` rejects with a plain `TypeError` that has no `code`. */
export async function expectTypeError(promise: unknown, message?: RegExp): Promise<Error> {
  const error = (await settle(promise)) as Error & { code?: unknown };
  expect(error, `expected TypeError, got ${String(error)}`).toBeInstanceOf(TypeError);
  expect(error.code).toBeUndefined();
  if (message) expect(error.message).toMatch(message);
  return error;
}

/** Calls `fn` and returns what it returned, failing if it threw synchronously. */
export function noSyncThrow<T>(fn: () => T): T {
  let out: T | undefined;
  expect(() => {
    out = fn();
  }).not.toThrow();
  return out as T;
}

function preview(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.slice(0, 200);
  } catch {
    return String(value);
  }
}

// ---------------------------------------------------------------------------
// Bytes and streams
// ---------------------------------------------------------------------------

const encoder = new TextEncoder();
export const utf8 = (s: string): Uint8Array => encoder.encode(s);

/** Reads a whole byte stream, returning the pieces as emitted. */
export async function collectChunks(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const pieces: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    expect(value).toBeInstanceOf(Uint8Array);
    pieces.push(value);
  }
  return pieces;
}

/** Concatenates byte arrays. */
export function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const total = pieces.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Reads a whole byte stream into one array. */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return concat(await collectChunks(stream));
}

/** Byte equality with a short, readable failure (first differing offset). */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array, label = "bytes"): void {
  if (actual.byteLength === expected.byteLength) {
    let i = 0;
    while (i < actual.byteLength && actual[i] === expected[i]) i++;
    if (i === actual.byteLength) return;
    expect.fail(`${label}: first difference at byte ${i} (got ${actual[i]}, expected ${expected[i]})`);
  }
  expect.fail(`${label}: length ${actual.byteLength}, expected ${expected.byteLength}`);
}

/** Deterministic pseudo-random numbers (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An endless deterministic byte sequence (xorshift32), generated on demand,
 * so a 64 MiB file is never held in memory: a writer and a checker built from
 * the same seed produce the same bytes.
 */
export class ByteSequence {
  #state: number;
  #spare = 0;
  #spareBytes = 0;
  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x9e3779b9;
  }
  /** The next `n` bytes. */
  next(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let i = 0;
    while (i < n) {
      if (this.#spareBytes === 0) {
        let x = this.#state;
        x ^= x << 13;
        x >>>= 0;
        x ^= x >>> 17;
        x ^= x << 5;
        x >>>= 0;
        this.#state = x;
        this.#spare = x;
        this.#spareBytes = 4;
      }
      out[i++] = this.#spare & 0xff;
      this.#spare >>>= 8;
      this.#spareBytes--;
    }
    return out;
  }
}

/** Deterministic bytes of a given length (small files). */
export function seededBytes(seed: number, length: number): Uint8Array {
  return new ByteSequence(seed).next(length);
}

/**
 * A lazy byte stream of `total` bytes from `seed`, pulled in pieces of
 * `pieceSize` (odd sizes exercise re-windowing). `onPull` runs before each
 * piece (memory sampling); `failAfter` errors the stream once that many
 * bytes have been produced.
 */
export function sequenceStream(
  seed: number,
  total: number,
  options: { pieceSize?: number; onPull?: (produced: number) => void; failAfter?: number; error?: unknown } = {},
): ReadableStream<Uint8Array> {
  const sequence = new ByteSequence(seed);
  const pieceSize = options.pieceSize ?? 100_003;
  let produced = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      options.onPull?.(produced);
      if (options.failAfter !== undefined && produced >= options.failAfter) {
        controller.error(options.error ?? new Error("source failed"));
        return;
      }
      if (produced >= total) {
        controller.close();
        return;
      }
      const n = Math.min(pieceSize, total - produced);
      produced += n;
      controller.enqueue(sequence.next(n));
    },
  });
}

/** A stream that yields the given pieces, then closes. */
export function streamOf(...pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]);
      else controller.close();
    },
  });
}

/** Compares streamed content against a {@link ByteSequence} without buffering it; returns bytes seen. */
export async function expectStreamMatchesSequence(stream: ReadableStream<Uint8Array>, seed: number, total: number): Promise<void> {
  const expected = new ByteSequence(seed);
  const reader = stream.getReader();
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    expect(value.byteLength).toBeLessThanOrEqual(CHUNK);
    const want = expected.next(value.byteLength);
    for (let i = 0; i < value.byteLength; i++) {
      if (value[i] !== want[i]) expect.fail(`streamed content differs at byte ${seen + i}`);
    }
    seen += value.byteLength;
    if (seen > total) expect.fail(`stream longer than ${total} bytes`);
  }
  expect(seen).toBe(total);
}

/** Sorts strings by unsigned UTF-8 byte order (spec 01 §3.5). */
export function byteOrder(a: string, b: string): number {
  const x = utf8(a);
  const y = utf8(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
