import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../shared/loops/ai-sdk.js";
import { createAITools } from "../../src/tools/ai-sdk.js";
import { MAX_RE2_PROGRAM_SIZE, RE2_WORK_BUDGET } from "../../src/fs/grep-regex.js";
import { setup } from "./tools/helpers.js";

/**
 * RE2 is linear in the text but proportional to its program: the seeded
 * hostile run (issues 12 and 20) found `(a|aa){1,1000}$` at 26–490 s a call.
 * Programs past MAX_RE2_PROGRAM_SIZE are refused at compile time, and one
 * grep call's RE2 work is bounded by RE2_WORK_BUDGET.
 */
describe("grep regex work is bounded", () => {
  it("refuses a program past the size limit, naming it", async () => {
    const { workspace } = await setup({ "/w/a.txt": "a".repeat(10_000) + "!\n" });
    expect(MAX_RE2_PROGRAM_SIZE).toBe(1000);
    await expect(workspace.fs.grep("(a|aa){1,1000}$", "/w/a.txt", { regex: true })).rejects.toThrow(
      "Invalid regular expression: /(a|aa){1,1000}$/: too large for grep's linear-time engine (program size 5002, at most 1000); use smaller repeat counts or fewer alternatives",
    );
  });

  it("a smaller program over a 650,000-character line runs (under the budget) or stops with a RangeError (over it)", async () => {
    const { workspace } = await setup({ "/w/min.js": "a".repeat(650_000) + "!\n" });
    // 502 × 650,001 ≈ 326M: over the 300M budget.
    expect(RE2_WORK_BUDGET).toBe(300_000_000);
    const t0 = Date.now();
    await expect(workspace.fs.grep("(a|aa){1,100}$", "/w/min.js", { regex: true })).rejects.toThrow(
      /^grep stopped: the regular expression \/\(a\|aa\)\{1,100\}\$\/ costs too much over this much text \(RE2 program size 502 × characters scanned passed 300000000\)/,
    );
    // 202 × 650,001 ≈ 131M: within it, and no match (the line ends in "!").
    expect(await workspace.fs.grep("(a|aa){1,40}$", "/w/min.js", { regex: true })).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("the model gets the refusal and the stop as error results", async () => {
    const { workspace } = await setup({ "/workspace/min.js": "a".repeat(650_000) + "!\n" });
    const model = new MockLanguageModelV4({
      doGenerate: [call("c1", "grep", { query: "(a|aa){1,1000}$", regex: true }), call("c2", "grep", { query: "(a|aa){1,100}$", regex: true }), done] as never,
    });
    await generateText({ model, tools: createAITools({ workspace }), prompt: "go", stopWhen: stepCountIs(4) });
    expect(JSON.stringify(outputFor(model, "c1"))).toContain("too large for grep's linear-time engine (program size 5002, at most 1000)");
    expect(JSON.stringify(outputFor(model, "c2"))).toContain("grep stopped: the regular expression");
    expect(JSON.stringify(outputFor(model, "c2"))).toContain("Search a narrower path or include");
  });
});
