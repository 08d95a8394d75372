/**
 * Issue 20, thirty-fifth attack run: under `set -e`, a function whose last command is an `&&` list that failed
 * (`build() { make && make test; }`, `f() { [[ -f x ]] && …; }`) returns a non-zero status, and bash ends the script
 * at the call with that status — the call is a simple command, not part of any list. The shell goes on after the
 * call and the script ends 0: a failed step is reported as success. The exemption that bash gives the `&&` list
 * inside the function leaks out of it into the caller's statement (also through `x=$(f)`, a nested call, and the
 * ERR trap, which never runs); likewise a `source`d file or `eval` text ending in a failed `&&` list, and a function
 * ending in `! true`; and a command substitution whose text ends in one — `x=$([ -f cfg ] && cat cfg)` (its
 * status 1 is the assignment's, and bash ends there) or `[[ -n "$(false && true)" ]]` (the `[[ ]]` itself fails).
 * Tried: side by side with bash 5.2.15 in a temp dir: `set -e` with `false && true` / `[[ ]] && …` / `[ ] && return`
 * as the last command of a function, called plainly, inside another function, in `x=$(f)`, with an ERR and EXIT
 * trap, as a group `{ …; }`, subshell `( … )`, loop body, `if` body, `case` arm, `f | cat`, `f || …`, `if f`,
 * `bash -c`; also `set -e`/pipefail/`((i++))`/`let`/`local x=$(false)`, traps (EXIT/ERR, in subshells and `$( )`),
 * here-docs, redirections (`>|`, `<>`, `&>>`, `{fd}>`, `exec 3>f`), PIPESTATUS, lastpipe, `|&`, getopts, read
 * (-r -a -d -n -N IFS), printf -v, eval, source with arguments, `&` + `wait -n`/`wait $!`, shift, "$@"/$*,
 * arithmetic (overflow, base#, /0, `(( ))` status).
 * Held: the group, subshell, loop, `if` body, `case` arm, pipeline, `||`-guarded and `if` forms agree with bash; so
 * does everything else listed above except what the report lists.
 * Found (medium — `set -e` plus a function ending in `a && b` is an everyday script shape — a build or check step;
 * when its first command fails bash stops with 1, the shell runs the rest and reports 0, so an agent reads a
 * failed run as a pass; 2 of 2 runs): the five scripts below print `after` (or `build ok`, `in-g`) and end 0;
 * bash prints nothing after the call and ends 1 (the ERR trap printing `ERR 1`); the same for the six siblings.
 * Suggested fix: just-bash's executeStatement reads `state.errexitSafe` (left set by the function body's last
 * `&&` list) after running the pipeline (`a=this.ctx.state.errexitSafe`) and skips errexit when it is true; clear
 * it when a function call returns (callFunction, or CALL_STATE's restore in isolate/shell-options.ts, which now
 * carries it back), and when `source`, `eval` and a command substitution end, so the caller judges the status
 * afresh, as it already does for `( … )`.
 * Fixed: the exemption now ends where bash's does — scripts/gen-shell.mjs wraps just-bash's executeCommandInner and
 * executePipeline in errexitScope / errexitPipeline (src/backends/worker-shell/isolate/shell-options.ts), which
 * clear `state.errexitSafe` before each command and after every command but a group, `if`, loop or `case` (so after
 * a function call, `source`, `eval`, `x=$(…)`, `[[ ]]`, `(( ))`, a subshell), and after a pipeline of more than one
 * command (issue 20, run 35, fixer SE). Siblings: test/workers/fix35/set-e-call-boundaries.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("set -e ends the script at a function whose last && list failed, as bash 5.2", async () => {
  const scripts = [
    "set -e; build() { false && echo tested; }; build; echo \"build ok\"",
    "set -e; f(){ [[ -f nope ]] && echo y; }; f; echo after",
    "set -e; f(){ false && true; }; x=$(f); echo after",
    "set -e; f(){ false && true; }; g(){ f; echo in-g; }; g; echo after",
    "set -e; trap 'echo \"ERR $?\"' ERR; f(){ false && true; }; f; echo after",
    "set -e; echo 'false && true' > s.sh; source s.sh; echo after",
    "set -e; eval 'false && true'; echo after",
    "set -e; f(){ ! true; }; f; echo after",
    "set -e; x=$([ -f nope ] && cat nope); echo \"after [$x]\"",
    "set -e; x=$(false && true); echo after",
    "set -e; [[ -n \"$(false && true)\" ]]; echo after",
  ];
  const out = await shellCases({ files: {} }, scripts, { collect });
  // Was: ["…", "build ok\n", "", 0], ["…", "after\n", "", 0], ["…", "after\n", "", 0], ["…", "in-g\nafter\n", "", 0],
  // ["…", "after\n", "", 0] (no ERR line), and "after\n", 0 for `source`, `eval` and `! true` as the last command;
  // "after []\n", 0 for `x=$([ -f nope ] && cat nope)`, and "after\n", 0 for the last two.
  expect(out).toEqual([
    [scripts[0], "", "", 1],
    [scripts[1], "", "", 1],
    [scripts[2], "", "", 1],
    [scripts[3], "", "", 1],
    [scripts[4], "ERR 1\n", "", 1],
    [scripts[5], "", "", 1],
    [scripts[6], "", "", 1],
    [scripts[7], "", "", 1],
    [scripts[8], "", "", 1],
    [scripts[9], "", "", 1],
    [scripts[10], "", "", 1],
  ]);
}, 60_000);

it("the forms bash lets go on still go on", async () => {
  const scripts = [
    "set -e; { false && true; }; echo after",
    "set -e; f(){ false && true; }; f || echo caught; echo after",
  ];
  const out = await shellCases({ files: {} }, scripts, { collect });
  expect(out).toEqual([
    [scripts[0], "after\n", "", 0],
    [scripts[1], "caught\nafter\n", "", 0],
  ]);
}, 60_000);
