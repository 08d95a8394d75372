/**
 * Issue 20, thirteenth attack run: a model calling tools named after Object.prototype members (`constructor`,
 * `toString`, `__proto__`, `hasOwnProperty`, `valueOf`, `__defineGetter__`) through each adapter: the AI SDK's
 * generateText (createAITools returns an ordinary object, so `"constructor" in tools` is true), TanStack chat()
 * and pi's execute. Tried: does a library take an inherited member for a tool and crash or call it?
 * Held: every call is the library's "no such tool" answer, the loop goes on; nothing in the Workspace changes.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { setup } from "../tools/helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { runChat } from "../tools/tanstack-helpers.js";

const NAMES = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"];
const AVAILABLE = "read, ls, find, grep, write, edit, delete";

describe("attack13a: tool names from Object.prototype", () => {
  it("AI SDK generateText: NoSuchToolError results, the loop ends with the model's text", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "hello\n" });
    const tools = createAITools({ workspace });
    for (const name of NAMES) {
      const model = new MockLanguageModelV4({ doGenerate: [call("c1", name, { path: "/workspace/a.txt" }), done] });
      const r = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(3) });
      expect(r.text).toBe("done");
      expect(outputFor(model, "c1")).toEqual({ type: "error-text", value: `AI_NoSuchToolError: Model tried to call unavailable tool '${name}'. Available tools: ${AVAILABLE}.` });
    }
  });

  it("TanStack chat() and pi execute: unknown-tool results", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "hello\n" });
    const tt = createTanStackTools({ workspace });
    const pi = createPiTools({ workspace });
    for (const name of NAMES) {
      const { toolMessage } = await runChat(tt, [{ calls: [{ id: "x", name, args: JSON.stringify({ path: "/workspace/a.txt" }) }] }, { text: "done" }]);
      expect(toolMessage("x")).toBe(JSON.stringify({ error: `Unknown tool: ${name}` }));
      const r = await pi.execute({ id: "x", name, arguments: { path: "/workspace/a.txt" } } as never);
      expect(r).toEqual({ content: [{ type: "text", text: `Unknown tool "${name}". Available tools: "read", "ls", "find", "grep", "write", "edit", "delete".` }], isError: true });
    }
    expect(await workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("hello\n");
  });
});
