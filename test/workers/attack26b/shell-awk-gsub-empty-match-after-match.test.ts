/**
 * Issue 20, twenty-sixth attack run: awk's gsub with a regex that can match empty replaces an extra empty match right
 * after each non-empty one and counts it: `s = "baaac"; gsub(/a*\/, "X", s)` gives 4 and `XbXXcX` (gawk, mawk and
 * POSIX: 3, `XbXcX`), `gsub(/o*\/, "_")` on "hello world" 12 `_h_e_l_l__ _w__r_l_d_` (GNU: 10, `_h_e_l_l_ _w_r_l_d_`);
 * `"aaa"` gives `XX` (GNU `X`). sed's `s/a*\/X/g` is right, so the two tools disagree on the same regex.
 * Tried: side by side with GNU awk 5.2.1 — gsub of a*, b*, o*, x* on strings with and without matches; sub; sed g.
 * Held: gsub of a pattern that cannot match empty, gsub(/x*\/) where nothing matches (4 `-a-b-c-`), sub, sed s///g.
 * Found (low — wrong replacement text and count; 2 of 2 runs).
 * Suggested fix: in gsub's scan, after a non-empty match ending at i, do not accept an empty match at i (advance one
 * character first), as gawk's and POSIX's rule "an empty match immediately after a previous match is ignored".
 * Fixed: the scan shared by sub, gsub and gensub skips an empty match that starts where the previous match ended.
 * Siblings (gsub(//), gsub(/x*\/) on "", sub, gensub) in test/workers/fix26/shell-awk-records-options.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("gsub ignores an empty match right after a match, as POSIX awk", async () => {
  const out = await shellCases({}, [
    "awk 'BEGIN { s = \"baaac\"; n = gsub(/a*/, \"X\", s); print n, s }'",
    "awk 'BEGIN { s = \"aaa\"; n = gsub(/a*/, \"X\", s); print n, s }'",
    "awk 'BEGIN { s = \"hello world\"; n = gsub(/o*/, \"_\", s); print n, s }'",
  ]);
  expect(out).toEqual([
    // Was: "4 XbXXcX\n".
    ["awk 'BEGIN { s = \"baaac\"; n = gsub(/a*/, \"X\", s); print n, s }'", "3 XbXcX\n", ""],
    ["awk 'BEGIN { s = \"aaa\"; n = gsub(/a*/, \"X\", s); print n, s }'", "1 X\n", ""],
    ["awk 'BEGIN { s = \"hello world\"; n = gsub(/o*/, \"_\", s); print n, s }'", "10 _h_e_l_l_ _w_r_l_d_\n", ""],
  ]);
});
