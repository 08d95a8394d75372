/**
 * Issue 20, thirty-eighth attack run: a simple command of assignments only, with no command substitution
 * (`rc=$?`, `x=1`, `found=no`), has status 0 in bash 5.2; the shell gives it the status of the command before it.
 * So `false; x=1; echo $?` prints 1, and under `set -e` the everyday idioms `cmd || rc=$?`, `cmd || { rc=$?; …; }`,
 * `cmd && ok=1 || ok=0`, `grep -q … || found=no` and `if cmd; then …; else rc=$?; …; fi` end the whole script at the
 * assignment with the old failure — the handler meant to catch the failure is what stops the script. The same
 * assignment as the first line of an EXIT or ERR trap (`trap 'rc=$?; cleanup; exit $rc' EXIT`) ends the trap at once
 * under `set -e`: the cleanup never runs and the temp file it should remove stays.
 * Tried: side by side with bash 5.2.15 in a temp dir: set -e/-u/-o pipefail and where `set -e` does not apply,
 * functions (local, FUNCNAME, dynamic scope, nested definitions, recursion), EXIT/ERR traps in shells, subshells,
 * `$( )` and functions, here-docs (quoted/unquoted/`<<-`, two on a line, `$( )` holding `)`), redirections (`>|`,
 * `<>`, `&>>`, `{fd}>`, `exec 3>f`/`3>&-`, `exec >`), PIPESTATUS, lastpipe, `|&`, process substitution, getopts,
 * read (-r -a -d -n -N -t, IFS), printf -v, eval, source with arguments, `&`/`wait`/`wait -n`/`$!`, timeout,
 * shift, "$@"/$*, arithmetic (overflow, base#, /0, `(( ))` status, `let`).
 * Held: everything above but what the report lists; `declare`/`local`/`export` assignments are 0 as in bash.
 * Found (high — `cmd || rc=$?` and `trap 'rc=$?; …' EXIT` are how scripts catch and clean up a failure; the shell
 * ends the script (or the trap) with the old status, so the handler and the cleanup never run; 2 of 2 runs): the
 * scripts below end with the failing command's status and print nothing; bash prints the handler's lines, 0.
 * Suggested fix: the assignment-only path of just-bash's executeSimpleCommand returns `state.lastExitCode`; give it
 * `noCommandStatus(state, pidBefore)` (src/backends/worker-shell/isolate/command-word.ts), the status of the last
 * command substitution its words ran, else 0, as the no-field command word already does (scripts/gen-shell.mjs).
 * Fixed: the assignment/redirection-only paths of just-bash's executeSimpleCommandInner take
 *   `noCommandStatus(state, pidBefore)` (isolate/command-word.ts) — the last command substitution of the assignments,
 *   else 0 — patched by scripts/gen-shell.mjs SE38_PATCHES (issue 20, run 38, fixer SE). Siblings:
 *   test/workers/fix38/shell-status-assignments-and-trap-exit.test.ts.
 */
import { expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("an assignment without a command substitution has status 0, as bash 5.2", async () => {
  const scripts = [
    "false; x=1; echo $?",
    "(exit 3); x=1 y=2; echo $?",
    "set -e; ls nope 2>/dev/null || status=$?; echo \"status=$status\"",
    "set -e; false || { rc=$?; echo \"failed $rc\"; }; echo after",
    "set -e; false && ok=1 || ok=0; echo \"ok=$ok\"",
    "set -e; grep -q zz /dev/null || found=no; echo \"found=$found\"",
    "set -e; if false; then :; else rc=$?; echo \"else $rc\"; fi; echo end",
    "set -e; trap 'rc=$?; echo \"cleanup rc=$rc\"; rm -f tmp.txt; exit $rc' EXIT; echo x > tmp.txt; cat nope; echo no",
    "set -e; trap 'r=$?; echo \"err $r\"' ERR; false",
  ];
  const out = await shellCases({ files: {} }, scripts, {
    collect: async (ws: Workspace, command, r) => [...collect(ws, command, r), await ws.fs.stat("/workspace/tmp.txt").then(() => true, () => false)],
  });
  // Was: ["…", "1\n", "", 0], ["…", "3\n", "", 0], then "" with status 2, 1, 1, 1, 1 for the set -e forms (nothing
  // after the failing command printed); the EXIT trap printed nothing and left tmp.txt (exists: true), status 1;
  // the ERR trap printed nothing, status 1.
  expect(out).toEqual([
    [scripts[0], "0\n", "", 0, false],
    [scripts[1], "0\n", "", 0, false],
    [scripts[2], "status=2\n", "", 0, false],
    [scripts[3], "failed 1\nafter\n", "", 0, false],
    [scripts[4], "ok=0\n", "", 0, false],
    [scripts[5], "found=no\n", "", 0, false],
    [scripts[6], "else 1\nend\n", "", 0, false],
    [scripts[7], "cleanup rc=1\n", "cat: nope: No such file or directory\n", 1, false],
    [scripts[8], "err 1\n", "", 1, false],
  ]);
});
