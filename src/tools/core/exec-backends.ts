/**
 * Which backends exec offers and how it presents them to the model (spec 03
 * §4.8, §2.1): the selection (ids, which are callable, their descriptions),
 * the tool description, and the input schema, whose fields depend on the
 * selection.
 *
 * @module
 */
import { z } from "zod";
import { escapeProtoKeys, unescapeProtoKeys } from "./proto-keys.js";
import { formatSize } from "./exec-output.js";

/** Backends the exec tool may use: id → optional extra description (spec 03 §2.1). */
export type ExecBackends = Readonly<Record<string, ExecBackendOptions>>;

/** Per-backend exec options. */
export interface ExecBackendOptions {
  /**
   * Text placed before the backend's own description in the exec tool
   * description, a blank line between them (spec 03 §4.8). Default: none
   * (the backend's own text alone; when both are empty, a one-line default).
   */
  readonly description?: string;
}

/** A backend as `runtime.backends()` reports it. */
export interface BackendInfoLike {
  id: string;
  protocol?: string;
  callable?: boolean;
  description?: string;
}

/** What backend selection reads from `workspace.runtime`. */
export interface BackendListLike {
  readonly exec?: unknown;
  backends?(): readonly BackendInfoLike[];
}

/** Input of the exec tool (the fields present depend on the backends). */
export interface ExecInput {
  /** A shell command for shell backends, or ES module source (its default export runs) for callable backends. */
  command: string;
  /** Working directory. Default: the workspace root. */
  cwd?: string;
  /** Id of the backend to run it on (in the schema only when there are several). Default: the first. */
  backend?: string;
  /** Environment variables for this run. Default: none. A `"__proto__"` name is kept as an ordinary variable. */
  env?: Record<string, string>;
  /**
   * JSON value handed to a callable backend's module (in the schema only for callable backends). Default: none.
   * A `"__proto__"` key at any depth is kept as an ordinary key (validated like the others), as the runtime keeps it.
   */
  input?: Record<string, unknown>;
}

/** The backends one exec tool offers. */
export interface Selection {
  /** Ids in order. */
  ids: string[];
  /** Ids of callable (module) backends, which accept `input`. */
  callable: Set<string>;
  /** Id → what the model reads about it. */
  texts: Map<string, string>;
}

/**
 * The backends to offer: `backends` when given (each must be one the runtime
 * lists, when it can list), else every backend `runtime.backends()` lists.
 *
 * @throws TypeError without `runtime.exec`, for an unknown id, or for an empty selection.
 */
export function selectBackends(runtime: BackendListLike | undefined, backends: ExecBackends | undefined): Selection {
  if (!runtime || typeof runtime.exec !== "function") throw new TypeError("createExecTool: workspace.runtime.exec is required");
  const listed = typeof runtime.backends === "function" ? runtime.backends() : undefined;
  if (!backends && !listed) throw new TypeError("createExecTool: pass `backends`; this workspace cannot list its backends");
  const ids = backends ? Object.keys(backends) : listed!.map((b) => b.id);
  if (listed) {
    for (const id of ids) {
      if (!listed.some((b) => b.id === id)) {
        const have = listed.length > 0 ? listed.map((b) => JSON.stringify(b.id)).join(", ") : "none";
        throw new TypeError(`createExecTool: unknown backend ${JSON.stringify(id)}; the workspace has ${have}`);
      }
    }
  }
  if (ids.length === 0) throw new TypeError("createExecTool: no backends to run on");
  const callable = new Set<string>();
  const texts = new Map<string, string>();
  for (const id of ids) {
    const info = listed?.find((b) => b.id === id);
    if (info?.callable === true) callable.add(id);
    const parts = [backends?.[id]?.description, info?.description].filter((p): p is string => typeof p === "string" && p.trim() !== "");
    texts.set(id, parts.length > 0 ? parts.join("\n\n") : callable.has(id) ? "Runs `command` as module source." : "Runs shell commands.");
  }
  return { ids, callable, texts };
}

/** The exec tool description for a selection and its output limits. */
export function describeExec(sel: Selection, maxBytes: number, maxLines: number): string {
  const output = `Each of stdout and stderr is cut to its last ${maxLines} lines or ${formatSize(maxBytes)}, whichever comes first; the full output then goes to a file that the reply names, which read and grep can open.`;
  const hint = "Prefer read, write and edit for looking at and changing files.";
  const shell = `Good for builds, tests, typechecks, formatters and git plumbing. ${hint} ${output}`;
  if (sel.ids.length === 1) {
    const id = sel.ids[0]!;
    if (sel.callable.has(id)) {
      return `Runs code in the workspace.\n\n${sel.texts.get(id)}\n\nPass structured values in \`input\`; the module's return value comes back in \`result\`. ${hint} ${output}`;
    }
    return `Runs a shell command in the workspace.\n\n${sel.texts.get(id)}\n\n${shell}`;
  }
  // A backend's text may run to several paragraphs or a list of its own (the JavaScript backend lists its
  // modules): its continuation lines are indented under its item, so they cannot read as further backends.
  const nest = (text: string) => text.replace(/\n(?!\n|$)/g, "\n  ");
  const lines = sel.ids.map((id) => `- ${JSON.stringify(id)}${sel.callable.has(id) ? " (callable)" : ""}: ${nest(sel.texts.get(id)!)}`);
  let text =
    "Runs a command on one of several backends. They differ in what they can run and how fast they start; pick the cheapest one that can do the job.\n\n" +
    `Backends:\n${lines.join("\n")}\n\n` +
    'Name a backend on every call. If a backend answers "command not found" or lacks a tool, retry on another backend.\n\n' +
    shell;
  if (sel.callable.size > 0) {
    const ids = [...sel.callable].map((id) => JSON.stringify(id)).join(", ");
    text += `\n\nCallable backends (${ids}) run \`command\` as module source: pass structured values in \`input\` and the return value comes back in \`result\`. The other backends reject \`input\`.`;
  }
  return text;
}

const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** How many levels of objects and arrays exec's `input` may nest (the `input` object itself is level 1). */
export const MAX_INPUT_DEPTH = 64;

/**
 * Whether `value` nests objects/arrays deeper than {@link MAX_INPUT_DEPTH},
 * walked with an explicit stack so that no depth can overflow the call stack
 * (and cycles stop at the limit).
 */
export function nestedTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > MAX_INPUT_DEPTH) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * exec's `input`: a JSON object, at most {@link MAX_INPUT_DEPTH} levels deep.
 * The depth is checked iteratively before zod's recursive validation runs, so
 * a deeper value is rejected with `input is nested deeper than 64 levels` instead of
 * overflowing the stack. (A preprocess keeps the JSON Schema that of the record.)
 * A `"__proto__"` key, at any depth, is checked and kept like any other
 * (zod alone would drop it: see proto-keys.ts).
 */
const inputValue = z.preprocess((value, ctx) => {
  if (!nestedTooDeep(value)) return escapeProtoKeys(value, true);
  ctx.addIssue({ code: "custom", message: `input is nested deeper than ${MAX_INPUT_DEPTH} levels`, input: value });
  return z.NEVER;
}, z.record(z.string(), jsonValue).overwrite(unescapeProtoKeys));

/** exec's `env`: strings by name; a `"__proto__"` name is checked and kept like any other (see proto-keys.ts). */
const envValue = z.preprocess((value) => escapeProtoKeys(value, false), z.record(z.string(), z.string()).overwrite(unescapeProtoKeys));

/** exec's input schema for a selection: `backend` only with several backends, `input` only with a callable one. */
export function execInputSchema(sel: Selection): z.ZodType<ExecInput> {
  const allCallable = sel.ids.every((id) => sel.callable.has(id));
  const noneCallable = sel.callable.size === 0;
  const commandHint = allCallable
    ? "Module source to run: an ES module whose default export does the work."
    : noneCallable
      ? "Shell command to run, e.g. `npm test`."
      : "A shell command (e.g. `npm test`) for shell backends, or module source for callable backends.";
  const shape: Record<string, z.ZodType> = {
    command: z.string().describe(commandHint),
    cwd: z.string().optional().describe("Working directory (default: the workspace root)."),
  };
  if (sel.ids.length > 1) {
    shape.backend = z
      .enum(sel.ids as [string, ...string[]])
      .describe("Backend to run on, from the list in the tool description. If a tool is missing there, retry on another backend.");
  }
  shape.env = envValue.optional().describe("Environment variables for this run only.");
  if (sel.callable.size > 0) {
    shape.input = inputValue.optional().describe("Structured input (JSON object) passed to a callable backend's module.");
  }
  return z.object(shape) as unknown as z.ZodType<ExecInput>;
}

/**
 * exec's `prepareArguments` for a selection with a callable backend: an
 * `input` sent as a JSON object string is parsed; anything else is left for
 * validation to report.
 */
export function parseInputArgument(args: unknown): unknown {
  if (!args || typeof args !== "object") return args;
  const raw = (args as { input?: unknown }).input;
  if (typeof raw !== "string" || !raw.trimStart().startsWith("{")) return args;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return { ...(args as object), input: parsed };
  } catch {
    /* left as is; validation reports it */
  }
  return args;
}
