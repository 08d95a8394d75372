/**
 * Issue 20, seventeenth attack run: each sync call is bounded in time now (REMOTE_SYNC_CALL_TIMEOUT_MS,
 * attack16c), but a pull as a whole is not — a daemon that answers every call at once, with a little each
 * time, holds the run's result and the backend's sync lock for days, and `killExec` does not end the pull.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose scan lists one file `f` of
 * size 10 and whose every `read` answers 1 byte with `eof: false` after 1 ms (a taken-over daemon; a real
 * one does the same for a file that keeps growing, e.g. a log a background process writes). `exec("true",
 * { id: "r1", timeoutMs: 1000 })`, `killExec("r1")` 2 s later, then a second `exec`. (Held: a read longer
 * than asked is refused EINVAL; a file past MAX_PULL_FILE_BYTES is refused EFBIG; one call not answered
 * within 10 s fails the pull ETIMEDOUT.)
 *
 * Found (medium; 2 of 2 runs): `#download` reads until `eof` or MAX_PULL_FILE_BYTES (1 GiB), whatever the
 * scan said the size was, and nothing bounds the pull's total time or the number of calls: ~800 one-byte
 * reads a second here (10,625 reads, 10 KiB written to a file the scan listed as 10 bytes, when the result
 * was looked at 12 s after the kill) — 1 GiB at that pace is ~15 days. `killExec` answers "killed" (the
 * run itself exited) but the pull goes on: `result()` still pending 12 s after the kill, the next `exec`
 * queued behind the lock. The same holds for a scan of 10,000 one-entry pages each answered in 9.9 s
 * (27 hours) — the per-call bounds leave the whole unbounded.
 *
 * Suggested fix: give a pull an overall bound (calls or time, e.g. a few minutes, documented), past which it
 * fails ETIMEDOUT and is left pending with the lock released; let `killExec` of a run whose pull is running
 * abort that pull (sync "pending", the reason saying so); and stop a file's download at the size the scan
 * listed (a grown file is pulled by the next pull). *
 * Fixed: `#download` (runtime/sync.ts) asks for no read at or past the size the scan listed (the last answer
 * is kept whole, so a file grown since the scan lands up to one piece longer; its newer mtime makes the next
 * pull copy it again): here `f` lands as its 10 bytes after 10 reads and the run completes ("0 complete").
 * Not done: an overall bound on a pull's time or calls (a scan of 10,000 slow pages), and `killExec`
 * aborting a running pull (runtime/index.ts / the daemon handle).
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, REMOTE_STOP_GRACE_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, sleep(ms).then(() => late)]);

describe("attack17c: a pull fed one byte at a time", () => {
  it("a killed run's pull ends (pending, or complete at the scanned size) and the backend takes the next command", { timeout: 50_000 }, async () => {
    let reads = 0;
    let stopped = false;
    const daemon = {
      ...emptyDaemon(),
      scan: async () => ({ entries: [{ path: "f", kind: "file", mode: 0o644, size: 10, mtimeMs: 1 }], skipped: [], cursor: null, done: true }),
      read: async () => {
        reads++;
        await sleep(1);
        if (stopped) throw Object.assign(new Error("ECONNRESET: test over"), { code: "ECONNRESET" });
        return { data: new Uint8Array([120]), size: 10, eof: false };
      },
      events: async ({ after }: { after: number }) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true }),
    } as unknown as DaemonApi;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
    });
    await ws.fs.mkdir("/workspace", { recursive: true });
    try {
    const handle = await ws.runtime.exec("true", { backend: "box", id: "r1", timeoutMs: 1000 });
    const result = handle.result().then(
      (r) => `${r.exitCode} ${r.sync.status}`,
      (e: Error) => `rejected ${e.message}`,
    );
    await sleep(2_000);
    expect(await within(ws.runtime.killExec("r1", { backend: "box" }).then(() => "killed", () => "kill rejected"), REMOTE_STOP_GRACE_MS + 2_000, "kill pending")).toBe("killed");
    // Found: "pending" — thousands of one-byte reads later, the pull goes on.
    // Fixed: complete, `f` as the 10 bytes the scan listed, read 1 byte at a time (10 reads, then no more).
    expect(await within(result, 12_000, "pending")).toBe("0 complete");
    expect(await ws.fs.readFile("/workspace/f", "utf8")).toBe("x".repeat(10));
    const next = ws.runtime.exec("true", { backend: "box", id: "r2" }).then(() => "started", (e: Error) => `rejected ${e.message}`);
    expect(await within(next, 3_000, "queued")).toBe("started");
    expect(reads).toBe(10);
    } finally {
      stopped = true; // the trickle ends with the test, whatever it found
      await ws.close();
    }
  });
});
