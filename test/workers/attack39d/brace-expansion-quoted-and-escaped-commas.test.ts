/**
 * Issue 20, thirty-ninth attack run: inside a brace expansion the shell splits at a QUOTED or ESCAPED comma and
 * globs a quoted `*`: `printf '[%s]' {"1,2",3}` prints `[1][2][3]` (bash 5.2.15: `[1,2][3]`), `{a,'b,c'}` prints
 * `[a]['b][c']` (quotes kept as text; bash `[a][b,c]`), `{a,b\,c}` prints `[a][b\][c]` (bash `[a][b,c]`),
 * `{'*',b}` expands `*` to the directory's names (`[a][lines.txt][b]`; bash `[*][b]`), `{x,\{,\}}` is `[x][{,}]`
 * (bash `[x][{][}]`), `a{b\,c}d` — no unquoted comma, so no expansion in bash (`[a{b,c}d]`) — becomes
 * `[ab\d][acd]`. So `ls {'x,y',nope}/f` looks for `'x/f` and `y'/f` instead of the directory `x,y`, and an `rm
 * {'*.tmp',old}` (meant literally) removes every `.tmp` file.
 * Tried: side by side with bash 5.2.15 (`bash --norc --noprofile -c`, a temp dir): see the sibling
 * array-expansion-loses-adjacent-text.test.ts; brace expansion: lists, sequences with steps and padding, `{-2..2}`,
 * `{z..a..2}`, empty alternatives (`file{,.bak}`), nested text, `{a}`, `"{a,b}"`, `'{a,b}'`, `\{a,b\}`, `{$a,2}`,
 * alternatives holding quoted blanks (`{'a b',"c d"}`) or a quoted expansion (`{a,"$HOME"x}`), a variable holding a
 * comma (`{a,$v}`).
 * Held: everything in that list; quoted blanks inside an alternative, a variable's comma, a fully quoted or escaped
 * brace pair.
 * Found (medium — a quoted or escaped comma or glob character inside braces is how a script names a file with a
 * comma or a literal `*` in it; the shell makes other words (other paths, or a glob's matches), status 0; 2 of 2
 * runs): the rows below; bash's output is the expected value.
 * Suggested fix: just-bash's brace-expansion reader (in the parser, patched by scripts/gen-shell.mjs) splits the
 * alternatives on every `,`/`{`/`}` in the word's text; split only at the unquoted, unescaped ones (bash's
 * brace_gobbler skips quoted strings and `\x`), keep each alternative's quoting so a quoted `*` is not globbed, and
 * drop the backslash of `\,`, `\{`, `\}` as quote removal does.
 * Fixed: the parser's brace reader finds the closing `}` and the commas outside quotes, escapes, `$( )` and
 * backquotes, and a brace word holding quoted text or an expansion expands as one word per combination of
 * alternatives, each expanded, split and globbed on its own — src/backends/worker-shell/isolate/brace-words.ts,
 * SA39_PATCHES in scripts/gen-shell.mjs (issue 20, run 39, fixer SA). Siblings:
 * test/workers/fix39/shell-brace-quoting.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

// Expected values: bash 5.2.15, `bash --norc --noprofile -c SCRIPT` in a dir holding `a/` and `lines.txt`.
const ROWS: Row[] = [
  ["printf '[%s]' {\"1,2\",3}; echo", "[1,2][3]\n", "", 0],
  ["printf '[%s]' x{\"a,b\",c}y; echo", "[xa,by][xcy]\n", "", 0],
  ["printf '[%s]' {a,'b,c'}; echo", "[a][b,c]\n", "", 0],
  ["printf '[%s]' {a,b\\,c}; echo", "[a][b,c]\n", "", 0],
  ["printf '[%s]' {\\,,x}; echo", "[,][x]\n", "", 0],
  ["printf '[%s]' {x,\\{,\\}}; echo", "[x][{][}]\n", "", 0],
  ["printf '[%s]' a{b\\,c}d; echo", "[a{b,c}d]\n", "", 0],
  ["printf '[%s]' {a,b\\}c}; echo", "[a][b}c]\n", "", 0],
  ["printf '[%s]' {'*',b}; echo", "[*][b]\n", "", 0],
  ["mkdir -p 'x,y'; touch 'x,y'/f; ls {'x,y',nope}/f 2>/dev/null; echo $?", "x,y/f\n2\n", "", 0],
];

it("a quoted or escaped comma, brace or glob character inside a brace expansion is literal, as bash 5.2", async () => {
  const out = await shellCases({ dirs: ["a"], files: { "lines.txt": "1\n2\n3\n" } }, ROWS.map((r) => r[0]), { collect });
  // Was: "[1][2][3]", "[xay][xby][xcy]", "[a]['b][c']", "[a][b\\][c]", "[\\][x]", "[x][{,}]", "[ab\\d][acd]",
  // "[ac}][b\\c}]", "[a][lines.txt][b]", "2\n".
  expect(out).toEqual(ROWS);
});
