/**
 * Issue 20, thirty-first attack run: awk reads `NAME (expr)` — a variable, a blank, then a parenthesised expression —
 * as something other than the concatenation POSIX awk makes of it, and the variable's value is lost: the joining idiom
 * `s = s (NR > 1 ? "," : "") $1` leaves only the last field (`carol`, not `alice,carol`); `a = "p"; b = a (2) "q"` gives
 * `q`, `x (x > 0 ? "+" : "-")` gives an empty string. No error, status 0.
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4 (they agree): concatenations of a variable with a parenthesised
 * ternary, comparison and number, with and without a following string.
 * Held: `(s) (expr)`, `"a" (expr) "d"` (a constant first), `out = out sep $1`, `s = s "," $1`.
 * Found (high — the join-with-separator idiom is among the most common awk an agent writes, and it silently computes a
 * different string; 2 of 2 runs).
 * Suggested fix: the awk parser (just-bash's awk chunk, patched in scripts/gen-shell.mjs): a user function call needs
 * the `(` right after the name (POSIX: no blank between); a variable name followed by a blank and `(` is an operand of
 * a concatenation.
 * Fixed: the parser's primary and field-index primary (just-bash's awk chunk) read `NAME (` as a call only when the
 * `(` follows the name at once or NAME is a built-in or a function the program defines; otherwise NAME is a variable
 * and `(…)` the next operand of the concatenation (src/backends/worker-shell/isolate/awk-streams.ts `isCall`, the
 * "awk name (expr) is a concatenation (AW)" patch in scripts/gen-shell.mjs). Siblings: test/workers/fix31/awk-streams-concat.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk concatenates a variable with a parenthesised expression after a blank", async () => {
  const out = await shellCases({ files: { "ids.txt": "alice\ncarol\n" } }, [
    `awk '{ s = s (NR > 1 ? "," : "") $1 } END { print s }' ids.txt`,
    `awk 'BEGIN { a = "p"; b = a (2) "q"; print b }'`,
    `awk 'BEGIN { x = 1; print x (x > 0 ? "+" : "-") }'`,
  ]);
  expect(out).toEqual([
    // Was: "carol\n"
    [`awk '{ s = s (NR > 1 ? "," : "") $1 } END { print s }' ids.txt`, "alice,carol\n", ""],
    // Was: "q\n"
    [`awk 'BEGIN { a = "p"; b = a (2) "q"; print b }'`, "p2q\n", ""],
    // Was: "\n"
    [`awk 'BEGIN { x = 1; print x (x > 0 ? "+" : "-") }'`, "1+\n", ""],
  ]);
});
