/**
 * Issue 20, twenty-fifth attack run (lead): `set -u` and `${x:?word}` as bash 5.2 non-interactive, fixed through
 * scripts/gen-shell.mjs entries marked L25 (helpers in isolate/shell-options.ts: nounsetExit, unsetParameterExit,
 * subshellStatus).
 *
 * - A quoted `"${y:-d}"` (and `"${y+a}"`, `"${y-e}"`) of an unset variable under `set -u` is the default, as unquoted;
 *   just-bash raised "unbound variable" for the quoted forms, so `set -euo pipefail` scripts using `"${VAR:-x}"` failed.
 * - An unset variable under `set -u`, and `${y:?word}`, end the shell — through functions, groups, loops and `eval`,
 *   which just-bash went on after with status 1 — with status 127, or 1 for the subshell, `$(…)` or pipeline element
 *   they end; the message is `bash: NAME: unbound variable` / `bash: NAME: word` / `bash: NAME: parameter null or not
 *   set` (just-bash: `NAME: unbound variable`, `bash: word`).
 *
 * Every expected stdout, stderr and status is what bash 5.2.15 (`bash -c`) printed, without its `line 1: ` (the
 * shell's other errors leave it out too).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("a quoted default, alternative or length of an unset variable does not trip set -u", async () => {
  const expected = [
    ['set -u; echo "${y:-d}" "${y:+a}" "${y-e}" "${y+f}"; echo "${a[@]:-none}"; z=; echo "[${z:-zd}]"', "d  e \nnone\n[zd]\n", "", 0],
    ['set -euo pipefail; name="${NAME:-world}"; echo "hello $name"', "hello world\n", "", 0],
  ];
  expect(await shellCases({ files: {} }, expected.map(([command]) => command as string), { collect })).toEqual(expected);
});

it("an unset variable under set -u ends the shell with 127 (1 for a subshell, $(…) or pipeline element), in every compound", async () => {
  const u = "bash: y: unbound variable\n";
  const expected = [
    ["set -u; echo hi; echo $y; echo after", "hi\n", u, 127],
    ['set -u; echo "${y}"; echo after', "", u, 127],
    ["set -u; (echo $y); echo sub=$?", "sub=1\n", u, 0],
    ["set -u; x=$(echo $y); echo cs=$?", "cs=1\n", u, 0],
    ["set -u; echo $y | cat; echo after=$?", "after=0\n", u, 0],
    ["set -u; f(){ echo in; echo $y; }; f; echo after", "in\n", u, 127],
    ["set -u; { echo $y; }; echo after", "", u, 127],
    ['set -u; eval "echo \\$y"; echo after=$?', "", u, 127],
    ["set -u; for i in 1; do echo $y; done; echo after", "", u, 127],
    ['set -u; if [ -n "$y" ]; then :; fi; echo after', "", u, 127],
    ["set -u; echo ${a[3]}", "", "bash: a[3]: unbound variable\n", 127],
  ];
  expect(await shellCases({ files: {} }, expected.map(([command]) => command as string), { collect })).toEqual(expected);
});

it("${y:?word} names the parameter and ends the shell the same way", async () => {
  const expected = [
    ["echo ${y:?no}; echo after", "", "bash: y: no\n", 127],
    ["(echo ${y:?no}); echo sub=$?", "sub=1\n", "bash: y: no\n", 0],
    ["echo ${#y} ${y:?}", "", "bash: y: parameter null or not set\n", 127],
    ['y=; echo "${y?unset}" ok; echo ${y:?empty or unset}', " ok\n", "bash: y: empty or unset\n", 127],
  ];
  expect(await shellCases({ files: {} }, expected.map(([command]) => command as string), { collect })).toEqual(expected);
});
