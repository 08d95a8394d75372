/**
 * Issue 20, twenty-sixth attack run: in shell arithmetic a variable's value is read as a decimal number even when it
 * is an octal constant — bash evaluates the value as an arithmetic expression, so `x=010; echo $((x))` is 8 and
 * `x=08; $((x))` is `value too great for base`. Ours gives 10 (and 8 for `08`, exit 0), also in `((x++))`, `let`,
 * an array subscript `${a[x]}` and a substring offset `${s:x:1}`; a literal `$((010))` and `[[ $x -eq 8 ]]` are
 * right, so the same number means two things. Zero-padded values (dates `09`, counters `007`) are the usual source.
 * Sibling of the 64-bit arithmetic of run 25 (isolate/arith64.ts).
 * Tried: side by side with GNU bash 5.2.15 — x=010 / 08 / 0x1f / 2+3 / ' 7 ' / an indirect name, in $(( )), (( )),
 * let, declare -i, [[ -eq ]], ${a[x]}, ${s:x:n}.
 * Held: literals ($((010)) 8, $((08)) an error), x=0x1f (31), x=2+3 ($((x*2)) 10), x=' 7 ', x=y;y=3, declare -i,
 * [[ $x -eq 8 ]].
 * Found (medium — silently wrong numbers and indexes; 2 of 2 runs).
 * Suggested fix: when an arithmetic operand names a variable, evaluate its value with the same integer-constant rules
 * as a literal (leading 0 octal, 0x hex, base#n, `08` an error) — bash's expr_streval recursion — instead of
 * parsing it as decimal.
 * Fixed: the evaluator takes a variable's (or `$1`'s) value as a number only when it is a plain decimal
 * (isolate/arith64.ts `decimal`: no leading zero); anything else is evaluated as an expression, so 010 is octal, 0x1f
 * hex, `08` `08: value too great for base (error token is "08")` (the literal's text is now named in that message).
 * `++`/`--` use the operand's evaluated value, `op=` (`x+=1`) evaluates the variable's value, `${x}` and `$(cmd)`
 * operands are evaluated too; where a subscript's evaluation failed and just-bash fell back to a plain number, a base
 * error now propagates (`x=09; ${a[x]}` fails as bash). Siblings: test/workers/fix26/shell-pattern-for-arith-sc.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("an arithmetic variable holding 010 is octal 8, and 08 is an error, as bash", async () => {
  const out = await shellCases({}, [
    "x=010; echo $((x)) $((x+1)); ((x++)); echo $x",
    "x=010; let z=x; echo $z",
    "x=010; a=(a b c d e f g h i j); echo ${a[x]}",
    "s=abcdefghijk; x=010; echo ${s:x:1}",
    "x=08; echo $((x)); echo st=$?",
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] as const });
  expect(out).toEqual([
    // Was: "10 11\n11\n".
    ["x=010; echo $((x)) $((x+1)); ((x++)); echo $x", "8 9\n9\n", "", 0],
    ["x=010; let z=x; echo $z", "8\n", "", 0],
    // Was: "\n" (index 10).
    ["x=010; a=(a b c d e f g h i j); echo ${a[x]}", "i\n", "", 0],
    // Was: "k\n".
    ["s=abcdefghijk; x=010; echo ${s:x:1}", "i\n", "", 0],
    // bash: `08: value too great for base (error token is "08")` and the shell ends, status 1. Was: "8\nst=0\n".
    // Was (until fixer L2, run 27): '08: value too great for base (error token is "08")\n', without bash's prefix.
    ["x=08; echo $((x)); echo st=$?", "", 'bash: line 1: 08: value too great for base (error token is "08")\n', 1],
  ]);
});
