/**
 * Issue 20, twenty-third attack run (fixer SF): siblings of the scout's failglob findings
 * (test/workers/scout23/shell-failglob-*.test.ts, shell-shopt-leaks-into-bash-c.test.ts). Each expectation is what
 * bash 5.2 (`bash -c`, stdin /dev/null) printed for the same script on this machine, less its `line 1:` prefix
 * (`environment: line 1:` / `./s.sh: line 1:` for a function's or a sourced file's error), with its temporary
 * directory shown as /workspace — but for BASHOPTS, where just-bash names only the options it has.
 * - eval / source: a failglob error stops only the `eval`'s or sourced file's own text (status 1, what it printed
 *   before kept), as bash's parse_and_execute; an `exit` in eval still ends the shell.
 * - background jobs: `… &` is a subshell job: status 0, `$!` its pid, `wait $!`/`wait %N` its status, `cd`, an
 *   assignment or `exit` in it stay there; it reads the stdin of the group it is in.
 * - declaration builtins: `declare`/`local`/`export`/`readonly`/`typeset` expand `NAME=(…)` and `NAME+=(…)`
 *   as `NAME=(…)` (globbing, nullglob, failglob, splitting, braces); `[KEY]=VALUE` elements as before.
 * - new shells: `bash`/`sh` from stdin, a file or `-c`, and a script run by its path, start with bash's default
 *   `shopt` options (a script file: `set -o` too), their `shopt` does not reach the caller; exported variables
 *   cross; a subshell and `$(…)` keep the caller's options.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Case = [command: string, stdout: string, stderr: string, exitCode: number];
const tree = { dirs: ["e"], files: { f: "x\n" } };
const run = (cases: readonly Case[]) =>
  shellCases(tree, cases.map(([command]) => command), { collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode] });

const evalSource: Case[] = [
  ["shopt -s failglob; eval 'echo a; eval \"echo *.zz\"; echo in'; echo after $?", "a\nin\nafter 0\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; f() { echo *.zz; echo in; }; eval f; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; eval 'f() { echo *.zz; echo in; }; f; echo in2'; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; eval 'for x in *.zz; do echo $x; done; echo in'; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; eval 'echo *.zz' || echo or; echo after $?", "or\nafter 0\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; f() { eval 'echo *.zz'; echo in; }; f; echo after $?", "in\nafter 0\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; eval 'declare -a y=(*.zz)'; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; echo 'echo a; echo *.zz; echo in' > s.sh; f() { . ./s.sh; echo in2; }; f; echo after $?", "a\nin2\nafter 0\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; echo 'f() { echo *.zz; echo in; }; f; echo in2' > s.sh; source s.sh; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; eval 'exit 3'; echo after $?", "", "", 3],
  ["shopt -s failglob; x=$(eval 'echo *.zz; echo in'); echo \"after $? [$x]\"", "after 1 []\n", "bash: no match: *.zz\n", 0],
];

const jobs: Case[] = [
  ["shopt -s failglob; echo *.zz & wait $!; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; { echo *.zz; echo in; } & wait $!; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["shopt -s failglob; for x in *.zz; do echo $x; done & wait $!; echo after $?", "after 1\n", "bash: no match: *.zz\n", 0],
  ["false & echo $?", "0\n", "", 0],
  ["false & p=$!; wait $p; echo a $?; wait $p; echo b $?", "a 1\nb 1\n", "", 0],
  ["(exit 3) & wait %1; echo $?; wait %1; echo $?", "3\n127\n", "bash: wait: %1: no such job\n", 0],
  ["(exit 4) & (exit 5) & wait $!; echo $?; wait; echo $?", "5\n0\n", "", 0],
  ["wait 12345; echo $?; wait %3; echo $?; wait abc; echo $?", "127\n127\n1\n", "bash: wait: pid 12345 is not a child of this shell\nbash: wait: %3: no such job\nbash: wait: `abc': not a pid or valid job spec\n", 0],
  ["cd e & wait; pwd", "/workspace\n", "", 0],
  ["x=1 & wait; echo \"[$x]\"", "[]\n", "", 0],
  ["exit 3 & wait $!; echo $?; echo in", "3\nin\n", "", 0],
  ["f() { return 3; }; f & wait $!; echo $?", "3\n", "", 0],
  ["set -e; false & wait; echo in", "in\n", "", 0],
  ["set -e; false & wait $!; echo in", "", "", 1],
  ["echo hi > o & wait; cat o", "hi\n", "", 0],
  ["echo hi | { cat & wait; }", "hi\n", "", 0],
  ["true & [ \"$!\" -gt 0 ] && [ \"$!\" != \"$$\" ] && echo pid", "pid\n", "", 0],
];

const declarations: Case[] = [
  ["touch a.zz b.zz; declare -a y=(*.zz); declare -p y", "declare -a y=([0]=\"a.zz\" [1]=\"b.zz\")\n", "", 0],
  ["touch a.zz b.zz; f() { local x=(c *.zz); echo \"${x[*]}\"; }; f", "c a.zz b.zz\n", "", 0],
  ["touch a.zz; readonly r=(*.zz); typeset -a t=(*.zz); echo \"${r[0]} ${t[0]}\"", "a.zz a.zz\n", "", 0],
  ["touch a.zz; declare -a y=(x); declare -a y+=(*.zz); declare -p y", "declare -a y=([0]=\"x\" [1]=\"a.zz\")\n", "", 0],
  ["shopt -s nullglob; declare -a y=(*.zz a); f() { local z=(*.zz); echo ${#z[@]}; }; f; declare -p y", "0\ndeclare -a y=([0]=\"a\")\n", "", 0],
  ["shopt -s failglob; declare -a y+=(*.zz); echo after $?", "", "bash: no match: *.zz\n", 1],
  ["shopt -s failglob; export e=(*.zz); echo after $?", "", "bash: no match: *.zz\n", 1],
  ["shopt -s failglob; typeset -a t=(*.zz); echo after $?", "", "bash: no match: *.zz\n", 1],
  ["v='p q'; declare -a y=($v \"$v\" '' {x,y}z \"it's\"); declare -p y", "declare -a y=([0]=\"p\" [1]=\"q\" [2]=\"p q\" [3]=\"\" [4]=\"xz\" [5]=\"yz\" [6]=\"it's\")\n", "", 0],
  ["declare -a y=([0]=a [2]=c); declare -p y", "declare -a y=([0]=\"a\" [2]=\"c\")\n", "", 0],
  ["declare -a y=(); declare -p y", "declare -a y=()\n", "", 0],
];

const newShells: Case[] = [
  ["shopt -s failglob; echo 'echo *.zz; echo in' | bash; echo after $?", "*.zz\nin\nafter 0\n", "", 0],
  ["shopt -s failglob; echo 'echo *.zz; echo in' > s.sh; sh s.sh; echo after $?", "*.zz\nin\nafter 0\n", "", 0],
  ["shopt -s failglob; sh -c 'echo *.zz; echo in'; echo after $?", "*.zz\nin\nafter 0\n", "", 0],
  ["shopt -s extglob dotglob; bash -c 'shopt -q extglob; echo $?; shopt -q dotglob; echo $?; echo $BASHOPTS'", "1\n1\nglobskipdots\n", "", 0],
  ["bash -c 'shopt -s nullglob'; echo [*.zz]", "[*.zz]\n", "", 0],
  ["shopt -s failglob nullglob; printf 'echo *.zz; echo in; shopt -q nullglob; echo $?\\n' > s; chmod +x s; ./s; echo after $?", "*.zz\nin\n1\nafter 0\n", "", 0],
  ["set -e; printf 'false; echo in\\n' > s; chmod +x s; ./s; echo after $?", "in\nafter 0\n", "", 0],
  ["X=1; export Y=2; shopt -s nullglob; bash -c 'echo [$X][$Y]'", "[][2]\n", "", 0],
  ["shopt -s nullglob; x=$(echo [*.zz]); (echo \"[$x]\" [*.zz])", "[]\n", "", 0],
];

it("failglob stops only an eval's or a sourced file's text, as bash 5.2", async () => {
  expect(await run(evalSource)).toEqual(evalSource);
});

it("a background job is a subshell; wait gives its status, as bash 5.2", async () => {
  expect(await run(jobs)).toEqual(jobs);
});

it("declaration builtins expand NAME=(…) as NAME=(…): globbing, nullglob, failglob, splitting", async () => {
  expect(await run(declarations)).toEqual(declarations);
});

it("a new shell starts with bash's default options and does not change the caller's", async () => {
  expect(await run(newShells)).toEqual(newShells);
});
