/**
 * Issue 20, twenty-second attack run, fixes of test/workers/scout22/shell-grep-e-repeated-keeps-last.test.ts and
 * shell-grep-r-single-file-operand-named.test.ts: the siblings. Every `-e` pattern counts, in each of its forms
 * (`--regexp=`, `--regexp PAT`, `-ePAT`, `-ie PAT`), beside `-f`'s and through egrep/fgrep; `-e`/`-f` without an
 * argument is GNU's complaint; files are named when more than one is searched, a directory is walked, or `-H`;
 * `-R` (and `--dereference-recursive`) follow links met while walking, to files too, and report one that leads
 * nowhere; `-r` follows none. Each expected output is GNU grep 3.8 on the same tree (a.txt, b.md, p.txt, d/f.txt,
 * an empty e/, and w/la -> ../a.txt, w/ld -> ../d), the lines sorted where GNU's order is the directory's.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = {
  dirs: ["d", "w", "e"],
  files: { "a.txt": "x\n", "d/f.txt": "x\n", "b.md": "y\n", "p.txt": "x\ny\n" },
  links: { "w/la": "../a.txt", "w/ld": "../d" },
};

const cases: [string, string, string][] = [
  // Every -e pattern counts, in each of its forms, with -f, egrep and fgrep.
  ["grep --regexp=x --regexp y a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["grep -ex -ey a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["grep -ie X -e Y a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["grep -e x -f b.md a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["grep -e 'x\ny' -c p.txt", "2\n", ""],
  ["egrep -e x -e 'y|z' a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["fgrep -e x -e y a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["grep -o -e x -e y p.txt", "x\ny\n", ""],
  ["grep -v -e x -e y p.txt a.txt b.md; echo rc=$?", "rc=1\n", ""],
  ["grep -e x -e '' b.md", "y\n", ""],
  ["grep -l -e nope -e y a.txt b.md p.txt", "b.md\np.txt\n", ""],
  ["grep x -e y a.txt b.md; echo rc=$?", "b.md:y\nrc=2\n", "grep: x: No such file or directory\n"],
  ["grep -P -e x -e y a.txt; echo rc=$?", "rc=2\n", "grep: the -P option only supports a single pattern\n"],
  // An option without its argument: GNU's complaint, status 2.
  ["grep -e; echo rc=$?", "rc=2\n", "grep: option requires an argument -- 'e'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"],
  ["grep x --regexp; echo rc=$?", "rc=2\n", "grep: option '--regexp' requires an argument\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"],
  ["grep -f; echo rc=$?", "rc=2\n", "grep: option requires an argument -- 'f'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"],
  ["grep --file; echo rc=$?", "rc=2\n", "grep: option '--file' requires an argument\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"],
  // File names: more than one operand, a walked directory, or -H; -h when last.
  ["grep -rc x w d", "d/f.txt:1\n", ""],
  ["grep -rc x e a.txt", "a.txt:1\n", ""],
  ["grep -rn x d", "d/f.txt:1:x\n", ""],
  ["grep -rH x a.txt", "a.txt:x\n", ""],
  ["grep -H x a.txt; grep --with-filename -c x a.txt", "a.txt:x\na.txt:1\n", ""],
  ["grep -hH x a.txt", "a.txt:x\n", ""],
  ["grep -Hh x a.txt b.md", "x\n", ""],
  ["grep -rh x d", "x\n", ""],
  ["grep -r x w/la; grep -r x w/ld", "x\nw/ld/f.txt:x\n", ""],
  ["echo x | grep -r x -", "x\n", ""],
  ["grep -r x w; echo rc=$?", "rc=1\n", ""],
  ["grep -r x e; echo rc=$?", "rc=1\n", ""],
  // -R follows links met while walking, to files too; one that leads nowhere is reported; -r follows none.
  ["cd w && grep -R x | sort", "la:x\nld/f.txt:x\n", ""],
  ["grep --dereference-recursive -l x w | sort", "w/la\nw/ld/f.txt\n", ""],
  ["grep -R --exclude=la x w", "w/ld/f.txt:x\n", ""],
  ["grep -r -R x w | sort", "w/la:x\nw/ld/f.txt:x\n", ""],
  ["ln -s nowhere w/dl; grep -R x w >out 2>err; echo rc=$?; sort out; cat err", "rc=2\nw/la:x\nw/ld/f.txt:x\ngrep: w/dl: No such file or directory\n", ""],
  ["ln -s nowhere w/dl; grep -r x w; echo rc=$?", "rc=1\n", ""],
];

it("grep -e patterns, file names and -R links — as GNU grep 3.8", async () => {
  expect(await shellCases(TREE, cases.map(([command]) => command))).toEqual(cases);
}, 120_000);
