/**
 * Issue 20, run 39, fixer SA — sibling of test/workers/attack39d/brace-expansion-quoted-and-escaped-commas.test.ts.
 * Brace expressions read as bash's brace_gobbler: the closing `}` and the commas only outside quotes (`'…'`, `"…"`,
 * `$'…'`), backslash escapes, `$( )`, backquotes and `${ }`; no unquoted comma, no expansion (`{'a,b'}`, `{a\,b}`,
 * `a{b\,c}d`); each alternative keeps its quoting, so a quoted `*`/`?` is literal, a quoted blank does not split,
 * while an unquoted glob in another alternative (or after a quoted prefix, `{'a'b*,c}`) still globs; nested braces,
 * ranges beside quoted alternatives, variables and command substitutions in alternatives, nullglob, `for` lists,
 * array assignments, `~`, and paths with a comma.
 * Expected values: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` in a temp dir holding `a/` and `lines.txt`
 * (pasted; workers tests cannot spawn bash).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

const ROWS: Row[] = [
  ["printf '[%s]' {\"1,2\",3}; echo", "[1,2][3]\n", "", 0],
  ["printf '[%s]' x{\"a,b\",c}y; echo", "[xa,by][xcy]\n", "", 0],
  ["printf '[%s]' {a,'b,c'}; echo", "[a][b,c]\n", "", 0],
  ["printf '[%s]' {a,b\\,c}; echo", "[a][b,c]\n", "", 0],
  ["printf '[%s]' {\\,,x}; echo", "[,][x]\n", "", 0],
  ["printf '[%s]' {x,\\{,\\}}; echo", "[x][{][}]\n", "", 0],
  ["printf '[%s]' a{b\\,c}d; echo", "[a{b,c}d]\n", "", 0],
  ["printf '[%s]' {a,b\\}c}; echo", "[a][b}c]\n", "", 0],
  ["printf '[%s]' {a,b\\{c}; echo", "[a][b{c]\n", "", 0],
  ["printf '[%s]' {'*',b}; echo", "[*][b]\n", "", 0],
  ["printf '[%s]' {\"*\",b}; echo", "[*][b]\n", "", 0],
  ["printf '[%s]' {\\*,b}; echo", "[*][b]\n", "", 0],
  ["printf '[%s]' {*.txt,b}; echo", "[lines.txt][b]\n", "", 0],
  ["printf '[%s]' {'a b',\"c d\"}; echo", "[a b][c d]\n", "", 0],
  ["printf '[%s]' {a,\"b c\"}d; echo", "[ad][b cd]\n", "", 0],
  ["printf '[%s]' {'',a}; echo", "[][a]\n", "", 0],
  ["printf '[%s]' {\"\",a}x; echo", "[x][ax]\n", "", 0],
  ["printf '[%s]' {a,'}'}; echo", "[a][}]\n", "", 0],
  ["printf '[%s]' {a,\"}\"}; echo", "[a][}]\n", "", 0],
  ["printf '[%s]' {a,'{'}; echo", "[a][{]\n", "", 0],
  ["printf '[%s]' {'a,b'}; echo", "[{a,b}]\n", "", 0],
  ["printf '[%s]' {\"a,b\"}; echo", "[{a,b}]\n", "", 0],
  ["printf '[%s]' {a\\,b}; echo", "[{a,b}]\n", "", 0],
  ["printf '[%s]' \"{a,b}\"; echo", "[{a,b}]\n", "", 0],
  ["printf '[%s]' '{a,b}'; echo", "[{a,b}]\n", "", 0],
  ["printf '[%s]' \\{a,b\\}; echo", "[{a,b}]\n", "", 0],
  ["printf '[%s]' {a,{'b,c',d}}; echo", "[a][b,c][d]\n", "", 0],
  ["printf '[%s]' {a,{b,c}'d,e'}; echo", "[a][bd,e][cd,e]\n", "", 0],
  ["printf '[%s]' {1..3}{'x,y',z}; echo", "[1x,y][1z][2x,y][2z][3x,y][3z]\n", "", 0],
  ["printf '[%s]' {'x,y',z}{1..2}; echo", "[x,y1][x,y2][z1][z2]\n", "", 0],
  ["printf '[%s]' {a,b}{'c,d',e}; echo", "[ac,d][ae][bc,d][be]\n", "", 0],
  ["v='p q'; printf '[%s]' {\"$v\",x}; echo", "[p q][x]\n", "", 0],
  ["v='p q'; printf '[%s]' {$v,x}; echo", "[p][q][x]\n", "", 0],
  ["v='p,q'; printf '[%s]' {\"$v\",x}; echo", "[p,q][x]\n", "", 0],
  ["v='*.txt'; printf '[%s]' {\"$v\",x}; echo", "[*.txt][x]\n", "", 0],
  ["v='*.txt'; printf '[%s]' {$v,'x'}; echo", "[lines.txt][x]\n", "", 0],
  ["printf '[%s]' {a,\"$(echo 1,2)\"}; echo", "[a][1,2]\n", "", 0],
  ["printf '[%s]' {a,$(echo 1,2)}; echo", "[a][1,2]\n", "", 0],
  ["printf '[%s]' {a,`echo 3,4`}; echo", "[a][3,4]\n", "", 0],
  ["printf '[%s]' {a,${x:-1,2}}; echo", "[a][1,2]\n", "", 0],
  ["printf '[%s]' {a,\"${x:-1,2}\"}; echo", "[a][1,2]\n", "", 0],
  ["printf '[%s]' {a,'b'\\''c'}; echo", "[a][b'c]\n", "", 0],
  ["printf '[%s]' {a,$'b,c'}; echo", "[a][b,c]\n", "", 0],
  ["printf '[%s]' {a,$'b\\tc'}; echo", "[a][b\tc]\n", "", 0],
  ["printf '[%s]' pre{'a,b',c}post{1,'2,3'}; echo", "[prea,bpost1][prea,bpost2,3][precpost1][precpost2,3]\n", "", 0],
  ["for w in {'x,y',z}; do echo \"<$w>\"; done", "<x,y>\n<z>\n", "", 0],
  ["a=({'p,q',r}); declare -p a", "declare -a a=([0]=\"p,q\" [1]=\"r\")\n", "", 0],
  ["mkdir -p 'x,y'; touch 'x,y'/f; ls {'x,y',nope}/f 2>/dev/null; echo $?", "x,y/f\n2\n", "", 0],
  ["touch 'a*b'; printf '[%s]' {'a*b',c}; echo", "[a*b][c]\n", "", 0],
  ["touch ab1 ab2; printf '[%s]' {'a'b*,c}; echo", "[ab1][ab2][c]\n", "", 0],
  ["touch ab1 ab2; printf '[%s]' {\"a\"b?,'c'}; echo", "[ab1][ab2][c]\n", "", 0],
  ["shopt -s nullglob; printf '[%s]' {'*.none',x*.none}; echo", "[*.none]\n", "", 0],
  ["HOME=/h; printf '[%s]' ~/{'a,b',c}; echo", "[/h/a,b][/h/c]\n", "", 0],
  ["printf '[%s]' {a,'b c'}{d,e}; echo", "[ad][ae][b cd][b ce]\n", "", 0],
  ["v='p q'; printf '[%s]' {a,b}$v; echo", "[ap][q][bp][q]\n", "", 0],
  ["v=; printf '[%s]' {$v,x}; echo", "[x]\n", "", 0],
  ["printf '[%s]' {$(echo 'p q'),x}; echo", "[p][q][x]\n", "", 0],
  ["printf '[%s]' \"<\"{a,b}\">\"; echo", "[<a>][<b>]\n", "", 0],
  ["printf '[%s]' {a,b}{1..2}; echo", "[a1][a2][b1][b2]\n", "", 0],
  ["printf '[%s]' file{,.bak}; echo", "[file][file.bak]\n", "", 0],
];

it("quoted and escaped text in a brace expression stays literal and whole, as bash 5.2", async () => {
  const out = await shellCases({ dirs: ["a"], files: { "lines.txt": "1\n2\n3\n" } }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
