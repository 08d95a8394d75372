/**
 * Issue 20, run 28, fixer AW: awk arrays as gawk 5.2.1 and mawk 1.3.4 (both agree on every case here; outputs taken
 * from them side by side). Siblings of test/workers/attack28d/shell-awk-array-reference-creates-no-element.test.ts
 * and shell-awk-length-of-array-zero.test.ts: an element referred to in a comparison, as a function argument or a
 * statement exists afterwards (uninitialized: `== 0` and `== ""` both hold), `(k in a)` and `delete a[k]` create none,
 * `length(ARRAY)` after split/delete/`c[$1]++`, and arrays in user functions — by reference (elements created inside
 * are visible outside), `for (k in P)`, `split(s, P)` and `length(P)` through a parameter, recursion passing an array
 * on (quicksort), fresh local arrays per call, arguments evaluated before any parameter is bound (`f(b, a)`).
 * Not covered: mawk rejects `length(P)` of an untyped parameter (`type error in arg`) where gawk counts; we count.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { "keys.txt": "b\nd\n", "data.txt": "a 1\nb 2\nc 3\nd 4\n", "n.txt": "5\n3\n5\n1\n3\n" } };
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("element references, in, delete and length(ARRAY) as gawk and mawk", async () => {
  const out = await shellCases(tree, [
    "awk 'BEGIN { x[1]; if (x[2] == \"\") n = 1; print (2 in x), n, length(x) }'",
    "awk 'function f(v) { return v } BEGIN { f(a[\"q\"]); print (\"q\" in a), length(a) }'",
    "awk 'BEGIN { if (a[\"z\"] == 0) print \"eq0\"; if (a[\"z\"] == \"\") print \"eqempty\"; for (k in a) print \"k=\" k, length(a) }'",
    "awk 'BEGIN { if ((\"z\" in a) || (\"y\" in a)) print \"yes\"; delete a[\"w\"]; print length(a) }'",
    "awk 'BEGIN { a[1]; delete a[1]; print length(a), (1 in a) }'",
    "awk 'BEGIN { a[1]; a[1]++; print a[1], length(a) }'",
    "awk '{ if (!seen[$1]) print; seen[$1] } END { print length(seen) }' keys.txt keys.txt",
    "awk 'BEGIN { n = split(\"a:b:c\", y, \":\"); print n, length(y); delete y[2]; print length(y); delete y; print length(y) }'",
    "awk 'BEGIN { split(\"\", y); print length(y), (1 in y) }'",
    "awk 'BEGIN { m[\"x\"] = 1; m[\"y\"]; print length(m) + 1 }'",
  ], { collect });
  expect(out).toEqual([
    ["awk 'BEGIN { x[1]; if (x[2] == \"\") n = 1; print (2 in x), n, length(x) }'", "1 1 2\n", "", 0],
    ["awk 'function f(v) { return v } BEGIN { f(a[\"q\"]); print (\"q\" in a), length(a) }'", "1 1\n", "", 0],
    ["awk 'BEGIN { if (a[\"z\"] == 0) print \"eq0\"; if (a[\"z\"] == \"\") print \"eqempty\"; for (k in a) print \"k=\" k, length(a) }'", "eq0\neqempty\nk=z 1\n", "", 0],
    ["awk 'BEGIN { if ((\"z\" in a) || (\"y\" in a)) print \"yes\"; delete a[\"w\"]; print length(a) }'", "0\n", "", 0],
    ["awk 'BEGIN { a[1]; delete a[1]; print length(a), (1 in a) }'", "0 0\n", "", 0],
    ["awk 'BEGIN { a[1]; a[1]++; print a[1], length(a) }'", "1 1\n", "", 0],
    ["awk '{ if (!seen[$1]) print; seen[$1] } END { print length(seen) }' keys.txt keys.txt", "b\nd\nb\nd\n2\n", "", 0],
    ["awk 'BEGIN { n = split(\"a:b:c\", y, \":\"); print n, length(y); delete y[2]; print length(y); delete y; print length(y) }'", "3 3\n2\n0\n", "", 0],
    ["awk 'BEGIN { split(\"\", y); print length(y), (1 in y) }'", "0 0\n", "", 0],
    ["awk 'BEGIN { m[\"x\"] = 1; m[\"y\"]; print length(m) + 1 }'", "3\n", "", 0],
  ]);
});

it("arrays in user functions as gawk and mawk", async () => {
  const out = await shellCases(tree, [
    "awk 'function fill(arr, n,  i) { for (i = 1; i <= n; i++) arr[i] = i * i } BEGIN { fill(sq, 4); print length(sq), sq[3] }'",
    "awk 'function cnt(arr,  k, n) { for (k in arr) n++; return n + 0 } BEGIN { a[1]; a[2]; a[3]; print cnt(a), length(a) }'",
    "awk 'function sp(s, arr) { return split(s, arr) } BEGIN { print sp(\"p q r\", z), z[2], length(z) }'",
    "awk 'function g(arr) { arr[\"new\"] } BEGIN { g(h); print (\"new\" in h), length(h) }'",
    "awk 'function f(a, b) { print a, b } BEGIN { a = 1; b = 2; f(b, a) }'",
    "awk 'function q(A, lo, hi,  i, last, t) { if (lo >= hi) return; last = lo; for (i = lo + 1; i <= hi; i++) if (A[i] < A[lo]) { last++; t = A[last]; A[last] = A[i]; A[i] = t } t = A[lo]; A[lo] = A[last]; A[last] = t; q(A, lo, last - 1); q(A, last + 1, hi) } BEGIN { n = split(\"5 3 9 1 7 2\", v); q(v, 1, n); for (i = 1; i <= n; i++) printf \"%s \", v[i]; print \"\" }'",
    "awk 'function f(a, n) { if (n) f(a, n - 1); a[n] = 1 } BEGIN { f(x, 2); print length(x) }'",
    "awk 'function loc(n,  t) { t[n] = 1; return length(t) } BEGIN { print loc(1), loc(2), length(t) }'",
    "awk 'function swap(b, a) { return a \"-\" b } BEGIN { a = \"A\"; b = \"B\"; print swap(a, b) }'",
    "awk 'function z(x,  loc) { if (loc == 0 && loc == \"\") return \"uninit\"; return \"set\" } BEGIN { print z(1) }'",
    "awk 'BEGIN { c = 0; for (k in ENVIRON) c++; print (c > 0), (length(ENVIRON) == c) }'",
    "awk '{ c[$1]++ } END { for (k in c) if (c[k] > 1) d++; print d, length(c) }' n.txt",
  ], { collect });
  expect(out).toEqual([
    ["awk 'function fill(arr, n,  i) { for (i = 1; i <= n; i++) arr[i] = i * i } BEGIN { fill(sq, 4); print length(sq), sq[3] }'", "4 9\n", "", 0],
    ["awk 'function cnt(arr,  k, n) { for (k in arr) n++; return n + 0 } BEGIN { a[1]; a[2]; a[3]; print cnt(a), length(a) }'", "3 3\n", "", 0],
    ["awk 'function sp(s, arr) { return split(s, arr) } BEGIN { print sp(\"p q r\", z), z[2], length(z) }'", "3 q 3\n", "", 0],
    ["awk 'function g(arr) { arr[\"new\"] } BEGIN { g(h); print (\"new\" in h), length(h) }'", "1 1\n", "", 0],
    ["awk 'function f(a, b) { print a, b } BEGIN { a = 1; b = 2; f(b, a) }'", "2 1\n", "", 0],
    ["awk 'function q(A, lo, hi,  i, last, t) { if (lo >= hi) return; last = lo; for (i = lo + 1; i <= hi; i++) if (A[i] < A[lo]) { last++; t = A[last]; A[last] = A[i]; A[i] = t } t = A[lo]; A[lo] = A[last]; A[last] = t; q(A, lo, last - 1); q(A, last + 1, hi) } BEGIN { n = split(\"5 3 9 1 7 2\", v); q(v, 1, n); for (i = 1; i <= n; i++) printf \"%s \", v[i]; print \"\" }'", "1 2 3 5 7 9 \n", "", 0],
    ["awk 'function f(a, n) { if (n) f(a, n - 1); a[n] = 1 } BEGIN { f(x, 2); print length(x) }'", "3\n", "", 0],
    ["awk 'function loc(n,  t) { t[n] = 1; return length(t) } BEGIN { print loc(1), loc(2), length(t) }'", "1 1 0\n", "", 0],
    ["awk 'function swap(b, a) { return a \"-\" b } BEGIN { a = \"A\"; b = \"B\"; print swap(a, b) }'", "B-A\n", "", 0],
    ["awk 'function z(x,  loc) { if (loc == 0 && loc == \"\") return \"uninit\"; return \"set\" } BEGIN { print z(1) }'", "uninit\n", "", 0],
    ["awk 'BEGIN { c = 0; for (k in ENVIRON) c++; print (c > 0), (length(ENVIRON) == c) }'", "1 1\n", "", 0],
    ["awk '{ c[$1]++ } END { for (k in c) if (c[k] > 1) d++; print d, length(c) }' n.txt", "2 3\n", "", 0],
  ]);
});
