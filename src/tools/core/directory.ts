/**
 * TOOL.md directory tools as core tools (spec 03 §9 "Proposed adapter
 * mapping", seed 001, issue 19): a loaded {@link ToolDirectory} becomes a
 * {@link CoreTool} the three adapters offer after the built-in tools. The
 * tool runs in the Workspace's own backends through
 * {@link runToolDirectory}; this file only adapts its result and progress.
 *
 * Imports the runner and the input-schema mapping directly (not the
 * `tool-dirs` entry), so building a tool set never loads the YAML parser.
 *
 * @module
 */
import { runToolDirectory, DEFAULT_TOOL_TIMEOUT_MS, type ToolRunWorkspace } from "../../tool-dirs/run.js";
import { sensitiveInputNames, toolInputSchema } from "../../tool-dirs/schema.js";
import type { ToolDirectory, ToolResult, ToolResultContent } from "../../tool-dirs/types.js";
import { abortedCall, type CoreTool, type CoreToolCallContext } from "./types.js";
import { toolExportName } from "../../modules/tools.js";
import { INPUT_NAME_PATTERN, TOOL_NAME_PATTERN } from "../../tool-dirs/validate.js";
import { headCut, memberCut } from "../../util/cut.js";

/**
 * Directory tools for a tool set: the `toolDirectories` option of
 * `createAITools`, `createPiTools` and `createTanStackTools` (issue 19).
 *
 * @example
 * ```ts
 * const loaded = await loadToolDirectories({ workspace, dirs: ["/workspace/tools"] });
 * const tools = createAITools({ workspace, toolDirectories: { ...loaded, env: { API_TOKEN: env.API_TOKEN } } });
 * ```
 */
export interface DirectoryToolsOptions {
  /**
   * The tools, in the order they are offered (after the built-in ones):
   * `loadToolDirectories(…).tools`. Spreading the loader's whole result is
   * fine; its `skipped` list is ignored here.
   */
  tools: readonly ToolDirectory[];
  /**
   * Host environment values (for example Worker secrets). Each tool receives
   * only the names its front matter `env` lists, in its own run; values are
   * masked (`***`) in every error text. Default: none (tools see an empty
   * environment).
   */
  env?: Readonly<Record<string, string>>;
  /** Wall-clock limit of one call in ms, a positive number. Default {@link DEFAULT_TOOL_TIMEOUT_MS} (60 000). */
  timeoutMs?: number;
}

/** Most progress snapshots waiting to be consumed; past it the oldest waiting one is dropped. */
export const MAX_PENDING_UPDATES = 64;
/** Most characters of text the waiting progress snapshots may hold together; past it the oldest waiting ones are dropped (the latest is always kept). */
export const MAX_PENDING_UPDATE_CHARS = 1_048_576;

/**
 * What a directory tool's core `execute` yields: the tool's seed-001 result
 * (`{ content, isError? }`), preceded by one progress snapshot per delivered
 * `onUpdate`, in order (marked `progress: true`). Snapshots wait in a
 * bounded queue while the consumer is busy: at most
 * {@link MAX_PENDING_UPDATES} of them and {@link MAX_PENDING_UPDATE_CHARS}
 * characters; past either the oldest waiting ones are dropped (each update
 * is the progress so far, so the latest says the most).
 */
export type DirectoryToolOutput = ToolResult & {
  /** `true` on a running snapshot from `onUpdate`; absent on the result. */
  progress?: true;
};

/** How often the AI SDK and TanStack adapters hand a library a progress update of one call, once its burst allowance is spent: once per this many ms (latest wins). */
export const PROGRESS_INTERVAL_MS = 100;
/** How many progress updates of one call the AI SDK and TanStack adapters pass at once before pacing them (the allowance refills by one per {@link PROGRESS_INTERVAL_MS}). */
export const PROGRESS_BURST = 16;

/**
 * Paces a directory tool's outputs for a library whose queue takes every
 * value at once and holds it until its consumer reads (the AI SDK's
 * preliminary results, TanStack's custom events): a token bucket of
 * {@link PROGRESS_BURST} updates refilled by one per
 * {@link PROGRESS_INTERVAL_MS} — an update that finds it empty waits (the
 * latest waiting one wins; it is delivered when a token is back, or before
 * the result) — and no more than {@link MAX_PENDING_UPDATE_CHARS} characters
 * of progress text per call (later updates are dropped). So a call hands its
 * library at most `PROGRESS_BURST + duration / PROGRESS_INTERVAL_MS + 1`
 * updates and 1 MiB of progress. The result always passes, last. pi's
 * adapter does not pace: its callback takes each update synchronously.
 */
export function pacedOutputs(source: AsyncIterable<DirectoryToolOutput>, options: PacingOptions = {}): AsyncGenerator<DirectoryToolOutput> {
  return pacedValues(
    source,
    (value) => value.progress === true,
    (update) => update.content.reduce((n, block) => n + block.text.length, 0),
    options,
  );
}

/** Options of {@link pacedValues} and {@link pacedOutputs}. */
export interface PacingOptions {
  /** Default {@link PROGRESS_INTERVAL_MS}. */
  intervalMs?: number;
  /** Default {@link PROGRESS_BURST}. */
  burst?: number;
  /**
   * The call's own abort ({@link CallAbort}, whose `signal` the source's tool
   * got): aborted when the consumer stops before the source ended, so a step
   * still in flight (a run waiting for its next output) settles, and released
   * when pacing ends.
   */
  call?: CallAbort;
}

/**
 * A tool call's own abort signal: it aborts when the caller's `outer` signal
 * does, and when {@link CallAbort.abort} is called — what an adapter does
 * when its library stops reading the call's outputs early (exec and
 * directory tools kill their run on abort). {@link CallAbort.release} stops
 * following `outer`.
 */
export class CallAbort {
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #follow = () => this.#controller.abort(this.#outer?.reason);

  constructor(outer: AbortSignal | undefined) {
    this.#outer = outer;
    if (outer?.aborted) this.#follow();
    else outer?.addEventListener("abort", this.#follow, { once: true });
  }

  /** The signal to hand the tool: aborted by `outer` or by {@link abort}. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Aborts the call (once; later calls do nothing). */
  abort(): void {
    this.#controller.abort(new DOMException("The consumer stopped reading the tool's output", "AbortError"));
  }

  /** Stops following the caller's signal (the call is over). */
  release(): void {
    this.#outer?.removeEventListener("abort", this.#follow);
  }
}

/**
 * {@link pacedOutputs} for any tool's outputs: `isProgress` tells a running
 * snapshot from the result, `chars` what a snapshot counts against
 * {@link MAX_PENDING_UPDATE_CHARS}. The exec tool's running snapshots go
 * through it in the AI SDK and TanStack adapters (`chars`: its stdout and
 * stderr text), as directory tools' progress does. Closed before the source
 * ended (`return()`), it aborts `options.call` and settles at once: a source
 * step still in flight is not waited for (the source's `return()` follows it).
 */
export async function* pacedValues<T>(
  source: AsyncIterable<T>,
  isProgress: (value: T) => boolean,
  chars: (update: T) => number,
  options: PacingOptions = {},
): AsyncGenerator<T> {
  const intervalMs = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const burst = options.burst ?? PROGRESS_BURST;
  const it = source[Symbol.asyncIterator]();
  const TICK = Symbol("tick");
  let tokens = burst;
  let refilled = Date.now();
  let spent = 0;
  let pending: T | undefined;
  /** Whether the source's latest `next()` has not settled yet (a step in flight). */
  let inFlight = false;
  /** Whether the source ended, or gave its result (what follows is its end). */
  let ended = false;
  const pull = (): Promise<IteratorResult<T>> => {
    inFlight = true;
    const step = it.next();
    step.then(
      () => (inFlight = false),
      () => (inFlight = false),
    );
    return step;
  };
  let next = pull();
  const refill = () => {
    const now = Date.now();
    tokens = Math.min(burst, tokens + (now - refilled) / intervalMs);
    refilled = now;
  };
  /** Whether `update` fits the call's progress budget (then it is counted as delivered). */
  const take = (update: T): boolean => {
    const size = chars(update);
    if (spent + size > MAX_PENDING_UPDATE_CHARS) return false;
    spent += size;
    tokens -= 1;
    return true;
  };
  try {
    for (;;) {
      let step: IteratorResult<T> | typeof TICK;
      if (pending !== undefined) {
        refill();
        if (tokens >= 1) {
          const update = pending;
          pending = undefined;
          if (take(update)) yield update;
          continue;
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        const tick = new Promise<typeof TICK>((resolve) => {
          timer = setTimeout(() => resolve(TICK), Math.ceil((1 - tokens) * intervalMs));
        });
        step = await Promise.race([next, tick]);
        clearTimeout(timer);
        if (step === TICK) continue; // a token is back: the waiting update goes out above
      } else {
        step = await next;
      }
      if (step.done) {
        ended = true;
        break;
      }
      next = pull();
      const value = step.value;
      if (!isProgress(value)) {
        // The result: a waiting update goes first, then the result, always.
        if (pending !== undefined && take(pending)) yield pending;
        pending = undefined;
        ended = true;
        yield value;
        continue;
      }
      refill();
      if (pending === undefined && tokens >= 1) {
        if (take(value)) yield value;
      } else {
        pending = value; // the latest wins
      }
    }
    if (pending !== undefined && take(pending)) yield pending;
  } finally {
    // Stopped before the source ended: abort the call (exec and directory tools kill their run).
    if (!ended) options.call?.abort();
    options.call?.release();
    if (!inFlight) await it.return?.();
    else {
      // A step is in flight (a run silent until its next output): the source's return() would queue behind it,
      // so it is left to settle on its own (the abort above ends the run) instead of being waited for.
      void (async () => it.return?.())().catch(() => {});
    }
  }
}

/**
 * What an exec snapshot counts against {@link MAX_PENDING_UPDATE_CHARS} in
 * {@link pacedValues}: the length of its `stdout` and `stderr` text — not the
 * fields echoed in every snapshot (`command`, `cwd`, `backend`), which a long
 * command would otherwise spend the budget on after one snapshot.
 */
export function snapshotChars(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const { stdout, stderr } = value as { stdout?: unknown; stderr?: unknown };
  return (typeof stdout === "string" ? stdout.length : 0) + (typeof stderr === "string" ? stderr.length : 0);
}

/** The joined text of content blocks (one `\n` between blocks): what the AI SDK and TanStack adapters return. */
export function joinContent(content: readonly ToolResultContent[]): string {
  return content.map((block) => block.text).join("\n");
}

/**
 * The value the AI SDK and TanStack adapters hand their library for a
 * directory tool's output (spec 03 §9): the joined text, or `{ error: text }`
 * when `isError` is set.
 */
export function directoryToolValue(output: DirectoryToolOutput): string | { error: string } {
  const text = joinContent(output.content);
  return output.isError === true ? { error: text } : text;
}

/**
 * The core tool for one directory tool. `name`, `description` (front-matter
 * description plus the Markdown body) and `mutating` (front matter
 * `readonly: true` makes it `false`) come from `tool`; the input schema is
 * {@link toolInputSchema}. `execute` runs {@link runToolDirectory} with the
 * call's `abortSignal` (abort kills the run, as does a `return()` before
 * the result; already aborted, nothing runs and the result is `isError` with
 * {@link ABORTED_CALL_MESSAGE}) and `toolCallId`, yields a progress snapshot per `onUpdate`,
 * then the result. It never throws: every
 * failure is an `isError` result whose text names the problem.
 */
export function directoryToolDefinition(
  tool: ToolDirectory,
  options: { workspace: ToolRunWorkspace; env?: Readonly<Record<string, string>>; timeoutMs?: number },
): CoreTool<Record<string, unknown>, DirectoryToolOutput> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  return {
    name: tool.name,
    mutating: tool.mutating,
    description: tool.description,
    inputSchema: toolInputSchema(tool),
    limits: { timeoutMs },
    contentResult: true,
    sensitiveInputs: sensitiveInputNames(tool),
    isProgress: (value) => value.progress === true,
    execute(input, context) {
      // A call made after the run was stopped starts nothing (issue 20, run 39, fixer AB).
      const aborted = abortedCall(context);
      if (aborted !== undefined) return abortedResult(aborted);
      return runWithProgress(tool, options, timeoutMs, input, context);
    },
  };
}

/** The one output of a directory tool call made with an already-aborted signal: an `isError` result with `message`. */
async function* abortedResult(message: string): AsyncGenerator<DirectoryToolOutput> {
  yield { content: [{ type: "text", text: message }], isError: true };
}

async function* runWithProgress(
  tool: ToolDirectory,
  options: { workspace: ToolRunWorkspace; env?: Readonly<Record<string, string>> },
  timeoutMs: number,
  input: Record<string, unknown>,
  context: CoreToolCallContext | undefined,
): AsyncGenerator<DirectoryToolOutput> {
  const pending: { content: ToolResultContent[]; chars: number }[] = [];
  let pendingChars = 0;
  let result: ToolResult | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // The run's own signal: the call's abortSignal, or this generator closed before the result (then the run is killed).
  const call = new CallAbort(context?.abortSignal);
  const run = runToolDirectory(tool, {
    workspace: options.workspace,
    params: input,
    toolCallId: context?.toolCallId,
    signal: call.signal,
    onUpdate: (partial) => {
      const chars = partial.content.reduce((n, block) => n + block.text.length, 0);
      pending.push({ content: partial.content, chars });
      pendingChars += chars;
      while (pending.length > 1 && (pending.length > MAX_PENDING_UPDATES || pendingChars > MAX_PENDING_UPDATE_CHARS)) {
        pendingChars -= pending.shift()!.chars;
      }
      poke();
    },
    env: options.env as Record<string, string> | undefined,
    timeoutMs,
  }).then((settled) => {
    result = settled;
    poke();
  });
  try {
    for (;;) {
      if (pending.length > 0) {
        const next = pending.shift()!;
        pendingChars -= next.chars;
        yield { content: next.content, progress: true };
        continue;
      }
      if (result !== undefined) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    await run;
  } finally {
    if (result === undefined) call.abort(); // closed early (return()): the run is killed, as on abort
    call.release();
  }
  yield result!;
}

const INPUT_TYPES = new Set(["string", "number", "boolean", "enum"]);
const LANGUAGES = new Set(["typescript", "javascript", "bash", "python"]);

/**
 * The fields a hand-built (or cached) {@link ToolDirectory} must have right
 * for the adapters to offer it safely: the loader's name rule, a boolean
 * `mutating` (nothing fails open to read-only), a known language, and
 * well-formed inputs.
 */
function checkToolShape(tool: ToolDirectory, at: string): void {
  if (!TOOL_NAME_PATTERN.test(tool.name)) {
    throw new TypeError(`${at}: name ${JSON.stringify(headCut(tool.name, 80))} is not a tool name (snake_case: a lowercase letter, then lowercase letters, digits and _, at most 64 characters)`);
  }
  if (typeof tool.mutating !== "boolean") throw new TypeError(`${at} "${tool.name}": mutating must be true or false, as loadToolDirectories sets it`);
  if (!LANGUAGES.has(tool.language)) throw new TypeError(`${at} "${tool.name}": language must be typescript, javascript, bash or python`);
  if (typeof tool.description !== "string") throw new TypeError(`${at} "${tool.name}": description must be a string`);
  if (!Array.isArray(tool.env ?? [])) throw new TypeError(`${at} "${tool.name}": env must be an array of variable names`);
  for (const [key, input] of Object.entries(tool.inputs)) {
    const field = `${at} "${tool.name}": input ${JSON.stringify(key)}`;
    if (!INPUT_NAME_PATTERN.test(key) || key === "__proto__") throw new TypeError(`${field} is not an input name (letters, digits and _, at most 64 characters)`);
    if (!input || typeof input !== "object") throw new TypeError(`${field} must be an object ({ type, description, optional, sensitive })`);
    if (!INPUT_TYPES.has(input.type)) throw new TypeError(`${field} has type ${JSON.stringify(input.type)}; use string, number, boolean or enum`);
    if (input.type === "enum" && (!Array.isArray(input.values) || input.values.length === 0 || !input.values.every((v) => typeof v === "string"))) {
      throw new TypeError(`${field} is an enum without values (a non-empty array of strings)`);
    }
  }
}

/**
 * Checks the `toolDirectories` option at build time and returns its core
 * tools in order.
 *
 * @throws TypeError when `tools` is not an array of loaded tool
 *   directories, a name is repeated or is one of `reserved` (the built-in
 *   tool names), `env` is not a string map, `timeoutMs` is not a positive
 *   number, or the workspace has no `runtime` to run them in.
 */
export function directoryTools(
  option: DirectoryToolsOptions,
  workspace: { readonly runtime?: unknown; readonly fs?: unknown },
  reserved: readonly string[],
): CoreTool[] {
  const where = "create*Tools({ toolDirectories })";
  if (!option || typeof option !== "object" || !Array.isArray(option.tools)) {
    throw new TypeError(`${where} needs { tools } as loadToolDirectories returns it (an array of tool directories)`);
  }
  if (option.env !== undefined) {
    if (option.env === null || typeof option.env !== "object" || Array.isArray(option.env)) throw new TypeError(`${where}: env must be an object of strings`);
    for (const [name, value] of Object.entries(option.env)) {
      if (typeof value !== "string") throw new TypeError(`${where}: env${memberCut(name)} must be a string, got ${value === null ? "null" : typeof value}`);
    }
  }
  if (option.timeoutMs !== undefined && (typeof option.timeoutMs !== "number" || !Number.isFinite(option.timeoutMs) || option.timeoutMs <= 0)) {
    throw new TypeError(`${where}: timeoutMs must be a positive number of milliseconds, got ${String(option.timeoutMs)}`);
  }
  if (option.tools.length === 0) return [];
  const runtime = workspace.runtime as Partial<ToolRunWorkspace["runtime"]> | undefined;
  if (!runtime || typeof runtime.exec !== "function" || typeof runtime.backends !== "function") {
    throw new TypeError(`${where}: directory tools run in the Workspace's backends, so the workspace needs a runtime (a Workspace with backends, or a getWorkspace() client)`);
  }
  const seen = new Set(reserved);
  const exported = new Map(reserved.map((name) => [toolExportName(name), name]));
  const tools: CoreTool[] = [];
  for (const [i, tool] of option.tools.entries()) {
    if (!tool || typeof tool !== "object" || typeof tool.name !== "string" || !tool.inputs || typeof tool.inputs !== "object" || typeof tool.entry !== "string") {
      throw new TypeError(`${where}: tools[${i}] is not a tool directory as loadToolDirectories returns it (name, inputs, entry, language…)`);
    }
    checkToolShape(tool, `${where}: tools[${i}]`);
    if (seen.has(tool.name)) {
      throw new TypeError(
        reserved.includes(tool.name)
          ? `${where}: tools[${i}] is named "${tool.name}", a built-in tool; rename it in its TOOL.md`
          : `${where}: two tools are named "${tool.name}"; keep one (loadToolDirectories already keeps the first)`,
      );
    }
    seen.add(tool.name);
    // ws:tools exports `then` as `then_` (spec 02 §4.2): two tools must not share an export name.
    const exportName = toolExportName(tool.name);
    const sharing = exported.get(exportName);
    if (sharing !== undefined) {
      throw new TypeError(`${where}: tools[${i}] "${tool.name}" and "${sharing}" are both exported to ws:tools as "${exportName}"; rename one of them`);
    }
    exported.set(exportName, tool.name);
    tools.push(
      directoryToolDefinition(tool, {
        workspace: workspace as unknown as ToolRunWorkspace,
        env: option.env,
        timeoutMs: option.timeoutMs,
      }),
    );
  }
  return tools;
}
