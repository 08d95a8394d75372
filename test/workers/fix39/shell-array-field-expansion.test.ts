/**
 * Issue 20, run 39, fixer SA — sibling of test/workers/attack39d/array-expansion-loses-adjacent-text.test.ts.
 * A word holding a multi-field expansion (`${a[@]…}`, `$@`/`${@…}`, `${!a[@]}`, `${!pre@}`, unquoted `${a[*]…}`/`$*`)
 * next to other text or a second expansion: one field per element, the text before joined to the first, the text
 * after to the last, the operation (`%` `%%` `#` `##` `/` `//` `/#` `/%` `^` `^^` `,` `,,` `:off:len` `@Q` `@U`)
 * applied to each element, quoted or unquoted; unquoted, the elements split at IFS (`:`, `: `, a null IFS) and glob
 * (a quoted element's `*` does not); empty arrays and empty elements; `for` lists, array assignments, `~`,
 * `$(( ))` and `$( )` next to it; defaults in quotes.
 * Expected values: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` in an empty temp dir (pasted; workers tests
 * cannot spawn bash). Left out: `IFS=; a=('p q' r); printf '[%s]' x${a[@]%r}y` (bash 5.2.15 prints `[xp\001 q y]`, a
 * control byte leaking from its own quoting: a bash bug; here `[xp q][y]`, as bash gives for `${@%r}`).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

const ROWS: Row[] = [
  ["a=(a.c b.c); printf '[%s]' ${a[@]%.c}.o; echo", "[a][b.o]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' ${a[@]%%.*}.o; echo", "[a][b.o]\n", "", 0],
  ["a=(x.tar.gz y.tar.gz); printf '[%s]' pre-${a[@]#*.}-post; echo", "[pre-tar.gz][tar.gz-post]\n", "", 0],
  ["a=(x.tar.gz y.tar.gz); printf '[%s]' ${a[@]##*.}.z; echo", "[gz][gz.z]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' ${a[@]//./_}!; echo", "[a_c][b_c!]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' ${a[@]/#/src/}.bak; echo", "[src/a.c][src/b.c.bak]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' =${a[@]/%.c/.h}=; echo", "[=a.h][b.h=]\n", "", 0],
  ["a=(ab cd); printf '[%s]' x${a[@]^}y; echo", "[xAb][Cdy]\n", "", 0],
  ["a=(ab cd); printf '[%s]' x${a[@]^^}y; echo", "[xAB][CDy]\n", "", 0],
  ["a=(AB CD); printf '[%s]' x${a[@],}y; echo", "[xaB][cDy]\n", "", 0],
  ["a=(AB CD); printf '[%s]' x${a[@],,}y; echo", "[xab][cdy]\n", "", 0],
  ["a=(a b c d); printf '[%s]' x${a[@]:1:2}y; echo", "[xb][cy]\n", "", 0],
  ["a=(a b c d); printf '[%s]' x${a[@]: -2}y; echo", "[xc][dy]\n", "", 0],
  ["a=(a 'b c'); printf '[%s]' x${a[@]@Q}y; echo", "[x'a']['b][c'y]\n", "", 0],
  ["a=(one two); printf '[%s]' x${a[@]@U}y; echo", "[xONE][TWOy]\n", "", 0],
  ["declare -A m=([k1]=v1); printf '[%s]' x${!m[@]}y; echo", "[xk1y]\n", "", 0],
  ["a=(p q r); printf '[%s]' x${!a[@]}y; echo", "[x0][1][2y]\n", "", 0],
  ["a=(p q r); printf '[%s]' \"x${!a[@]}y\"; echo", "[x0][1][2y]\n", "", 0],
  ["a=(p q r); printf '[%s]' \"x${!a[*]}y\"; echo", "[x0 1 2y]\n", "", 0],
  ["foo1=a foo2=b; printf '[%s]' x${!foo@}y; echo", "[xfoo1][foo2y]\n", "", 0],
  ["foo1=a foo2=b; printf '[%s]' \"x${!foo@}y\"; echo", "[xfoo1][foo2y]\n", "", 0],
  ["set -- a.c b.c; printf '[%s]' ${@%.c}.o; echo", "[a][b.o]\n", "", 0],
  ["set -- a.c b.c; printf '[%s]' \"<${@%.c}>\"; echo", "[<a][b>]\n", "", 0],
  ["set -- a b c; printf '[%s]' \"x${@:2}y\"; echo", "[xb][cy]\n", "", 0],
  ["set -- a b c; printf '[%s]' x${*:2}y; echo", "[xb][cy]\n", "", 0],
  ["set -- a b c; printf '[%s]' \"x${*:2}y\"; echo", "[xb cy]\n", "", 0],
  ["set -- 'a b' c; printf '[%s]' x$@y; echo", "[xa][b][cy]\n", "", 0],
  ["set -- 'a b' c; printf '[%s]' \"x$@y\" \"$@$@\"; echo", "[xa b][cy][a b][ca b][c]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' \"x${a[*]%.c}y\"; echo", "[xa by]\n", "", 0],
  ["a=(a.c b.c); printf '[%s]' x${a[*]%.c}y; echo", "[xa][by]\n", "", 0],
  ["a=('p q' r.c); printf '[%s]' ${a[@]%.c}.o; echo", "[p][q][r.o]\n", "", 0],
  ["a=('p q' r.c); printf '[%s]' \"${a[@]%.c}.o\"; echo", "[p q][r.o]\n", "", 0],
  ["a=(a b); printf '[%s]' \"${a[@]}${a[@]}\"; echo", "[a][ba][b]\n", "", 0],
  ["a=(a b); printf '[%s]' ${a[@]}${a[@]}; echo", "[a][ba][b]\n", "", 0],
  ["a=(a b); printf '[%s]' \"${a[@]:0}-${a[@]:1}\"; echo", "[a][b-b]\n", "", 0],
  ["a=(a b); printf '[%s]' \"${a[@]}\"-\"${a[@]}\"; echo", "[a][b-a][b]\n", "", 0],
  ["a=(); printf '[%s]' \"x${a[@]%c}y\"; echo", "[xy]\n", "", 0],
  ["a=(); printf '[%s]' x${a[@]%c}y; echo", "[xy]\n", "", 0],
  ["a=(); printf '[%s]' \"${a[@]%c}\" \"${a[@]:0}\"; echo \"<$#>\"", "[]<0>\n", "", 0],
  ["a=('' b); printf '[%s]' x${a[@]%q}; echo", "[x][b]\n", "", 0],
  ["a=(b ''); printf '[%s]' ${a[@]%q}y; echo", "[b][y]\n", "", 0],
  ["a=('' ''); printf '[%s]' \"x${a[@]%q}\"; echo", "[x][]\n", "", 0],
  ["a=(a b); b=(c d); printf '[%s]' \"${a[@]/a/A}:${b[@]/d/D}\"; echo", "[A][b:c][D]\n", "", 0],
  ["a=('p q' r); printf '[%s]' 'lit '${a[@]^}' lit'; echo", "[lit P][q][R lit]\n", "", 0],
  ["touch f1.c f2.c; a=(f1 f2); printf '[%s]' ${a[@]%1}*.c; echo", "[f][f2.c]\n", "", 0],
  ["touch f1.c f2.c; a=(f1 f2); printf '[%s]' \"${a[@]%1}\"*.c; echo", "[f][f2.c]\n", "", 0],
  ["touch f1.c f2.c; a=('f*' g); printf '[%s]' ${a[@]%q}.c; echo", "[f1.c][f2.c][g.c]\n", "", 0],
  ["touch f1.c f2.c; a=('f*' g); printf '[%s]' \"${a[@]%q}\".c; echo", "[f*][g.c]\n", "", 0],
  ["a=(a.c b.c); for f in ${a[@]%.c}.o; do echo \"<$f>\"; done", "<a>\n<b.o>\n", "", 0],
  ["a=(a.c b.c); b=(${a[@]%.c}.o); declare -p b", "declare -a b=([0]=\"a\" [1]=\"b.o\")\n", "", 0],
  ["a=(a.c b.c); b=(\"${a[@]/.c/.h}.x\"); declare -p b", "declare -a b=([0]=\"a.h\" [1]=\"b.h.x\")\n", "", 0],
  ["HOME=/h; a=(a b); printf '[%s]' ~/${a[@]^}; echo", "[/h/A][B]\n", "", 0],
  ["a=(a b); printf '[%s]' $((1+1))${a[@]#a}$(echo z); echo", "[2][bz]\n", "", 0],
  ["a=(a b); printf '[%s]' \"${a[@]:-none}x\"; echo", "[a][bx]\n", "", 0],
  ["unset a; printf '[%s]' \"${a[@]:-none}x\"; echo", "[nonex]\n", "", 0],
  ["a=(a b); v='c d'; printf '[%s]' ${a[@]%b}$v; echo", "[a][c][d]\n", "", 0],
  ["IFS=; set -- 'p q' r; printf '[%s]' x${@%r}y; echo", "[xp q][y]\n", "", 0],
  ["IFS=; a=('p q' r); printf '[%s]' x${a[@]^}y; echo", "[xP q][Ry]\n", "", 0],
  ["IFS=:; a=('p:q' r); printf '[%s]' x${a[@]%r}y; echo", "[xp][q][y]\n", "", 0],
  ["IFS=:; a=('p:q' r); printf '[%s]' \"x${a[@]%r}y\"; echo", "[xp:q][y]\n", "", 0],
  ["IFS=': '; a=('p: q' 'r :s'); printf '[%s]' x${a[@]/q/Q}y; echo", "[xp][Q][r][sy]\n", "", 0],
];

it("multi-field expansions keep adjacent text and element boundaries, split and glob as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
