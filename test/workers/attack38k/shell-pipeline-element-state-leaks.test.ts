/**
 * Issue 20, thirty-eighth attack run (found by fixer SE2 / the lead): shell state set inside a pipeline element
 * leaks into the shell. bash runs every element of a pipeline in a subshell (all but the last under `shopt -s
 * lastpipe`), so a `cd`, `set -e`/`set -u`, `shopt`, `umask`, `unset -f` or `trap … EXIT` inside `a | b` or
 * `… | while read …; do …; done` ends with the element; the shell kept only variables and arrays apart and let the
 * rest through: `ls | while read d; do cd "$d"; done; pwd` leaves the shell in the last directory listed (a later
 * `rm -rf *` works on the wrong directory), `set -e` inside an element ends the whole script, an EXIT trap set in an
 * element runs at the end of the script instead of at the end of the element.
 * Tried: side by side with bash 5.2.15 in a temp dir holding a directory `a`: the scripts below.
 * Held: variables and arrays assigned in an element stay in it; aliases.
 * Found (high — `… | while read d; do cd "$d"; …; done` is an everyday loop, and the cwd it leaves behind is where
 * every later relative path and `rm` acts; 2 of 2 runs): each script below differs from bash 5.2.15 (recorded with
 * `bash --norc --noprofile -c` in /workspace-like dir): pwd /workspace/a, "" with status 1, unbound variable 127,
 * nullglob on, umask 0077, the function unset, "end\ntrapped".
 * Also (low): `shopt -s inherit_errexit` is accepted and does nothing: `$( )` under `set -e` does not stop at a
 * failing command.
 * Suggested fix: in just-bash's pipeline executor (`Sf`, patched by scripts/gen-shell.mjs) run each element bash
 * runs in a subshell with the isolation a `( … )` gets (its state snapshot, keepUmask, isolate subshell() traps).
 * Fixed: just-bash's pipeline executor runs each element bash runs in a subshell through
 *   isolate/pipeline-subshell.ts pipelineElement — the `( … )` state snapshot (cwd, options, shopt, functions,
 *   attributes, descriptors) and umask put back after, its own $BASHPID and trap table (isolate/script-builtins.ts
 *   subshell), reads of shared descriptors and group stdin kept — patched by scripts/gen-shell.mjs SP38_PATCHES;
 *   `inherit_errexit` became a real shopt option (read by isolate/shell-options.ts commandSubstitution) and option
 *   listings print bash's "%-15s\t%s" (issue 20, run 38, fixer SP). Siblings:
 *   test/workers/fix38/shell-pipeline-subshell-state.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("shell state set in a pipeline element stays in the element, as bash 5.2", async () => {
  const scripts = [
    "echo x | { cd a; }; pwd",
    "echo x | cd a; pwd",
    "ls | while read d; do cd \"$d\"; done; pwd",
    "echo x | { set -e; false; echo no; }; echo \"after $?\"",
    "echo x | { set -u; }; echo \"[$undefined_var]\"",
    "echo x | { shopt -s nullglob; }; echo zz*",
    "echo x | { umask 077; }; umask",
    "f() { :; }; echo x | { unset -f f; }; type -t f",
    "echo x | { trap \"echo trapped\" EXIT; }; echo end",
  ];
  const out = await shellCases({ dirs: ["a"] }, scripts, { collect });
  expect(out).toEqual([
    [scripts[0], "/workspace\n", "", 0],
    [scripts[1], "/workspace\n", "", 0],
    [scripts[2], "/workspace\n", "", 0],
    [scripts[3], "after 1\n", "", 0],
    [scripts[4], "[]\n", "", 0],
    [scripts[5], "zz*\n", "", 0],
    [scripts[6], "0022\n", "", 0],
    [scripts[7], "function\n", "", 0],
    [scripts[8], "trapped\nend\n", "", 0],
  ]);
});

it("shopt -s inherit_errexit makes $( ) stop at a failure under set -e, as bash 5.2", async () => {
  const scripts = [
    "shopt -s inherit_errexit; set -e; echo \"[$(false; echo no)]\"",
    "shopt -s inherit_errexit; set -e; x=$(false; echo no); echo \"got $x\"",
  ];
  const out = await shellCases({}, scripts, { collect });
  expect(out).toEqual([
    [scripts[0], "[]\n", "", 0],
    [scripts[1], "", "", 1],
  ]);
});
