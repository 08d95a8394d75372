/**
 * Issue 20, eighteenth attack run: a daemon shell remembers at most MAX_WATCHED_RUNS (10,000) run watches and
 * forgets the oldest by insertion — a run still live and read included. `killExec` of such a run then sets its
 * deadline on a NEW watch that its stream never looks at: the host's stop (REMOTE_STOP_GRACE_MS, exit 137) never
 * comes, and a daemon that does not end the run keeps it, and the stream, going for ever.
 *
 * Tried: `daemonShell` (src/backends/daemon/handle.ts, what both container backends run commands with) over a stand-in
 * daemon whose run `first` never ends (each `events` call held 500 ms, answered empty — the way a wedged daemon, or
 * one a command took over, answers) and whose other runs exit at once; `first` started and its stream read; then
 * 10,000 more `exec`s on the same connection (0.5 s here: an agent's long session beside a dev server), then
 * `killExec("first")`. (Held: with 9,999 later execs instead, the same kill ends the stream by the host — the stderr
 * note, then exit 137 — 7,452 ms after it, past the 7,000 ms grace; a `timeoutMs` deadline stays on the stream's own
 * watch.)
 *
 * Found (low-medium; 2 of 2 runs): `watch()` deletes `watched.keys().next()` — the first run — once the map passes
 * 10,000; `killExec` finds no watch, makes a fresh one, moves ITS deadline and wakes ITS (empty) wake set, and
 * settles on the daemon's `{ killed: true }` (1 ms). The stream of `first` still holds the forgotten watch (no
 * deadline): 10,000 ms after the kill it has not ended (it would have at ~7,000 ms), and it never does — the run
 * the caller killed stays live in the Workspace for as long as the daemon says nothing.
 *
 * Suggested fix: never evict a watch a stream still uses (a non-empty `wake` set, or a count of open streams): evict
 * the oldest exited or unread one; or, past the bound, refuse the new watch rather than drop a live one.
 *
 * Fixed: daemon/handle.ts counts each watch's open streams (ended, errored or cancelled ones no longer count); past
 * MAX_WATCHED_RUNS the oldest watch no open stream reads is forgotten, never one a stream reads.
 */
import { describe, expect, it } from "vitest";
import { daemonShell, REMOTE_STOP_GRACE_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

/** MAX_WATCHED_RUNS of daemon/handle.ts (not exported). */
const MAX_WATCHED_RUNS = 10_000;

describe("attack18c: killExec of a run whose watch was evicted", () => {
  it("the host still ends a killed run the daemon does not end, after 10,000 later runs", { timeout: 40_000 }, async () => {
    let stopped = false;
    const daemon = {
      ...emptyDaemon(),
      events: async ({ id, waitMs }: { id: string; waitMs: number }) => {
        if (id !== "first") return { events: [{ seq: 1, name: "exit", code: 0 }], done: true };
        await new Promise((r) => setTimeout(r, Math.min(waitMs, 500)));
        if (stopped) throw Object.assign(new Error("ECONNRESET: test over"), { code: "ECONNRESET" });
        return { events: [], done: false };
      },
    } as unknown as DaemonApi;
    const shell = daemonShell(daemon);
    const first = await shell.exec({ id: "first", source: "sleep 1000" });
    const reader = first.events.getReader();
    const next = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "closed without exit";
        if (value.name === "exit") return `exit ${value.code}`;
      }
    })();
    try {
      for (let i = 0; i < MAX_WATCHED_RUNS; i++) await shell.exec({ id: `r${i}`, source: "true" });
      await shell.killExec({ id: "first" });
      const ended = await Promise.race([next, new Promise<string>((r) => setTimeout(() => r("still running"), REMOTE_STOP_GRACE_MS + 3_000))]);
      // Found: "still running" 10 s after the kill.
      expect(ended).toBe("exit 137");
    } finally {
      stopped = true;
      await reader.cancel().catch(() => {});
    }
  });
});
