/**
 * Fixed in run 40 by fixer f40sh: mapfile/readarray run `-C CALLBACK INDEX 'LINE'` every -c QUANTUM lines (script-builtins.ts mapfileCallback; after the lines are assigned, not before each).
 * Issue 20, run 40, attacker a: `mapfile -C CALLBACK -c QUANTUM` (and `readarray`) fills the array but never runs
 * the callback; the option is accepted silently.
 * Reproduction: with a.txt holding the lines one…five, `n=0; cb(){ n=$((n+1)); echo "at $1: $2"; }; mapfile -t -C cb
 * -c 1 L < a.txt; echo "n=$n ${L[4]}"` prints only `n=0 five` today; bash 5.2.15 prints `at 0: one` … `at 4: five`
 * and `n=5 five` (the callback runs in the shell, every QUANTUM lines, with the index and the line as arguments).
 * `mapfile -t -C "echo cb" -c 2 L < a.txt` prints nothing but the count (bash: `cb 1 two`, `cb 3 four`).
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) in a temp dir holding a.txt; the rows are its
 * stdout and status, copied from that run.
 * Severity: low/medium — a progress callback or a per-line hook silently never runs; the script's counters stay 0.
 * Cause (likely): just-bash's mapfile builtin (patched by scripts/gen-shell.mjs; src/backends/worker-shell/isolate/
 * gnu-extra.ts handles `-u`) parses `-C`/`-c` and ignores them.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; exitCode: number }): Row => [command, r.stdout, r.exitCode];

// Expected: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` in a directory holding a.txt — stdout and exit status.
const ROWS: Row[] = [
  ['n=0; cb(){ n=$((n+1)); echo "at $1: $2"; }; mapfile -t -C cb -c 1 L < a.txt; echo "n=$n ${L[4]}"', "at 0: one\nat 1: two\nat 2: three\nat 3: four\nat 4: five\nn=5 five\n", 0],
  ['mapfile -t -C "echo cb" -c 2 L < a.txt; echo "${#L[@]}"', "cb 1 two\ncb 3 four\n5\n", 0],
  ['readarray -t -C "echo rb" -c 5 L < a.txt; echo "${L[*]}"', "rb 4 five\none two three four five\n", 0],
];

it("mapfile -C/-c runs the callback every QUANTUM lines with the index and the line, as bash 5.2", async () => {
  const out = await shellCases({ files: { "a.txt": "one\ntwo\nthree\nfour\nfive\n" } }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
