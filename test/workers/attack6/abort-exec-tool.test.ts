/**
 * Issue 20 sixth attack run, category 5 with the exec tool: a real
 * `ctx.abort()` of the Durable Object while the AI SDK's generateText loop
 * (MockLanguageModelV4), running in the test Worker over a `getWorkspace()`
 * client, is inside an `exec` tool call whose run sleeps 30 s — the tool is
 * reading the run's event stream over RPC when the object dies. Runs 2–5
 * aborted runs and RPC writes, not a tool call streaming snapshots. What must
 * hold: the loop is not stuck — the call ends as a result the model sees (an
 * error or a failed exit) and generateText finishes within bounds; a new
 * exec call through a fresh client runs. Withstood: the model sees
 * `error: "ReadableStream received over RPC disconnected prematurely."`
 * (workerd's wording — accurate, though it does not say the object
 * restarted; the run's own failure is in the restarted object's journal).
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { abortObject, agent } from "../attack2/abort-helpers.js";

describe("attack6: ctx.abort() inside an exec tool call over RPC", () => {
  it("the AI SDK loop finishes with a result for the call; a fresh client runs a new one", { timeout: 120_000 }, async () => {
    const { stub, fresh } = agent();
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/workspace", { recursive: true });
    }
    const model = new MockLanguageModelV4({
      doGenerate: [call("slow", "exec", { command: "export default async () => { console.log('started'); await new Promise((r) => setTimeout(r, 30000)); return 'late'; }" }), done],
    });
    const client = await getWorkspace(stub);
    const started = Date.now();
    const loop = generateText({ model, prompt: "go", tools: createAITools({ workspace: client }), stopWhen: stepCountIs(3) }).then(
      (r) => ({ text: r.text }),
      (e: Error) => ({ threw: e.message }),
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(await abortObject(stub, "attack6: crash mid exec tool")).toMatch(/^aborted/);
    const ended = await Promise.race([loop, new Promise<string>((r) => setTimeout(() => r("loop still running after 30 s"), 30_000))]);
    const elapsed = Date.now() - started;
    expect(ended).toEqual({ text: "done" });
    expect(elapsed).toBeLessThan(40_000);
    const output = outputFor(model, "slow") as { type: string; value: unknown };
    const seen = JSON.stringify(output);
    // the model sees an error or a failed run, never the late value
    expect(output.type === "error-text" || (output.type === "json" && (output.value as { exitCode?: unknown }).exitCode !== 0)).toBe(true);
    expect((output.value as { result?: unknown }).result).toBeUndefined();
    // Was: "ReadableStream received over RPC disconnected prematurely." (fixed in run 31, fixer RS: ECONNRESET's text)
    expect((output.value as { error?: unknown }).error).toBe(
      "exec.stream: the Durable Object behind this workspace client restarted or was reset, so the client's connection to it is gone (workerd: ReadableStream received over RPC disconnected prematurely.); get a new client with getWorkspace(stub) — a lazy client made from a function, getWorkspace(() => env.NS.get(id)), reconnects by itself on its next call. A call in flight when it happened may or may not have taken effect.",
    );
    void seen;
    try {
      client[Symbol.dispose]?.();
    } catch {
      /* a client of the aborted object */
    }
    using again = await getWorkspace(fresh());
    const model2 = new MockLanguageModelV4({ doGenerate: [call("ok", "exec", { command: "export default () => 'fine'" }), done] });
    await generateText({ model: model2, prompt: "go", tools: createAITools({ workspace: again }), stopWhen: stepCountIs(3) });
    expect(outputFor(model2, "ok")).toMatchObject({ type: "json", value: { exitCode: 0, result: "fine" } });
  });
});
