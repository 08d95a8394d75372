/**
 * Issue 20, twenty-seventh attack run: grep's basic regexes ignore GNU's `\+`, `\?`, `\<` and `\>`: `grep 'ab\+c'`,
 * `grep 'ab\?c'` and `grep '\<foo\>'` match nothing and exit 1, where GNU grep (and the shell's own sed, which
 * takes `\+`) match. No error: a script's `if grep -q 'x\+' f` silently takes the other branch.
 * Tried: side by side with GNU grep 3.8 — BRE `\+`, `\?`, `\|`, `\{n\}`, `\<`, `\>`, `\b`, `\B`, classes; the
 * same through -E (`+`, `?`); -c and -o with them.
 * Held: `\|`, `\{2\}`, `\b`, `\B`, `[[:alpha:]]\{4\}`, ERE `+`/`?`/`{n}`, `-F` literals.
 * Found (medium — silently no match for GNU BRE operators agents write often; 2 of 2 runs).
 * Suggested fix: the BRE → JS/RE2 translation of the shell's grep: read `\+` as `+`, `\?` as `?`, `\<` as a start of
 * word (`\b(?=\w)`) and `\>` as an end of word (`\b(?<=\w)`, or RE2's equivalent), as sed's translation does for `\+`.
 *
 * Fixed: grep's basic and extended patterns are translated by the POSIX translator expr already used
 * (src/backends/worker-shell/isolate/mode-expr.ts `translatePosix`, extended for ERE), which reads `\+ \? \< \>`
 * `\{,n\}` as GNU and gives GNU's errors; grep-gnu.ts `compile` joins the patterns (fixer SG).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep reads GNU BRE \\+, \\?, \\< and \\> as GNU grep", async () => {
  const out = await shellCases({ files: { "b.txt": "abc\nabbc\nac\nfoo bar\nfoobar\n" } }, [
    "grep 'ab\\+c' b.txt; echo $?",
    "grep 'ab\\?c' b.txt; echo $?",
    "grep '\\<foo\\>' b.txt; echo $?",
    "grep -c 'foo\\>' b.txt",
  ]);
  expect(out).toEqual([
    // Was: "1\n".
    ["grep 'ab\\+c' b.txt; echo $?", "abc\nabbc\n0\n", ""],
    // Was: "1\n".
    ["grep 'ab\\?c' b.txt; echo $?", "abc\nac\n0\n", ""],
    // Was: "1\n".
    ["grep '\\<foo\\>' b.txt; echo $?", "foo bar\n0\n", ""],
    // Was: "0\n".
    ["grep -c 'foo\\>' b.txt", "1\n", ""],
  ]);
});
