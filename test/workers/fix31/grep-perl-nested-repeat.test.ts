/**
 * Issue 20, run 31 (lead, after fixer GS): `grep -P` patterns with a lookaround or back-reference (and `-P -w`) run on
 * V8's backtracking engine, which the shell cannot stop in the middle of a match. A repeated group that holds an
 * unbounded repeat (`(a+)+`) backtracks exponentially on a line that almost matches — `(?=(a+)+b)` over 40 `a`s and a
 * `!` would take 2^40 steps and hold the shell's isolate (and locally all of workerd) for hours. Such a pattern is
 * refused on that path, before any line is read (status 2, a message saying what to write instead); the same nesting
 * without a lookaround stays on RE2 (linear time) and runs, and lookarounds without nesting run.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const LINE = `${"a".repeat(40)}!`;

it("a -P pattern that would backtrack exponentially on V8 is refused; other -P patterns run", async () => {
  const out = await shellCases({ files: { "a.txt": `${LINE}\nkey=val1 key=val2\n` } }, [
    "grep -cP '(?=(a+)+b)' a.txt; echo st=$?",
    "grep -cP '(?:x*y|a*)*\\1?(?<=a)' a.txt; echo st=$?",
    "grep -cPw '(a*)*b' a.txt; echo st=$?",
    "grep -cP '(a+)+b' a.txt; echo st=$?",
    "grep -oP '(?<=key=)\\w+' a.txt",
    "grep -oP '(a)\\1{3,}' a.txt | head -1",
    "grep -cP '(?=(?:ab)+)(a+)' a.txt",
  ]);
  const refused =
    "grep: a -P pattern with a lookaround or back-reference (or -P with -w) runs on a backtracking engine, where a repeated group holding an unbounded repeat (`(a+)+`, `(?:x*y)*`) or parts that can match the same text (`(a|ab)*`, `(?:a?a)*`) can take exponential time; it is not supported: write the repeat without nesting or overlap\n"; // GP: run 32 names overlapping parts too
  expect(out).toEqual([
    ["grep -cP '(?=(a+)+b)' a.txt; echo st=$?", "st=2\n", refused],
    ["grep -cP '(?:x*y|a*)*\\1?(?<=a)' a.txt; echo st=$?", "st=2\n", refused],
    ["grep -cPw '(a*)*b' a.txt; echo st=$?", "st=2\n", refused],
    // No lookaround: RE2, linear — no line has a b.
    ["grep -cP '(a+)+b' a.txt; echo st=$?", "0\nst=1\n", ""],
    ["grep -oP '(?<=key=)\\w+' a.txt", "val1\nval2\n", ""],
    ["grep -oP '(a)\\1{3,}' a.txt | head -1", `${"a".repeat(40)}\n`, ""],
    ["grep -cP '(?=(?:ab)+)(a+)' a.txt", "0\n", ""],
  ]);
});
