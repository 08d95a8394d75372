/**
 * Issue 20, twenty-first attack run, fix of test/workers/attack21b/shell-coreutils-small-divergences.test.ts: the
 * siblings of each corrected answer. Expected values are GNU coreutils 9.1's for the same tree (/workspace with
 * a.txt "one\ntwo\n", d/f.txt, d/sub, ld -> d).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d/sub"], files: { "a.txt": "one\ntwo\n", "d/f.txt": "keep\n" }, links: { ld: "d" } };

const checks: [string, string, string][] = [
  // dirname / basename: all-slash names, doubled slashes, `--`, a lone `-`, a suffix that is the whole name.
  ["dirname a//b /a//b/ -- -y/z -", "a\n/a\n-y\n.\n", ""],
  ["basename /; basename //; basename .txt .txt; basename a/b.txt .txt; basename -- -x.txt .txt", "/\n/\n.txt\nb\n-x\n", ""],
  ["basename -a -- -x -y; basename -s .txt -- -a.txt; basename -", "-x\n-y\n-a\n-\n", ""],
  // rmdir -p: every parent removable → all gone, 0; the failure of a parent stops there with GNU's wording.
  ["mkdir -p e/f/g; rmdir -p e/f/g; echo rc=$?; ls -d e", "rc=0\n", "ls: cannot access 'e': No such file or directory\n"],
  ["rmdir -p d/sub nosuch/x; echo rc=$?; ls -d d", "rc=1\nd\n", "rmdir: failed to remove directory 'd': Directory not empty\nrmdir: failed to remove 'nosuch/x': No such file or directory\n"],
  // wc: a directory keeps its place with zero counts; a missing file does not; the status is 1.
  ["wc -w d; echo rc=$?", "0 d\nrc=1\n", "wc: d: Is a directory\n"],
  ["wc -l nosuch; echo rc=$?", "rc=1\n", "wc: nosuch: No such file or directory\n"],
  // The shared reader names the reason (cut reads through it): `Is a directory`, as GNU cut.
  ["cut -f1 d; echo rc=$?", "rc=1\n", "cut: d: Is a directory\n"],
  // od: --format=x1 as -t x1; -t c still works.
  ["od -An --format=x1 a.txt; od -An -tc a.txt", " 6f 6e 65 0a 74 77 6f 0a\n   o   n   e  \\n   t   w   o  \\n\n", ""],
  // tac: a file without a last newline; an empty record kept.
  ["printf 'a\\nb' > f; tac f; printf 'a\\n\\nb\\n' | tac", "ba\nb\n\na\n", ""],
  // ls -d: one sorted list, -r reverses it, files and directories alike.
  ["ls -d ld a.txt d/sub d; ls -dr a.txt d ./d//sub", "a.txt\nd\nd/sub\nld\nd\na.txt\n./d//sub\n", ""],
];

it("dirname, basename, rmdir -p, wc, cut, od, tac and ls -d siblings answer as GNU coreutils", async () => {
  expect(await shellCases(TREE, checks.map(([command]) => command))).toEqual(checks);
});
