/**
 * Issue 16 (spec 02 §5, §3.7): the interrupt policies `fail` and `restart`
 * under a real restart — `ctx.abort()` inside the Durable Object while a run
 * waits on a long timer after its first effects, then a fresh stub of the
 * same object. The policy comes from the exec option (the backend default is
 * `fail`).
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, restart, resultOf, sleep, start } from "./helpers.js";

/** Prints, writes a file, bumps a host counter, then waits 60 s (the abort lands there) and finishes. */
const SOURCE = `import { writeFile, readFile } from "node:fs/promises";
import { bump } from "ws:side";
export default async () => {
  console.log("before");
  const n = await bump("policy");
  await writeFile("/workspace/effect.txt", "effect " + n);
  console.error("bumped " + n);
  await new Promise((r) => setTimeout(r, 60000));
  console.log("after");
  return { n, file: await readFile("/workspace/effect.txt", "utf8") };
};`;

describe("durable runs: fail and restart under a real ctx.abort()", () => {
  it("fail (the default): settled failed with the output journaled before the restart", async () => {
    const { stub, fresh } = durable();
    await start(stub, SOURCE, { id: "run-fail" });
    await sleep(1500);
    await restart(stub);
    const r = await resultOf(fresh(), "run-fail");
    expect(r).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "before\n",
      stderr: "bumped 1\nExecution was interrupted when its Workspace runtime restarted.\n",
    });
    expect((r as { value?: unknown }).value).toBeUndefined();
    // the effects it finished are kept; nothing ran again
    expect(await fresh().counters()).toEqual({ policy: 1 });
    using ws = await getWorkspace(fresh());
    expect(await ws.fs.readFile("/workspace/effect.txt", "utf8")).toBe("effect 1");
  });

  it("fail given explicitly on exec: the same", async () => {
    const { stub, fresh } = durable();
    await start(stub, SOURCE, { id: "run-fail2", onInterrupt: "fail" });
    await sleep(1500);
    await restart(stub);
    expect(await resultOf(fresh(), "run-fail2")).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "before\n",
      stderr: "bumped 1\nExecution was interrupted when its Workspace runtime restarted.\n",
    });
    expect(await fresh().counters()).toEqual({ policy: 1 });
  });

  it("restart: reruns from the start with the notice; earlier output kept, effects repeat", async () => {
    const { stub, fresh } = durable();
    // the rerun waits 60 s too; this module waits only on the first attempt
    const source = SOURCE.replace("await new Promise((r) => setTimeout(r, 60000));", "if (n === 1) await new Promise((r) => setTimeout(r, 60000));");
    await start(stub, source, { id: "run-restart", onInterrupt: "restart" });
    await sleep(1500);
    await restart(stub);
    const r = await resultOf(fresh(), "run-restart");
    expect(r).toEqual({
      status: "completed",
      exitCode: 0,
      stdout: "before\nbefore\nafter\n",
      stderr: "bumped 1\nExecution restarted from the beginning after its Workspace runtime restarted.\nbumped 2\n",
      value: { n: 2, file: "effect 2" },
      pushed: 0,
      pulled: 0,
      skipped: [],
      sync: { status: "complete", applied: 0, skipped: [] },
    });
    expect(await fresh().counters()).toEqual({ policy: 2 });
    const calls = await fresh().callRows();
    expect(calls.map((c) => c.fn)).toEqual(["bump", "bump"]);
    // restart is a new run of the code: each call has its own callId (spec 02 §4.1: <executionId>:<uuid> outside replay)
    expect(calls[0]!.callId).toMatch(/^run-restart:[0-9a-f-]{36}$/);
    expect(calls[1]!.callId).toMatch(/^run-restart:[0-9a-f-]{36}$/);
    expect(calls[0]!.callId).not.toBe(calls[1]!.callId);
  });

  it("the backend's policy (replay on \"replaying\") applies when exec names none; exec's policy wins over it", async () => {
    const { stub, fresh } = durable();
    const source = `import { hold } from "ws:side";
export default async (input) => { console.log("holding"); return (await hold(input, 60000, 0)).invocation; };`;
    await start(stub, source, { id: "by-backend", backend: "replaying", input: "b1" });
    await start(stub, source, { id: "by-exec", backend: "replaying", onInterrupt: "fail", input: "b2" });
    await sleep(1500);
    await restart(stub);
    expect(await resultOf(fresh(), "by-backend", { backend: "replaying" })).toMatchObject({
      status: "completed",
      exitCode: 0,
      stdout: "holding\n",
      stderr: "",
      value: 2,
    });
    expect(await resultOf(fresh(), "by-exec", { backend: "replaying" })).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "holding\n",
      stderr: "Execution was interrupted when its Workspace runtime restarted.\n",
    });
  });

  it("restart: three interruptions fail the run; each rerun's output and notice are kept", async () => {
    const { stub, fresh } = durable();
    const source = `export default async () => { console.log("start"); await new Promise((r) => setTimeout(r, 60000)); return "unreachable"; };`;
    await start(stub, source, { id: "restarts", onInterrupt: "restart" });
    for (let i = 0; i < 3; i++) {
      await sleep(1500);
      // a stub that saw an abort stays broken: each restart goes through a new one
      await restart(i === 0 ? stub : fresh());
      if (i < 2) {
        using ws = await getWorkspace(fresh());
        await ws.runtime.pending(); // a runtime call: the run restarts
      }
    }
    const notice = "Execution restarted from the beginning after its Workspace runtime restarted.\n";
    expect(await resultOf(fresh(), "restarts")).toMatchObject({
      status: "failed",
      exitCode: 1,
      stdout: "start\nstart\nstart\n",
      stderr: `${notice}${notice}Execution was interrupted 3 times without making progress.\n`,
    });
  });

  it("fail on the second backend (routed by its id)", async () => {
    // the agent's backends default to fail; exec's option wins over the backend's either way, so check restart → fail on a second backend id
    const { stub, fresh } = durable();
    await start(stub, SOURCE, { id: "run-fail3", onInterrupt: "fail", backend: "throwing-wait" });
    await sleep(1500);
    await restart(stub);
    expect(await resultOf(fresh(), "run-fail3", { backend: "throwing-wait" })).toMatchObject({
      status: "failed",
      exitCode: 1,
      stderr: "bumped 1\nExecution was interrupted when its Workspace runtime restarted.\n",
    });
  });
});
