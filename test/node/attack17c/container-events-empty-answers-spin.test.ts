/**
 * Issue 20, seventeenth attack run: a run's event stream polls the daemon again at once after every empty
 * `events` answer, and ignores `done: true` — a daemon that answers `{ events: [], done: true }` immediately
 * (instead of long-polling `waitMs`) makes the object call it as fast as it answers, for the run's whole life.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose `events` answers
 * `{ events: [], done: true }` on the next turn of the event loop (`setImmediate`), never an exit; a run
 * without `timeoutMs` (the exec tool's default leaves the daemon's own timeout), watched for 2 s; then
 * `killExec`. (Held: `killExec` ends the run by the host after REMOTE_STOP_GRACE_MS — `137 cancelled` in
 * 7,061 ms; a run with `timeoutMs` gets the host deadline.)
 *
 * Found (low-medium; 2 of 2 runs): daemon/handle.ts `eventStream` asks with `waitMs: 20000` and, when the
 * answer has no events, loops straight into the next call (`continue`) — `done` is never read: 179,668
 * `events` calls in 2 s here (every one asked `waitMs: 20000`), 847,150 by the time the kill ended it. Over
 * the real WebSocket each answer is a message the object handles: a daemon taken over by a command (or a
 * buggy one) keeps the object busy and billed for as long as the run lasts — up to the daemon's own timeout
 * for a run without `timeoutMs`, i.e. for ever once the daemon is not the real one.
 *
 * Suggested fix: treat an empty answer before `waitMs` elapsed as the daemon's misbehaviour after a few in a
 * row (pace the next call, e.g. wait what is left of `waitMs`, or fail EPROTOCOL), and a `done: true`
 * without an exit event as the end of the run (exit 1 with a stderr note naming the daemon, as for an
 * invalid exit code).
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("attack17c: empty events answers", () => {
  it.fails("a daemon answering nothing at once is not polled thousands of times a second", { timeout: 30_000 }, async () => {
    let calls = 0;
    let stopped = false;
    const daemon = {
      ...emptyDaemon(),
      events: async () => {
        calls++;
        await new Promise((r) => setImmediate(r));
        if (stopped) throw Object.assign(new Error("ECONNRESET: test over"), { code: "ECONNRESET" });
        return { events: [], done: true };
      },
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    try {
      const handle = await ws.runtime.exec("true", { backend: "box", id: "r1" });
      void handle.result().catch(() => {});
      await sleep(2_000);
      // Found: ~180,000 calls in 2 s.
      expect(calls).toBeLessThan(200);
    } finally {
      stopped = true; // the stream errors out with the test, whatever it found
      await ws.close();
    }
  });
});
