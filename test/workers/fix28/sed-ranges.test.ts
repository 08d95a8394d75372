/**
 * Issue 20, twenty-eighth attack run, fixer SD: siblings of test/workers/attack28d/shell-sed-range-end-regex-checked-
 * on-start-line — every sed range form checked against GNU sed 4.9 (the expectations are its output on the same files):
 * `/a/,/b/` with b on the start line, on later lines and never; `N,/b/`; `/a/,N` with N at or before the start line;
 * `/a/,+N`; `/a/,~N`; `0,/b/`; `first~step` as start and end; `$` as an end; ranges with `!`; nested `{}` blocks
 * inside ranges; a range that opens again after it ended; `c` on a range; `n`/`N` inside a range moving past its end
 * (and past a line-number start); `-s`/`-i` over several files (a range does not span files).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = {
  files: {
    a: "1\n2\n3\n",
    b: "4\n5\n6\n",
    "f.md": "# T\n## A\nx\n## B\ny\n",
    "c.ini": "[server]\nhost = localhost\n\n[db]\nhost = db.local\n",
  },
};

it("`/a/,/b/`: the end is looked for from the line after the start (on later lines, never, restarting)", async () => {
  const cases: [string, string, string][] = [
    ["sed -n '/^## A/,/^## /p' f.md", "## A\nx\n## B\n", ""],
    ["printf 'a\\nb\\na\\nc\\n' | sed -n '/a/,/a/p'", "a\nb\na\n", ""],
    ["seq 10 | sed -n '/[26]/,/[37]/p'", "2\n3\n6\n7\n", ""],
    ["seq 10 | sed -n '/1/,/nomatch/p'", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '/[159]/,/[159]/p'", "1\n2\n3\n4\n5\n9\n10\n", ""],
    ["printf 'a\\nb\\na\\nb\\n' | sed '/a/,/b/{/b/!s/$/!/}'", "a!\nb\na!\nb\n", ""],
    ["seq 10 | sed -n '$!N;/4/,~4p'", "3\n4\n5\n6\n7\n8\n", ""],
    ["seq 30 | sed -n '/^2$/,~4{N;N;N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", ""],
    ["seq 30 | sed -n '/^2$/,~5{N;N;N;N;N;N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n", ""],
    ["seq 30 | sed -n '/^2$/,+1{N;N;N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", ""],
    ["seq 30 | sed -n '/^2$/,7~5{N;N;N;N;N;N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`N,/b/`: from the line after N; a line-number start opens once", async () => {
  const cases: [string, string, string][] = [
    ["seq 10 | sed -n '2,/./p'", "2\n3\n", ""],
    ["seq 10 | sed -n '1,/1/p'", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '3,/[0-9]/p'", "3\n4\n", ""],
    ["seq 10 | sed -n '2,/3/p;4,/7/p'", "2\n3\n4\n5\n6\n7\n", ""],
    ["seq 10 | sed -n '10,/x/p'", "10\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`/a/,N`, `/a/,+N`, `/a/,~N`: N ≤ the start line selects one line", async () => {
  const cases: [string, string, string][] = [
    ["seq 10 | sed -n '/5/,2p'", "5\n", ""],
    ["seq 10 | sed -n '/5/,5p'", "5\n", ""],
    ["seq 10 | sed -n '/5/,6p'", "5\n6\n", ""],
    ["seq 10 | sed -n '5,2p'", "5\n", ""],
    ["seq 12 | sed -n '/[13]/,2p'", "1\n2\n3\n10\n11\n12\n", ""],
    ["seq 12 | sed -n '/[38]/,10p'", "3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '/[27]/,+2p'", "2\n3\n4\n7\n8\n9\n", ""],
    ["seq 10 | sed -n '/[15]/,+1p'", "1\n2\n5\n6\n10\n", ""],
    ["seq 10 | sed -n '/[1-3]/,+0p'", "1\n2\n3\n10\n", ""],
    ["seq 10 | sed -n '/[27]/,~4p'", "2\n3\n4\n7\n8\n", ""],
    ["seq 10 | sed -n '/4/,~4p'", "4\n5\n6\n7\n8\n", ""],
    ["seq 10 | sed -n '/4/,~0p'", "4\n", ""],
    ["seq 10 | sed -n '2,~2p'", "2\n3\n4\n", ""],
    ["seq 10 | sed -n '4,~4p'", "4\n5\n6\n7\n8\n", ""],
    ["seq 10 | sed -n '/[48]/,~2p'", "4\n5\n6\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '/[48]/,~1p'", "4\n5\n8\n9\n", ""],
    ["seq 10 | sed '/[48]/,~4c\\X'", "1\n2\n3\nX\n9\n10\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`0,/b/` may end on line 1; `first~step` starts and ends; `$` as an end", async () => {
  const cases: [string, string, string][] = [
    ["seq 10 | sed -n '0,/1/p'", "1\n", ""],
    ["seq 10 | sed -n '0,/3/p'", "1\n2\n3\n", ""],
    ["seq 10 | sed -n '0,/[13]/p'", "1\n", ""],
    ["seq 10 | sed -n '0,/nomatch/p'", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed '0,/1/d'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '0,/1/!p'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed '0,/3/!d'", "1\n2\n3\n", ""],
    ["seq 10 | sed -n '0~4p'", "4\n8\n", ""],
    ["seq 10 | sed -n '2~3,/./p'", "2\n3\n5\n6\n8\n9\n", ""],
    ["seq 10 | sed -n '1,3~2p'", "1\n2\n3\n", ""],
    ["seq 10 | sed -n '2,1~3p'", "2\n3\n4\n", ""],
    ["seq 12 | sed -n '/9/,5~3p'", "9\n10\n11\n", ""],
    ["seq 12 | sed -n '/8/,5~3p'", "8\n", ""],
    ["seq 12 | sed -n '/2/,5~3p'", "2\n3\n4\n5\n12\n", ""],
    ["seq 10 | sed -n '/4/,2~0p'", "4\n", ""],
    ["seq 10 | sed -n '/4/,7~0p'", "4\n5\n6\n7\n", ""],
    ["seq 10 | sed -n '/9/,$p'", "9\n10\n", ""],
    ["seq 10 | sed -n '/10/,$p'", "10\n", ""],
    ["seq 10 | sed -n '$,/1/p'", "10\n", ""],
    ["seq 10 | sed -n '$,3p'", "10\n", ""],
    ["seq 10 | sed -n '2,$p'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`!` and nested `{}` blocks inside ranges", async () => {
  const cases: [string, string, string][] = [
    ["seq 10 | sed '/2/,/4/!d'", "2\n3\n4\n", ""],
    ["seq 10 | sed -n '/[26]/,/[37]/!p'", "1\n4\n5\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '2!{/[26]/,/[37]/p}'", "6\n7\n", ""],
    ["seq 10 | sed -n '$!{/[26]/,/[37]/p}'", "2\n3\n6\n7\n", ""],
    ["seq 10 | sed -n '/[26]/,/[37]/{/./{=;p}}'", "2\n2\n3\n3\n6\n6\n7\n7\n", ""],
    ["seq 10 | sed -n '/2/,/5/{/3/,/4/p}'", "3\n4\n", ""],
    ["seq 10 | sed -n '/2/,/5/{/3/,/3/p}'", "3\n4\n5\n", ""],
    ["seq 10 | sed -n '/2/,/3/{/3/,/4/p}'", "3\n", ""],
    ["seq 10 | sed -n '/x/,/y/p;/2/,4p'", "2\n3\n4\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`c` on a range writes its text once, at the end of the range", async () => {
  const cases: [string, string, string][] = [
    ["seq 10 | sed '/2/,/4/c\\X'", "1\nX\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed '/2/,/4/!c\\X'", "X\n2\n3\n4\nX\nX\nX\nX\nX\nX\n", ""],
    ["seq 10 | sed '/9/,/nomatch/c\\X'", "1\n2\n3\n4\n5\n6\n7\n8\n", ""],
    ["seq 10 | sed '/2/,+2c\\X'", "1\nX\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed '/2/,$c\\X'", "1\nX\n", ""],
    ["seq 10 | sed '0,/3/c\\X'", "X\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed '/5/,/5/c\\X'", "1\n2\n3\n4\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`n`/`N` inside a range move past its end line as GNU", async () => {
  const cases: [string, string, string][] = [
    ["seq 10 | sed -n '/2/,/4/{n;p}'", "3\n5\n", ""],
    ["seq 10 | sed -n '/2/,/3/{n;n;p}'", "4\n7\n10\n", ""],
    ["seq 10 | sed -n '/2/,/3/{N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 6 | sed '/2/,/4/N;s/\\n/-/'", "1\n2-3\n4-5\n6\n", ""],
    ["seq 10 | sed '/2/,/4/{s/^/>/;n;s/^/+/}'", "1\n>2\n+3\n>4\n+5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '/2/,/3/{p;D}'", "2\n3\n", ""],
    ["seq 6 | sed -n '1{N;N};2,/5/p'", "1\n2\n3\n4\n5\n", ""],
    ["seq 6 | sed -n '1{N;N};2,4p'", "1\n2\n3\n4\n", ""],
    ["seq 10 | sed -n '1{N;N;N;N};2,4p'", "", ""],
    ["seq 10 | sed -n '1{N;N;N};2,4p'", "1\n2\n3\n4\n", ""],
    ["seq 10 | sed -n '1{N;N;N;N};2,/x/p'", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", ""],
    ["seq 10 | sed -n '1{N;N;N;N};2,+1p'", "1\n2\n3\n4\n5\n6\n", ""],
    ["seq 10 | sed -n '1{N;N;N;N};2,~4p'", "1\n2\n3\n4\n5\n6\n7\n8\n", ""],
    ["seq 10 | sed -n '1{N;N;N;N};2,1~3p'", "1\n2\n3\n4\n5\n6\n7\n", ""],
    ["seq 10 | sed -n '1{N;N;N;N};2,1p'", "", ""],
    ["seq 10 | sed -n '/2/,4{N;N;N;p}'", "2\n3\n4\n5\n", ""],
    ["seq 10 | sed -n '2,4{N;N;N;p}'", "2\n3\n4\n5\n", ""],
    ["seq 10 | sed -n '2,3{N;N;p}'", "2\n3\n4\n", ""],
    ["seq 10 | sed -n '/2/,+1{N;N;p}'", "2\n3\n4\n5\n6\n7\n", ""],
    ["seq 12 | sed -n '/2/,+1{N;N;N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", ""],
    ["seq 12 | sed -n '/2/,~4{N;N;N;N;p}'", "2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", ""],
    ["seq 12 | sed -n '/2/,5{N;N;N;p}'", "2\n3\n4\n5\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`-s`/`-i` over several files: a range does not go on into the next file", async () => {
  const cases: [string, string, string][] = [
    ["sed -s -n '/2/,/4/p' a b", "2\n3\n", ""],
    ["sed -n '/2/,/4/p' a b", "2\n3\n4\n", ""],
    ["sed -s -n '2,/5/p' a b", "2\n3\n5\n6\n", ""],
    ["sed -s -n '0,/5/p' a b", "1\n2\n3\n4\n5\n", ""],
    ["sed -s -n '/3/,+1p' a b", "3\n", ""],
    ["sed -s -n '/2/,$p' a b", "2\n3\n", ""],
    ["sed -s -n '2,5p' a b", "2\n3\n5\n6\n", ""],
    ["sed -i '/2/,/4/d' a b; cat a b", "1\n4\n5\n6\n", ""],
    ["sed -i '/^## A/,/^## /d' f.md; cat f.md", "# T\ny\n", ""],
    ["sed -i '/^\\[server\\]/,/^\\[/s/^host = .*/host = 0.0.0.0/' c.ini; cat c.ini", "[server]\nhost = 0.0.0.0\n\n[db]\nhost = db.local\n", ""],
    ["sed -i '/2/,/5/c\\X' a b; cat a b", "1\n4\n5\n6\n", ""],
    ["sed '/2/,/5/c\\X' a b", "1\nX\n6\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});
it("`r /dev/stdin` and `R /dev/stdin` read the command's standard input once; an empty file adds no line", async () => {
  const cases: [string, string, string][] = [
    ["printf 'IN1\\nIN2\\n' | sed '/./r /dev/stdin' a", "1\nIN1\nIN2\n2\n3\n", ""],
    ["printf 'IN1\\nIN2\\n' | sed 'R /dev/stdin' a", "1\nIN1\n2\nIN2\n3\n", ""],
    ["printf 'IN\\n' | sed 'r /dev/stdin' a b", "1\nIN\n2\n3\n4\n5\n6\n", ""],
    ["printf 'IN\\n' | sed -s '1r /dev/stdin' a b", "1\nIN\n2\n3\n4\n5\n6\n", ""],
    ["printf 'IN\\n' | sed -i '2r /dev/stdin' a; cat a", "1\n2\nIN\n3\n", ""],
    ["printf 'IN\\n' | sed '1r /dev/stdin'", "IN\n", ""],
    [": > e; sed '1r e' a", "1\n2\n3\n", ""],
    ["printf 'A\\n' > g; sed 'R g' a", "1\nA\n2\n3\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});
