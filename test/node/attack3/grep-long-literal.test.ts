/**
 * Issue 20 third attack run, category 2/4: a very long literal grep query.
 * Before the fix a literal query of ~100,000+ characters failed with V8's
 * `SyntaxError: Invalid regular expression: /xxx…/g: Regular expression too
 * large` — a literal search compiled into a regex, the error not the spec'd
 * TypeError, and its message (the whole query) handed back to the model.
 * Literal, case-sensitive search is now `indexOf`, whatever the length; a
 * case-insensitive literal V8 cannot compile is a short TypeError.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { makeWorkspace } from "../tools/helpers.js";

const NEEDLE = "ab".repeat(150_000); // 300,000 characters

describe("attack3: a very long literal grep query", () => {
  it("fs.grep finds a 300,000-character literal (on its own line and inside a longer one) and misses it elsewhere", async () => {
    const ws = await makeWorkspace();
    await ws.fs.writeFile("/workspace/hit.txt", `first\n${NEEDLE}\nx${NEEDLE}y\n${NEEDLE.slice(1)}\n`);
    await ws.fs.writeFile("/workspace/miss.txt", `${NEEDLE.slice(0, -1)}\n`);
    const found = await ws.fs.grep(NEEDLE, "/workspace");
    expect(found.map((m) => [m.path, m.line, m.text.length])).toEqual([
      ["/workspace/hit.txt", 2, 300_000],
      ["/workspace/hit.txt", 3, 300_002],
    ]);
    expect(await ws.fs.grep("x".repeat(2_000_000), "/workspace")).toEqual([]);
    // context lines take the line-by-line path: same answer
    const withContext = await ws.fs.grep(NEEDLE, "/workspace/hit.txt", { context: 1 } as never);
    expect(withContext.map((m) => m.line)).toEqual([2, 3]);
  });

  it("a case-insensitive literal too long for V8 is a short TypeError, and shorter ones still match", async () => {
    const ws = await makeWorkspace();
    await ws.fs.writeFile("/workspace/f.txt", `${"AB".repeat(5_000)}\n`);
    expect((await ws.fs.grep("ab".repeat(5_000), "/workspace", { ignoreCase: true })).map((m) => m.line)).toEqual([1]);
    const err = await ws.fs.grep(NEEDLE, "/workspace", { ignoreCase: true }).then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err!.message).toBe("grep: a literal pattern of 300000 characters is too long to match with ignoreCase; search for a shorter part of it");
  });

  it("through the AI SDK loop: a 2,000,000-character query is an ordinary empty page", async () => {
    const ws = await makeWorkspace();
    await ws.fs.writeFile("/workspace/f.txt", "alpha\n");
    const model = new MockLanguageModelV4({ doGenerate: [call("g", "grep", { query: "x".repeat(2_000_000) }), done] });
    await generateText({ model, prompt: "go", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(3) });
    const out = outputFor(model, "g") as { type: string; value: Record<string, unknown> };
    expect(out.type).toBe("json");
    expect(out.value).toMatchObject({ matches: [] });
    expect(out.value.error).toBeUndefined();
  });
});
