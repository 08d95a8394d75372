/**
 * Helpers of the durable-run tests (issue 16): a fresh `DurableAgent`, a real
 * `ctx.abort()` inside it, and bounded waits.
 */
import { env } from "cloudflare:test";
import { inject } from "vitest";
import { getWorkspace, Workspace, type WorkspaceModuleCallContext, type WorkspaceRuntimePendingCall, type WorkspaceRuntimeResult } from "../../../src/index.js";
import { WorkerJavaScriptBackend, type WorkerJavaScriptBackendOptions } from "../../../src/backends/worker-javascript/index.js";
import { abortObject } from "../attack2/abort-helpers.js";

/** A fresh `DurableAgent`: its stub, and `fresh()` for a new stub to the same object (after an abort). */
export function durable() {
  const id = env.DURABLE_AGENT.newUniqueId();
  return { stub: env.DURABLE_AGENT.get(id), fresh: () => env.DURABLE_AGENT.get(id) };
}

/** The stub type of a `DurableAgent`. */
export type DurableStub = ReturnType<ReturnType<typeof durable>["fresh"]>;

/**
 * A real `ctx.abort()` of the object behind `stub`: the Durable Object
 * restarts on its next request. Pass a stub that has not seen an abort (a
 * broken stub rejects with the old reason without reaching the object).
 */
export async function restart(stub: DurableObjectStub, reason = "durable test: simulated restart"): Promise<void> {
  const a = await abortObject(stub, reason);
  if (!a.startsWith("aborted")) throw new Error(`ctx.abort() did not abort the object: ${a}`);
}

/** Base URL of the loopback HTTP server (test/shared/http-global-setup.ts). */
export const httpServer = (): string => inject("httpServer");

/** Resolves `p`, or `fallback` after `ms` (a bound on a test about hanging). */
export function within<T, F = string>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<F>((r) => (timer = setTimeout(() => r(fallback), ms)))]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` every 100 ms until it returns something other than `undefined`; throws `what` after `ms`. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The result of run `id` (utf8), read through a new client of `stub`; the
 * string `result() still pending after <ms> ms` when it does not settle.
 */
export async function resultOf(
  stub: DurableStub,
  id: string,
  options: { backend?: string; ms?: number } = {},
): Promise<WorkspaceRuntimeResult<"utf8"> | string> {
  const ms = options.ms ?? 30_000;
  using ws = await getWorkspace(stub);
  using handle = await ws.runtime.getExec(id, { encoding: "utf8", ...(options.backend ? { backend: options.backend } : {}) });
  return within(handle.result() as Promise<WorkspaceRuntimeResult<"utf8">>, ms, `result() still pending after ${ms} ms`);
}

/**
 * Starts run `id` of `source` through a client of `stub` and returns once it
 * is launched (the handle is disposed; the run goes on).
 */
export async function start(
  stub: DurableStub,
  source: string,
  options: { id: string; onInterrupt?: "fail" | "restart" | "replay"; backend?: string; timeoutMs?: number; input?: unknown },
): Promise<void> {
  using ws = await getWorkspace(stub);
  await ws.fs.mkdir("/workspace", { recursive: true });
  const o: Record<string, unknown> = { id: options.id, encoding: "utf8" };
  if (options.onInterrupt) o.onInterrupt = options.onInterrupt;
  if (options.backend) o.backend = options.backend;
  if (options.timeoutMs) o.timeoutMs = options.timeoutMs;
  if (options.input !== undefined) o.input = options.input;
  using _handle = await ws.runtime.exec(source, o as never);
}

/** Polls `ws.runtime.pending()` every 100 ms until it lists a call; the list (empty after `ms`). */
export async function pendingOf(ws: { runtime: { pending(): Promise<WorkspaceRuntimePendingCall[]> } }, ms = 60_000): Promise<WorkspaceRuntimePendingCall[]> {
  const end = Date.now() + ms;
  let pending = await ws.runtime.pending();
  while (pending.length === 0 && Date.now() < end) {
    await sleep(100);
    pending = await ws.runtime.pending();
  }
  return pending;
}

/**
 * Polls `pending()` until it lists `n` calls (of any run). When `runIds` are
 * given and one of those runs settles first, throws naming its status and
 * stderr (so a run that failed instead of waiting says why).
 */
export async function waitingCalls(
  stub: () => DurableStub,
  n = 1,
  runIds: { id: string; backend?: string }[] = [],
  ms = 20_000,
): Promise<WorkspaceRuntimePendingCall[]> {
  return until(async () => {
    using ws = await getWorkspace(stub());
    const calls = await ws.runtime.pending();
    if (calls.length === n) return calls;
    for (const run of runIds) {
      using h = await ws.runtime.getExec(run.id, { encoding: "utf8", ...(run.backend ? { backend: run.backend } : {}) });
      const settled = h.result();
      settled.catch(() => {});
      const r = await within(settled, 50, undefined);
      if (r !== undefined) throw new Error(`run ${run.id} settled instead of waiting: ${r.status} ${r.exitCode} ${JSON.stringify(r.stderr)}`);
    }
    return undefined;
  }, `${n} pending call(s)`, ms);
}

/** A `ws:` module function that interrupts with its first argument as the payload (a call the host must answer). */
export const askHost = (args: readonly unknown[], ctx: WorkspaceModuleCallContext): unknown => ctx.interrupt(args[0] as string);

/**
 * A Workspace on `storage` (a Durable Object's) whose one backend is the JavaScript backend with `onInterrupt: "replay"`
 * and `options` (modules, budgets, egress); `/workspace` is made.
 */
export async function replayWorkspace(storage: DurableObjectStorage, options: Omit<WorkerJavaScriptBackendOptions, "loader" | "onInterrupt">): Promise<Workspace> {
  const ws = new Workspace({ storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, onInterrupt: "replay", ...options })] });
  await ws.fs.mkdir("/workspace", { recursive: true });
  return ws;
}
