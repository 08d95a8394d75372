/**
 * Issue 20, twenty-ninth attack run, fixer SB: siblings of test/workers/attack29d/shell-sed-backslash-in-bracket-
 * expression — sed's bracket expressions checked against GNU sed 4.9 under bash 5.2.15 (the expectations are its
 * output): a backslash inside `[...]` is a member and the delimiter does not end the regex there (`s`, `-E`, addresses,
 * `\%…%` addresses with any delimiter); `]` first and `[^]…]`; `[:class:]`, `[.c.]`, `[=c=]` and ranges; GNU's
 * escapes that stay escapes inside a bracket (`\n` `\t`, `\d` `\o` `\x` without digits); -E addresses read as EREs;
 * `y` (no brackets); the escape-then-`sed -i` idiom (the bytes left in the file).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { files: { f: "url=old\nname=n\n" } };

it("a backslash inside a bracket is a member; the delimiter inside a bracket does not end the regex (s, -E)", async () => {
  const cases: [string, string, string][] = [
    ["printf 'a/b&c\\\\d\\n' | sed 's/[&/\\]/\\\\&/g'", "a\\/b\\&c\\\\d\n", ""],
    ["printf 'a\\\\b\\n' | sed 's/[\\]/X/'", "aXb\n", ""],
    ["printf 'a\\\\b\\n' | sed 's/[a\\]/X/g'", "XXb\n", ""],
    ["printf 'a\\\\b/c\\n' | sed 's/[\\/]/X/g'", "aXbXc\n", ""],
    ["printf 'a\\\\]b]\\n' | sed 's/[\\]]/X/g'", "aXb]\n", ""],
    ["printf 'a/b\\n' | sed 's/a[/]b/X/'", "X\n", ""],
    ["printf 'a|b\\n' | sed 's|[|]|_|'", "a_b\n", ""],
    ["printf 'a,b\\n' | sed 's,[,],;,'", "a;b\n", ""],
    ["printf 'x\\\\y.z\\n' | sed 's/[\\.]/#/g'", "x#y#z\n", ""],
    ["printf 'x\\\\yw-^z\\n' | sed 's/[\\w]/#/g;s/[\\-]/=/g;s/[\\^]/+/g'", "x#y#=+z\n", ""],
    ["printf 'a/b&c\\\\d\\n' | sed -E 's/[&/\\]/X/g'", "aXbXcXd\n", ""],
    ["printf 'a\\\\b\\n' | sed -E 's/a[\\]b/X/'", "X\n", ""],
    ["printf 'a/b\\n' | sed 's/[a/b/X/' 2>/dev/null; echo \"status $?\"", "status 1\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("`]` first, `[^]…]`, classes, collating elements and ranges", async () => {
  const cases: [string, string, string][] = [
    ["printf 'a]/\\n' | sed 's/[]/]/X/g'", "aXX\n", ""],
    ["printf 'a]/\\n' | sed 's/[^]/]/X/g'", "X]/\n", ""],
    ["printf 'a/1\\n' | sed 's/[[:alpha:]/]/X/g'", "XX1\n", ""],
    ["printf 'a/1\\n' | sed 's/[^[:alpha:]/]/X/g'", "a/X\n", ""],
    ["printf 'a/b\\n' | sed 's/[[./.]]/X/;s/[[=b=]]/Y/'", "aXY\n", ""],
    ["printf 'a\\\\b.\\n' | sed 's/[[.\\.]]/X/g'", "aXb.\n", ""],
    ["printf 'a-b\\n' | sed 's/[a-]/X/g'", "XXb\n", ""],
    ["printf 'a$b^c.d*\\n' | sed 's/[$^.*]/X/g'", "aXbXcXdX\n", ""],
    ["printf 'ab1\\n' | sed 's/^[ab]/X/;s/[0-9]$/Y/'", "XbY\n", ""],
    ["printf 'a*b\\n' | sed 's/[*]*/X/g'", "XaXbX\n", ""],
    ["printf 'a[b\\n' | sed 's/\\[/]/'", "a]b\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("GNU's escapes inside a bracket: \\n \\t \\r and \\d \\o \\x without digits", async () => {
  const cases: [string, string, string][] = [
    ["printf 'a\\nb\\n' | sed 'N;s/[\\n]/X/'", "aXb\n", ""],
    ["printf 'n\\\\t\\tx\\n' | sed 's/[\\t]/X/g'", "n\\tXx\n", ""],
    ["printf 'a\\\\n\\n' | sed 's/[\\n]/X/g'", "a\\n\n", ""],
    ["printf 'x\\\\dox\\n' | sed 's/[\\d]/1/g;s/[\\o]/2/g;s/[\\x]/3/'", "3\\12x\n", ""],
    ["printf 'aAb\\n' | sed 's/[\\x41]/X/g'", "aXb\n", ""],
    ["printf 'a\\\\nb\\n' | sed -E 's/[\\\\n]/X/g'", "aXXb\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("addresses: `/[/]/`, `\\%…%` with any delimiter, -E addresses are EREs", async () => {
  const cases: [string, string, string][] = [
    ["printf 'a/b\\nc\\n' | sed -n '/[/]/p'", "a/b\n", ""],
    ["printf 'a\\\\b\\nc\\n' | sed -n '/[\\]/p'", "a\\b\n", ""],
    ["printf 'a%%b\\nc\\n' | sed -n '\\%[%]%p'", "a%b\n", ""],
    ["printf 'a%%b\\nc\\n' | sed -n '\\%a%p'", "a%b\n", ""],
    ["printf '/usr/x\\n/var/y\\n' | sed -n '\\,^/usr,p'", "/usr/x\n", ""],
    ["printf 'a,b\\nc\\n' | sed -n '\\,a\\,b,p'", "a,b\n", ""],
    ["printf 'ab\\ncd\\n' | sed -E -n '/(a|c)d/p'", "cd\n", ""],
    ["printf 'aab\\nab\\n' | sed -E -n '/a{2}/p'", "aab\n", ""],
    ["printf 'a\\nb\\nc\\n' | sed '\\%b%,\\%c%d'", "a\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});

it("y and the escaping idiom into sed -i (the bytes left in the file)", async () => {
  const cases: [string, string, string][] = [
    ["printf '[a/b]\\n' | sed 'y/[/]/'", "]a/b]\n", ""],
    ["printf 'a\\\\b\\n' | sed 'y/a\\\\b/xyz/'", "xyz\n", ""],
    ["new='https://x.com/a?b=1&c=2\\\\d'; esc=$(printf '%s' \"$new\" | sed 's/[&/\\]/\\\\&/g'); sed -i \"s/^url=.*/url=$esc/\" f; cat f", "url=https://x.com/a?b=1&c=2\\\\d\nname=n\n", ""],
    ["kw='a.b*[c]^$\\/'; esc=$(printf '%s' \"$kw\" | sed 's/[]\\/$*.^[]/\\\\&/g'); printf 'x a.b*[c]^$\\\\/ y\\n' | sed \"s/$esc/K/\"", "x K y\n", ""],
  ];
  expect(await shellCases(tree, cases.map(([command]) => command))).toEqual(cases);
});
