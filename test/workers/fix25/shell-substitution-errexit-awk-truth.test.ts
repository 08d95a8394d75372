/**
 * Issue 20, twenty-fifth attack run (lead): two of run 24's leads left alone, fixed through scripts/gen-shell.mjs
 * entries marked L25.
 *
 * - A command substitution runs with `set -e` off inside (bash 5.2 outside POSIX mode, without
 *   `shopt -s inherit_errexit`): `set -e; x=$(false; echo y)` sets `x` to `y`; just-bash ended the shell at the
 *   `false` inside (isolate/shell-options.ts commandSubstitution).
 * - awk decides a condition's truth as POSIX awk: a string constant `"0"` is true, a field `0.0` or ` 0 ` false, an
 *   unset variable false; just-bash took every string but `""` and `"0"` as true (isolate/awk.ts truthOf).
 *
 * Every expected stdout, stderr and status is what bash 5.2.15 and mawk 1.3.4 printed for the same command.
 * `set -o` prints "%-15s\t%s" (a tab, as bash): the greps match `errexit[[:space:]]*on`, since bash 5.2.15 counts 0
 *   lines for the earlier `errexit *on` (issue 20, run 38, fixer SP).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("set -e is off inside $(…): the substitution's status is its last command's, the caller's option is kept", async () => {
  const expected = [
    ['set -e; x=$(false; echo y); echo "[$x]"; set -o | grep -c "errexit[[:space:]]*on"', "[y]\n1\n", "", 0],
    ['set -e; echo "$(false; echo y)"; echo "$(false)"; echo after', "y\n\nafter\n", "", 0],
    ['set -e; f(){ false; echo in; }; x=$(f); echo "[$x]"', "[in]\n", "", 0],
    ['set -e; x=$(false); echo "not reached"', "", "", 1],
    ['x=$(set -e; false; echo y); echo "[$x]"; set -o | grep -c "errexit[[:space:]]*off"', "[]\n1\n", "", 0],
    ['set -e; if x=$(false; echo y); then echo "then $x"; fi; echo "$(exit 3)" "$?"', "then y\n 3\n", "", 0],
  ];
  expect(await shellCases({ files: {} }, expected.map(([command]) => command as string), { collect })).toEqual(expected);
});

it("awk conditions: a string constant or concatenation by being non-empty, input fields and their copies by value", async () => {
  const expected = [
    [`awk 'BEGIN{ if ("0") print "t"; else print "f"; x = "0.0"; if (x) print "t2"; if (!"0") print "no"; print ("0" ? "y" : "n"), ("0" && 1), (0 || ""), !u }'`, "t\nt2\ny 1 0 1\n", "", 0],
    [`printf '0.0\\n 0 \\n0x\\n\\n1\\n' | awk '{ print ($1 ? "t" : "f"), !$0; if ($0) print "line", NR }'`, "f 1\nf 1\nt 0\nline 3\nf 1\nt 0\nline 5\n", "", 0],
    [`printf '0.0\\n-0\\n+1e0\\n' | awk '$1'`, "+1e0\n", "", 0],
    [`printf '0.0\\n1\\n' | awk '{x = $1; y = x ""} x {print "x", NR} y {print "y", NR}'`, "y 1\nx 2\ny 2\n", "", 0],
    [`printf '0.0\\n2\\n' | awk '{n = 0; while ($1 && n < 3) { n++; $1 = $1 - 1 } print n; for (i = 0; $0 ""; i++) $0 = ""; print i}'`, "0\n1\n2\n1\n", "", 0],
  ];
  expect(await shellCases({ files: {} }, expected.map(([command]) => command as string), { collect })).toEqual(expected);
});
