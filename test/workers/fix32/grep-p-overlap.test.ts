/**
 * Issue 20, run 32 (fixer GP): `grep -P` on V8 (a lookaround, a back-reference, or -w) with a repeated part that can
 * match the same text in two ways. An alternation of one-character branches that overlap — `(.|\s)`, `(.|\n)`,
 * `(\S|\s)`, `(.|[\r\n])`, `(a|a)`, `(E|e)` under -i — is run as one class (same matches as GNU grep 3.8, at once); a
 * repeated part whose alternatives are not provably disjoint (`(a|aa)+`) or whose optional character overlaps what
 * follows it (`(?:a?a)*`) is refused before any line is read (status 2; GNU grep answers them, PCRE2 stops at its
 * backtracking limit); disjoint alternatives (`(foo|bar)+`, `(\w|-)+`) run as before. `.` is PCRE2's (it matches
 * \r), and a `!` first in a bracket expression is a member. grep -E, sed -E and awk run `(a|a)*b` on RE2 (linear).
 * Expected outputs are GNU grep 3.8 / sed 4.9 / gawk 5.2.1 on the same file.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const A30 = "a".repeat(30);
const FILE = `<b>   text   here  </b>\n<b>${" ".repeat(30)}\n${A30}!\nkey=foo-bar_baz; x\na\rb\nx!y\n`;
const REFUSED =
  "grep: a -P pattern with a lookaround or back-reference (or -P with -w) runs on a backtracking engine, where a repeated group holding an unbounded repeat (`(a+)+`, `(?:x*y)*`) or parts that can match the same text (`(a|ab)*`, `(?:a?a)*`) can take exponential time; it is not supported: write the repeat without nesting or overlap\n";

it("grep -P: overlapping one-character alternatives run as one class, at once, as GNU grep 3.8", async () => {
  const started = Date.now();
  const out = await shellCases({ files: { f: FILE } }, [
    "grep -oP '(?<=<b>)(.|\\s)*(?=</b>)' f; echo st=$?",
    "grep -oP '(?<=<b>)(.|\\n)*?(?=</b>)' f; echo st=$?",
    "grep -oP '(?<=<b>)(\\S|\\s)+(?=</b>)' f; echo st=$?",
    "grep -oP '(?<=<b>)(.|[\\r\\n])+(?=</b>)' f; echo st=$?",
    "grep -cP '(?=x)|(?:a|a)*b' f; echo st=$?",
    "grep -oPi '(?<=k)(E|e)+(?=y)' f; echo st=$?",
    "grep -cP '(?<=x)(?:[^a]|[^b])+(?=y)' f; echo st=$?",
    "grep -oPw '(a|a)+' f | wc -c",
    "grep -oP '(?<=<b>)(?:[[:alpha:]]|t)+' f; echo st=$?",
    "grep -oP '(a|a)+(?=!)' f",
  ]);
  expect(out).toEqual([
    ["grep -oP '(?<=<b>)(.|\\s)*(?=</b>)' f; echo st=$?", "   text   here  \nst=0\n", ""],
    ["grep -oP '(?<=<b>)(.|\\n)*?(?=</b>)' f; echo st=$?", "   text   here  \nst=0\n", ""],
    ["grep -oP '(?<=<b>)(\\S|\\s)+(?=</b>)' f; echo st=$?", "   text   here  \nst=0\n", ""],
    ["grep -oP '(?<=<b>)(.|[\\r\\n])+(?=</b>)' f; echo st=$?", "   text   here  \nst=0\n", ""],
    // GNU grep 3.8: `grep: f: exceeded PCRE's backtracking limit` at the line of 30 a's (2 lines counted, status 2).
    ["grep -cP '(?=x)|(?:a|a)*b' f; echo st=$?", "5\nst=0\n", ""],
    ["grep -oPi '(?<=k)(E|e)+(?=y)' f; echo st=$?", "e\nst=0\n", ""],
    ["grep -cP '(?<=x)(?:[^a]|[^b])+(?=y)' f; echo st=$?", "1\nst=0\n", ""],
    ["grep -oPw '(a|a)+' f | wc -c", "33\n", ""],
    ["grep -oP '(?<=<b>)(?:[[:alpha:]]|t)+' f; echo st=$?", "st=1\n", ""],
    ["grep -oP '(a|a)+(?=!)' f", `${A30}\n`, ""],
  ]);
  expect(Date.now() - started).toBeLessThan(60000);
}, 120000);

it("grep -P: disjoint alternatives run; a repeated part that can match the same text two ways is refused on V8", async () => {
  const out = await shellCases({ files: { f: FILE } }, [
    "grep -oP '(?<=key=)(\\w|-)+' f; echo st=$?",
    "grep -oP '(foo|bar)+(?=_)' f; echo st=$?",
    "grep -cP '(?<=y=)(a|aa)+' f; echo st=$?",
    "grep -cP '(?<=y=)(?:a?a)*' f; echo st=$?",
    "grep -cP '(?<=y=)(\\s?,\\s?)+' f; echo st=$?",
    "grep -cPw '(a|ab)*' f; echo st=$?",
    // No lookaround: RE2 (linear time) runs it.
    "grep -cP '(a|aa)+!' f; echo st=$?",
  ]);
  expect(out).toEqual([
    ["grep -oP '(?<=key=)(\\w|-)+' f; echo st=$?", "foo-bar_baz\nst=0\n", ""],
    ["grep -oP '(foo|bar)+(?=_)' f; echo st=$?", "bar\nst=0\n", ""],
    // GNU grep 3.8: 0 / 1 / 0 / 5 lines, status 1 / 0 / 1 / 0 (PCRE2 answers these with its backtracking limit).
    ["grep -cP '(?<=y=)(a|aa)+' f; echo st=$?", "st=2\n", REFUSED],
    ["grep -cP '(?<=y=)(?:a?a)*' f; echo st=$?", "st=2\n", REFUSED],
    ["grep -cP '(?<=y=)(\\s?,\\s?)+' f; echo st=$?", "st=2\n", REFUSED],
    ["grep -cPw '(a|ab)*' f; echo st=$?", "st=2\n", REFUSED],
    ["grep -cP '(a|aa)+!' f; echo st=$?", "1\nst=0\n", ""],
  ]);
}, 120000);

it("grep -P '.' matches \\r as PCRE2's does; `[!x]` holds `!`; grep -E, sed -E, awk run (a|a)*b at once", async () => {
  const started = Date.now();
  const out = await shellCases({ files: { f: FILE } }, [
    "grep -oP '(?<=a).(?=b)' f | od -An -c",
    "grep -oP '[!x]' f",
    "grep -cE '(a|a)*b' f",
    "sed -nE '/(a|a)*b/p' f | wc -l",
    "awk '/(a|a)*b/' f | wc -l",
    "awk '{ n += gsub(/(a|a)*b/, \"-\") } END { print n }' f",
  ]);
  expect(out).toEqual([
    ["grep -oP '(?<=a).(?=b)' f | od -An -c", "  \\r  \\n\n", ""],
    ["grep -oP '[!x]' f", "x\n!\nx\nx\n!\n", ""],
    ["grep -cE '(a|a)*b' f", "4\n", ""],
    ["sed -nE '/(a|a)*b/p' f | wc -l", "4\n", ""],
    ["awk '/(a|a)*b/' f | wc -l", "4\n", ""],
    ["awk '{ n += gsub(/(a|a)*b/, \"-\") } END { print n }' f", "6\n", ""],
  ]);
  expect(Date.now() - started).toBeLessThan(60000);
}, 120000);
