/**
 * Issue 20, scout after the twentieth attack run: `boundedIssues` (0ad7b87) now reports each invalid-input issue as
 * `{ code, path, message }` only — a zod `invalid_union` issue loses its branches' issues (`errors`).
 * Tried: ordinary bad grep calls through the AI SDK's real generateText loop (MockLanguageModelV4,
 * test/shared/loops/ai-sdk.ts): `include: ["*.ts", 5]` (one bad element), `include: 5`, `include: { glob: "*.ts" }`.
 * Held: each is a short error result (a few hundred characters), the loop goes on.
 * Found (low-medium — readability for the model, 3 of 3 calls): every one says only
 * `[{ "code": "invalid_union", "path": ["include"], "message": "Invalid input" }]` — nothing tells the model that
 * `include` takes a string or an array of strings, nor which element is wrong. Before the fix the same result
 * carried the array branch's issue (`path: [1]`, `Invalid input: expected string, received number`) inside `errors`
 * (unbounded, attack20a). The bound was needed; the information every small call needs went with it.
 * Suggested fix: in `boundedIssues`, replace an `invalid_union` issue by the issues of its closest branch (e.g. the
 * branch whose issues have the longest paths, ties to the fewest issues), their paths prefixed with the union's
 * path, counted against INVALID_ARGUMENTS_MAX_ISSUES / INVALID_ARGUMENTS_MAX_CHARS as top-level issues are; or at
 * least name the expected alternatives in the message (`expected string | string[]`).
 * Fixed: boundedIssues replaces an `invalid_union` by its closest branch's issues (deepest path, then fewest), paths
 * prefixed with the union's, within the same bounds: this call now reads `include.1: expected string, received number`.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { setup } from "../tools/helpers.js";

type Issue = { code?: string; path?: unknown[]; message: string };

describe("an ordinary bad union field through the AI SDK loop", () => {
  it('grep include: ["*.ts", 5] names the bad element and what it should be', async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const args = { path: "/workspace", query: "x", include: ["*.ts", 5] };
    const model = new MockLanguageModelV4({ doGenerate: [call("bad", "grep", args), done] });
    const result = await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(5) });
    expect(result.text).toBe("done");
    const output = outputFor(model, "bad") as { type: string; value: string };
    expect(output.type).toBe("error-text");
    const issues = JSON.parse(output.value.slice(output.value.indexOf("Error message: ") + "Error message: ".length)) as Issue[];
    // Today: [{ code: "invalid_union", path: ["include"], message: "Invalid input" }] and nothing else.
    expect(issues).toContainEqual(expect.objectContaining({ path: ["include", 1], message: "Invalid input: expected string, received number" }));
  });
});
