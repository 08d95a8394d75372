/**
 * `ws:container` (spec 02 §4.3): shell commands on a command backend — the
 * Linux container (`ContainerBackend`, id `"container-shell"`) — callable
 * from isolate code. `createContainerModule()` makes the host-module
 * factory; every call runs in the host (the Durable Object) through
 * `workspace.runtime.exec`, so the command gets the backend's full sync
 * bracket (push before, pull after) and the runtime's long-output handling.
 *
 * ```ts
 * import { createContainerModule } from "agent-computer/modules/container";
 *
 * new Workspace({
 *   storage: ctx.storage,
 *   backends: [
 *     new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:container": createContainerModule() } }),
 *     new ContainerBackend({ container: () => this, workspace: { binding: "Agent", id: ctx.id.toString() } }),
 *   ],
 * });
 * // in the isolate:
 * import { exec } from "ws:container";
 * export default async () => {
 *   const { exitCode, stdout, stderr } = await exec("npm test", { cwd: "/workspace/app" });
 *   return { passed: exitCode === 0, stdout, stderr };
 * };
 * ```
 *
 * Any command-protocol backend works (e.g. `WorkerShellBackend` with
 * `createContainerModule({ backend: "worker-shell", reach: "/" })`).
 *
 * @module
 */
import type { WorkspaceRuntimeExecHandle, WorkspaceRuntimeResult, WorkspaceRuntimeTruncation, WorkspaceRuntimeValue } from "../runtime/types.js";
import { explainArguments, type ExplainsArguments } from "../runtime/json-value.js";
import { skippedEntriesCount } from "../runtime/sync.js";
import { positiveInteger } from "../util/validate.js";
import { TailWindow } from "../util/tail.js";
import { atMostOnce, lostCallError, markAtMostOnce } from "./replay.js";
import type { WorkspaceModuleCallContext, WorkspaceModuleFactory, WorkspaceModuleFunction, WorkspaceModuleHost } from "./types.js";
import { decodeUtf8 } from "../util/bytes.js";
import { memberCut, quoteCut } from "../util/cut.js";
import { disposeQuietly } from "../util/dispose.js";

/** Default of {@link ContainerModuleOptions.backend}: the id of `ContainerBackend`. */
export const DEFAULT_CONTAINER_MODULE_BACKEND = "container-shell";
/** Default of {@link ContainerModuleOptions.maxOutputBytes}: 64 KiB per stream. */
export const DEFAULT_CONTAINER_MODULE_MAX_OUTPUT_BYTES = 65536;
/** Lines kept per stream when neither `maxOutputLines` nor the Workspace's `output.maxLines` applies (spec 02 §2). */
const DEFAULT_MAX_LINES = 2000;
/** Paths listed in `sync.skipped` at most. */
export const CONTAINER_MODULE_MAX_SKIPPED = 100;
/** UTF-8 bytes of `sync.error` at most. */
export const CONTAINER_MODULE_MAX_ERROR_BYTES = 1024;

/** What `exec` rejects on an `access: "read"` backend (spec 02 §4.3), word for word. */
export const CONTAINER_WRITE_ACCESS_MESSAGE = "ws:container exec requires Workspace write access.";

/** Default of {@link ContainerModuleOptions.reach}: what `ContainerBackend` mirrors. */
export const DEFAULT_CONTAINER_MODULE_REACH = "/workspace";

/** The options `exec` accepts, in the order the description and errors name them. */
const EXEC_OPTIONS = ["cwd", "env", "stdin", "timeoutMs"] as const;

const encoder = new TextEncoder();

/** Options of {@link createContainerModule} (spec 02 §4.3). */
export interface ContainerModuleOptions {
  /**
   * Id of the Workspace backend that runs the commands. It must be
   * registered (`runtime.backends()`) and be a command-protocol backend, or
   * the JavaScript backend's connect fails (see {@link createContainerModule}).
   * Default `"container-shell"` (`ContainerBackend`'s id).
   */
  backend?: string;
  /**
   * UTF-8 bytes kept of each stream (the tail); the rest is saved to a
   * Workspace file whose path `truncated.<stream>.path` names. A positive
   * integer. Default 65536 (64 KiB).
   */
  maxOutputBytes?: number;
  /**
   * Lines kept of each stream (the tail). A positive integer. Default: the
   * Workspace's `output.maxLines` (2000 unless configured); with Workspace
   * `output: false`, 2000.
   */
  maxOutputLines?: number;
  /**
   * Shell text run before every command: when it is not blank, each command
   * runs as `<prelude>\n<command>` (e.g. `"set -e; cd /workspace/app"`).
   * Default: none.
   */
  prelude?: string;
  /**
   * The Workspace directory the command backend's commands can read and
   * write: an absolute path. Default `"/workspace"`, what `ContainerBackend`
   * mirrors (the container sees nothing else of the Workspace). A backend
   * that sees more must say so: `WorkerShellBackend` sees the whole
   * Workspace, so give it `reach: "/"`.
   *
   * `exec` refuses (`EACCES`) calls from a JavaScript run whose `root` does
   * not contain `reach` (e.g. a backend with `root: "/workspace/proj"`):
   * a command could read and change files outside the run's root, so the
   * module would lift the confinement. There is no confined mode: a command
   * backend cannot be narrowed to a subdirectory.
   */
  reach?: string;
}

/** What `exec` resolves to in the isolate (spec 02 §4.3). */
export interface ContainerExecResult {
  /** The command's exit code; a non-zero code is returned, not thrown (124 worker-shell timeout, 143/137 container timeout or signal). */
  exitCode: number;
  /** Standard output: whole, or its kept tail when cut (see `truncated`). */
  stdout: string;
  /** Standard error: whole, or its kept tail when cut. */
  stderr: string;
  /**
   * The streams the runtime cut (spec 02 §2): `truncated.stdout.path` names
   * the Workspace file with the whole stream. Absent when nothing was cut,
   * and with Workspace `output: false` (then a cut stream starts with a
   * `[truncated, …]` line instead).
   */
  truncated?: WorkspaceRuntimeTruncation;
  /** Whether the command's file changes are in the Workspace (spec 02 §7.3). */
  sync: ContainerExecSync;
}

/** The `sync` of a {@link ContainerExecResult}. */
export interface ContainerExecSync {
  /** `"complete"`: the changes were brought back (always for `sync: "none"` backends); `"pending"`: not yet. */
  status: "complete" | "pending";
  /** Paths that could not be synchronised, at most 100. */
  skipped: string[];
  /** How many paths were skipped in all. */
  skippedCount: number;
  /** Why the sync is pending, cut to 1024 UTF-8 bytes; only when `status` is `"pending"` and there is a reason. */
  error?: string;
}

function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/**
 * For a call whose arguments are not JSON data (the bridge refuses it): the
 * TypeError naming the option, when it is one of ours.
 */
function explainExecArgs(args: readonly unknown[]): void {
  const options = args[1];
  if (typeof options !== "object" || options === null || Array.isArray(options)) return;
  const stdin = (options as { stdin?: unknown }).stdin;
  if (stdin instanceof ArrayBuffer || ArrayBuffer.isView(stdin)) {
    throw new TypeError(`ws:container exec: stdin must be a string, got a ${stdin.constructor.name} (bytes are not accepted; pass the input as text)`);
  }
}

function isPlainObject(value: unknown): value is Record<string, WorkspaceRuntimeValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
function clipUtf8(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return decodeUtf8(bytes.subarray(0, end));
}

/** `path` normalised lexically (absolute; `.`, `..` and repeated or trailing slashes removed). */
function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** Whether `path` is `dir` or under it (both absolute and normalised). */
function within(path: string, dir: string): boolean {
  return dir === "/" || path === dir || path.startsWith(`${dir}/`);
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** What one `exec` call asks for, parsed. */
interface ExecRequest {
  command: string;
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
}

/**
 * Parses `exec(command, options?)`'s arguments strictly (isolate `undefined`
 * arrives as `null`; a `null` option counts as absent).
 *
 * @throws TypeError naming what is wrong.
 */
function parseExecArgs(args: readonly WorkspaceRuntimeValue[]): ExecRequest {
  if (args.length < 1 || args.length > 2) {
    throw new TypeError(`ws:container exec takes a command and an optional options object, got ${args.length} arguments`);
  }
  const command = args[0];
  if (typeof command !== "string" || command === "") {
    throw new TypeError(`ws:container exec: command must be a non-empty string, got ${typeof command === "string" ? "an empty string" : typeName(command)}`);
  }
  const request: ExecRequest = { command };
  const options = args.length === 2 && args[1] !== null ? args[1] : {};
  if (!isPlainObject(options)) throw new TypeError(`ws:container exec: options must be an object, got ${typeName(options)}`);
  for (const key of Object.keys(options)) {
    if (!(EXEC_OPTIONS as readonly string[]).includes(key)) {
      throw new TypeError(`ws:container exec: unknown option ${quoteCut(key)} (options are ${EXEC_OPTIONS.join(", ")})`);
    }
  }
  const { cwd, env, stdin, timeoutMs } = options;
  if (cwd !== undefined && cwd !== null) {
    if (typeof cwd !== "string" || cwd === "") throw new TypeError(`ws:container exec: cwd must be a non-empty string, got ${typeof cwd === "string" ? "an empty string" : typeName(cwd)}`);
    request.cwd = cwd;
  }
  if (env !== undefined && env !== null) {
    if (!isPlainObject(env)) throw new TypeError(`ws:container exec: env must be an object of strings, got ${typeName(env)}`);
    for (const [name, value] of Object.entries(env)) {
      if (typeof value !== "string") throw new TypeError(`ws:container exec: env${memberCut(name)} must be a string, got ${typeName(value)}`);
    }
    request.env = env as Record<string, string>;
  }
  if (stdin !== undefined && stdin !== null) {
    if (typeof stdin !== "string") throw new TypeError(`ws:container exec: stdin must be a string, got ${typeName(stdin)}`);
    request.stdin = stdin;
  }
  if (timeoutMs !== undefined && timeoutMs !== null) {
    if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError(`ws:container exec: timeoutMs must be a positive number of milliseconds, got ${typeof timeoutMs === "number" ? String(timeoutMs) : typeName(timeoutMs)}`);
    }
    request.timeoutMs = timeoutMs;
  }
  return request;
}

/**
 * A stream the runtime kept whole although it is over the limits (Workspace
 * `output: false`), tailed here: the last `maxLines` lines within
 * `maxBytes`, on a UTF-8 boundary, after a line
 * `[truncated, showing lines A-B of N]` or, when one line is longer than
 * `maxBytes`, `[truncated, showing the last K bytes of line L]`. Within the
 * limits, `text` unchanged.
 */
export function tailOutput(text: string, maxBytes: number, maxLines: number): string {
  const window = new TailWindow();
  window.push(encoder.encode(text));
  if (window.totalBytes <= maxBytes && window.totalLines <= maxLines) return text;
  const all = window.held();
  const kept = window.keep(maxLines, maxBytes);
  const tail = all.subarray(kept.start);
  const note = kept.partialLine
    ? `[truncated, showing the last ${tail.byteLength} bytes of line ${kept.firstLine}]`
    : `[truncated, showing lines ${kept.firstLine}-${kept.totalLines} of ${kept.totalLines}]`;
  return `${note}\n${decodeUtf8(tail)}`;
}

/**
 * The `sync` field of a {@link ContainerExecResult} from a run's result
 * (spec 02 §4.3, §7.3): `status` as is; `skipped` the first 100 skipped
 * paths (of `result.sync.skipped`); `skippedCount` how many there are in
 * all; `error` only when `status` is `"pending"` and the result has one, cut
 * to 1024 UTF-8 bytes without splitting a character.
 */
export function summarizeExecSync(result: Pick<WorkspaceRuntimeResult, "sync">): ContainerExecSync {
  const sync = result.sync;
  const skipped = sync.skipped;
  const out: ContainerExecSync = {
    status: sync.status === "pending" ? "pending" : "complete",
    skipped: skipped.slice(0, CONTAINER_MODULE_MAX_SKIPPED).map((entry) => entry.path),
    skippedCount: skippedEntriesCount(skipped),
  };
  if (sync.status === "pending" && typeof sync.error === "string" && sync.error !== "") {
    out.error = clipUtf8(sync.error, CONTAINER_MODULE_MAX_ERROR_BYTES);
  }
  return out;
}

/** The `ws:container` description the JavaScript backend shows the model (spec 02 §4.3; no claim about the network). */
function describeContainerModule(maxBytes: number, maxLines: number | undefined): string {
  const kib = maxBytes % 1024 === 0 ? `${maxBytes / 1024} KiB` : `${maxBytes} bytes`;
  const lines = maxLines === undefined ? "the Workspace's line limit (2000 lines by default)" : `${maxLines} lines`;
  return [
    "Runs shell commands in a Linux container that shares this Workspace's files, so code can run npm, node, python, package managers, test runners and native binaries. The first command may be slow while the container starts.",
    "`exec(command, { cwd?, env?, stdin?, timeoutMs? })` (`command` a shell string; `env` an object of strings; `stdin` a string; `timeoutMs` a positive number, capped by the call's own deadline) resolves when the command has finished to `{ exitCode, stdout, stderr, truncated?, sync }`.",
    `Output arrives at the end, not while the command runs. Each stream keeps its end, at most ${lines} and ${kib}; when one is cut, \`truncated.stdout.path\` (or \`truncated.stderr.path\`) names a Workspace file with the whole output, usually outside the files this code can read with node:fs.`,
    "A non-zero exit code is returned in `exitCode`, not thrown.",
    "`sync.status` is `\"complete\"` when the command's file changes are in the Workspace, or `\"pending\"` when they are not yet (`sync.error` says why); `sync.skipped` lists paths that could not be synchronised. Where the command and a concurrent write change the same file, the command's change wins.",
  ].join("\n");
}

/**
 * Makes the `ws:container` host module (spec 02 §4.3), exporting
 * `exec(command, { cwd?, env?, stdin?, timeoutMs? })`.
 *
 * At connect (the factory runs once per JavaScript-backend connection) it
 * checks `host.runtime.backends()`; the connect fails (every run on that
 * backend rejects until a retry succeeds) with Error
 * `ws:container: this Workspace has no backend "<id>" (it has <ids>).`
 * when the backend is missing, or
 * `ws:container: backend "<id>" runs module source, not shell commands; createContainerModule needs a command backend.`
 * when its `protocol` is `"module"`. Callable command backends are fine.
 *
 * `exec`, in this order:
 * - arguments: 1–2; `command` a non-empty string; options only `cwd`
 *   (non-empty string), `env` (object of strings), `stdin` (string),
 *   `timeoutMs` (positive number); anything else rejects with a TypeError
 *   (`ws:container exec: unknown option "<key>" (options are cwd, env, stdin, timeoutMs)`,
 *   `ws:container exec: stdin must be a string, got a Uint8Array (bytes are not accepted; pass the input as text)`, …);
 * - on an `access: "read"` backend rejects `ws:container exec requires
 *   Workspace write access.` (`code` `EROFS`);
 * - when the calling backend's root (`ctx.root`) does not contain `reach`,
 *   rejects `ws:container exec: this run is confined to <root>, but commands
 *   on backend "<id>" reach all of <reach>; ws:container runs commands only
 *   for a JavaScript backend whose root is <reach> or above it.` (`code`
 *   `EACCES`): a command could read and change files outside the root;
 * - the timeout sent is `min(timeoutMs ?? ∞, ctx.deadline − now)`; when the
 *   host call's deadline has passed it rejects (`code` `ETIMEDOUT`); an
 *   already-aborted `ctx.signal` rejects with its reason;
 * - runs `runtime.exec(<prelude>\n<command>, { id, backend, encoding: "utf8",
 *   timeoutMs, output: { maxBytes, maxLines? }, cwd?, env?, stdin? })` with
 *   `id` = `ws:container:<ctx.callId>` (`callRecordId` of `modules/replay.ts`:
 *   the SHA-256 hex of `callId` after the prefix when that is over 256
 *   bytes) and waits for the result; an
 *   abort of `ctx.signal` (the JavaScript run was cancelled) kills the
 *   command (`handle.kill()`); once the result is read the run is disposed
 *   (`disposeExec`, errors ignored);
 * - a resumed call (`ctx.resumed`: in flight when its replay run was
 *   interrupted; `exec`'s start is journaled before the command starts, so
 *   an interruption at any moment resumes it this way — `atMostOnce` /
 *   `markAtMostOnce` of `modules/replay.ts`) does not start the command
 *   again: it reattaches with `runtime.getExec(id)` — the command still running or finished — and
 *   returns its result; when the backend no longer knows `id` it rejects
 *   `ws:container exec: this call was in flight when the run was
 *   interrupted, and its command (run "<id>" on backend "<backend>") can no
 *   longer be found; it is not started again, since it may have run.`
 *   (`code` `EEXEC_LOST`);
 * - resolves {@link ContainerExecResult}; a non-zero exit is not an error.
 *   With Workspace `output: false`, over-limit streams are tailed here
 *   ({@link tailOutput}) and `truncated` is absent.
 *
 * Rejections of `runtime.exec` (unknown backend, refused cwd, a failed
 * push, …) reject the call with the same message and `code`.
 *
 * @throws TypeError when `options` is not an object, `backend` is not a
 *   non-empty string, `maxOutputBytes` / `maxOutputLines` is not a positive
 *   integer (`createContainerModule(options): maxOutputBytes must be a positive integer, got 0`),
 *   `prelude` is not a string, or `reach` is not an absolute path
 *   (`createContainerModule(options): reach must be an absolute path, got "workspace"`).
 */
export function createContainerModule(options: ContainerModuleOptions = {}): WorkspaceModuleFactory {
  const where = "createContainerModule(options)";
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object, got ${typeName(options)}`);
  }
  const backend = options.backend === undefined ? DEFAULT_CONTAINER_MODULE_BACKEND : options.backend;
  if (typeof backend !== "string" || backend === "") {
    throw new TypeError(`${where}: backend must be a non-empty string (a backend id), got ${typeof backend === "string" ? "an empty string" : typeName(backend)}`);
  }
  const maxBytes = positiveInteger(options.maxOutputBytes === undefined ? DEFAULT_CONTAINER_MODULE_MAX_OUTPUT_BYTES : options.maxOutputBytes, `${where}: maxOutputBytes`, { got: true });
  const maxLines = options.maxOutputLines === undefined ? undefined : positiveInteger(options.maxOutputLines, `${where}: maxOutputLines`, { got: true });
  const prelude = options.prelude === undefined ? "" : options.prelude;
  if (typeof prelude !== "string") throw new TypeError(`${where}: prelude must be a string, got ${typeName(prelude)}`);
  const withPrelude = (command: string): string => (prelude.trim() === "" ? command : `${prelude}\n${command}`);
  const reachOption = options.reach === undefined ? DEFAULT_CONTAINER_MODULE_REACH : options.reach;
  if (typeof reachOption !== "string" || !reachOption.startsWith("/") || reachOption.includes("\0")) {
    throw new TypeError(`${where}: reach must be an absolute path, got ${typeof reachOption === "string" ? JSON.stringify(reachOption) : typeName(reachOption)}`);
  }
  const reach = normalizeAbsolute(reachOption);

  const factory = ((host: WorkspaceModuleHost) => {
    const runtime = host.runtime;
    const backends = runtime.backends();
    const info = backends.find((b) => b.id === backend);
    if (info === undefined) {
      const ids = backends.length === 0 ? "none" : backends.map((b) => `"${b.id}"`).join(", ");
      throw new Error(`ws:container: this Workspace has no backend "${backend}" (it has ${ids}).`);
    }
    if (info.protocol === "module") {
      throw new Error(`ws:container: backend "${backend}" runs module source, not shell commands; createContainerModule needs a command backend.`);
    }

    const exec: WorkspaceModuleFunction = async (args, ctx: WorkspaceModuleCallContext) => {
      const request = parseExecArgs(args);
      if (ctx.access !== "read-write") throw Object.assign(new Error(CONTAINER_WRITE_ACCESS_MESSAGE), { code: "EROFS" });
      const root = typeof ctx.root === "string" && ctx.root.startsWith("/") ? normalizeAbsolute(ctx.root) : "/";
      if (!within(reach, root)) {
        throw Object.assign(
          new Error(
            `ws:container exec: this run is confined to ${root}, but commands on backend "${backend}" reach all of ${reach}; ws:container runs commands only for a JavaScript backend whose root is ${reach} or above it.`,
          ),
          { code: "EACCES" },
        );
      }
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("the call was aborted");
      const left = ctx.deadline - Date.now();
      if (!(left > 0)) {
        throw Object.assign(new Error("ws:container exec: the host call's deadline has passed; there is no time left to run the command."), { code: "ETIMEDOUT" });
      }
      const timeoutMs = Math.min(request.timeoutMs ?? Infinity, left);
      const output = maxLines === undefined ? { maxBytes } : { maxBytes, maxLines };
      // The command runs as run `id` (from ctx.callId): a replay run resumed with this call in flight
      // reattaches to it — running, or finished while the object was down — and never starts it again.
      const { id, handle } = await atMostOnce<{ id: string; handle: WorkspaceRuntimeExecHandle<"utf8"> }>(ctx, "ws:container", {
        run: async (id) => ({
          id,
          handle: await runtime.exec(withPrelude(request.command), {
            id,
            backend,
            encoding: "utf8",
            timeoutMs,
            output,
            ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
            ...(request.env !== undefined ? { env: request.env } : {}),
            ...(request.stdin !== undefined ? { stdin: request.stdin } : {}),
          }),
        }),
        resume: async (id) => ({
          id,
          handle: await runtime.getExec(id, { backend, encoding: "utf8", output }).catch((error: unknown) => {
            if (codeOf(error) !== "ENOENT") throw error;
            throw lostCallError(
              `ws:container exec: this call was in flight when the run was interrupted, and its command (run "${id}" on backend "${backend}") can no longer be found; it is not started again, since it may have run.`,
            );
          }),
        }),
      });
      const kill = (): void => {
        handle.kill().catch(() => {});
      };
      ctx.signal.addEventListener("abort", kill, { once: true });
      let result: WorkspaceRuntimeResult<"utf8">;
      try {
        if (ctx.signal.aborted) kill();
        result = await handle.result();
      } finally {
        ctx.signal.removeEventListener("abort", kill);
        // Done with the handle (spec 02 §1.3: disposing cancels its local reader, never the run; issue 20, run 35, fixer XD).
        disposeQuietly(handle);
      }
      // Finished: its id is free again (a later run with this JavaScript run's id must not find it).
      await runtime.disposeExec(id, { backend }).catch(() => {});
      const out: ContainerExecResult = { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, sync: summarizeExecSync(result) };
      if (result.truncated !== undefined) {
        out.truncated = result.truncated;
      } else {
        // The runtime kept both streams whole: over our limits, that means Workspace `output: false`.
        out.stdout = tailOutput(out.stdout, maxBytes, maxLines ?? DEFAULT_MAX_LINES);
        out.stderr = tailOutput(out.stderr, maxBytes, maxLines ?? DEFAULT_MAX_LINES);
      }
      return out;
    };

    markAtMostOnce(exec);
    Object.defineProperty(exec, explainArguments, { value: explainExecArgs });
    return { exec: exec as WorkspaceModuleFunction & ExplainsArguments };
  }) as WorkspaceModuleFactory & { description?: string };
  Object.defineProperty(factory, "description", { enumerable: true, value: describeContainerModule(maxBytes, maxLines) });
  return factory;
}
