/**
 * pi adapter (`<pkg>/tools/pi-ai`, spec 03 §7.2): tool declarations with
 * JSON Schema parameters, and one `execute(toolCall)` that validates and
 * runs a call and returns pi tool-result content. pi's shapes are declared
 * here structurally, so this module loads no agent library, and the same
 * objects fit `@earendil-works/pi-ai` 0.74 (top-level `complete`) and 1.x
 * (`models.complete`).
 *
 * @module
 */
import { markLibraryTool, markStartsRuns, markStartsRunsNamed, markToolRoot, normalizeRoot } from "./core/root.js";
import type { ForPiToolsOptions, PiAgentToolLike } from "../modules/tools.js";
import {
  buildCoreTools,
  dropNulls,
  errorMessage,
  invalidArgumentsMessage,
  modelOutput,
  nullDroppableKeys,
  settle,
  toJSONSchema,
  type CoreTool,
  type CreateToolsOptions,
  type JSONSchemaObject,
  type NeutralOutput,
} from "./core/index.js";
import { invalidArgumentsText } from "./core/schema.js";
import type { DirectoryToolOutput } from "./core/directory.js";
import { jsonCut, quoteCut } from "../util/cut.js";

/** JSON Schema draft-07 object that pi (TypeBox) accepts as `parameters`. */
export type PiJSONSchema = JSONSchemaObject;

/** Options for declarations: pi's constrained sampling on read, write and edit. */
export interface PiDeclarationOptions {
  /** `"prefer"` (default) falls back on providers without it, `"require"` fails instead, `false` turns it off. */
  constrainedSampling?: "prefer" | "require" | false;
}

/** Options of {@link createPiTools}. */
export type CreatePiToolsOptions = CreateToolsOptions & PiDeclarationOptions;

/**
 * A pi tool declaration (`Context.tools` entry). pi 1.x reads
 * `constrainedSampling`; 0.74 has no such field and ignores it.
 */
export interface PiTool {
  /** The tool's name: read, ls, find, grep, write, edit, delete, exec or publish (spec 03 §2.2). */
  name: string;
  /** Written for the model: what the tool does, its limits and continuation rules (the same text in every adapter). */
  description: string;
  /** The input schema as JSON Schema draft-07 (from the tool's zod schema). */
  parameters: PiJSONSchema;
  /**
   * pi's constrained sampling, on read, write and edit only; absent on the
   * others and when `constrainedSampling: false` (spec 03 §7.2).
   */
  constrainedSampling?: { type: "json_schema"; strict: "prefer" | "require" };
}

/** A pi tool call (an assistant `toolCall` block of pi 0.74 or 1.x, or any `{ id, name, arguments }`). */
export interface PiToolCall {
  /** The call's id (pi's `toolCall.id`); passed to the tool as `toolCallId`. */
  id: string;
  /**
   * The tool to run; an unknown name is answered `Unknown tool "<name>". Available tools: …` (`isError: true`), a
   * name past 64 characters quoted by its first 64 and its length (`Unknown tool "xxx…" (1000000 characters)`).
   */
  name: string;
  /** The arguments object; absent means `{}`. A `null` in an optional top-level field (how strict sampling omits one) is dropped before validation. */
  arguments?: unknown;
  /**
   * pi 1.x: set when the model's arguments text was not a JSON object (`arguments` is then `{}`);
   * the call is answered with this text as an invalid-arguments error instead of running.
   */
  argumentsError?: string;
}

/** One block of a pi tool result. */
export type PiToolResultContent =
  | {
      /** A text block. */
      type: "text";
      /** The text: the tool's text, its JSON result, or its error message. */
      text: string;
    }
  | {
      /** An image block (read of an image file). */
      type: "image";
      /** The image bytes, base64-encoded. */
      data: string;
      /** The image's MIME type, e.g. `image/png`. */
      mimeType: string;
    };

/** What `execute` returns; push it as a `toolResult` message. `details` is the raw result (not for media). */
export interface PiToolResult {
  /** The blocks the model sees: one text block, or for an image a text block then the image (spec 03 §6). */
  content: PiToolResultContent[];
  /** `true` for an unknown tool, invalid arguments, a thrown error or a returned `{ error }`. */
  isError: boolean;
  /** The tool's raw result (structured), when there is one; absent for media and for calls that did not run. */
  details?: unknown;
}

/** Context for one call of {@link CreatePiToolsResult.execute}. */
export interface ToolCallContext {
  /**
   * Aborts the call: exec and directory tools kill their run; the file tools ignore it once started. Already aborted
   * when the call is made: nothing is done, and the result is `isError` with "Aborted: the agent run was stopped
   * before this call started; the call did nothing." Absent: the call cannot be aborted.
   */
  abortSignal?: AbortSignal;
  /**
   * Receives a directory tool's progress (each `onUpdate` of the tool, as
   * pi's partial result `{ content }`; spec 03 §9), e.g. to forward it as
   * pi's `onUpdate`. Errors it throws are ignored. Default: none (progress
   * is dropped).
   */
  onUpdate?(partial: { content: PiToolResultContent[] }): void;
}

/** Result of {@link createPiTools}. */
export interface CreatePiToolsResult {
  /** The declarations for pi's `Context.tools`, in the order read, ls, find, grep, write, edit, delete, exec, publish (those present), then the `toolDirectories` tools. */
  tools: PiTool[];
  /**
   * Validates and runs one tool call and returns its result content; never
   * throws (failures come back with `isError: true`). exec's running
   * snapshots are drained: the result is the settled one. A directory
   * tool's `{ content, isError }` passes through (spec 03 §9); its
   * progress goes to `context.onUpdate` when given.
   */
  execute(call: PiToolCall, context?: ToolCallContext): Promise<PiToolResult>;
  /**
   * Names of the tools that change nothing (read, ls, find, grep, and
   * directory tools whose front matter says `readonly: true`): what
   * `forPiTools` marks `readOnly` for `ws:tools`.
   */
  readOnly: string[];
}

const CONSTRAINED = new Set(["read", "write", "edit"]);
const PDF_NOTE = " This file type cannot be attached to a tool result; read it with a dedicated tool if its contents are needed.";

/**
 * What the invalid-arguments answer of a tool with sensitive inputs says in place of pi's `argumentsError`: pi's
 * text ends with the model's raw arguments (`Received arguments:\n…`), and its reason (a JSON parser's message)
 * can quote a piece of them too, so none of it is shown.
 */
const HIDDEN_ARGUMENTS_ERROR = "the arguments text is not a JSON object (not shown: this tool has sensitive inputs)";

/** Neutral output → pi content (spec 03 §6). */
function lower(output: NeutralOutput, raw: unknown): PiToolResult {
  switch (output.type) {
    case "text":
      return { content: [{ type: "text", text: output.value }], isError: false, details: raw };
    case "error-text":
      return { content: [{ type: "text", text: output.value }], isError: true, details: raw };
    case "json":
      return { content: [{ type: "text", text: JSON.stringify(output.value) }], isError: false, details: raw };
    case "media":
      return output.mediaType.startsWith("image/")
        ? { content: [{ type: "text", text: output.text }, { type: "image", data: output.data, mimeType: output.mediaType }], isError: false }
        : { content: [{ type: "text", text: output.text + PDF_NOTE }], isError: false };
  }
}

/**
 * A directory tool's result as pi content (spec 03 §9: passed through):
 * every block as a text block, `isError: isError === true`, the result as
 * `details`.
 */
function passThrough(output: DirectoryToolOutput): PiToolResult {
  const result: DirectoryToolOutput = { content: output.content, ...(output.isError === true ? { isError: true } : {}) };
  return { content: output.content.map((block) => ({ type: "text" as const, text: block.text })), isError: output.isError === true, details: result };
}

/** One core tool as a pi declaration. */
function declare(core: CoreTool, mode: "prefer" | "require" | false): PiTool {
  const tool: PiTool = { name: core.name, description: core.description, parameters: toJSONSchema(core.inputSchema) };
  if (mode !== false && CONSTRAINED.has(core.name)) tool.constrainedSampling = { type: "json_schema", strict: mode };
  return tool;
}

/**
 * pi tool declarations and the function that runs a pi tool call. A bad
 * call or a failing tool returns `isError: true`; `execute` never throws.
 *
 * @example
 * ```ts
 * const { tools, execute } = createPiTools({ workspace });
 * const message = await models.complete(model, { messages, tools }); // pi 0.74: complete(model, …)
 * for (const block of message.content) if (block.type === "toolCall") {
 *   const { content, isError } = await execute(block);
 *   messages.push({ role: "toolResult", toolCallId: block.id, toolName: block.name, content, isError, timestamp: Date.now() });
 * }
 * ```
 * @throws TypeError when `workspace` has no `fs`, a limit is invalid, or `constrainedSampling` is not one of its values.
 */
export function createPiTools(options: CreatePiToolsOptions): CreatePiToolsResult {
  const mode = options?.constrainedSampling ?? "prefer";
  if (mode !== "prefer" && mode !== "require" && mode !== false) {
    throw new TypeError('createPiTools: constrainedSampling must be "prefer", "require" or false');
  }
  const cores = buildCoreTools(options);
  const byName = new Map(cores.map((core) => [core.name as string, { core, nullKeys: nullDroppableKeys(core.inputSchema) }]));
  const tools = cores.map((core) => {
    const declaration = declare(core, mode);
    if (core.contentResult) markStartsRuns(declaration, core.name); // directory tools run like exec: not exported to ws:tools by default
    else markLibraryTool(declaration, core.name); // ws:tools confines its path whatever name it is exported under
    return declaration;
  });
  const available = cores.map((core) => JSON.stringify(core.name)).join(", ");

  async function execute(call: PiToolCall, context?: ToolCallContext): Promise<PiToolResult> {
    try {
      return await run(call, context);
    } catch (err) {
      // Reading the call object itself can throw (e.g. a `name` or `arguments` getter).
      return { content: [{ type: "text", text: errorMessage(err) }], isError: true };
    }
  }

  async function run(call: PiToolCall, context?: ToolCallContext): Promise<PiToolResult> {
    const entry = byName.get(call?.name);
    if (!entry) {
      const name: unknown = call?.name;
      const shown = typeof name === "string" ? quoteCut(name) : jsonCut(name);
      return { content: [{ type: "text", text: `Unknown tool ${shown}. Available tools: ${available}.` }], isError: true };
    }
    const { core, nullKeys } = entry;
    if (typeof call.argumentsError === "string") {
      // pi's text quotes the model's raw arguments; for a tool with sensitive inputs they may hold a secret, and
      // nothing can mask it in text that is not JSON: it is not passed on.
      const sensitive = (core.sensitiveInputs?.length ?? 0) > 0;
      return { content: [{ type: "text", text: invalidArgumentsText(core.name, sensitive ? HIDDEN_ARGUMENTS_ERROR : call.argumentsError) }], isError: true };
    }
    try {
      // Argument preparation and validation can fail too (e.g. input nested too deep for the stack).
      let args: unknown = call.arguments ?? {};
      if (core.prepareArguments) args = core.prepareArguments(args);
      args = dropNulls(args, nullKeys);
      const parsed = core.inputSchema.safeParse(args);
      if (!parsed.success) {
        return { content: [{ type: "text", text: invalidArgumentsMessage(core.name, parsed.error) }], isError: true };
      }
      const onUpdate = core.contentResult && typeof context?.onUpdate === "function" ? context.onUpdate : undefined;
      const output = await settle(core.execute(parsed.data, { abortSignal: context?.abortSignal, toolCallId: call.id }), (value) => {
        if (!onUpdate || !(core.isProgress?.(value) ?? false)) return;
        try {
          onUpdate({ content: (value as DirectoryToolOutput).content.map((block) => ({ type: "text" as const, text: block.text })) });
        } catch {
          /* the caller's callback failing does not fail the call */
        }
      });
      if (core.contentResult) return passThrough(output as DirectoryToolOutput);
      return lower(modelOutput(core, parsed.data, output), output);
    } catch (err) {
      return { content: [{ type: "text", text: errorMessage(err) }], isError: true };
    }
  }

  // A copy of a directory tool's declaration ({ ...tools[i] }) keeps no mark: execute keeps it by name.
  for (const core of cores) if (core.contentResult) markStartsRunsNamed(execute, core.name);
  const result = { tools, execute, readOnly: cores.filter((core) => !core.mutating).map((core) => core.name) };
  // ws:tools reads it: relative paths resolve against it, and the set is confined already
  // (on execute too, so a copy { ...result } keeps it).
  if (options.root !== undefined) for (const marked of [result, execute, ...tools]) markToolRoot(marked, normalizeRoot(options.root));
  return result;
}
export { forPiTools } from "../modules/tools.js";
export type { ForPiToolsOptions, ToolBinding } from "../modules/tools.js";

/**
 * A pi agent tool as {@link forPiTools} takes it (pi's `AgentTool`, declared
 * structurally): `{ name, parameters?, prepareArguments?, execute(toolCallId, args, signal?, onUpdate?) }`.
 */
export type PiAgentTool = PiAgentToolLike;

/** What a {@link PiAgentTool}'s `execute` resolves to: `{ content, details?, isError?, structuredContent? }`. */
export type PiAgentToolResult = Awaited<ReturnType<PiAgentToolLike["execute"]>>;

/**
 * The call `forPiTools`' `validate` option receives (pi's `validateToolCall`
 * argument): `{ type: "toolCall", id, name, arguments }`.
 */
export type PiToolCallRequest = Parameters<NonNullable<ForPiToolsOptions["validate"]>>[1];
