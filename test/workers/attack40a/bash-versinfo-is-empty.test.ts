/**
 * Fixed in run 40 by fixer f40sh: BASH_VERSINFO=(5 1 0 1 release x86_64-pc-linux-gnu), readonly, declared on the script's first line by worker.ts, matching BASH_VERSION 5.1.0(1)-release.
 * Issue 20, run 40, attacker a: `BASH_VERSINFO` is unset, so the usual "needs bash 4" guard reads version 0 and
 * stops the script.
 * Reproduction: `if ((BASH_VERSINFO[0] < 4)); then echo "needs bash 4+"; exit 1; fi; echo ok` prints `needs bash 4+`
 * and exits 1 today; bash 5.2.15 prints `ok`, exit 0. `echo "${BASH_VERSINFO[0]}"` prints an empty line (bash: `5`),
 * `${#BASH_VERSINFO[@]}` is 0 (bash: 6), and `[ "${BASH_VERSINFO[0]}" -ge 4 ]` is an `integer expression expected`
 * error, status 2 (bash: true). `$BASH_VERSION` itself is set (`5.1…`), so the two disagree.
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) on this machine; the rows are its stdout and
 * status (rows compare the major version only, not 5.2 vs this shell's 5.1).
 * Severity: medium — scripts written for bash 4+ (associative arrays, `mapfile`) commonly start with this guard;
 * under the shell backend they refuse to run at all.
 * Cause (likely): just-bash sets BASH_VERSION but not the BASH_VERSINFO array (its shell variables; the
 * isolate's setup in src/backends/worker-shell/worker.ts runShell passes none either).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; exitCode: number }): Row => [command, r.stdout, r.exitCode];

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` — stdout and exit status.
const ROWS: Row[] = [
  ['if ((BASH_VERSINFO[0] < 4)); then echo "needs bash 4+"; exit 1; fi; echo ok', "ok\n", 0],
  ['[ "${BASH_VERSINFO[0]}" -ge 4 ] && echo v4+', "v4+\n", 0],
  ['echo "${BASH_VERSINFO[0]} ${#BASH_VERSINFO[@]}"', "5 6\n", 0],
  ['[ "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}" = "$(echo "$BASH_VERSION" | cut -d. -f1,2)" ] && echo same', "same\n", 0],
];

it("BASH_VERSINFO holds the shell's version, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
