/**
 * AI SDK adapter (spec 03 §7.1): the core tools as an AI SDK `ToolSet`.
 * Imports only types from `ai`, so loading this module loads no agent
 * library.
 *
 * Not an entry point itself: `<pkg>/tools/ai-sdk` and `<pkg>/tools` both
 * re-export from here. Keeping the implementation out of the entry modules
 * keeps either entry's bundled `.d.ts` from becoming the home of types the
 * other one imports (which would export them under one-letter aliases).
 *
 * @module
 */
import { execDefinition, type ExecToolOptions } from "./core/exec.js";
import { publishDefinition, type PublishToolOptions } from "./core/publish.js";
import type { Tool, ToolSet } from "ai";
import { markLibraryTool, markStartsRuns, markToolRoot, normalizeRoot } from "./core/root.js";
import {
  buildCoreTools,
  deleteDefinition,
  editDefinition,
  findDefinition,
  grepDefinition,
  listDefinition,
  readDefinition,
  writeDefinition,
  type CoreTool,
  type CreateToolsOptions,
  type DeleteToolOptions,
  type EditToolOptions,
  type FindToolOptions,
  type GrepToolOptions,
  type ListToolOptions,
  type NeutralOutput,
  type ReadToolOptions,
  type WriteToolOptions,
  invalidArgumentsMessage,
  toJSONSchema,
} from "./core/index.js";
import { CallAbort, directoryToolValue, pacedOutputs, pacedValues, snapshotChars, type DirectoryToolOutput } from "./core/directory.js";
import { boundedIssues } from "./core/schema.js";
import { z } from "zod";

/** Options of {@link createAITools}: the shared tool set options (spec 03 §2.1). */
export type CreateAIToolsOptions = CreateToolsOptions;

/** The AI SDK's tool result output (`ToolResultOutput`, not re-exported by `ai`). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool["toModelOutput"]>>>;

/** Neutral output → AI SDK `ToolResultOutput` (for a tool with its own `toModelOutput`; spec 03 §7.1). */
function lower(output: NeutralOutput): ToolResultOutput {
  switch (output.type) {
    case "text":
      return { type: "text", value: output.value };
    case "error-text":
      return { type: "error-text", value: output.value };
    case "json":
      return { type: "json", value: JSON.parse(JSON.stringify(output.value)) };
    case "media":
      return {
        type: "content",
        value: [
          { type: "text", text: output.text },
          { type: "file", data: { type: "data", data: output.data }, mediaType: output.mediaType, filename: output.filename },
        ],
      };
  }
}

/**
 * One core tool as an AI SDK tool: `description`, `inputSchema`, `execute`,
 * and `toModelOutput` when the core tool has its own (read); otherwise the
 * AI SDK's default output applies.
 */
function toAITool(core: CoreTool): Tool {
  // The AI SDK quotes the whole rejected input in its error text; a tool with sensitive inputs checks its own.
  const selfChecked = (core.sensitiveInputs?.length ?? 0) > 0;
  const tool: Tool = {
    description: core.description,
    inputSchema: selfChecked ? unchecked(core) : checked(core),
    execute: (input: unknown, options: { abortSignal?: AbortSignal; toolCallId?: string }) => {
      if (selfChecked) {
        const parsed = core.inputSchema.safeParse(input);
        if (!parsed.success) return Promise.resolve({ error: invalidArgumentsMessage(core.name, parsed.error) }) as never;
        input = parsed.data;
      }
      const isProgress = core.isProgress;
      // exec and directory tools run until their outputs end: the call gets its own signal, aborted (the run killed)
      // when the SDK stops reading early, e.g. its onPreliminaryToolResult throws on a cancelled stream.
      const call = core.contentResult || isProgress ? new CallAbort(options?.abortSignal) : undefined;
      const result = core.execute(input, { abortSignal: call ? call.signal : options?.abortSignal, toolCallId: options?.toolCallId });
      // Directory tools (spec 03 §9): progress as preliminary results, then the joined text or { error }.
      if (core.contentResult) return directoryValues(result as AsyncIterable<DirectoryToolOutput>, call) as never;
      // exec's running snapshots (preliminary results) are paced as directory tools' progress: the SDK queues them all at once.
      if (isProgress && isAsyncIterable(result)) return pacedValues(result, (value) => isProgress.call(core, value), snapshotChars, { call }) as never;
      return result as never;
    },
  };
  const toModelOutput = core.toModelOutput;
  if (toModelOutput) {
    (tool as { toModelOutput?: unknown }).toModelOutput = ({ input, output }: { input: unknown; output: unknown }) =>
      lower(toModelOutput.call(core, input, output));
  }
  // For ws:tools, whichever factory built it (createAITools or one of the create*Tool), and a copy by its execute:
  // a directory tool runs like exec (not exported by default); a library tool is recognised under any key
  // (file tools confined, exec excluded, read/ls/find/grep read-only).
  for (const marked of [tool, tool.execute]) {
    if (core.contentResult) markStartsRuns(marked, core.name);
    else markLibraryTool(marked, core.name, core.mutating);
  }
  return tool;
}

/**
 * `core`'s input schema as a Standard Schema that accepts every input (its
 * JSON Schema is the zod schema's): for tools that validate in `execute`,
 * so that no rejected value is quoted back (see {@link CoreTool.sensitiveInputs}).
 */
function unchecked(core: CoreTool): Tool["inputSchema"] {
  return {
    "~standard": {
      version: 1,
      vendor: "agent-computer",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => toJSONSchema(core.inputSchema), output: () => toJSONSchema(core.inputSchema) },
    },
  } as unknown as Tool["inputSchema"];
}

/** The AI SDK's mark of a `Schema` (`jsonSchema(…, { validate })`), a registered symbol. */
const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

/**
 * A copy of `core`'s zod schema (same `safeParse`, types) that is also an AI
 * SDK `Schema`: its JSON Schema is the one the AI SDK derives from the zod
 * schema itself (draft-07, input mode, inlined, objects closed), and its
 * `validate` is zod's, except that a failure reports {@link boundedIssues}
 * (the first 10 issues, then `… and <n> more issues`). The AI SDK words the
 * error from them as from zod's own (`Type validation failed: Value: <the
 * input>. Error message: <issues>`), so every issue of a wrong 10,000-element
 * array no longer reaches the model; the input itself is still quoted.
 * Its `validate` is the AI SDK's (`Promise<{ success, value | error }>`),
 * in place of zod's `validate` type guard; `safeParse` and `parse` are zod's.
 */
function checked(core: CoreTool): Tool["inputSchema"] {
  const schema = core.inputSchema;
  const copy = schema.clone();
  let json: unknown;
  Object.defineProperties(copy, {
    [AI_SDK_SCHEMA]: { value: true },
    jsonSchema: {
      get: () => (json ??= closeObjects(z.toJSONSchema(schema, { target: "draft-7", io: "input", reused: "inline" }) as JSONNode)),
    },
    validate: {
      value: async (value: unknown) => {
        const parsed = await schema.safeParseAsync(value);
        if (parsed.success) return { success: true, value: parsed.data };
        return { success: false, error: new z.ZodRealError(boundedIssues(parsed.error.issues) as z.core.$ZodIssue[]) };
      },
    },
  });
  return copy as unknown as Tool["inputSchema"];
}

type JSONNode = { [key: string]: any };

/** `additionalProperties: false` on every object schema without its own (as the AI SDK does to a zod schema's JSON Schema). */
function closeObjects(node: JSONNode): JSONNode {
  if (node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"))) {
    const extra = node.additionalProperties;
    node.additionalProperties = extra != null && typeof extra !== "boolean" ? visit(extra) : false;
    if (node.properties != null) for (const key of Object.keys(node.properties)) node.properties[key] = visit(node.properties[key]);
  }
  if (node.items != null) node.items = Array.isArray(node.items) ? node.items.map(visit) : visit(node.items);
  for (const key of ["anyOf", "allOf", "oneOf"]) if (node[key] != null) node[key] = node[key].map(visit);
  if (node.definitions != null) for (const key of Object.keys(node.definitions)) node.definitions[key] = visit(node.definitions[key]);
  return node;
}

function visit(node: unknown): unknown {
  return typeof node === "boolean" ? node : closeObjects(node as JSONNode);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

/**
 * A directory tool's outputs as AI SDK values: each progress snapshot's text (a preliminary result), then the joined
 * text or `{ error }`. Stopped early, it aborts `call` (the run is killed) and returns without waiting for the run.
 */
async function* directoryValues(outputs: AsyncIterable<DirectoryToolOutput>, call: CallAbort | undefined): AsyncGenerator<string | { error: string }> {
  // The AI SDK queues every preliminary result at once: pace them (bounded per call).
  for await (const output of pacedOutputs(outputs, { call })) yield directoryToolValue(output);
}

/**
 * The Workspace tools as an AI SDK `ToolSet`, keys in the order read, ls,
 * find, grep, write, edit, delete (then exec, publish when present), then
 * the `toolDirectories` tools. A directory tool's `execute` yields each
 * `onUpdate` as a preliminary result (its text) and settles on the joined
 * text, or `{ error }` when the tool reports `isError` (spec 03 §9).
 * Leaving exec's or a directory tool's `execute` iteration early (`return()`,
 * as the SDK does when its `onPreliminaryToolResult` throws) settles at once
 * and kills the run, as the SDK's `abortSignal` does.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, prompt, tools: createAITools({ workspace }), stopWhen: stepCountIs(10) });
 * ```
 * @throws TypeError when `workspace` has no `fs`, or a limit is invalid.
 */
export function createAITools(options: CreateAIToolsOptions): ToolSet {
  const set: ToolSet = {};
  for (const core of buildCoreTools(options)) {
    // An own key whatever the name (a `__proto__` key must not replace the set's prototype).
    // Marked for ws:tools by toAITool (a directory tool starts runs; a file tool is confined under any key).
    Object.defineProperty(set, core.name, { value: toAITool(core), enumerable: true, writable: true, configurable: true });
  }
  // ws:tools reads it: relative paths resolve against it, and the set is confined already (a copy by its execute).
  if (options.root !== undefined) {
    for (const tool of Object.values(set)) for (const marked of [tool, tool.execute]) markToolRoot(marked, normalizeRoot(options.root));
  }
  return set;
}

/*
 * The factories below build the tools createAITools builds, one by one, marked the same way for `ws:tools`
 * (`forAISDKTools`): recognised as the library's tool under any key and in a copy by its `execute` — the path of
 * read, ls, find, grep, write, edit, delete and publish confined to the calling run's `root`, read, ls, find and
 * grep `readOnly`, exec left out by the default `exclude: ["exec"]`.
 */

/** The read tool for the AI SDK over any {@link FileStore}. In `ws:tools`: `readOnly`, its `path` confined to the run's root under any key. */
export const createReadTool = (options: ReadToolOptions): Tool => toAITool(readDefinition(options));
/** The write tool for the AI SDK. */
export const createWriteTool = (options: WriteToolOptions): Tool => toAITool(writeDefinition(options));
/** The edit tool for the AI SDK. */
export const createEditTool = (options: EditToolOptions): Tool => toAITool(editDefinition(options));
/** The delete tool for the AI SDK (needs a {@link MutableFileStore}). */
export const createDeleteTool = (options: DeleteToolOptions): Tool => toAITool(deleteDefinition(options));
/** The ls tool for the AI SDK. */
export const createListTool = (options: ListToolOptions): Tool => toAITool(listDefinition(options));
/** The find tool for the AI SDK. */
export const createFindTool = (options: FindToolOptions): Tool => toAITool(findDefinition(options));
/** The grep tool for the AI SDK. */
export const createGrepTool = (options: GrepToolOptions): Tool => toAITool(grepDefinition(options));
/**
 * The exec tool for the AI SDK (spec 03 §4.8). Marked as the library's exec,
 * so `createToolBindings` leaves it out of `ws:tools` (default `exclude:
 * ["exec"]`) under any key, and in a copy by its `execute`.
 */
export const createExecTool = (options: ExecToolOptions): Tool => toAITool(execDefinition(options));
/**
 * The publish tool for the AI SDK (spec 03 §4.9): shares a Workspace file
 * through `workspace.assets` and returns `{ ok: true, url }` or
 * `{ ok: false, error }`.
 *
 * @throws Error `createPublishTool: workspace.assets is not configured` when the workspace has no assets publisher.
 */
export const createPublishTool = (options: PublishToolOptions): Tool => toAITool(publishDefinition(options));
