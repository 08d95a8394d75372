/**
 * Issue 20, twenty-fourth attack run: awk answers differently from POSIX awk (mawk 1.3.4 and gawk agree on each):
 * - `-v OFS=-` is ignored by `print $1, $2` and by a record rebuilt with `$1=$1` (`a b`; `BEGIN{OFS="-"}` works);
 * - `length` without parentheses is empty (`print length` prints an empty line, `length $0` drops the number);
 * - `split("", a)` returns 1 (an empty string has no fields: 0);
 * - `"10" < "9"` of two string constants compares as numbers (0) where POSIX compares strings (1), also for
 *   variables holding string constants;
 * - `x ""` ignores CONVFMT (`CONVFMT="%.1f"; x=2.56; x ""` is `2.6`).
 * Tried: side by side with mawk 1.3.4: print/printf formats, OFS/-v/-F, length, split, substr/index/toupper,
 * comparisons of constants and fields, getline from a missing file, FILENAME/FNR, NR==1{next}, $3 assignment.
 * Held: gsub, $NF/NF, substr/index/toupper, field comparisons (numeric strings), getline < missing, FILENAME/FNR,
 * next, $3="z" extending the record, printf %c.
 * Found (medium — silent wrong output of common one-liners: `awk -v OFS=, '{print $1,$2}'` to make CSV, `awk '{print
 * length}'`; 2 of 2 runs): see the expectations.
 * Suggested fix: in just-bash's awk (the awk chunk): apply -v assignments to the special variables OFS/ORS/FS/CONVFMT
 * the way BEGIN assignments are; parse `length` without `(` as length($0); split of "" returns 0; compare two
 * string constants (and string-valued variables not from input) as strings; use CONVFMT for number→string.
 * Fixed (src/backends/worker-shell/isolate/awk.ts, scripts/gen-shell.mjs entries marked SA; POSIX, where mawk 1.3.4
 * and gawk agree): -v and `NAME=value` operands assign through the interpreter's variable setter, so OFS, ORS, FS,
 * OFMT, CONVFMT, NR… take effect (an operand assignment when it is reached among the files; `-` is stdin); `length`
 * without `(` is length($0) in any expression; split of "" is 0 (separator " " drops leading and trailing blanks, one
 * other character stands for itself, a longer one is an ERE, "" splits characters); comparisons follow POSIX's
 * table: numeric when both are numbers, numeric strings (input: fields, getline, split, -v, ARGV, ENVIRON) or
 * uninitialized, as strings when either is a string — a constant, a concatenation, substr/sprintf…, or a variable,
 * array element, argument or function value that holds one (kept as such); CONVFMT is a variable (default %.6g) and
 * converts every non-integer number to a string. Siblings in test/workers/fix24/shell-awk.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk follows POSIX for -v OFS, bare length, split of an empty string, string comparison, CONVFMT", async () => {
  const out = await shellCases({}, [
    "echo 'a b' | awk -v OFS=- '{print $1, $2}'; echo 'a:b' | awk -v OFS=- -F: '{$1=$1; print}'",
    "echo abc | awk '{print length}'; echo abc | awk '{print length $0}'",
    "awk 'BEGIN{print split(\"\", a)}'",
    "awk 'BEGIN{print (\"10\" < \"9\"); a=\"10\"; b=\"9\"; print (a < b)}'",
    "awk 'BEGIN{CONVFMT=\"%.1f\"; x=2.56; y=x \"\"; print y}'",
  ]);
  expect(out).toEqual([
    // Was: "a b\na b\n".
    ["echo 'a b' | awk -v OFS=- '{print $1, $2}'; echo 'a:b' | awk -v OFS=- -F: '{$1=$1; print}'", "a-b\na-b\n", ""],
    // Was: "\nabc\n".
    ["echo abc | awk '{print length}'; echo abc | awk '{print length $0}'", "3\n3abc\n", ""],
    // Was: "1\n".
    ["awk 'BEGIN{print split(\"\", a)}'", "0\n", ""],
    // Was: "0\n0\n".
    ["awk 'BEGIN{print (\"10\" < \"9\"); a=\"10\"; b=\"9\"; print (a < b)}'", "1\n1\n", ""],
    // Was: "2.56\n".
    ["awk 'BEGIN{CONVFMT=\"%.1f\"; x=2.56; y=x \"\"; print y}'", "2.6\n", ""],
  ]);
});
