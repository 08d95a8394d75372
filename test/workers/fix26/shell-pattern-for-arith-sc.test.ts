/**
 * Issue 20, twenty-sixth attack run, fixer SC: siblings of test/workers/attack26b/shell-case-bracket-bang-not-negated,
 * shell-for-without-in-splits-positional and shell-arith-variable-octal-read-as-decimal, each expectation taken from
 * GNU bash 5.2.15 run side by side: bracket expressions of `case`/`[[ ]]` (src/backends/worker-shell/isolate/
 * pattern-match.ts), `for NAME;`, a variable's value in arithmetic (isolate/arith64.ts decimal, rethrowBaseError),
 * `test`'s operand errors and `${!x}` of an unset or invalid name.
 */
import { describe, expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const withStatus = { collect: (_ws: unknown, c: string, r: { stdout: string; stderr: string; exitCode: number }) => [c, r.stdout, r.stderr, r.exitCode] as const };

describe("bracket expressions in case and [[ ]] as bash", () => {
  it("reads ], \\, classes, ranges and an unclosed [ as bash's glob matcher", async () => {
    const c = (word: string, pattern: string) => `case ${word} in ${pattern}) echo y;; *) echo n;; esac`;
    const cases: [string, string][] = [
      [c("a", "[[:foo:]a]"), "y\n"], // an unknown class matches nothing, the rest still does
      [c('"["', "[[:foo:]"), "n\n"], // no closing ]: [ is itself, then [:foo:] a bracket
      [c("b", "[z-a]"), "n\n"], // a reversed range matches nothing
      [c("-", "[a-]"), "y\n"],
      [c('"]"', "[]]"), "y\n"],
      [c('"]"', "[!]a]"), "n\n"],
      [c("b", "[!]a]"), "y\n"],
      [c("x", "[!]"), "n\n"],
      [c('"[!]"', "[!]"), "y\n"],
      [c('"\\\\"', "[\\\\]"), "y\n"],
      [c('"]"', "[\\]]"), "y\n"],
      [c("e", "[[=e=]]"), "y\n"],
      [c("a", "[[.a.]]"), "y\n"],
      [c("b", "[a-c-e]"), "y\n"],
      [c("d", "[a-c-e]"), "n\n"],
      [c('"^"', "[!^]"), "n\n"],
      [c("a", "[^]"), "n\n"],
      [c("-", "[!-a]"), "n\n"],
      [c("é", "[!a]"), "y\n"],
      ["shopt -s nocasematch; case A in [!a]) echo y;; *) echo n;; esac", "n\n"],
      ["shopt -s nocasematch; [[ B == [!a] ]] && echo y || echo n", "y\n"],
      ["[[ b != [!a] ]] && echo ne || echo eq", "eq\n"],
      ["shopt -s extglob; [[ ayz == @([!x])yz ]] && echo y || echo n", "y\n"],
      ['p="[!a]"; [[ b == $p ]] && echo y || echo n; [[ b == "$p" ]] && echo y || echo n', "y\nn\n"],
    ];
    const out = await shellCases({}, cases.map(([command]) => command));
    expect(out).toEqual(cases.map(([command, stdout]) => [command, stdout, ""]));
  });
});

describe("for NAME; iterates \"$@\"", () => {
  it("keeps a * unglobbed, blanks inside, empty arguments, and runs no iteration without arguments", async () => {
    const out = await shellCases({ files: { "a.txt": "" } }, [
      'set -- "*" "a  b"; for a; do echo "[$a]"; done',
      'f() { for a do echo "<$a>"; done; }; f "" ""',
      "set --; for a; do echo x; done; echo end",
    ]);
    expect(out).toEqual([
      ['set -- "*" "a  b"; for a; do echo "[$a]"; done', "[*]\n[a  b]\n", ""],
      ['f() { for a do echo "<$a>"; done; }; f "" ""', "<>\n<>\n", ""],
      ["set --; for a; do echo x; done; echo end", "end\n", ""],
    ]);
  });
});

describe("a variable's value in arithmetic is read as bash reads a literal", () => {
  it("op=, ++ on an element, $1, $(cmd), ${x}, blanks, signs, hex, base#, expressions and names", async () => {
    const out = await shellCases({}, [
      "x=010; ((x+=1)); echo $x; y=010; ((y++)); echo $y; a=(010 1); ((a[0]++)); echo ${a[0]}",
      "set -- 010; y=010; echo $(($1)) $(( $(echo 010) )) $(( ${y} ))",
      'x=" 010 "; echo $((x)); x=-010; echo $((x)); x=0x1f; echo $((x)); x=2#101; echo $((x)); x=64#_; echo $((x))',
      'x="1+010"; echo $((x)); x=2+3; echo $((x*2)); x=y; y=3; echo $((x)); x=abc; abc=5; ((x++)); echo $x $abc',
      "i=5; ((i=7)); echo $i; n=08; ((i=4)); echo $i; declare -i d; d=010; echo $d",
    ]);
    expect(out).toEqual([
      ["x=010; ((x+=1)); echo $x; y=010; ((y++)); echo $y; a=(010 1); ((a[0]++)); echo ${a[0]}", "9\n9\n9\n", ""],
      ["set -- 010; y=010; echo $(($1)) $(( $(echo 010) )) $(( ${y} ))", "8 8 8\n", ""],
      ['x=" 010 "; echo $((x)); x=-010; echo $((x)); x=0x1f; echo $((x)); x=2#101; echo $((x)); x=64#_; echo $((x))', "8\n-8\n31\n5\n63\n", ""],
      ['x="1+010"; echo $((x)); x=2+3; echo $((x*2)); x=y; y=3; echo $((x)); x=abc; abc=5; ((x++)); echo $x $abc', "9\n10\n3\n6 5\n", ""],
      ["i=5; ((i=7)); echo $i; n=08; ((i=4)); echo $i; declare -i d; d=010; echo $d", "7\n4\n8\n", ""],
    ]);
  });

  it("a value that is no number in its base is an error naming it: fatal in $(( )), ${a[x]}, ${s:x}; status 1 in let and (( ))", async () => {
    const out = await shellCases({}, [
      "echo $((08)); echo st=$?",
      "x=09; a=(a b); echo ${a[x]}; echo st=$?",
      "x=09; s=abc; echo ${s:x:1}; echo st=$?",
      "x=08; let y=x; echo st=$?; ((x++)); echo st=$? x=$x",
      "x=08; ( echo $((x)) ); echo st=$?",
    ], withStatus);
    expect(out).toEqual([
      // Was (before fixer L2, run 27): '08: value too great for base (error token is "08")\n' without bash's prefix.
      ["echo $((08)); echo st=$?", "", 'bash: line 1: 08: value too great for base (error token is "08")\n', 1],
      ["x=09; a=(a b); echo ${a[x]}; echo st=$?", "", 'bash: line 1: 09: value too great for base (error token is "09")\n', 1],
      // bash 5.2 names the variable: `bash: line 1: s: 09: value too great …`.
      ["x=09; s=abc; echo ${s:x:1}; echo st=$?", "", 'bash: line 1: 09: value too great for base (error token is "09")\n', 1],
      [
        "x=08; let y=x; echo st=$?; ((x++)); echo st=$? x=$x",
        "st=1\nst=1 x=08\n",
        'bash: let: y=x: 08: value too great for base (error token is "08")\nbash: arithmetic expression: 08: value too great for base (error token is "08")\n',
        0,
      ],
      ["x=08; ( echo $((x)) ); echo st=$?", "st=1\n", 'bash: line 1: 08: value too great for base (error token is "08")\n', 0],
    ]);
  });
});

describe("test and [ report bad operands as bash, status 2", () => {
  it("integer expression expected, unary operator expected", async () => {
    const out = await shellCases({}, [
      "[ abc -eq 1 ]; echo st=$?",
      "[ 1 -eq abc ]; echo st=$?",
      '[ "" -eq 0 ]; echo st=$?',
      '[ " 1 " -eq 1 ]; echo st=$?; [ +1 -eq 1 ]; echo st=$?',
      "test 1x -lt 2; echo st=$?",
      "test 1 -eq; echo st=$?",
      "test -Q x; echo st=$?; test -eq x; echo st=$?; test ! x; echo st=$?",
    ]);
    expect(out).toEqual([
      ["[ abc -eq 1 ]; echo st=$?", "st=2\n", "bash: [: abc: integer expression expected\n"],
      ["[ 1 -eq abc ]; echo st=$?", "st=2\n", "bash: [: abc: integer expression expected\n"],
      ['[ "" -eq 0 ]; echo st=$?', "st=2\n", "bash: [: : integer expression expected\n"],
      ['[ " 1 " -eq 1 ]; echo st=$?; [ +1 -eq 1 ]; echo st=$?', "st=0\nst=0\n", ""],
      ["test 1x -lt 2; echo st=$?", "st=2\n", "bash: test: 1x: integer expression expected\n"],
      ["test 1 -eq; echo st=$?", "st=2\n", "bash: test: 1: unary operator expected\n"],
      ["test -Q x; echo st=$?; test -eq x; echo st=$?; test ! x; echo st=$?", "st=2\nst=2\nst=1\n", "bash: test: -Q: unary operator expected\nbash: test: -eq: unary operator expected\n"],
    ]);
  });
});

describe("${!x} as bash", () => {
  it("an unset x ends the shell, status 1 (also under set -u and with :+); a value naming no parameter too", async () => {
    const out = await shellCases({}, [
      "set -u; echo ${!x}; echo after",
      "echo ${!x}; echo after",
      'echo "[${!x:+d}]"; echo after',
      "f() { echo ${!x}; }; (f); echo st=$?",
      "x=; echo ${!x}; echo after",
      'x="a b"; echo ${!x}; echo after',
      "x=a[1]; a=(p q); set -- s; echo ${!x}; x=@; echo ${!x}; x=y; y=v; echo ${!x}",
    ], withStatus);
    expect(out).toEqual([
      ["set -u; echo ${!x}; echo after", "", "bash: x: invalid indirect expansion\n", 1],
      ["echo ${!x}; echo after", "", "bash: x: invalid indirect expansion\n", 1],
      ['echo "[${!x:+d}]"; echo after', "", "bash: x: invalid indirect expansion\n", 1],
      ["f() { echo ${!x}; }; (f); echo st=$?", "st=1\n", "bash: x: invalid indirect expansion\n", 0],
      ["x=; echo ${!x}; echo after", "", "bash: : invalid variable name\n", 1],
      ['x="a b"; echo ${!x}; echo after', "", "bash: a b: invalid variable name\n", 1],
      ["x=a[1]; a=(p q); set -- s; echo ${!x}; x=@; echo ${!x}; x=y; y=v; echo ${!x}", "q\ns\nv\n", "", 0],
    ]);
  });
});
