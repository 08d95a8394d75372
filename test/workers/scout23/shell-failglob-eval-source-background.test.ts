/**
 * Issue 20, twenty-third attack run (scout of fixes): `failglob` now ends the shell (a70b280), but also where
 * bash 5.2 only fails the one command.
 * Tried: under `shopt -s failglob`, a pattern matching nothing inside `eval '…'`, a sourced file (`. ./s.sh`,
 *   `source s.sh`) and a background job (`echo *.zz &`), then `echo after $?`, against bash 5.2 `bash -c`.
 * Held: a plain command, a function, `for` words, `(…)` and `$(…)` end as bash does (fix23 test).
 * Found: bash reports `no match` and goes on (`eval`/`source` give status 1, the background job is a subshell so
 *   the script goes on with `after 0`); ours ends the whole script with status 1, so `after` never prints. Before
 *   a70b280 eval/source skipped the command and went on, as bash: a regression.
 * Suggested fix: in the failglob patch, turn the glob error into the shell-ending ExitError only outside `eval` /
 *   `source` (there: status 1 for that builtin, as bash's parse_and_execute), and let a background (`&`) command
 *   end only its own job.
 * Fixed: the failglob error that ends the shell is marked (src/backends/worker-shell/isolate/shell-options.ts,
 *   `expansionExit`); `eval` and `source`/`.` stop their own text at a marked one and return 1 with what it
 *   printed so far, as bash 5.2's parse_and_execute. A background statement (`… &`) now runs as a subshell job
 *   (`backgroundJob`): its status is 0, `$!` names it and `wait $!` gives the job's status (`wait` was always 0).
 *   Siblings (nested eval, eval of a function, source in a function, `exit`/`cd`/assignments in a job, `wait`
 *   operands) in test/workers/fix23/shell-failglob-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string, number][] = [
  ["shopt -s failglob; eval 'echo *.zz; echo in'; echo after $?", "after 1\n", 0],
  ["shopt -s failglob; echo 'echo *.zz; echo in' > s.sh; . ./s.sh; echo after $?", "after 1\n", 0],
  ["shopt -s failglob; echo 'echo *.zz; echo in' > s.sh; source s.sh; echo after $?", "after 1\n", 0],
  ["shopt -s failglob; echo *.zz & wait; echo after $?", "after 0\n", 0],
];

it("failglob in eval, a sourced file or a background job fails only that command, as bash 5.2", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), {
    collect: (_ws, _c, r) => [r.stdout, r.exitCode, r.stderr],
  });
  expect(out).toEqual(cases.map(([, stdout, code]) => [stdout, code, "bash: no match: *.zz\n"]));
});
