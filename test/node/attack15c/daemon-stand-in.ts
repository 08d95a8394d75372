/**
 * A daemon stand-in for the attack15c tests: an empty container at `/workspace` (nothing to scan, nothing
 * ignored) whose every call succeeds. Tests spread it and replace the calls they attack (`events`, `kill`, …).
 */
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";

export function emptyDaemon(): DaemonApi & Record<string, unknown> {
  return {
    info: async () => ({ mountPoint: "/workspace", ignore: [], bootId: "boot-1" }),
    scan: async () => ({ entries: [], skipped: [], cursor: null, done: true }),
    read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
    apply: async ({ ops }: { ops: unknown[] }) => ({ results: ops.map(() => ({ ok: true })) }),
    exec: async ({ id }: { id: string }) => ({ id, pid: 1 }),
    events: async () => ({ events: [], done: true }),
    kill: async () => ({ killed: true }),
    dispose: async () => ({ disposed: true as const }),
  } as unknown as DaemonApi & Record<string, unknown>;
}

/**
 * A Workspace (in-memory) whose backend `box` is a stand-in daemon where every run stays live (each long-poll answers
 * nothing new after 20 ms) and every `kill` call is recorded in `kills`; `handle` is the daemon shell's handle.
 */
export async function liveRunWorkspace() {
  const kills: unknown[] = [];
  const daemon = {
    ...emptyDaemon(),
    events: async () => (await new Promise((resolve) => setTimeout(resolve, 20)), { events: [], done: false }),
    kill: async (input: unknown) => (kills.push(input), { killed: true }),
  } as unknown as DaemonApi;
  const handle = await daemonHandle(daemon, { closed: new Promise<void>(() => {}), close() {} });
  const ws = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => handle }],
  });
  return { ws, handle, kills };
}

/** `"resolved"`, or `<code>: <message>` of the rejection. */
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => `${(error as { code?: string }).code}: ${(error as Error).message}`,
  );
