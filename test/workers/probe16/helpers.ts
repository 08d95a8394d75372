/**
 * Probe 16 helpers: a Workspace with a replay backend whose host modules call
 * `ctx.interrupt` in various (odd) ways, plus bounded waits.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Workspace, type WorkspaceModuleCallContext, type WorkspaceRuntimePendingCall } from "../../../src/index.js";
import { WorkerJavaScriptBackend, type WorkerJavaScriptBackendOptions } from "../../../src/backends/worker-javascript/index.js";

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function within<T, F = string>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<F>((r) => (timer = setTimeout(() => r(fallback), ms)))]).finally(() => clearTimeout(timer));
}

/** Error → plain `{ name, code, message }` (or "resolved"). */
export const outcome = (p: Promise<unknown>) =>
  p.then(
    () => "resolved" as const,
    (e: Error & { code?: string }) => ({ name: e?.name, code: e?.code, message: String(e?.message) }),
  );

/** State shared by the probe modules (per test). */
export type Probe = { stored?: WorkspaceModuleCallContext; calls: string[] };

export function probeModules(probe: Probe): WorkerJavaScriptBackendOptions["modules"] {
  const errOf = (e: unknown) => ({ name: (e as Error)?.name, code: (e as { code?: string })?.code, message: String((e as Error)?.message) });
  return {
    "ws:ask": {
      async ask(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
        probe.calls.push(ctx.callId);
        return await ctx.interrupt((args[0] ?? null) as never);
      },
      /** interrupt with a non-JSON payload of kind args[0]; returns the rejection (or the answer). */
      async askOdd(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
        const kind = args[0] as string;
        let payload: unknown;
        if (kind === "undefined") payload = undefined;
        else if (kind === "function") payload = () => 1;
        else if (kind === "map") payload = new Map([["a", 1]]);
        else if (kind === "bigint") payload = 10n;
        else if (kind === "cyclic") { const o: Record<string, unknown> = {}; o.self = o; payload = o; }
        else if (kind === "symbol") payload = Symbol("x");
        else if (kind === "nan") payload = NaN;
        else if (kind === "date") payload = new Date(0);
        else if (kind === "deep") { let o: unknown = 1; for (let i = 0; i < 10_000; i++) o = [o]; payload = o; }
        try {
          return { answer: await ctx.interrupt(payload as never) };
        } catch (e) {
          return { error: errOf(e) };
        }
      },
      /** stores ctx and returns at once. */
      stash(_args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
        probe.stored = ctx;
        return "stashed";
      },
      /** calls interrupt on the ctx stored by an earlier call. */
      async late(_args: readonly unknown[], _ctx: WorkspaceModuleCallContext) {
        try {
          return { answer: await probe.stored!.interrupt("late" as never) };
        } catch (e) {
          return { error: errOf(e) };
        }
      },
      async caught(args: readonly unknown[], ctx: WorkspaceModuleCallContext) {
        try {
          return { answer: await ctx.interrupt((args[0] ?? null) as never) };
        } catch (e) {
          return { error: errOf(e) };
        }
      },
    },
  };
}

/** A Workspace (not owned by the DO class) on `storage` with a replay backend. */
export function probeWorkspace(
  storage: DurableObjectStorage,
  probe: Probe,
  backend: Partial<WorkerJavaScriptBackendOptions> = {},
): Workspace {
  return new Workspace({
    storage,
    backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, onInterrupt: "replay", modules: probeModules(probe), ...backend })],
  });
}

/**
 * Runs `fn` in a fresh Durable Object with a probe Workspace (`backend`
 * options over the probe's replay backend) and `/workspace` made; closes the
 * Workspace after.
 */
export async function withProbe<T>(
  fn: (ws: Workspace, probe: Probe, state: DurableObjectState) => Promise<T>,
  backend: Partial<WorkerJavaScriptBackendOptions> = {},
): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const probe: Probe = { calls: [] };
    const ws = probeWorkspace(state.storage, probe, backend);
    await ws.fs.mkdir("/workspace", { recursive: true });
    try {
      return await fn(ws, probe, state);
    } finally {
      await ws.close();
    }
  });
}

/** Polls `ws.runtime.pending()` until it lists `n` calls; throws after `ms`. */
export async function pendingN(ws: Workspace, n: number, ms = 20_000): Promise<WorkspaceRuntimePendingCall[]> {
  const end = Date.now() + ms;
  for (;;) {
    const calls = await ws.runtime.pending();
    if (calls.length >= n) return calls;
    if (Date.now() > end) throw new Error(`timed out waiting for ${n} pending calls (have ${calls.length})`);
    await sleep(50);
  }
}
