/**
 * Fixed in run 40 by fixer f40sh: the ERR trap's action is parsed without line numbers and $LINENO set to the failed pipeline's line (script-builtins.ts errTrap).
 * Issue 20, run 40, attacker a: inside an ERR trap `$LINENO` is always 1 (the line of the trap's own text), not the
 * line of the command that failed, as it is in bash.
 * Reproduction: the script
 *   trap 'echo "err at $LINENO"' ERR
 *   false
 *   echo x
 *   false
 * prints `err at 1`, `x`, `err at 1` today; bash 5.2.15 prints `err at 2`, `x`, `err at 4` (exit 1 both). The same
 * in a function (`err 1 f`, bash `err 3 f`) and under `set -E` (`ERR g 1` / `ERR  1`, bash `ERR g 3` / `ERR  5`).
 * `$LINENO` outside a trap is right (test/workers/shell/bad-input.test.ts); only the trap's expansion is wrong.
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) on this machine; the rows are its stdout and
 * status, copied from that run.
 * Severity: medium — `trap 'echo "error on line $LINENO" >&2' ERR` is the standard bash error-reporting idiom;
 * every report points at line 1, so the agent cannot find the failing command.
 * Cause (likely): the ERR trap is run as a fresh script (just-bash's trap runner, patched by
 * scripts/gen-shell.mjs; the ERR-trap handling of issue 20 run 39, src/backends/worker-shell/isolate/), whose line
 * counter starts at 1 instead of keeping the failed command's line number while the trap's text runs.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; exitCode: number }): Row => [command, r.stdout, r.exitCode];

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` — stdout and exit status.
const ROWS: Row[] = [
  ["trap 'echo \"err at $LINENO\"' ERR\nfalse\necho x\nfalse", "err at 2\nx\nerr at 4\n", 1],
  ["f() {\n  trap 'echo \"err $LINENO ${FUNCNAME[0]}\"' ERR\n  false\n}\nf", "err 3 f\n", 1],
  ["set -E; trap 'echo \"ERR ${FUNCNAME[*]} $LINENO\"' ERR\ng() {\n false\n}\ng", "ERR g 3\nERR  5\n", 1],
  ["trap 'echo \"failed at line $LINENO\"' ERR\n\n\nls /nope 2>/dev/null\necho done", "failed at line 4\ndone\n", 0],
];

it("$LINENO in an ERR trap is the line of the command that failed, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
