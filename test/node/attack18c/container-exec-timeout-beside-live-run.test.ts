/**
 * Issue 20, eighteenth attack run: a command whose `exec` call is not answered within REMOTE_EXEC_CALL_TIMEOUT_MS
 * (attack17c's bound: "the command may have started") is settled as NOT sent — `commandSettled`, not
 * attack17c's `commandAbandoned` — so beside a live run the next push does not pull first, and overwrites in the
 * container what that command wrote with the Workspace's write, against "the container's changes win".
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts) under `daemonHandle`, its `exec` wrapped
 * so that the command `printf container > a` is started for real but the answer never comes (a daemon taken over,
 * or wedged after it spawned); with (1) a long run still going (`wait`, ended by the test through a file), (2) that
 * command, during whose unanswered call the Workspace writes `/workspace/a` = "ws", rejected after 20 s `ETIMEDOUT`
 * (held: the message says the command may have started, and the lock is released), (3) `true`, then the long run
 * ends. (attack17c's container-abandoned-run-beside-live-run is the same with the run's event stream failing
 * instead: fixed there.)
 *
 * Found (medium-low; 2 of 2 runs): runtime/index.ts's `run` calls `remote.commandSettled()` when `exec` rejects,
 * whatever the error: the pull stays pending as COMMAND_SENT, but `#owed` stays 0 and the long run keeps `#live`
 * at 1, so `true`'s push sends the Workspace's `a` over the container's — both sides end with "ws", the started
 * command's write lost (with no other run live the push pulls first and "container" wins both sides).
 *
 * Fixed: runtime/index.ts settles a failed `exec` call (sent, maybe started) with `commandAbandoned()`: its pull is
 * owed and the next push pulls first, whatever else is live.
 * Suggested fix: when the `exec` call fails after it may have reached the daemon (ETIMEDOUT, or any error once
 * `sending.sent` is set and the connection is not provably lost before the call), settle it with
 * `commandAbandoned()` so its pull is owed and the next push pulls first, as for an abandoned stream.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REMOTE_EXEC_CALL_TIMEOUT_MS, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "./real-daemon.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("attack18c: an exec call that timed out beside a live run", () => {
  it("the started command's write still wins over the Workspace's, with another run live", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close(); // only its daemon and directory are used
    const daemon = wrapDaemon(real.daemon, {
      exec: async (input: Parameters<DaemonApi["exec"]>[0]) => {
        const answer = await real.daemon.exec(input);
        if (input.command === "printf container > a") return new Promise<never>(() => {}); // started, never answered
        return answer;
      },
    });
    const ws = await workspaceOver(daemon);
    try {
      const long = (await ws.runtime.exec("while [ ! -f go ]; do sleep 0.1; done", { backend: "box", id: "wait" })).result();
      const started = Date.now();
      const r1 = ws.runtime.exec("printf container > a", { backend: "box", id: "r1" }).then(
        () => "resolved",
        (e: { code?: string }) => `rejected ${e.code}`,
      );
      await sleep(1_000);
      await ws.fs.writeFile("/workspace/a", "ws"); // while the command's exec call hangs
      expect(await r1).toBe("rejected ETIMEDOUT");
      expect(Date.now() - started).toBeGreaterThanOrEqual(REMOTE_EXEC_CALL_TIMEOUT_MS - 100);
      const r2 = await (await ws.runtime.exec("true", { backend: "box", id: "r2" })).result();
      expect(r2.exitCode).toBe(0);
      fs.writeFileSync(path.join(real.dir, "go"), "");
      expect((await long).exitCode).toBe(0);
      const here = await ws.fs.readFile("/workspace/a", "utf8");
      const there = fs.readFileSync(path.join(real.dir, "a"), "utf8");
      // Found: { workspace: "ws", container: "ws" } — r2's push wrote a over the command's "container".
      expect({ workspace: here, container: there }).toEqual({ workspace: "container", container: "container" });
    } finally {
      fs.writeFileSync(path.join(real.dir, "go"), "");
      await ws.close();
      await real.close();
    }
  });
});
