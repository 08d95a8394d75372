/**
 * Fix 21 (TA1), sibling of test/workers/attack21a/edit-not-found-hint-quotes-whole-line.test.ts: every value edit's
 * not-found hints quote — the closest line, indentation, a line-number prefix — is cut to HINT_LIMITS.lineChars (200)
 * characters around the first difference, with what was left out counted; a line of at most 200 is quoted whole.
 */
import { expect, it } from "vitest";
import { HINT_LIMITS, notFoundHints } from "../../../src/tools/core/edit-hints.js";

const q = (s: string) => JSON.stringify(s);

it("the closest line of a 1,000,014-character line is quoted from its start, 200 characters and the rest counted", () => {
  const line = "const value = " + "y".repeat(1_000_000);
  expect(HINT_LIMITS.lineChars).toBe(200);
  expect(notFoundHints(line, "const valeu = " + "y".repeat(186), "oldText")).toEqual([
    `The closest line in the file is line 1: ${q(line.slice(0, 200))}…[999814 more characters].`,
  ]);
});

it("a difference far into a long line is shown from 40 characters before it", () => {
  const file = "a".repeat(5000) + "B" + "c".repeat(5000);
  const old = "a".repeat(5000) + "X" + "c".repeat(5000);
  expect(notFoundHints("start\n" + file + "\n", "start\n" + old, "oldText")).toEqual([
    `oldText's line 1 matches line 1 of the file, but its line 2 is [4960 characters before] ${q("a".repeat(40) + "X" + "c".repeat(159))}…[4841 more characters] ` +
      `where the file's line 2 is [4960 characters before] ${q("a".repeat(40) + "B" + "c".repeat(159))}…[4841 more characters].`,
  ]);
});

it("long indentation is quoted cut, as the lines are; a surrogate pair is never split", () => {
  const hints = notFoundHints("\t".repeat(1000) + "abc\n", " ".repeat(1000) + "abc", "oldText");
  expect(hints).toEqual([
    `The closest line in the file is line 1: ${q("\t".repeat(200))}…[803 more characters].`,
    `The file indents with tabs (line 1 starts with ${q("\t".repeat(200))}…[800 more characters]) where oldText uses spaces (${q(" ".repeat(200))}…[800 more characters]); copy the indentation exactly.`,
  ]);
  // "b", 198 "a", then "😀" (2 code units) at 199–200: the cut at 200 would split it, so it ends before it.
  const emoji = "b" + "a".repeat(198) + "😀" + "z".repeat(300);
  expect(notFoundHints(emoji + "\n", "c" + "a".repeat(198) + "😀" + "z".repeat(300), "oldText")).toEqual([
    `The closest line in the file is line 1: ${q("b" + "a".repeat(198))}…[302 more characters].`,
  ]);
});

it("lines of at most 200 characters are quoted whole, as before", () => {
  expect(notFoundHints("head\n" + "x".repeat(200) + "\n", "head\nfoo", "oldText")).toEqual([
    `oldText's line 1 matches line 1 of the file, but its line 2 is "foo" where the file's line 2 is ${q("x".repeat(200))}.`,
  ]);
});
