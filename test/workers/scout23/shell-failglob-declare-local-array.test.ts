/**
 * Issue 20, twenty-third attack run (scout of fixes): `failglob` (a70b280) ends the shell for command words,
 * `for` words and `arr=(…)`, but not for an array given to a declaration builtin.
 * Tried: `shopt -s failglob; declare -a y=(*.zz); echo after $?`, the same with `readonly r=(*.zz)`, and
 *   `f() { local x=(*.zz); echo in; }; f; echo after $?`, against bash 5.2 `bash -c`.
 * Held: `arr=(*.zz)` and `x+=(*.zz)` end the shell with `no match`, as bash.
 * Found: bash prints `no match: *.zz` and ends the shell with status 1; ours prints nothing on stderr, sets
 *   the array empty and goes on (`after 0`, `in`), so a script relying on failglob runs on with an empty list.
 * Suggested fix: expand the compound-array words of `declare`/`typeset`/`local`/`readonly`/`export` through the
 *   same glob path as `arr=(…)` (throwing the failglob error that now ends the shell).
 * Fixed: a declaration builtin's `NAME=(…)` / `NAME+=(…)` argument is read element by element
 *   (src/backends/worker-shell/isolate/shell-options.ts, `declarationArray`): an element other than `[KEY]=VALUE`
 *   goes through full word expansion as in `NAME=(…)`, so it globs (it did not glob at all: `declare -a y=(*.txt)`
 *   held the pattern), honours nullglob and failglob and splits an unquoted `$v`. Siblings (matches, nullglob,
 *   `+=`, export, splitting, keyed elements as before) in test/workers/fix23/shell-failglob-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: string[] = [
  "shopt -s failglob; declare -a y=(*.zz); echo after $?",
  "shopt -s failglob; readonly r=(*.zz); echo after $?",
  "shopt -s failglob; f() { local x=(*.zz); echo in; }; f; echo after $?",
];

it("failglob ends the shell for declare/readonly/local array words, as bash 5.2", async () => {
  const out = await shellCases({}, cases, { collect: (_ws, _c, r) => [r.stdout, r.exitCode, r.stderr] });
  expect(out).toEqual(cases.map(() => ["", 1, "bash: no match: *.zz\n"]));
});
