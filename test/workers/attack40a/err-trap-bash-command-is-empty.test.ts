/**
 * Fixed in run 40 by fixer f40sh: each simple command is noted (not inside a trap) and $BASH_COMMAND prints it as bash (script-builtins.ts bashCommand).
 * Issue 20, run 40, attacker a: `$BASH_COMMAND` is always empty, also inside an ERR trap.
 * Reproduction: `trap 'echo "failed: $BASH_COMMAND"' ERR\nls /nope 2>/dev/null\necho done` prints `failed: ` and
 * `done` today; bash 5.2.15 prints `failed: ls /nope 2> /dev/null` and `done` (the command that failed, as bash
 * prints it back). `echo $BASH_COMMAND` prints an empty line (bash: `echo $BASH_COMMAND`).
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) on this machine; the rows are its stdout and
 * status, copied from that run.
 * Severity: low/medium — `trap 'echo "command \"$BASH_COMMAND\" failed"' ERR` is a common error-reporting idiom;
 * the report names no command.
 * Cause (likely): just-bash never sets BASH_COMMAND (no variable for the command being run; the ERR trap runner
 * patched in by scripts/gen-shell.mjs does not set it either).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; exitCode: number }): Row => [command, r.stdout, r.exitCode];

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` — stdout and exit status.
const ROWS: Row[] = [
  ["trap 'echo \"failed: $BASH_COMMAND\"' ERR\nls /nope 2>/dev/null\necho done", "failed: ls /nope 2> /dev/null\ndone\n", 0],
  ["trap 'echo \"failed: $BASH_COMMAND\"' ERR\nfalse\necho done", "failed: false\ndone\n", 0],
  ["echo $BASH_COMMAND", "echo $BASH_COMMAND\n", 0],
];

it("$BASH_COMMAND is the command being run (in an ERR trap: the one that failed), as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
