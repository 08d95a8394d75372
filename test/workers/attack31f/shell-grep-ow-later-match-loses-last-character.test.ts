/**
 * Issue 20, thirty-first attack run: `grep -ow` prints the second and every later match on a line one character short
 * — `grep -ow foo` on `foo bar foo` prints `foo` then `fo` — so counting words with `grep -ow … | sort | uniq -c`
 * silently splits one word into two rows.
 * Tried: side by side with GNU grep 3.8 in a temp dir: `-ow`, `-onw`, `-owE '[a-z]+'`, `-ow 'foo\|bar'`, `-w`, `-o`,
 * `-ob`, `-iw`, `-x`.
 * Held: the first match of each line, `-w` without `-o` (line selection), `-o` without `-w`, `-ob`.
 * Found (medium — a common counting form (`grep -rowE '[A-Z_]+' | sort | uniq -c`) silently computes other words and
 * counts; 2 of 2 runs).
 * Suggested fix: src/backends/worker-shell/isolate/grep-gnu.ts, `next()`: the inner `-w` regex
 * (`([^W])(?:src)([^W]|$)`) has its trailing group at the same number as the outer one (`wordGroups`), not
 * `wordGroups - 1`; `m[st.wordGroups - 1]` is the leading character's group, whose length is cut off the match's end.
 * Fixed: src/backends/worker-shell/isolate/grep-gnu.ts `next()` reads the trailing guard of the inner `-w` regex
 * (used after the first match of a line) from group `wordGroups`, as the outer one's: both regexes have the leading
 * guard as group 1 (issue 20, run 31, fixer GS; siblings with -i/-E/-F/-b in test/workers/fix31/grep-sed-find-gnu).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep -ow prints every match on a line whole", async () => {
  const out = await shellCases({ files: { "a.txt": "foo bar foo\nbaz\nfoo\nfoobar\nbar foo baz foo\n" } }, [
    "grep -ow foo a.txt",
    "grep -onw foo a.txt",
    "grep -owE '[a-z]+' a.txt | sort | uniq -c",
  ]);
  expect(out).toEqual([
    // Was: "foo\nfo\nfoo\nfoo\nfo\n"
    ["grep -ow foo a.txt", "foo\nfoo\nfoo\nfoo\nfoo\n", ""],
    // Was: "1:foo\n1:fo\n3:foo\n5:foo\n5:fo\n"
    ["grep -onw foo a.txt", "1:foo\n1:foo\n3:foo\n5:foo\n5:foo\n", ""],
    // Was: "      2 bar\n      2 baz\n      2 fo\n      3 foo\n      1 foobar\n"
    ["grep -owE '[a-z]+' a.txt | sort | uniq -c", "      2 bar\n      2 baz\n      5 foo\n      1 foobar\n", ""],
  ]);
});
