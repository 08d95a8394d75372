/**
 * Fixed in run 40 by fixer f40sh: `readonly -f` marks functions readonly; redefinition and `unset -f` refuse them with status 1; `readonly -f` lists them (isolate/readonly-functions.ts).
 * Issue 20, run 40, attacker a: `readonly -f NAME` does not protect a function: a later definition replaces it and
 * `unset -f` removes it, status 0; and `readonly -f` with no name lists variables instead of functions.
 * Reproduction: `f(){ echo old; }; readonly -f f; f(){ echo new; }; echo "rc $?"; f; unset -f f; echo "rc $?"; f`
 * prints `rc 0`, `new`, `rc 0` and then `f` is not found today; bash 5.2.15 prints `rc 1`, `old`, `rc 1`, `old`
 * (stderr `bash: f: readonly function`, `bash: unset: f: cannot unset: readonly function`). `f(){ :; };
 * readonly -f f; readonly -f` prints `declare -r BASHOPTS=…` / `declare -r SHELLOPTS=…` (bash: the function's text
 * then `declare -fr f`).
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) on this machine; the rows are its stdout and
 * status. (The readonly work of run 39 — docs/runtime.md — covers variables only.)
 * Severity: low — a script that pins a guard function with `readonly -f` gets it silently replaced.
 * Cause (likely): just-bash's readonly builtin ignores `-f` (lists variables; no readonly mark on functions), and
 * function definition/`unset -f` check no such mark (src/backends/worker-shell/isolate/readonly-vars.ts handles
 * variables only).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; exitCode: number }): Row => [command, r.stdout, r.exitCode];

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` — stdout and exit status.
const ROWS: Row[] = [
  ['f(){ echo old; }; readonly -f f; f(){ echo new; }; echo "rc $?"; f; unset -f f; echo "rc $?"; f', "rc 1\nold\nrc 1\nold\n", 0],
  ["f(){ :; }; readonly -f f; readonly -f", "f () \n{ \n    :\n}\ndeclare -fr f\n", 0],
];

it("readonly -f keeps a function from being redefined or unset, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
