/**
 * Issue 20, nineteenth attack run: a malformed tool call through the AI SDK's real `generateText` loop
 * (MockLanguageModelV4, test/shared/loops/ai-sdk.ts) and TanStack AI's real `chat()` (scripted adapter,
 * test/node/tools/tanstack-helpers.ts) — how big the error the model gets back may be. Companion of
 * pi-invalid-arguments-message-unbounded.test.ts (pi's own message builder); here the libraries validate the input
 * against the tools' zod schemas themselves and word the error from its issues.
 * Tried: `edit` with `edits` an array of 10,000 numbers (20,037 characters of arguments).
 * Held: nothing runs, the file is unchanged, the loop goes on to the next step (an error result, never a throw).
 * Found (low–medium — the conversation, not the object, pays; 3 of 3 runs): the schema yields one issue per element
 * and both libraries put every one into the result: the AI SDK's tool-error output is 1,769,056 characters
 * (`AI_InvalidToolInputError: … Value: <the whole input> … Error message: <every issue as JSON>`, ~88× the
 * arguments) and TanStack's tool message 490,068 (`Input validation failed for tool edit: Validation failed: <every
 * issue>`, ~24×) — each pushed into the next model request.
 * Suggested fix: give the libraries schemas whose failures are bounded — e.g. wrap each tool's `inputSchema` (a Standard
 * Schema `~standard.validate` for TanStack, `jsonSchema(…, { validate })` / a zod `superRefine` front for the AI SDK)
 * so that a failed validation reports at most the first few issues plus a count (`… and 9,990 more`), as
 * `invalidArgumentsMessage` should for pi.
 * Fixed: the libraries get copies of the zod schemas whose failures report `boundedIssues` (src/tools/core/schema.ts):
 *   the first 10 issues, then `… and <n> more issues`, messages at most 4,096 characters. TanStack: the copy's Standard
 *   Schema `validate` (`withBoundedIssues`). AI SDK: the copy is also an AI SDK `Schema` (`checked()` in
 *   src/tools/ai-sdk-tools.ts) with the JSON Schema the SDK derives from zod and zod's validation, bounded. The AI SDK
 *   still quotes the whole input (`Value: …`) in any failed validation — its own wording, 1× the arguments the model
 *   just wrote, not an amplification — so the AI SDK bound below is "the input plus at most 4,096" (expectation
 *   changed: no failing schema can keep that text under a bound smaller than the input). The JSON Schemas the model
 *   sees are unchanged (last case).
 */
import { asSchema, generateText, stepCountIs } from "ai";
import { convertSchemaToJsonSchema } from "@tanstack/ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { runChat } from "../tools/tanstack-helpers.js";
import { setup } from "../tools/helpers.js";

/** Elements of the malformed `edits` array. */
const N = 10_000;
/** What a bounded invalid-input error may take (characters of the result the model sees). */
const BOUND = 4096;
const args = { path: "/workspace/a.txt", edits: Array.from({ length: N }, () => 1) };
/** What zod says of each of the first 10 elements. */
const ISSUE = "Invalid input: expected object, received number";

describe("a malformed edit call (edits: 10,000 numbers) through the real loops", () => {
  it(`AI SDK generateText: the tool-error output holds the input and at most ${BOUND} more characters (was 1,769,056)`, async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const model = new MockLanguageModelV4({ doGenerate: [call("bad", "edit", args), done] });
    const result = await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(5) });
    expect(result.text).toBe("done");
    const output = outputFor(model, "bad") as { type: string; value: string };
    expect(output.type).toBe("error-text");
    const head = `AI_InvalidToolInputError: Invalid input for tool edit: AI_TypeValidationError: Type validation failed: Value: ${JSON.stringify(args)}.\nError message: `;
    expect(output.value.startsWith(head)).toBe(true);
    const issues = JSON.parse(output.value.slice(head.length)) as { path?: unknown[]; message: string }[];
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => [["edits", i], ISSUE]),
      [undefined, `… and ${N - 10} more issues`],
    ]);
    expect(await workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("one\n");
    // The AI SDK quotes the whole input in any failed validation (its own wording): bounded beyond it.
    expect(output.value.length - JSON.stringify(args).length).toBeLessThanOrEqual(BOUND);
  });

  it(`TanStack chat(): the tool message is at most ${BOUND} characters (was 490,068)`, async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const { toolMessage } = await runChat(createTanStackTools({ workspace }), [{ calls: [{ id: "bad", name: "edit", input: args }] }, { text: "ok" }]);
    const message = toolMessage("bad") as string;
    expect(message.startsWith('{"error":"Input validation failed for tool edit: ')).toBe(true);
    expect(await workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("one\n");
    expect(message.length).toBeLessThanOrEqual(BOUND);
    const listed = Array.from({ length: 10 }, () => ISSUE);
    expect(JSON.parse(message)).toEqual({ error: `Input validation failed for tool edit: Validation failed: ${listed.join(", ")}, … and ${N - 10} more issues` });
  });

  it("the JSON Schemas the AI SDK and TanStack derive are the zod schemas' own, unchanged", async () => {
    const { workspace } = await setup({});
    const core = buildCoreTools({ workspace });
    const ai = createAITools({ workspace });
    const ts = createTanStackTools({ workspace });
    expect(core.length).toBeGreaterThanOrEqual(7);
    for (const [i, tool] of core.entries()) {
      expect(await asSchema(ai[tool.name]!.inputSchema).jsonSchema, tool.name).toEqual(await asSchema(tool.inputSchema).jsonSchema);
      expect(convertSchemaToJsonSchema(ts[i]!.inputSchema as never), tool.name).toEqual(convertSchemaToJsonSchema(tool.inputSchema as never));
      // ws:tools validates with safeParse: the TanStack copy parses as the original does.
      expect(ts[i]!.inputSchema.safeParse({ path: 1 }).error?.issues).toEqual(tool.inputSchema.safeParse({ path: 1 }).error?.issues);
    }
  });
});
