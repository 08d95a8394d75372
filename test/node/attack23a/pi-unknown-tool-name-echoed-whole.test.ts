/**
 * Issue 20, twenty-third attack run: pi's `execute` answers an unknown tool name by quoting the whole name.
 * Tried: through pi's own loop (both majors' faux providers, test/shared/loops/pi.ts), a tool call whose `name` is
 * 1,000,000 characters (a degenerate model repeating itself) and one of 200,000 control characters (U+0001), beside
 * the bounded siblings: an invalid-arguments message (INVALID_ARGUMENTS_MAX_CHARS, 4,096; attack19a) and a refused
 * env name, cwd or id (64 characters and the length; ff51dc6, 7825866).
 * Held: a known tool with bad arguments gives a message within 4,096 characters; `argumentsError` is cut to 4,096.
 * Found (low — the model's context pays; 3 of 3 runs): the toolResult text is `Unknown tool ${JSON.stringify(name)}.
 * Available tools: …` (src/tools/pi-ai.ts run()), the name whole: 1,000,000 characters of name → 1,000,100+ characters
 * of result; JSON.stringify writes each control character as `\u0001`, so 200,000 of them → 1,200,000+ characters
 * (6×), pushed into the conversation as one toolResult.
 * Suggested fix: quote the name through the shared 64-characters-plus-length helper (quoteCut / memberCut) used by the
 * runtime's refusals, e.g. `Unknown tool "xxxx…" (1000000 characters). Available tools: …`.
 * Fixed: run() quotes a string name with quoteCut (src/util/cut.ts: whole up to 64 characters, else the first 64,
 * `…` and the length) and any other value with jsonCut: `Unknown tool "x{64}…" (1000000 characters). Available
 * tools: …`; 200,000 × U+0001 gives 64 `\u0001` escapes then `(200000 characters)`. The AI SDK and TanStack adapters
 * echo no unknown name (their frameworks dispatch by name); ws:tools' `No tool named "<name>"` names a key of the
 * host's own tool set, not a model's call.
 */
import { describe, expect, it } from "vitest";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup } from "../tools/helpers.js";

/** What a bounded message may take (the invalid-arguments bound). */
const BOUND = 4096;

for (const major of PI_MAJORS) describe(`pi ${major.name}: an unknown tool name`, () => {
  const runLoop = major.piLoop();

  it(`is quoted within ${BOUND} characters however long the name is`, async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "one\n" });
    const pi = createPiTools({ workspace });
    const long = "x".repeat(1_000_000);
    const control = "\u0001".repeat(200_000);
    const { results } = await runLoop(pi, [
      step(major, major.fauxToolCall(long, {}, { id: "long" }), major.fauxToolCall(control, {}, { id: "control" })),
      major.fauxAssistantMessage([major.fauxText("done")]),
    ]);
    const texts = ["long", "control"].map((id) => {
      const result = results.get(id)!;
      expect(result.isError).toBe(true);
      return result.content[0]!.text!;
    });
    const available = pi.tools.map((t) => JSON.stringify(t.name)).join(", ");
    expect(texts).toEqual([
      `Unknown tool "${"x".repeat(64)}…" (1000000 characters). Available tools: ${available}.`,
      `Unknown tool "${"\\u0001".repeat(64)}…" (200000 characters). Available tools: ${available}.`,
    ]);
    // Found: 1,000,000 + ~110 characters, and 1,200,000 + ~110 (each U+0001 written as \u0001).
    expect(texts.map((t) => t.length <= BOUND)).toEqual([true, true]);
  });
});
