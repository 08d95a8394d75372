/**
 * The execution handle (spec 02 §1.3–§1.5): a pull-based `ReadableStream`
 * of events with `id`, `backend`, `result()`, `kill()` and
 * `[Symbol.dispose]()`. It decodes UTF-8 when asked, applies the long-output
 * rules (§2) and builds the result.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";
import { OutputAccumulator, outputPath, pruneOutputDir, type OutputLimits } from "./output.js";
import type {
  ExecEvent,
  KillSignal,
  WorkspaceRuntimeEvent,
  WorkspaceRuntimeExecHandle,
  WorkspaceRuntimeResult,
  WorkspaceRuntimeTruncation,
  WorkspaceRuntimeValue,
} from "./types.js";
import { decodeUtf8, utf8Decoder } from "../util/bytes.js";

/** Exit codes that mean the run was stopped by a signal or a kill (spec 02 §1.5). */
const CANCELLED_CODES = new Set([129, 130, 137, 143]);

/** Status of an exit code: 0 completed, a kill code cancelled, anything else failed. */
export function statusOf(exitCode: number): "completed" | "failed" | "cancelled" {
  if (exitCode === 0) return "completed";
  return CANCELLED_CODES.has(exitCode) ? "cancelled" : "failed";
}

/** The sync fields of a result (spec 02 §1.5): what the run's sync bracket pushed and pulled. */
export type SyncFields = Pick<WorkspaceRuntimeResult, "pushed" | "pulled" | "skipped" | "sync">;

/** What a handle needs from its runtime. */
export interface HandleHost {
  fs: WorkspaceFilesystem;
  kill(id: string, backend: string, signal?: KillSignal): Promise<void>;
  /** A fresh full replay, for `result()` of partial or cancelled handles. */
  replay(id: string, backend: string): Promise<ReadableStream<WorkspaceRuntimeEvent | ExecEvent>>;
}

/** How to build a handle. */
export interface HandleInit {
  id: string;
  backend: string;
  events: ReadableStream<WorkspaceRuntimeEvent | ExecEvent>;
  encoding: "utf8" | undefined;
  /** Long-output limits, or `false` (no spooling; also for partial replays). */
  limits: OutputLimits | false;
  /** True for `getExec` with `resume: "tail"` or a number. */
  partial: boolean;
  host: HandleHost;
  /** Remote-store backends: the post-command pull, awaited before `exit` is delivered (and its fields go in the result). */
  finish?: () => Promise<SyncFields>;
  /**
   * Remote-store backends: called instead of {@link finish} when the run's
   * events end without it (the stream failed, or was cancelled): the command's
   * pull is left pending, so the connection's next push pulls first.
   */
  abandon?: () => void;
}

type Stream = "stdout" | "stderr";

function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === "string") return new TextEncoder().encode(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(0);
}

interface Processed {
  sync?: SyncFields;
  exit?: { code: number; result?: WorkspaceRuntimeValue; hasResult: boolean };
  outputs?: Record<Stream, Uint8Array>;
  truncated?: WorkspaceRuntimeTruncation;
}

/**
 * Turns a backend's raw events into the caller's events: decodes UTF-8,
 * counts and spools each stream, and adds `truncated` to `exit`.
 */
async function* processEvents(
  init: Omit<HandleInit, "partial">,
  source: ReadableStreamDefaultReader<WorkspaceRuntimeEvent | ExecEvent>,
  state: Processed,
  keepBytes: boolean,
): AsyncGenerator<WorkspaceRuntimeEvent<"utf8" | undefined>> {
  const { fs, limits, id, backend, encoding } = { fs: init.host.fs, ...init };
  const acc: Record<Stream, OutputAccumulator> = {
    stdout: new OutputAccumulator(fs, limits, limits ? outputPath(limits.dir, backend, id, "stdout") : undefined, keepBytes),
    stderr: new OutputAccumulator(fs, limits, limits ? outputPath(limits.dir, backend, id, "stderr") : undefined, keepBytes),
  };
  const decoders: Record<Stream, TextDecoder> | undefined =
    encoding === "utf8" ? { stdout: utf8Decoder(), stderr: utf8Decoder() } : undefined;
  let lastSeq = 0;
  let finished = false;
  try {
    for (;;) {
      const { value: event, done } = await source.read();
      if (done) break;
      if (event.name === "stdout" || event.name === "stderr") {
        const bytes = toBytes(event.value);
        lastSeq = event.seq;
        await acc[event.name].push(bytes);
        if (decoders) {
          const text = decoders[event.name].decode(bytes, { stream: true });
          if (text !== "") yield { id: event.id, seq: event.seq, name: event.name, value: text };
        } else {
          yield { id: event.id, seq: event.seq, name: event.name, value: bytes };
        }
        continue;
      }
      if (event.name !== "exit") continue;
      if (decoders) {
        let offset = 0.5;
        for (const stream of ["stdout", "stderr"] as const) {
          const rest = decoders[stream].decode();
          if (rest === "") continue;
          yield { id: event.id, seq: lastSeq + (event.seq - lastSeq) * offset, name: stream, value: rest };
          offset += (1 - offset) / 2;
        }
      }
      const out = { stdout: await acc.stdout.finish(), stderr: await acc.stderr.finish() };
      finished = true;
      if (init.finish) state.sync = await init.finish();
      const truncated: WorkspaceRuntimeTruncation = {};
      if (out.stdout.truncated) truncated.stdout = out.stdout.truncated;
      if (out.stderr.truncated) truncated.stderr = out.stderr.truncated;
      const saved = [out.stdout.truncated, out.stderr.truncated].flatMap((t) => (t?.status === "saved" ? [t.path] : []));
      if (saved.length > 0 && limits) await pruneOutputDir(fs, limits.dir, limits.keep, saved);
      const hasResult = "result" in event && event.result !== undefined;
      state.exit = { code: event.code, hasResult, ...(hasResult ? { result: event.result as WorkspaceRuntimeValue } : {}) };
      state.outputs = { stdout: out.stdout.bytes, stderr: out.stderr.bytes };
      if (truncated.stdout || truncated.stderr) state.truncated = truncated;
      const exit: WorkspaceRuntimeEvent<"utf8" | undefined> = { id: event.id, seq: event.seq, name: "exit", code: event.code };
      if (hasResult) exit.result = event.result as WorkspaceRuntimeValue;
      if (state.truncated) exit.truncated = state.truncated;
      yield exit;
    }
    if (!finished) {
      const out = { stdout: await acc.stdout.finish(), stderr: await acc.stderr.finish() };
      finished = true;
      state.outputs = { stdout: out.stdout.bytes, stderr: out.stderr.bytes };
      if (init.finish) state.sync = await init.finish();
    }
  } finally {
    if (!finished) {
      init.abandon?.();
      acc.stdout.abort();
      acc.stderr.abort();
      await source.cancel().catch(() => {});
    }
    source.releaseLock();
  }
}

/** Builds the result from a fully processed run. */
function buildResult(state: Processed, encoding: "utf8" | undefined): WorkspaceRuntimeResult<"utf8" | undefined> {
  const exitCode = state.exit ? state.exit.code : -1;
  const decode = (bytes: Uint8Array) => (encoding === "utf8" ? decodeUtf8(bytes) : bytes);
  const result: WorkspaceRuntimeResult<"utf8" | undefined> = {
    status: state.exit ? statusOf(exitCode) : "failed",
    exitCode,
    stdout: decode(state.outputs?.stdout ?? new Uint8Array(0)),
    stderr: decode(state.outputs?.stderr ?? new Uint8Array(0)),
    pushed: state.sync?.pushed ?? 0,
    pulled: state.sync?.pulled ?? 0,
    skipped: state.sync?.skipped ?? [],
    sync: state.sync?.sync ?? { status: "complete", applied: 0, skipped: [] },
  };
  if (state.exit?.hasResult) result.value = state.exit.result;
  if (state.truncated) result.truncated = state.truncated;
  return result;
}

/** Drains a processed run to its result. */
async function drain(
  init: Omit<HandleInit, "partial">,
  events: ReadableStream<WorkspaceRuntimeEvent | ExecEvent>,
): Promise<WorkspaceRuntimeResult<"utf8" | undefined>> {
  const state: Processed = {};
  for await (const _ of processEvents(init, events.getReader(), state, true)) {
    /* events are folded into state */
  }
  return buildResult(state, init.encoding);
}

/**
 * Creates the handle for one run. Consume either the stream or `result()`:
 * `result()` after reading the stream throws `already streaming`; reading
 * the stream after `result()` errors it with `already consumed by result()`.
 */
export function createExecHandle<E extends "utf8" | undefined>(init: HandleInit): WorkspaceRuntimeExecHandle<E> {
  const { id, backend, host } = init;
  let started = false;
  let consumedByResult = false;
  let cancelled = false;
  let resultPromise: Promise<WorkspaceRuntimeResult<"utf8" | undefined>> | undefined;
  let generator: AsyncGenerator<WorkspaceRuntimeEvent<"utf8" | undefined>> | undefined;
  let sourceReader: ReadableStreamDefaultReader<WorkspaceRuntimeEvent | ExecEvent> | undefined;

  const stream = new ReadableStream<WorkspaceRuntimeEvent<"utf8" | undefined>>(
    {
      async pull(controller) {
        if (consumedByResult) {
          controller.error(new Error("already consumed by result(): read the events or call result(), not both"));
          return;
        }
        started = true;
        if (!generator) {
          sourceReader = init.events.getReader();
          generator = processEvents(init, sourceReader, {}, false);
        }
        try {
          const next = await generator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          controller.error(err);
        }
      },
      async cancel() {
        cancelled = true;
        await sourceReader?.cancel().catch(() => {});
        if (generator) await generator.return(undefined).catch(() => {});
        else {
          init.abandon?.();
          await init.events.cancel().catch(() => {});
        }
      },
    },
    { highWaterMark: 0 },
  );

  const result = (): Promise<WorkspaceRuntimeResult<"utf8" | undefined>> => {
    if (resultPromise) return resultPromise;
    if (started || stream.locked) {
      throw new Error("already streaming: this handle's events are being read; collect them from the stream instead of calling result()");
    }
    consumedByResult = true;
    resultPromise = (async () => {
      if (init.partial || cancelled) {
        await init.events.cancel().catch(() => {});
        return drain(init, await host.replay(id, backend));
      }
      return drain(init, init.events);
    })();
    return resultPromise;
  };

  const dispose = (): void => {
    if (generator) {
      cancelled = true;
      sourceReader?.cancel().catch(() => {});
    } else if (!stream.locked && !consumedByResult) {
      stream.cancel().catch(() => {});
    }
  };

  Object.defineProperties(stream, {
    id: { value: id, enumerable: false },
    backend: { value: backend, enumerable: false },
    result: { value: result, enumerable: false },
    kill: { value: (signal?: KillSignal) => host.kill(id, backend, signal), enumerable: false },
    [Symbol.dispose]: { value: dispose, enumerable: false },
  });
  return stream as unknown as WorkspaceRuntimeExecHandle<E>;
}
