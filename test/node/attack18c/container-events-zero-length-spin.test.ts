/**
 * Issue 20, eighteenth attack run: attack17c paced a daemon that answers `events` with nothing at once
 * (REMOTE_EARLY_EMPTY_ANSWERS), but an answer of output events that carry no bytes is not "empty" to that check —
 * a daemon answering one zero-length `stdout` event at once, every call, is still polled as fast as it answers.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose `events` answers, on the next turn
 * of the event loop, `{ events: [{ seq: after + 1, name: "stdout", data: <0 bytes> }], done: false }` (a daemon
 * taken over by a command decides its answers; the real one never sends an empty output event); a run without
 * `timeoutMs`, watched for 2 s; then `killExec`. (Held: `killExec` still ends the run by the host, `137 cancelled`.)
 *
 * Found (low-medium; 2 of 2 runs): daemon/handle.ts `eventStream` resets `early` on any non-empty answer and, since
 * no piece was `delivered` (a 0-byte piece is not enqueued), loops straight into the next call: 144,620 (and 180,909) `events`
 * calls in 2 s, 1,207,989 by the time the kill ended the run — the spin attack17c fixed, one field away. (The same
 * holds for events whose `data` is neither bytes nor a string: read as 0 bytes.) The host's end after a kill also
 * came 15,212 ms after `killExec` rather than REMOTE_STOP_GRACE_MS (7,000): `overdue` counts only the time spent
 * waiting on answers, not the loop's own time between them.
 *
 * Suggested fix: count an answer that delivered no bytes (all its output events empty, or cut by the budget) as
 * an early empty answer for the pacing, or refuse a 0-byte output event as EPROTOCOL (the real daemon never sends
 * one); measure the grace past the deadline from the deadline (wall clock), not as the sum of call times.
 *
 * Fixed: daemon/handle.ts `eventStream` counts an answer whose output events carry no bytes after `after` as empty
 * (paced after REMOTE_EARLY_EMPTY_ANSWERS; past the deadline the host ends the run), and measures the grace past the
 * deadline on the wall clock from when the stream found it passed.
 */
import { describe, expect, it } from "vitest";
import { REMOTE_EARLY_EMPTY_ANSWERS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";
import { workspaceOver } from "./real-daemon.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("attack18c: zero-length output events", () => {
  it("a daemon answering empty output events at once is paced like one answering no events", { timeout: 40_000 }, async () => {
    let calls = 0;
    let stopped = false;
    const daemon = {
      ...emptyDaemon(),
      events: async ({ after }: { after: number }) => {
        calls++;
        await new Promise((r) => setImmediate(r));
        if (stopped) throw Object.assign(new Error("ECONNRESET: test over"), { code: "ECONNRESET" });
        return { events: [{ seq: Math.floor(after) + 1, name: "stdout", data: new Uint8Array(0) }], done: false };
      },
    } as unknown as DaemonApi;
    const ws = await workspaceOver(daemon);
    try {
      const handle = await ws.runtime.exec("true", { backend: "box", id: "r1" });
      const result = handle.result().then((r) => `${r.exitCode} ${r.status}`);
      await sleep(2_000);
      const before = calls;
      await ws.runtime.killExec("r1", { backend: "box" });
      const ended = await result;
      // Found: 144,620 calls in 2 s (1,207,989 by the end), as with no pacing at all.
      expect({ before, ended }).toEqual({ before: REMOTE_EARLY_EMPTY_ANSWERS, ended: "137 cancelled" });
    } finally {
      stopped = true;
      await ws.close();
    }
  });
});
