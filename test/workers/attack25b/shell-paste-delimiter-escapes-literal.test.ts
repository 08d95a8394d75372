/**
 * Issue 20, twenty-fifth attack run: `paste -d LIST` takes LIST literally, where GNU paste (POSIX) reads `\n`, `\t`,
 * `\\` and `\0` (no delimiter) in it and cycles through the characters: `paste -d '\n' a b` joins with a backslash
 * and prints `hello\hello` (GNU: `hello`, `hello` on two lines — interleaving two files), `paste -d '\0' a b` puts a
 * `\` between (GNU: nothing), and `paste -d '\t,' - - -` uses `\`, `t` and `,` (GNU: TAB then `,`), so its output
 * is `a\tb\tc\\1\t2\t3tnodelim`. Exit 0 each time.
 * Tried: paste -d with one/several characters, \n \t \\ \0, -s with -d, `- -` from stdin.
 * Held: plain characters (`-d,`), -s, `- -`, missing lines in the shorter file.
 * Found (medium — silently wrong output; 2 of 2 runs).
 * Suggested fix: unescape the -d list as GNU paste's collapse_escapes (`\0` empty, `\\` `\n` `\t` `\b` `\f` `\r`
 * `\v`, any other `\c` is c) before cycling through it.
 * Fixed: paste's -d list goes through __textTools.pasteDelimiters (src/backends/worker-shell/isolate/text-tools.ts,
 * SX), GNU's collapse_escapes; a list ending in a lone backslash is refused as GNU (status 1). Siblings:
 * test/workers/fix25/shell-text-tools.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("paste -d reads \\n, \\t, \\\\ and \\0 as GNU paste", async () => {
  const out = await shellCases({ files: { "f.txt": "hello\nworld\n", "t.tsv": "a\tb\tc\n1\t2\t3\nnodelim\n" } }, [
    "paste -d '\\n' f.txt f.txt",
    "paste -d '\\0' f.txt f.txt",
    "paste -d '\\t,' - - - < t.tsv",
    "paste -s -d '\\\\' f.txt",
  ]);
  expect(out).toEqual([
    // Was: "hello\\hello\nworld\\world\n".
    ["paste -d '\\n' f.txt f.txt", "hello\nhello\nworld\nworld\n", ""],
    ["paste -d '\\0' f.txt f.txt", "hellohello\nworldworld\n", ""],
    // Was: "a\tb\tc\\1\t2\t3tnodelim\n".
    ["paste -d '\\t,' - - - < t.tsv", "a\tb\tc\t1\t2\t3,nodelim\n", ""],
    ["paste -s -d '\\\\' f.txt", "hello\\world\n", ""],
  ]);
});
