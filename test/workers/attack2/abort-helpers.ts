/** Helpers shared by the `ctx.abort()` attack tests (attack2/abort, attack3/abort). */
import { env, runInDurableObject } from "cloudflare:test";

/** A fresh `ClientExecAgent`: its stub, and `fresh()` for a new stub to the same object (after an abort). */
export const agent = () => {
  const id = env.CLIENT_EXEC_AGENT.newUniqueId();
  return { stub: env.CLIENT_EXEC_AGENT.get(id), fresh: () => env.CLIENT_EXEC_AGENT.get(id) };
};

/** A real `ctx.abort(reason)` inside `stub`'s object: resolves `aborted: <message>`, or `no throw`. */
export const abortObject = (stub: DurableObjectStub, reason: string) =>
  runInDurableObject(stub, (_instance, state) => {
    state.abort(reason);
  }).then(() => "no throw", (e) => `aborted: ${(e as Error).message}`);

/**
 * A byte stream that sends two chunks (`chunk(n)` for the n-th, from 1), then
 * stalls for a minute before closing; `twoSent` resolves when it stalls.
 */
export function stallingStream(chunk: (n: number) => Uint8Array) {
  let sent = 0;
  let resolveSent!: () => void;
  const twoSent = new Promise<void>((r) => (resolveSent = r));
  const stream = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (sent >= 2) {
        resolveSent();
        await new Promise((r) => setTimeout(r, 60_000));
        c.close();
        return;
      }
      sent++;
      c.enqueue(chunk(sent));
    },
  });
  return { stream, twoSent };
}

/** `p`, or the text `still pending after <ms> ms` when it has not settled by then. */
export const within = <T,>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<string>((r) => setTimeout(() => r(`still pending after ${ms} ms`), ms))]);
