/**
 * Issue 20, eighteenth attack run: `getExec(id, { resume: n })` replays `seq > n` (runtime/index.ts, spec 02
 * §1.6), but a remote run's host-made lines — the note on an invalid exit code, on `done` without exit, on a run the
 * host ended, and the output-cut markers — are written again on every replay whatever `n`, at seqs at or below it.
 *
 * Tried: a Workspace runtime over `daemonHandle` with a stand-in daemon whose run has stdout `hi\n` (seq 1) and
 * `exit` with code 300 (seq 2) — a daemon taken over by a command decides its exit codes; then `getExec` with
 * `resume` 1, 1.25 (the note's seq, as a reader that saw it resumes) and 1.5. (Held: the first read gets stdout at 1,
 * the note `[run "r1": the container reported exit code 300, not an integer 0–255; …]` at 1.25, `exit 1` at 2;
 * resume 1 replays the note and the exit.)
 *
 * Found (low; 2 of 2 runs): daemon/handle.ts `eventStream`'s `end` enqueues the markers and the note at
 * `last + (exitSeq - last) / 4` with no check against `after` (only output pieces are skipped `seq <= after`):
 * resume 1.25 and resume 1.5 both replay the stderr note at seq 1.25 — a reader resuming from the last seq it saw
 * gets that line twice (in its stderr and in the output it saves), and the events are not `seq > n` as documented.
 *
 * Suggested fix: in `end`, skip the markers and the note whose seq is `<= after` (as the pieces loop does), or give
 * them seqs that are a pure function of the daemon's exit seq and filter them the same way.
 *
 * Fixed: daemon/handle.ts `eventStream`'s `end` sends the markers, the note and the exit only when their seq is
 * above `after`; `resume: "tail"` of a run the host ended starts at the host's end (its note and exit 137).
 */
import { describe, expect, it } from "vitest";
import { type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";
import { workspaceOver } from "./real-daemon.js";

type Event = { seq: number; name: string; value?: unknown; code?: number };

describe("attack18c: a resume past the host's note", () => {
  it("getExec with resume n replays no host note at or before n", { timeout: 30_000 }, async () => {
    const daemon = {
      ...emptyDaemon(),
      events: async ({ after }: { after: number }) => ({
        events: [
          { seq: 1, name: "stdout", data: new TextEncoder().encode("hi\n") },
          { seq: 2, name: "exit", code: 300 },
        ].filter((e) => e.seq > after),
        done: true,
      }),
    } as unknown as DaemonApi;
    const ws = await workspaceOver(daemon);
    try {
      const collect = async (handle: AsyncIterable<unknown>) => {
        const out: [number, string][] = [];
        for await (const e of handle as AsyncIterable<Event>) out.push([e.seq, e.name]);
        return out;
      };
      expect(await collect(await ws.runtime.exec("x", { backend: "box", id: "r1", encoding: "utf8" }))).toEqual([
        [1, "stdout"],
        [1.25, "stderr"],
        [2, "exit"],
      ]);
      // Found: [[1.25, "stderr"], [2, "exit"]] for both — the note at 1.25 again.
      expect(await collect(await ws.runtime.getExec("r1", { backend: "box", resume: 1.25, encoding: "utf8" }))).toEqual([[2, "exit"]]);
      expect(await collect(await ws.runtime.getExec("r1", { backend: "box", resume: 1.5, encoding: "utf8" }))).toEqual([[2, "exit"]]);
    } finally {
      await ws.close();
    }
  });
});
