/**
 * Issue 20, eighteenth attack run: `getExec(id, { resume: "tail" })` on a container run finds the end of the run's
 * log by walking `events` calls — and every `events({ after })` tells the daemon "the reader has everything up to
 * `after`" (container/lib/runs.mjs `ack`). The daemon then drops that output from its log and lifts flow control, so
 * the run's first reader, still behind, loses its output: "output nobody has read is never dropped"
 * (docs/container.md, Limits) does not hold once anyone reattaches at the tail.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) under `daemonHandle`; `runtime.exec` of
 * `head -c 12000000 /dev/zero; echo done >&2` (12 MB of output, more than the daemon's 8 MiB log budget: flow
 * control holds the command once 8 MiB are unread), its handle not read yet; once the daemon had produced 8 MiB,
 * a second reader `getExec("big", { resume: "tail" })` (a client reattaching to watch the end), read to its end;
 * then the first handle read. (Held: the tail reader gets the run's last events and `exit 0`.)
 *
 * Found (medium; 2 of 2 runs): daemon/handle.ts `lastSeq` asks `events({ after })` page after page (up to
 * MAX_TAIL_CALLS, 64), and the tail stream reads on from there; each call acks up to its `after`, the daemon trims
 * the acked events past COMPUTERD_LOG_MAX_BYTES and releases the command. The first handle then fails at once:
 * `ELOG_TRUNCATED run "big": events after 0 are no longer kept (oldest kept seq is 2)` with 0 of its 12,000,000
 * bytes — the run's result rejects, and its pull is abandoned (left pending).
 *
 * Suggested fix: let a reader look without acking — a daemon `events` option (`ack: false`) or a `tail({ id })` call
 * answering the last seq, used by `lastSeq` and by a reattached stream that is not the run's first reader; or have
 * the daemon keep acks per reader (connection/stream) and trim only what every live reader has passed.
 *
 * Fixed: the daemon's `events` takes `ack: false` (container/lib/runs.mjs, api.mjs; container/README.md): a look
 * that acknowledges nothing. daemon/handle.ts `lastSeq` always looks that way, and of a run's open streams on a
 * connection only the oldest acknowledges (the others call with `ack: false`). The expectation changed: the tail
 * reader is now read BESIDE the first reader, not to its end before it — flow control holds the command once 8 MiB
 * are unread, and with nothing dropped the exit comes only when the first reader reads (the old order could only
 * end by dropping the first reader's output, the defect itself).
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "./real-daemon.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("attack18c: a tail reattach beside an unread reader", () => {
  it("the first reader still gets all of the run's output after another reattaches at the tail", { timeout: 60_000 }, async () => {
    const { ws, daemon, close } = await realDaemonWorkspace();
    try {
      const first = await ws.runtime.exec("head -c 12000000 /dev/zero; echo done >&2", { backend: "box", id: "big" });
      // Wait until the daemon holds 8 MiB unread (its flow control then holds the command).
      const run = () => (daemon as unknown as { s: { runs: { runs: Map<string, { producedBytes: number }> } } }).s.runs.runs.get("big");
      for (let i = 0; i < 200 && (run()?.producedBytes ?? 0) < 8 * 1024 * 1024; i++) await sleep(100);
      expect(run()!.producedBytes).toBeGreaterThanOrEqual(8 * 1024 * 1024);
      const tail: string[] = [];
      const tailRead = (async () => {
        for await (const e of await ws.runtime.getExec("big", { backend: "box", resume: "tail" })) tail.push(e.name === "exit" ? `exit ${e.code}` : e.name);
      })();
      // The tail reattach (lastSeq's walk and the tail stream's first call) acknowledges nothing: all 8 MiB still unread.
      for (let i = 0; i < 20 && tail.length === 0; i++) await sleep(100);
      expect(run()!.producedBytes).toBeLessThan(12_000_000);
      let bytes = 0;
      let end: string;
      try {
        end = "no exit";
        for await (const e of first) {
          if (e.name === "stdout") bytes += (e.value as Uint8Array).byteLength;
          if (e.name === "exit") end = `exit ${e.code}`;
        }
      } catch (e) {
        end = `threw ${(e as { code?: string }).code}`;
      }
      // Found: { bytes: 0, end: "threw ELOG_TRUNCATED" }.
      expect({ bytes, end }).toEqual({ bytes: 12_000_000, end: "exit 0" });
      await tailRead;
      expect(tail.at(-1)).toBe("exit 0");
    } finally {
      await close();
    }
  });
});
