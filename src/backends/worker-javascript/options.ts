/**
 * Options of {@link WorkerJavaScriptBackend} with their defaults and
 * construction-time validation (spec 02 §3.1, §3.3).
 *
 * @module
 */
import type { WorkspaceModule, WorkspaceModuleFactory, WorkspaceModuleFunctions } from "../../modules/types.js";
import type { WorkspaceRuntimePendingCall } from "../../runtime/index.js";
import { normalizePath } from "../../util/path.js";
import { isPositiveInteger } from "../../util/validate.js";
import { CAPABILITIES_MODULE, ENTRY_FILE, INTERNAL_DIR, RUNNER_MODULE } from "./isolate.js";

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Outbound network policy of the isolate (spec 02 §3.8): `"none"` (fetch()
 * fails; the Dynamic Worker gets `globalOutbound: null`), `"direct"` (the
 * platform's network), or `"http-gateway"` (every request goes to `gateway`,
 * a Fetcher; `revision` is free-form, for the gateway's own versioning).
 */
export type WorkerJavaScriptEgress =
  | {
      /** No network: `fetch()` fails. */
      mode: "none";
    }
  | {
      /** The platform's network, unfiltered. */
      mode: "direct";
    }
  | {
      /** Every request goes to `gateway`. */
      mode: "http-gateway";
      /** The Fetcher (a service binding or RPC stub with `fetch()`) that receives every request. */
      gateway: Fetcher;
      /** Free-form revision of the gateway's policy, for its own versioning. Default: none. */
      revision?: string;
    };

/** The Worker Loader binding (`env.LOADER`, `[[worker_loaders]]` in wrangler config). */
export interface WorkerLoaderLike {
  /**
   * Creates a Dynamic Worker from `code`: `modules` by name (`{ js }` for an
   * ES module), `mainModule` the entry, `limits.cpuMs` its CPU budget (ms),
   * `globalOutbound` its network (`null`: none). The backend calls
   * `getEntrypoint()` on the result to reach the runner over RPC.
   */
  load(code: {
    compatibilityDate: string;
    compatibilityFlags?: string[];
    limits?: { cpuMs?: number };
    mainModule: string;
    modules: Record<string, string | { js?: string; text?: string; json?: unknown }>;
    globalOutbound?: Fetcher | null;
  }): { getEntrypoint(name?: string, options?: { limits?: { cpuMs?: number } }): unknown };
}

/**
 * Options of `new WorkerJavaScriptBackend(options)` (spec 02 §3.1). Sizes
 * are bytes, times milliseconds. Every limit must be a positive number
 * (sizes and counts a positive safe integer).
 */
export interface WorkerJavaScriptBackendOptions {
  /** Required. The Worker Loader binding (`env.LOADER`, `[[worker_loaders]]` in the wrangler config). */
  loader: WorkerLoaderLike;
  /**
   * Backend id, the `backend` of `runtime.exec`.
   * @defaultValue `"worker-javascript"`
   */
  id?: string;
  /**
   * Absolute directory code may reach through `node:fs`; also the default
   * cwd. Normalised lexically (`/a/./b/..` → `/a`). Read-write runs create it.
   * @defaultValue `"/workspace"`
   */
  root?: string;
  /**
   * `"read"` refuses every write through `node:fs` and prebuilt host modules (`EROFS`).
   * @defaultValue `"read-write"`
   */
  access?: "read" | "read-write";
  /**
   * Importable modules (spec 02 §3.3): bundled source strings by bare name,
   * and `ws:*` host modules (an object of functions, or a factory run at connect).
   * @defaultValue `{}`
   */
  modules?: Readonly<Record<string, WorkspaceModule>>;
  /**
   * Timeout (ms) when `exec` gives none; at most `maxTimeoutMs`.
   * @defaultValue `min(60000, maxTimeoutMs)`
   */
  defaultTimeoutMs?: number;
  /**
   * Largest `timeoutMs` (ms) accepted.
   * @defaultValue `180000`
   */
  maxTimeoutMs?: number;
  /**
   * CPU limit (ms) per run; the run gets `min(timeout, maxCpuMs)`.
   * @defaultValue `maxTimeoutMs`
   */
  maxCpuMs?: number;
  /**
   * What happens to a run when a restart of the Durable Object interrupts
   * it (spec 02 §5); `exec`'s `onInterrupt` overrides it per run.
   * - `"fail"`: the run settles failed (exit 1, `Execution was interrupted when its Workspace runtime restarted.`).
   * - `"restart"`: the run starts again from the beginning when the backend
   *   next connects; its earlier output is kept, stderr says
   *   `Execution restarted from the beginning…`.
   * - `"replay"`: the run runs again and is served what it saw the first
   *   time — answered `node:fs`, host-module and `fetch` calls from the
   *   journal, the same clock, timers and random numbers — so it reaches
   *   the point where it was interrupted and goes on from there; output it
   *   printed before is not printed twice. Only replay runs can wait for an
   *   answer (`ctx.interrupt()`).
   *
   * At most 3 attempts without progress, within the run's original timeout
   * (plus time spent waiting for answers); see docs/runtime.md "Approvals
   * and durable runs".
   * @defaultValue `"fail"`
   */
  onInterrupt?: "fail" | "restart" | "replay";
  /**
   * Called when a call of a replay run starts waiting for an answer
   * (`ctx.interrupt(payload)`, spec 02 §5), at most once per wait, with the
   * fields of `workspace.runtime.pending()`. Use it to notify a person. A
   * throw or rejection is logged and ignored; a crash can lose the call, so
   * `pending()` is the authority.
   * @defaultValue none (nobody is told; `pending()` still lists the call)
   */
  onWait?: (call: WorkspaceRuntimePendingCall) => void | Promise<void>;
  /**
   * Keep-alive interval (ms) while a run is live; `0` = off; below `900000`.
   * @defaultValue `60000`
   */
  keepAliveIntervalMs?: number;
  /**
   * Total source bytes of a run's module graph.
   * @defaultValue 1 MiB
   */
  maxSourceBytes?: number;
  /**
   * Bytes of JSON of `input`.
   * @defaultValue 1 MiB
   */
  maxInputBytes?: number;
  /**
   * Σ key + value bytes (UTF-8) of `env`.
   * @defaultValue 1 MiB
   */
  maxEnvBytes?: number;
  /**
   * Bytes of JSON of the returned value.
   * @defaultValue 1 MiB
   */
  maxResultBytes?: number;
  /**
   * Bytes kept of **each** output stream of a run (stdout and stderr count
   * apart, so a flood on stdout never starves stderr). This is the cap on
   * what is journaled, replayed and so saved to the full-output file
   * (`<dir>/<backend>.<id>.<stream>.log`, spec 02 §2); memory is not: the
   * runtime keeps only a tail window of each stream (`output.maxBytes` /
   * `maxLines`). The write that crosses the cap is cut on a UTF-8 boundary,
   * later output of that stream is dropped, and when the run ends the
   * stream gets one marker line
   * `[stdout truncated: maxStdioBytes (<cap> bytes) reached; <n> bytes dropped]`.
   * The runner's own failure message may use 16 KiB of stderr past the cap.
   * Journal storage per run is up to twice this (both streams) until the
   * run is pruned (`retentionMs`, `maxRetainedExecutions`, `maxRetainedBytes`).
   * 0.8.0: 1 MiB for both streams together (see docs/porting.md).
   * @defaultValue 64 MiB (`67108864`)
   */
  maxStdioBytes?: number;
  /**
   * stdin bytes.
   * @defaultValue 256 KiB
   */
  maxStdinBytes?: number;
  /**
   * Bytes per host request/response and per file read; at least 256 (spec 02 §3.6).
   * @defaultValue 1 MiB
   */
  maxCapabilityBytes?: number;
  /**
   * Deadline (ms) of one host call; a call past it fails `ETIMEDOUT` and so does the run.
   * @defaultValue `maxTimeoutMs`
   */
  maxHostCallMs?: number;
  /**
   * Host calls in flight at once per run (more fail `E2BIG`). In a replay
   * run a call refused for it counts against `maxCapabilityCalls`, and its
   * refusal (not its arguments) is journaled so a resumed attempt replays it.
   * @defaultValue `32`
   */
  maxConcurrentCapabilityCalls?: number;
  /**
   * Host calls per run (more fail `E2BIG`). In a replay run: over all its
   * attempts (calls answered from the journal count), and a refused call
   * journals nothing.
   * @defaultValue `256`
   */
  maxCapabilityCalls?: number;
  /**
   * Cumulative host request bytes per run: host-module and `node:fs` calls,
   * and in a replay run `fetch` requests too (journaled until the run ends;
   * over all its attempts: calls answered from the journal count). Past it
   * the call rejects with code `E2BIG` and journals nothing.
   * @defaultValue 8 MiB
   */
  maxCapabilityRequestBytes?: number;
  /**
   * Cumulative host response bytes per run: host-module and `node:fs`
   * answers, and in a replay run `fetch` responses too (journaled until the
   * run ends; over all its attempts: answers served from the journal count).
   * Past it the call rejects with code `E2BIG`.
   * @defaultValue 8 MiB
   */
  maxCapabilityResponseBytes?: number;
  /**
   * Entries `readdir` may return (more fail `E2BIG`). The listing is read
   * at most `READDIR_PAGE_ENTRIES` (64) entries at a time (fewer so a page of
   * the longest names the directory can hold stays within the response budget
   * left) and stops `E2BIG` once past this or what is left of
   * `maxCapabilityResponseBytes`.
   * @defaultValue `1024`
   */
  maxDirectoryEntries?: number;
  /**
   * Open event streams per run, the exec handle's included (more fail `EEXEC_BUSY`).
   * @defaultValue `8`
   */
  maxExecutionSubscribers?: number;
  /**
   * How long (ms) finished runs are kept in the journal.
   * @defaultValue 60 minutes (`3600000`)
   */
  retentionMs?: number;
  /**
   * Bytes of journaled output (stdout and stderr) kept for finished runs,
   * per backend, counted from the newest run: older finished runs past it
   * are pruned, as past `retentionMs` or `maxRetainedExecutions`. The newest
   * finished run is always kept whole; running runs are never pruned. This
   * bounds the journal's storage (each run may journal up to
   * 2 × `maxStdioBytes`).
   * @defaultValue 256 MiB (`268435456`)
   */
  maxRetainedBytes?: number;
  /**
   * Finished runs kept per backend.
   * @defaultValue `100`
   */
  maxRetainedExecutions?: number;
  /**
   * Compatibility date of each Dynamic Worker (`YYYY-MM-DD`).
   * @defaultValue `"2026-05-23"`
   */
  compatibilityDate?: string;
  /**
   * Compatibility flags of each Dynamic Worker; they replace the default.
   * `nodejs_compat` (or `_v2`) makes Node built-ins importable.
   * @defaultValue `["nodejs_compat"]`
   */
  compatibilityFlags?: readonly string[];
  /**
   * Network policy of the isolate (spec 02 §3.8).
   * @defaultValue `{ mode: "none" }`
   */
  egress?: WorkerJavaScriptEgress;
  /**
   * @deprecated Use `egress` (passing both is a TypeError). `null` ≡
   * `{ mode: "none" }`, a Fetcher ≡ `{ mode: "http-gateway", gateway }`.
   * @defaultValue unset: `egress` decides
   */
  globalOutbound?: Fetcher | null;
}

/**
 * Validated options with every default applied: each member is the option
 * of the same name in {@link WorkerJavaScriptBackendOptions} (same units),
 * `root` normalised, `modules` as `[name, module]` pairs in the order given,
 * and `egress` resolved from `egress` or the legacy `globalOutbound`.
 */
export interface ResolvedOptions {
  loader: WorkerLoaderLike;
  id: string;
  root: string;
  access: "read" | "read-write";
  modules: ReadonlyArray<[string, WorkspaceModule]>;
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxCpuMs: number;
  onInterrupt: "fail" | "restart" | "replay";
  onWait: ((call: WorkspaceRuntimePendingCall) => void | Promise<void>) | undefined;
  keepAliveIntervalMs: number;
  maxSourceBytes: number;
  maxInputBytes: number;
  maxEnvBytes: number;
  maxResultBytes: number;
  maxStdioBytes: number;
  maxStdinBytes: number;
  maxCapabilityBytes: number;
  maxHostCallMs: number;
  maxConcurrentCapabilityCalls: number;
  maxCapabilityCalls: number;
  maxCapabilityRequestBytes: number;
  maxCapabilityResponseBytes: number;
  maxDirectoryEntries: number;
  maxExecutionSubscribers: number;
  retentionMs: number;
  maxRetainedExecutions: number;
  maxRetainedBytes: number;
  compatibilityDate: string;
  compatibilityFlags: string[];
  egress: WorkerJavaScriptEgress;
}

/** Path segments reserved for the backend's internal modules (spec 02 §3.3): no configured module or imported path may use them. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([CAPABILITIES_MODULE, "workspace-durable.js", RUNNER_MODULE, ENTRY_FILE, INTERNAL_DIR]);

const HOST_KEY = /^ws:[A-Za-z0-9][A-Za-z0-9._-]*$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function fail(message: string): never {
  throw new TypeError(`WorkerJavaScriptBackend: ${message}`);
}

/** `options[key]`, or `fallback` when unset; `count` asks for a positive safe integer, else a positive finite number. */
function positive(options: WorkerJavaScriptBackendOptions, key: keyof WorkerJavaScriptBackendOptions, fallback: number, count = false): number {
  const value = options[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(count ? isPositiveInteger(value) : Number.isFinite(value) && value > 0)) {
    fail(`${key} must be a positive ${count ? "safe integer" : "finite number"}, got ${String(value)}`);
  }
  return value;
}

/** `root` normalised lexically, once it is an absolute path without NUL. */
function normalizeRoot(root: string): string {
  if (typeof root !== "string" || !root.startsWith("/") || root.includes("\0")) fail(`root must be an absolute path, got ${JSON.stringify(root)}`);
  return normalizePath(root);
}

function validateModules(modules: Readonly<Record<string, WorkspaceModule>>): [string, WorkspaceModule][] {
  if (typeof modules !== "object" || modules === null) fail("modules must be an object of name → module");
  const out: [string, WorkspaceModule][] = [];
  for (const [name, value] of Object.entries(modules)) {
    if (name === "node:fs" || name === "node:fs/promises") fail(`module "${name}" is built in and cannot be replaced`);
    if (typeof value === "string") {
      if (name.startsWith("ws:")) fail(`module "${name}": the ws: namespace is for host modules (an object of functions or a factory), not source strings`);
      if (name === "" || name.includes("/") || RESERVED_NAMES.has(name) || name.startsWith("node:")) {
        fail(`module name "${name}" is not allowed: use a bare name without "/" that is not reserved for Workspace internals`);
      }
      out.push([name, value]);
      continue;
    }
    if (typeof value === "function" || (typeof value === "object" && value !== null)) {
      if (!HOST_KEY.test(name)) fail(`host module "${name}" must be named like "ws:name" (letters, digits, ".", "_", "-")`);
      if (typeof value === "object") validateFunctions(name, value as WorkspaceModuleFunctions);
      out.push([name, value]);
      continue;
    }
    fail(`module "${name}" must be a source string, an object of functions or a factory function, got ${typeof value}`);
  }
  return out;
}

/**
 * Checks a host module's exports (also used at connect for factory output):
 * an object of functions, each named by an identifier other than `default`
 * and `then`; at least one unless `allowEmpty`.
 *
 * @throws TypeError `WorkerJavaScriptBackend: host module "<name>" …` naming the fault.
 */
export function validateFunctions(name: string, fns: WorkspaceModuleFunctions, allowEmpty = false): void {
  if (typeof fns !== "object" || fns === null || Array.isArray(fns)) fail(`host module "${name}" must be an object of functions`);
  const keys = Object.keys(fns);
  if (keys.length === 0 && !allowEmpty) fail(`host module "${name}" has no functions`);
  for (const key of keys) {
    if (typeof (fns as Record<string, unknown>)[key] !== "function") fail(`host module "${name}": export "${key}" is not a function`);
    if (!IDENTIFIER.test(key) || key === "default" || key === "then") {
      fail(`host module "${name}": export name "${key}" must be an identifier other than "default" and "then"`);
    }
  }
}

/**
 * Applies defaults and validates every option (spec 02 §3.1).
 *
 * @throws TypeError `WorkerJavaScriptBackend: <option> …` naming the option when a
 *   value is invalid (the `onInterrupt` message has no prefix).
 */
export function resolveOptions(options: WorkerJavaScriptBackendOptions): ResolvedOptions {
  if (!options || typeof options !== "object") fail("options are required: new WorkerJavaScriptBackend({ loader: env.LOADER })");
  const loader = options.loader;
  if (!loader || typeof (loader as { load?: unknown }).load !== "function") {
    fail("loader is required: pass a Worker Loader binding (env.LOADER, declared as [[worker_loaders]] in your wrangler config)");
  }
  const id = options.id ?? "worker-javascript";
  if (typeof id !== "string" || id === "") fail("id must be a non-empty string");
  const access = options.access ?? "read-write";
  if (access !== "read" && access !== "read-write") fail(`access must be "read" or "read-write", got ${JSON.stringify(access)}`);
  const maxTimeoutMs = positive(options, "maxTimeoutMs", 180_000);
  const defaultTimeoutMs = positive(options, "defaultTimeoutMs", Math.min(60_000, maxTimeoutMs));
  if (defaultTimeoutMs > maxTimeoutMs) fail(`defaultTimeoutMs (${defaultTimeoutMs}) cannot exceed maxTimeoutMs (${maxTimeoutMs})`);
  const onInterrupt = options.onInterrupt ?? "fail";
  if (onInterrupt !== "fail" && onInterrupt !== "restart" && onInterrupt !== "replay") {
    throw new TypeError('onInterrupt must be "fail", "restart" or "replay".');
  }
  if (options.onWait !== undefined && typeof options.onWait !== "function") fail(`onWait must be a function, got ${options.onWait === null ? "null" : typeof options.onWait}`);
  const keepAliveIntervalMs = options.keepAliveIntervalMs ?? 60_000;
  if (typeof keepAliveIntervalMs !== "number" || !Number.isFinite(keepAliveIntervalMs) || keepAliveIntervalMs < 0 || keepAliveIntervalMs >= 900_000) {
    fail(`keepAliveIntervalMs must be 0 (off) or a number of ms below 900000, got ${String(keepAliveIntervalMs)}`);
  }
  const maxCapabilityBytes = positive(options, "maxCapabilityBytes", MiB, true);
  if (maxCapabilityBytes < 256) fail(`maxCapabilityBytes must be at least 256, got ${maxCapabilityBytes}`);
  const compatibilityDate = options.compatibilityDate ?? "2026-05-23";
  if (typeof compatibilityDate !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(compatibilityDate)) {
    fail(`compatibilityDate must be YYYY-MM-DD, got ${JSON.stringify(compatibilityDate)}`);
  }
  const flags = options.compatibilityFlags ?? ["nodejs_compat"];
  if (!Array.isArray(flags) || flags.some((f) => typeof f !== "string")) fail("compatibilityFlags must be an array of strings");
  if (options.egress !== undefined && options.globalOutbound !== undefined) {
    fail("pass egress or the legacy globalOutbound, not both");
  }
  let egress: WorkerJavaScriptEgress = { mode: "none" };
  if (options.egress !== undefined) {
    const e = options.egress as WorkerJavaScriptEgress;
    if (!e || (e.mode !== "none" && e.mode !== "direct" && e.mode !== "http-gateway")) {
      fail('egress must be { mode: "none" }, { mode: "direct" } or { mode: "http-gateway", gateway }');
    }
    if (e.mode === "http-gateway" && (!e.gateway || typeof (e.gateway as { fetch?: unknown }).fetch !== "function")) {
      fail("egress.gateway must be a Fetcher (an object with fetch())");
    }
    egress = e;
  } else if (options.globalOutbound !== undefined) {
    egress = options.globalOutbound === null ? { mode: "none" } : { mode: "http-gateway", gateway: options.globalOutbound };
  }
  const maxTimeoutFinal = maxTimeoutMs;
  return {
    loader,
    id,
    root: normalizeRoot(options.root ?? "/workspace"),
    access,
    modules: validateModules(options.modules ?? {}),
    defaultTimeoutMs,
    maxTimeoutMs: maxTimeoutFinal,
    maxCpuMs: positive(options, "maxCpuMs", maxTimeoutFinal),
    onInterrupt,
    onWait: options.onWait,
    keepAliveIntervalMs,
    maxSourceBytes: positive(options, "maxSourceBytes", MiB, true),
    maxInputBytes: positive(options, "maxInputBytes", MiB, true),
    maxEnvBytes: positive(options, "maxEnvBytes", MiB, true),
    maxResultBytes: positive(options, "maxResultBytes", MiB, true),
    maxStdioBytes: positive(options, "maxStdioBytes", 64 * MiB, true),
    maxStdinBytes: positive(options, "maxStdinBytes", 256 * KiB, true),
    maxCapabilityBytes,
    maxHostCallMs: positive(options, "maxHostCallMs", maxTimeoutFinal),
    maxConcurrentCapabilityCalls: positive(options, "maxConcurrentCapabilityCalls", 32, true),
    maxCapabilityCalls: positive(options, "maxCapabilityCalls", 256, true),
    maxCapabilityRequestBytes: positive(options, "maxCapabilityRequestBytes", 8 * MiB, true),
    maxCapabilityResponseBytes: positive(options, "maxCapabilityResponseBytes", 8 * MiB, true),
    maxDirectoryEntries: positive(options, "maxDirectoryEntries", 1024, true),
    maxExecutionSubscribers: positive(options, "maxExecutionSubscribers", 8, true),
    retentionMs: positive(options, "retentionMs", 60 * 60_000),
    maxRetainedExecutions: positive(options, "maxRetainedExecutions", 100, true),
    maxRetainedBytes: positive(options, "maxRetainedBytes", 256 * MiB, true),
    compatibilityDate,
    compatibilityFlags: [...flags],
    egress,
  };
}

/** True when the flags enable Node built-ins. */
export function nodeCompat(flags: readonly string[]): boolean {
  return flags.includes("nodejs_compat") || flags.includes("nodejs_compat_v2");
}

/** A host module factory (function) vs a static object of functions. */
export function isFactory(value: WorkspaceModule): value is WorkspaceModuleFactory {
  return typeof value === "function";
}
