/**
 * Issue 20, nineteenth attack run: a0a68e8 (attack18c container-id-reuse-mixes-runs) makes a stream of a finished
 * run fail `ELOG_TRUNCATED` once a later `exec` of the same id on the connection replaced the run: `exec` looks the
 * old run's watch up in the daemon shell's `watched` map and marks it `replaced`. `disposeExec` deletes that watch
 * from the map (daemon/handle.ts) while a stream may still read through it — so after `disposeExec(id)` a new
 * `exec` of the id finds nothing to mark, and a stream of the first run still behind reads the new run's events as
 * its own.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) under `daemonHandle`; `exec` of
 * `echo one; sleep 0.3; echo two; exit 3` with id `x`, its handle's first event read ("one"); once the daemon has the
 * run's exit, `disposeExec("x")`, then `exec("echo new; exit 5", { id: "x" })` read to its result; then the first
 * handle read on. (Held: without the `disposeExec` the first handle fails `ELOG_TRUNCATED` — attack18c; the second
 * run's own result is exit 5.)
 *
 * Found (medium-low; 2 of 2 runs): the first handle goes on with `{ seq: 2, name: "exit", code: 5 }` — the second
 * run's exit (its "new" line skipped as seq 1) — and ends: the first run is reported exit 5 instead of 3, its "two"
 * line lost, with no error.
 *
 * Suggested fix: have `disposeExec` end the run's watch instead of only forgetting it — mark it gone (`replaced`, or
 * a `disposed` flag whose streams fail `ENOENT`/`ELOG_TRUNCATED`) and wake its streams before deleting it; or carry a
 * run generation on the wire (the daemon's `exec` answer, checked by `events`), which also covers other connections.
 *
 * Fixed: daemon/handle.ts `disposeExec` forgets the watch as `exec` does on id reuse — marks it gone
 * (`replaced: "dispose"`) and wakes its streams first — so a stream of the disposed run still behind fails
 * `ELOG_TRUNCATED` (`run "x": disposeExec disposed of the run; …`) instead of reading a later run of the id.
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack19c: disposeExec, then an exec reusing the id, beside a stream of the first run", () => {
  it("the first run's stream fails instead of reading the new run's events", { timeout: 30_000 }, async () => {
    const real = await realDaemonWorkspace();
    try {
      const first = await real.ws.runtime.exec("echo one; sleep 0.3; echo two; exit 3", { backend: "box", id: "x", encoding: "utf8" });
      const reader = first[Symbol.asyncIterator]();
      expect((await reader.next()).value).toMatchObject({ seq: 1, name: "stdout", value: "one\n" });
      // Until the daemon holds the first run's exit (a look that acknowledges nothing).
      while (!(await real.daemon.events({ id: "x", after: 0, ack: false })).done) await new Promise((resolve) => setTimeout(resolve, 50));
      await real.ws.runtime.disposeExec("x", { backend: "box" });
      const second = await (await real.ws.runtime.exec("echo new; exit 5", { backend: "box", id: "x", encoding: "utf8" })).result();
      expect({ code: second.exitCode, stdout: second.stdout }).toEqual({ code: 5, stdout: "new\n" });
      const rest: string[] = [];
      try {
        for (let next = await reader.next(); !next.done; next = await reader.next()) rest.push(next.value.name === "exit" ? `exit ${next.value.code}` : `${next.value.name} ${String(next.value.value)}`);
      } catch (error) {
        rest.push(`threw ${(error as { code?: string }).code}: ${(error as Error).message}`);
      }
      // Found: ["exit 5"].
      expect(rest).toEqual(['threw ELOG_TRUNCATED: run "x": disposeExec disposed of the run; the rest of this run\'s events are no longer kept']);
    } finally {
      await real.close();
    }
  });
});
