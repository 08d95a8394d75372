/**
 * Issue 20, run 39, fixer ST: the ERR trap and shell functions, as bash 5.2.15 (execute_cmd.c execute_function,
 * was_error_trap; trap.c maybe_set_error_trap). Without `set -E` a function call puts its caller's ERR trap aside
 * (it does not fire for the function's own failures, `trap -p ERR` shows none there) and brings it back on return
 * unless the function set its own, which then stays; a trap the function sets fires for its later failures
 * (`main() { trap 'echo failed; exit 1' ERR; …; false; }`), in its `( )` and `$( )` as failed commands of the
 * function, and after it returns; an ignored trap (`''`) stays inside. The trap runs after a failed pipeline only if
 * an ERR trap was set when the pipeline began, so the status of a call that set the first trap does not run it
 * (`f() { trap 'echo f' ERR; false; }; f` prints `f` once). `set -E` at entry keeps the trap in the function; `set -E`
 * or `set +E` inside does not change the call already made. Before the fix the trap never ran in a function without
 * `set -E` (the attacker's test/workers/attack39d/err-trap-set-inside-function-never-fires-there.test.ts).
 * Every row is `[script, stdout, stderr, exit status]` as `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) gave
 * it in an empty temp dir, copied from its output, not computed by the code under test.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

it("an ERR trap is put aside on function entry without set -E, and one a function sets fires there, as bash 5.2.15", async () => {
  const rows: Row[] = [
    ["main() { trap 'echo \"failed $?\"; exit 1' ERR; echo start; false; echo unreachable; }; main; echo end", "start\nfailed 1\n", "", 1],
    ["f() { trap 'echo ferr' ERR; false; echo cont; }; f", "ferr\ncont\n", "", 0],
    ["set -e; main() { trap 'echo cleanup' ERR; false; echo no; }; main", "cleanup\n", "", 1],
    ["trap 'echo top' ERR; f() { trap 'echo inner' ERR; false; }; f; false", "inner\ninner\ninner\n", "", 1],
    ["trap 'echo top' ERR; f() { false; echo in; }; f; false; echo rc", "in\ntop\nrc\n", "", 0],
    ["trap 'echo top' ERR; f() { trap -p ERR; echo -; }; f; trap -p ERR", "-\ntrap -- 'echo top' ERR\n", "", 0],
    ["trap 'echo top' ERR; f() { trap 'echo inner' ERR; false; }; f; false; trap -p ERR", "inner\ninner\ninner\ntrap -- 'echo inner' ERR\n", "", 0],
    ["f() { trap 'echo inner' ERR; }; f; false; trap -p ERR", "inner\ntrap -- 'echo inner' ERR\n", "", 0],
    ["trap 'echo top' ERR; f() { trap - ERR; }; f; false; trap -p ERR", "top\ntrap -- 'echo top' ERR\n", "", 0],
    ["trap 'echo top' ERR; f() { trap '' ERR; }; f; false; trap -p ERR", "trap -- '' ERR\n", "", 0],
    ["trap '' ERR; f() { trap -p ERR; false; }; f; false; trap -p ERR", "trap -- '' ERR\ntrap -- '' ERR\n", "", 0],
    ["( trap 'echo e' ERR; f() { :; }; f; false; trap -p ERR )", "e\ntrap -- 'echo e' ERR\n", "", 0],
    ["( trap 'echo e' ERR; f() { false; }; f; false; trap -p ERR )", "e\ne\ntrap -- 'echo e' ERR\n", "", 0],
    ["echo $( trap 'echo e' ERR; f() { :; }; f; false; trap -p ERR )", "e trap -- 'echo e' ERR\n", "", 0],
    ["trap 'echo top' ERR; g() { false; echo g; }; f() { trap 'echo f' ERR; g; false; }; f", "g\nf\nf\n", "", 1],
    ["trap 'echo top' ERR; g() { trap 'echo g' ERR; }; f() { g; false; }; f; false", "g\ng\ng\n", "", 1],
    ["f() { trap 'echo f' ERR; ( false ); x=$(false); false; }; f", "f\nf\nf\n", "", 1],
    ["set -E; trap 'echo top' ERR; f() { false; trap 'echo f' ERR; }; f; false", "top\nf\n", "", 1],
    ["f() { set -E; }; trap 'echo top' ERR; g() { f; false; }; g", "top\n", "", 1],
    ["trap 'echo top' ERR; f() { set -E; false; }; f; false", "top\ntop\n", "", 1],
    ["trap 'echo top' ERR; f() { trap -p; }; f", "", "", 0],
    ["set -E; trap 'echo top' ERR; f() { set +E; false; echo x; }; f", "top\nx\n", "", 0],
    ["trap 'echo top' ERR; ( f() { trap -p ERR; echo -; }; f; trap -p ERR )", "trap -- 'echo top' ERR\n-\ntrap -- 'echo top' ERR\n", "", 0],
    ["trap 'echo top' ERR; f() { ( trap -p ERR; echo s ); }; f", "s\n", "", 0],
    ["trap 'echo top' ERR; f() { trap 'echo f' ERR; return 1; }; f; echo rc $?", "f\nrc 1\n", "", 0],
    ["trap 'echo top' ERR; f() { trap 'echo f' ERR; }; g() { f; false; }; g; false", "f\nf\nf\n", "", 1],
    ["trap 'echo top' ERR; f() { false; }; set -E; f; set +E; f", "top\ntop\ntop\n", "", 1],
    ["trap 'echo top' ERR; f() { eval 'false'; }; f", "top\n", "", 1],
    ["trap 'echo top' ERR; f() { trap 'echo f' ERR; false; } ; f | cat; false", "f\ntop\n", "", 1],
    ["set -e; trap 'echo top' ERR; f() { false; echo no; }; f; echo after", "", "", 1],
    ["set -e; f() { trap 'echo \"err $? at f\"' ERR; g; echo no; }; g() { return 3; }; f; echo after", "err 3 at f\n", "", 3],
    ["trap 'echo top' ERR; f() { g; }; g() { trap 'echo g' ERR; false; }; f; false", "g\ng\ng\n", "", 1],
    ["trap 'echo top' ERR; f() { trap 'echo f' ERR; f2; }; f2() { false; echo f2; }; f", "f2\n", "", 0],
    ["f() { trap 'echo f $?' ERR; if false; then :; fi; false || true; ! true; false && true; echo end; }; f", "end\n", "", 0],
    ["f() { trap 'echo f' ERR; x=$(trap -p ERR); echo \"[$x]\"; }; f", "[trap -- 'echo f' ERR]\n", "", 0],
    ["trap 'echo top' ERR; f() { local x; trap 'echo f' ERR; }; f; false; f; false", "f\nf\n", "", 1],
    ["trap 'echo top' ERR; f() { return 2; }; f; echo $?", "top\n2\n", "", 0],
    ["trap 'echo top' ERR; f() { exit 3; }; f; echo no", "", "", 3],
    ["f() { trap 'echo f' ERR; g; }; g() { false; }; f", "f\n", "", 1],
  ];
  const out = await shellCases({ files: {} }, rows.map((r) => r[0]), { collect });
  expect(out).toEqual(rows);
});
