/**
 * Issue 20, twenty-fifth attack run: a `cut` list GNU refuses with status 1 ends the whole shell run instead.
 * just-bash's cut parses `-f`/`-c` lists by throwing its execution-limit error ("cut: invalid range", category
 * `array_elements`), and a limit error is not a command failure: it unwinds the interpreter, so the run ends with
 * `bash: cut: invalid range`, exit 126, and nothing after the cut runs — not the `|| fallback`, not the next line.
 * `cut -f 3-1 t.tsv; echo "st=$?"` prints nothing (GNU cut 9.1: `cut: invalid decreasing range` + the `Try` line on
 * stderr, `st=1` on stdout, the script goes on). Same for `cut -c 0` and `cut -f x`.
 * Tried: cut -c 0, -f 3-1, -f x, -f 0-2 with a following `echo`, inside `if`/`||`; paste/tr/fold/seq/expr/split/
 * head/tail with invalid numbers (each fails with its own status and the script goes on).
 * Held: every other command tried with an invalid number or range (fold -w 0, seq 1 0 1, head -c x, expr 1 / 0).
 * Found (medium — a typo in a field list silently kills the rest of a script, error handlers included; 2 of 2 runs).
 * Suggested fix: in the gen-shell patch of cut, return `{ exitCode: 1, stderr }` with GNU's messages ("invalid
 * decreasing range", "fields and positions are numbered from 1", "invalid field value ‘x’", then "Try 'cut --help'
 * for more information.") instead of throwing the limit error class; keep throwing only for the real range-count limit.
 * Fixed: scripts/gen-shell.mjs (SX) checks cut's options before reading input with __textTools.cutOptions
 * (src/backends/worker-shell/isolate/text-tools.ts), which reads the list as GNU's set_fields and returns GNU's
 * message with the `Try` line and status 1 (also two lists, a delimiter of more than one byte, -s without -f); only
 * the range-count limit still throws. Siblings: test/workers/fix25/shell-text-tools.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TRY = "Try 'cut --help' for more information.\n";

it("a cut list GNU refuses fails cut (status 1) and the script goes on", async () => {
  const out = await shellCases({ files: { "t.tsv": "a\tb\tc\n1\t2\t3\n", "f.txt": "hello\n" } }, [
    'cut -f 3-1 t.tsv; echo "st=$?"',
    'cut -c 0 f.txt || echo fallback',
    'echo before; cut -f 0-2 t.tsv; echo after',
  ]);
  expect(out).toEqual([
    // Was: ["", "bash: cut: invalid range\n"] and the run's exit code 126.
    ['cut -f 3-1 t.tsv; echo "st=$?"', "st=1\n", `cut: invalid decreasing range\n${TRY}`],
    ["cut -c 0 f.txt || echo fallback", "fallback\n", `cut: byte/character positions are numbered from 1\n${TRY}`],
    ["echo before; cut -f 0-2 t.tsv; echo after", "before\nafter\n", `cut: fields are numbered from 1\n${TRY}`],
  ]);
});
