/**
 * TanStack AI adapter (`<pkg>/tools/tanstack-ai`, spec 03 §7.3): the core
 * tools as TanStack tools (`chat({ tools })`). The zod schemas pass through
 * as Standard Schemas (copies whose failures list a bounded set of issues). TanStack's shapes are declared here structurally, so
 * this module loads no agent library.
 *
 * @module
 */
import type { z } from "zod";
import { buildCoreTools, modelOutput, settle, type CoreTool, type CreateToolsOptions, type NeutralOutput } from "./core/index.js";
import { withBoundedIssues } from "./core/schema.js";
import { CallAbort, directoryToolValue, pacedOutputs, pacedValues, snapshotChars, type DirectoryToolOutput } from "./core/directory.js";
import { markLibraryTool, markStartsRuns, markToolRoot, normalizeRoot } from "./core/root.js";

/** `"array"` (default): a list for `chat({ tools })`; `"object"`: keyed by name. */
export type TanStackToolFormat = "array" | "object";

/** Options of {@link createTanStackTools}. */
export interface CreateTanStackToolsOptions<F extends TanStackToolFormat = "array"> extends CreateToolsOptions {
  /** Shape of the result. Default `"array"`. */
  format?: F;
  /**
   * Tool names that set `needsApproval` (mutating or not; unknown names are
   * ignored), or `"mutating"` for every tool that changes the Workspace
   * (write, edit, delete, exec, publish, and directory tools unless their
   * front matter says `readonly: true`). Default: none (no tool needs approval).
   */
  approve?: string[] | "mutating";
  /** Tool names, or `"all"`, marked `lazy` (withheld until TanStack's lazy discovery asks for them). Default: none (no tool is lazy). */
  lazy?: string[] | "all";
  /**
   * Forward each running exec snapshot through `emitCustomEvent` under this
   * name, as `{ toolCallId, snapshot }`; the terminal snapshot is returned,
   * not emitted. A directory tool's `onUpdate` goes the same way, its
   * snapshot being the partial `{ content }`. Default: none (running
   * snapshots are dropped). An `emitCustomEvent` that throws ends the call
   * at once with its error and kills the run.
   */
  streamEventName?: string;
}

/** What TanStack passes to `execute`. */
export interface TanStackToolExecutionContext {
  /** TanStack's id of this call; passed to the tool and to emitted snapshots. */
  toolCallId?: string;
  /**
   * The chat run's abort signal: exec and directory tools kill their run when it aborts. Already aborted when the
   * call is made (a later call of a stopped step): nothing is done, and the value is `{ error: "Aborted: the agent
   * run was stopped before this call started; the call did nothing." }`.
   */
  abortSignal?: AbortSignal;
  /** Sends a custom stream event; exec's running snapshots go through it when `streamEventName` is set. */
  emitCustomEvent?(name: string, value: Record<string, unknown>): void;
}

/** A TanStack server tool. Every key is always present (`undefined` when unset). */
export interface TanStackTool {
  /** The tool's name: read, ls, find, grep, write, edit, delete, exec or publish (spec 03 §2.2). */
  name: string;
  /** Written for the model: what the tool does, its limits and continuation rules (the same text in every adapter). */
  description: string;
  /**
   * A copy of the tool's zod schema (a Standard Schema; same `safeParse` and
   * JSON Schema); TanStack's `chat()` validates input against it. Its
   * Standard Schema `validate` reports at most the first
   * `INVALID_ARGUMENTS_MAX_ISSUES` (10) issues, then `… and <n> more issues`,
   * their messages at most `INVALID_ARGUMENTS_MAX_CHARS` (4,096) characters.
   */
  inputSchema: z.ZodType;
  /** On write, edit, delete and publish: accepts the success shape and `{ error }` (spec 03 §7.3); `undefined` on the others. */
  outputSchema: z.ZodType | undefined;
  /** `true` when `approve` names the tool (or it is mutating under `"mutating"`); else `undefined`. */
  needsApproval: boolean | undefined;
  /** `true` when `lazy` names the tool (or is `"all"`); else `undefined`. */
  lazy: boolean | undefined;
  /**
   * Runs the tool on input `chat()` already validated (it is not validated
   * again) and resolves to TanStack's value (spec 03 §6): a string, JSON
   * data, `{ error }` for a failure, or text + image/document parts for media.
   *
   * @throws (rejects) only when read throws: the store's stat or read fails
   *   with an error other than `ENOENT` (e.g. a `root` confinement
   *   violation; spec 03 conventions, §2.4).
   */
  execute(input: any, context?: TanStackToolExecutionContext): Promise<unknown>;
}

/** The list form. */
export type TanStackToolList = TanStackTool[];
/** The keyed form. */
export type TanStackToolSet = Record<string, TanStackTool>;
/** The result type for a format. */
export type TanStackToolsFor<F extends TanStackToolFormat> = F extends "object" ? TanStackToolSet : TanStackToolList;

/** Neutral output → TanStack return value (spec 03 §6). */
function lower(output: NeutralOutput): unknown {
  switch (output.type) {
    case "text":
      return output.value;
    case "error-text":
      return { error: output.value };
    case "json":
      return output.value;
    case "media":
      return [
        { type: "text", content: output.text },
        {
          type: output.mediaType.startsWith("image/") ? "image" : "document",
          source: { type: "data", value: output.data, mimeType: output.mediaType },
        },
      ];
  }
}

function toTanStackTool(core: CoreTool, options: CreateTanStackToolsOptions<TanStackToolFormat>): TanStackTool {
  const approve = options.approve;
  const needsApproval =
    approve === "mutating" ? core.mutating || undefined : approve?.includes(core.name) ? true : undefined;
  const lazy = options.lazy === "all" || options.lazy?.includes(core.name) ? true : undefined;
  const eventName = options.streamEventName;
  return {
    name: core.name,
    description: core.description,
    // chat() puts every issue into the tool message: the copy reports a bounded list.
    inputSchema: withBoundedIssues(core.inputSchema),
    outputSchema: core.outputSchema,
    needsApproval,
    lazy,
    async execute(input, context) {
      const emit = eventName && context?.emitCustomEvent ? context.emitCustomEvent.bind(context) : undefined;
      const isProgress = core.isProgress;
      // TanStack queues every custom event at once: a directory tool's progress and exec's running snapshots are paced (bounded per call).
      const pace = core.contentResult || (isProgress !== undefined && emit !== undefined);
      // A paced call gets its own signal: aborted (the run killed) when reading stops early (emitCustomEvent throws),
      // so the call settles without waiting for the run's next output.
      const call = pace ? new CallAbort(context?.abortSignal) : undefined;
      const run = core.execute(input, { abortSignal: call ? call.signal : context?.abortSignal, toolCallId: context?.toolCallId });
      const paced = !pace
        ? run
        : core.contentResult
          ? pacedOutputs(run as AsyncIterable<DirectoryToolOutput>, { call })
          : typeof (run as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === "function"
            ? pacedValues(run as AsyncIterable<unknown>, (value) => isProgress!.call(core, value), snapshotChars, { call })
            : run;
      const output = await settle(paced, (value) => {
        if (!emit || !(core.isProgress?.(value) ?? false)) return;
        // A directory tool's snapshot is its onUpdate partial, `{ content }` (spec 03 §9).
        const snapshot = core.contentResult ? { content: (value as DirectoryToolOutput).content } : value;
        emit(eventName!, { toolCallId: context?.toolCallId, snapshot });
      });
      if (core.contentResult) return directoryToolValue(output as DirectoryToolOutput);
      return lower(modelOutput(core, input, output));
    },
  };
}

/**
 * The Workspace tools for TanStack AI `chat({ tools })`: a list in the
 * order read, ls, find, grep, write, edit, delete (then exec, publish when
 * present, then the `toolDirectories` tools), or with `format: "object"`
 * the same tools keyed by name. A directory tool resolves to its joined
 * text, or `{ error }` when it reports `isError` (spec 03 §9). The object
 * form fits `forAISDKTools` for `ws:tools`: like `createAITools`' tools
 * (and copies of them), directory tools are left out unless `runTools`,
 * and file tools keep the set's `root` and are confined whatever their key.
 *
 * @example
 * ```ts
 * const tools = createTanStackTools({ workspace, approve: "mutating" });
 * return toServerSentEventsResponse(chat({ adapter, messages, tools }));
 * ```
 * @throws TypeError when `workspace` has no `fs`, or a limit is invalid.
 */
export function createTanStackTools<F extends TanStackToolFormat = "array">(options: CreateTanStackToolsOptions<F>): TanStackToolsFor<F> {
  const tools = buildCoreTools(options).map((core) => {
    const tool = toTanStackTool(core, options);
    // For ws:tools (forAISDKTools takes the object form), as createAITools marks its tools, a copy by its execute:
    // a directory tool runs like exec (not exported by default); a file tool is confined whatever key it has.
    for (const marked of [tool, tool.execute]) {
      if (core.contentResult) markStartsRuns(marked, core.name);
      else markLibraryTool(marked, core.name, core.mutating); // read, ls, find, grep: readOnly in ws:tools
      // relative paths resolve against the set's root, and the set is confined already
      if (options.root !== undefined) markToolRoot(marked, normalizeRoot(options.root));
    }
    return tool;
  });
  if (options.format === "object") return Object.fromEntries(tools.map((t) => [t.name, t])) as TanStackToolsFor<F>;
  return tools as TanStackToolsFor<F>;
}
