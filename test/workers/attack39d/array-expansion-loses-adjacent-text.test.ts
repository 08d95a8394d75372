/**
 * Issue 20, thirty-ninth attack run: an array expansion with an operation (`${a[@]%.c}`, `${a[@]#a}`,
 * `${a[@]/.c/.o}`, `${@%.c}`, `${a[*]%.c}`) that has text joined to it in an UNQUOTED word loses that text: with
 * `a=(a.c b.c)`, `printf '[%s]' ${a[@]%.c}.o` prints `[a][b]` (bash 5.2.15: `[a][b.o]`), `pre${a[@]/.c/.o}` gives
 * `[a.o][b.o]` (bash `[prea.o][b.o]`) and `for f in ${a[@]%.c}.o; do …` loops over `a b` — the names a build or
 * rename script makes are silently wrong. In a QUOTED word with text or a second expansion, `"${a[@]:1}/"`,
 * `"x${a[@]:1}y"`, `"<${!m[@]}>"`, `"<${a[@]@Q}>"` and `"${a[@]}${a[@]}"` join the elements into one word
 * (`[b c/]`; bash `[b][c/]`) — the array's element boundaries are lost.
 * Tried: side by side with bash 5.2.15 (`bash --norc --noprofile -c`, a temp dir): `set -euo pipefail` and `||`/`&&`
 * under `set -e`, functions with `local`/return statuses, EXIT/ERR traps in functions and subshells, PIPESTATUS,
 * `while read` from pipes, process substitution and here-strings, `read -r -d ''`, mapfile/readarray (-t -s -n -d),
 * indexed and associative arrays (+=, unset, negative subscripts, slices), `${v@Q}`, `printf -v` (also into
 * `arr[2]`), `declare -p`, arithmetic (overflow, shifts, bases, `/0`, `08`, `declare -i`), `case` (`;;&`, classes),
 * getopts (silent mode, bundles, OPTIND), here-docs (`<<-`, quoted, unquoted escapes), IFS word splitting, globbing
 * (nullglob, failglob, dotglob, globstar), brace expansion, `source` with arguments, `exec` redirections, `${!v}`,
 * namerefs, `[[ ]]`/`test`; and every array operation alone, in quotes and unquoted with text.
 * Held: each operation alone (`"${a[@]/#/pre-}"`, `"${a[@]%e}"`, `"${@:2}"`), quoted with text for `%`, `/`, `^`
 * (`"x${a[@]%e}y"` is `[xon][two][threy]`), unquoted `x${a[@]}y`, `${a[@]^}.x`, `"x${@:2}"`.
 * Found (medium — a script that derives names from an array (`${srcs[@]%.c}.o`, `${files[@]#./}.bak`,
 * `"${parts[@]:1}/"`) gets other names or one joined argument, with status 0; 2 of 2 runs): the rows below; bash's
 * output is the expected value.
 * Suggested fix: where just-bash expands a word holding an array ParameterExpansion with an operation (the
 * word-splitting path of its expandWordWithGlob / the quoted `"${a[@]…}"` path, patched by scripts/gen-shell.mjs
 * next to src/backends/worker-shell/isolate/param-expansion.ts), expand the operation per element and glue the
 * word's text before the first element and after the last, as the plain `${a[@]}` path already does.
 * Fixed: a word holding a multi-field expansion next to other text or a second one is expanded field by field —
 * each `[@]`/`$@` expansion alone for its elements, adjacent text glued to the first and last, then IFS splitting
 * and globbing of the unquoted text — in src/backends/worker-shell/isolate/array-fields.ts, called from just-bash's
 * word expansion by SA39_PATCHES in scripts/gen-shell.mjs (issue 20, run 39, fixer SA). Siblings:
 * test/workers/fix39/shell-array-field-expansion.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

// Expected values: bash 5.2.15, `bash --norc --noprofile -c SCRIPT`.
const ROWS: Row[] = [
  ["a=(a.c b.c); printf '[%s]' ${a[@]%.c}.o; echo", "[a][b.o]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' pre${a[@]/.c/.o}; echo", "[prea.o][b.o]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' ${a[@]#a}.x; echo", "[.c][b.c.x]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' ${a[*]%.c}.x; echo", "[a][b.x]\n", "", 0],
  ["set -- a.c b.c; printf '[%s]' ${@%.c}.o; echo", "[a][b.o]\n", "", 0],
  ["a=(one.txt two.txt); printf '[%s]' dir/${a[@]%.txt}; echo", "[dir/one][two]\n", "", 0],
  ["a=(a.c b.c); for f in ${a[@]%.c}.o; do echo \"$f\"; done", "a\nb.o\n", "", 0],
  ["a=(a b c); printf '[%s]' \"${a[@]:1}/\"; echo", "[b][c/]\n", "", 0],
  ["a=(one two three); printf '[%s]' \"x${a[@]:1}y\"; echo", "[xtwo][threey]\n", "", 0],
  ["declare -A m=([k1]=v1 [k2]=v2); printf '[%s]' \"<${!m[@]}>\"; echo", "[<k1][k2>]\n", "", 0],
  ["a=(a b); printf '[%s]' \"<${a[@]@Q}>\"; echo", "[<'a']['b'>]\n", "", 0],
  ["a=(a b); printf '[%s]' \"${a[@]}${a[@]}\"; echo", "[a][ba][b]\n", "", 0],
  ["a=(a b); printf '[%s]' \"${a[@]:0}-${a[@]:0}\"; echo", "[a][b-a][b]\n", "", 0],
];

it("an array expansion with an operation keeps the text and element boundaries around it, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  // Was: "[a][b]", "[a.o][b.o]", "[.c][b.c]", "[a][b]", "[a][b]", "[one][two]", "a\nb\n", "[b c/]",
  // "[xtwo threey]", "[<k1 k2>]", "[<'a' 'b'>]", "[a][ba b]", "[a b-a b]".
  expect(out).toEqual(ROWS);
});
