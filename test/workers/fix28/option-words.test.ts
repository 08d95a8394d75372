/**
 * Issue 20, run 28, fixer OP: options of sort, grep, cut and paste as GNU getopt_long reads them (coreutils 9.1,
 * grep 3.8), siblings of test/workers/attack28d/shell-sort-clustered-key-option-refused.test.ts,
 * shell-grep-long-option-separate-argument.test.ts and shell-paste-without-operand-usage-error.test.ts. Every
 * expectation was checked against the real tools in a temp dir.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["src", "n"], files: { "u.csv": "b,2\na,10\nc,1\n", "f": "a\nb\nc\nd\n", "src/a.ts": "TODO x\n", "R.md": "TODO y\n", "n/i.js": "TODO z\n", "d.txt": "a-b\n" } };

it("sort: clusters that end in -k/-t/-o take the rest or the next word; -S/--parallel are accepted; refusals are GNU's", async () => {
  const out = await shellCases(tree, [
    "sort -uk1 u.csv",
    "sort -o out -t, -nk2 u.csv; cat out",
    "sort -nrt, -k2 u.csv",
    "sort -S 50% --parallel=2 -t, -nk2 u.csv",
    "sort -q u.csv; echo rc=$?",
    "sort --foo u.csv; echo rc=$?",
  ]);
  expect(out).toEqual([
    ["sort -uk1 u.csv", "a,10\nb,2\nc,1\n", ""],
    ["sort -o out -t, -nk2 u.csv; cat out", "c,1\nb,2\na,10\n", ""],
    ["sort -nrt, -k2 u.csv", "a,10\nb,2\nc,1\n", ""],
    ["sort -S 50% --parallel=2 -t, -nk2 u.csv", "c,1\nb,2\na,10\n", ""],
    ["sort -q u.csv; echo rc=$?", "rc=2\n", "sort: invalid option -- 'q'\nTry 'sort --help' for more information.\n"],
    ["sort --foo u.csv; echo rc=$?", "rc=2\n", "sort: unrecognized option '--foo'\nTry 'sort --help' for more information.\n"],
  ]);
});

it("grep: long options take the next word, clusters end at -e/-f/-m/-A/-B/-C, unknown options are status 2", async () => {
  const out = await shellCases(tree, [
    "grep -rl TODO --exclude '*.md' . | sort",
    "grep --after-context 1 b f; grep --context 1 c f; grep --regexp b f",
    "grep --label LBL -H b < f",
    "grep -nA1 b f; grep -n1 c f",
    "grep -e -b d.txt; grep -ie -B d.txt; grep -- -b d.txt",
    "grep --foo x f; echo rc=$?",
    "grep -Q x f; echo rc=$?",
  ]);
  expect(out).toEqual([
    ["grep -rl TODO --exclude '*.md' . | sort", "./n/i.js\n./src/a.ts\n", ""],
    ["grep --after-context 1 b f; grep --context 1 c f; grep --regexp b f", "b\nc\nb\nc\nd\nb\n", ""],
    ["grep --label LBL -H b < f", "LBL:b\n", ""],
    ["grep -nA1 b f; grep -n1 c f", "2:b\n3-c\n2-b\n3:c\n4-d\n", ""],
    ["grep -e -b d.txt; grep -ie -B d.txt; grep -- -b d.txt", "a-b\na-b\na-b\n", ""],
    ["grep --foo x f; echo rc=$?", "rc=2\n", "grep: unrecognized option '--foo'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"],
    ["grep -Q x f; echo rc=$?", "rc=2\n", "grep: invalid option -- 'Q'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"],
  ]);
});

it("cut: --delimiter/--fields/--characters with = or the next word, -d , -f 2 separate, clusters -sd, and -d,-sf2", async () => {
  const out = await shellCases(tree, [
    "printf 'a,b,c\\n' | cut --delimiter=, --fields=2",
    "printf 'a,b,c\\n' | cut -d , -f 2",
    "printf 'a,b,c\\n' | cut --delimiter , --fields 3",
    "printf 'a,b,c\\nx\\n' | cut -sd, -f2",
    "printf 'a,b,c\\n' | cut -d, -sf2",
    "printf 'abc\\n' | cut --characters 1-2",
  ]);
  expect(out).toEqual([
    ["printf 'a,b,c\\n' | cut --delimiter=, --fields=2", "b\n", ""],
    ["printf 'a,b,c\\n' | cut -d , -f 2", "b\n", ""],
    ["printf 'a,b,c\\n' | cut --delimiter , --fields 3", "c\n", ""],
    ["printf 'a,b,c\\nx\\n' | cut -sd, -f2", "b\n", ""],
    ["printf 'a,b,c\\n' | cut -d, -sf2", "b\n", ""],
    ["printf 'abc\\n' | cut --characters 1-2", "ab\n", ""],
  ]);
});

it("paste: no operand reads standard input with -s, -d and both; `-` operands as before", async () => {
  const out = await shellCases(tree, ["seq 3 | paste -s -d+", "seq 4 | paste - -", "seq 4 | paste -d: - -", "paste -sd, < f"]);
  expect(out).toEqual([
    ["seq 3 | paste -s -d+", "1+2+3\n", ""],
    ["seq 4 | paste - -", "1\t2\n3\t4\n", ""],
    ["seq 4 | paste -d: - -", "1:2\n3:4\n", ""],
    ["paste -sd, < f", "a,b,c,d\n", ""],
  ]);
});
