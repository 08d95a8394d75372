/**
 * Issue 20, twentieth attack run: the AI SDK tools' bounded invalid-input errors (src/tools/core/schema.ts
 * `boundedIssues`, the attack19a fix: "the error lists at most the first 10 issues … messages at most 4,096
 * characters; the SDK still quotes the whole input", docs/tools.md) — for a field whose schema is a union.
 * Tried: grep (and find: the same `globList()`) through the AI SDK's real `generateText` loop (MockLanguageModelV4,
 * test/shared/loops/ai-sdk.ts) with `include` and `exclude` each an array of N numbers (`globList()` is
 * `z.union([z.string(), z.array(z.string()).max(MAX_GLOBS)])`, MAX_GLOBS 100); TanStack `chat()` and pi with the same
 * call. Held: nothing runs, the loop goes on (an error result, never a throw); TanStack's message (`Validation failed:
 * Invalid input`, 83 characters) and pi's (`include: Invalid input`, 104) are short — they word issues by message only.
 * Found (low — the conversation, not the object, pays; bounded by MAX_GLOBS; 3 of 3 runs): zod reports each bad union
 * field as ONE issue (`invalid_union`, message `Invalid input`) carrying every branch's issues in its `errors`
 * (`[[1 issue], [N issues]]`); `boundedIssues` counts and cuts only the top-level issues and keeps each "as it is",
 * so the AI SDK's `Error message:` (the issues as JSON) holds all the nested ones: N = 100 → 457 characters of
 * arguments give a tool-error output 41,987 characters longer than the input (~92×, 204 issues listed, nested ones counted, where the docs
 * say at most 10); N = 10 → 4,907 beyond the input (97 characters of arguments).
 * Suggested fix: bound nested issues too — e.g. `boundedIssues` keeps only `code`, `path` and `message` of each issue
 * (dropping `errors`, or replacing an `invalid_union` by its closest branch's first issues), counting nested issues
 * against INVALID_ARGUMENTS_MAX_ISSUES and their messages against INVALID_ARGUMENTS_MAX_CHARS.
 * Fixed: `boundedIssues` reports each issue as `{ code, path, message }` only (a union's `errors`, unrecognized keys'
 * `keys` and the like are left out; path segments ≤ 64, string keys ≤ 256 characters), a union by the issues of its
 * closest branch (scout20 ai-sdk-union-issue-unhelpful), counted against the same bounds.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { INVALID_ARGUMENTS_MAX_CHARS, INVALID_ARGUMENTS_MAX_ISSUES } from "../../../src/tools/core/schema.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { setup } from "../tools/helpers.js";

/** Elements of each malformed glob list (MAX_GLOBS: the most the array branch accepts). */
const N = 100;
const args = { path: "/workspace", query: "x", include: Array.from({ length: N }, () => 1), exclude: Array.from({ length: N }, () => 1) };

type Issue = { code?: string; path?: unknown[]; message: string; errors?: Issue[][] };

/** Every issue of `issues`, nested union branches included. */
function flat(issues: Issue[]): Issue[] {
  return issues.flatMap((issue) => [issue, ...flat((issue.errors ?? []).flat())]);
}

describe("a malformed grep call (include/exclude: 100 numbers each) through the AI SDK's generateText", () => {
  it(`the tool-error output holds the input and at most ${INVALID_ARGUMENTS_MAX_CHARS} more characters, at most ${INVALID_ARGUMENTS_MAX_ISSUES} issues (was 41,987 more, 204 issues counting nested ones)`, async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const model = new MockLanguageModelV4({ doGenerate: [call("bad", "grep", args), done] });
    const result = await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(5) });
    // Held: an error result the model reads, and the loop goes on.
    expect(result.text).toBe("done");
    const output = outputFor(model, "bad") as { type: string; value: string };
    expect(output.type).toBe("error-text");
    const head = `AI_InvalidToolInputError: Invalid input for tool grep: AI_TypeValidationError: Type validation failed: Value: ${JSON.stringify(args)}.\nError message: `;
    expect(output.value.startsWith(head)).toBe(true);
    const issues = JSON.parse(output.value.slice(head.length)) as Issue[];
    // Each union is reported by its closest branch (the array: element by element), bounded as top-level issues are.
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ...Array.from({ length: INVALID_ARGUMENTS_MAX_ISSUES }, (_, i) => [["include", i], "Invalid input: expected string, received number"]),
      [undefined, "… and 190 more issues"],
    ]);
    expect(flat(issues).length).toBeLessThanOrEqual(INVALID_ARGUMENTS_MAX_ISSUES + 1); // 204 before (+1: the count line)
    expect(output.value.length - JSON.stringify(args).length).toBeLessThanOrEqual(INVALID_ARGUMENTS_MAX_CHARS); // 41,987 today
  });
});
