/**
 * Issue 20, thirty-eighth attack run: `exit` with no argument inside an EXIT trap exits, in bash 5.2, with the
 * status the shell was ending with when the trap began (`exit 3`, the failing command under `set -e`, the last
 * command's status at the script's end). The shell exits with the status of the trap's own last command instead —
 * usually 0 from the cleanup (`rm -f lock`, `echo`) — so `trap 'rm -f "$lock"; exit' EXIT` turns every failed
 * script into a success: `exit 3` ends 0, `set -e` stopping at `cat nope` ends 0. (`exit $?` as the trap's
 * first command, and `trap 'exit' EXIT` alone, agree with bash.)
 * Tried: side by side with bash 5.2.15: EXIT traps ending in `exit`, `exit N`, `exit $rc`, `return`, `false`, set
 * by a function, in a subshell and `$( )`, with `set -e`/`set -u` ending the shell, `exec`; see the sibling
 * assignment-keeps-previous-failed-status.test.ts for the rest of the angle.
 * Held: `exit N` and `exit $rc` in the trap, the trap alone `exit`, subshell and `$( )` traps, set -u ending the shell.
 * Found (medium — the EXIT-trap cleanup ending in a bare `exit` is a common idiom; a failed script (exit 3, a
 * failing step under `set -e`) is reported to the agent as exit 0; 2 of 2 runs): the four scripts below end 0;
 * bash ends them 1, 3, 2 and 1.
 * Suggested fix: where the shell runs the EXIT trap (the trap runner in src/backends/worker-shell/isolate, trap
 * code), keep the status the shell was ending with and let an argument-less `exit` inside the trap use it (bash's
 * `running_trap`/`trap_saved_exit_value`) instead of `$?`.
 * Fixed: the trap runner (isolate/script-builtins.ts runAction) records the running trap and the status it began
 *   with; an argument-less `exit` in the EXIT trap and `return` in any trap take it (trapSavedStatus, patched into
 *   just-bash's exit/return builtins by scripts/gen-shell.mjs SE38_PATCHES), and `set -e` in a trap's action ends the
 *   shell with the failing status (errexitEndsTrap) (issue 20, run 38, fixer SE). Siblings:
 *   test/workers/fix38/shell-status-assignments-and-trap-exit.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("a bare exit in an EXIT trap keeps the status the shell was ending with, as bash 5.2", async () => {
  const scripts = [
    "trap 'echo t; exit' EXIT; false",
    "trap 'rm -f lock; exit' EXIT; touch lock; exit 3",
    "cleanup(){ rm -f lock; exit; }; trap cleanup EXIT; touch lock; exit 2",
    "trap 'rm -f lock; exit' EXIT; touch lock; set -e; cat nope; echo no",
  ];
  const out = await shellCases({ files: {} }, scripts, { collect });
  // Was: ["…", "t\n", "", 0], ["…", "", "", 0], ["…", "", "", 0], ["…", "", "cat: nope: …", 0].
  expect(out).toEqual([
    [scripts[0], "t\n", "", 1],
    [scripts[1], "", "", 3],
    [scripts[2], "", "", 2],
    [scripts[3], "", "cat: nope: No such file or directory\n", 1],
  ]);
});
