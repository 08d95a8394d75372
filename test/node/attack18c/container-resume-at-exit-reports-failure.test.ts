/**
 * Issue 20, eighteenth attack run: attack17c's fix for `done: true` without an exit event (a run ended with exit 1
 * and a "daemon misbehaves" note) also fires for the REAL daemon's answer to a resume at or past a finished run's
 * exit — a run that exited 0 is reported failed, and a faithful daemon is blamed.
 *
 * Tried: the real daemon's RPC object (`Computerd`, container/lib/api.mjs, in process over a temp directory) under
 * `daemonHandle`; `echo hi` run to its end (events: stdout seq 1, exit 0 seq 2); then
 * `runtime.getExec(id, { resume: n })` for n = 1, 2 (the exit's seq: the last seq a reader saw, the natural
 * reconnect point) and 3, read to the end. (Held: resume 1 replays `exit 0` at seq 2; `resume: "tail"` replays the
 * exit, `exit 0` at seq 2.)
 *
 * Found (medium; 2 of 2 runs): the daemon answers `events(after ≥ last seq)` of a finished run with
 * `{ events: [], done: true }` — as container/README.md documents it ("`done` is true once the returned events
 * include the `exit` (or `after` is already past it)"; an evicted run answers the same) — which
 * daemon/handle.ts `eventStream` now reads as "done without its exit event": resume 2 yields stderr
 * `[run "r1": the container's daemon reported the run done without its exit event; the run is reported failed
 * with exit code 1]` at seq 2.25 and `exit 1` at seq 3 — a seq the daemon never had; resume 3 the same at 3.25 / 4.
 * The run exited 0. Every resume past the exit invents a later exit, so a reader reconnecting from the last seq it
 * saw gets a different ending each time.
 *
 * Suggested fix: in `eventStream`, an empty `done: true` answer at a resume (`after > 0`) is not a misbehaviour:
 * look the exit up as `lastSeq` does for the tail (the run's last event, `events({ after: 0 … })` paging, or
 * remember the exit seen on this connection) and replay it (or end the stream with no events when `after` is at
 * or past it, as the module backends do); keep the "done without exit" failure for a run whose log never had an
 * exit at or before `after`.
 *
 * Fixed: daemon/handle.ts `eventStream` ends a resumed stream (`after` > 0) with no events when the daemon's first
 * answer is an empty `done: true` (nothing after `after`: seq > n holds); "done without exit" stays for a stream
 * that read events first.
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "./real-daemon.js";

type Event = { seq: number; name: string; value?: unknown; code?: number };

describe("attack18c: resume at a finished run's exit on the real daemon", () => {
  it("getExec with resume at or past the exit seq does not report exit 1 nor blame the daemon", { timeout: 30_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    try {
      const collect = async (resume: number | "tail") => {
        const out: Event[] = [];
        for await (const e of await ws.runtime.getExec("r1", { backend: "box", resume, encoding: "utf8" })) out.push(e as Event);
        return out;
      };
      const first: Event[] = [];
      for await (const e of await ws.runtime.exec("echo hi", { backend: "box", id: "r1", encoding: "utf8" })) first.push(e as Event);
      expect(first.map((e) => [e.seq, e.name, e.value ?? e.code])).toEqual([
        [1, "stdout", "hi\n"],
        [2, "exit", 0],
      ]);
      // Held: a resume before the exit, and the tail, replay the exit as it was.
      expect((await collect(1)).map((e) => [e.seq, e.name, e.code])).toEqual([[2, "exit", 0]]);
      expect((await collect("tail")).map((e) => [e.seq, e.name, e.code])).toEqual([[2, "exit", 0]]);
      // Found: [[2.25, "stderr", "[run \"r1\": … done without its exit event; … exit code 1]\n"], [3, "exit", 1]] and [[3.25, …], [4, "exit", 1]].
      const atExit = await collect(2);
      const pastExit = await collect(3);
      for (const events of [atExit, pastExit]) {
        expect(events.filter((e) => e.name !== "exit")).toEqual([]);
        expect(events.filter((e) => e.name === "exit").map((e) => [e.seq, e.code])).toEqual(events.length === 0 ? [] : [[2, 0]]);
      }
    } finally {
      await close();
    }
  });
});
