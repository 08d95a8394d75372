/**
 * Issue 20, thirty-fourth attack run: a JavaScript run that prints while it makes host calls back to back (a loop of
 * `await fs.writeFile(...)` then `console.log(...)`, the ordinary form of "process each file, report progress") and
 * is stopped — by its `timeoutMs` or by `kill()` — loses every line it printed since it last paused: the isolate
 * sends output on a `setTimeout(0)` that does not fire while host-call answers stream in, and a stop drops what was
 * not sent. The agent gets "timed out" / "cancelled" with an empty stdout although the run wrote ~200 files and
 * printed a line after each; a real process's lines are in its pipe as soon as they are written.
 * Tried: the loop above with timeoutMs 1000, and with killExec asked (fire and forget) from a host-module call after
 * write 151 (maxCapabilityCalls raised so the count limit does not end it first; a DO timer asking kill() after 1 s
 * never fired while the calls streamed, so that run went on to its 60 s timeout, 0 lines too); Promise.allSettled of 250 writes then kill/timeout/close; a setTimeout(10) loop printing;
 * a stat loop ending at maxCapabilityCalls; 50 writes then a sleep past the timeout; one write then a sleep.
 * Held: every stop settled once with its documented status (1 timed out, 130 cancelled, 130 closed) and no write
 * landed after the result (file counts equal right after the result and 1.5 s later); the sleep loop kept its 117
 * lines, the stat loop its 256 (the refusal path flushes), a run that paused after its writes kept all its lines.
 * Found (medium — output lost: the agent is told nothing happened and acts on it, while storage holds the run's
 * writes; 4 of 4 runs each): timeout: 99, 172, 194, 196 files written, 0 stdout lines; kill: 151 files, 0 lines.
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-runtime-runner.js output `schedule`/`send`: do not
 * wait for a timer while host calls are answered back to back (send at once when the chain is idle, or piggyback
 * pending output on the next host call), and/or have run.ts `stop()` ask the isolate to flush (bounded) before it
 * disposes it.
 *
 * Fixed: the isolate's queued output goes with each host call (or just before it, past 64 KiB), so the host has every
 * line written before a call when the call arrives (isolate/workspace-runtime-runner.js `beforeCall`,
 * workspace-capabilities.js `__beforeCall`, run.ts `RunBridge.call`); and the host paces a run's calls as the shell's
 * (src/util/host-room.ts `HostRoom`, shared with worker-shell/worker.ts: 2 ms idle after every 50 ms of calls), so
 * another request's killExec and the object's timers get in (issue 20, run 34, fixer JL).
 * Siblings: test/workers/fix34/js-host-call-loop-stop.test.ts.
 */
import { expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = `import fs from "node:fs/promises";
import { stop } from "ws:ctl";
export default async () => {
  await fs.mkdir("out", { recursive: true });
  for (let i = 0; ; i++) {
    await fs.writeFile("out/f" + i + ".txt", "x");
    console.log("wrote " + i);
    if (i === 150) await stop();
  }
}`;

async function stopped(mode: "timeout" | "kill") {
  // The kill is asked from a host call of the run itself (fire and forget): a timer of the Durable Object does not
  // fire while the run's calls stream in back to back.
  const holder: { ws?: Workspace } = {};
  const ctl = { stop: () => (mode === "kill" ? void holder.ws!.runtime.killExec("r1") : undefined, null) };
  return inWorkspace(
    async (ws) => {
      holder.ws = ws;
      await ws.fs.mkdir("/workspace", { recursive: true });
      const h = await ws.runtime.exec(SOURCE, { id: "r1", encoding: "utf8", timeoutMs: mode === "timeout" ? 1000 : 60_000 });
      const r = await h.result();
      const files = (await ws.fs.readdir("/workspace/out")).length;
      const lines = String(r.stdout).split("\n").filter(Boolean).length;
      return { exitCode: r.exitCode, stderr: String(r.stderr), wroteSome: files > 20, linesCoverWrites: lines >= files - 1 };
    },
    { backend: { maxCapabilityCalls: 1_000_000, modules: { "ws:ctl": ctl } } },
  );
}

it("a run stopped by its timeout keeps the lines it printed between its writes", async () => {
  expect(await stopped("timeout")).toEqual({
    exitCode: 1,
    stderr: "JavaScript execution timed out\n",
    wroteSome: true,
    linesCoverWrites: true, // Was: false (99–196 files written, 0 stdout lines)
  });
}, 120_000);

it("a run stopped by kill() keeps the lines it printed between its writes", async () => {
  expect(await stopped("kill")).toEqual({
    exitCode: 130,
    stderr: "Execution cancelled.\n",
    wroteSome: true,
    linesCoverWrites: true, // Was: false (151 files written, 0 stdout lines)
  });
}, 120_000);
