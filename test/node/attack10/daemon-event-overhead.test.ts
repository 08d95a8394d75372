/**
 * Issue 20 tenth attack run, category 2 (memory from a small input): the
 * container daemon's event log (container/lib/runs.mjs `Runs`).
 *
 * Each `data` chunk node reads from a command's stdout/stderr becomes one
 * `RunEvent` (`{ seq, name, data: new Uint8Array(…) }`), and the log's budget
 * (`COMPUTERD_LOG_MAX_BYTES`, 8 MiB per run; `trim` drops the oldest past it)
 * counts only `data` bytes. A command that writes a byte at a time — a
 * shell loop of `printf x`, a progress indicator, `tee` of a slow pipe, a
 * program with an unbuffered stdout — produces a chunk of 1–2 bytes per
 * read, and each costs ~350 bytes of heap: the log's memory is ~190× its
 * budget. Trimming starts only past 8 MiB of data, so a reader that keeps
 * up does not help; and up to `COMPUTERD_LOG_MAX_RUNS` (100) finished runs
 * keep theirs.
 *
 * DEFECT (medium: the daemon — every run, every log — is killed for memory by
 * one small command) — reproduction:
 *   runs.start({ id: "r", command: 'i=0; while [ $i -lt 300000 ]; do printf x; i=$((i+1)); done', … });
 *   // after exit: 300,000 bytes kept in ~160,000 events; heap + array buffers +57 MB
 * At the 8 MiB budget that is ~1.6 GB for one run of a 60-byte command
 * (about 30 s of shell loop), past the memory of a container instance.
 * Expected: what a run's log holds in memory is bounded by about its byte
 * budget — e.g. adjacent output events of one stream coalesced while
 * unread, or a per-event overhead counted against the budget.
 *
 * FIXED: output of a stream nobody has been handed yet is added to that
 * stream's latest event (up to 64 KiB, amortised buffer) instead of a new
 * event per pipe read; an event is sealed (exact copy) when first returned.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error — plain ESM module of the container daemon, no type declarations
import { Runs } from "../../../container/lib/runs.mjs";

type RunLike = { live: boolean; events: unknown[]; keptBytes: number };

describe("attack10: daemon event log memory for byte-at-a-time output", () => {
  it("300,000 one-byte writes hold less than 10 bytes of heap per output byte", { timeout: 120_000 }, async () => {
    const runs = new Runs({ killGraceMs: 1000, logRetentionMs: 600_000, logMaxRuns: 100, logMaxBytes: 8 * 1024 * 1024 });
    try {
      const base = process.memoryUsage();
      runs.start({ id: "r", command: "i=0; while [ $i -lt 300000 ]; do printf x; i=$((i+1)); done", cwd: "/tmp", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdin: undefined, timeoutMs: 0 });
      const run = (): RunLike => (runs as { runs: Map<string, RunLike> }).runs.get("r")!;
      while (run().live) await new Promise((r) => setTimeout(r, 100));
      const now = process.memoryUsage();
      const grew = now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers;
      expect(run().keptBytes).toBe(300_000);
      // Actual: ~160,000 events, heap + array buffers grew ~57 MB (≈ 190 bytes per output byte).
      expect(grew).toBeLessThan(10 * 300_000);
    } finally {
      runs.close();
    }
  });
});
