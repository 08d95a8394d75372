/**
 * One live run of the JavaScript backend (spec 02 §3.5, §3.7): it launches
 * the Dynamic Worker, journals its output, tracks its host calls, and ends
 * exactly once — finished, failed, cancelled, timed out or closed — with an
 * exit event in the journal (or in memory when that write fails).
 *
 * @module
 */
import { RpcTargetBase } from "../../do/rpc-target.js";
import type { WorkspaceRuntimeEvent, WorkspaceRuntimeValue } from "../../runtime/types.js";
import type { BridgeRun, RunCapabilities } from "./bridge.js";
import { checkTape, MAX_TAPE_ENTRIES, type DurableJournal } from "./durable.js";
import type { ExecJournal } from "./journal.js";
import type { ResolvedOptions } from "./options.js";
import type { BridgeCallKind, BridgeResult, CallMeta, IsolateBridge, RunnerContext, RunnerOutcome } from "./protocol.js";
import { RUNNER_MODULE } from "./isolate.js";
import type { RecordedOutput } from "./recorded.js";
import { clipMessage, StdioBudget } from "./stdio.js";
import { HostRoom } from "../../util/host-room.js"; // run 34, fixer JL

const encoder = new TextEncoder();

/**
 * Output is coalesced before it is journaled: output arriving after a quiet
 * spell is journaled at once; more output within {@link FLUSH_MS} of the last
 * write is held until that interval is up, this many bytes (both streams)
 * have gathered, or the run ends — so a stream of tiny writes becomes about
 * one row per interval, not one row each. A window's stdout and its stderr
 * each become one row, the stream that wrote first in the window first, both
 * in one transaction: alternating writes of the two streams cost what writes
 * of one stream cost, and only their interleaving within one window is not
 * kept (each stream's bytes and their order are). Output the host writes
 * itself (failure messages, truncation markers) follows all held output.
 * It is also the most one output row holds: a larger piece from the
 * isolate (whose own 64 KiB pieces code in the run can enlarge) is cut
 * into rows of at most this many bytes, well under the 2 MB a Durable
 * Object SQLite value may hold.
 */
export const FLUSH_BYTES = 64 * 1024;
/** Minimum interval between two output rows of a run while output keeps coming. */
const FLUSH_MS = 250;
/**
 * How long (ms) a stop (kill, timeout, close) waits for the run's aborted
 * host calls to settle before it settles the run anyway. Well-behaved calls
 * (file system calls, modules that honour their signal) settle at once; a
 * call that ignores its abort is abandoned after this grace, or at its own
 * `maxHostCallMs` deadline if that comes first, and its late answer is dropped.
 */
export const STOP_GRACE_MS = 5_000;

/**
 * Arrays and objects a run's result may nest (checked by the host on the
 * JSON text, since code in the run can replace what the isolate checks
 * with). Deeper values cannot cross RPC: a client's `result()` failed with
 * "Maximum call stack size exceeded" from about 5,000 levels.
 */
export const MAX_RESULT_DEPTH = 1024;

/** True when JSON text `json` opens more than `max` arrays/objects inside each other (strings skipped). */
export function nestedDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Why a run is stopped: `kill` and `close` exit 130, `timeout` and `fail`
 * exit 1. `lost`: another runtime settled the run or took it over (its
 * owner's lease had lapsed, see ownership.ts): the run stops without writing
 * anything more, and its durable record (now the other runtime's) is kept.
 */
export type StopReason = "kill" | "timeout" | "close" | "fail" | "lost";

/** A restart or replay run's part (spec 02 §5). */
export interface RunDurability {
  /** The run's interrupt policy. */
  policy: "restart" | "replay";
  /** Where its calls, waits and tape are kept. */
  journal: DurableJournal;
  /**
   * Replay attempts after the first: the output earlier attempts journaled,
   * per stream (its sizes; the bytes are read from the journal a row at a
   * time as they are compared). The attempt prints it again; those bytes are
   * compared, not journaled twice.
   */
  recorded?: RecordedOutput;
  /** Replay runs: the highest call number journaled when the attempt started (later calls are new). */
  known?: number;
  /** Replay runs: tape entries journaled so far, over all attempts (at most {@link MAX_TAPE_ENTRIES}). */
  tapeEntries?: number;
}

/** What a run needs from its connection. */
export interface RunHost {
  /** The backend's resolved options. */
  readonly options: ResolvedOptions;
  /** Where the run's events and exit go. */
  readonly journal: ExecJournal;
  /** Current time, ms since the epoch (the Workspace's clock). */
  now(): number;
  /** Called once, when the run has ended (after its exit event is written or kept). */
  finished(run: Run): void;
  /** Called once a replay run has released its isolate to wait for an answer (spec 02 §5). */
  suspended?(run: Run): void;
  /** Called when the journal refused the run's output: the run is no longer this runtime's (see {@link StopReason} `lost`). */
  lost?(run: Run): void;
}

/** The runner's `evaluate` as the host reaches it over RPC. */
interface RunnerEntrypoint {
  evaluate(input: WorkspaceRuntimeValue, bridge: RunBridge, context: RunnerContext): Promise<RunnerOutcome>;
}

/**
 * The RPC object a Dynamic Worker calls back into. Its base is workerd's
 * `RpcTarget`, loaded lazily (do/rpc-target.ts), so this entry point also
 * imports on Node, where there is no Worker Loader to run it with.
 */
class RunBridge extends RpcTargetBase implements IsolateBridge {
  readonly #run: Run;
  constructor(run: Run) {
    super();
    this.#run = run;
  }
  /**
   * A batch of output from the isolate: `segments` are byte lengths of
   * consecutive pieces of `bytes`, positive for stdout and negative for
   * stderr; bytes past the listed segments (or after an invalid length)
   * count as stdout, lengths past the end of `bytes` are cut.
   */
  output(bytes: Uint8Array, segments: number[], tape?: number[]): void {
    if (tape !== undefined) this.#run.tape(tape);
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayBuffer);
    const pieces: OutputSegment[] = [];
    let at = 0;
    if (Array.isArray(segments)) {
      for (const length of segments) {
        if (typeof length !== "number" || !Number.isSafeInteger(length) || length === 0 || at >= data.byteLength) break;
        const end = Math.min(data.byteLength, at + Math.abs(length));
        pieces.push([length > 0 ? "stdout" : "stderr", data.subarray(at, end)]);
        at = end;
      }
    }
    if (at < data.byteLength) pieces.push(["stdout", data.subarray(at)]);
    this.#run.output(pieces);
  }
  /** The runner's running total of bytes of `stream` dropped past `maxStdioBytes`. */
  dropped(stream: string, bytes: number): void {
    this.#run.dropped(stream === "stderr" ? "stderr" : "stdout", bytes);
  }
  /**
   * One host call of the run, answered by {@link RunCapabilities.call}. Paced as the shell's are
   * (src/util/host-room.ts): after every 50 ms of back-to-back calls the next one is answered only after 2 ms of
   * real idle, so workerd can hand the object another request (`killExec`, `ctx.abort()`, other clients) and fire
   * its timers (the run's timeout, the output window) while code in the run calls the host in a loop (issue 20,
   * run 34, fixer JL). The wait is here on the host: code in the run cannot skip it. `output`: see
   * {@link IsolateBridge.call}.
   */
  call(kind: BridgeCallKind, target: string, name: string, args: unknown[], meta?: CallMeta, output?: [Uint8Array, number[]]): Promise<BridgeResult> {
    // Output written before the call, sent along with it (run 34, fixer JL): it precedes the call.
    if (Array.isArray(output) && output.length === 2) this.output(output[0], output[1]); // run 34, fixer JL
    const gap = this.#run.room.pace(); // run 34, fixer JL
    if (gap) return gap.then(() => this.#run.capabilities.call(kind, target, name, args, meta)); // run 34, fixer JL
    return this.#run.capabilities.call(kind, target, name, args, meta);
  }
}

/** The start of every divergence message (spec 02 §5). */
export const DIVERGED = "The execution took a different path when it resumed after an interruption: ";

/** One piece of a run's output: its stream and bytes. */
export type OutputSegment = readonly [stream: "stdout" | "stderr", bytes: Uint8Array];

/** One stream's output held for the current window: a buffer that grows by doubling, and the bytes used of it. */
interface HeldStream {
  buffer: Uint8Array;
  bytes: number;
}

/** Output held for the current window: each stream's bytes, which stream wrote first, and the total. */
interface HeldOutput {
  first: "stdout" | "stderr";
  stdout: HeldStream;
  stderr: HeldStream;
  bytes: number;
}

/** One live run in a backend connection. */
export class Run implements BridgeRun {
  /** The execution id. */
  readonly id: string;
  /** Controllers of host calls in flight (aborted when the run is stopped). */
  readonly controllers = new Set<AbortController>();
  /** The run's `node:fs` and host-module calls; set before {@link start}. */
  capabilities!: RunCapabilities;
  /** Pacing of the run's back-to-back host calls (see {@link RunBridge.call}; run 34, fixer JL). */
  readonly room = new HostRoom();
  /** Sequence number of the last event written. */
  seq = 0;
  /** True once the run has ended. */
  done = false;
  /** The exit event when it could not be persisted. */
  terminal: WorkspaceRuntimeEvent | undefined;
  /** One promise per accepted host call, resolved when it settles or is released at its deadline. */
  #inflight = new Set<Promise<void>>();
  #stopping: Promise<void> | undefined;
  #finishing = false;
  #deadlineMissed: string | undefined;
  /** Per-stream output accounting: bytes kept, dropped, and the end-of-stream markers. */
  readonly #stdio: StdioBudget;
  /** Output received but not yet journaled (the current window): each stream's bytes, in order. */
  #pending: HeldOutput | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** When output was last journaled (ms, `Date.now()`). */
  #lastFlush = 0;
  #waiters: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * When `#timer` is due (`Date.now()` ms), until it is cleared: each host call checks it too (see
   * {@link refusal}), since workerd fires no timer while calls stream in back to back (issue 20 run 32, JP).
   */
  #timesOutAt: number | undefined;
  #entry: unknown;
  readonly #host: RunHost;
  /** Restart and replay runs (spec 02 §5). */
  readonly durable: RunDurability | undefined;
  /** Replay attempts: bytes of each stream's recorded output the attempt has printed again. */
  readonly #matched = { stdout: 0, stderr: 0 };
  /** True from the first `ctx.interrupt()` of the attempt: new calls are held, the isolate is being released. */
  #held = false;
  /** True once the isolate is released and the run waits for answers. */
  suspended = false;
  /** True once the journal refused output and the host was told (once). */
  #lostNoted = false;
  /** Set when journaling output failed: the first error's message, and the bytes of output lost. */
  #unjournaled: { message: string; bytes: number } | undefined;
  /** True once the loss in {@link #unjournaled} was stated (the run failed with it, or it was written at the end). */
  #lossStated = false;

  constructor(host: RunHost, id: string, durable?: RunDurability) {
    this.#host = host;
    this.id = id;
    this.durable = durable;
    this.#stdio = new StdioBudget(host.options.maxStdioBytes);
    // The recorded output was kept once: it counts against maxStdioBytes again.
    if (durable?.recorded) {
      for (const stream of ["stdout", "stderr"] as const) this.#stdio.acceptCounted(stream, durable.recorded.bytes[stream], durable.recorded.last[stream]);
    }
  }

  /** True for replay runs (their calls are journaled and numbered). */
  get replays(): boolean {
    return this.durable?.policy === "replay";
  }

  /** Journals tape entries the isolate recorded (replay runs). */
  tape(entries: unknown): void {
    // After the isolate is released, what it records (held calls settling) is not the run's history.
    if (!this.replays || this.done || this.#stopping || this.suspended || (Array.isArray(entries) && entries.length === 0)) return;
    const durable = this.durable!;
    const wrong = checkTape(entries, MAX_TAPE_ENTRIES - (durable.tapeEntries ?? 0));
    if (wrong !== null) {
      // Not journaled: what a resumed attempt would play back could not be trusted (or held).
      void this.fail(`Execution failed: its isolate sent ${wrong}.`);
      return;
    }
    const batch = entries as number[];
    durable.tapeEntries = (durable.tapeEntries ?? 0) + batch.length / 3;
    try {
      durable.journal.appendTape(this.id, batch);
    } catch {
      /* lost: a later replay goes live earlier */
    }
  }

  /** True while new calls are held (the run is releasing its isolate to wait for an answer). */
  held(): boolean {
    return this.#held;
  }

  /** Answers of calls held while the isolate is being released; settled when it is disposed. */
  #holds: ((r: BridgeResult) => void)[] = [];

  /**
   * An answer for a call held while the run releases its isolate (spec 02
   * §5: new calls are held). It settles only when the isolate is disposed,
   * so the code never sees it; it is not left pending forever, which
   * workerd would report as a hang ("Promise will never complete").
   */
  hold(): Promise<BridgeResult> {
    return new Promise((resolve) => this.#holds.push(resolve));
  }

  /** Call `seq` started waiting (saved): tells the backend's `onWait`, once; its failures are logged and ignored. */
  waiting(seq: number, payload: string, since: number): void {
    const onWait = this.#host.options.onWait;
    if (!onWait) return;
    const call = { id: this.id, backend: this.#host.options.id, callId: `${this.id}:${seq}`, payload: JSON.parse(payload) as WorkspaceRuntimeValue, since };
    const report = (err: unknown) => console.warn(`onWait failed for ${call.callId} (ignored; pending() still lists the call):`, err instanceof Error ? err.message : err);
    try {
      void Promise.resolve(onWait(call)).catch(report);
    } catch (err) {
      report(err);
    }
  }

  /** Resolves on the next event or state change. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Null while host calls are accepted; else why they are refused (cancelled, or finished). */
  refusal(): string | null {
    // The run's timeout, when its timer has not fired yet: an isolate that makes host calls back to back (thousands
    // started at once) keeps workerd's event loop busy, and its timers wait until the calls stop.
    if (this.#timesOutAt !== undefined && this.#stopping === undefined && !this.done && Date.now() >= this.#timesOutAt) void this.stop("timeout");
    if (this.#stopping || this.done) return `execution ${this.id} is being cancelled; no new host calls are accepted`;
    if (this.#finishing) return `execution ${this.id} has finished; no new host calls are accepted`;
    return null;
  }

  /**
   * Holds the terminal event back until `promise` settles or the returned
   * `release` is called (by the call's deadline timer), whichever comes first.
   * Release does not depend on the call's signal: a call aborted by a stop
   * that then ignores the abort is still let go at its deadline; a stop waits
   * for it at most {@link STOP_GRACE_MS} (or that deadline, if sooner).
   */
  track(promise: Promise<unknown>, controller: AbortController): () => void {
    this.controllers.add(controller);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.#inflight.add(held);
    const done = (): void => {
      this.#inflight.delete(held);
      this.controllers.delete(controller);
      release();
    };
    promise.then(done, done);
    return done;
  }

  /** Marks the run failed because host call `name` passed its deadline (the first one is named). */
  deadlineMissed(name: string): void {
    this.#deadlineMissed ??= name;
  }

  async #drain(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight]);
  }

  /**
   * Journals output, segment by segment in order: at most `maxStdioBytes`
   * (+ the runner's failure-message reserve) bytes of each stream; the rest
   * is dropped and counted. Held for the current window (see
   * {@link FLUSH_BYTES}); the bytes are copied, the segments are not kept.
   */
  output(segments: Iterable<OutputSegment>): void {
    // Once the isolate is released to wait, what it still sends is dropped: the replay prints it again.
    if (this.done || this.#stopping || this.suspended) return;
    for (const [stream, raw] of segments) {
      let bytes = raw instanceof Uint8Array ? raw : new Uint8Array(raw as ArrayBuffer);
      const recorded = this.durable?.recorded;
      if (recorded && this.#matched[stream] < recorded.bytes[stream]) {
        // Printed before the interruption: must be the same bytes, and is not journaled again.
        const at = this.#matched[stream];
        const n = Math.min(bytes.byteLength, recorded.bytes[stream] - at);
        let differs: number;
        try {
          differs = recorded.differs(stream, at, bytes.subarray(0, n));
        } catch (err) {
          void this.fail(`Execution failed: the output it printed before the interruption could not be read back from the journal (${err instanceof Error ? err.message : String(err)}).`);
          return;
        }
        if (differs >= 0) {
          void this.fail(`${DIVERGED}it printed different output on ${stream} (byte ${at + differs + 1} differs).`);
          return;
        }
        this.#matched[stream] = at + n;
        bytes = bytes.subarray(n);
        if (bytes.byteLength === 0) continue;
      }
      let rest = this.#stdio.accept(stream, bytes);
      // A window holds at most FLUSH_BYTES (flushed as it fills), so no row is larger whatever piece size the isolate sends.
      while (rest.byteLength > 0) {
        const pending = (this.#pending ??= { first: stream, stdout: { buffer: new Uint8Array(0), bytes: 0 }, stderr: { buffer: new Uint8Array(0), bytes: 0 }, bytes: 0 });
        const chunk = rest.subarray(0, FLUSH_BYTES - pending.bytes);
        rest = rest.subarray(chunk.byteLength);
        const held = pending[stream];
        const need = held.bytes + chunk.byteLength;
        if (need > held.buffer.byteLength) {
          // Copy: the chunk's buffer is not ours. Grow by doubling (from 1 KiB), so a
          // window of tiny writes costs its bytes, not one array each.
          const grown = new Uint8Array(Math.min(FLUSH_BYTES, Math.max(need, 2 * held.buffer.byteLength, 1024)));
          grown.set(held.buffer.subarray(0, held.bytes));
          held.buffer = grown;
        }
        held.buffer.set(chunk, held.bytes);
        held.bytes = need;
        pending.bytes += chunk.byteLength;
        if (pending.bytes >= FLUSH_BYTES) this.#flush();
      }
    }
    if (this.#pending && this.#flushTimer === undefined) {
      const wait = this.#lastFlush + FLUSH_MS - Date.now();
      if (wait <= 0) this.#flush();
      else this.#flushTimer = setTimeout(() => this.#flush(), wait);
    }
  }

  /** Records the runner's running total of bytes of `stream` it dropped past `maxStdioBytes`. */
  dropped(stream: "stdout" | "stderr", bytes: number): void {
    if (this.done || this.#stopping) return;
    this.#stdio.report(stream, bytes);
  }

  /** Journals, once, the marker line of each stream that lost bytes past `maxStdioBytes`. */
  #markDropped(): void {
    for (const { stream, text } of this.#stdio.markers()) this.#append(stream, encoder.encode(text));
  }

  /**
   * Journals the output held so far: one event per stream that has bytes,
   * the stream that wrote first in the window first, in one transaction.
   */
  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    if (!pending || pending.bytes === 0) return;
    const order = pending.first === "stdout" ? (["stdout", "stderr"] as const) : (["stderr", "stdout"] as const);
    const rows: OutputSegment[] = [];
    for (const stream of order) {
      const held = pending[stream];
      // A copy of exactly the bytes used (the buffer is up to twice as large).
      if (held.bytes > 0) rows.push([stream, held.buffer.slice(0, held.bytes)]);
    }
    this.#write(rows);
    this.#lastFlush = Date.now();
  }

  /** Journals `bytes` after any output still held, keeping the order of events. */
  #append(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    this.#flush();
    this.#write([[stream, bytes]]);
  }

  /** Journals `rows` as consecutive events in one transaction. */
  #write(rows: readonly OutputSegment[]): void {
    const events = rows.filter(([, bytes]) => bytes.byteLength > 0).map(([name, data]) => ({ seq: ++this.seq, name, data }));
    if (events.length === 0) return;
    let accepted = true;
    try {
      // The calls and tape this output may depend on are journaled first.
      if (this.replays) this.durable!.journal.flush();
      accepted = this.#host.journal.appendAll(this.id, events);
    } catch (err) {
      // Nothing of it was written (one transaction): the sequence does not skip, and the loss is
      // not silent — the run fails saying so (at its end, when it is ending already).
      this.seq -= events.length;
      const lost = (this.#unjournaled ??= { message: err instanceof Error ? err.message : String(err), bytes: 0 });
      for (const { data } of events) lost.bytes += data.byteLength;
      if (!this.done && !this.#stopping && !this.#finishing && !this.#lossStated) {
        this.#lossStated = true;
        void this.fail(this.#lossText());
      }
    }
    this.#notify();
    // Refused: the run ended in the journal (settled by another runtime) or another runtime took it over.
    if (!accepted && !this.done && !this.#stopping && !this.#lostNoted) {
      this.#lostNoted = true;
      queueMicrotask(() => this.#host.lost?.(this));
    }
  }

  /** The stderr line stating output lost by a failed journal write: `Output could not be journaled (<n> bytes lost): <error>`. */
  #lossText(): string {
    const lost = this.#unjournaled!;
    return clipMessage(`Output could not be journaled (${lost.bytes} bytes lost): ${lost.message}`);
  }

  /**
   * Launches the Dynamic Worker with `modules` (main: the runner), runs
   * `mainEntry`'s default export with `input`, and stops the run with
   * `"timeout"` after `timeoutMs`. CPU: `min(timeoutMs, maxCpuMs)`.
   *
   * @throws whatever the Worker Loader throws synchronously (the caller fails the run).
   */
  start(
    modules: Record<string, { js: string }>,
    mainEntry: string,
    input: WorkspaceRuntimeValue,
    context: Omit<RunnerContext, "entry">,
    timeoutMs: number,
    cpuLimitMs?: number,
  ): void {
    const o = this.#host.options;
    const cpuMs = cpuLimitMs ?? Math.min(timeoutMs, o.maxCpuMs);
    const code: Parameters<ResolvedOptions["loader"]["load"]>[0] = {
      compatibilityDate: o.compatibilityDate,
      compatibilityFlags: o.compatibilityFlags,
      limits: { cpuMs },
      mainModule: RUNNER_MODULE,
      modules,
    };
    if (o.egress.mode === "none") code.globalOutbound = null;
    else if (o.egress.mode === "http-gateway") code.globalOutbound = o.egress.gateway;
    const worker = o.loader.load(code);
    const entry = worker.getEntrypoint(undefined, { limits: { cpuMs } }) as RunnerEntrypoint;
    this.#entry = entry;
    this.#timer = setTimeout(() => void this.stop("timeout"), timeoutMs);
    this.#timesOutAt = Date.now() + timeoutMs;
    const bridge = new RunBridge(this);
    const over = () => this.#stopping !== undefined || this.done || this.#held;
    void (async () => {
      let outcome: RunnerOutcome;
      try {
        outcome = await entry.evaluate(input, bridge, { ...context, entry: "/" + mainEntry });
      } catch (err) {
        if (over()) return;
        this.#finishing = true;
        await this.#drain();
        if (over()) return;
        // The isolate's text (code in the run can make it any size): clipped to MAX_RUN_MESSAGE_BYTES.
        const message = clipMessage(err instanceof Error ? err.message : String(err));
        this.#append("stderr", encoder.encode(`${message}\n`));
        this.#finish(1, null);
        return;
      }
      if (over()) return;
      this.#finishing = true;
      await this.#drain();
      if (over()) return;
      if (this.#deadlineMissed !== undefined) {
        this.#append("stderr", encoder.encode(`A host call (${this.#deadlineMissed}) did not settle before its deadline (maxHostCallMs ${o.maxHostCallMs} ms).\n`));
        this.#finish(1, null);
        return;
      }
      const divergence = this.#divergence(outcome);
      if (divergence !== null) {
        this.#append("stderr", encoder.encode(`${divergence}\n`));
        this.#finish(1, null);
        return;
      }
      const exitCode = Number.isInteger(outcome?.code) && outcome.code >= 0 && outcome.code <= 255 ? outcome.code : 1;
      if (exitCode !== 0) {
        this.#finish(exitCode, null);
        return;
      }
      // The isolate checked the result, but code in the run can replace what it
      // checked with (JSON.stringify, TextEncoder): check the bytes we got again.
      const failure = this.#checkResult(outcome.value ?? "null");
      if (failure !== null) {
        this.#append("stderr", encoder.encode(`${failure}\n`));
        this.#finish(1, null);
        return;
      }
      this.#finish(0, outcome.value ?? "null");
    })();
  }

  /**
   * Replay runs: why the attempt that ended with `outcome` took another path
   * than the journal (spec 02 §5) — the isolate's own finding (clipped to
   * `MAX_RUN_MESSAGE_BYTES`), output it did not print again, or a journaled
   * call it did not make — else null.
   */
  #divergence(outcome: RunnerOutcome): string | null {
    if (!this.replays) return null;
    if (typeof outcome?.diverged === "string") {
      return clipMessage(outcome.diverged.startsWith(DIVERGED) ? outcome.diverged : `${DIVERGED}${outcome.diverged}`);
    }
    const recorded = this.durable!.recorded;
    if (recorded) {
      for (const stream of ["stdout", "stderr"] as const) {
        if (this.#matched[stream] < recorded.bytes[stream]) {
          return `${DIVERGED}it finished without printing all it had printed before (${stream}: ${this.#matched[stream]} of ${recorded.bytes[stream]} bytes).`;
        }
      }
    }
    if (typeof outcome?.calls !== "number") return null;
    const made = outcome.calls;
    let journaled = 0;
    try {
      journaled = this.durable!.journal.callCount(this.id);
    } catch {
      /* unknown: not checked */
    }
    if (journaled > made) return `${DIVERGED}it finished without making call ${made + 1} (${journaled} calls are journaled).`;
    return null;
  }

  /**
   * Releases the isolate so the run can wait for an answer (spec 02 §5, the
   * first `ctx.interrupt()`): new calls are held, the calls in flight
   * finish and are journaled, output received so far is journaled, then the
   * Dynamic Worker is disposed. The run stays `running`, without an exit,
   * until it is answered (and replays) or killed.
   */
  async suspend(): Promise<void> {
    if (this.#held || this.done || this.#stopping) return;
    this.#held = true;
    clearTimeout(this.#timer);
    this.#timesOutAt = undefined;
    await this.#drain();
    if (this.done || this.#stopping) return;
    this.#flush();
    try {
      this.durable?.journal.flush();
    } catch {
      /* lost: those calls run again on resume */
    }
    this.suspended = true;
    this.#dispose();
    this.#host.suspended?.(this);
    this.#notify();
  }

  /** This run object was replaced by a relaunch of the same run: wakes those following it, so they follow the new one. */
  retire(): void {
    this.#dispose();
    this.#notify();
  }

  /** Ends the run failed (exit 1) with `message` on stderr, as a stop does (spec 02 §5 divergence and resume failures). */
  fail(message: string): Promise<void> {
    return this.stop("fail", message);
  }

  /**
   * Checks the result the isolate sent, on the host: a string of at most
   * `maxResultBytes` bytes of UTF-8 that parses as JSON nested at most
   * {@link MAX_RESULT_DEPTH} levels.
   *
   * @returns null when it is fine, else the message for stderr.
   */
  #checkResult(value: unknown): string | null {
    const max = this.#host.options.maxResultBytes;
    if (typeof value !== "string") return "The default export returned a value the host could not read as JSON.";
    const size = encoder.encode(value).byteLength;
    if (size > max) return `The default export returned ${size} bytes of JSON, over maxResultBytes (${max} bytes).`;
    try {
      JSON.parse(value);
    } catch {
      return "The default export returned a value the host could not read as JSON.";
    }
    // Parsed values this deep break structured clone (RPC to a client) and
    // recursive consumers; the isolate's own check gives up before this depth.
    if (nestedDeeperThan(value, MAX_RESULT_DEPTH)) {
      return `The default export returned a value nested deeper than ${MAX_RESULT_DEPTH} levels.`;
    }
    return null;
  }

  /**
   * Cancels (kill/close → 130), times out (→ 1) or fails (→ 1, with
   * `message`) the run; resolves once it settled.
   */
  stop(reason: StopReason, message?: string): Promise<void> {
    if (this.done) return Promise.resolve();
    this.#stopping ??= (async () => {
      // Output already received is kept (it precedes the stop), then what was dropped is stated.
      if (reason !== "lost") {
        this.#flush();
        this.#markDropped();
      }
      for (const controller of this.controllers) controller.abort(new Error(`execution ${this.id} was cancelled`));
      this.#dispose();
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.#drain(), new Promise<void>((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(grace);
      if (reason === "lost") {
        this.#finish(1, null, true);
        return;
      }
      const text =
        reason === "fail"
          ? `${message ?? "Execution failed."}\n`
          : reason === "timeout"
            ? "JavaScript execution timed out\n"
            : reason === "close"
              ? "Execution cancelled because its Workspace closed.\n"
              : "Execution cancelled.\n";
      const seq = ++this.seq;
      try {
        this.#host.journal.append(this.id, seq, "stderr", encoder.encode(text));
      } catch {
        /* settles in memory below */
      }
      this.#notify();
      this.#finish(reason === "timeout" || reason === "fail" ? 1 : 130, null);
    })();
    return this.#stopping;
  }

  #dispose(): void {
    clearTimeout(this.#timer);
    this.#timesOutAt = undefined;
    const holds = this.#holds;
    this.#holds = [];
    // ERELEASED: the isolate never delivers this answer to the code (workspace-durable.js).
    for (const settle of holds) settle({ ok: false, error: { name: "Error", message: `execution ${this.id} released its isolate`, code: "ERELEASED" } });
    const entry = this.#entry as { [Symbol.dispose]?: () => void } | undefined;
    try {
      entry?.[Symbol.dispose]?.();
    } catch {
      /* already gone */
    }
  }

  /** Ends the run with exit `code`; `lost`: the run is no longer this runtime's, nothing is written. */
  #finish(code: number, result: string | null, lost = false): void {
    if (this.done) return;
    if (lost) {
      clearTimeout(this.#flushTimer);
      this.#flushTimer = undefined;
      this.#pending = undefined;
      this.#dispose();
      this.done = true;
      this.#host.finished(this);
      this.#notify();
      return;
    }
    this.#flush();
    this.#markDropped();
    if (this.#unjournaled && !this.#lossStated) {
      // Output was lost while the run was ending: it ends failed, saying so.
      this.#lossStated = true;
      this.#write([["stderr", encoder.encode(`${this.#lossText()}\n`)]]);
      if (code === 0) code = 1;
      result = null;
    }
    this.#dispose();
    const seq = ++this.seq;
    let persisted = false;
    try {
      persisted = this.#host.journal.finish(this.id, seq, code, result, this.#host.now());
    } catch {
      persisted = false;
    }
    if (this.durable) {
      try {
        this.durable.journal.delete(this.id);
      } catch {
        /* removed with the run record when it is pruned */
      }
    }
    if (!persisted) {
      const exit: WorkspaceRuntimeEvent = { id: this.id, seq, name: "exit", code };
      if (result !== null) exit.result = JSON.parse(result) as WorkspaceRuntimeValue;
      this.terminal = exit;
    }
    this.done = true;
    this.#host.finished(this);
    this.#notify();
  }
}
