/**
 * Issue 20 ninth attack run, categories 2 and 3 (resource exhaustion through
 * an ordinary, slightly wrong tool call): the edit tool's "repeated match"
 * refusal on a long line.
 *
 * When `oldText` occurs more than once, edit names the lines the occurrences
 * are on (src/tools/core/edit-hints.ts `occurrenceLines`, via
 * edit-match.ts `locate`). For every occurrence it looks for the next "\n"
 * from the previous occurrence on; occurrences on one line are skipped
 * without a bound (`continue`, the 10-line limit counts distinct lines only),
 * and each of those searches runs to the end of the line. On a long line
 * that is O(occurrences × line length): quadratic in the file size.
 *
 * FIXED — `occurrenceLines` remembers the first newline it has not counted
 * yet and looks for the next one only once an occurrence lies past it, so
 * each newline is found once and the whole listing is O(file size) (the
 * occurrence count itself was already one linear indexOf scan).
 *
 * DEFECT (medium) — a minified bundle, a one-line JSON or CSV export is
 * where this happens, and an ambiguous `oldText` (`","`, `"function"`, one
 * character) is a common model mistake. Reproduction (Node, AI SDK tool
 * `execute`; the same code runs in the Durable Object):
 *   /workspace/one.txt = "x".repeat(2_000_000) + "\n"     (2 MB, under edit's 2 MiB maxBytes)
 *   read { path } ; edit { path, edits: [{ oldText: "x", newText: "y" }] }
 *   → after 47.6 s of one synchronous stretch: { error: "Found 2000000
 *     occurrences of the text in /workspace/one.txt, all on line 1. …" }
 *   (200 KB: 0.26 s; 400 KB: 1.2 s — ×4 per doubling.) In a Durable Object
 *   that is past the CPU limit (the object is reset) and nothing else runs
 *   meanwhile; the model's next call would likely repeat it.
 * Expected: the refusal costs O(file size) — e.g. count newlines only up to
 * each new occurrence (remember where the scan stopped), or stop once the
 * listed lines are known. Asserted here without time: `occurrenceLines` is
 * given the haystack as a String object that counts the characters each
 * `indexOf` call scans; for a 200,000-character line it must scan at most
 * 10× the length (it scans 20,000,700,000).
 */
import { describe, expect, it } from "vitest";
import { occurrenceLines } from "../../../src/tools/core/edit-hints.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { setup } from "../tools/helpers.js";

/** A string whose `indexOf` adds the characters it scanned to `scanned`. */
class CountingString extends String {
  scanned = 0;
  override indexOf(search: string, from = 0): number {
    const at = super.indexOf(search, from);
    this.scanned += (at < 0 ? this.length : at + search.length) - Math.max(0, from);
    return at;
  }
}

describe("attack9: edit's repeated-match refusal on a long line", () => {
  it("the edit tool refuses an ambiguous oldText on a one-line file (the path that is slow)", async () => {
    const { workspace } = await setup({ "/workspace/one.txt": `${"x".repeat(20_000)}\n` });
    try {
      const tools = createAITools({ workspace }) as unknown as Record<string, { execute: (input: unknown, options: unknown) => Promise<unknown> }>;
      await tools.read!.execute({ path: "/workspace/one.txt" }, { toolCallId: "r", messages: [] });
      const result = await tools.edit!.execute({ path: "/workspace/one.txt", edits: [{ oldText: "x", newText: "y" }] }, { toolCallId: "e", messages: [] });
      expect(result).toEqual({ error: "Found 20000 occurrences of the text in /workspace/one.txt, all on line 1. The text must be unique. Please provide more context to make it unique." });
    } finally {
      await workspace.close();
    }
  });

  it("listing the lines of 200,000 occurrences on one line scans O(length) characters, not O(length²)", () => {
    const n = 200_000;
    const haystack = new CountingString(`${"x".repeat(n)}\n`);
    const result = occurrenceLines(haystack as unknown as string, "x");
    expect(result).toEqual({ lines: [1], more: false });
    expect(haystack.scanned).toBeLessThanOrEqual(10 * (n + 1));
  });
});
