/**
 * Issue 12 §6, glob side: the find tool's pattern matches names whatever
 * their Unicode normalisation, and reports each name as stored — seen by
 * the model through each adapter's own loop (AI SDK generateText, pi 0.74
 * and 1.x, TanStack chat()).
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { setup } from "./helpers.js";
import { runChat } from "./tanstack-helpers.js";

const NFD = "/workspace/Re\u0301sume\u0301.md";
const NFC = "/workspace/notes/Caf\u00e9.md";

/** Each call: the find input, and the result the model must see. */
const CALLS = [
  // An NFC glob finds the NFD name, which is reported as stored.
  { id: "f1", input: { pattern: "**/*R\u00e9sum\u00e9*" }, result: { path: "/workspace", pattern: "**/*R\u00e9sum\u00e9*", count: 1, entries: [{ path: NFD, type: "file" }] } },
  // An NFD glob finds the NFC name.
  { id: "f2", input: { pattern: "**/Cafe\u0301.md" }, result: { path: "/workspace", pattern: "**/Cafe\u0301.md", count: 1, entries: [{ path: NFC, type: "file" }] } },
  // One é (either form) matches both names; exclude is just as insensitive.
  {
    id: "f3",
    input: { pattern: "**/*\u00e9*", exclude: ["notes/Cafe\u0301.md"] },
    result: { path: "/workspace", pattern: "**/*\u00e9*", count: 1, entries: [{ path: NFD, type: "file" }] },
  },
] as const;

describe("find matches names in any Unicode normalisation, through every adapter (issue 12 §6)", () => {
  const piLoops = PI_MAJORS.map((major) => ({ major, runLoop: major.piLoop() }));

  async function workspace() {
    const { workspace } = await setup({ [NFD]: "cv\n", [NFC]: "menu\n", "/workspace/plain.md": "x\n" });
    return workspace;
  }

  it("AI SDK (generateText)", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [...CALLS.map((c) => call(c.id, "find", c.input)), done] });
    await generateText({ model, prompt: "go", tools: createAITools({ workspace: await workspace() }), stopWhen: stepCountIs(CALLS.length + 2) });
    for (const c of CALLS) expect(outputFor(model, c.id), c.id).toEqual({ type: "json", value: c.result });
  });

  for (const { major, runLoop } of piLoops) {
    it(`pi ${major.name}`, async () => {
      const { results } = await runLoop(createPiTools({ workspace: await workspace() }), [
        ...CALLS.map((c) => step(major, major.fauxToolCall("find", { ...c.input }, { id: c.id }))),
        major.fauxAssistantMessage("done"),
      ]);
      for (const c of CALLS) {
        expect(results.get(c.id), c.id).toMatchObject({ isError: false, content: [{ type: "text", text: JSON.stringify(c.result) }], details: c.result });
      }
    });
  }

  it("TanStack (chat)", async () => {
    const chat = await runChat(createTanStackTools({ workspace: await workspace() }), [
      ...CALLS.map((c) => ({ calls: [{ id: c.id, name: "find", input: c.input }] })),
      { text: "done" },
    ]);
    for (const c of CALLS) expect(JSON.parse(chat.toolMessage(c.id) as string), c.id).toEqual(c.result);
  });
});
