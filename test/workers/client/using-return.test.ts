/**
 * The seed's `runTurn` pattern over real RPC: `using workspace = await
 * getWorkspace(stub)` then `return generateText(...)` without `await`
 * disposes the client before the model's tool call arrives. The tool result
 * the model gets must say what happened and what to write instead; with
 * `return await` the same turn reads the file.
 */
import { env } from "cloudflare:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { freshAgent } from "./helpers.js";

type Stub = ReturnType<typeof freshAgent>;

/** A model that reads /workspace/notes.md once, then answers with the tool output it got. */
function readOnceModel() {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
      if (step++ === 0) {
        return {
          content: [{ type: "tool-call" as const, toolCallId: "c1", toolName: "read", input: JSON.stringify({ path: "/workspace/notes.md" }) }],
          finishReason: { unified: "tool-calls" as const, raw: undefined },
          usage,
          warnings: [],
        };
      }
      const last = options.prompt.at(-1);
      return { content: [{ type: "text" as const, text: JSON.stringify(last?.content) }], finishReason: { unified: "stop" as const, raw: undefined }, usage, warnings: [] };
    },
  });
}

async function seedNotes(stub: Stub) {
  using workspace = await getWorkspace(stub);
  await workspace.fs.mkdir("/workspace", { recursive: true });
  await workspace.fs.writeFile("/workspace/notes.md", "remember the milk\n");
}

/** The seed's snippet, verbatim in shape: the promise is returned, not awaited. */
async function runTurnUnawaited(stub: Stub) {
  using workspace = await getWorkspace(stub);
  return generateText({ model: readOnceModel(), prompt: "read my notes", tools: createAITools({ workspace }), stopWhen: stepCountIs(3) });
}

/** The fix the message names. */
async function runTurnAwaited(stub: Stub) {
  using workspace = await getWorkspace(stub);
  return await generateText({ model: readOnceModel(), prompt: "read my notes", tools: createAITools({ workspace }), stopWhen: stepCountIs(3) });
}

describe("using + return generateText(...) over RPC", () => {
  it("without await: the tool call fails with a message naming the cause and `return await`", async () => {
    const stub = freshAgent();
    await seedNotes(stub);
    const result = await runTurnUnawaited(stub);
    const failures = result.steps.flatMap((s) => s.content).filter((part) => part.type === "tool-error" || part.type === "tool-result");
    expect(failures).toHaveLength(1);
    const failure = failures[0] as { type: string; error?: { message?: string } };
    expect(failure.type).toBe("tool-error");
    expect(failure.error?.message).toMatch(/^workspace client is disposed: /);
    expect(failure.error?.message).toContain("write `return await generateText(...)`");
    // What the model was shown as the tool's output (the mock echoes it back as its answer).
    expect(result.text).toContain("workspace client is disposed");
    expect(result.text).toContain("return await generateText(...)");
    expect(result.text).not.toContain("remember the milk");
  });

  it("with return await: the same turn reads the file", async () => {
    const stub = freshAgent();
    await seedNotes(stub);
    const result = await runTurnAwaited(stub);
    expect(result.text).toContain("remember the milk");
    expect(result.text).not.toContain("disposed");
  });
});
