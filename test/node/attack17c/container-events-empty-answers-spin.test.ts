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
 * Fixed: daemon/handle.ts `eventStream` ends a run whose `events` answer says `done: true` without its exit event with
 * exit 1 and the stderr line `[run "<id>": the container's daemon reported the run done without its exit event; …]`,
 * and after REMOTE_EARLY_EMPTY_ANSWERS (3) empty answers in a row back before half their `waitMs` waits out the rest of
 * each call's `waitMs` before asking again. (`getExec(id, { resume: "tail" })` on a finished run now starts before its
 * exit event, so that stream gets the run's exit code rather than `done`.)
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, REMOTE_EARLY_EMPTY_ANSWERS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("attack17c: empty events answers", () => {
  it("a daemon answering nothing at once is not polled thousands of times a second", { timeout: 30_000 }, async () => {
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
      const handle = await ws.runtime.exec("true", { backend: "box", id: "r1", encoding: "utf8" });
      const result = handle.result().then((r) => ({ status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }));
      await sleep(2_000);
      // Found: ~180,000 calls in 2 s.
      expect(calls).toBeLessThan(200);
      // The first `done: true` without an exit ends the run.
      expect(calls).toBe(1);
      expect(await result).toEqual({
        status: "failed",
        exitCode: 1,
        stdout: "",
        stderr: `[run "r1": the container's daemon reported the run done without its exit event; the run is reported failed with exit code 1]\n`,
      });
    } finally {
      stopped = true; // the stream errors out with the test, whatever it found
      await ws.close();
    }
  });

  it("empty answers with done: false, at once, are paced after REMOTE_EARLY_EMPTY_ANSWERS in a row; killExec still ends the run", { timeout: 30_000 }, async () => {
    let calls = 0;
    let stopped = false;
    const daemon = {
      ...emptyDaemon(),
      events: async () => {
        calls++;
        await new Promise((r) => setImmediate(r));
        if (stopped) throw Object.assign(new Error("ECONNRESET: test over"), { code: "ECONNRESET" });
        return { events: [], done: false };
      },
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    try {
      const handle = await ws.runtime.exec("true", { backend: "box", id: "r1" });
      const result = handle.result().then((r) => `${r.exitCode} ${r.status}`);
      await sleep(2_000);
      expect(calls).toBe(REMOTE_EARLY_EMPTY_ANSWERS);
      await ws.runtime.killExec("r1", { backend: "box" });
      // The kill wakes the paused stream; the host ends the run past the grace (the daemon never ends it).
      expect(await result).toBe("137 cancelled");
      expect(calls).toBeLessThanOrEqual(REMOTE_EARLY_EMPTY_ANSWERS + 3);
    } finally {
      stopped = true;
      await ws.close();
    }
  });
});
