/**
 * Issue 20, twenty-seventh attack run, fixer SH: siblings of the sed findings (test/workers/attack27d/shell-sed-*,
 * attack27e/shell-sed-w-unopenable-file-silent), each checked against GNU sed 4.9 on the same files: a/i/c text
 * forms (blanks, `\` continuation in a -f script, escapes, `i` in order with `p`), `c` on ranges that run off the
 * input or use `+N`, case conversion with an empty group, `w /dev/stdout` in order with `p`, w files created empty
 * and gathered over `-i` files, the `s///w` flag alone, `q N`/`Q N` (also ending `-i`), `l N` / `-l N` wrapping,
 * `addr,~N`, two commands with the same range text, `n` in order with `=` and `a`, `-s`, `F`, getopt order
 * (a positional before `-e` is a file), long options, `s///M`, an unknown `s` flag. The messages of a bad script
 * have no `-e expression #1, char N:` prefix (documented in docs/porting.md).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const commands = [
  "sed '2a   spaced' a.txt",
  "sed '2a\\   spaced' a.txt",
  "printf '2a\\\\\\n   spaced\\\\\\n  more\\n# note\\n4d\\n' > s.sed; sed -f s.sed a.txt",
  "sed '2a\\foo\\\\bar' a.txt",
  "sed '2i\\foo' -e p b.txt",
  "printf 'a' | sed 'c foo'",
  "sed '4,9c gone' a.txt",
  "sed '/two/,+1c gone' a.txt",
  "sed -n '2,3c gone' a.txt",
  "sed 's/.*/\\L\\u&/;s/o/\\U&x\\Ey/' a.txt",
  "echo 'ab cd' | sed -E 's/(\\w*)x?(\\w+)/\\u\\1\\2/'",
  "sed 'p;w /dev/stdout' b.txt",
  "sed -n '/zzz/w out' a.txt; ls out; wc -c out",
  "sed -n 's/o/0/pw out' a.txt; cat out",
  "sed -i 'w out' a.txt b.txt; cat out",
  "sed -i 's/x/X/w /dev/stdout' b.txt; cat b.txt",
  "sed 's/x/y/q' b.txt",
  "sed 2q5 a.txt",
  "sed 2Q5 a.txt",
  "sed -i 1q5 a.txt b.txt; echo $?; cat a.txt b.txt",
  "sed -n 'l 5' a.txt",
  "printf 'a\\tb\\\\c\\n' | sed -n 'l 3'",
  "sed -n -l 3 'l' b.txt",
  "printf 'a' | sed -n 'l;='",
  "sed -n '2,~2p;4,~2=' a.txt",
  "sed -n '/two/,/three/p;/two/,/three/=' a.txt",
  "sed '=;n' b.txt",
  "printf 'a\\nb\\n' | sed '1a foo' -e n",
  "sed --posix -s -n '$p' a.txt b.txt",
  "sed -s 1d a.txt b.txt",
  "sed -n '$F' a.txt b.txt",
  "cat b.txt | sed -n 1F",
  "sed 's/one/X/' -n -e p a.txt",
  "sed --expression=2d --line-length=3 -e '1l' b.txt",
  "sed 'N;s/o$/O/M' a.txt",
  "sed 's/o/0/x' a.txt",
];

it("sed's text, range, case, write, quit, list and option siblings behave as GNU sed 4.9", async () => {
  const out = await shellCases({ files: { "a.txt": "one\ntwo\nthree\nfour\nfive\n", "b.txt": "x1\nx2\n" } }, commands, {
    wrap: (c) => `${c}; echo "rc=$?"`,
  });
  expect(out).toEqual([
    ["sed '2a   spaced' a.txt", "one\ntwo\nspaced\nthree\nfour\nfive\nrc=0\n", ""],
    ["sed '2a\\   spaced' a.txt", "one\ntwo\n   spaced\nthree\nfour\nfive\nrc=0\n", ""],
    ["printf '2a\\\\\\n   spaced\\\\\\n  more\\n# note\\n4d\\n' > s.sed; sed -f s.sed a.txt", "one\ntwo\n   spaced\n  more\nthree\nfive\nrc=0\n", ""],
    ["sed '2a\\foo\\\\bar' a.txt", "one\ntwo\nfoo\\bar\nthree\nfour\nfive\nrc=0\n", ""],
    ["sed '2i\\foo' -e p b.txt", "x1\nx1\nx2\nx2\nrc=2\n", "sed: can't read 2i\\foo: No such file or directory\n"],
    ["printf 'a' | sed 'c foo'", "foo\nrc=0\n", ""],
    ["sed '4,9c gone' a.txt", "one\ntwo\nthree\nrc=0\n", ""],
    ["sed '/two/,+1c gone' a.txt", "one\ngone\nfour\nfive\nrc=0\n", ""],
    ["sed -n '2,3c gone' a.txt", "gone\nrc=0\n", ""],
    ["sed 's/.*/\\L\\u&/;s/o/\\U&x\\Ey/' a.txt", "One\nTwOXy\nThree\nFOXyur\nFive\nrc=0\n", ""],
    ["echo 'ab cd' | sed -E 's/(\\w*)x?(\\w+)/\\u\\1\\2/'", "Ab cd\nrc=0\n", ""],
    ["sed 'p;w /dev/stdout' b.txt", "x1\nx1\nx1\nx2\nx2\nx2\nrc=0\n", ""],
    ["sed -n '/zzz/w out' a.txt; ls out; wc -c out", "out\n0 out\nrc=0\n", ""],
    ["sed -n 's/o/0/pw out' a.txt; cat out", "0ne\ntw0\nf0ur\n0ne\ntw0\nf0ur\nrc=0\n", ""],
    ["sed -i 'w out' a.txt b.txt; cat out", "one\ntwo\nthree\nfour\nfive\nx1\nx2\nrc=0\n", ""],
    ["sed -i 's/x/X/w /dev/stdout' b.txt; cat b.txt", "X1\nX2\nX1\nX2\nrc=0\n", ""],
    ["sed 's/x/y/q' b.txt", "rc=1\n", "sed: unknown option to `s'\n"],
    ["sed 2q5 a.txt", "one\ntwo\nrc=5\n", ""],
    ["sed 2Q5 a.txt", "one\nrc=5\n", ""],
    ["sed -i 1q5 a.txt b.txt; echo $?; cat a.txt b.txt", "5\none\nx1\nx2\nrc=0\n", ""],
    ["sed -n 'l 5' a.txt", "one$\ntwo$\nthre\\\ne$\nfour$\nfive$\nrc=0\n", ""],
    ["printf 'a\\tb\\\\c\\n' | sed -n 'l 3'", "a\\\n\\t\\\nb\\\n\\\\\\\nc$\nrc=0\n", ""],
    ["sed -n -l 3 'l' b.txt", "x1$\nx2$\nrc=0\n", ""],
    ["printf 'a' | sed -n 'l;='", "a$\n1\nrc=0\n", ""],
    ["sed -n '2,~2p;4,~2=' a.txt", "two\nthree\nfour\n4\n5\nrc=0\n", ""],
    ["sed -n '/two/,/three/p;/two/,/three/=' a.txt", "two\n2\nthree\n3\nrc=0\n", ""],
    ["sed '=;n' b.txt", "1\nx1\nx2\nrc=0\n", ""],
    ["printf 'a\\nb\\n' | sed '1a foo' -e n", "rc=2\n", "sed: can't read 1a foo: No such file or directory\n"],
    ["sed --posix -s -n '$p' a.txt b.txt", "five\nx2\nrc=0\n", ""],
    ["sed -s 1d a.txt b.txt", "two\nthree\nfour\nfive\nx2\nrc=0\n", ""],
    ["sed -n '$F' a.txt b.txt", "b.txt\nrc=0\n", ""],
    ["cat b.txt | sed -n 1F", "-\nrc=0\n", ""],
    ["sed 's/one/X/' -n -e p a.txt", "one\ntwo\nthree\nfour\nfive\nrc=2\n", "sed: can't read s/one/X/: No such file or directory\n"],
    ["sed --expression=2d --line-length=3 -e '1l' b.txt", "x1$\nx1\nrc=0\n", ""],
    ["sed 'N;s/o$/O/M' a.txt", "one\ntwO\nthree\nfour\nfive\nrc=0\n", ""],
    ["sed 's/o/0/x' a.txt", "rc=1\n", "sed: unknown option to `s'\n"],
  ]);
});
