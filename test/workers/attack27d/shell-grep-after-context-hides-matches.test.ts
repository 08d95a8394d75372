/**
 * Issue 20, twenty-seventh attack run: with `-A N` (or `-C N`), a matching line that falls inside the after-context of
 * the match before it is printed as a context line — `2-baz foo foo` instead of `2:baz foo foo` — so `grep -n -A1`
 * output marks real matches as context, and a script that keeps the `N:` lines loses them.
 * Tried: side by side with GNU grep 3.8 — `-A`, `-B`, `-C` with -n, overlapping and separate groups, `--` separators.
 * Held: `-B` alone, `-C1` around a single match, `--` between groups that do not touch, `-m` with `-A`.
 * Found (medium — silently wrong line markers (`-` for a match) in a common agent idiom; 2 of 2 runs).
 * Suggested fix: the context printer of the shell's grep (just-bash grep): test every line for a match before
 * treating it as pending after-context; a match resets the after-context counter and is printed with `:`.
 *
 * Fixed: grep-gnu.ts `search` tests every line before it is printed as context: a selected line is
 * printed with `:` and restarts the after-context (fixer SG).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep -A/-C prints a match inside another match's after-context as a match", async () => {
  const out = await shellCases(
    { files: { "a.txt": "foo bar\nbaz foo foo\nqux\nfoo-bar\nfoobar\n", "m.txt": "m1\nc1\nc2\nm2\nm3\nc3\nc4\nc5\nm4\n" } },
    ["grep -A1 -n foo a.txt", "grep -A2 -n m m.txt", "grep -C1 -n 'm[23]' m.txt"],
  );
  expect(out).toEqual([
    // Was: "1:foo bar\n2-baz foo foo\n3-qux\n4:foo-bar\n5-foobar\n".
    ["grep -A1 -n foo a.txt", "1:foo bar\n2:baz foo foo\n3-qux\n4:foo-bar\n5:foobar\n", ""],
    // Was: "…4:m2\n5-m3\n…".
    ["grep -A2 -n m m.txt", "1:m1\n2-c1\n3-c2\n4:m2\n5:m3\n6-c3\n7-c4\n--\n9:m4\n", ""],
    // Was: "3-c2\n4:m2\n5-m3\n6-c3\n".
    ["grep -C1 -n 'm[23]' m.txt", "3-c2\n4:m2\n5:m3\n6-c3\n", ""],
  ]);
});
