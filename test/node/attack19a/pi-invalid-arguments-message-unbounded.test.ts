/**
 * Issue 20, nineteenth attack run: a malformed tool call through pi's own loop (`createPiTools().execute`, both
 * majors' faux provider loops in test/shared/loops/pi.ts) — how big the readable error result may get.
 * Tried: an `edit` call whose `edits` is an array of N numbers (`{ path, edits: [1, 1, …] }`, what a model emits when it
 * loses the shape of the schema), and objects with thousands of unknown keys (read/write: zod strips them, held).
 * Found (low–medium — the model's context, not the object, pays; 3 of 3 runs): the result text is
 * `Invalid arguments for edit: ` followed by EVERY zod issue joined with `; ` (`invalidArgumentsMessage`,
 * src/tools/core/schema.ts), one `edits.<i>: Invalid input: expected object, received number` per element — about 30
 * characters of error per 2 characters of arguments: 1,000 elements (2,037 characters of arguments) → 59,916
 * characters; 10,000 (20,037) → 608,916; 50,000 (100,037) → 3,088,916 characters pushed back into the conversation
 * as one toolResult, past any model's context, where the read tool cuts its own results at 50 KB. The same message
 * builder answers the exec tool's invalid input and `createAITools()` tools called directly.
 * Suggested fix: `invalidArgumentsMessage` lists at most the first few issues (e.g. 10) and then says how many more
 * there are (`… and 9,990 more issues`), cutting the whole message to a bound (e.g. 4,096 characters) without
 * splitting a character.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { INVALID_ARGUMENTS_MAX_CHARS, invalidArgumentsMessage } from "../../../src/tools/core/schema.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

/** Elements of the malformed `edits` array. */
const N = 10_000;
/** What a bounded invalid-arguments message may take (characters). */
const BOUND = 4096;

for (const major of PI_MAJORS) describe(`pi ${major.name}: a malformed edit call's error result`, () => {
  const runLoop = major.piLoop();

  it(`is at most ${BOUND} characters for an edits array of ${N} numbers (was 608,916), and changes nothing`, async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const pi = createPiTools({ workspace });
    const args = { path: "/workspace/a.txt", edits: Array.from({ length: N }, () => 1) };
    expect(JSON.stringify(args).length).toBe(20_037);
    const { results } = await runLoop(pi, [step(major, major.fauxToolCall("edit", args, { id: "bad" })), major.fauxAssistantMessage([major.fauxText("done")])]);
    const result = results.get("bad")!;
    expect(result.isError).toBe(true);
    const text = result.content[0]!.text!;
    expect(text.startsWith("Invalid arguments for edit: edits.0: Invalid input: expected object, received number; ")).toBe(true);
    expect(await workspace.fs.readFile("/workspace/a.txt", "utf8")).toBe("one\n");
    expect(text.length).toBeLessThanOrEqual(BOUND);
    const listed = Array.from({ length: 10 }, (_, i) => `edits.${i}: Invalid input: expected object, received number`);
    expect(text).toBe(`Invalid arguments for edit: ${listed.join("; ")}; … and ${N - 10} more issues`);
  });
});

it("a few long issues are cut to INVALID_ARGUMENTS_MAX_CHARS without splitting a character", () => {
  expect(INVALID_ARGUMENTS_MAX_CHARS).toBe(BOUND);
  // Two issues whose paths are 6,000 characters of emoji (surrogate pairs) each.
  const keys = ["\u{1F600}".repeat(3000), "\u{1F601}".repeat(3000)];
  const parsed = z.object({ [keys[0]!]: z.string(), [keys[1]!]: z.string() }).safeParse({});
  expect(parsed.success).toBe(false);
  const text = invalidArgumentsMessage("t", parsed.error!);
  const head = `Invalid arguments for t: ${keys[0]}`;
  // Even cut: 4,095 - 25 (prefix) = 4,070 units = 2,035 whole emoji, then the mark.
  expect(text).toBe(`${head.slice(0, BOUND - 1)}…`);
  expect(text.length).toBe(BOUND);
  const odd = invalidArgumentsMessage("tt", parsed.error!);
  // Odd cut: the high half at the end is dropped with its pair, so the message is one unit shorter.
  expect(odd).toBe(`Invalid arguments for tt: ${"\u{1F600}".repeat(2034)}…`);
  expect(odd.length).toBe(BOUND - 1);
  expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(odd)).toBe(false);
});
