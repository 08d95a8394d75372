/**
 * Issue 20, run 27, fixer SI: siblings of the tac, nl, diff, find -size, uniq and split fixes
 * (src/backends/worker-shell/isolate/text-gnu.ts), each expectation GNU coreutils 9.1 / diffutils 3.8 /
 * findutils 4.9's output on the same input.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

/** The trees A and B (the helper writes top-level files only). */
const trees = "mkdir -p A/sub B/sub; cp x.txt A/f; cp y.txt B/f; echo only > A/o; echo z > A/sub/z; echo z2 > B/sub/z; ";
const files = {
  "x.txt": "one\ntwo\nthree\n",
  "y.txt": "one\n2\nthree\nfour\n",
  nx: "a\nb",
  ny: "a\nc",
  w1: "a b\n\nc\n",
  w2: "a  b\nc\n",
};

it("diff formats, options and directories as GNU diff", async () => {
  const out = await shellCases({ files }, [
    "diff nx ny; echo $?",
    "diff -u --label old --label new x.txt y.txt; echo $?",
    "diff -u x.txt y.txt | cut -f1",
    "diff -c -L old -L new x.txt y.txt; echo $?",
    "diff -U0 -L a -L b x.txt y.txt",
    trees + "diff A B; echo $?",
    trees + "diff -r A B; echo $?",
    trees + "diff -rq A B; echo $?",
    trees + "diff A x.txt; echo $?",
    "diff x.txt missing; echo $?",
    "diff -N x.txt missing; echo $?",
    "diff -w w1 w2; echo $?",
    "diff -wB w1 w2; echo $?",
    "diff -s x.txt x.txt; echo $?",
    "printf 'one\\n' | diff - x.txt; echo $?",
    "diff x.txt; echo $?",
    "diff -y x.txt y.txt; echo $?",
  ]);
  expect(out).toEqual([
    ["diff nx ny; echo $?", "2c2\n< b\n\\ No newline at end of file\n---\n> c\n\\ No newline at end of file\n1\n", ""],
    ["diff -u --label old --label new x.txt y.txt; echo $?", "--- old\n+++ new\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n1\n", ""],
    ["diff -u x.txt y.txt | cut -f1", "--- x.txt\n+++ y.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n", ""],
    ["diff -c -L old -L new x.txt y.txt; echo $?", "*** old\n--- new\n***************\n*** 1,3 ****\n  one\n! two\n  three\n--- 1,4 ----\n  one\n! 2\n  three\n+ four\n1\n", ""],
    ["diff -U0 -L a -L b x.txt y.txt", "--- a\n+++ b\n@@ -2 +2 @@\n-two\n+2\n@@ -3,0 +4 @@\n+four\n", ""],
    [trees + "diff A B; echo $?", "diff A/f B/f\n2c2\n< two\n---\n> 2\n3a4\n> four\nOnly in A: o\nCommon subdirectories: A/sub and B/sub\n1\n", ""],
    [trees + "diff -r A B; echo $?", "diff -r A/f B/f\n2c2\n< two\n---\n> 2\n3a4\n> four\nOnly in A: o\ndiff -r A/sub/z B/sub/z\n1c1\n< z\n---\n> z2\n1\n", ""],
    [trees + "diff -rq A B; echo $?", "Files A/f and B/f differ\nOnly in A: o\nFiles A/sub/z and B/sub/z differ\n1\n", ""],
    [trees + "diff A x.txt; echo $?", "2\n", "diff: A/x.txt: No such file or directory\n"],
    ["diff x.txt missing; echo $?", "2\n", "diff: missing: No such file or directory\n"],
    ["diff -N x.txt missing; echo $?", "1,3d0\n< one\n< two\n< three\n1\n", ""],
    ["diff -w w1 w2; echo $?", "2d1\n< \n1\n", ""],
    ["diff -wB w1 w2; echo $?", "0\n", ""],
    ["diff -s x.txt x.txt; echo $?", "Files x.txt and x.txt are identical\n0\n", ""],
    ["printf 'one\\n' | diff - x.txt; echo $?", "1a2,3\n> two\n> three\n1\n", ""],
    ["diff x.txt; echo $?", "2\n", "diff: missing operand after 'x.txt'\ndiff: Try 'diff --help' for more information.\n"],
    // Not supported here (GNU prints the side-by-side columns): refused with status 2.
    ["diff -y x.txt y.txt; echo $?", "2\n", "diff: option '-y' (--side-by-side) is not supported\n"],
  ]);
});

it("tac -b, -r and unreadable operands, nl styles and files without a final newline, as GNU", async () => {
  const out = await shellCases({ files: { "a.txt": "hello\n", "b.txt": "w1\nw2\n", "n.txt": "x" } }, [
    "printf 'a,b,c,' | tac -b -s ,",
    "printf 'a,b,c' | tac -s ,",
    "printf 'a1b22c3' | tac -r -s '[0-9][0-9]*'",
    "printf 'a\\n\\nb\\n' | tac -b",
    "mkdir d; tac a.txt nope d b.txt; echo $?",
    "tac -x; echo $?",
    "printf 'a\\n\\nb\\n' | nl -b a",
    "printf 'a\\n\\nb\\n' | nl -b n",
    "nl n.txt a.txt",
  ]);
  expect(out).toEqual([
    ["printf 'a,b,c,' | tac -b -s ,", ",,c,ba", ""],
    ["printf 'a,b,c' | tac -s ,", "cb,a,", ""],
    ["printf 'a1b22c3' | tac -r -s '[0-9][0-9]*'", "c32b2a1", ""],
    ["printf 'a\\n\\nb\\n' | tac -b", "\n\nb\na", ""],
    ["mkdir d; tac a.txt nope d b.txt; echo $?", "hello\nw2\nw1\n1\n", "tac: failed to open 'nope' for reading: No such file or directory\ntac: d: read error: Is a directory\n"],
    ["tac -x; echo $?", "1\n", "tac: invalid option -- 'x'\nTry 'tac --help' for more information.\n"],
    ["printf 'a\\n\\nb\\n' | nl -b a", "     1\ta\n     2\t\n     3\tb\n", ""],
    ["printf 'a\\n\\nb\\n' | nl -b n", "       a\n       \n       b\n", ""],
    ["nl n.txt a.txt", "     1\tx\n     2\thello\n", ""],
  ]);
});

it("find -size units, uniq OUTPUT and its options, as GNU", async () => {
  const make = "printf '%1500s' '' > k; : > e; ";
  const out = await shellCases({ files: { "a.txt": "hello\n", "f": "a\na\nb\nc\nc\nc\nd\n" } }, [
    `${make}find . -size 2 -type f | sort`,
    `${make}find . -size +1k -type f | sort`,
    `${make}find . -size 1500c -type f | sort`,
    `${make}find . -size -1M -type f | sort`,
    `${make}find . -size 3w -type f | sort`,
    "uniq f out; echo $?; cat out",
    "uniq -D f",
    "uniq --all-repeated=separate f",
    "uniq --group f",
    "printf 'x a\\ny a\\nz b\\n' | uniq -f 1 -c",
    "printf 'xa\\nya\\nzb\\n' | uniq -s 1",
    "printf 'ab1\\nab2\\nac\\n' | uniq -w 2",
    "printf 'a\\0a\\0b' | uniq -z | od -An -c",
    "uniq f o1 o2; echo $?",
    "uniq -c -D f; echo $?",
    "uniq nofile out2; echo $?; test -e out2; echo $?",
  ]);
  expect(out).toEqual([
    [`${make}find . -size 2 -type f | sort`, "", ""],
    [`${make}find . -size +1k -type f | sort`, "./k\n", ""],
    [`${make}find . -size 1500c -type f | sort`, "./k\n", ""],
    [`${make}find . -size -1M -type f | sort`, "./e\n", ""],
    [`${make}find . -size 3w -type f | sort`, "./a.txt\n", ""],
    ["uniq f out; echo $?; cat out", "0\na\nb\nc\nd\n", ""],
    ["uniq -D f", "a\na\nc\nc\nc\n", ""],
    ["uniq --all-repeated=separate f", "a\na\n\nc\nc\nc\n", ""],
    ["uniq --group f", "a\na\n\nb\n\nc\nc\nc\n\nd\n", ""],
    ["printf 'x a\\ny a\\nz b\\n' | uniq -f 1 -c", "      2 x a\n      1 z b\n", ""],
    ["printf 'xa\\nya\\nzb\\n' | uniq -s 1", "xa\nzb\n", ""],
    ["printf 'ab1\\nab2\\nac\\n' | uniq -w 2", "ab1\nac\n", ""],
    ["printf 'a\\0a\\0b' | uniq -z | od -An -c", "   a  \\0   b  \\0\n", ""],
    ["uniq f o1 o2; echo $?", "1\n", "uniq: extra operand 'o2'\nTry 'uniq --help' for more information.\n"],
    ["uniq -c -D f; echo $?", "1\n", "uniq: printing all duplicated lines and repeat counts is meaningless\nTry 'uniq --help' for more information.\n"],
    ["uniq nofile out2; echo $?; test -e out2; echo $?", "1\n1\n", "uniq: nofile: No such file or directory\n"],
  ]);
});
