/**
 * A Worker Loader stand-in for Node tests of the JavaScript backend (Node has no Worker Loader): every load gives an entrypoint whose
 * `evaluate(input, bridge)` is the test's function, talking to the backend's real bridge. Everything else — journal, runs, streams — is
 * the backend's own code.
 */
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

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

/** The bridge's answer to one fs call: `{ ok: true, value }` or `{ ok: false, error }`. */
export type StandInAnswer<T = unknown> = { ok: boolean; value?: T; error?: { code?: string; message: string } };

/**
 * A Workspace (in-memory storage) with the JavaScript backend (`backend` options added) whose run calls `node:fs`
 * `readdir(dir)` once through the real bridge. `run()` runs it (exit code 0 expected by the caller) and gives the answer.
 */
export function readdirWorkspace<T = { name: string }[]>(dir: string, backend: Record<string, unknown> = {}) {
  let answer: StandInAnswer<T> | undefined;
  const loader = standInLoader(async (_input, bridge) => {
    answer = (await bridge.call("fs", "", "readdir", [dir], { seq: 1, tape: [] })) as StandInAnswer<T>;
    return { code: 0, value: "null" };
  });
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new WorkerJavaScriptBackend({ loader: loader as never, ...backend })] });
  return {
    ws,
    async run(): Promise<{ exitCode: number | null | undefined; answer: StandInAnswer<T> }> {
      const result = await (await ws.runtime.exec("export default () => null;", { encoding: "utf8" })).result();
      return { exitCode: result.exitCode, answer: answer! };
    },
  };
}
