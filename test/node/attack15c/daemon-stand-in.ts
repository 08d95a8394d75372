/**
 * A daemon stand-in for the attack15c tests: an empty container at `/workspace` (nothing to scan, nothing
 * ignored) whose every call succeeds. Tests spread it and replace the calls they attack (`events`, `kill`, …).
 */
import type { DaemonApi } from "../../../src/backends/daemon/handle.js";

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
