/**
 * Issue 20, twenty-fourth attack run (fixer SA): siblings of the awk findings in test/workers/attack24b/
 * (shell-awk-number-output-drops-exponent-digits, shell-awk-posix-divergences), fixed in
 * src/backends/worker-shell/isolate/awk.ts through scripts/gen-shell.mjs entries marked SA.
 *
 * Every expected stdout is what mawk 1.3.4 (the machine's awk) printed for the same command under bash 5.2, in a
 * directory with the same files; gawk 5.2.1 (also with --posix) prints the same, but where noted. Where they differ
 * we follow POSIX: an integer is written as `%d` — mawk writes one past 2^31-1 through OFMT (`print 2^31` is
 * `2.14748e+09`), gawk every integer whole (`1e301` as 302 digits); here an integer below 2^63 (C's long) is whole
 * and a larger one goes through OFMT (`1e+301`, as mawk). Infinity is `inf` as mawk and gawk --posix (gawk: `+inf`).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { files: { data: "x 10 9\ny 2 10\nz abc abd\n", f1: "1\n2\n", f2: "3\n" } };

it("printf %e %E %f %F %g %G are C's: exact rounding (ties to even), two exponent digits, flags; %d %i %o %x and int() truncate; %s of a number is CONVFMT's", async () => {
  const expected: [string, string, string][] = [
    ["awk 'BEGIN{printf \"%5.1e|%-12.3E|%+g|% g|%#g|%#.0f|%.0e|%G|%010.3f\\n\", 12345, 0.000123456, 5, 5, 1.5, 3, 2.5, 1e-20, -3.14159}'", "1.2e+04|1.235E-04   |+5| 5|1.50000|3.|2e+00|1E-20|-00003.142\n", ""],
    ["awk 'BEGIN{printf \"%.0f %.0f %.0f|%.2f|%g|%g|%g|%.3g|%#.3g|%g|%e\\n\", 0.5, 1.5, 2.5, 0.125, 100000, 1000000, 0.0001, 1234.5, 1, 0, 0}'", "0 2 2|0.12|100000|1e+06|0.0001|1.23e+03|1.00|0|0.000000e+00\n", ""],
    ["awk 'BEGIN{printf \"%g %g %e %f %G\\n\", 1e100, 1e-100, 1e300, 1e22, 1e-5; printf \"%-8g|%08g|%+.2e|%08.2e\\n\", 1.5, -1.5, 1234, -1234}'", "1e+100 1e-100 1.000000e+300 10000000000000000000000.000000 1E-05\n1.5     |-00001.5|+1.23e+03|-1.23e+03\n", ""],
    ["awk 'BEGIN{printf \"%.3e %.10g %g %g %g|%.15g %.17g|%.30f\\n\", 9.9996, 1/3, 999999.5, 9999995, 0.00001234, 0.1, 0.1, 1/3}'", "1.000e+01 0.3333333333 1e+06 1e+07 1.234e-05|0.1 0.10000000000000001|0.333333333333333314829616256247\n", ""],
    ["awk 'BEGIN{printf \"%d %d %x %o %i|%s %s %s|%5s|%.3s\\n\", -2.5, \"3abc\", 255.9, 8.7, -7.9, 0.1+0.2, 1/3, 1e6, 1.5, 3.14159; print int(-3.7), int(\"4.9x\")}'", "-2 3 ff 10 -7|0.3 0.333333 1000000|  1.5|3.1\n-3 4\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("a number becomes a string through CONVFMT and prints through OFMT (%.6g), an integer whole — concatenation, subscripts, length/substr/index", async () => {
  const expected: [string, string, string][] = [
    ["awk 'BEGIN{print 1e6, 123456789, 0.1+0.2, 1/3, -1/3, 100/3, 1e300*10, -1e300*10, 1e-5, 123456.7, 1234567.8, 0.0001234, -0.5, 1e-300}'", "1000000 123456789 0.3 0.333333 -0.333333 33.3333 1e+301 -1e+301 1e-05 123457 1.23457e+06 0.0001234 -0.5 1e-300\n", ""],
    ["awk 'BEGIN{x = 0.1 + 0.2; a[x] = 1; for (k in a) print k; print 1/3 \"\"; print length(1/3), substr(1/3, 1), index(1/3, \"3\")}'", "0.3\n0.333333\n8 0.333333 3\n", ""],
    ["awk 'BEGIN{OFMT=\"%.2f\"; x=3.14159; print x; print x \"\"; CONVFMT=\"%.3f\"; print (x \"\"); a[x]=1; for (k in a) print k; print 17 \"\"; OFMT=\"%d\"; print 2.7}'", "3.14\n3.14159\n3.142\n3.142\n17\n2\n", ""],
    ["awk '{s += $2} END {print s, s/NR}' data", "12 4\n", ""],
    ["awk '{print ($2 < $3), ($2 < \"9\"), ($2 \"\" < $3 \"\"), (substr($2, 1) < substr($3, 1))}' data", "0 1 1 1\n1 1 0 0\n1 0 1 1\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("comparisons follow POSIX: numbers and numeric strings from input numerically, a string constant, concatenation or substr as strings, kept through variables, array elements, arguments and function values", async () => {
  const expected: [string, string, string][] = [
    ["awk 'BEGIN{print (\"10\" < \"9\"), (\"abc\" < \"abd\"), (2 < 10), (\"2\" < \"10\"), (2 < \"10\")}'", "1 1 1 0 0\n", ""],
    ["awk '{x = $2; y = $3; print (x < y)}' data", "0\n1\n1\n", ""],
    ["awk '{a[1] = $2; a[2] = \"9\"; b[1] = \"10\"; print (a[1] < a[2]), (b[1] < a[2])}' data", "1 1\n1 1\n0 1\n", ""],
    ["awk 'function f(s) {return s} function g(x) {return (x < \"9\")} BEGIN{print (f(\"10\") < f(\"9\")), (f(10) < f(9)), g(\"10\"), g(10)}'", "1 0 1 1\n", ""],
    ["awk 'BEGIN{print (x == 0), (x == \"\"), (x < 1); y = x; z = \"10\"; w = z; print (w < \"9\"), (w + 0 < 9)}'", "1 1 1\n1 0\n", ""],
    ["echo '1.0 1e3 1000  1 ' | awk '{print ($1 == 1), ($1 == \"1.0\"), ($2 == $3), ($4 == 1)}'", "1 1 1 1\n", ""],
    ["echo '10 9' | awk -v n=10 '{split($0, p); print (n < 9), (n < \"9\"), (p[1] < p[2]), (ENVIRON[\"N\"] < 9)}' N=10", "0 1 0 1\n", ""],
    ["printf '5\\n20\\n3\\n' | awk '{max = ($1 > max) ? $1 : max} END {print max}'", "20\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("-v and NAME=value operands set OFS, ORS, FS, OFMT, CONVFMT, NR; an operand assignment takes effect when reached, `-` is stdin", async () => {
  const expected: [string, string, string][] = [
    ["printf 'a b\\n' | awk -v OFS=- -v ORS='|\\n' '{print $1, $2; $1 = $1; print}'", "a-b|\na-b|\n", ""],
    ["printf 'a,b,c\\n' | awk -v FS=, -v OFMT=%.2f -v CONVFMT=%.3f '{print $2, 3.14159, 3.14159 \"\"}'", "b 3.14 3.142\n", ""],
    ["printf 'a\\n' | awk -v NR=10 '{print NR}'", "11\n", ""],
    ["awk '{print x, $0}' x=1 f1 x=2 f2", "1 1\n1 2\n2 3\n", ""],
    ["printf 'a\\n' | awk '{print x, $0} END {print x}' x=5 - x=6", "5 a\n6\n", ""],
    ["printf 'a\\n' | awk 'BEGIN {print \"[\" x \"]\"} {print x, $0}' x=7", "[]\n7 a\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("length without parentheses is length($0) anywhere in an expression or pattern", async () => {
  const expected: [string, string, string][] = [
    ["printf 'a b\\n' | awk '{print $1, $2}' OFS=:", "a:b\n", ""],
    ["printf 'abc\\nab\\n\\nabcd\\n' | awk '{print length, length $0, length() * 2} length > 3'", "3 3abc 6\n2 2ab 4\n0 0 0\n4 4abcd 8\nabcd\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("split of \"\" is 0, \" \" splits at blanks dropping the ends, one character stands for itself (also FS and -F), a longer separator is an ERE, \"\" splits characters", async () => {
  const expected: [string, string, string][] = [
    ["printf 'abc\\n\\nx\\n' | awk '!length {print \"empty:\" NR}'", "empty:2\n", ""],
    ["awk 'BEGIN{print split(\"\", a); n = split(\"  a b  \", w); print n, w[1]; n = split(\"a1b22c\", y, \"[0-9]+\"); print n, y[3]; n = split(\"a.b\", z, \".\"); print n, z[2]; n = split(\"abc\", c, \"\"); print n, c[3]}'", "0\n2 a\n3 c\n2 b\n3 c\n", ""],
    ["printf 'a|b|c\\n' | awk -F'|' '{print $2, NF}'", "b 3\n", ""],
    ["printf 'a.b.c\\n' | awk -F. '{print $2, NF}'", "b 3\n", ""],
    ["printf 'a.b|c\\n' | awk 'BEGIN{FS=\".\"} {print $2; FS=\"|\"; $0 = $0; print $2}'", "b|c\nc\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("concatenation binds tighter than comparison and ~ (POSIX's table; print's redirection still ends it)", async () => {
  const expected: [string, string, string][] = [
    ["printf 'ab x\\nba y\\n' | awk -v p=a '$1 ~ \"^\" p {print $2}'", "x\n", ""],
    ["printf 'a b\\n' | awk '{print ($1 $2 == \"ab\"), $1 $2 == \"ab\", ($1 \"x\" < \"b\")}'", "1 1 1\n", ""],
    ["printf 'a b\\n' | awk '{print $1 \" \" $2 > \"out\"; x = $2 $1 < \"c\"; print x} END {close(\"out\"); while ((getline l < \"out\") > 0) print \"out:\", l}'", "1\nout: a b\n", ""],
    ["printf '1 2\\n' | awk '{print $1 - 1 \" \" -$2, $1 \" \" $2 + 1}'", "0-2 1 3\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});

it("an integer below 2^63 is written whole (POSIX %d, as gawk), past it through OFMT; inf and nan as C", async () => {
  const expected: [string, string, string][] = [
    ["awk 'BEGIN{print 2^31, 2^53, 2^53 + 1, 1e18, 2^63, -2^62; x = 2^53 \"\"; print x, length(2^40)}'", "2147483648 9007199254740992 9007199254740992 1000000000000000000 9.22337e+18 -4611686018427387904\n9007199254740992 13\n", ""],
    ["awk 'BEGIN{print -log(0), log(0), -0; printf \"%f %e %g %5.1f|\\n\", -log(0), log(0), -log(0), log(0)}'", "inf -inf 0\ninf -inf inf  -inf|\n", ""],
  ];
  expect(await shellCases(TREE, expected.map(([command]) => command))).toEqual(expected);
});
