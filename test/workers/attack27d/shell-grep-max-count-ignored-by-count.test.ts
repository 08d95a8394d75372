/**
 * Issue 20, twenty-seventh attack run: grep's `-m NUM` is ignored by `-c` and by `-m 0`: `grep -m1 -c foo` counts
 * every matching line (4, GNU 1) and `grep -m 0 foo` prints every match with status 0, where GNU grep reads no line
 * and exits 1.
 * Tried: side by side with GNU grep 3.8 — `-m` with -c, -v, -l, -A, and `-m 0`.
 * Held: `-m1`/`-m2` with plain output and with `-A`, `-m1 -l`, `--max-count=1 -v`, `-c -m1 -v`.
 * Found (low — a wrong count / a printed match where none is asked for, rare combinations; 2 of 2 runs).
 * Suggested fix: the shell's grep (just-bash grep): stop counting at `-m` in the `-c` path too, and treat `-m 0` as
 * "stop before the first line" (no output, status 1) instead of "no limit".
 *
 * Fixed: grep-gnu.ts `search` stops counting at `-m` (also for -c), and `-m 0` reads nothing and exits 1
 * (the option's default is now "unset", not 0; fixer SG).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep -m limits -c and -m 0 reads nothing, as GNU grep", async () => {
  const out = await shellCases({ files: { "a.txt": "foo bar\nbaz foo foo\nqux\nfoo-bar\nfoobar\n" } }, [
    "grep -m1 -c foo a.txt",
    "grep -m2 -c foo a.txt",
    "grep -m 0 foo a.txt; echo $?",
  ]);
  expect(out).toEqual([
    // Was: "4\n".
    ["grep -m1 -c foo a.txt", "1\n", ""],
    // Was: "4\n".
    ["grep -m2 -c foo a.txt", "2\n", ""],
    // Was: "foo bar\nbaz foo foo\nfoo-bar\nfoobar\n0\n".
    ["grep -m 0 foo a.txt; echo $?", "1\n", ""],
  ]);
});
