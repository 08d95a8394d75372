/**
 * Issue 20, seventeenth attack run: a container daemon's output event is passed on as one event whatever its
 * size, so through the RPC layer it becomes one NDJSON line past MAX_EVENT_LINE_BYTES — a line the package's
 * own decoder refuses, and which the object builds in several whole copies.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose `events` answers one `stdout`
 * event of 24 MiB (16 MiB below) and `exit` 0 (a daemon taken over by a command decides its event sizes; the
 * real one sends at most 1 MiB an answer), the run's handle served by `WorkspaceRuntimeExecHandleStub` (what
 * `getWorkspace(stub)` clients read), its `stream()` read, and decoded with `decodeRuntimeEvents`
 * (src/do/event-framing.ts: "Longest event line accepted or produced by default: 16 MiB (a 1 MiB output
 * chunk takes about 1.4 MiB as base64)"). (Held: the run's output is cut at MAX_REMOTE_OUTPUT_BYTES per
 * stream; `result()` over RPC is measured, E2BIG past 30 MiB — fix16f.)
 *
 * Found (medium-low; 2 of 2 runs): daemon/handle.ts `eventStream` enqueues the daemon's `data` as it came,
 * and exec-events.ts `encodeEventLine` writes each event as one line: the 24 MiB event is one chunk of
 * 33,554,524 bytes; `decodeRuntimeEvents` rejects it `EPROTOCOL line 1: longer than maxLineBytes (16777216)`
 * (the run's output and exit are lost to that reader), and the client's own decoder (`decodeEventStream`,
 * no line bound) holds the whole line. Building it takes the event's bytes, its base64 string, the JSON
 * string and the encoded bytes at once (~24 + 32 + 32 + 32 MiB) — past a 128 MB object for one event.
 *
 * Suggested fix: cut output events into pieces of at most 1 MiB in `eventStream` (seq numbers between the
 * daemon's, as the host's markers already use), or in `encodeEventStream`, so every line stays well within
 * MAX_EVENT_LINE_BYTES.
 * Fixed: daemon/handle.ts `eventStream` passes an output event longer than REMOTE_OUTPUT_PIECE_BYTES (1 MiB) on in
 * pieces of that size, seqs `s - 1 + k/n` (the last keeps the daemon's seq `s`; a `getExec` resume from a piece's seq
 * replays the pieces after it), so each line over RPC is about 1.4 MiB.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { WorkspaceRuntimeExecHandleStub } from "../../../src/do/exec-handle-stub.js";
import { decodeRuntimeEvents, MAX_EVENT_LINE_BYTES } from "../../../src/do/event-framing.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

describe("attack17c: one big daemon output event over RPC", () => {
  it("the stub's event stream keeps every line within MAX_EVENT_LINE_BYTES and decodes whole", { timeout: 50_000 }, async () => {
    const big = new Uint8Array(16 * 1024 * 1024).fill(120);
    const daemon = {
      ...emptyDaemon(),
      events: async ({ after }: { after: number }) => ({
        events: [
          { seq: 1, name: "stdout", data: big },
          { seq: 2, name: "exit", code: 0 },
        ].filter((e) => e.seq > after),
        done: true,
      }),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const handle = await ws.runtime.exec("true", { backend: "box" });
    const [measured, decoded] = new WorkspaceRuntimeExecHandleStub(handle).stream().tee();
    let longest = 0;
    for await (const chunk of measured as unknown as AsyncIterable<Uint8Array>) longest = Math.max(longest, chunk.byteLength);
    let stdout = 0;
    let exit: string | undefined;
    try {
      for await (const event of decodeRuntimeEvents(decoded) as AsyncIterable<{ name: string; value?: unknown; code?: number }>) {
        if (event.name === "stdout") stdout += (event.value as Uint8Array).byteLength;
        if (event.name === "exit") exit = `exit ${event.code}`;
      }
    } catch (e) {
      exit = `${(e as { code?: string }).code} ${(e as Error).message}`;
    }
    await ws.close();
    // Found: one line of 22,369,716 bytes (16 MiB as base64, in JSON), refused "EPROTOCOL line 1: longer than maxLineBytes (16777216)".
    expect(longest).toBeLessThanOrEqual(MAX_EVENT_LINE_BYTES);
    expect({ stdout, exit }).toEqual({ stdout: 16 * 1024 * 1024, exit: "exit 0" });
  });
});
