/**
 * Probe 16: the docs' approval flow through a remote client
 * (`getWorkspace(stub)`) on `DurableAgent` (test/workers/durable/agent.ts),
 * with a real `ctx.abort()` restart while the run waits, and bad input over
 * RPC.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { durable, restart, resultOf, sleep, start, waitingCalls } from "../durable/helpers.js";
import { outcome } from "./helpers.js";

const FLOW = `import { ask } from "ws:approve";
export default async () => {
  const t0 = Date.now();
  const r = Math.random();
  console.log("asking " + r);
  const answer = await ask({ action: "send", to: "a@example.com" });
  console.log("answered");
  return { answer, r, t0 };
};`;

describe("probe16: remote client", () => {
  it("docs flow over RPC: exec → pending → restart → pending → respond → result; stdout once; r identical", async () => {
    const { stub, fresh } = durable();
    await start(stub, FLOW, { id: "remote", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "remote" }]);
    expect(call).toMatchObject({ id: "remote", backend: "worker-javascript", payload: { action: "send", to: "a@example.com" } });
    await sleep(1000);
    await restart(stub);
    {
      using ws = await getWorkspace(fresh());
      expect(await ws.runtime.pending()).toEqual([call]);
      await ws.runtime.respond("remote", call!.callId, { approved: true });
      // answering twice over RPC: ENOTWAITING
      expect(await outcome(ws.runtime.respond("remote", call!.callId, { approved: false }))).toMatchObject({ code: "ENOTWAITING" });
    }
    const r = await resultOf(fresh(), "remote");
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
    const res = r as unknown as { stdout: string; value: { answer: unknown; r: number } };
    expect(res.value.answer).toEqual({ approved: true });
    expect(res.stdout).toBe(`asking ${res.value.r}\nanswered\n`);
    expect((await fresh().sentRows()).length).toBe(1);
  }, 60_000);

  it("bad input over RPC: non-JSON answers and wrong-typed ids reject with an error; the call keeps waiting", async () => {
    const { stub, fresh } = durable();
    await start(stub, FLOW, { id: "rbad", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "rbad" }]);
    using ws = await getWorkspace(fresh());
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    const results: Record<string, unknown> = {
      function: await outcome(ws.runtime.respond("rbad", call!.callId, (() => 1) as never)),
      bigint: await outcome(ws.runtime.respond("rbad", call!.callId, 10n as never)),
      map: await outcome(ws.runtime.respond("rbad", call!.callId, new Map([["a", 1]]) as never)),
      date: await outcome(ws.runtime.respond("rbad", call!.callId, new Date(0) as never)),
      cyclic: await outcome(ws.runtime.respond("rbad", call!.callId, cyc as never)),
      huge: await outcome(ws.runtime.respond("rbad", call!.callId, "x".repeat(300_000))),
      numId: await outcome(ws.runtime.respond(42 as never, call!.callId, 1)),
      nullCallId: await outcome(ws.runtime.respond("rbad", null as never, 1)),
      badBackend: await outcome(ws.runtime.respond("rbad", call!.callId, 1, { backend: 5 as never })),
    };
    for (const [k, v] of Object.entries(results)) {
      expect.soft(v, k).not.toBe("resolved");
      expect.soft(v, k).toMatchObject({ message: expect.any(String) });
    }
    expect(await ws.runtime.pending()).toEqual([call]);
    await ws.runtime.killExec("rbad");
    expect(await resultOf(fresh(), "rbad")).toMatchObject({ status: "cancelled", exitCode: 130, stderr: "Execution cancelled.\n" });
  }, 60_000);

  it("pending()/respond() over RPC: the same error codes as local (ENOTWAITING) for an unknown call", async () => {
    const { stub } = durable();
    using ws = await getWorkspace(stub);
    expect(await ws.runtime.pending()).toEqual([]);
    expect(await outcome(ws.runtime.respond("nope", "nope:1", true))).toMatchObject({ name: "WorkspaceRuntimeError", code: "ENOTWAITING" });
  });
  it("two clients respond() to one call at once: exactly one resolves, the other ENOTWAITING; the run sees the winner", async () => {
    const { stub, fresh } = durable();
    await start(stub, FLOW, { id: "rrace", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "rrace" }]);
    using w1 = await getWorkspace(fresh());
    using w2 = await getWorkspace(fresh());
    const [a, b] = await Promise.all([
      outcome(w1.runtime.respond("rrace", call!.callId, "one")),
      outcome(w2.runtime.respond("rrace", call!.callId, "two")),
    ]);
    expect([a, b].filter((x) => x === "resolved")).toHaveLength(1);
    expect(a === "resolved" ? b : a).toMatchObject({ code: "ENOTWAITING" });
    const r = await resultOf(fresh(), "rrace");
    expect(r).toMatchObject({ status: "completed", value: { answer: a === "resolved" ? "one" : "two" } });
  }, 60_000);
});
