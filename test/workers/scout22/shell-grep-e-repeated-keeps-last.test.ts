/**
 * Issue 20, twenty-second attack run (scout of fixes): `grep -e x -e y` searches for `y` only.
 * Tried: beside 7c9cff2 (grep -r as GNU grep 3.8), the pattern operands every grep takes, side by side with GNU grep
 * 3.8: two `-e` patterns, with and without `-r`, and with `-c`.
 * Held: a single `-e`, and `-f`-less plain patterns, match as GNU.
 * Found (medium — a silent wrong answer: lines matching every `-e` but the last are dropped, exit status and counts
 * follow, so `grep -e TODO -e FIXME` reports no TODO; deterministic; not from the fix — just-bash's option loop
 * assigns each `-e` over the last, chunk `if(r==="-e"&&s+1<t.length){L=t[++s];continue}`):
 * `grep -e x -e y a.txt b.md` prints `b.md:y` (GNU `a.txt:x` `b.md:y`), `grep -r -e x -e y .` only `./b.md:y`,
 * `grep -c -e x -e y a.txt b.md` `a.txt:0` / `b.md:1` (GNU 1 / 1).
 * Suggested fix: a gen-shell patch collecting every `-e`/`--regexp=` into the pattern list (as `--file=` patterns
 * are joined), or refuse a second `-e` with status 2 until then.
 * Fixed: scripts/gen-shell.mjs ("grep -e patterns") joins every `-e PAT`, `--regexp PAT`, `--regexp=PAT`, `-ePAT` and
 * `-ie PAT` into the pattern list with a newline (src/backends/worker-shell/isolate/path-errors.ts grepPattern), as GNU
 * reads each `-e` as newline-separated patterns, beside the `-f FILE` ones; `-e`/`-f` without an argument is GNU's
 * three-line complaint, status 2. Siblings (egrep, fgrep, -o, -v, -f with -e, the forms of -e) in
 * test/workers/fix22/shell-grep-patterns-and-names.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d"], files: { "a.txt": "x\n", "d/f.txt": "x\n", "b.md": "y\n" } };
// What GNU grep 3.8 prints for each (checked on Linux beside this test).
const cases: [string, string, string][] = [
  ["grep -e x -e y a.txt b.md", "a.txt:x\nb.md:y\n", ""],
  ["grep -r -e x -e y . | sort", "./a.txt:x\n./b.md:y\n./d/f.txt:x\n", ""],
  ["grep -c -e x -e y a.txt b.md", "a.txt:1\nb.md:1\n", ""],
];

it("grep with two -e patterns matches either, as GNU grep", async () => {
  expect(await shellCases(TREE, cases.map(([command]) => command))).toEqual(cases);
}, 60_000);
