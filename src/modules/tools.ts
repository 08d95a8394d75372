/**
 * `ws:tools` (spec 02 §4.2): the agent's own tools, callable from isolate
 * code. `createToolBindings()` turns tool bindings into a host-module
 * factory; `forAISDKTools()` and `forPiTools()` build bindings from an AI
 * SDK `ToolSet` or pi tools.
 *
 * ```ts
 * new WorkerJavaScriptBackend({
 *   loader: env.LOADER,
 *   modules: { "ws:tools": createToolBindings(forAISDKTools(() => tools)) },
 * });
 * // in the isolate:
 * import { read } from "ws:tools";
 * const { text } = await read({ path: "/workspace/README.md" });
 * ```
 *
 * This module imports no agent library; the tool shapes are structural.
 *
 * @module
 */
import type { WorkspaceRuntimeValue } from "../runtime/types.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleFactory, WorkspaceModuleFunctions } from "./types.js";
import { isUnder, normalizePath } from "../util/path.js";
import { isReadOnlyLibraryTool, libraryToolName, runStarterName, startsRunsNamed, toolRootOf } from "../tools/core/root.js";
import { atMostOnce, lostCallError, markAtMostOnce } from "./replay.js";
import { cutWithMark } from "../util/cut.js";
import { echoedText } from "../tools/core/paging.js";
import { measure } from "../runtime/json-value.js";

/** Characters of a validation failure a host tool call rejects with (the tools' `INVALID_ARGUMENTS_MAX_CHARS`, 4,096). */
const HOST_INVALID_ARGUMENTS_MAX_CHARS = 4096;

export type { WorkspaceModuleCallContext, WorkspaceModuleFactory, WorkspaceModuleFunctions, WorkspaceModuleHost, WorkspaceModule } from "./types.js";

/** One tool as isolate code can call it. */
export interface ToolBinding {
  /**
   * The tool's name. Isolate code imports it under its export name
   * (spec 02 §4.2): `-`, `.` and whitespace become `_`, other
   * non-identifier characters are dropped (`list-files` → `list_files`).
   */
  name: string;
  /** True when the tool never changes anything (allowed on `access: "read"` backends). Default `false`. */
  readOnly?: boolean;
  /**
   * Runs the tool. `input` is the one object isolate code passed (`{}` when
   * none), JSON-normalised; `ctx` is the host call's context (its `signal`
   * aborts at the call's deadline or when the run is cancelled). A throw or
   * rejection rejects the call in the isolate with the same `message`.
   */
  call(input: Record<string, WorkspaceRuntimeValue>, ctx: WorkspaceModuleCallContext): ToolBindingResult | Promise<ToolBindingResult>;
}

/** What a call returns to isolate code. */
export interface ToolBindingResult {
  /** The tool's output as text (what the model would see); converted with `String()`. */
  text: string;
  /** `true` when the tool reported an error (the call still resolves); anything but `true` counts as `false`. */
  isError: boolean;
  /**
   * Structured output (JSON data), when the tool has some; the key is absent otherwise (an AI SDK tool's string
   * output, pi `details` that only repeat the content: the text holds them).
   */
  details?: WorkspaceRuntimeValue;
  /** The tool's `structuredContent` (JSON data), when it has some; the key is absent otherwise. */
  structuredContent?: WorkspaceRuntimeValue;
}

/** A binding source: bindings, or a function returning them (called per connection). */
export type ToolBindingSource = Iterable<ToolBinding> | (() => Iterable<ToolBinding>);

/** What {@link createToolBindings} takes (0.8.0's name): bindings, or a function returning them. Same as {@link ToolBindingSource}. */
export type ToolBindings = ToolBindingSource;

/** Options of {@link createToolBindings}. */
export interface CreateToolBindingsOptions {
  /**
   * Tool names not exported. Default `["exec"]`. A name matches a binding's
   * name, and also the library tool a binding runs whatever its name
   * (`forAISDKTools`/`forPiTools` over the library's tools, copies
   * included): the library's exec exported as `{ bash: tools.exec }` is left
   * out too, unless `exclude` leaves `"exec"` out.
   */
  exclude?: readonly string[];
  /**
   * Export TOOL.md directory tools too (issue 19; bindings made by
   * `forPiTools`/`forAISDKTools` over a tool set with `toolDirectories`).
   * Like exec, they run in the Workspace's backends and are **not confined
   * to the calling run's `root`**, and they let isolate code start runs, so
   * they are left out unless this is `true`. Default `false`.
   */
  runTools?: boolean;
  /**
   * Replaces the generated description (what the JavaScript backend shows
   * the model for `ws:tools`). Default: a text explaining the name mapping
   * and the `{ text, details, isError }` result, listing the export names
   * when the source is an array or a function, and naming the excluded tools.
   */
  description?: string;
}

/** Options of {@link createToolBindings} (0.8.0's name): `{ exclude?, description? }`. Same as {@link CreateToolBindingsOptions}. */
export type ToolBindingsOptions = CreateToolBindingsOptions;

const RESERVED_EXPORTS = new Set(["default", "then", "__proto__"]);

/**
 * The library's file tools (spec 03), by name: their `path` argument is
 * confined to the run's root. The value is the path used when the call
 * gives none (find's and grep's default, `/workspace`); `undefined` when
 * the tool requires one.
 */
const FILE_TOOL_DEFAULT_PATHS: ReadonlyMap<string, string | undefined> = new Map([
  ["read", undefined],
  ["ls", undefined],
  ["find", "/workspace"],
  ["grep", "/workspace"],
  ["write", undefined],
  ["edit", undefined],
  ["delete", undefined],
  ["publish", undefined],
]);

/**
 * Where a binding's tool resolves a relative `path`: the `root` its tool
 * set was built with, or `undefined` (unrooted or unknown: against `/`).
 */
const TOOL_ROOT = Symbol("ws:tools tool root");
/**
 * Set on a binding whose tool may start runs in the Workspace's backends (a TOOL.md directory tool): the name of
 * the directory tool under the binding's name now, or `undefined` when it starts none (read on every call, as a
 * function source may swap the tool under a name after connect).
 */
const STARTS_RUNS = Symbol("ws:tools starts runs");
/** Set on a binding over one of the library's own tools: its spec name (`read`, …), whatever the binding's name. */
const LIBRARY_TOOL = Symbol("ws:tools library tool");
type RootedBinding = ToolBinding & { [TOOL_ROOT]?: () => string | undefined; [STARTS_RUNS]?: () => string | undefined; [LIBRARY_TOOL]?: () => string | undefined };

/**
 * Checks the path a file tool will use against the run's root with
 * `ctx.resolvePath` — the run's own `node:fs` check: confined to the root,
 * no symbolic link on the way (a missing path is allowed). The path is
 * `input.path` (`fallback` when absent or `null`) taken as the tool takes it:
 * relative to `toolRoot`, or `/` for a set without one. A tool set built
 * with a `root` at or under the run's root is confined at least as
 * strictly already (spec 03 §2.4) and is not checked twice for a path
 * under the run's root; a path outside it (the full-output logs the set's
 * exec noted, which its read and grep open) is checked.
 *
 * @returns `undefined` when the call may run, else the tool error it
 *   resolves to: `{ text: "<CODE>: <message>", isError: true, details: { code, path } }`
 *   with the code `node:fs` gives (`EACCES` outside the root or through a
 *   link, `EINVAL` for a NUL byte). A non-string `path`, or none where the
 *   tool requires one, is left to the tool's own validation.
 */
async function refusedPath(
  input: Record<string, WorkspaceRuntimeValue>,
  fallback: string | undefined,
  toolRoot: string | undefined,
  ctx: WorkspaceModuleCallContext,
): Promise<ToolBindingResult | undefined> {
  // `null` counts as absent: pi's tool set drops a null optional argument before validation (strict
  // sampling sends an omitted field as null), and the tool then takes its default path.
  const given = input.path === undefined || input.path === null ? fallback : input.path;
  if (typeof given !== "string") return undefined;
  const target = given.includes("\0") ? given : normalizePath(given, toolRoot ?? "/");
  // A set rooted at or under the run's root confines the paths under the run's root itself; one outside it (the
  // full-output logs its exec noted, which its read and grep open) is the run's to refuse.
  if (toolRoot !== undefined && isUnder(toolRoot, ctx.root) && (given.includes("\0") || isUnder(target, ctx.root))) return undefined;
  try {
    await ctx.resolvePath(target, { allowMissing: true });
    return undefined;
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code !== "string") throw err;
    const message = (err as Error).message;
    let text = message.startsWith(`${code}:`) ? message : `${code}: ${message}`;
    // The path as the tools echo one: cut past 4,096 characters (echoedText) — the one given, its normalised form,
    // and the path the error names (`err.path`: the link a `cannot traverse symbolic link` stops at).
    const named = (err as { path?: unknown }).path;
    for (const path of [given, target, typeof named === "string" ? named : ""]) if (echoedText(path) !== path) text = text.split(path).join(echoedText(path));
    return { text, isError: true, details: { code, path: echoedText(given) } };
  }
}

/** The export name of a tool: `-`, `.`, whitespace → `_`; others dropped; leading digit prefixed; reserved names suffixed. */
export function toolExportName(name: string): string {
  let out = name.replace(/[-.\s]/g, "_").replace(/[^A-Za-z0-9_$]/g, "");
  if (out === "") out = "_";
  if (/^[0-9]/.test(out)) out = `_${out}`;
  if (RESERVED_EXPORTS.has(out)) out = `${out}_`;
  return out;
}

function isPlainObject(value: unknown): value is Record<string, WorkspaceRuntimeValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A `ws:tools` host-module factory over tool bindings.
 *
 * Calls are confined like the run's own files: a mutating binding (not
 * `readOnly`) needs `access: "read-write"`, and the `path` of the library's
 * file tools (bindings named read, ls, find, grep, write, edit, delete,
 * publish) is checked with `ctx.resolvePath` — the run's `node:fs` check:
 * under the backend's `root`, no symbolic link on the way — before the tool
 * runs. The path is checked as the tool will use it (relative to the tool
 * set's own `root`, else to `/`; find and grep without a `path` check
 * their default, `/workspace`) and passed on unchanged. Tool sets built
 * with a `root` at or under the backend's are confined already and not
 * checked again for a path under the backend's root; one outside it — the
 * full-output log their exec noted under `/.computer/output`, which their
 * read and grep open for the model — is checked, so a run cannot read it
 * (behaviour changed after 0.8.0). A refused path resolves the call, without running the
 * tool, to `{ text: "EACCES: paths must stay under <root>: <path>",
 * isError: true, details: { code: "EACCES", path } }` (`EACCES: cannot
 * traverse symbolic link: <link>` for a link; `EINVAL` for a NUL byte).
 * Other tools get `ctx` and must keep to `ctx.root` themselves. The
 * `exclude`d tools (default exec) are left out by name and, for the
 * library's own tools, whatever name they are exported under (copies
 * included); TOOL.md directory tools (which run in the backends,
 * unconfined, like exec) are left out unless `runTools: true`. The tool
 * under a binding's name is checked again at every call (a function source
 * may swap it after connect): one that has become an excluded library tool
 * is refused — `ws:tools <export>: the tool under this name is now
 * "<name>", which is not exported; it is not run.` — and so is one that has
 * become a directory tool without `runTools` — `ws:tools <export>: the tool
 * under this name is now the directory tool "<name>", which is not
 * exported; it is not run.`. The check is made again just before the tool
 * runs; a tool that changed in between (another library tool, or another
 * tool set's `root`) is refused: `ws:tools <export>: the tool under this
 * name changed while the call was being checked; it is not run.`
 *
 * In a replay run (`onInterrupt: "replay"`) a changing binding (not
 * `readOnly`) runs at most once (`atMostOnce`, its start journaled before
 * it runs): a call in flight when the run was interrupted is not run again
 * when it resumes and rejects with code `EEXEC_LOST` (`ws:tools <export>:
 * this call was in flight when the run was interrupted …`). Read-only
 * bindings run again.
 *
 * @throws at connect: `Two tools are exported as "<n>".` on a name collision.
 */
export function createToolBindings(source: ToolBindingSource, options: CreateToolBindingsOptions = {}): WorkspaceModuleFactory {
  const exclude = new Set(options.exclude ?? ["exec"]);
  // By its name, or by the library tool it is under any name (a renamed `{ bash: tools.exec }`, a copy).
  const excluded = (b: ToolBinding): boolean => {
    if (exclude.has(b.name)) return true;
    const kind = (b as RootedBinding)[LIBRARY_TOOL]?.();
    return kind !== undefined && exclude.has(kind);
  };
  /**
   * The tool under a binding's name now (a function source may have swapped it since connect): its kind — the
   * library tool it is (a renamed `{ read_file: tools.read }` included), else the binding's name — and its tool
   * set's root. Throws when it is one left out: an excluded library tool, or a directory tool without `runTools`.
   */
  const toolNow = (binding: RootedBinding, exportName: string): { kind: string; toolRoot: string | undefined } => {
    const kind = binding[LIBRARY_TOOL]?.() ?? binding.name;
    if (exclude.has(kind)) throw new Error(`ws:tools ${exportName}: the tool under this name is now "${kind}", which is not exported; it is not run.`);
    const runner = options.runTools === true ? undefined : binding[STARTS_RUNS]?.();
    if (runner !== undefined) {
      throw new Error(`ws:tools ${exportName}: the tool under this name is now the directory tool "${runner}", which is not exported; it is not run.`);
    }
    return { kind, toolRoot: binding[TOOL_ROOT]?.() };
  };
  let describing = false;
  const list = (): ToolBinding[] =>
    [...(typeof source === "function" ? source() : source)].filter(
      (b) => !excluded(b) && (options.runTools === true || (b as RootedBinding)[STARTS_RUNS]?.() === undefined),
    );
  const factory = (() => {
    const bindings = list();
    const exports: Record<string, WorkspaceModuleFunctions[string]> = {};
    for (const binding of bindings) {
      const exportName = toolExportName(binding.name);
      if (Object.prototype.hasOwnProperty.call(exports, exportName)) throw new Error(`Two tools are exported as "${exportName}".`);
      exports[exportName] = async (args, ctx) => {
        if (args.length > 1) throw new TypeError(`ws:tools ${exportName} takes one object argument, got ${args.length} arguments`);
        const input = args.length === 0 || args[0] === null ? {} : args[0];
        if (!isPlainObject(input)) throw new TypeError(`ws:tools ${exportName} takes one object argument`);
        if (!binding.readOnly && ctx.access !== "read-write") throw new Error(`ws:tools ${binding.name} requires Workspace write access.`);
        if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("the call was aborted");
        const checked = toolNow(binding as RootedBinding, exportName);
        if (FILE_TOOL_DEFAULT_PATHS.has(checked.kind)) {
          const refused = await refusedPath(input, FILE_TOOL_DEFAULT_PATHS.get(checked.kind), checked.toolRoot, ctx);
          if (refused) return refused;
        }
        // Checked again in the same turn as the call reads its tool: the tool may have been swapped during the awaits.
        const call = (): ToolBindingResult | Promise<ToolBindingResult> => {
          const now = toolNow(binding as RootedBinding, exportName);
          if (now.kind !== checked.kind || now.toolRoot !== checked.toolRoot) {
            throw new Error(`ws:tools ${exportName}: the tool under this name changed while the call was being checked; it is not run.`);
          }
          return binding.call(input, ctx);
        };
        // A changing tool runs at most once in a replay run: resumed after an interruption, it is not run again.
        const result = binding.readOnly
          ? await call()
          : await atMostOnce(ctx, "ws:tools", {
              run: async () => call(),
              resume: async (id) => {
                throw lostCallError(
                  `ws:tools ${exportName}: this call was in flight when the run was interrupted (call "${id}"), and the tool may have made its change; it is not run again. Read what it changes to see whether it was made.`,
                );
              },
            });
        const out: ToolBindingResult = { text: String(result.text), isError: result.isError === true };
        if (result.details !== undefined) out.details = result.details;
        if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
        // An answer the bridge would refuse (E2BIG after the tool ran) becomes an error result saying the tool ran.
        const limit = ctx.maxResponseBytes;
        if (typeof limit === "number") {
          const size = measure(out);
          if (size > limit) return unsendableSize(binding.name, size, limit);
        }
        return out;
      };
      // Its start is journaled before it runs, so an interruption at any moment finds it in flight.
      if (!binding.readOnly) markAtMostOnce(exports[exportName]);
    }
    return exports;
  }) as WorkspaceModuleFactory & { description?: string };
  Object.defineProperty(factory, "description", {
    enumerable: true,
    get(): string {
      if (options.description !== undefined) return options.description;
      let text =
        "The agent's own tools. Each export takes one object of arguments (the tool's input) and resolves to `{ text, details, isError }`; " +
        "tool names map to export names with `-`, `.` and spaces turned into `_` (e.g. `list-files` → `list_files`).";
      const isListable = typeof source === "function" || Array.isArray(source);
      // Listing may build the tool set, which reads backend descriptions, which read this one: list once, not recursively.
      if (isListable && !describing) {
        describing = true;
        try {
          text += ` Exports: ${list().map((b) => `\`${toolExportName(b.name)}\``).join(", ")}.`;
          if (options.runTools !== true) {
            const left = [...(typeof source === "function" ? source() : source)].filter((b) => (b as RootedBinding)[STARTS_RUNS]?.() !== undefined && !excluded(b));
            if (left.length > 0) text += ` TOOL.md directory tools (${left.map((b) => `\`${b.name}\``).join(", ")}) are not exported: they run outside this run's root.`;
          }
        } catch {
          /* the list is shown when it can be read */
        } finally {
          describing = false;
        }
      }
      if (exclude.size > 0) text += ` ${[...exclude].map((n) => `\`${n}\``).join(", ")} ${exclude.size === 1 ? "is" : "are"} not exported.`;
      return text;
    },
  });
  return factory;
}

// ── AI SDK ────────────────────────────────────────────────────────────────

/**
 * What `forAISDKTools` passes as a tool's `execute` options: a fresh
 * `toolCallId` (`ws-tools-<uuid>`), no messages, and the call's abort
 * signal. No tool `context` is passed (the AI SDK itself passes
 * `undefined` when `generateText` gets no `toolsContext`).
 */
export interface AISDKToolCallOptions {
  /** `ws-tools-<uuid>`, fresh for every call. */
  toolCallId: string;
  /** The conversation so far: always `[]` (a host call has none). */
  messages: unknown[];
  /** The host call's signal (`ctx.signal`): aborts at the call's deadline or when the run is cancelled. Always set by `forAISDKTools`; no default. */
  abortSignal?: AbortSignal;
  /** Tool context: never passed by `forAISDKTools` (absent, no default), as when `generateText` gets no `toolsContext`. */
  context?: unknown;
}

/**
 * The part of an AI SDK tool `forAISDKTools` uses. Any AI SDK `Tool` and any
 * `ToolSet` (including `createAITools()`) fits, whatever its `context` type:
 * `execute` is declared as a method (so its parameters are compared
 * bivariantly) because AI SDK 7's `ToolExecutionOptions` requires a
 * `context` (typed per tool) and `messages: ModelMessage[]`, while
 * `forAISDKTools` passes no context and no messages.
 */
export interface AISDKToolLike {
  /**
   * The tool's input schema. When it has `safeParse` (a zod schema) the
   * input is validated and the parsed value used; a failure rejects with
   * TypeError `Invalid arguments for <name>: <message>`. Other schemas are
   * not checked.
   */
  inputSchema?: unknown;
  /** Any truthy value (a function included) leaves the tool out: a host call cannot ask for approval. */
  needsApproval?: unknown;
  /** Called with {@link AISDKToolCallOptions}; its result (or an async iterable's last value) becomes the binding's result. */
  execute?(input: any, options: AISDKToolCallOptions): unknown;
}

type SafeParse = (value: unknown) => { success: true; data: unknown } | { success: false; error: { message: string } };

function validateWith(schema: unknown, name: string, input: unknown): unknown {
  const s = schema as { safeParse?: SafeParse; "~standard"?: { validate: (v: unknown) => unknown } } | undefined;
  if (s && typeof s.safeParse === "function") {
    const parsed = s.safeParse(input);
    // The schema library's message can list every issue of a huge input: at most HOST_INVALID_ARGUMENTS_MAX_CHARS of it.
    if (!parsed.success) throw new TypeError(cutWithMark(`Invalid arguments for ${name}: ${String(parsed.error?.message)}`, HOST_INVALID_ARGUMENTS_MAX_CHARS));
    return parsed.data;
  }
  return input;
}

async function lastValue(value: unknown): Promise<unknown> {
  const v = await value;
  if (v && typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    let last: unknown;
    for await (const item of v as AsyncIterable<unknown>) last = item;
    return last;
  }
  return v;
}

/**
 * `value` as JSON text (`"null"` for `undefined`, a function or a symbol, as
 * `JSON.stringify` leaves them out), or the error that stopped it (a BigInt, a
 * cycle, a throwing getter or `toJSON`): never throws.
 */
function jsonText(value: unknown): string | Error {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** `value` through JSON (see {@link jsonText}); `null` when it has no JSON form. */
function jsonRoundTrip(value: unknown): WorkspaceRuntimeValue {
  const text = jsonText(value);
  return text instanceof Error ? null : (JSON.parse(text) as WorkspaceRuntimeValue);
}

/** The result of a tool that ran but whose output has no JSON form: an error result saying so (the tool's effects stand). */
function unsendableOutput(name: string, error: Error): ToolBindingResult {
  let reason: string;
  try {
    reason = cutWithMark(`${error.name}: ${error.message}`, 1024);
  } catch {
    reason = "an error that cannot be printed";
  }
  return { text: `Tool "${name}" ran, but its output cannot be sent as JSON (${reason}); what it did stands.`, isError: true, details: null };
}

/**
 * The result of a tool that ran but whose answer measures more than the host call may return
 * (`ctx.maxResponseBytes`): an error result saying so (the tool's effects stand).
 */
function unsendableSize(name: string, size: number, limit: number): ToolBindingResult {
  return {
    text: `Tool "${name}" ran, but its result (${size} bytes) is more than a ws:tools call may return (${limit} bytes: the backend's maxCapabilityBytes, or what is left of the run's maxCapabilityResponseBytes); what it did stands. Ask it for less, or have it write its output to a file and read that.`,
    isError: true,
    details: null,
  };
}

/**
 * Bindings over an AI SDK `ToolSet` (or a function returning one, re-read
 * on every call). Tools without `execute` or with `needsApproval` are left out.
 * Each call validates the input against the tool's `inputSchema`, then runs
 * `execute(input, { toolCallId: "ws-tools-<uuid>", messages: [], abortSignal })`
 * ({@link AISDKToolCallOptions}). The library's tools that change nothing —
 * read, ls, find and grep of `createAITools()`, of the one-by-one factories
 * (`createReadTool`, `createListTool`, `createFindTool`, `createGrepTool`) or
 * of `createTanStackTools({ format: "object" })`, under any key, copies included (recognised by their
 * `execute`) — are marked `readOnly`: callable on `access: "read"` backends,
 * and run again when a replay run resumes. Every other tool is not.
 *
 * @example
 * ```ts
 * createToolBindings(forAISDKTools(createAITools({ workspace })));   // no cast needed with ai@7
 * ```
 */
export function forAISDKTools(tools: Record<string, AISDKToolLike> | (() => Record<string, AISDKToolLike>)): () => ToolBinding[] {
  const current = () => (typeof tools === "function" ? tools() : tools);
  return () =>
    Object.entries(current())
      .filter(([, tool]) => typeof tool?.execute === "function" && !tool.needsApproval)
      .map(([name, tool]): RootedBinding => {
        // by the function that runs: the library's read, ls, find, grep (core `mutating: false`)
        const readOnly = isReadOnlyLibraryTool(tool.execute);
        return {
          name,
          readOnly,
          [TOOL_ROOT]: () => toolRootOf(current()[name]) ?? toolRootOf(current()[name]?.execute),
          [STARTS_RUNS]: () => {
            const now = current()[name];
            const runner = runStarterName(now) ?? runStarterName(now?.execute);
            return runner === undefined ? undefined : runner || name;
          },
          [LIBRARY_TOOL]: () => libraryToolName(current()[name]) ?? libraryToolName(current()[name]?.execute),
          async call(input, ctx) {
            const tool = current()[name];
            if (!tool || typeof tool.execute !== "function" || tool.needsApproval) throw new Error(`No tool named "${name}" is available.`);
            // A binding listed read-only runs unchecked and unjournaled: the tool under its name now must be read-only too.
            if (readOnly && !isReadOnlyLibraryTool(tool.execute)) throw new Error(`Tool "${name}" is no longer read-only; it is not run.`);
            const args = validateWith(tool.inputSchema, name, input);
            const output = await lastValue(tool.execute(args, { toolCallId: `ws-tools-${crypto.randomUUID()}`, messages: [], abortSignal: ctx.signal }));
            const json = jsonText(output);
            if (json instanceof Error) return unsendableOutput(name, json);
            // A string output is the text alone: repeating it as `details` would send it twice.
            if (typeof output === "string") return { text: output, isError: false };
            const details = JSON.parse(json) as WorkspaceRuntimeValue;
            const error = typeof details === "object" && details !== null && !Array.isArray(details) && typeof details.error === "string" ? details.error : undefined;
            return { text: error ?? json, isError: error !== undefined, details };
          },
        };
      });
}

// ── pi ────────────────────────────────────────────────────────────────────

/** A pi result content part. */
type PiContent = { type: string; text?: string; mimeType?: string };

/** A pi agent tool (`AgentTool` shape). */
export interface PiAgentToolLike {
  /** The tool's name (exported under its export name, see {@link ToolBinding.name}). */
  name: string;
  /** The tool's parameter schema; not read here (pass `validate` to check arguments against it). */
  parameters?: unknown;
  /** Rewrites the raw arguments before validation (pi's `AgentTool.prepareArguments`). */
  prepareArguments?: (args: unknown) => unknown;
  /**
   * Runs the tool: `toolCallId` is `ws-tools-<uuid>`, `args` the prepared
   * and validated arguments, `signal` the host call's signal; `onUpdate` is
   * never passed. Text parts of `content` are joined with `\n` into the
   * binding's `text`, an image part becomes `[image: <mime>]`, another part `[<type>]`.
   */
  execute(toolCallId: string, args: any, signal?: AbortSignal, onUpdate?: unknown): Promise<{ content: PiContent[]; details?: unknown; isError?: boolean; structuredContent?: unknown }>;
}

/** The result of `createPiTools()`. */
export interface PiToolsResultLike {
  /** The tools, by name; each becomes a binding. */
  tools: readonly { name: string }[];
  /** Names of the tools that change nothing (`createPiTools()` lists read, ls, find and grep); marked `readOnly`. */
  readOnly?: readonly string[];
  /**
   * Runs one call (`createPiTools().execute`): `call.id` is `ws-tools-<uuid>`,
   * `arguments` the object isolate code passed, `abortSignal` the host
   * call's signal. Validation happens inside, as for the model's calls.
   */
  execute(call: { id: string; name: string; arguments?: unknown }, ctx?: { abortSignal?: AbortSignal }): Promise<{ content: PiContent[]; isError: boolean; details?: unknown }>;
}

/** Options of {@link forPiTools} over agent tools. */
export interface ForPiToolsOptions {
  /**
   * Validates arguments (e.g. pi's `validateToolCall`) after
   * `prepareArguments`; returns the arguments to use, and throws to reject
   * the call. Default: none (arguments are passed unchecked).
   */
  validate?: (tool: PiAgentToolLike, call: { type: "toolCall"; id: string; name: string; arguments: unknown }) => unknown;
  /** Names of tools that change nothing: their bindings are `readOnly` (callable on `access: "read"` backends). Default `[]`. */
  readOnly?: readonly string[];
}

/** Whether pi `details` are `{ content, isError? }` whose text parts joined with `\n` are `text`. */
function repeatsContent(details: unknown, text: string): boolean {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return false;
  const keys = Object.keys(details);
  if (!keys.includes("content") || !keys.every((k) => k === "content" || k === "isError")) return false;
  const content = (details as { content?: unknown }).content;
  if (!Array.isArray(content)) return false;
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part !== "object" || part === null || typeof (part as PiContent).text !== "string") return false;
    texts.push((part as PiContent).text!);
  }
  return texts.join("\n") === text;
}

function piResult(result: { content: PiContent[]; details?: unknown; isError?: boolean; structuredContent?: unknown }): ToolBindingResult {
  // A tool that ran answers whatever it answers: parts that are not objects, or not text, are named, never thrown on.
  const content: unknown[] = Array.isArray(result?.content) ? result.content : [];
  const text = content
    .map((part) => {
      if (typeof part !== "object" || part === null) return `[${typeof part}]`;
      const { type, text, mimeType } = part as PiContent;
      const name = (value: unknown) => (typeof value === "string" ? value : typeof value);
      return type === "text" ? (typeof text === "string" ? text : "") : type === "image" ? `[image: ${name(mimeType)}]` : `[${name(type)}]`;
    })
    .join("\n");
  const details = result?.details ?? null;
  const out: ToolBindingResult = { text, isError: result?.isError === true };
  // `details` that only repeat the content (`{ content, isError? }`, a directory tool's through createPiTools) are
  // left out: the text holds them, and sending them twice would halve the largest result a call can return.
  if (!repeatsContent(details, text)) out.details = jsonRoundTrip(details);
  if (result?.structuredContent !== undefined) {
    const structured = jsonText(result.structuredContent);
    if (!(structured instanceof Error)) out.structuredContent = JSON.parse(structured) as WorkspaceRuntimeValue;
  }
  return out;
}

/**
 * Bindings over pi tools: the result of `createPiTools()` (its `readOnly`
 * tools — read, ls, find, grep — marked read-only), or agent tools
 * (`{ name, execute(id, args, signal) }`).
 */
export function forPiTools(
  tools: PiToolsResultLike | readonly PiAgentToolLike[] | (() => readonly PiAgentToolLike[]),
  options: ForPiToolsOptions = {},
): () => ToolBinding[] {
  if (!Array.isArray(tools) && typeof tools !== "function" && typeof (tools as PiToolsResultLike).execute === "function") {
    const set = tools as PiToolsResultLike;
    const readOnly = new Set(set.readOnly ?? []);
    return () =>
      set.tools.map((t): RootedBinding => ({
        name: t.name,
        readOnly: readOnly.has(t.name),
        [TOOL_ROOT]: () => toolRootOf(set) ?? toolRootOf(set.execute),
        // by the declaration, or by the set's execute (a copied declaration keeps no mark)
        [STARTS_RUNS]: () => (runStarterName(t) !== undefined || startsRunsNamed(set.execute, t.name) ? t.name : undefined),
        async call(input, ctx) {
          return piResult(await set.execute({ id: `ws-tools-${crypto.randomUUID()}`, name: t.name, arguments: input }, { abortSignal: ctx.signal }));
        },
      }));
  }
  const list = () => (typeof tools === "function" ? (tools as () => readonly PiAgentToolLike[])() : (tools as readonly PiAgentToolLike[]));
  const readOnly = new Set(options.readOnly ?? []);
  return () =>
    list().map((tool): RootedBinding => ({
      name: tool.name,
      readOnly: readOnly.has(tool.name),
      [TOOL_ROOT]: () => toolRootOf(tool),
      [STARTS_RUNS]: () => (runStarterName(tool) !== undefined ? tool.name : undefined),
      [LIBRARY_TOOL]: () => libraryToolName(tool),
      async call(input, ctx) {
        const id = `ws-tools-${crypto.randomUUID()}`;
        let args: unknown = tool.prepareArguments ? tool.prepareArguments(input) : input;
        if (options.validate) args = options.validate(tool, { type: "toolCall", id, name: tool.name, arguments: args });
        return piResult(await tool.execute(id, args, ctx.signal));
      },
    }));
}
