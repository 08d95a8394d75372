/**
 * Issue 20, twenty-seventh attack run: the `${v@A}` transformation — an assignment that recreates the variable —
 * leaves out the attributes and arrays: `declare -i i=3; ${i@A}` is `i='3'` (bash `declare -i i='3'`), a readonly
 * or exported variable loses `-r`/`-x`, and `${a[@]@A}` of an array prints its values `1 2` instead of `declare -a
 * a=([0]="1" [1]="2")` (an associative array: `1`). Re-evaluating the text makes a plain string variable.
 * Tried: side by side with GNU bash 5.2.15 — `@A` of a plain, `-i`, `-r`, exported variable, an indexed and an
 * associative array; `@a`, `@Q`, `@E`, `@U`, `@u`, `@L`, `@P` on scalars and arrays; an unset variable.
 * Held: `${x@A}` of a plain variable; `@a` (`ir`, `a`, `A`, empty); `@E`, `@U`, `@u`, `@L`; `${a[@]@Q}` one word per
 * element. (Also seen, not asked here: `${v@Q}` of a value with `'` is `$'a\'b'` where bash gives `'a'\''b'` — the
 * same value when read back; `${x@P}` does not expand `$HOME`/`$(…)` in the prompt string.)
 * Found (low — a serialised variable silently loses its type; `@A` is rare in agent scripts; 2 of 2 runs).
 * Suggested fix: in just-bash's `@A` transformation (patched by scripts/gen-shell.mjs) print what `declare -p`
 * prints for the variable when it has attributes or is an array (`declare -i i='3'`, `declare -a a=(…)`), and
 * `NAME='value'` only for a plain scalar, as bash's string_var_assignment / array_var_assignment.
 *
 * Fixed: fixer SJ (run 27) — scripts/gen-shell.mjs (`// SJ`) and isolate/expand-decl.ts: `${v@A}` is `NAME='value'`
 * for a plain variable and `declare -FLAGS NAME='value'` with its `@a` attributes (transformA); `${a[@]@A}` /
 * `${a[*]@A}` are the array's `declare -a`/`-A` line as `declare -p` (quoted `[@]` gives the words `declare`, the flags
 * and the assignment, as bash 5.2); `${@@A}` is `set -- 'a' 'b'`. `${v@Q}` quotes `'a'\''b'` as bash, `$'…'` only
 * for control characters (quoteQ).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("${v@A} keeps the variable's attributes and array values, as bash", async () => {
  const out = await shellCases({}, [
    "declare -i i=3; echo \"${i@A}\"",
    "declare -r r=x; echo \"${r@A}\"",
    "export e=1; echo \"${e@A}\"",
    "a=(1 2); echo \"${a[@]@A}\"",
    "declare -A m=([a]=1); echo \"${m[@]@A}\"",
  ]);
  expect(out).toEqual([
    // Was: "i='3'\n".
    ["declare -i i=3; echo \"${i@A}\"", "declare -i i='3'\n", ""],
    // Was: "r='x'\n".
    ["declare -r r=x; echo \"${r@A}\"", "declare -r r='x'\n", ""],
    // Was: "e='1'\n".
    ["export e=1; echo \"${e@A}\"", "declare -x e='1'\n", ""],
    // Was: "1 2\n".
    ["a=(1 2); echo \"${a[@]@A}\"", 'declare -a a=([0]="1" [1]="2")\n', ""],
    // Was: "1\n".
    ["declare -A m=([a]=1); echo \"${m[@]@A}\"", 'declare -A m=([a]="1" )\n', ""],
  ]);
});
