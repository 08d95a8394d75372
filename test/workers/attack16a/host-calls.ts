/** Shared by attack16a's tests: a sampler of the host's event loop, and a run calling `ws:m`'s `f` with one argument. */
import { inWorkspace } from "../runtime/helpers.js";

/** Runs `fn`, sampling the event loop every 50 ms meanwhile; `gap`: the longest time between two samples (ms). */
export async function withGapSampler<T>(fn: () => Promise<T>): Promise<{ value: T; gap: number }> {
  let last = Date.now();
  let gap = 0;
  const iv = setInterval(() => {
    const now = Date.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 50);
  try {
    const value = await fn();
    return { value, gap };
  } finally {
    clearInterval(iv);
  }
}

/**
 * Runs `f(<arg>)` (`ws:m`'s `f` answers "ran") in a run with `timeoutMs: 1000` (and `onInterrupt: "replay"` when
 * `replay`), sampling the host's event loop meanwhile; the run's value is `f`'s answer or its error as
 * `[name, code, message]`.
 */
export async function callF(arg: string, replay = false, timeoutMs = 1000): Promise<{ status: string; value: [string, string | null, string] | undefined; gap: number }> {
  return inWorkspace(
    async (ws) => {
      const { value: r, gap } = await withGapSampler(async () => {
        const h = await ws.runtime.exec(
          `import { f } from "ws:m";
           export default async () => { try { return await f(${arg}); } catch (e) { return [e.name, e.code ?? null, e.message]; } };`,
          { encoding: "utf8", timeoutMs, ...(replay ? { onInterrupt: "replay" as const } : {}) },
        );
        return h.result();
      });
      return { status: r.status, value: r.value as [string, string | null, string] | undefined, gap };
    },
    { backend: { modules: { "ws:m": { f: () => "ran" } } } },
  );
}
