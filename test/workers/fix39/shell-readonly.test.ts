/**
 * Issue 20, run 39, fixer ST: a readonly variable against every way a script assigns one, as bash 5.2.15.
 * - `declare`/`typeset`/`local`/`export`/`readonly` refuse an operand assigning a readonly NAME (`R=5`, `R+=x`,
 *   `R[1]=x`), `local R` and a `declare R` in a function (a new local), `declare +r R`, and go on with the other
 *   operands: status 1, `bash: declare: R: readonly variable` (declare/typeset/local name themselves, export and
 *   readonly do not); `declare R`, `declare -x R`, `export R`, `readonly R`, `declare -g R` in a function are fine.
 *   A compound `declare -a R=(x)` still ends the script, as bash. Before the fix each refusal ended the script, exit 1.
 * - `read` reads the line, assigns the names before the readonly one and not the rest, status 1; `mapfile` refuses
 *   before reading (its input stays for the next command); `for R in a b` runs no iteration, status 1.
 * - arithmetic (`(( R = 2 ))`, `(( R++ ))`, `let`, `$(( ))`) refuses the assignment: `(( ))` and `let` fail with
 *   status 1, `$(( ))` ends the command (here the script), as bash. Before the fix arithmetic and `for` assigned R.
 * - plain and prefix assignments (`R=2` ends a one-line `bash -c` script; `R=2 cmd` runs cmd) and `unset` as before.
 * Rows are `[script, stdout, stderr, exit status]` as `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) gave
 * them in an empty temp dir, copied from its output (its `bash: line 1: ` / `environment: line 1: ` prefix written
 * `bash: `, which is how this shell names itself), not computed by the code under test.
 * Known differences left (not in the rows): the arithmetic message carries just-bash's context (`bash: arithmetic
 * expression: R: readonly variable`, `bash: let: R=3: R: readonly variable`) where bash prints `bash: R: readonly
 * variable` — the second table checks the stdout and status exactly and that stderr names the refusal; `printf -v R`
 * says `printf: R: …`; `getopts OPTS R` assigns R; `for ((R=0; …))` ends the script (bash: status 1); a refused plain
 * assignment (`R=2`, also in `eval`) ends the whole script where bash drops only the rest of that line (a multi-line
 * script goes on with the next line; `eval R=2` returns 1).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

it("a readonly variable is refused by every declaration builtin, read, mapfile and for, each failing only itself, as bash 5.2.15", async () => {
  const rows: Row[] = [
    ["readonly R=1; R=2; echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; R=2 true; echo \"rc $? $R\"", "rc 0 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; R=2 echo hi; echo \"rc $? $R\"", "hi\nrc 0 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; f() { :; }; R=2 f; echo \"rc $? $R\"", "rc 0 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; R+=x; echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; : ${R:=x}; echo \"rc $? $R\"", "rc 0 1\n", "", 0],
    ["readonly R=1; unset R; echo \"rc $? $R\"", "rc 1 1\n", "bash: unset: R: cannot unset: readonly variable\n", 0],
    ["readonly R=1; for R in a b; do echo $R; done; echo \"rc $?\"", "rc 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; read R <<< x; echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; read -a R <<< x; echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; declare R=5; echo \"top $R $?\"", "top 1 1\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; declare R; echo \"top $R $?\"", "top 1 0\n", "", 0],
    ["readonly R=1; declare +r R; echo \"top $R $?\"", "top 1 1\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; typeset R=5; echo \"top $R $?\"", "top 1 1\n", "bash: typeset: R: readonly variable\n", 0],
    ["readonly R=1; export R=5; echo \"top $R $?\"", "top 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; export R; echo \"top $R $?\"", "top 1 0\n", "", 0],
    ["readonly R=1; readonly R=5; echo \"top $R $?\"", "top 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; readonly R; echo \"top $R $?\"", "top 1 0\n", "", 0],
    ["readonly R=1; f() { local R=5; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 1\nrc 0\n", "bash: local: R: readonly variable\n", 0],
    ["readonly R=1; f() { declare R=5; echo \"in $R\"; }; f; echo \"rc $?\"", "in 1\nrc 0\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; f() { local R; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 1\nrc 0\n", "bash: local: R: readonly variable\n", 0],
    ["readonly R=1; f() { local -r R=3; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 1\nrc 0\n", "bash: local: R: readonly variable\n", 0],
    ["readonly R=1; mapfile R <<< x; echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; readarray -t R <<< x; echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; R=(a b); echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly -a A=(1 2); A[0]=5; echo \"rc $? ${A[*]}\"", "", "bash: A: readonly variable\n", 1],
    ["readonly -a A=(1 2); A+=(3); echo \"rc $? ${A[*]}\"", "", "bash: A: readonly variable\n", 1],
    ["readonly -a A=(1 2); unset \"A[0]\"; echo \"rc $? ${A[*]}\"", "rc 1 1 2\n", "bash: unset: A: cannot unset: readonly variable\n", 0],
    ["readonly R=1; declare -n N=R; N=5; echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; R=2 || echo failed; echo \"rc $?\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; set -e; declare R=2 ; echo \"rc $?\"", "", "bash: declare: R: readonly variable\n", 1],
    ["readonly R=1; x=1 R=2 y=3; echo \"rc $? $x $y\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; export x=1 R=2 y=3; echo \"rc $? $x $y\"", "rc 1 1 3\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; declare x=1 R=2 y=3; echo \"rc $? $x $y\"", "rc 1 1 3\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; read x R y <<< \"a b c\"; echo \"rc $? $x $R $y\"", "rc 1 a 1 \n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; f() { R=2; echo inf; }; f; echo after", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; (R=2; echo inf); echo after $?", "after 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; x=$(R=2; echo inf); echo after $? $x", "after 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; declare -i R; echo \"top $R $?\"", "top 1 0\n", "", 0],
    ["readonly R=1; declare -a R; echo \"top $R $?\"", "top 1 0\n", "", 0],
    ["readonly R=1; declare -g R=3; echo \"top $R $?\"", "top 1 1\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; f() { local -x R; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 1\nrc 0\n", "bash: local: R: readonly variable\n", 0],
    ["f() { local R=2; readonly R; R=3; echo in $R; }; f; echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; readonly -a R; echo \"top $? ${R[*]}\"", "top 0 1\n", "", 0],
    ["readonly R=1; { read R; read S; echo \"S=$S\"; } <<< $'l1\\nl2'", "S=l2\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; { mapfile R; read S; echo \"S=$S\"; } <<< $'l1\\nl2'", "S=l1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; read -a R x <<< \"a b\"; echo \"rc $? $R $x\"", "rc 1 1 \n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; read -r x R <<< \"a b\"; echo \"rc $? $R $x\"", "rc 1 1 a\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; read R < /dev/null; echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; f() { declare R; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 1\nrc 0\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; f() { declare -g R; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 0\nrc 0\n", "", 0],
    ["readonly R=1; f() { typeset -x R; echo \"in $R $?\"; }; f; echo \"rc $?\"", "in 1 1\nrc 0\n", "bash: typeset: R: readonly variable\n", 0],
    ["readonly R=1; declare +x R; echo \"top $?\"", "top 0\n", "", 0],
    ["readonly R=1; export -n R; echo \"top $?\"", "top 0\n", "", 0],
    ["readonly R=1; declare -r R; echo \"top $?\"", "top 0\n", "", 0],
    ["readonly R=1; declare -rx R=1; echo \"top $?\"", "top 1\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; declare R+=x; echo \"top $? $R\"", "top 1 1\n", "bash: declare: R: readonly variable\n", 0],
    ["readonly R=1; declare -a R=(x); echo \"top $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["f() { local -r L=1; local L=2; echo \"in $? $L\"; }; f", "in 1 1\n", "bash: local: L: readonly variable\n", 0],
    ["f() { local -r L=1; declare L=2; echo \"in $? $L\"; }; f", "in 1 1\n", "bash: declare: L: readonly variable\n", 0],
    ["readonly R=1; export R=2 S=3; echo \"top $? $R $S\"", "top 1 1 3\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; readonly S=2 R=3 T=4; echo \"top $? $R $S $T\"", "top 1 1 2 4\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; for R in; do echo x; done; echo \"rc $?\"", "rc 0\n", "", 0],
    ["readonly R=1; set -e; for R in a; do :; done; echo no", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; set -e; local_ok() { local R=3; echo in; }; local_ok; echo after", "", "bash: local: R: readonly variable\n", 1],
    ["readonly R=1; echo $(( R + 1 )); (( x = R + 1 )); echo $x", "2\n2\n", "", 0],
  ];
  const out = await shellCases({ files: {} }, rows.map((r) => r[0]), { collect });
  expect(out).toEqual(rows);
});

it("arithmetic refuses a readonly variable: (( )) and let fail with status 1, $(( )) ends the command, as bash 5.2.15", async () => {
  const rows: Row[] = [
    ["readonly R=1; (( R = 2 )); echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; (( R++ )); echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; echo $(( R = 2 )); echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; x=$(( R += 2 )); echo \"rc $? $R\"", "", "bash: R: readonly variable\n", 1],
    ["readonly R=1; let R=3; echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; set -e; (( R = 2 )) ; echo \"rc $?\"", "", "bash: R: readonly variable\n", 1],
    ["readonly -a A=(1 2); (( A[0]++ )); echo \"rc $? ${A[*]}\"", "rc 1 1 2\n", "bash: A: readonly variable\n", 0],
    ["readonly R=1; (( R += 1 )) || echo failed; echo \"rc $R\"", "failed\nrc 1\n", "bash: R: readonly variable\n", 0],
    ["readonly R=1; (( --R )); echo \"rc $? $R\"", "rc 1 1\n", "bash: R: readonly variable\n", 0],
  ];
  // stderr: bash's line is `bash: R: readonly variable`; this shell puts its arithmetic context before `R: …`.
  const refusal = (stderr: string): string => stderr.replace(/^bash: .*?([A-Za-z_]\w*: readonly variable\n)$/s, "bash: $1");
  const out = await shellCases({ files: {} }, rows.map((r) => r[0]), { collect: (ws, command, r) => { const [c, o, e, x] = collect(ws, command, r); return [c, o, refusal(e), x] as Row; } });
  expect(out).toEqual(rows);
});
