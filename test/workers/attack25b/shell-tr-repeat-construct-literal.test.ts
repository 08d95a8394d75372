/**
 * Issue 20, twenty-fifth attack run: tr's SET2 repeat constructs `[c*]` and `[c*n]` are taken as literal
 * characters: `tr ab '[x*]' <<< abc` gives `[xc` (GNU tr 9.1: `xxc` — `[x*]` is as many x as SET1 needs),
 * `tr abcd 'x[y*2]z' <<< abcd` gives `x[y*` (GNU `xyyz`); and `tr a ''` (empty SET2 without -d) is a no-op, status 0
 * (GNU: `tr: when not truncating set1, string2 must be non-empty`, status 1). `tr '[:digit:]' '[:upper:]'` maps
 * digits to letters (GNU refuses: `tr: when translating, the only character classes that may appear in string2 are
 * 'upper' and 'lower'`, status 1) — also not asserted.
 * Tried: ranges, classes, [=a=], -c/-d/-s, escapes, [c*], [c*n], empty SET2, mismatched classes.
 * Held: ranges, [:upper:]/[:lower:] pairs, [:space:]/[:digit:] with -d, -s, -c, -cd, [=a=], short SET2 padding.
 * Found (low — silently wrong mapping; 2 of 2 runs).
 * Suggested fix: expand `[c*]` (fill to SET1's length) and `[c*n]` (n copies; n octal when it starts with 0) in
 * SET2 as GNU tr's parser does; refuse an empty SET2 without -d as GNU.
 * Fixed: tr's sets are built by __textTools.trSets (src/backends/worker-shell/isolate/text-tools.ts, SX): `[c*]` fills
 * SET2 to SET1's length, `[c*n]` is n copies (octal after a 0); an empty SET2 when translating, classes other than
 * upper/lower in SET2, misaligned ones, `[c*]` in SET1, two `[c*]` and a bad count are refused with GNU's message,
 * status 1. Siblings: test/workers/fix25/shell-text-tools.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("tr expands [c*] and [c*n] in SET2, as GNU tr", async () => {
  const out = await shellCases({}, [
    "tr ab '[x*]' <<< abc",
    "tr abcd 'x[y*2]z' <<< abcd",
    "tr 'a-z' '[_*]' <<< 'hi there'",
  ]);
  expect(out).toEqual([
    // Was: "[xc\n".
    ["tr ab '[x*]' <<< abc", "xxc\n", ""],
    // Was: "x[y*\n".
    ["tr abcd 'x[y*2]z' <<< abcd", "xyyz\n", ""],
    ["tr 'a-z' '[_*]' <<< 'hi there'", "__ _____\n", ""],
  ]);
});
