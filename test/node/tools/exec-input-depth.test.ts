import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { ScriptBackend } from "../runtime/script-backend.js";
import { runChat } from "./tanstack-helpers.js";

// exec's `input` is validated at most 64 levels deep, iteratively, before zod recurses:
// a deeper value from the model is an error result naming the limit, never a crash of the loop.
const LIMIT = "input is nested deeper than 64 levels";

/** `{"a":{"a":…{}}}` with `depth` levels of objects (the outer object is level 1). */
const deepText = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
function deepValue(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}
/** exec's arguments as JSON text (JSON.stringify would overflow at these depths). */
const argsText = (depth: number) => `{"command":"result 1","input":${deepText(depth)}}`;

function setup() {
  const backend = new ScriptBackend({ id: "script", callable: true });
  const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend] });
  return { backend, workspace };
}

describe("exec input depth through TanStack chat()", () => {
  async function run(depth: number) {
    const { backend, workspace } = setup();
    const { seen, toolMessage } = await runChat(createTanStackTools({ workspace }), [
      { calls: [{ id: "x", name: "exec", args: argsText(depth) }] },
      { text: "done" },
    ]);
    const content = toolMessage("x");
    return { backend, turns: seen.length, result: typeof content === "string" ? JSON.parse(content) : content };
  }

  for (const depth of [100_000, 3_000, 65]) {
    it(`${depth}-deep input: the loop completes and the result names the 64-level limit`, async () => {
      const { backend, turns, result } = await run(depth);
      expect(turns).toBe(2);
      expect(JSON.stringify(result)).toContain(LIMIT);
      expect(backend.lastInput).toBeUndefined();
    });
  }

  it("64-deep input still runs", async () => {
    const { backend, result } = await run(64);
    expect(JSON.stringify(result)).not.toContain("nested deeper");
    expect(result).toMatchObject({ exitCode: 0 });
    expect(backend.lastInput).toEqual(deepValue(64));
  });
});

describe("exec input depth through the AI SDK's generateText (MockLanguageModelV4)", () => {
  async function run(depth: number) {
    const { backend, workspace } = setup();
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [{ type: "tool-call" as const, toolCallId: "x", toolName: "exec", input: argsText(depth) }],
          finishReason: { unified: "tool-calls" as const, raw: undefined },
          usage,
          warnings: [],
        },
        done,
      ],
    });
    const result = await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(5) });
    return { backend, text: result.text, output: outputFor(model, "x") };
  }

  // Deeper than about 3,100 levels, generateText itself rejects (RangeError): after our schema
  // rejects the call, the AI SDK re-parses the call's text and deep-clones it recursively into the
  // step's response messages (docs/tools.md, exec).
  for (const depth of [3_000, 65]) {
    it(`${depth}-deep input: the loop completes and the result names the 64-level limit`, async () => {
      const { backend, text, output } = await run(depth);
      expect(text).toBe("done");
      expect(JSON.stringify(output)).toContain(LIMIT);
      expect(backend.lastInput).toBeUndefined();
    });
  }

  it("100,000-deep input: the AI SDK's own message cloning overflows, so generateText rejects (a documented limit)", async () => {
    await expect(run(100_000)).rejects.toThrow(RangeError);
  });

  it("64-deep input still runs", async () => {
    const { backend, text, output } = await run(64);
    expect(text).toBe("done");
    expect(output).toMatchObject({ type: "json", value: { exitCode: 0 } });
    expect(backend.lastInput).toEqual(deepValue(64));
  });
});

for (const major of PI_MAJORS) {
  describe(`exec input depth through pi ${major.name}'s faux loop`, () => {
    const runLoop = major.piLoop();
    const { fauxToolCall, fauxAssistantMessage } = major;

    // The faux provider itself overflows on arguments 3,000 deep (before execute runs), so
    // those depths call execute directly below.
    for (const depth of [65]) {
      it(`${depth}-deep input: the loop completes and the result names the 64-level limit`, async () => {
        const { backend, workspace } = setup();
        const { results, context } = await runLoop(createPiTools({ workspace }), [
          step(major, fauxToolCall("exec", { command: "result 1", input: deepValue(depth) }, { id: "x" })),
          fauxAssistantMessage("done"),
        ]);
        expect(results.get("x")).toMatchObject({ isError: true, content: [{ type: "text", text: `Invalid arguments for exec: input: ${LIMIT}` }] });
        expect(context.messages.at(-1)).toMatchObject({ role: "assistant" });
        expect(backend.lastInput).toBeUndefined();
      });
    }

    it("64-deep input still runs", async () => {
      const { backend, workspace } = setup();
      const { results } = await runLoop(createPiTools({ workspace }), [
        step(major, fauxToolCall("exec", { command: "result 1", input: deepValue(64) }, { id: "x" })),
        fauxAssistantMessage("done"),
      ]);
      expect(results.get("x")).toMatchObject({ isError: false, details: { exitCode: 0 } });
      expect(backend.lastInput).toEqual(deepValue(64));
    });
  });
}

describe("pi execute (direct): deep input and call objects that throw", () => {
  for (const depth of [100_000, 3_000, 65]) {
    it(`${depth}-deep input, as an object and as a JSON string: an error result naming the 64-level limit`, async () => {
      const { backend, workspace } = setup();
      const { execute } = createPiTools({ workspace });
      for (const input of [deepValue(depth), deepText(depth)]) {
        expect(await execute({ id: "1", name: "exec", arguments: { command: "result 1", input } })).toEqual({
          content: [{ type: "text", text: `Invalid arguments for exec: input: ${LIMIT}` }],
          isError: true,
        });
      }
      expect(backend.lastInput).toBeUndefined();
    });
  }

  it("64-deep input still runs", async () => {
    const { backend, workspace } = setup();
    const { execute } = createPiTools({ workspace });
    expect(await execute({ id: "1", name: "exec", arguments: { command: "result 1", input: deepValue(64) } })).toMatchObject({ isError: false });
    expect(backend.lastInput).toEqual(deepValue(64));
  });

  it("a throwing name getter is an error result", async () => {
    const { workspace } = setup();
    const { execute } = createPiTools({ workspace });
    const call = { id: "1", arguments: {}, get name(): string { throw new Error("name getter failed"); } };
    expect(await execute(call)).toEqual({ content: [{ type: "text", text: "name getter failed" }], isError: true });
  });
});
