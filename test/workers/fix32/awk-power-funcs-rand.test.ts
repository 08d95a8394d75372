/**
 * Issue 20, run 32, fixer AW: siblings of test/workers/attack32f/shell-awk-field-power-binds-to-index,
 * shell-awk-undefined-function-silently-empty and shell-awk-srand-seed-not-reproducible. Each expectation is gawk
 * 5.2.1's on this machine (mawk 1.3.4 agrees on the grammar cases; it lacks `**`, asort, asorti and strtonum).
 * Fix: scripts/gen-shell.mjs AW32_PATCHES and src/backends/worker-shell/isolate/awk-funcs.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const row = "echo '3 4 5 6' | awk";

it("awk: $ binds tighter than ^, a signed exponent and **= parse as gawk", async () => {
  const cases: [string, string, string][] = [
    [`${row} '{print -$1^2}'`, "-9\n", ""],
    [`${row} '{i=1; print $i++; print i, $1}'`, "3\n1 4\n", ""],
    [`${row} '{i=1; print $++i; print i}'`, "4\n2\n", ""],
    [`${row} '{x=2; print $x^-1}'`, "0.25\n", ""],
    [`${row} '{print $1 ^= 2; print $0}'`, "9\n9 4 5 6\n", ""],
    [`${row} '{print $1 ^ -1}'`, "0.333333\n", ""],
    [`${row} '{print 2^-1, -2^2, 2^3^2, !$1^2}'`, "0.5 -4 512 0\n", ""],
    [`${row} '{print $1**=2, $0}'`, "9 9 4 5 6\n", ""],
    [`${row} '{x=1; print $x++^2, x, $1}'`, "9 1 4\n", ""],
    [`${row} '{print $+1^2, $NF^2^-1, $(1+1)^2}'`, "3 2.44949 16\n", ""],
    [`${row} '{print $i^2 $i}'`, "93 4 5 6\n", ""],
    [`${row} '{x=2; print $x*2, $x-1, $(x)^2, $x--, x}'`, "8 3 16 4 2\n", ""],
    [`${row} '{a[1]=2; print $a[1]^2, $$1, $NF-1}'`, "16 5 5\n", ""],
    [`awk 'BEGIN { print 2**3**2, 2^-2, 2^-1^2, -2^-2; x = 3; x ^= 2; print x; x **= 2; print x }'`, "512 0.25 0.5 -0.25\n9\n81\n", ""],
    [`${row} '{x=1; print $-x^2}'; echo rc=$?`, "rc=2\n", "awk: attempt to access field -1\n"],
  ];
  expect(await shellCases({}, cases.map((c) => c[0]))).toEqual(cases);
});

it("awk: asort, asorti, strtonum as gawk; an undefined function is fatal when reached", async () => {
  const cases: [string, string, string][] = [
    [
      `printf '10\\nb\\n9\\na\\n\\n2.5\\n' | awk '{a[NR]=$1} END{a["x"]="3"; a["y"]=1; n=asort(a, b); for(i=1;i<=n;i++) printf "[%s]", b[i]; print n; m=asorti(a,c); for(i=1;i<=m;i++) printf "[%s]", c[i]; print m; print length(a), a["x"]}'`,
      "[1][2.5][9][10][][3][a][b]8\n[1][2][3][4][5][6][x][y]8\n8 3\n",
      "",
    ],
    [`awk 'BEGIN { print strtonum("0x1A"), strtonum("017"), strtonum("08"), strtonum(" 12abc"), strtonum("1e3"), strtonum(-3.5), strtonum("0X1f") }'`, "26 15 8 12 1000 -3.5 31\n", ""],
    [`awk 'BEGIN { x = 5; n = asort(x) }'; echo rc=$?`, "rc=2\n", "awk: asort: first argument is not an array\n"],
    [`awk 'BEGIN { n = asort(a); print n, length(a) }'`, "0 0\n", ""],
    [`awk 'function s(arr) { return asort(arr) } BEGIN { v[1] = "b"; v[2] = "a"; print s(v), v[1], v[2] }'`, "2 a b\n", ""],
    [`awk 'BEGIN { print "a"; g(1); print "b" }'; echo rc=$?`, "a\nrc=2\n", "awk: function `g' not defined\n"],
    [`awk 'BEGIN { if (0) nosuch(1); print "x" }'; echo rc=$?`, "x\nrc=0\n", ""],
    [`echo 1 | awk 'function f(a) { return h(a) } { print "r" } END { print f(1) }'; echo rc=$?`, "r\nrc=2\n", "awk: function `h' not defined\n"],
  ];
  expect(await shellCases({}, cases.map((c) => c[0]))).toEqual(cases);
});

it("awk: rand is seeded by srand, srand returns the previous seed (1 first, as gawk)", async () => {
  const cases: [string, string, string][] = [
    [`awk 'BEGIN { x = srand(5); print "first=" x }'`, "first=1\n", ""],
    [`awk 'BEGIN { a = rand(); srand(1); b = rand(); print (a == b) }'`, "1\n", ""],
    [`awk 'BEGIN { srand(1.9); print srand("abc"); print srand() }'`, "1\n0\n", ""],
    [`awk 'BEGIN { srand(); x = srand(); print (x > 1000000000) }'`, "1\n", ""],
    [`awk 'BEGIN { srand(3); for (i = 0; i < 1000; i++) { r = rand(); if (r < 0 || r >= 1) bad++; s[int(r * 10)]++ } print bad + 0, length(s) }'`, "0 10\n", ""],
    [`seq 20 | awk 'BEGIN { srand(42) } rand() < 0.5' > a; seq 20 | awk 'BEGIN { srand(42) } rand() < 0.5' > b; cmp a b && echo same; awk 'BEGIN { srand(43); print rand() }' > c; awk 'BEGIN { srand(42); print rand() }' > d; cmp -s c d || echo differ`, "same\ndiffer\n", ""],
  ];
  expect(await shellCases({}, cases.map((c) => c[0]))).toEqual(cases);
});
