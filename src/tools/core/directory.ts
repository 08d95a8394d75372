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
import type { CoreTool, CoreToolCallContext } from "./types.js";
import { toolExportName } from "../../modules/tools.js";

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
 * call's `abortSignal` (abort kills the run) and `toolCallId`, yields a
 * progress snapshot per `onUpdate`, then the result. It never throws: every
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
      return runWithProgress(tool, options, timeoutMs, input, context);
    },
  };
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
  const run = runToolDirectory(tool, {
    workspace: options.workspace,
    params: input,
    toolCallId: context?.toolCallId,
    signal: context?.abortSignal,
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
  yield result!;
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
  if (option.tools.length === 0) return [];
  const runtime = workspace.runtime as Partial<ToolRunWorkspace["runtime"]> | undefined;
  if (!runtime || typeof runtime.exec !== "function" || typeof runtime.backends !== "function") {
    throw new TypeError(`${where}: directory tools run in the Workspace's backends, so the workspace needs a runtime (a Workspace with backends, or a getWorkspace() client)`);
  }
  if (option.env !== undefined) {
    if (option.env === null || typeof option.env !== "object" || Array.isArray(option.env)) throw new TypeError(`${where}: env must be an object of strings`);
    for (const [name, value] of Object.entries(option.env)) {
      if (typeof value !== "string") throw new TypeError(`${where}: env.${name} must be a string, got ${value === null ? "null" : typeof value}`);
    }
  }
  if (option.timeoutMs !== undefined && (typeof option.timeoutMs !== "number" || !Number.isFinite(option.timeoutMs) || option.timeoutMs <= 0)) {
    throw new TypeError(`${where}: timeoutMs must be a positive number of milliseconds, got ${String(option.timeoutMs)}`);
  }
  const seen = new Set(reserved);
  const exported = new Map(reserved.map((name) => [toolExportName(name), name]));
  const tools: CoreTool[] = [];
  for (const [i, tool] of option.tools.entries()) {
    if (!tool || typeof tool !== "object" || typeof tool.name !== "string" || !tool.inputs || typeof tool.inputs !== "object" || typeof tool.entry !== "string") {
      throw new TypeError(`${where}: tools[${i}] is not a tool directory as loadToolDirectories returns it (name, inputs, entry, language…)`);
    }
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
