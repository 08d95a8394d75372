/**
 * The shape every core tool shares (spec 03 §1, §6). A core tool knows its
 * name, model-facing description, zod input schema, limits and executor; it
 * knows nothing about any agent library. Adapters (`../ai-sdk.ts`,
 * `../pi-ai.ts`, `../tanstack-ai.ts`) only change the shape.
 *
 * @module
 */
import type { z } from "zod";
import { echoedText } from "./paging.js";

/** A returned failure. Every tool but `read` reports failures this way (spec 03 conventions). */
export interface ToolError {
  error: string;
}

/**
 * Context an adapter passes to a core tool call. (The pi adapter's public
 * `ToolCallContext` is what its `execute` takes; this is the core's.)
 */
export interface CoreToolCallContext {
  /**
   * Aborts the call. Already aborted when the call is made: every tool does nothing and returns its error result
   * with {@link ABORTED_CALL_MESSAGE} (see {@link abortedCall}). Aborted later: exec and directory tools kill their
   * run; the other tools ignore it once started. Absent: the call cannot be aborted.
   */
  abortSignal?: AbortSignal;
  /** The agent library's id for this call, when it has one. */
  toolCallId?: string;
}

/**
 * A library-neutral model output (spec 03 §6). Adapters lower it to their
 * own content shape.
 */
export type NeutralOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | { type: "json"; value: unknown }
  | { type: "media"; text: string; data: string; mediaType: string; filename: string };

/**
 * What is known about a tool before it is built. Each tool file exports its
 * facts once; its definition spreads them, and the tool-set builder reads
 * them to decide inclusion (a read-only set leaves out mutating tools).
 */
export interface ToolFacts {
  /** The name the model calls the tool by. */
  readonly name: string;
  /**
   * True when the tool changes the Workspace: left out of read-only tool sets,
   * needs approval under TanStack's `approve: "mutating"`, and is not
   * `readOnly` in `ws:tools` (spec 03 §2.2, §7.3; spec 02 §4.2).
   */
  readonly mutating: boolean;
}

/**
 * One tool, defined once. `execute` takes arguments that already passed
 * `inputSchema` (adapters validate, or let their library validate, first)
 * and returns one result, or an async iterable of snapshots whose last
 * value is the result (exec).
 */
export interface CoreTool<I = any, O = any> extends ToolFacts {
  /** Written for the model: what the tool does, when to use it, its limits and continuation rules. */
  readonly description: string;
  /** zod 4 object schema; unknown top-level keys are stripped. */
  readonly inputSchema: z.ZodType<I>;
  /** Result schema covering success and `{ error }` (write, edit, delete, publish only; spec 03 §7.3). */
  readonly outputSchema?: z.ZodType;
  /** Effective limits of this tool instance (bytes, lines, entries), for docs and comparisons. */
  readonly limits: Readonly<Record<string, number>>;
  /** Runs the tool. Returns `{ error }` for failures (read may also throw, spec 03 §4.1). */
  execute(input: I, context?: CoreToolCallContext): Promise<O> | AsyncIterable<O>;
  /**
   * Maps a settled result to a neutral model output (spec 03 §4.1.2, §6).
   * Optional: without it, {@link defaultModelOutput} applies (see
   * {@link modelOutput}); only read has its own.
   */
  toModelOutput?(input: I, output: O): NeutralOutput;
  /** Rewrites raw arguments before validation (exec's `input` JSON string, spec 03 §4.8). */
  prepareArguments?(args: unknown): unknown;
  /** True for an intermediate snapshot of a streaming tool (exec's running snapshots). */
  isProgress?(value: O): boolean;
  /**
   * `true` when outputs are seed-001 results `{ content, isError? }` (TOOL.md
   * directory tools, spec 03 §9): pi passes them through; the AI SDK and
   * TanStack adapters return the joined text, or `{ error: text }` when
   * `isError` is set. Absent: the output is the adapter value itself.
   */
  readonly contentResult?: boolean;
  /**
   * Names of inputs whose values must never be echoed (TOOL.md `sensitive`
   * inputs, spec 03 §9). An adapter whose library quotes rejected arguments
   * in its error text (the AI SDK's `Type validation failed: Value: …`)
   * validates such a tool itself, with a message that names inputs but
   * never quotes values. Absent or empty: nothing to hide.
   */
  readonly sensitiveInputs?: readonly string[];
}

/** A tool whose `execute` settles on one value (every tool but exec). */
export type SettledTool<I = any, O = any> = Omit<CoreTool<I, O>, "execute"> & {
  execute(input: I, context?: CoreToolCallContext): Promise<O>;
};

/**
 * The error text of a call made with an abort signal that has already fired (the user stopped the agent run
 * before this call started, e.g. a later call of the same step): the tool did nothing — no file read, written or
 * removed, no run started, nothing published (issue 20, run 39, fixer AB).
 */
export const ABORTED_CALL_MESSAGE = "Aborted: the agent run was stopped before this call started; the call did nothing.";

/**
 * {@link ABORTED_CALL_MESSAGE} when the call's `abortSignal` has already aborted, else `undefined`. Every tool asks
 * it first, before touching the Workspace, and answers in its own error shape: `{ error }` (read, ls, find, grep,
 * write, edit, delete), `{ ok: false, error }` (publish), exec's error snapshot, a directory tool's `isError`
 * result. A signal whose `aborted` cannot be read counts as not aborted.
 */
export function abortedCall(context: CoreToolCallContext | undefined): string | undefined {
  try {
    return context?.abortSignal?.aborted === true ? ABORTED_CALL_MESSAGE : undefined;
  } catch {
    return undefined;
  }
}

/** True when `value` is a `{ error: string }` failure. */
export function isToolError(value: unknown): value is ToolError {
  return typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string";
}

/**
 * The message of a thrown value: `err.message` for Errors, else `String(err)` (spec 03 §3). A path the error
 * carries (`err.path`, as a `WorkspaceFsError` has) longer than 4,096 characters is cut in the message as the
 * tools echo a path ({@link echoedText}): `ENOENT: no such file or directory, stat: /workspace/…[… N characters cut …]`.
 */
export function errorMessage(err: unknown): string {
  try {
    if (err instanceof Error) return withPathCut(err.message, (err as { path?: unknown }).path);
    if (typeof err === "object" && err !== null && typeof (err as { message?: unknown }).message === "string") {
      return withPathCut((err as { message: string }).message, (err as { path?: unknown }).path);
    }
    return String(err);
  } catch {
    // A thrown value without a usable message (Object.create(null), a throwing toString or getter).
    return "the operation failed with a value that has no message";
  }
}

/** `message` with each occurrence of `path` (when a string past the echo width) replaced by its {@link echoedText}. */
function withPathCut(message: string, path: unknown): string {
  if (typeof path !== "string") return message;
  const shown = echoedText(path);
  return shown === path ? message : message.split(path).join(shown);
}

/**
 * The default neutral output, for every tool without `toModelOutput`:
 * `{ error: string }` → error-text (so publish's `{ ok: false, error }` is
 * the bare message too), a string → text, anything else → json (spec 03 §6).
 */
export function defaultModelOutput(output: unknown): NeutralOutput {
  if (isToolError(output)) return { type: "error-text", value: output.error };
  if (typeof output === "string") return { type: "text", value: output };
  return { type: "json", value: output };
}

/** A settled result's neutral output: the tool's own `toModelOutput`, else {@link defaultModelOutput}. */
export function modelOutput<I, O>(tool: CoreTool<I, O>, input: I, output: O): NeutralOutput {
  return tool.toModelOutput ? tool.toModelOutput(input, output) : defaultModelOutput(output);
}

/**
 * Settles a tool's return: awaits a promise, or drains an async iterable to
 * its last value, calling `onValue` for every value but the last.
 */
export async function settle<O>(
  result: Promise<O> | AsyncIterable<O>,
  onValue?: (value: O) => void,
): Promise<O> {
  if (result && typeof (result as AsyncIterable<O>)[Symbol.asyncIterator] === "function") {
    let last: O | undefined;
    let seen = false;
    for await (const value of result as AsyncIterable<O>) {
      if (seen && onValue) onValue(last as O);
      last = value;
      seen = true;
    }
    return last as O;
  }
  return await (result as Promise<O>);
}
