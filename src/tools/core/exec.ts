/**
 * The `exec` tool (spec 03 §4.8, seed 000 "exec"): runs a command or module
 * on one of the Workspace's backends through `workspace.runtime.exec` and
 * reports bounded output as snapshots. Validate the call, launch, stream
 * tails (coalesced running snapshots), then report the terminal snapshot
 * with notes naming the full-output file. Which backends it offers is
 * `./exec-backends.ts`; how output is cut, `./exec-output.ts`.
 *
 * @module
 */
import type { z } from "zod";
import { positiveInteger } from "../../util/validate.js";
import {
  describeExec,
  execInputSchema,
  parseInputArgument,
  selectBackends,
  type BackendInfoLike,
  type ExecBackends,
  type ExecInput,
  type Selection,
} from "./exec-backends.js";
import { boundResult, renderWhole, streamBytes, StreamTail, type RuntimeNote } from "./exec-output.js";
import { echoedText } from "./paging.js";
import { invalidArgumentsMessage } from "./schema.js";
import { abortedCall, errorMessage, type CoreTool, type CoreToolCallContext, type ToolFacts } from "./types.js";
import { disposeQuietly } from "../../util/dispose.js";

export { formatSize } from "./exec-output.js";
export type { ExecBackendOptions, ExecBackends, ExecInput } from "./exec-backends.js";

/** exec changes the Workspace (a command can do anything). */
export const EXEC_FACTS: ToolFacts = { name: "exec", mutating: true };

/** Defaults of the exec tool's output limits. */
export const EXEC_DEFAULTS = { maxBytes: 65536, maxLines: 2000 } as const;

/** Running snapshots are yielded at most once per this many ms of `now()`. */
const SNAPSHOT_INTERVAL_MS = 100;

/** An exec event as the tool reads it (utf8). */
export type ExecStreamEvent =
  | {
      /** The stream the chunk belongs to. */
      name: "stdout" | "stderr";
      /** The chunk: text (the tool asks for `encoding: "utf8"`) or bytes, read as UTF-8. */
      value: string | Uint8Array;
      /** Position in the run, from 1 (spec 02 §1.4); not read by the tool. */
      seq?: number;
      /** The execution id; not read by the tool. */
      id?: string;
    }
  | {
      /** The run ended; the last event. */
      name: "exit";
      /** Exit code: the snapshot's `exitCode`. */
      code: number;
      /** A callable backend's return value: the snapshot's `result`, when present. */
      result?: unknown;
      /**
       * The runtime's record of cut streams (`{ stdout?, stderr? }`, spec 02 §2):
       * its `path` (or `reason`) is named in the snapshot's note.
       */
      truncated?: ExecTruncation;
      /** Position in the run: the last one; not read by the tool. */
      seq?: number;
      /** The execution id; not read by the tool. */
      id?: string;
    };

/**
 * The runtime's record of cut streams as the tool reads it: `WorkspaceRuntimeTruncation`
 * (`{ stdout?, stderr? }`, spec 02 §2), each with the saved file's `path` or a `reason`.
 */
type ExecTruncation = { readonly stdout?: unknown; readonly stderr?: unknown };

/** The handle the tool needs: a stream of events, or at least `result()`. */
export interface ExecRuntimeHandle {
  /**
   * The settled result: used only when the handle has no `getReader`; its
   * streams are cut to the tool's limits (`truncated` names the full-output file).
   */
  result(): Promise<{ exitCode: number; stdout: string | Uint8Array; stderr: string | Uint8Array; value?: unknown; truncated?: ExecTruncation }>;
  /** Stops the run; called (errors ignored) when the call's `abortSignal` aborts, or when the consumer stops iterating before the events end. */
  kill(signal?: string): Promise<void>;
  /** The event stream's reader (a `ReadableStream` handle): when present the tool streams running snapshots from it. */
  getReader?: () => ReadableStreamDefaultReader<ExecStreamEvent>;
  /** Async iteration of the events, as a `ReadableStream` has; not used by the tool (it reads through `getReader`). */
  [Symbol.asyncIterator]?: () => AsyncIterator<ExecStreamEvent>;
  /**
   * Releases the handle (spec 02 §1.3: cancels its local reader, never kills the run). When present the
   * tool calls it once per call (errors ignored) as soon as it is done with the handle: the events read
   * to their end or `result()` settled, an early stop (after the kill), or a failure. Through a remote
   * client this frees the object-side handle stub and what it holds, which otherwise lives until the
   * client is disposed (issue 20, run 35, fixer XD).
   */
  [Symbol.dispose]?: () => void;
}

/** What exec needs from a workspace. */
export interface ExecWorkspaceLike {
  /** `workspace.runtime` (spec 02 §1), or any object with its `exec` and, normally, `backends()`. */
  readonly runtime: {
    exec(source: string, options?: Record<string, unknown>): Promise<ExecRuntimeHandle>;
    backends?(): readonly BackendInfoLike[];
  };
}

/** Options of `createExecTool` / `defineExec`. */
export interface ExecToolOptions {
  /** Required. Where commands run: a Workspace, a `getWorkspace()` client, or anything with `runtime.exec` (spec 03 §4.8). */
  workspace: ExecWorkspaceLike;
  /**
   * Backends the model may use (id → extra description), read once when the
   * tool is built. Default: every backend from `runtime.backends()`.
   *
   * @throws TypeError at build time for an id `runtime.backends()` does not
   *   list, an empty selection, or no `backends` when the runtime cannot list its own (spec 03 §2.2).
   */
  backends?: ExecBackends;
  /**
   * Bytes (UTF-8) of each stream the model sees: the tail is kept. Also bounds a callable backend's return
   * value (`result`): past it, its start and a note. A positive integer, else TypeError at build time. Default 65536.
   */
  maxBytes?: number;
  /** Lines of each stream the model sees: the last ones are kept. A positive integer, else TypeError at build time. Default 2000. */
  maxLines?: number;
  /** @deprecated Ignored (no default, no effect). */
  streamMaxBytes?: number;
  /** Clock for snapshot coalescing (ms). Default `Date.now`. */
  now?: () => number;
}

/** One snapshot: running (`exitCode: null`, no notes), terminal, or an error. */
export type ExecToolOutput =
  | {
      /** The `command` of the call; past 4,096 characters its first 4,096, ending `[… N characters cut …]` (the whole command runs). */
      command: string;
      /** The `cwd` of the call, or `null` when it gave none (the backend's root); past 4,096 characters cut as `command`. */
      cwd: string | null;
      /** The backend that runs it. */
      backend: string;
      /** `null` while running (and when the stream ended without an exit event); the exit code once settled. */
      exitCode: number | null;
      /**
       * The last `maxLines` lines within `maxBytes` of stdout; when cut, the
       * settled snapshot ends with a note (`[Showing lines A-B of N. Full output: <path>]`).
       */
      stdout: string;
      /** As `stdout`, for stderr. */
      stderr: string;
      /**
       * A callable backend's return value (spec 02 §1.4); absent otherwise. Held to `maxBytes` as each stream
       * is: a value whose JSON is longer comes as a string — its start (a string's text, else its JSON), then
       * `[Result cut: the return value is … (<size> of JSON, over the <limit> limit); showing its first N characters …]`.
       */
      result?: unknown;
    }
  | {
      /** The `command` of the call; past 4,096 characters its first 4,096, ending `[… N characters cut …]`. */
      command: string;
      /** The `cwd` of the call, or `null` when it gave none; past 4,096 characters cut as `command`. */
      cwd: string | null;
      /** The backend named (`""` when none could be chosen); past 4,096 characters cut as `command`. */
      backend: string;
      /** Why it did not run or failed: a refusal (`Name a backend to run on.`, `Backend "<id>" is not callable; …` with the id cut as `backend` is) or the runtime's error message. */
      error: string;
    };

/** Context of one exec call. */
export type ExecCallContext = CoreToolCallContext;

/** The exec tool with no agent library attached. */
export type ExecDefinition = Omit<CoreTool<ExecInput, ExecToolOutput>, "execute"> & {
  /**
   * Runs one call: yields progress outputs while the command runs, then the
   * final output. Bad input and backend failures end as an error output the
   * model can read, never a throw: input that is not an object or has a field
   * of the wrong type (checked against `inputSchema` before the runtime is
   * called) gives `{ command, cwd, backend, error: "Invalid arguments for exec: <field>: <problem>" }`.
   * A valid call whose `abortSignal` has already aborted starts no run: its one output is
   * `{ command, cwd, backend, error: ABORTED_CALL_MESSAGE }` ("Aborted: the agent run was stopped before this
   * call started; the call did nothing.").
   * Stopping early — `return()` (a `break` out of `for await`) at a running
   * snapshot — kills the run, as an abort does, and cancels its event stream.
   */
  execute(input: ExecInput, context?: ExecCallContext): AsyncGenerator<ExecToolOutput>;
};

/** Limits of one exec tool: bytes and lines kept per stream. */
interface OutputLimits {
  maxBytes: number;
  maxLines: number;
}

/**
 * What every snapshot of one call starts with: the call's `command`, `cwd`
 * and `backend` as the tools echo an argument ({@link echoedText}: past
 * 4,096 characters, their first 4,096 and `[… N characters cut …]`).
 */
interface Call {
  command: string;
  cwd: string | null;
  backend: string;
}

/**
 * Builds the exec tool (spec 03 §4.8). `runtime.backends()` is read once, here.
 * `onSavedLog` (internal: the tool sets' `root`) hears the path of every
 * full-output log a run's notes name.
 *
 * @throws TypeError for unknown or missing backends and invalid limits (messages per spec 03 §2.2).
 */
export function execDefinition(options: ExecToolOptions, onSavedLog?: (path: string) => void): ExecDefinition {
  const limits: OutputLimits = {
    maxBytes: options.maxBytes === undefined ? EXEC_DEFAULTS.maxBytes : positiveInteger(options.maxBytes, "createExecTool: maxBytes"),
    maxLines: options.maxLines === undefined ? EXEC_DEFAULTS.maxLines : positiveInteger(options.maxLines, "createExecTool: maxLines"),
  };
  const sel = selectBackends(options.workspace?.runtime, options.backends);
  const now = options.now ?? Date.now;
  const runtime = options.workspace.runtime;
  const single = sel.ids.length === 1 ? sel.ids[0] : undefined;

  const inputSchema = execInputSchema(sel);

  async function* execute(input: ExecInput, context: ExecCallContext = {}): AsyncGenerator<ExecToolOutput> {
    const checked = checkInput(input, single, sel, inputSchema);
    if ("error" in checked) {
      yield checked;
      return;
    }
    const { call, input: valid, backend } = checked;
    // Stopped before this call started (a later call of an aborted step): no run is started (issue 20, run 39, fixer AB).
    const aborted = abortedCall(context);
    if (aborted !== undefined) {
      yield { ...call, error: aborted };
      return;
    }
    let handle: ExecRuntimeHandle;
    try {
      handle = await runtime.exec(valid.command, runOptions(valid, backend, limits));
    } catch (err) {
      yield { ...call, error: errorMessage(err) };
      return;
    }
    const { kill, stopKilling } = killOnAbort(handle, context.abortSignal);
    const release = releaseOnce(handle);
    try {
      if (typeof handle.getReader !== "function") {
        const result = await handle.result();
        release(); // before the terminal snapshot: a consumer may stop at it without resuming the generator
        yield settledSnapshot(call, result, limits, onSavedLog);
      } else yield* streamedSnapshots(call, handle.getReader(), limits, now, onSavedLog, kill, release);
    } catch (err) {
      yield { ...call, error: errorMessage(err) };
    } finally {
      stopKilling();
      release();
    }
  }

  const definition: ExecDefinition = {
    ...EXEC_FACTS,
    description: describeExec(sel, limits.maxBytes, limits.maxLines),
    inputSchema: inputSchema as z.ZodType<ExecInput>,
    limits: { ...limits },
    execute,
    isProgress: (value) => !("error" in value) && value.exitCode === null,
  };
  if (sel.callable.size > 0) definition.prepareArguments = parseInputArgument;
  return definition;
}

/** `defineExec(options)`: the exec tool with no agent library attached (spec 03 §1). */
export const defineExec = (options: ExecToolOptions): ExecDefinition => execDefinition(options);

/**
 * The call's input checked before anything runs: not an object, a missing
 * backend, `input` for a backend that takes none, or a field of the wrong
 * type (checked with the tool's own `inputSchema`, message as the adapters'
 * `Invalid arguments for exec: <field>: <problem>`) gives the error snapshot;
 * otherwise the parsed input, the backend it runs on, and the fields every
 * snapshot starts with (echoed cut, {@link Call}).
 */
function checkInput(
  input: unknown,
  single: string | undefined,
  sel: Selection,
  schema: z.ZodType<ExecInput>,
): { call: Call; input: ExecInput; backend: string } | (Call & { error: string }) {
  const call: Call = { command: "", cwd: null, backend: single ?? "" };
  try {
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      const parsed = schema.safeParse(input);
      return { ...call, error: parsed.success ? "Invalid arguments for exec: expected an object" : invalidArgumentsMessage("exec", parsed.error) };
    }
    const fields = input as Record<string, unknown>;
    const backend = single ?? (typeof fields.backend === "string" ? fields.backend : undefined);
    if (typeof fields.command === "string") call.command = echoedText(fields.command);
    if (typeof fields.cwd === "string") call.cwd = echoedText(fields.cwd);
    call.backend = echoedText(backend ?? "");
    const refusal = refuse(fields as Partial<ExecInput>, backend, sel);
    if (refusal !== undefined) return { ...call, error: refusal };
    const parsed = schema.safeParse(fields);
    if (!parsed.success) return { ...call, error: invalidArgumentsMessage("exec", parsed.error) };
    return { call, input: parsed.data, backend: backend! };
  } catch (err) {
    // A getter on the input that throws: its message, as a snapshot.
    return { ...call, error: errorMessage(err) };
  }
}

/** Why a call cannot run (no backend named, or `input` for a backend that takes none), or `undefined`. */
function refuse(input: Partial<ExecInput>, backend: string | undefined, sel: Selection): string | undefined {
  if (backend === undefined || backend === "") return "Name a backend to run on.";
  if (input.input !== undefined && !sel.callable.has(backend)) return `Backend "${echoedText(backend)}" is not callable; it does not accept structured input.`;
  return undefined;
}

/** The `runtime.exec` options of one call: utf8 events, the backend, the output limits, and what the call set. */
function runOptions(input: ExecInput, backend: string, limits: OutputLimits): Record<string, unknown> {
  const options: Record<string, unknown> = { encoding: "utf8", backend, output: { maxBytes: limits.maxBytes, maxLines: limits.maxLines } };
  if (input.cwd !== undefined) options.cwd = input.cwd;
  if (input.env !== undefined) options.env = input.env;
  if (input.input !== undefined) options.input = input.input;
  return options;
}

/**
 * Kills the run when `signal` aborts (at once when it already has). Returns
 * `kill` (the run is killed once, whoever asks first) and the function that
 * stops listening.
 */
function killOnAbort(handle: ExecRuntimeHandle, signal: AbortSignal | undefined): { kill: () => void; stopKilling: () => void } {
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    void handle.kill().catch(() => {});
  };
  if (signal?.aborted) kill();
  else signal?.addEventListener("abort", kill, { once: true });
  return { kill, stopKilling: () => signal?.removeEventListener("abort", kill) };
}

/**
 * `handle[Symbol.dispose]()` once, whoever asks first; errors ignored, and nothing when the handle has none
 * (a runtime of the caller's own). Disposing never kills the run (spec 02 §1.3): the tool calls it only once
 * it has read the handle to its end, or has stopped reading (and killed the run) — so every exec call
 * through a remote client leaves no handle stub behind in the object (issue 20, run 35, fixer XD).
 */
function releaseOnce(handle: ExecRuntimeHandle): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    disposeQuietly(handle);
  };
}

/** Tells `onSavedLog` the path of each full-output log the run's notes name (`status: "saved"`). */
function reportSavedLogs(notes: Record<string, RuntimeNote | undefined> | undefined, onSavedLog: ((path: string) => void) | undefined): void {
  if (!onSavedLog || !notes) return;
  for (const stream of ["stdout", "stderr"]) {
    const note = notes[stream];
    if (note?.status === "saved" && typeof note.path === "string" && note.path.startsWith("/")) onSavedLog(note.path);
  }
}

/** The one snapshot of a handle that cannot stream: its settled result, cut to the limits. */
function settledSnapshot(
  call: Call,
  result: Awaited<ReturnType<ExecRuntimeHandle["result"]>>,
  limits: OutputLimits,
  onSavedLog: ((path: string) => void) | undefined,
): ExecToolOutput {
  const notes = result.truncated as Record<string, RuntimeNote | undefined> | undefined;
  reportSavedLogs(notes, onSavedLog);
  const out: ExecToolOutput = {
    ...call,
    exitCode: result.exitCode,
    stdout: renderWhole(result.stdout, limits.maxBytes, limits.maxLines, notes?.stdout),
    stderr: renderWhole(result.stderr, limits.maxBytes, limits.maxLines, notes?.stderr),
  };
  if (result.value !== undefined) out.result = boundResult(result.value, limits.maxBytes);
  return out;
}

/**
 * Running snapshots (at most one per {@link SNAPSHOT_INTERVAL_MS} of `now()`)
 * while events arrive, then the terminal snapshot with the notes. Closed
 * early (`return()` at a running snapshot) it calls `kill` and cancels the
 * reader: nobody is left to read the run. Once reading stops, for whatever
 * reason, `release` disposes the handle — before the terminal snapshot is
 * yielded (issue 20, run 35, fixer XD).
 */
async function* streamedSnapshots(
  call: Call,
  reader: ReadableStreamDefaultReader<ExecStreamEvent>,
  limits: OutputLimits,
  now: () => number,
  onSavedLog: ((path: string) => void) | undefined,
  kill: () => void,
  release: () => void,
): AsyncGenerator<ExecToolOutput> {
  const tails = { stdout: new StreamTail(limits.maxBytes, limits.maxLines), stderr: new StreamTail(limits.maxBytes, limits.maxLines) };
  let exit: Extract<ExecStreamEvent, { name: "exit" }> | undefined;
  let lastSnapshot: number | undefined;
  /** Whether reading stopped for good: the stream ended, or reading it threw. */
  let stopped = false;
  try {
    for (;;) {
      let step: ReadableStreamReadResult<ExecStreamEvent>;
      try {
        step = await reader.read();
      } catch (err) {
        stopped = true;
        throw err;
      }
      const { value: event, done } = step;
      if (done) {
        stopped = true;
        break;
      }
      if (event.name === "exit") {
        exit = event;
        continue;
      }
      tails[event.name].push(streamBytes(event.value));
      const t = now();
      if (lastSnapshot === undefined || t - lastSnapshot >= SNAPSHOT_INTERVAL_MS) {
        lastSnapshot = t;
        yield { ...call, exitCode: null, stdout: tails.stdout.render(false), stderr: tails.stderr.render(false) };
      }
    }
  } finally {
    if (!stopped) {
      // Left before the stream ended (the consumer's `break` or `return()` at a running snapshot): nobody reads the run, so it is killed.
      kill();
      void reader.cancel().catch(() => {});
    }
    reader.releaseLock();
    release();
  }
  const notes = exit?.truncated as Record<string, RuntimeNote | undefined> | undefined;
  reportSavedLogs(notes, onSavedLog);
  const out: ExecToolOutput = {
    ...call,
    exitCode: exit ? exit.code : null,
    stdout: tails.stdout.render(true, notes?.stdout),
    stderr: tails.stderr.render(true, notes?.stderr),
  };
  if (exit && "result" in exit) out.result = boundResult(exit.result, limits.maxBytes);
  yield out;
}
