/**
 * Issue 20, scout after the nineteenth attack run: `parseDuration`'s messages now quote at most 64 characters of the
 * input (src/artifacts/duration.ts `quote`, commit 1241ae9) — the pages documenting those messages were not updated.
 * Tried: `parseDuration("x".repeat(100))` and `parseDuration("1" + "w".repeat(100))`, then the duration error list
 * of docs/artifacts.md (`--ttl`, `parseDuration`); docs/modules-assets.md only gives short examples (held).
 * Held: the messages are short (`invalid duration 'xxx…x…' (100 characters)`, `unknown duration unit 'www…w…'
 * (100 characters) in '1www…' (101 characters)`), never cut between a character's halves; the TSDoc says so.
 * Found (low — docs only): docs/artifacts.md gives the messages as `invalid duration '<in>'`, `unknown duration unit '<u>' in
 * '<in>'`, `duration must be positive (got '<in>')` with the input quoted whole; neither says a long input (or unit) is
 * cut at 64 characters and followed by its length, so a caller matching the documented shape on a long `--ttl` gets
 * something else.
 * Fixed: docs/artifacts.md says so after the list of messages.
 * Suggested fix: add to the list "(a quoted input or unit over 64 characters is cut there: `'<first 64>…' (<n>
 * characters)`)".
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { parseDuration } from "../../../src/artifacts/duration.js";

it("docs/artifacts.md says a long duration input is quoted cut at 64 characters", () => {
  expect(() => parseDuration("x".repeat(100))).toThrow(new RangeError(`invalid duration '${"x".repeat(64)}…' (100 characters)`));
  const pages = ["docs/artifacts.md"].map((p) => [p, readFileSync(p, "utf8")] as const);
  // Where each page lists the duration errors: the few lines around `invalid duration`.
  const says = pages.map(([p, text]) => {
    const at = text.indexOf("invalid duration");
    return [p, at >= 0 && /\b64\b/.test(text.slice(Math.max(0, at - 400), at + 400))] as const;
  });
  expect(says).toEqual([["docs/artifacts.md", true]]);
});
