/**
 * Issue 20, run 35, fixer SE: where `set -e` (and the ERR trap) judges a status afresh. bash 5.2 exempts a failing
 * command from errexit only where it runs: a non-final operand of `&&`/`||`, a negated pipeline, a condition. A
 * group, an `if` body, a loop body or a `case` arm run in the current shell carry the exemption of their last
 * command out (`{ false && true; }` goes on), but a function call, `source`, `eval` and a command substitution do
 * not: the call is a simple command and its status is judged as such (`f(){ false && true; }; f` stops), and so is
 * a `[[ ]]` or `(( ))` whose word holds the substitution, and the last command of a pipeline (`true | { false &&
 * true; }` stops). Before the fix the shell let the exemption of the last `&&` list inside leak out of each of
 * those (the attacker's test/workers/attack35d/set-e-function-ending-in-failed-and-list-goes-on.test.ts), and of an
 * earlier `&&`/`||` operand into the final one (`{ false && true; } || false` went on).
 * Every row is `[script, stdout, stderr, exit status]` as bash 5.2.15 gives it here (`bash -c SCRIPT` in an empty
 * temp dir; copied from its output, not computed by the code under test), including the forms bash lets go on
 * (`f | cat`, `f || …`, `if f`, `! f`, `$(f; echo in)` without inherit_errexit, `local x=$(…)`, loop/case words).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("set -e judges a function call, source, eval and $( ) afresh, as bash 5.2.15", async () => {
  const table: [string, string, string, number][] = [
    ["set -e; { false && true; } || false; echo after", "", "", 1],
    ["set -e; { false && true; } || (( 0 )); echo after", "", "", 1],
    ["set -e; { false && true; } | (( 0 )); echo after", "", "", 1],
    ["set -e; true | { false && true; }; echo after", "", "", 1],
    ["set -eo pipefail; { false && true; } | cat; echo after", "", "", 1],
    ["set -e; f(){ false && true; }; f | cat; echo after", "after\n", "", 0],
    ["set -e; f(){ false && true; }; cat </dev/null | f; echo after", "", "", 1],
    ["set -e; f(){ false && true; return; }; f; echo after", "", "", 1],
    ["set -e; f(){ false && return; }; f; echo after", "", "", 1],
    ["trap 'echo \"ERR $?\"' ERR; f(){ false && true; }; f; echo after", "ERR 1\nafter\n", "", 0],
    ["set -e; [[ -n \"$(false && true)\" ]]; echo after", "", "", 1],
    ["set -e; (( $(false && true; echo 0) )); echo after", "", "", 1],
    ["set -e; for x in $(false && true); do :; done; echo after", "after\n", "", 0],
    ["set -e; case $(false && true) in x) ;; esac; echo after", "after\n", "", 0],
    ["set -e; f(){ false && true; }; if f; then echo yes; else echo no; fi; echo after", "no\nafter\n", "", 0],
    ["set -e; f(){ false && true; }; while f; do :; done; echo after", "after\n", "", 0],
    ["set -e; f(){ false && true; }; f && echo yes; echo after", "after\n", "", 0],
    ["set -e; f(){ false && true; }; ! f; echo after", "after\n", "", 0],
    ["set -e; f(){ false && true; }; f || true; echo after", "after\n", "", 0],
    ["set -e; f(){ false && true; }; { f; }; echo after", "", "", 1],
    ["set -e; f(){ false && true; }; for i in 1; do f; done; echo after", "", "", 1],
    ["set -e; f(){ false && true; }; if true; then f; fi; echo after", "", "", 1],
    ["set -e; f(){ false && true; }; case a in a) f;; esac; echo after", "", "", 1],
    ["set -e; f(){ false && true; }; (f); echo after", "", "", 1],
    ["set -e; f(){ false && true; }; x=$(f; echo in); echo \"after $x\"", "after in\n", "", 0],
    ["set -e; f(){ false && true; }; true && f; echo after", "", "", 1],
    ["set -e; f(){ if true; then false && true; fi; }; f; echo after", "", "", 1],
    ["set -e; f(){ for i in 1; do false && true; done; }; f; echo after", "", "", 1],
    ["set -e; f(){ i=0; while [ $i -lt 1 ]; do i=1; false && break; done; }; f; echo after", "", "", 1],
    ["set -e; f(){ case a in a) false && true;; esac; }; f; echo after", "", "", 1],
    ["set -e; f(){ { false && true; }; }; f; echo after", "", "", 1],
    ["set -e; f(){ ! true; }; f; echo after", "", "", 1],
    ["set -e; f(){ false || false; }; f; echo after", "", "", 1],
    ["set -e; f(){ true && false; }; f; echo after", "", "", 1],
    ["set -e; eval 'false && true'; echo after", "", "", 1],
    ["set -e; eval 'false && true' || echo caught; echo after", "caught\nafter\n", "", 0],
    ["set -e; printf 'false && true\\n' > s.sh; . ./s.sh; echo after", "", "", 1],
    ["set -e; printf 'false && true\\n' > s.sh; . ./s.sh || echo caught; echo after", "caught\nafter\n", "", 0],
    ["set -e; x=$(false && true); echo after", "", "", 1],
    ["set -e; x=$([ -f nope ] && cat nope); echo \"after [$x]\"", "", "", 1],
    ["set -e; echo \"$(false && true)\"; echo after", "\nafter\n", "", 0],
    ["set -e; local_f(){ local x=$(false && true); echo in; }; local_f; echo after", "in\nafter\n", "", 0],
    ["set -e; { false && true; }; echo after", "after\n", "", 0],
    ["set -e; (false && true); echo after", "", "", 1],
    ["set -e; false && true; echo after", "after\n", "", 0],
    ["set -e; false && true; (( 0 )); echo after", "", "", 1],
    ["set -e; g(){ return 3; }; f(){ false && true; }; g || f; echo after", "", "", 1],
    ["set -e; trap 'echo \"ERR $?\"' ERR; f(){ false && true; }; g(){ f; echo in-g; }; g; echo after", "", "", 1],
    ["set -e; trap 'echo EXIT' EXIT; f(){ false && true; }; f; echo after", "EXIT\n", "", 1],
  ];
  const out = await shellCases({ files: {} }, table.map((row) => row[0]), { collect });
  expect(out).toEqual(table);
}, 120_000);
