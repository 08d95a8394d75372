/**
 * Issue 20, run 31, fixer AW: siblings of attack31f's awk findings (`NAME (expr)` concatenation, close() of getline
 * input, `print > "/dev/stderr"`), each output checked against gawk 5.2.1 and mawk 1.3.4 on the same input (they
 * agree on every case here but the last: mawk prints `inf` for 1/0 where gawk stops with status 2, as this awk does).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk: a blank before ( concatenates a variable, a field or an element; calls stay calls", async () => {
  const out = await shellCases({ files: { "d.txt": "alice 1\ncarol 2\n" } }, [
    `awk 'function f(x) { return "F" x } BEGIN { print f(3); print length ("abc"); print substr ("abcdef", 2, 3) }'`,
    `awk '{ a[NR] = $1 } END { print a[1] (2) "z"; print $1 (NR) }' d.txt`,
    `awk '{ print $NF ("|") $1 }' d.txt`,
    `awk 'BEGIN { x = 5; y = x (1) + 1; print y }'`,
    `awk 'BEGIN { sep = "-"; n = split("a b c", p, " "); for (i = 1; i <= n; i++) s = s (i > 1 ? sep : "") p[i]; print s }'`,
  ]);
  expect(out).toEqual([
    [`awk 'function f(x) { return "F" x } BEGIN { print f(3); print length ("abc"); print substr ("abcdef", 2, 3) }'`, "F3\n3\nbcd\n", ""],
    [`awk '{ a[NR] = $1 } END { print a[1] (2) "z"; print $1 (NR) }' d.txt`, "alice2z\ncarol2\n", ""],
    [`awk '{ print $NF ("|") $1 }' d.txt`, "1|alice\n2|carol\n", ""],
    [`awk 'BEGIN { x = 5; y = x (1) + 1; print y }'`, "52\n", ""],
    [`awk 'BEGIN { sep = "-"; n = split("a b c", p, " "); for (i = 1; i <= n; i++) s = s (i > 1 ? sep : "") p[i]; print s }'`, "a-b-c\n", ""],
  ]);
});

it("awk: printf, >> and /dev/fd/N reach stdout and stderr; stderr text comes before an error", async () => {
  const out = await shellCases({}, [
    `awk 'BEGIN { printf "%s\\n", "to-err" > "/dev/stderr"; print "app" >> "/dev/stderr"; print "one" > "/dev/fd/1"; print "two" > "/dev/fd/2"; print "out" }'`,
    `awk 'BEGIN { print "warn" > "/dev/stderr"; y = 0; x = 1 / y }'; echo "st=$?"`,
    `awk 'BEGIN { print "e" > "/dev/stderr"; print "o" }' 2>err.txt; cat err.txt`,
  ]);
  expect(out).toEqual([
    [`awk 'BEGIN { printf "%s\\n", "to-err" > "/dev/stderr"; print "app" >> "/dev/stderr"; print "one" > "/dev/fd/1"; print "two" > "/dev/fd/2"; print "out" }'`, "one\nout\n", "to-err\napp\ntwo\n"],
    [`awk 'BEGIN { print "warn" > "/dev/stderr"; y = 0; x = 1 / y }'; echo "st=$?"`, "st=2\n", "warn\nawk: division by zero attempted\n"],
    [`awk 'BEGIN { print "e" > "/dev/stderr"; print "o" }' 2>err.txt; cat err.txt`, "o\ne\n", ""],
  ]);
});

it("awk: close() of output, getline files and commands, and what it returns", async () => {
  const out = await shellCases({ files: { "d.txt": "alice 1\ncarol 2\n" } }, [
    `awk 'BEGIN { print "a" > "f"; close("f"); print "b" > "f"; close("f"); while ((getline l < "f") > 0) print "f:" l }'; cat f`,
    `awk 'BEGIN { print close("nope"); getline l < "d.txt"; print close("d.txt"); "echo hi; exit 3" | getline x; print x, close("echo hi; exit 3") }'`,
    `awk 'BEGIN { "echo one" | getline a; close("echo one"); "echo one" | getline b; print a, b }'`,
  ]);
  expect(out).toEqual([
    [`awk 'BEGIN { print "a" > "f"; close("f"); print "b" > "f"; close("f"); while ((getline l < "f") > 0) print "f:" l }'; cat f`, "f:b\nb\n", ""],
    [`awk 'BEGIN { print close("nope"); getline l < "d.txt"; print close("d.txt"); "echo hi; exit 3" | getline x; print x, close("echo hi; exit 3") }'`, "-1\n0\nhi 3\n", ""],
    [`awk 'BEGIN { "echo one" | getline a; close("echo one"); "echo one" | getline b; print a, b }'`, "one one\n", ""],
  ]);
});
