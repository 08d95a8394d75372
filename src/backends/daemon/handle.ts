/**
 * A {@link BackendHandle} over a `computerd` session (container/README.md):
 * `rpc.shell` runs commands through the daemon's `exec`/`events`/`kill`/
 * `dispose`, `rpc.sync` is its `info`/`scan`/`read`/`apply` (the sync of
 * spec 02 §7.3, `runtime/sync.ts`). Shared by `TestBackend` (a daemon at a
 * URL) and the container backend.
 *
 * @module
 */
import { remoteCode, SYNC_ROOT, wirePath, type SyncRPC } from "../../runtime/sync.js";
import type { BackendHandle, ExecEvent, KillSignal, ShellRPC } from "../../runtime/types.js";
import { WorkspaceRuntimeError } from "../../runtime/errors.js";
import { StdioBudget } from "../worker-javascript/stdio.js";

/** One event of a daemon run (`events`). */
type DaemonEvent = { seq: number; name: "stdout" | "stderr"; data: Uint8Array } | { seq: number; name: "exit"; code: number; signal?: string; timedOut?: true };

/** The daemon's RPC surface this library calls (`Computerd` in container/lib/api.mjs). */
export interface DaemonApi extends SyncRPC {
  exec(input: { id: string; command: string; cwd?: string; env?: Record<string, string>; stdin?: Uint8Array; timeoutMs?: number }): Promise<{ id: string; pid?: number }>;
  events(input: { id: string; after?: number; waitMs?: number }): Promise<{ events: DaemonEvent[]; done: boolean }>;
  kill(input: { id: string; signal?: string | number }): Promise<{ killed: boolean }>;
  dispose(input: { id: string }): Promise<{ disposed: true }>;
}

/**
 * Bytes of each output stream (stdout, stderr apart) of one run on a remote
 * command backend (a container: `ContainerBackend`, `LegacyContainerBackend`,
 * `TestBackend`) that reach the caller and the saved output file: 64 MiB
 * (67108864), the JavaScript backend's default `maxStdioBytes`. The rest of a
 * stream is still read from the daemon (the command is never blocked by it)
 * and counted, not kept: before `exit` the stream gets the marker line
 * `[stdout truncated: MAX_REMOTE_OUTPUT_BYTES (67108864 bytes) reached; <n>
 * bytes dropped]`. Counted from where a handle's replay starts
 * (`getExec` with `resume` replays count afresh). Write large output to a
 * Workspace file instead (`cmd > /workspace/out.log`).
 */
export const MAX_REMOTE_OUTPUT_BYTES = 64 * 1024 * 1024;

/** How long one `events` call may wait for the next event (ms). */
const EVENTS_WAIT_MS = 20_000;

/** Translates a daemon error into the runtime's codes where one applies (`ENOENT`, `EEXEC_BUSY`, `EINVAL`). */
function translate(error: unknown): unknown {
  const code = remoteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ENOENT" || code === "EEXEC_BUSY" || code === "EINVAL" || code === "ELOG_TRUNCATED") {
    return new WorkspaceRuntimeError(code as never, message.replace(/^[A-Z_]+: /, ""));
  }
  return error;
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translate(error);
  }
}

/** The daemon's cwd (relative to its mount point) for a Workspace cwd. */
function daemonCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  if (!cwd.startsWith("/")) return cwd;
  // Lexically, like the daemon: "/workspace/../etc" is "/etc", outside.
  const parts: string[] = [];
  for (const part of cwd.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const wire = wirePath(`/${parts.join("/")}`);
  if (wire === null) {
    throw new WorkspaceRuntimeError("EINVAL", `exec: cwd ${JSON.stringify(cwd)} is outside ${SYNC_ROOT}, the directory the container shares with the Workspace`);
  }
  return wire;
}

const encoder = new TextEncoder();

/** A value the daemon sent, for a message: at most 40 characters of a string, never the whole of a big value. */
function describe(value: unknown): string {
  if (typeof value === "string") return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}… (a string of ${value.length} characters)` : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? "an array" : `a value of type ${typeof value}`;
}

/** A run's exit code when the daemon's is valid (an integer 0–255), else `undefined`. */
function exitCode(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255 ? value : undefined;
}

/**
 * A run's events from `after` as a stream: long-polls the daemon, closes
 * after `exit`. Each output stream is cut at {@link MAX_REMOTE_OUTPUT_BYTES}
 * (the rest read and counted), with the marker line before `exit`. An exit
 * code that is not an integer 0–255 ends the run with exit 1 and a stderr
 * line naming it.
 */
function eventStream(api: DaemonApi, id: string, after: number): ReadableStream<ExecEvent> {
  let last = after;
  let cancelled = false;
  let stderrLast = 10;
  const budget = new StdioBudget(MAX_REMOTE_OUTPUT_BYTES, { reserve: 0, limit: "MAX_REMOTE_OUTPUT_BYTES" });
  return new ReadableStream<ExecEvent>(
    {
      async pull(controller) {
        for (;;) {
          if (cancelled) return;
          const { events } = await call(() => api.events({ id, after: last, waitMs: EVENTS_WAIT_MS }));
          if (events.length === 0) continue;
          let delivered = false;
          for (const event of events) {
            const before = last;
            last = event.seq;
            if (event.name === "exit") {
              // The marker lines go between the last output and exit (fractional seqs, as the handle's decoder flush).
              let seq = before;
              for (const marker of budget.markers()) {
                seq += (event.seq - seq) / 4;
                controller.enqueue({ id, seq, name: marker.stream, value: encoder.encode(marker.text) });
                if (marker.stream === "stderr") stderrLast = 10;
              }
              const code = exitCode(event.code);
              if (code === undefined) {
                seq += (event.seq - seq) / 4;
                const note = `[run "${id}": the container reported exit code ${describe(event.code)}, not an integer 0–255; the run is reported failed with exit code 1]`;
                controller.enqueue({ id, seq, name: "stderr", value: encoder.encode(`${stderrLast === 10 ? "" : "\n"}${note}\n`) });
              }
              controller.enqueue({ id, seq: event.seq, name: "exit", code: code ?? 1 });
              controller.close();
              return;
            }
            const raw: unknown = event.data;
            const data = budget.accept(event.name, raw instanceof Uint8Array ? raw : typeof raw === "string" ? encoder.encode(raw) : new Uint8Array(0));
            if (data.byteLength === 0) continue;
            if (event.name === "stderr") stderrLast = data[data.byteLength - 1]!;
            controller.enqueue({ id, seq: event.seq, name: event.name, value: data });
            delivered = true;
          }
          if (delivered) return;
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}

/** The seq of a run's last event now (for `after: "tail"`). */
async function lastSeq(api: DaemonApi, id: string): Promise<number> {
  let after = 0;
  for (;;) {
    const { events } = await call(() => api.events({ id, after, waitMs: 0 }));
    if (events.length === 0) return after;
    after = events[events.length - 1]!.seq;
  }
}

/** The command runner over a daemon session. */
export function daemonShell(api: DaemonApi): ShellRPC {
  return {
    async exec(input) {
      const id = input.id ?? crypto.randomUUID();
      const request: Parameters<DaemonApi["exec"]>[0] = { id, command: input.source };
      const cwd = daemonCwd(input.cwd);
      if (cwd !== undefined) request.cwd = cwd;
      if (input.env !== undefined) request.env = input.env;
      if (input.stdin !== undefined) request.stdin = input.stdin;
      if (input.timeoutMs !== undefined) request.timeoutMs = input.timeoutMs;
      await call(() => api.exec(request));
      return { id, events: eventStream(api, id, 0) };
    },
    async getExec(input) {
      const after = input.after === "tail" ? await lastSeq(api, input.id) : (input.after ?? 0);
      if (after === 0) await call(() => api.events({ id: input.id, after: 0, waitMs: 0 })); // ENOENT for an unknown id now
      return { id: input.id, events: eventStream(api, input.id, after) };
    },
    async killExec(input: { id: string; signal?: KillSignal }) {
      await call(() => api.kill(input.signal === undefined ? { id: input.id } : { id: input.id, signal: input.signal }));
    },
    async disposeExec(input) {
      await call(() => api.dispose({ id: input.id }));
    },
  };
}

/**
 * A handle over a connected daemon session: remote sync, the daemon's boot
 * id as `runtimeId`, `closed` when the transport goes.
 */
export async function daemonHandle(api: DaemonApi, transport: { closed: Promise<void>; close(): void }): Promise<BackendHandle & { runtimeId: string }> {
  const info = await api.info();
  return {
    rpc: { shell: daemonShell(api), sync: api },
    runtimeId: info.bootId,
    sync: "remote",
    closed: transport.closed,
    async close() {
      transport.close();
    },
  };
}
