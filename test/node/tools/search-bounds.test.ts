import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { findInputSchema, MAX_GLOBS } from "../../../src/tools/core/find.js";
import { grepInputSchema } from "../../../src/tools/core/grep.js";
import { setup } from "./helpers.js";

/**
 * Bounds found by the second attack run (issue 20): the number of globs in
 * one exclude/include list, and a literal grep over one line that spans many
 * stored chunks.
 */
describe("search bounds", () => {
  const globs = (n: number) => Array.from({ length: n }, (_, i) => `**/*a*a*a*${i}b`);

  it(`find and grep take at most ${MAX_GLOBS} globs per exclude/include list`, () => {
    expect(MAX_GLOBS).toBe(100);
    expect(findInputSchema.safeParse({ pattern: "**", exclude: globs(100) }).success).toBe(true);
    expect(findInputSchema.safeParse({ pattern: "**", exclude: globs(101) }).success).toBe(false);
    expect(grepInputSchema.safeParse({ query: "x", include: globs(100), exclude: globs(100) }).success).toBe(true);
    expect(grepInputSchema.safeParse({ query: "x", include: globs(101) }).success).toBe(false);
    expect(grepInputSchema.safeParse({ query: "x", exclude: globs(5000) }).success).toBe(false);
  });

  it("5,000 exclude globs come back to the model as an input error, not a 20 s walk", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "x\n" });
    const model = new MockLanguageModelV4({ doGenerate: [call("c1", "grep", { query: "x", exclude: globs(5000) }), done] as never });
    const t0 = Date.now();
    await generateText({ model, tools: createAITools({ workspace }), prompt: "go", stopWhen: stepCountIs(3) });
    const output = outputFor(model, "c1") as { type: string; value: string };
    expect(output.type).toBe("error-text");
    expect(output.value).toContain("Invalid input");
    expect(output.value).toContain("100");
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("a literal grep over a 40 MB line with no line end in any stored chunk is linear: found, in well under the old 20 s", async () => {
    const { workspace } = await setup();
    const line = "a".repeat(40 * 1024 * 1024) + "needle";
    await workspace.fs.writeFile("/workspace/one-line.min.js", line);
    const t0 = Date.now();
    const matches = await workspace.fs.grep("needle", "/workspace/one-line.min.js", { maxLineLength: 40 });
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(matches.map((m) => [m.path, m.line, m.clipped])).toEqual([["/workspace/one-line.min.js", 1, true]]);
    expect(matches[0]!.text.endsWith("needle")).toBe(true);
  }, 60_000);
});
