/**
 * Running a loaded TOOL.md tool directory (spec 03 §9, seed 001) inside the
 * Workspace's own backends: {@link runToolDirectory}.
 *
 * | language | backend (default choice) | how |
 * |---|---|---|
 * | `typescript`, `javascript` | the first callable module backend (`WorkerJavaScriptBackend`) | a generated wrapper imports the entry, calls `execute(toolCallId, params, signal, onUpdate)` and returns its result; the backend strips `.ts` types (sucrase) |
 * | `bash` | the first command backend that is not a container (`WorkerShellBackend`), else a container | `bash <entry>` with `INPUT_<NAME>` variables and `$TOOL_INPUT_FILE` |
 * | `python` | a container command backend | `python3 <entry>`, same variables; no container → an error result |
 *
 * The runner never throws: every failure is a {@link ToolResult} with
 * `isError: true` and a sentence saying what went wrong.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { WorkspaceBackendInfo, WorkspaceRuntimeExecHandle, WorkspaceRuntimeLike, WorkspaceRuntimeValue } from "../runtime/types.js";
import { clipMarker } from "../fs/clip.js";
import { cutWithMark } from "../util/cut.js";
import { resolveLinks } from "./realpath.js";
import { SENSITIVE_MASK } from "./schema.js";
import type { OnUpdate, ToolDirectory, ToolInput, ToolResult, ToolResultContent } from "./types.js";
import { disposeQuietly } from "../util/dispose.js";

/** Default wall-clock limit of one tool run: 60 s (the JavaScript backend's own default). */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/**
 * Most characters of result text a bash/python tool returns, cut marker
 * included: a longer stdout keeps its `[output truncated: …]` header line
 * (when the backend saved the whole output to a file), then
 * `[… N characters cut …]`, then as much of its end as fits.
 */
export const MAX_TOOL_OUTPUT_CHARS = 65_536;
/** Most characters of an error message the runner builds from a run's stderr (the last ones are kept). */
export const MAX_TOOL_ERROR_CHARS = 4_096;
/** Most characters of one progress line (a JSON `onUpdate` payload); longer ones are dropped, not forwarded. */
export const MAX_TOOL_UPDATE_CHARS = 262_144;
/**
 * Where bash and python tools find their inputs as JSON (`$TOOL_INPUT_FILE`,
 * named `<expiry ms>-<uuid>.json`). The file is removed after the run; a
 * file left by a run that never finished (the object was reset mid-run) is
 * removed by the next bash/python run once its expiry (start + timeout +
 * 15 s) has passed. Sensitive inputs are never written to it.
 */
export const TOOL_INPUT_DIR = "/workspace/.tool-input";
/** Most entries of {@link TOOL_INPUT_DIR} one run looks at when removing expired input files. */
const MAX_INPUT_SWEEP = 256;
/** The name of an input file: `<expiry ms>-<uuid>.json`. */
const INPUT_FILE_NAME = /^(\d{1,16})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;
/** Extra time past `timeoutMs` the runner waits for the backend to end a run before it kills it itself. */
const HOST_GRACE_MS = 15_000;

/** The Workspace methods {@link runToolDirectory} uses: a `Workspace`, or the same shape. */
export interface ToolRunWorkspace {
  /** `runtime.exec`, `killExec`, `disposeExec` and `backends()`. */
  runtime: Pick<WorkspaceRuntimeLike, "exec" | "killExec" | "disposeExec" | "backends">;
  /**
   * `writeFile`, `mkdir`, `rm`: bash and python tools' `$TOOL_INPUT_FILE`.
   * Optional (a Workspace has them): `readdir` removes expired input files
   * left by runs that never finished; `lstat` and `readlink` resolve
   * symbolic links in a JavaScript/TypeScript tool's directory and entry
   * (the JavaScript backend refuses links on a path).
   */
  fs: Pick<WorkspaceFilesystem, "writeFile" | "mkdir" | "rm"> & Partial<Pick<WorkspaceFilesystem, "readdir" | "lstat" | "readlink">>;
}

/** Options of one {@link runToolDirectory} call. */
export interface RunToolDirectoryOptions {
  /** The Workspace whose backends run the tool. */
  workspace: ToolRunWorkspace;
  /** The call's id, passed to `execute` (and `$TOOL_CALL_ID` for bash/python). Default: a random UUID. */
  toolCallId?: string;
  /**
   * The model's arguments. Checked against the tool's inputs: a missing
   * required input, a wrong type or an unknown enum value is an error
   * result naming the input; defaults fill absent inputs; keys the tool
   * does not declare are dropped.
   */
  params?: Record<string, unknown>;
  /** Aborting it kills the run (`killExec`); the result is then `isError` "… was cancelled". Default: none (the run ends by itself or at its timeout). */
  signal?: AbortSignal;
  /** Receives each `onUpdate(partial)` of a JavaScript/TypeScript tool as it arrives (errors it throws are ignored). Default: none (updates are dropped). */
  onUpdate?: OnUpdate;
  /**
   * Host environment values for this run (for example Worker secrets).
   * Only the names the tool declares in its front matter `env` reach it,
   * as `process.env.<NAME>` (JavaScript) or `$NAME` (bash, python); other
   * keys are ignored, so one map may serve every tool. Their values are
   * masked (`***`) in every error text the runner builds. Default: none
   * (the tool's `process.env` is empty).
   */
  env?: Record<string, string>;
  /**
   * Wall-clock limit in ms. Default {@link DEFAULT_TOOL_TIMEOUT_MS} (60 s).
   * The JavaScript backend refuses more than its `maxTimeoutMs` (180 s by
   * default) — that is an error result too.
   */
  timeoutMs?: number;
  /** Id of the backend to run on, overriding the choice by language (see the module table). Default: chosen by the tool's language. */
  backend?: string;
}

/** An error result: one text block, `isError: true`. */
function failure(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A masking function, and the length of the longest form it masks (0 when none). */
type Masker = ((text: string) => string) & { longest: number };

/** Replaces every sensitive value (raw and JSON-escaped) in `text` with {@link SENSITIVE_MASK} (`***`). */
function masker(secrets: readonly string[]): Masker {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s === "") continue;
    forms.add(s);
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== "") forms.add(escaped);
  }
  const list = [...forms].sort((a, b) => b.length - a.length);
  const mask = (text: string) => {
    let out = text;
    for (const f of list) out = out.split(f).join(SENSITIVE_MASK);
    return out;
  };
  return Object.assign(mask, { longest: list.length > 0 ? list[0].length : 0 });
}

/** `text` masked, then its last `max` characters (masking first, so a cut never splits a secret). */
function maskedTail(mask: (text: string) => string, text: string, max: number): string {
  return tail(mask(text), max);
}

/**
 * The last `max` characters of `text` (never half a character), with a marker `…[N characters cut]…` when cut;
 * `dropped` characters already cut off before `text` (a {@link Tail}'s early cut) count in N and mark it too.
 */
function tail(text: string, max: number, dropped = 0): string {
  if (text.length <= max) return dropped > 0 ? `…[${dropped} characters cut]…${text}` : text;
  const start = tailStart(text, max);
  return `…[${start + dropped} characters cut]…${text.slice(start)}`;
}

/** Where the last `max` characters of `text` start, moved past a low surrogate so no cut splits a pair. */
function tailStart(text: string, max: number): number {
  let start = Math.max(0, text.length - max);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  return start;
}

/**
 * `text` in at most `max` characters, the {@link clipMarker} included:
 * `head` (kept whole, when it fits with room to spare), then
 * `[… N characters cut …]`, then the end of the rest. Never splits a
 * surrogate pair.
 */
function clipTail(head: string, text: string, max: number): string {
  if (head.length + text.length <= max) return head + text;
  if (head.length > max / 2) {
    text = head + text;
    head = "";
  }
  let keep = max - head.length;
  // the marker's digits depend on the count, which depends on the marker: settle it
  for (let i = 0; i < 3; i++) keep = Math.max(0, max - head.length - clipMarker(text.length - keep).length);
  let start = text.length - keep;
  if (start > 0 && start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  return head + clipMarker(start) + text.slice(start);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

/**
 * Checks `params` against `inputs`: fills defaults, drops undeclared keys.
 * Returns the checked params, or the error text (which never contains a
 * sensitive input's value; `mask`, default none, is applied to the other
 * input values it shows).
 */
export function checkToolParams(
  tool: Pick<ToolDirectory, "name" | "inputs">,
  params: unknown,
  mask: (text: string) => string = (text) => text,
): { ok: true; params: Record<string, WorkspaceRuntimeValue> } | { ok: false; error: string } {
  if (params === undefined || params === null) params = {};
  if (typeof params !== "object" || Array.isArray(params)) {
    return { ok: false, error: `Tool "${tool.name}" takes an object of named inputs, got ${describe(params)}.` };
  }
  const given = params as Record<string, unknown>;
  const out: Record<string, WorkspaceRuntimeValue> = {};
  const problems: string[] = [];
  for (const [name, input] of Object.entries(tool.inputs) as [string, ToolInput][]) {
    let value = Object.prototype.hasOwnProperty.call(given, name) ? given[name] : undefined;
    if (value === undefined || value === null) {
      if (input.default !== undefined) value = input.default;
      else if (input.optional) continue;
      else {
        problems.push(`input "${name}" is required (${input.type}: ${input.description})`);
        continue;
      }
    }
    const shown = input.sensitive ? "" : `: ${cutWithMark(mask(JSON.stringify(value) ?? String(value)), 80)}`;
    if (input.type === "enum") {
      if (typeof value !== "string" || !(input.values ?? []).includes(value)) {
        problems.push(`input "${name}" must be one of ${(input.values ?? []).join(", ")}, got ${describe(value)}${shown}`);
        continue;
      }
    } else if (input.type === "number") {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        problems.push(`input "${name}" must be a finite number, got ${describe(value)}${shown}`);
        continue;
      }
    } else if (typeof value !== input.type) {
      problems.push(`input "${name}" must be a ${input.type}, got ${describe(value)}${shown}`);
      continue;
    }
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  if (problems.length > 0) return { ok: false, error: `Tool "${tool.name}" got bad input: ${problems.join("; ")}.` };
  return { ok: true, params: out };
}

/** Checks a value returned by `execute` (after JSON); the normalised result or why it is malformed. */
export function checkToolResult(value: unknown): { ok: true; result: ToolResult } | { ok: false; error: string } {
  const shape = "{ content: [{ type: \"text\", text: \"…\" }], isError?: boolean }";
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: `execute returned ${describe(value)}, not ${shape}` };
  }
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content)) return { ok: false, error: `execute returned an object whose content is ${describe(content)}, not an array: return ${shape}` };
  const blocks: ToolResultContent[] = [];
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as { type?: unknown; text?: unknown } | null;
    if (!block || typeof block !== "object" || typeof block.type !== "string" || typeof block.text !== "string") {
      return { ok: false, error: `execute returned content[${i}] = ${describe(block)} without a string type and text: return ${shape}` };
    }
    blocks.push({ type: block.type, text: block.text });
  }
  const result: ToolResult = { content: blocks };
  if ((value as { isError?: unknown }).isError === true) result.isError = true;
  return { ok: true, result };
}

const CONTAINER = /container/i;

/** Picks the backend for `language` among `infos` (or checks `chosen`); an error text when none fits. */
function pickBackend(tool: ToolDirectory, infos: WorkspaceBackendInfo[], chosen: string | undefined): { id: string } | { error: string } {
  const listed = infos.length > 0 ? infos.map((b) => `"${b.id}" (${b.protocol})`).join(", ") : "none";
  const isContainer = (b: WorkspaceBackendInfo) => CONTAINER.test(b.id) || /full Linux container/i.test(b.description ?? "");
  const wantModule = tool.language === "typescript" || tool.language === "javascript";
  if (chosen !== undefined) {
    const b = infos.find((x) => x.id === chosen);
    if (!b) return { error: `Tool "${tool.name}" cannot run: this Workspace has no backend "${chosen}" (its backends: ${listed}).` };
    if (wantModule && !(b.protocol === "module" && b.callable)) {
      return { error: `Tool "${tool.name}" is ${tool.language} and needs a callable module backend such as WorkerJavaScriptBackend; "${chosen}" is not one.` };
    }
    if (!wantModule && b.protocol !== "command") {
      return { error: `Tool "${tool.name}" is ${tool.language} and needs a command backend; "${chosen}" is a module backend.` };
    }
    return { id: b.id };
  }
  if (wantModule) {
    const b = infos.find((x) => x.protocol === "module" && x.callable);
    return b
      ? { id: b.id }
      : { error: `Tool "${tool.name}" is ${tool.language} and needs the JavaScript backend: add new WorkerJavaScriptBackend({ loader: env.LOADER }) to the Workspace's backends (its backends: ${listed}).` };
  }
  const commands = infos.filter((x) => x.protocol === "command");
  if (tool.language === "bash") {
    const b = commands.find((x) => !isContainer(x)) ?? commands[0];
    return b
      ? { id: b.id }
      : { error: `Tool "${tool.name}" is bash and needs a shell: add new WorkerShellBackend({ loader: env.LOADER }) to the Workspace's backends (its backends: ${listed}).` };
  }
  const b = commands.find(isContainer);
  return b
    ? { id: b.id }
    : { error: `Tool "${tool.name}" is python and needs a container backend (ContainerBackend), which this Workspace does not have (its backends: ${listed}).` };
}

/** `'text'` for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The path of absolute `to` relative to absolute directory `from` (`/a/b`, `/a/c/d` → `../c/d`). */
function relativePath(from: string, to: string): string {
  const a = from.split("/").filter(Boolean);
  const b = to.split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/") || ".";
}

/** A string for an `INPUT_<NAME>` variable. */
function envValue(value: WorkspaceRuntimeValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Runs tool directory `tool` (from the loader) with `params` in the
 * Workspace's backends (spec 03 §9) and resolves with its
 * {@link ToolResult}. **Never throws or rejects**: bad input, a missing
 * backend, a syntax error, a throw in the tool, a malformed result, a
 * timeout, a cancellation and any backend error become `{ content: [{ type:
 * "text", text }], isError: true }` with a sentence saying what happened.
 * Sensitive input values and `env` values never appear in that text: they
 * are replaced by `***` in the parts that come from the tool or the model
 * (its stderr, stdout, thrown message, its own `isError` result, shown
 * input values); the runner's own words (tool name, exit code, fixed
 * phrases) are never masked.
 *
 * JavaScript / TypeScript: the run's cwd is `tool.dir` and the entry
 * `tool.entry`, each with symbolic links resolved (the JavaScript backend
 * refuses links on a path; relative imports then resolve from the real
 * entry file, as in Node); the tool can import
 * its own files (`./lib.js` finds `./lib.ts`), `node:fs` (the Workspace),
 * Node built-ins, and configured modules; its `process.env` is exactly the
 * declared `env`; network as the backend's `egress` allows. `onUpdate`
 * payloads are streamed back to `options.onUpdate` (as marked stdout lines
 * the runner removes); other console output is ignored. Aborting
 * `options.signal` kills the run — the isolate stops, so code in the tool
 * after the abort does not run.
 *
 * bash / python: inputs are environment variables `INPUT_<NAME>` (name
 * upper-cased; strings as they are, numbers and booleans as JSON; absent
 * optional inputs unset), the inputs but the sensitive ones as a JSON
 * object in the file `$TOOL_INPUT_FILE` (under {@link TOOL_INPUT_DIR},
 * removed afterwards, or by a later run once expired if the run never
 * finished; the path as the backend sees it, so a container mounting the
 * Workspace elsewhere still finds it), the entry run as `bash ./index.sh` /
 * `python3 ./index.py` from the tool directory with its symbolic links
 * resolved (so `$PWD` is the real directory, on the shell backend as in a
 * container, whose daemon starts every command in its `realpath`),
 * `$TOOL_CALL_ID`; stdout is the result text (at most
 * {@link MAX_TOOL_OUTPUT_CHARS} characters: a longer one keeps its
 * `[output truncated: …]` header, then `[… N characters cut …]` and its
 * end), a non-zero exit makes it `isError` with stderr appended.
 */
export async function runToolDirectory(tool: ToolDirectory, options: RunToolDirectoryOptions): Promise<ToolResult> {
  let mask: Masker = masker([]);
  if (!tool || typeof tool !== "object" || typeof tool.name !== "string" || !tool.inputs || typeof tool.inputs !== "object") {
    return failure("runToolDirectory needs a ToolDirectory as loadToolDirectories returns it (name, language, inputs, dir, entry, env).");
  }
  if (!options || typeof options !== "object" || !options.workspace?.runtime) {
    return failure(`Tool "${tool.name}" cannot run: pass { workspace } (a Workspace with backends) to runToolDirectory.`);
  }
  try {
    const secrets: string[] = [];
    const env: Record<string, string> = {};
    for (const name of tool.env ?? []) {
      const value = options.env?.[name];
      if (typeof value === "string") {
        Object.defineProperty(env, name, { value, enumerable: true, writable: true, configurable: true });
        secrets.push(value);
      }
    }
    const raw = options.params;
    if (raw && typeof raw === "object") {
      for (const [name, input] of Object.entries(tool.inputs)) {
        const v = (raw as Record<string, unknown>)[name];
        if (input.sensitive && v !== undefined && v !== null) secrets.push(typeof v === "string" ? v : JSON.stringify(v) ?? String(v));
      }
    }
    mask = masker(secrets);
    const checked = checkToolParams(tool, raw, mask);
    if (!checked.ok) return failure(checked.error);
    for (const [name, input] of Object.entries(tool.inputs)) {
      const v = checked.params[name];
      if (input.sensitive && v !== undefined) secrets.push(typeof v === "string" ? v : JSON.stringify(v));
    }
    mask = masker(secrets); // defaults of sensitive inputs too
    if (options.signal?.aborted) return failure(`Tool "${tool.name}" was cancelled before it started.`);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      return failure(`Tool "${tool.name}" cannot run: timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`);
    }
    const picked = pickBackend(tool, options.workspace.runtime.backends(), options.backend);
    if ("error" in picked) return failure(picked.error);
    const toolCallId = options.toolCallId ?? crypto.randomUUID();
    const run: RunContext = { tool, workspace: options.workspace, backend: picked.id, toolCallId, params: checked.params, env, timeoutMs, signal: options.signal, onUpdate: options.onUpdate, mask };
    // each runner-built error text masks the tool's part itself; the runner's own words stay readable
    return tool.language === "typescript" || tool.language === "javascript" ? await runModule(run) : await runCommand(run);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const over = /^timeout cannot exceed (\d+) milliseconds/.exec(message);
    if (over) {
      return failure(
        `Tool "${tool.name}" cannot run: its timeout (${String(options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS)} ms) is more than the backend allows (${over[1]} ms): lower the timeoutMs of toolDirectories (or of runToolDirectory), or raise the backend's maxTimeoutMs.`,
      );
    }
    return failure(`Tool "${tool.name}" failed: ${maskedTail(mask, message, MAX_TOOL_ERROR_CHARS)}`);
  }
}

interface RunContext {
  tool: ToolDirectory;
  workspace: ToolRunWorkspace;
  backend: string;
  toolCallId: string;
  params: Record<string, WorkspaceRuntimeValue>;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onUpdate: OnUpdate | undefined;
  mask: Masker;
}

/** A run id for `tool`: `tool.<name>.<uuid>` (≤ 256 bytes: names are ≤ 64 characters). */
function runId(tool: ToolDirectory): string {
  return `tool.${tool.name}.${crypto.randomUUID()}`;
}

/** The generated entry module of a JavaScript/TypeScript tool run. */
function wrapperSource(entry: string, marker: string): string {
  return `import * as tool from ${JSON.stringify(entry)};
const MARK = ${JSON.stringify(marker)};
export default async function (input) {
  const execute = tool.execute;
  if (typeof execute !== "function") {
    const names = Object.keys(tool);
    throw new Error(${JSON.stringify(entry)} + " does not export an execute function" + (names.length > 0 ? " (it exports " + names.join(", ") + ")" : "") + ": add export async function execute(toolCallId, params, signal, onUpdate) { … }");
  }
  const controller = new AbortController();
  const onUpdate = (partial) => {
    let line;
    try { line = JSON.stringify(partial); } catch { return; }
    if (typeof line === "string") console.log(MARK + line);
  };
  const result = await execute(input.toolCallId, input.params, controller.signal, onUpdate);
  let json;
  try { json = JSON.stringify(result); } catch (err) {
    throw new Error("execute returned a result that is not JSON data (" + (err && err.message) + "): return { content: [{ type: \\"text\\", text }] }");
  }
  return { kind: result === null ? "null" : Array.isArray(result) ? "array" : typeof result, result: json === undefined ? null : JSON.parse(json) };
}
`;
}

/**
 * Bounded stderr keeper: the last {@link MAX_TOOL_ERROR_CHARS} characters,
 * masked. Before each cut the whole buffer is masked, and the cut keeps at
 * least the longest secret's length more than it returns, so a secret is
 * either masked whole or (still arriving at the end) kept whole until it is:
 * no cut leaves a piece of one.
 */
class Tail {
  text = "";
  /** Characters (of the masked text) the early cuts in {@link add} dropped: counted in the cut marker. */
  #dropped = 0;
  readonly #keep: number;
  constructor(readonly mask: Masker) {
    this.#keep = MAX_TOOL_ERROR_CHARS + mask.longest;
  }
  add(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.#keep) {
      const masked = this.mask(this.text);
      const start = tailStart(masked, this.#keep);
      this.#dropped += start;
      this.text = masked.slice(start);
    }
  }
  /**
   * The kept text, masked, mapped by `words` (before the cut, so the result stays within the bound), then cut as
   * {@link tail} cuts (never half a character; `…[N characters cut]…` when anything was cut, early cuts included).
   */
  get(words: (text: string) => string = (text) => text): string {
    return tail(words(this.mask(this.text).trimEnd()), MAX_TOOL_ERROR_CHARS, this.#dropped);
  }
}

/**
 * `err` (a JavaScript tool's stderr) with the backend's result-check message
 * on its last line, which speaks of the generated wrapper's "default
 * export", put in terms of the tool's `execute`.
 */
function ownWords(err: string): string {
  const at = err.lastIndexOf("\n") + 1;
  const last = err.slice(at);
  const size = /^The default export returned (\d+) bytes of JSON, over maxResultBytes \((\d+) bytes\)\.$/.exec(last);
  if (size) {
    return `${err.slice(0, at)}execute returned a result of ${size[1]} bytes of JSON, over the backend's maxResultBytes (${size[2]} bytes): return less (for example, write large output to a file and return its path).`;
  }
  return last.startsWith("The default export returned ") ? `${err.slice(0, at)}execute returned ${last.slice("The default export returned ".length)}` : err;
}

/** Splits stdout into lines and forwards marked `onUpdate` payloads; everything else is dropped. */
class UpdateParser {
  #buffer = "";
  #skipping = false;
  constructor(
    readonly marker: string,
    readonly deliver: (partial: { content: ToolResultContent[] }) => void,
  ) {}
  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf("\n", start);
      if (nl < 0) break;
      this.#line(chunk.slice(start, nl));
      start = nl + 1;
    }
    this.#append(chunk.slice(start));
  }
  #append(piece: string): void {
    if (this.#skipping) return;
    this.#buffer += piece;
    if (this.#buffer.length > MAX_TOOL_UPDATE_CHARS + this.marker.length) {
      this.#buffer = "";
      this.#skipping = true; // an over-long line: dropped up to its newline
    }
  }
  #line(piece: string): void {
    this.#append(piece);
    const line = this.#buffer;
    const skipped = this.#skipping;
    this.#buffer = "";
    this.#skipping = false;
    if (skipped) return;
    const at = line.indexOf(this.marker);
    if (at < 0) return;
    let partial: unknown;
    try {
      partial = JSON.parse(line.slice(at + this.marker.length));
    } catch {
      return;
    }
    const checked = checkToolResult(partial);
    if (!checked.ok) return;
    try {
      this.deliver({ content: checked.result.content });
    } catch {
      /* the caller's callback failing does not fail the run */
    }
  }
}

/**
 * `tool.dir` and `tool.entry` with symbolic links resolved (the JavaScript
 * backend refuses a link anywhere on a path, while the loader follows links
 * to tool directories and entry files). Unchanged when the workspace cannot
 * read links or a path cannot be resolved (the backend then reports why).
 */
async function realToolPaths(run: RunContext): Promise<{ dir: string; entry: string }> {
  const { tool, workspace } = run;
  const { lstat, readlink } = workspace.fs;
  if (typeof lstat !== "function" || typeof readlink !== "function") return { dir: tool.dir, entry: tool.entry };
  const links = { lstat: (p: string) => lstat.call(workspace.fs, p), readlink: (p: string) => readlink.call(workspace.fs, p) };
  try {
    return { dir: await resolveLinks(links, tool.dir), entry: await resolveLinks(links, tool.entry) };
  } catch {
    return { dir: tool.dir, entry: tool.entry };
  }
}

/**
 * The paths of a bash/python run with symbolic links resolved: the tool's
 * directory, {@link TOOL_INPUT_DIR}, and the entry's directory (the entry's
 * own name is kept, so an entry file that is a link still runs through it).
 * Unchanged when the workspace cannot read links or a path cannot be resolved.
 */
async function realCommandPaths(run: RunContext): Promise<{ dir: string; entry: string; inputDir: string }> {
  const { tool, workspace } = run;
  const { lstat, readlink } = workspace.fs;
  const asFound = { dir: tool.dir, entry: tool.entry, inputDir: TOOL_INPUT_DIR };
  if (typeof lstat !== "function" || typeof readlink !== "function") return asFound;
  const links = { lstat: (p: string) => lstat.call(workspace.fs, p), readlink: (p: string) => readlink.call(workspace.fs, p) };
  const slash = tool.entry.lastIndexOf("/");
  try {
    const [dir, entryDir, inputDir] = await Promise.all([
      resolveLinks(links, tool.dir),
      resolveLinks(links, tool.entry.slice(0, slash) || "/"),
      resolveLinks(links, TOOL_INPUT_DIR),
    ]);
    return { dir, entry: `${entryDir === "/" ? "" : entryDir}/${tool.entry.slice(slash + 1)}`, inputDir };
  } catch {
    return asFound;
  }
}

async function runModule(run: RunContext): Promise<ToolResult> {
  const { tool, workspace } = run;
  const marker = `\u001etool-update:${crypto.randomUUID()}:`;
  const id = runId(tool);
  const real = await realToolPaths(run);
  const handle = await workspace.runtime.exec(wrapperSource(real.entry, marker), {
    id,
    backend: run.backend,
    cwd: real.dir,
    input: { toolCallId: run.toolCallId, params: run.params },
    env: run.env,
    timeoutMs: run.timeoutMs,
    encoding: "utf8",
    onInterrupt: "fail",
  });
  const kill = () => void handle.kill().catch(() => undefined);
  run.signal?.addEventListener("abort", kill, { once: true });
  if (run.signal?.aborted) kill(); // aborted while the run was launching
  let hostTimer: ReturnType<typeof setTimeout> | undefined;
  let hostTimedOut = false;
  const stderr = new Tail(run.mask);
  const updates = new UpdateParser(marker, (partial) => run.onUpdate?.(partial));
  let exit: { code: number; result?: unknown } | undefined;
  const reader = handle.getReader();
  try {
    const hostLimit = new Promise<"timeout">((resolve) => {
      hostTimer = setTimeout(() => resolve("timeout"), run.timeoutMs + HOST_GRACE_MS);
    });
    for (;;) {
      const next = await Promise.race([reader.read(), hostLimit]);
      if (next === "timeout") {
        hostTimedOut = true;
        kill();
        void reader.cancel().catch(() => undefined);
        break;
      }
      if (next.done) break;
      const event = next.value;
      if (event.name === "stdout") updates.push(event.value);
      else if (event.name === "stderr") stderr.add(event.value);
      else if (event.name === "exit") exit = { code: event.code, result: event.result };
    }
  } finally {
    clearTimeout(hostTimer);
    run.signal?.removeEventListener("abort", kill);
    reader.releaseLock();
    disposeQuietly(handle); // read to its end, or killed and cancelled: through a remote client, frees the object's handle stub (issue 20, run 35, fixer XD)
    if (!hostTimedOut) void workspace.runtime.disposeExec(id, { backend: run.backend }).catch(() => undefined);
  }
  const name = `Tool "${tool.name}"`;
  const err = stderr.get(ownWords).trim();
  if (hostTimedOut) return failure(`${name} timed out after ${run.timeoutMs} ms and was stopped.`);
  if (!exit) return failure(`${name} ended without an exit status.${err ? ` stderr: ${err}` : ""}`);
  if (exit.code === 0) {
    const value = exit.result as { kind?: string; result?: unknown } | null | undefined;
    const inner = value && typeof value === "object" ? value.result : undefined;
    const checked = checkToolResult(inner);
    if (!checked.ok) {
      const kind = value && typeof value === "object" && value.kind === "undefined" ? "execute returned undefined, not { content: [{ type: \"text\", text: \"…\" }], isError?: boolean }" : checked.error;
      return failure(`${name} returned a malformed result: ${kind}.`);
    }
    const result = checked.result;
    return result.isError ? { content: result.content.map((c) => ({ type: c.type, text: run.mask(c.text) })), isError: true } : result;
  }
  if (run.signal?.aborted || exit.code === 130) return failure(`${name} was cancelled.`);
  if (/JavaScript execution timed out/.test(err)) return failure(`${name} timed out after ${run.timeoutMs} ms and was stopped.`);
  if (/detected that your Worker's code had hung/.test(err)) {
    return failure(`${name} never returned: execute awaits a promise that nothing can settle (the runtime found nothing left to wait for).`);
  }
  return failure(`${name} failed (exit ${exit.code}): ${err || "no error message"}`);
}

/**
 * Where the next sweep of a filesystem starts in {@link TOOL_INPUT_DIR}'s listing (entries it looked at and left:
 * live input files and names that are not input files). Each sweep looks at the {@link MAX_INPUT_SWEEP} entries
 * from there and the next one goes on after them, back to the start past the end — so names sorting first (junk
 * such as `!x`, or many live runs) cannot hide an expired file from every later sweep.
 */
const sweepOffsets = new WeakMap<object, number>();

/**
 * Removes input files in {@link TOOL_INPUT_DIR} whose expiry (in their name)
 * has passed: files left by runs that never reached their `finally` (the
 * object was reset or aborted mid-run). A live run's file is never expired:
 * the runner stops a run at its timeout + {@link HOST_GRACE_MS}. Best effort
 * (errors ignored), at most {@link MAX_INPUT_SWEEP} entries per call, each call
 * going on where the previous one on the same filesystem stopped.
 *
 * @internal exported for tests
 */
export async function sweepExpiredInputFiles(workspace: Pick<ToolRunWorkspace, "fs">): Promise<void> {
  const { readdir } = workspace.fs;
  if (typeof readdir !== "function") return;
  try {
    const now = Date.now();
    const offset = sweepOffsets.get(workspace.fs) ?? 0;
    const entries = await readdir.call(workspace.fs, TOOL_INPUT_DIR, { limit: MAX_INPUT_SWEEP, offset });
    let kept = 0;
    for (const entry of entries) {
      const match = INPUT_FILE_NAME.exec(entry.name);
      const removed = match !== null && Number(match[1]) < now && (await workspace.fs.rm(`${TOOL_INPUT_DIR}/${entry.name}`, { force: true }).then(() => true, () => false));
      if (!removed) kept++;
    }
    sweepOffsets.set(workspace.fs, entries.length < MAX_INPUT_SWEEP ? 0 : offset + kept);
  } catch {
    /* best effort: a sweep failure never fails the run */
  }
}

async function runCommand(run: RunContext): Promise<ToolResult> {
  const { tool, workspace } = run;
  const env: Record<string, string> = { ...run.env };
  const fileParams: Record<string, WorkspaceRuntimeValue> = {};
  for (const [k, v] of Object.entries(run.params)) {
    env[`INPUT_${k.toUpperCase()}`] = envValue(v);
    // sensitive inputs only as variables: a file can outlive an aborted run, a variable cannot
    if (!tool.inputs[k]?.sensitive) Object.defineProperty(fileParams, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const expiry = Date.now() + Math.min(run.timeoutMs, 1e12) + HOST_GRACE_MS;
  const inputFile = `${TOOL_INPUT_DIR}/${Math.ceil(expiry)}-${crypto.randomUUID()}.json`;
  env.TOOL_CALL_ID = run.toolCallId;
  await workspace.fs.mkdir(TOOL_INPUT_DIR, { recursive: true });
  await sweepExpiredInputFiles(workspace);
  await workspace.fs.writeFile(inputFile, JSON.stringify(fileParams));
  const id = runId(tool);
  // Paths relative to the run's cwd (the tool directory), made absolute with $PWD in the command:
  // a container may mount the Workspace elsewhere than its Workspace path (the local container host does).
  // All with links resolved: the container daemon starts the command in the real directory (realpath), where
  // `..` climbs from another depth than through a link; the shell backend then starts there too.
  const real = await realCommandPaths(run);
  const inputDirRel = relativePath(real.dir, real.inputDir);
  const entryRel = relativePath(real.dir, real.entry);
  const command =
    `TOOL_INPUT_FILE="$(cd ${shellQuote(inputDirRel)} && pwd)"/${shellQuote(inputFile.slice(TOOL_INPUT_DIR.length + 1))} ` +
    `${tool.language === "python" ? "python3" : "bash"} ${shellQuote(entryRel.startsWith(".") ? entryRel : `./${entryRel}`)}`;
  let kill: (() => void) | undefined;
  let handle: WorkspaceRuntimeExecHandle<"utf8"> | undefined;
  try {
    handle = await workspace.runtime.exec(command, {
      id,
      backend: run.backend,
      cwd: real.dir,
      env,
      timeoutMs: run.timeoutMs,
      encoding: "utf8",
    });
    const launched = handle;
    kill = () => void launched.kill().catch(() => undefined);
    run.signal?.addEventListener("abort", kill, { once: true });
    if (run.signal?.aborted) kill(); // aborted while the command was launching
    let hostTimer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      handle.result(),
      new Promise<"timeout">((resolve) => (hostTimer = setTimeout(() => resolve("timeout"), run.timeoutMs + HOST_GRACE_MS))),
    ]).finally(() => clearTimeout(hostTimer));
    const name = `Tool "${tool.name}"`;
    if (outcome === "timeout") {
      kill();
      return failure(`${name} timed out after ${run.timeoutMs} ms and was stopped.`);
    }
    let stdout = outcome.stdout;
    const saved = outcome.truncated?.stdout;
    const header = saved && "path" in saved && saved.path ? `[output truncated: the whole output is in ${saved.path}]\n` : "";
    if (outcome.exitCode === 0) return { content: [{ type: "text", text: clipTail(header, stdout, MAX_TOOL_OUTPUT_CHARS) }] };
    stdout = header + stdout;
    if (run.signal?.aborted || outcome.status === "cancelled") return failure(`${name} was cancelled.`);
    if (outcome.exitCode === 124) return failure(`${name} timed out after ${run.timeoutMs} ms and was stopped.`);
    // error texts: mask first, then cut (a cut through a secret would leave a piece the mask no longer matches)
    const err = maskedTail(run.mask, outcome.stderr.trim(), MAX_TOOL_ERROR_CHARS);
    const parts = [`${name} failed (exit ${outcome.exitCode})${err ? `: ${err}` : "."}`];
    if (stdout.trim() !== "") parts.push(`stdout:\n${maskedTail(run.mask, stdout, MAX_TOOL_ERROR_CHARS)}`);
    return failure(parts.join("\n"));
  } finally {
    if (kill) run.signal?.removeEventListener("abort", kill);
    disposeQuietly(handle); // after result() or the host's timeout (and its kill): frees the object's handle stub (issue 20, run 35, fixer XD)
    await workspace.fs.rm(inputFile, { force: true }).catch(() => undefined);
  }
}
