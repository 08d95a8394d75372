/**
 * Issue 20, twenty-sixth attack run, fixer SE: the siblings of the attack26b awk findings (RS ignored, -f refused,
 * `print > "out_" $1` cut, getline in BEGIN, gsub's empty match after a match), each checked against mawk 1.3.4 and
 * gawk 5.2.1 --posix on the same input (gawk without --posix for the ERE RS and gensub, as mawk):
 * - getline reads the main loop's records: across files, NR and FNR counted, operand assignments made as reached,
 *   0 in END; nextfile still skips the rest of a file; a second `-` reads nothing more;
 * - RS: paragraph mode (newline always a field separator, blank lines around dropped), RS changed between records,
 *   an ERE RS, RS's default value `\n`;
 * - print/printf `>`/`>>` take a concatenated name (also after a parenthesised part);
 * - -f - (the program from stdin), -fFILE, --file=FILE, -vNAME=value, `--`, a missing program file (status 2), a
 *   missing option argument (status 2); a missing input file as before (`awk: F: No such file or directory`, 1);
 * - gsub/sub/gensub with patterns that match empty;
 * - run-time errors as gawk (status 2, output so far kept): division by zero (`/`, `%=`), a negative field,
 *   printf with too few arguments (just-bash gave 0, "" and "").
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = {
  files: {
    "w.txt": "b 2 x\na 10 y\nc 2 a\n",
    "x1": "a\nb\n",
    "x2": "c\nd\n",
    "p.awk": "{print \"f:\" $1}\n",
    "a2.awk": "{ print x, $1 }\n",
  },
};

const run = (commands: string[]) => shellCases(tree, commands, { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] as const });

it("getline shares the main loop's input: files, NR/FNR, assignments, END, nextfile, stdin once", async () => {
  const cases: [string, string][] = [
    ["awk '{getline v; print NR, FNR, FILENAME, $0, v}' x1 x2", "2 2 x1 a b\n4 2 x2 c d\n"],
    ["awk 'NR==1{while((getline l) > 0) n++; print n, NR, FNR}' x1 x2", "3 4 2\n"],
    ["awk 'BEGIN { while ((getline l) > 0) s = s l; print s } END { print NR }' x1 v=1 x2", "abcd\n4\n"],
    ["awk 'BEGIN { getline; print x, $0 }' x=1 w.txt", "1 b 2 x\n"],
    ["awk 'END { r = getline; print r, $0 }' w.txt", "0 c 2 a\n"],
    ["awk 'FNR==2 { nextfile } { print FILENAME, $0 }' w.txt w.txt", "w.txt b 2 x\nw.txt b 2 x\n"],
    ["echo in | awk '{ print NR \":\" $0 }' - -", "1:in\n"],
  ];
  expect(await run(cases.map(([c]) => c))).toEqual(cases.map(([c, out]) => [c, out, "", 0]));
});

it("RS: paragraph mode, a change between records, an ERE, the default", async () => {
  const cases: [string, string][] = [
    ["printf 'a\\n\\n\\n b\\nc \\n\\n' | awk 'BEGIN { RS = \"\" } { print NR \": [\" $0 \"]\" NF }'", "1: [a]1\n2: [ b\nc ]2\n"],
    ["printf 'a:b\\nc\\n\\nd:e\\n' | awk 'BEGIN { RS = \"\"; FS = \":\" } { printf \"%d\", NF; for (i = 1; i <= NF; i++) printf \"<%s>\", $i; print \"\" }'", "3<a><b><c>\n2<d><e>\n"],
    ["printf '1,2;3,4;' | awk 'BEGIN { RS = \";\"; FS = \",\" } { s += $2 } END { print s, NR }'", "6 2\n"],
    ["printf 'a;b\\nc;d\\n' | awk 'NR==1 { RS = \";\" } { print NR \": \" $0 }'", "1: a;b\n2: c\n3: d\n\n"],
    ["printf 'a12b345c' | awk -v RS='[0-9]+' '{ print NR \": \" $0 }'", "1: a\n2: b\n3: c\n"],
    ["printf 'x' | awk 'BEGIN { RS = \"\" } END { print NR }'", "1\n"],
    ["awk 'BEGIN { printf \"[%s]\", RS }'", "[\n]"],
  ];
  expect(await run(cases.map(([c]) => c))).toEqual(cases.map(([c, out]) => [c, out, "", 0]));
});

it("print and printf > / >> take the whole concatenation as the file name", async () => {
  const cases: [string, string][] = [
    ["echo x | awk '{ print > \"f\" \"g\"; printf \"%s\\n\", \"y\" >> \"f\" \"g\" }'; cat fg", "x\ny\n"],
    ["echo 'a b' | awk '{ print > (\"o\" $1) \".t\" }'; ls o*", "oa.t\n"],
  ];
  expect(await run(cases.map(([c]) => c))).toEqual(cases.map(([c, out]) => [c, out, "", 0]));
});

it("awk's options: -f -, -fFILE, --file=, -vNAME=value, --, a missing program file or argument", async () => {
  expect(await run([
    "echo '{ print \"s:\" $2 }' | awk -f - w.txt",
    "awk -fp.awk w.txt",
    "awk --file=p.awk w.txt",
    "awk -vx=5 -f a2.awk w.txt",
    "awk -- '{ print $1 }' w.txt",
    "awk -f p.awk -- w.txt",
    "awk -f nope.awk w.txt",
    "awk -f",
    "awk '{ print }' nope w.txt",
  ])).toEqual([
    ["echo '{ print \"s:\" $2 }' | awk -f - w.txt", "s:2\ns:10\ns:2\n", "", 0],
    ["awk -fp.awk w.txt", "f:b\nf:a\nf:c\n", "", 0],
    ["awk --file=p.awk w.txt", "f:b\nf:a\nf:c\n", "", 0],
    ["awk -vx=5 -f a2.awk w.txt", "5 b\n5 a\n5 c\n", "", 0],
    ["awk -- '{ print $1 }' w.txt", "b\na\nc\n", "", 0],
    ["awk -f p.awk -- w.txt", "f:b\nf:a\nf:c\n", "", 0],
    ["awk -f nope.awk w.txt", "", "awk: fatal: cannot open source file `nope.awk' for reading: No such file or directory\n", 2],
    ["awk -f", "", "awk: option requires an argument -- 'f'\n", 2],
    // As before (gawk: `fatal: cannot open file`, status 2).
    // Was 1 (until fixer L2, run 27): gawk 5.2 and mawk exit 2.
    ["awk '{ print }' nope w.txt", "", "awk: nope: No such file or directory\n", 2],
  ]);
});

it("gsub, sub and gensub with patterns that can match empty, as gawk and mawk", async () => {
  const cases: [string, string][] = [
    ["awk 'BEGIN { s = \"abc\"; n = gsub(//, \"-\", s); print n, s }'", "4 -a-b-c-\n"],
    ["awk 'BEGIN { s = \"\"; n = gsub(/x*/, \"-\", s); print n, s }'", "1 -\n"],
    ["awk 'BEGIN { s = \"baaac\"; n = sub(/a*/, \"X\", s); print n, s }'", "1 Xbaaac\n"],
    ["awk 'BEGIN { s = \"abc\"; n = gsub(/b*/, \"X\", s); print n, s }'", "3 XaXcX\n"],
    ["awk 'BEGIN { print gensub(/a*/, \"X\", \"g\", \"baaac\") }'", "XbXcX\n"],
  ];
  expect(await run(cases.map(([c]) => c))).toEqual(cases.map(([c, out]) => [c, out, "", 0]));
});

it("run-time errors as gawk: division by zero, a negative field, printf arguments run out (status 2)", async () => {
  expect(await run([
    "awk 'BEGIN { x = 0; print \"before\"; print 1 / x }'",
    "awk 'BEGIN { x = 1; x %= 0 }'",
    "echo a b | awk '{ print $-1 }'",
    "echo a b | awk '{ $(NF - 3) = \"x\" }'",
    "awk 'BEGIN { printf \"%s-%s|\\n\", \"a\" }'",
    "awk 'BEGIN { s = sprintf(\"%d %d\", 1); print \"[\" s \"]\" }'",
    "awk 'BEGIN { printf \"100%%|%5%|%s\\n\", \"a\" }'",
  ])).toEqual([
    ["awk 'BEGIN { x = 0; print \"before\"; print 1 / x }'", "before\n", "awk: division by zero attempted\n", 2],
    ["awk 'BEGIN { x = 1; x %= 0 }'", "", "awk: division by zero attempted in `%='\n", 2],
    ["echo a b | awk '{ print $-1 }'", "", "awk: attempt to access field -1\n", 2],
    ["echo a b | awk '{ $(NF - 3) = \"x\" }'", "", "awk: attempt to access field -1\n", 2],
    ["awk 'BEGIN { printf \"%s-%s|\\n\", \"a\" }'", "", "awk: not enough arguments to satisfy format string\n", 2],
    ["awk 'BEGIN { s = sprintf(\"%d %d\", 1); print \"[\" s \"]\" }'", "", "awk: not enough arguments to satisfy format string\n", 2],
    ["awk 'BEGIN { printf \"100%%|%5%|%s\\n\", \"a\" }'", "100%|%|a\n", "", 0],
  ]);
});
