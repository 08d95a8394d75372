/**
 * Issue 20, twenty-third attack run (lead engineer, from run 22's left-alone list): under `shopt -s failglob` a
 * pattern that matched nothing skipped one command (or a `for` loop) and the script went on — `echo *.zz; rm -rf
 * build` still ran the `rm`. bash 5.2 (`bash -c`, a non-interactive shell) treats it as an expansion error that
 * ends the shell with status 1; a subshell or command substitution ends alone. Each expectation is what bash
 * 5.2 printed for the same script on this machine (less its `line 1:` prefix).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string, string, number][] = [
  ["shopt -s failglob; echo *.zz; echo after $?", "", "bash: no match: *.zz\n", 1],
  ["f() { shopt -s failglob; echo *.zz; echo in; }; f; echo after $?", "", "bash: no match: *.zz\n", 1],
  ["(shopt -s failglob; echo *.zz; echo in); echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; for x in a *.zz; do echo $x; done; echo after", "", "bash: no match: *.zz\n", 1],
  ['shopt -s failglob; x=$(echo *.zz; echo in); echo "after $? [$x]"', "after 1 []\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; echo f*; echo *.zz || echo or; echo after", "f\n", "bash: no match: *.zz\n", 1],
  ["shopt -s failglob; echo f*; shopt -u failglob; echo *.zz", "f\n*.zz\n", "", 0],
];

it("failglob ends the shell (or the subshell) with status 1, as bash -c", async () => {
  const out = await shellCases({ files: { f: "x\n" } }, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout, stderr, code]) => [stdout, stderr, code]));
});
