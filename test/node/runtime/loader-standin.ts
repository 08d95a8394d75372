/**
 * A Worker Loader stand-in for Node tests of the JavaScript backend (Node has no Worker Loader): every load gives an entrypoint whose
 * `evaluate(input, bridge)` is the test's function, talking to the backend's real bridge. Everything else — journal, runs, streams — is
 * the backend's own code.
 */

/** The part of the backend's bridge the stand-ins use. */
export interface StandInBridge {
  output(bytes: Uint8Array, segments: number[]): unknown;
  call(kind: string, target: string, name: string, args: unknown[], meta: { seq: number; tape: number[] }): Promise<unknown>;
}

/** A loader whose isolates run `evaluate` (cast it `as never` where a WorkerLoader is expected). */
export function standInLoader<I>(evaluate: (input: I, bridge: StandInBridge) => Promise<unknown>) {
  return {
    load() {
      return {
        getEntrypoint() {
          return { evaluate, [Symbol.dispose]() {} };
        },
      };
    },
  };
}

/** Waits (polling every 20 ms) until `probe()` holds; throws naming `what` after `ms`. */
export async function until(probe: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
