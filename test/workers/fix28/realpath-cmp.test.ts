/**
 * Issue 20, run 28, fixer CM: `realpath` and `cmp`, two commands agents reach for that the shell lacked
 * ("bash: realpath: command not found", status 127). Now custom commands of the shell worker
 * (src/backends/worker-shell/isolate/realpath-cmp.ts, registered next to mktemp in worker.ts). Every expectation
 * below is what GNU coreutils 9.1 `realpath` and GNU diffutils 3.8 `cmp` print for the same tree (made in a temp
 * dir named …/workspace, the prefix taken out), each command followed by `echo rc=$?`.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = {
  dirs: ["s/t", "d"],
  files: { "s/f": "", a: "abc\n", b: "abd\n", c: "ab", e: "", f: "abc\nxyz\n", g: "abc\nxyq\n", j: "ab\n", k: "ab\ncd", l: "ab\ncd\nef" },
  links: { lt: "s/t", dang: "nowhere", loop1: "loop2", loop2: "loop1" },
};

const wrap = (c: string): string => `( ${c} ); echo rc=$?`;

it("realpath as GNU coreutils 9.1: -E (default), -e, -m, -s, -L, -q, -z, --relative-to/--relative-base, errors", async () => {
  const cases: [string, string, string][] = [
    ["realpath s/f", "/workspace/s/f\nrc=0\n", ""],
    ["realpath lt/../f", "/workspace/s/f\nrc=0\n", ""],
    ["realpath -s lt/../f", "/workspace/f\nrc=0\n", ""],
    ["realpath -L lt/..", "/workspace\nrc=0\n", ""],
    ["realpath x", "/workspace/x\nrc=0\n", ""],
    ["realpath x/y", "rc=1\n", "realpath: x/y: No such file or directory\n"],
    ["realpath -e x", "rc=1\n", "realpath: x: No such file or directory\n"],
    ["realpath -m x/y/../z", "/workspace/x/z\nrc=0\n", ""],
    ["realpath dang", "/workspace/nowhere\nrc=0\n", ""],
    ["realpath -e dang", "rc=1\n", "realpath: dang: No such file or directory\n"],
    ["realpath dang/x", "rc=1\n", "realpath: dang/x: No such file or directory\n"],
    ["realpath loop1", "rc=1\n", "realpath: loop1: Too many levels of symbolic links\n"],
    ["realpath -m loop1", "/workspace/loop1\nrc=0\n", ""],
    ["realpath s/f/x", "rc=1\n", "realpath: s/f/x: Not a directory\n"],
    ["realpath -m s/f/x", "/workspace/s/f/x\nrc=0\n", ""],
    ["realpath s/f/", "rc=1\n", "realpath: s/f/: Not a directory\n"],
    ["realpath s/f/..", "rc=1\n", "realpath: s/f/..: Not a directory\n"],
    ["realpath -m s/f/..", "/workspace/s\nrc=0\n", ""],
    ["realpath x/.", "rc=1\n", "realpath: x/.: No such file or directory\n"],
    ["realpath -q x/y s/f", "/workspace/s/f\nrc=1\n", ""],
    ["realpath -z s s/f | tr '\\0' '|'", "/workspace/s|/workspace/s/f|rc=0\n", ""],
    ["realpath -e s s/f x s", "/workspace/s\n/workspace/s/f\n/workspace/s\nrc=1\n", "realpath: x: No such file or directory\n"],
    ["realpath 'a b/c'", "rc=1\n", "realpath: 'a b/c': No such file or directory\n"],
    ["realpath ''", "rc=1\n", "realpath: '': No such file or directory\n"],
    ["realpath --relative-to=s/t s/f", "../f\nrc=0\n", ""],
    ["realpath --relative-to=s s", ".\nrc=0\n", ""],
    ["realpath --relative-base=s s/f /etc s", "f\n/etc\n.\nrc=0\n", ""],
    ["realpath --relative-base=s --relative-to=s/t s/f /etc", "../f\n/etc\nrc=0\n", ""],
    ["realpath --relative-to=nope/x s", "rc=1\n", "realpath: nope/x: No such file or directory\n"],
    ["realpath -e --relative-to=s/f s", "rc=1\n", "realpath: s/f: Not a directory\n"],
    ["realpath -s x/y", "/workspace/x/y\nrc=0\n", ""],
    ["realpath -s s/f/x", "rc=1\n", "realpath: s/f/x: Not a directory\n"],
    ["realpath -s -e dang", "rc=1\n", "realpath: dang: No such file or directory\n"],
    ["realpath --no-symlinks lt", "/workspace/lt\nrc=0\n", ""],
    ["realpath -sm /a/../b/./c//", "/b/c\nrc=0\n", ""],
    ["realpath /workspace/lt /", "/workspace/s/t\n/\nrc=0\n", ""],
    ["realpath", "rc=1\n", "realpath: missing operand\nTry 'realpath --help' for more information.\n"],
    ["realpath -x a", "rc=1\n", "realpath: invalid option -- 'x'\nTry 'realpath --help' for more information.\n"],
    ["realpath --rel=s s", "rc=1\n", "realpath: option '--rel=s' is ambiguous; possibilities: '--relative-to' '--relative-base'\nTry 'realpath --help' for more information.\n"],
    ["cd s/t && realpath ../f . ..", "/workspace/s/f\n/workspace/s/t\n/workspace/s\nrc=0\n", ""],
  ];
  const out = await shellCases(TREE, cases.map(([c]) => c), { wrap });
  expect(out).toEqual(cases);
});

it("cmp as GNU diffutils 3.8: first difference, -l, -b, -s, -n, -i and SKIP operands, EOF, stdin, errors", async () => {
  const cases: [string, string, string][] = [
    ["cmp a b", "a b differ: byte 3, line 1\nrc=1\n", ""],
    ["cmp a c", "rc=1\n", "cmp: EOF on c after byte 2, in line 1\n"],
    ["cmp c a", "rc=1\n", "cmp: EOF on c after byte 2, in line 1\n"],
    ["cmp e a", "rc=1\n", "cmp: EOF on e which is empty\n"],
    ["cmp -l a b", "3 143 144\nrc=1\n", ""],
    ["cmp -b a b", "a b differ: byte 3, line 1 is 143 c 144 d\nrc=1\n", ""],
    ["cmp -lb a b", "3 143 c    144 d\nrc=1\n", ""],
    ["cmp f g", "f g differ: byte 7, line 2\nrc=1\n", ""],
    ["cmp -l a f", "rc=1\n", "cmp: EOF on a after byte 4\n"],
    ["cmp -s a c", "rc=1\n", ""],
    ["cmp --quiet a b", "rc=1\n", ""],
    ["cmp --silent a a", "rc=0\n", ""],
    ["cmp a a", "rc=0\n", ""],
    ["cmp x a", "rc=2\n", "cmp: x: No such file or directory\n"],
    ["cmp -s x a", "rc=2\n", ""],
    ["cmp a d", "rc=2\n", "cmp: d: Is a directory\n"],
    ["cmp -n 2 a b", "rc=0\n", ""],
    ["cmp --bytes=2 a b", "rc=0\n", ""],
    ["cmp -n 1K a b", "a b differ: byte 3, line 1\nrc=1\n", ""],
    ["cmp -i 1 a b", "a b differ: byte 2, line 1\nrc=1\n", ""],
    ["cmp -i 1:2 a b", "a b differ: byte 1, line 1\nrc=1\n", ""],
    ["cmp --ignore-initial=1:1 a b", "a b differ: byte 2, line 1\nrc=1\n", ""],
    ["cmp a b 1 2", "a b differ: byte 1, line 1\nrc=1\n", ""],
    ["cmp -i 2 a c", "rc=1\n", "cmp: EOF on c which is empty\n"],
    ["cmp j k", "rc=1\n", "cmp: EOF on j after byte 3, line 1\n"],
    ["cmp k l", "rc=1\n", "cmp: EOF on k after byte 5, in line 2\n"],
    ["cmp -l j k", "rc=1\n", "cmp: EOF on j after byte 3\n"],
    ["printf 'abd\\n' | cmp a -", "a - differ: byte 3, line 1\nrc=1\n", ""],
    ["printf 'abd\\n' | cmp - a", "- a differ: byte 3, line 1\nrc=1\n", ""],
    ["printf 'abc\\n' | cmp a", "rc=0\n", ""],
    ["printf 'a\\001\\200\\377\\n' > h; printf 'a\\002\\201\\376x' > i; cmp -b h i; cmp -l h i; cmp -lb h i", "h i differ: byte 2, line 1 is   1 ^A   2 ^B\n2   1   2\n3 200 201\n4 377 376\n5  12 170\n2   1 ^A     2 ^B\n3 200 M-^@ 201 M-^A\n4 377 M-^? 376 M-~\n5  12 ^J   170 x\nrc=1\n", ""],
    ["cmp -s -l a b", "rc=2\n", "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n"],
    ["cmp -n x a b", "rc=2\n", "cmp: invalid --bytes value 'x'\ncmp: Try 'cmp --help' for more information.\n"],
    ["cmp -i 1:x a b", "rc=2\n", "cmp: invalid --ignore-initial value 'x'\ncmp: Try 'cmp --help' for more information.\n"],
    ["cmp", "rc=2\n", "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n"],
    ["cmp -q a b", "rc=2\n", "cmp: invalid option -- 'q'\ncmp: Try 'cmp --help' for more information.\n"],
    ["cmp --foo a b", "rc=2\n", "cmp: unrecognized option '--foo'\ncmp: Try 'cmp --help' for more information.\n"],
    ["cmp a b c d e", "rc=2\n", "cmp: invalid --ignore-initial value 'c'\ncmp: Try 'cmp --help' for more information.\n"],
  ];
  const out = await shellCases(TREE, cases.map(([c]) => c), { wrap });
  expect(out).toEqual(cases);
});

it("realpath and cmp are found on the PATH like the other commands", async () => {
  const out = await shellCases(TREE, ["command -v realpath cmp", "type -t realpath cmp"]);
  expect(out).toEqual([
    ["command -v realpath cmp", "/usr/bin/realpath\n/usr/bin/cmp\n", ""],
    ["type -t realpath cmp", "file\nfile\n", ""],
  ]);
});
