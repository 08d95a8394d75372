/**
 * Issue 20, twenty-fifth attack run: `expr STRING : REGEX` (and `expr match`) with a `\(…\)` group prints a number
 * instead of the text the group matched: `expr abc : 'a\(.*\)'` gives `0` (GNU coreutils 9.1: `bc`), `expr match abc
 * 'a\(.\)'` `0` (`b`), `expr v1.2 : 'v\([0-9]*\)'` `0` (`1`), `expr 'hello world' : '.*o \(w.*\)'` `0` and status 1
 * (`world`, status 0); with no match GNU prints an empty line (status 1), ours `0`. The classic portable idiom for
 * taking a piece of a string (`ver=$(expr "$tag" : 'v\(.*\)')`) silently gives 0.
 * Tried: expr arithmetic, comparisons, length/substr/index/match, `:` with and without groups, anchoring, syntax
 * errors.
 * Held: `:` without a group (the match length, anchored at the start), arithmetic, length/substr/index, `|` `&`.
 * Found (medium — wrong value, often exit 0; 2 of 2 runs). Also: `expr 10 \> 9a` compares as numbers (1; GNU 0, a
 * string comparison since 9a is not a number) — not asserted.
 * Suggested fix: in expr's `:` (and `match`), when the BRE holds a group print group 1's text (empty when it did not
 * take part or nothing matched, then status 1), else the match length.
 * Fixed (fixer SY): expr is GNU expr 9.1's grammar (isolate/mode-expr.ts, expr): `:` and match translate the
 * pattern as a POSIX basic regular expression (\( \) groups, \{m,n\}, \+ \? \|, a leading * and a middle ^ or $
 * literal, bracket classes, back references), anchored at the start, and print group 1's text when there is a group
 * ("" and status 1 when it took no part or nothing matched), else the match length; `\|` takes the longest match.
 * Comparisons are numeric only when both sides are integers (`expr 10 \> 9a` is 0), arithmetic is exact and
 * refuses non-integers (`expr 9a + 1`: non-integer argument, status 2), substr out of range is "", and syntax
 * errors are GNU's. Siblings: test/workers/fix25/shell-mode-expr-env.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("expr : with a \\( \\) group prints what the group matched, as GNU expr", async () => {
  const out = await shellCases({}, [
    "expr abc : 'a\\(.*\\)'",
    "expr match abc 'a\\(.\\)'",
    "expr v1.2 : 'v\\([0-9]*\\)'",
    "expr 'hello world' : '.*o \\(w.*\\)'; echo \"st=$?\"",
    "expr abc : '\\(x\\)'; echo \"st=$?\"",
  ]);
  expect(out).toEqual([
    // Was: "0\n".
    ["expr abc : 'a\\(.*\\)'", "bc\n", ""],
    ["expr match abc 'a\\(.\\)'", "b\n", ""],
    ["expr v1.2 : 'v\\([0-9]*\\)'", "1\n", ""],
    // Was: "0\nst=1\n".
    ["expr 'hello world' : '.*o \\(w.*\\)'; echo \"st=$?\"", "world\nst=0\n", ""],
    ["expr abc : '\\(x\\)'; echo \"st=$?\"", "\nst=1\n", ""],
  ]);
});
