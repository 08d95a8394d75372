/**
 * Issue 20, eighteenth attack run: a container run's id may be used again once the run has finished (the daemon
 * replaces the finished run), but a reader of the first run that is still behind then reads the NEW run's events
 * as its own — the first run's remaining output is lost and it reports the second run's exit code.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) under `daemonHandle`; `runtime.exec`
 * of `echo a1; sleep 0.3; echo a2; exit 5` with id `x`, its stream read up to its first event (`a1`) and left
 * there (a slow client, a UI streaming it); once the run had ended, `runtime.exec("echo B1; exit 3", { id: "x" })`
 * (an agent reusing a fixed id — the ids are the caller's), read to its end; then the first stream read on. (Held:
 * the second run itself is whole: stdout `B1\n`, exit 3; a reuse while the first run is live is EEXEC_BUSY.)
 *
 * Found (medium-low; 2 of 2 runs): the first stream's next `events({ id: "x", after: 1 })` reaches the new run (the
 * daemon's run map holds one run per id; container/lib/runs.mjs refuses "replaced" only during a wait), whose seq 2
 * is its exit: the first run's stream yields `exit 3` — `a2` and its real exit 5 are gone, with no error. daemon/handle.ts
 * `exec` knows it replaced the run (`watched.delete(id)` gives the new run a fresh watch) but the old stream keeps
 * reading by id alone.
 *
 * Suggested fix: tell runs apart on the wire — the daemon's `exec` answer carries a run generation (or its pid) that
 * `events` echoes or takes (`{ id, run }`), refusing `ELOG_TRUNCATED "run x was replaced"` for another; or the host
 * fails a stream whose watch was replaced by a later `exec` of the same id (`EEXEC_REPLACED`) instead of reading on.
 *
 * Fixed: daemon/handle.ts `exec` marks the watch of the run it replaced; that run's streams on the connection then
 * fail `ELOG_TRUNCATED` (`run "x": a later exec started a new run with this id …`) before reading on. (Host side
 * only: a reader on another connection is not told.)
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "./real-daemon.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("attack18c: a run id used again while the first run's reader is behind", () => {
  it("the first run's stream never yields the second run's events", { timeout: 30_000 }, async () => {
    const { ws, daemon, close } = await realDaemonWorkspace();
    try {
      const a = await ws.runtime.exec("echo a1; sleep 0.3; echo a2; exit 5", { backend: "box", id: "x", encoding: "utf8" });
      const reader = a[Symbol.asyncIterator]();
      const first = await reader.next();
      expect(first.value).toMatchObject({ seq: 1, name: "stdout", value: "a1\n" });
      const run = () => (daemon as unknown as { s: { runs: { runs: Map<string, { live: boolean }> } } }).s.runs.runs.get("x");
      for (let i = 0; i < 100 && run()?.live !== false; i++) await sleep(100);
      expect(run()?.live).toBe(false);
      const b = await (await ws.runtime.exec("echo B1; exit 3", { backend: "box", id: "x", encoding: "utf8" })).result();
      expect({ stdout: b.stdout, exitCode: b.exitCode }).toEqual({ stdout: "B1\n", exitCode: 3 });
      const rest: string[] = [];
      try {
        for (let n = await reader.next(); !n.done; n = await reader.next()) {
          const e = n.value as { name: string; value?: unknown; code?: number };
          rest.push(e.name === "exit" ? `exit ${e.code}` : `${e.name} ${String(e.value)}`);
        }
      } catch (e) {
        rest.push(`threw ${(e as { code?: string }).code}`);
      }
      // Found: ["exit 3"] — the second run's exit, a2 and exit 5 lost.
      expect(rest.filter((e) => e === "exit 3" || e.includes("B1"))).toEqual([]);
      expect(rest).toEqual(["threw ELOG_TRUNCATED"]);
    } finally {
      await close();
    }
  });
});
