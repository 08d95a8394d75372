/**
 * Issue 20, twenty-first attack run, fix of test/workers/attack21b/shell-glob-skips-newline-names.test.ts: the
 * siblings of `rm -- *.tmp` — every place the shell turns a glob into a regular expression now lets `*`, `?` and
 * `[!x]` match a newline in a name, as bash 5.2, GNU find and GNU grep do. Expected values are those commands' answers
 * on GNU/Linux for the same tree.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { files: { "a.txt": "a\n", "nl\nx.tmp": "secret\n", "nl\nx.txt": "x\n" } };

const checks: [string, string][] = [
  ["echo nl*", "nl\nx.tmp nl\nx.txt\n"],
  ["printf '%s|' *.txt", "a.txt|nl\nx.txt|"],
  ["printf '%s|' nl[!a]x.tmp", "nl\nx.tmp|"],
  ["(GLOBIGNORE='nl?x.t*'; echo *)", "a.txt\n"],
  ["find . -iname 'NL?X.TMP'", "./nl\nx.tmp\n"],
  ["find . -path './nl?x.tm*'", "./nl\nx.tmp\n"],
  ["mkdir s && cp nl?x.tmp s/ && grep -rl secret --include='*x.tmp' s", "s/nl\nx.tmp\n"],
  // find's and grep's shared matcher took `[!x]` as a class of `!` and `x`; fnmatch negates it.
  ["find . -maxdepth 1 -name '[!.a]*' -name '*.tmp'", "./nl\nx.tmp\n"],
  ["mkdir s && cp nl?x.tmp s/ && grep -rl secret --include='[!a]*' s", "s/nl\nx.tmp\n"],
  [`a=($'x\\ny' b); echo "\${a[@]/x*/Z}"; echo "\${a[@]//?y/Q}"`, "Z b\nxQ b\n"],
];

it("*, ? and [!x] match a newline in pathname expansion, GLOBIGNORE, find -name/-iname/-path, grep --include and ${a[@]/pat/}", async () => {
  const out = await shellCases(TREE, checks.map(([command]) => command));
  expect(out).toEqual(checks.map(([command, stdout]) => [command, stdout, ""]));
});
