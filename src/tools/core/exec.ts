/**
 * The `exec` tool (spec 03 §4.8, seed 000 "exec"): runs a command or module
 * on one of the Workspace's backends through `workspace.runtime.exec` and
 * reports bounded output as snapshots. Runs validate, pick the backend,
 * launch, stream tails, then report the terminal snapshot with notes naming
 * the full-output file.
 *
 * @module
 */
import { z } from "zod";
import { countLines, keptTail } from "../../util/tail.js";
import { errorMessage, type CoreTool, type ToolCallContext, type ToolFacts } from "./types.js";

/** exec changes the Workspace (a command can do anything). */
export const EXEC_FACTS: ToolFacts = { name: "exec", mutating: true };

/** Backends the exec tool may use: id → optional extra description (spec 03 §2.1). */
export type ExecBackends = Readonly<Record<string, ExecBackendOptions>>;

/** Per-backend exec options. */
export interface ExecBackendOptions {
  /** Text placed before the backend's own description in the exec tool description. */
  readonly description?: string;
}

/** Defaults of the exec tool's output limits. */
export const EXEC_DEFAULTS = { maxBytes: 65536, maxLines: 2000 } as const;

/** Running snapshots are yielded at most once per this many ms of `now()`. */
const SNAPSHOT_INTERVAL_MS = 100;
const NEWLINE = 10;

/** A backend as `runtime.backends()` reports it. */
interface BackendInfoLike {
  id: string;
  protocol?: string;
  callable?: boolean;
  description?: string;
}

/** An exec event as the tool reads it (utf8). */
export type ExecStreamEvent =
  | { name: "stdout" | "stderr"; value: string | Uint8Array; seq?: number; id?: string }
  | { name: "exit"; code: number; result?: unknown; truncated?: Record<string, unknown>; seq?: number; id?: string };

/** The handle the tool needs: a stream of events, or at least `result()`. */
export interface ExecRuntimeHandle {
  result(): Promise<{ exitCode: number; stdout: string | Uint8Array; stderr: string | Uint8Array; value?: unknown; truncated?: Record<string, unknown> }>;
  kill(signal?: string): Promise<void>;
  getReader?: () => ReadableStreamDefaultReader<ExecStreamEvent>;
  [Symbol.asyncIterator]?: () => AsyncIterator<ExecStreamEvent>;
}

/** What exec needs from a workspace. */
export interface ExecWorkspaceLike {
  readonly runtime: {
    exec(source: string, options?: Record<string, unknown>): Promise<ExecRuntimeHandle>;
    backends?(): readonly BackendInfoLike[];
  };
}

/** Options of `createExecTool` / `defineExec`. */
export interface ExecToolOptions {
  workspace: ExecWorkspaceLike;
  /** Backends the model may use (id → extra description). Default: every backend from `runtime.backends()`. */
  backends?: ExecBackends;
  /** Bytes kept per stream. Default 65536. */
  maxBytes?: number;
  /** Lines kept per stream. Default 2000. */
  maxLines?: number;
  /** @deprecated Ignored. */
  streamMaxBytes?: number;
  /** Clock for snapshot coalescing (ms). Default `Date.now`. */
  now?: () => number;
}

/** Input of the exec tool (the fields present depend on the backends). */
export interface ExecInput {
  command: string;
  cwd?: string;
  backend?: string;
  env?: Record<string, string>;
  input?: Record<string, unknown>;
}

/** One snapshot: running (`exitCode: null`, no notes), terminal, or an error. */
export type ExecToolOutput =
  | { command: string; cwd: string | null; backend: string; exitCode: number | null; stdout: string; stderr: string; result?: unknown }
  | { command: string; cwd: string | null; backend: string; error: string };

/** Context of one exec call. */
export type ExecCallContext = ToolCallContext;

/** The exec tool with no agent library attached. */
export type ExecDefinition = Omit<CoreTool<ExecInput, ExecToolOutput>, "execute"> & {
  execute(input: ExecInput, context?: ExecCallContext): AsyncGenerator<ExecToolOutput>;
};

/** `<n>B`, `<x.x>KB` or `<x.x>MB` (spec 03 §4.8). */
export function formatSize(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}KB`;
  return `${(n / (1024 * 1024)).toFixed(1)}MB`;
}

const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`createExecTool: ${name} must be a positive integer.`);
  return value;
}

/** A bounded tail of one stream with the counts needed for the note. */
class StreamTail {
  #chunks: Uint8Array[] = [];
  #held = 0;
  totalBytes = 0;
  #newlines = 0;
  #lastByte: number | undefined;
  #droppedNewlines = 0;
  #dropped = 0;
  #startsAtLine = true;
  constructor(readonly maxBytes: number, readonly maxLines: number) {}

  push(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.totalBytes += bytes.byteLength;
    for (const b of bytes) if (b === NEWLINE) this.#newlines++;
    this.#lastByte = bytes[bytes.byteLength - 1];
    this.#chunks.push(bytes);
    this.#held += bytes.byteLength;
    if (this.#held > 4 * this.maxBytes) {
      const all = this.#all();
      const from = all.length - 2 * this.maxBytes;
      for (let i = 0; i < from; i++) if (all[i] === NEWLINE) this.#droppedNewlines++;
      this.#startsAtLine = all[from - 1] === NEWLINE;
      this.#dropped += from;
      this.#chunks = [all.slice(from)];
      this.#held = all.length - from;
    }
  }

  #all(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0];
    const out = new Uint8Array(this.#held);
    let o = 0;
    for (const c of this.#chunks) {
      out.set(c, o);
      o += c.byteLength;
    }
    this.#chunks = [out];
    return out;
  }

  get totalLines(): number {
    return countLines(this.#newlines, this.totalBytes, this.#lastByte);
  }

  /** The kept text, and the note when cut (`where` names the full-output file). */
  render(withNote: boolean, runtimeNote?: Record<string, unknown>): string {
    const all = this.#all();
    const totalLines = this.totalLines;
    if (this.totalBytes <= this.maxBytes && totalLines <= this.maxLines) return decoder.decode(all);
    const startsAtLine = this.#dropped === 0 || this.#startsAtLine;
    const { start, partialLine } = keptTail(all, this.maxLines, this.maxBytes, startsAtLine);
    const kept = all.subarray(start);
    const text = decoder.decode(kept);
    if (!withNote) return text;
    let firstLine = this.#droppedNewlines + 1;
    for (let i = 0; i < start; i++) if (all[i] === NEWLINE) firstLine++;
    return text + note({ firstLine, totalLines, partialLine, keptBytes: kept.byteLength, maxBytes: this.maxBytes, maxLines: this.maxLines }, runtimeNote);
  }
}

function where(runtimeNote: Record<string, unknown> | undefined): string {
  if (runtimeNote?.status === "saved" && typeof runtimeNote.path === "string") return ` Full output: ${runtimeNote.path}`;
  if (runtimeNote?.status === "not-saved") return ` Full output was not saved: ${String(runtimeNote.reason)}`;
  return "";
}

function note(
  cut: { firstLine: number; totalLines: number; partialLine: boolean; keptBytes: number; maxBytes: number; maxLines: number },
  runtimeNote: Record<string, unknown> | undefined,
): string {
  const w = where(runtimeNote);
  if (cut.partialLine) return `\n\n[Showing last ${formatSize(cut.keptBytes)} of line ${cut.totalLines}.${w}]`;
  const keptLines = cut.totalLines - cut.firstLine + 1;
  const range = `${cut.firstLine}-${cut.totalLines} of ${cut.totalLines}`;
  if (keptLines < cut.maxLines) return `\n\n[Showing lines ${range} (${formatSize(cut.maxBytes)} limit).${w}]`;
  return `\n\n[Showing lines ${range}.${w}]`;
}

/** Renders a whole stream from a non-streaming result, using the runtime's record when it already cut it. */
function renderWhole(value: string | Uint8Array, maxBytes: number, maxLines: number, runtimeNote: Record<string, unknown> | undefined): string {
  const bytes = typeof value === "string" ? encoder.encode(value) : value;
  if (runtimeNote && typeof runtimeNote.firstLine === "number" && typeof runtimeNote.totalLines === "number") {
    const text = decoder.decode(bytes);
    return (
      text +
      note(
        {
          firstLine: runtimeNote.firstLine,
          totalLines: runtimeNote.totalLines,
          partialLine: runtimeNote.partialLine === true,
          keptBytes: bytes.byteLength,
          maxBytes,
          maxLines,
        },
        runtimeNote,
      )
    );
  }
  const tail = new StreamTail(maxBytes, maxLines);
  tail.push(bytes);
  return tail.render(true, undefined);
}

interface Selection {
  ids: string[];
  callable: Set<string>;
  texts: Map<string, string>;
}

function select(options: ExecToolOptions): Selection {
  const runtime = options.workspace?.runtime;
  if (!runtime || typeof runtime.exec !== "function") throw new TypeError("createExecTool: workspace.runtime.exec is required");
  const listed = typeof runtime.backends === "function" ? runtime.backends() : undefined;
  if (!options.backends && !listed) throw new TypeError("createExecTool: pass `backends`; this workspace cannot list its backends");
  const ids = options.backends ? Object.keys(options.backends) : listed!.map((b) => b.id);
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
    const parts = [options.backends?.[id]?.description, info?.description].filter((p): p is string => typeof p === "string" && p.trim() !== "");
    texts.set(id, parts.length > 0 ? parts.join("\n\n") : callable.has(id) ? "Runs `command` as module source." : "Runs shell commands.");
  }
  return { ids, callable, texts };
}

function describeTool(sel: Selection, maxBytes: number, maxLines: number): string {
  const output = `Each of stdout and stderr is cut to its last ${maxLines} lines or ${formatSize(maxBytes)}, whichever comes first; the full output then goes to a file that the reply names, which read and grep can open.`;
  const hint = "Prefer read, write and edit for looking at and changing files.";
  const shell = `Good for builds, tests, typechecks, formatters and git plumbing. ${hint} ${output}`;
  if (sel.ids.length === 1) {
    const id = sel.ids[0];
    if (sel.callable.has(id)) {
      return `Runs code in the workspace.\n\n${sel.texts.get(id)}\n\nPass structured values in \`input\`; the module's return value comes back in \`result\`. ${hint} ${output}`;
    }
    return `Runs a shell command in the workspace.\n\n${sel.texts.get(id)}\n\n${shell}`;
  }
  const lines = sel.ids.map((id) => `- ${JSON.stringify(id)}${sel.callable.has(id) ? " (callable)" : ""}: ${sel.texts.get(id)}`);
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

function schemaFor(sel: Selection): z.ZodType<ExecInput> {
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
  shape.env = z.record(z.string(), z.string()).optional().describe("Environment variables for this run only.");
  if (sel.callable.size > 0) {
    shape.input = z.record(z.string(), jsonValue).optional().describe("Structured input (JSON object) passed to a callable backend's module.");
  }
  return z.object(shape) as unknown as z.ZodType<ExecInput>;
}

function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? encoder.encode(value) : value;
}

/**
 * Builds the exec tool (spec 03 §4.8). `runtime.backends()` is read once, here.
 *
 * @throws TypeError for unknown or missing backends and invalid limits (messages per spec 03 §2.2).
 */
export function execDefinition(options: ExecToolOptions): ExecDefinition {
  const maxBytes = positiveInt("maxBytes", options.maxBytes, EXEC_DEFAULTS.maxBytes);
  const maxLines = positiveInt("maxLines", options.maxLines, EXEC_DEFAULTS.maxLines);
  const sel = select(options);
  const now = options.now ?? Date.now;
  const runtime = options.workspace.runtime;
  const single = sel.ids.length === 1 ? sel.ids[0] : undefined;

  async function* execute(input: ExecInput, context: ExecCallContext = {}): AsyncGenerator<ExecToolOutput> {
    const command = input.command;
    const cwd = input.cwd ?? null;
    const backend = single ?? input.backend;
    if (backend === undefined || backend === "") {
      yield { command, cwd, backend: "", error: "Name a backend to run on." };
      return;
    }
    if (input.input !== undefined && !sel.callable.has(backend)) {
      yield { command, cwd, backend, error: `Backend "${backend}" is not callable; it does not accept structured input.` };
      return;
    }
    const execOptions: Record<string, unknown> = { encoding: "utf8", backend, output: { maxBytes, maxLines } };
    if (input.cwd !== undefined) execOptions.cwd = input.cwd;
    if (input.env !== undefined) execOptions.env = input.env;
    if (input.input !== undefined) execOptions.input = input.input;
    let handle: ExecRuntimeHandle;
    try {
      handle = await runtime.exec(command, execOptions);
    } catch (err) {
      yield { command, cwd, backend, error: errorMessage(err) };
      return;
    }
    const signal = context.abortSignal;
    const kill = () => void handle.kill().catch(() => {});
    if (signal?.aborted) kill();
    else signal?.addEventListener("abort", kill, { once: true });
    try {
      if (typeof handle.getReader !== "function") {
        const r = await handle.result();
        const out: ExecToolOutput = {
          command,
          cwd,
          backend,
          exitCode: r.exitCode,
          stdout: renderWhole(r.stdout, maxBytes, maxLines, r.truncated?.stdout as Record<string, unknown> | undefined),
          stderr: renderWhole(r.stderr, maxBytes, maxLines, r.truncated?.stderr as Record<string, unknown> | undefined),
        };
        if (r.value !== undefined) out.result = r.value;
        yield out;
        return;
      }
      const tails = { stdout: new StreamTail(maxBytes, maxLines), stderr: new StreamTail(maxBytes, maxLines) };
      let exit: Extract<ExecStreamEvent, { name: "exit" }> | undefined;
      let lastSnapshot: number | undefined;
      const reader = handle.getReader();
      try {
        for (;;) {
          const { value: event, done } = await reader.read();
          if (done) break;
          if (event.name === "exit") {
            exit = event;
            continue;
          }
          tails[event.name].push(toBytes(event.value));
          const t = now();
          if (lastSnapshot === undefined || t - lastSnapshot >= SNAPSHOT_INTERVAL_MS) {
            lastSnapshot = t;
            yield { command, cwd, backend, exitCode: null, stdout: tails.stdout.render(false), stderr: tails.stderr.render(false) };
          }
        }
      } finally {
        reader.releaseLock();
      }
      const truncated = exit?.truncated as Record<string, Record<string, unknown> | undefined> | undefined;
      const out: ExecToolOutput = {
        command,
        cwd,
        backend,
        exitCode: exit ? exit.code : null,
        stdout: tails.stdout.render(true, truncated?.stdout),
        stderr: tails.stderr.render(true, truncated?.stderr),
      };
      if (exit && "result" in exit) out.result = exit.result;
      yield out;
    } catch (err) {
      yield { command, cwd, backend, error: errorMessage(err) };
    } finally {
      signal?.removeEventListener("abort", kill);
    }
  }

  const definition: ExecDefinition = {
    ...EXEC_FACTS,
    description: describeTool(sel, maxBytes, maxLines),
    inputSchema: schemaFor(sel),
    limits: { maxBytes, maxLines },
    execute,
    isProgress: (value) => !("error" in value) && value.exitCode === null,
  };
  if (sel.callable.size > 0) {
    definition.prepareArguments = (args: unknown) => {
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
    };
  }
  return definition;
}

/** `defineExec(options)`: the exec tool with no agent library attached (spec 03 §1). */
export const defineExec = execDefinition;
