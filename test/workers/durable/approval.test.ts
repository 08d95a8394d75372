/**
 * Issue 16, seed 003 (spec 02 §5 "Waiting"): the approval flow end to end. A
 * host function calls `ctx.interrupt(payload)`; the run waits durably;
 * `pending()` lists the call with its payload; the Durable Object is
 * restarted (`ctx.abort()`) while it waits; `pending()` still lists it;
 * `respond()` answers it; the run replays to the call and the host function
 * runs again with the same `callId`, getting the answer at once; the side
 * effect (deduplicated by `callId`) happened once; `onWait` was called once.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { getWorkspace, type WorkspaceRuntimePendingCall } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { durable, restart, resultOf, sleep, start, waitingCalls, type DurableStub } from "./helpers.js";

const APPROVAL = `import { ask } from "ws:approve";
import { bump } from "ws:side";
export default async () => {
  console.log("asking");
  const n = await bump("before-ask");
  const answer = await ask({ to: "ops@example.com", subject: "deploy?" });
  console.log("answer " + JSON.stringify(answer));
  return { answer, n };
};`;

const PAYLOAD = { to: "ops@example.com", subject: "deploy?" };

async function pendingOf(stub: DurableStub): Promise<WorkspaceRuntimePendingCall[]> {
  using ws = await getWorkspace(stub);
  return ws.runtime.pending();
}

/** Polls pending() until it lists `n` calls. */
const pendingCalls = (stub: () => DurableStub, n = 1) => waitingCalls(stub, n);

/** A mock model that calls exec with the approval module, then answers `text`. */
function execThenSay(text: string): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const index = step++;
      return {
        content:
          index === 0
            ? [{ type: "tool-call" as const, toolCallId: "call-0", toolName: "exec", input: JSON.stringify({ command: APPROVAL }) }]
            : [{ type: "text" as const, text }],
        finishReason: { unified: index === 0 ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
        usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
        warnings: [],
      };
    },
  });
}

describe("durable runs: the approval flow of seed 003", () => {
  it("exec → pending lists the call → restart while waiting → pending still lists it → respond → the answer", async () => {
    const { stub, fresh } = durable();
    const startedAt = Date.now();
    await start(stub, APPROVAL, { id: "approval", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "approval" }]);
    expect(call).toEqual({ id: "approval", backend: "worker-javascript", callId: expect.stringMatching(/^approval:[1-9][0-9]*$/), payload: PAYLOAD, since: expect.any(Number) });
    expect(call!.since).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(call!.since).toBeLessThanOrEqual(Date.now() + 1000);
    // onWait saw the same fields, once
    expect(await fresh().waits()).toEqual([
      { receiver: "worker-javascript", backend: "worker-javascript", id: "approval", callId: call!.callId, payload: JSON.stringify(PAYLOAD), since: call!.since },
    ]);
    // the host function is waiting, nothing was sent
    expect((await fresh().callRows()).map((c) => [c.fn, c.callId === call!.callId, c.endedAt === null])).toEqual([
      ["bump", false, false],
      ["ask", true, true],
    ]);
    expect(await fresh().sentRows()).toEqual([]);

    // its output is journaled within the 250 ms output window: give it 1 s
    await sleep(1000);
    await restart(stub);
    expect(await pendingOf(fresh())).toEqual([call]);
    // the run is still running, with no exit, after the restart
    {
      using ws = await getWorkspace(fresh());
      using h = await ws.runtime.getExec("approval", { encoding: "utf8" });
      const events: string[] = [];
      const reader = h.getReader();
      for (;;) {
        const next = await Promise.race([reader.read(), new Promise<"idle">((r) => setTimeout(() => r("idle"), 1500))]);
        if (next === "idle" || next.done) break;
        events.push(next.value.name);
      }
      reader.releaseLock();
      expect(events).toEqual(["stdout"]);
    }

    {
      using ws = await getWorkspace(fresh());
      await ws.runtime.respond("approval", call!.callId, { approved: true });
    }
    const r = await resultOf(fresh(), "approval");
    expect(r).toMatchObject({
      status: "completed",
      exitCode: 0,
      stdout: 'asking\nanswer {"approved":true}\n',
      stderr: "",
      value: { answer: { approved: true }, n: 1 },
    });
    // the host function ran twice with the same callId; its side effect happened once; onWait was called once
    const calls = await fresh().callRows();
    expect(calls.map((c) => [c.fn, c.callId === call!.callId])).toEqual([
      ["bump", false],
      ["ask", true],
      ["ask", true],
    ]);
    expect(await fresh().sentRows()).toEqual([{ callId: call!.callId, body: JSON.stringify({ payload: PAYLOAD, answer: { approved: true } }) }]);
    expect(await fresh().counters()).toEqual({ "before-ask": 1 });
    expect(await fresh().waits()).toHaveLength(1);
    expect(await pendingOf(fresh())).toEqual([]);

    // answering again: the call is no longer waiting
    using ws = await getWorkspace(fresh());
    const again = await ws.runtime.respond("approval", call!.callId, { approved: false }).then(
      () => "resolved",
      (e: { code?: string; message: string }) => e.code,
    );
    expect(again).toBe("ENOTWAITING");
  });

  it("without a restart: respond() resumes the waiting run in the same object", async () => {
    const { stub, fresh } = durable();
    await start(stub, APPROVAL, { id: "approval2", onInterrupt: "replay" });
    const [call] = await waitingCalls(fresh, 1, [{ id: "approval2" }]);
    {
      using ws = await getWorkspace(stub);
      await ws.runtime.respond("approval2", call!.callId, { approved: "yes", by: "ana" });
    }
    expect(await resultOf(stub, "approval2")).toMatchObject({
      status: "completed",
      exitCode: 0,
      stdout: 'asking\nanswer {"approved":"yes","by":"ana"}\n',
      stderr: "",
      value: { answer: { approved: "yes", by: "ana" }, n: 1 },
    });
    expect((await stub.callRows()).map((c) => c.fn)).toEqual(["bump", "ask", "ask"]);
    expect(await stub.sentRows()).toHaveLength(1);
    expect(await stub.waits()).toHaveLength(1);
  });

  it("through the AI SDK exec tool with a mock model, restarted while waiting", async () => {
    const { stub, fresh } = durable();
    const client = await getWorkspace(stub);
    await client.fs.mkdir("/workspace", { recursive: true });
    // the "replaying" backend's own policy is replay (the exec tool passes none)
    const tools = createAITools({ workspace: client, exec: { replaying: {} } });
    const model = execThenSay("waiting for approval");
    const loop = generateText({ model, prompt: "deploy, after asking", tools, stopWhen: stepCountIs(3) });
    const [call] = await pendingCalls(fresh);
    expect(call).toMatchObject({ backend: "replaying", payload: PAYLOAD, callId: expect.stringMatching(new RegExp(`^${call!.id}:[1-9][0-9]*$`)) });
    await restart(stub);
    // the tool's stream of the run broke with the object; the model got that as the tool's output
    const finished = await loop;
    try {
      client[Symbol.dispose]();
    } catch {
      /* the object it pointed at restarted */
    }
    const results = finished.steps.flatMap((s) => s.content.filter((part) => part.type === "tool-result" || part.type === "tool-error"));
    expect(results).toEqual([
      expect.objectContaining({
        type: "tool-result",
        toolName: "exec",
        // Was: error "ReadableStream received over RPC disconnected prematurely." (run 31, fixer RS: ECONNRESET's text)
        output: {
          command: APPROVAL,
          cwd: null,
          backend: "replaying",
          error:
            "exec.stream: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it is gone (workerd: ReadableStream received over RPC disconnected prematurely.); get a new client with getWorkspace(stub) — a lazy client made from a function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. A call in flight when it happened may or may not have taken effect.",
        },
      }),
    ]);
    expect(finished.text).toBe("waiting for approval");

    expect(await pendingOf(fresh())).toEqual([call]);
    {
      using ws = await getWorkspace(fresh());
      await ws.runtime.respond(call!.id, call!.callId, { approved: true }, { backend: "replaying" });
    }
    expect(await resultOf(fresh(), call!.id, { backend: "replaying" })).toMatchObject({
      status: "completed",
      exitCode: 0,
      stdout: 'asking\nanswer {"approved":true}\n',
      stderr: "",
      value: { answer: { approved: true }, n: 1 },
    });
    expect((await fresh().callRows()).map((c) => [c.fn, c.callId === call!.callId])).toEqual([
      ["bump", false],
      ["ask", true],
      ["ask", true],
    ]);
    expect(await fresh().sentRows()).toEqual([{ callId: call!.callId, body: JSON.stringify({ payload: PAYLOAD, answer: { approved: true } }) }]);
    expect(await fresh().waits()).toEqual([
      { receiver: "replaying", backend: "replaying", id: call!.id, callId: call!.callId, payload: JSON.stringify(PAYLOAD), since: call!.since },
    ]);
  });

  it("through the AI SDK exec tool, answered while the tool streams: the tool's output has the answer", async () => {
    const { stub } = durable();
    using client = await getWorkspace(stub);
    await client.fs.mkdir("/workspace", { recursive: true });
    const tools = createAITools({ workspace: client, exec: { replaying: {} } });
    const model = execThenSay("deployed");
    const loop = generateText({ model, prompt: "deploy, after asking", tools, stopWhen: stepCountIs(3) });
    const [call] = await pendingCalls(() => stub);
    await client.runtime.respond(call!.id, call!.callId, { approved: true }, { backend: "replaying" });
    const finished = await loop;
    const results = finished.steps.flatMap((s) => s.content.filter((part) => part.type === "tool-result" || part.type === "tool-error"));
    expect(results).toEqual([
      expect.objectContaining({
        type: "tool-result",
        toolName: "exec",
        output: {
          command: APPROVAL,
          cwd: null,
          backend: "replaying",
          exitCode: 0,
          stdout: 'asking\nanswer {"approved":true}\n',
          stderr: "",
          result: { answer: { approved: true }, n: 1 },
        },
      }),
    ]);
    expect(finished.text).toBe("deployed");
    expect(await stub.sentRows()).toHaveLength(1);
  });
});
