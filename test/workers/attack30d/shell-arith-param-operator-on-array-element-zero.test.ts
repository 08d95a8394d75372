/**
 * Issue 20, thirtieth attack run: inside `$(( ))` and `(( ))`, a `${…}` expansion of an array or assoc element with
 * an operator (`${count[$k]:-0}`, `${a[0]-0}`, `${a[0]#0}`, `${#a[0]}`) evaluates to 0, so the common counting form
 * `count[$k]=$(( ${count[$k]:-0} + 1 ))` leaves every count at 1 and `$(( ${h[a]:-0} + ${h[b]:-0} ))` is 0, silently,
 * status 0. bash 5.2 expands the parameter first (2 and 3). The same expansion outside arithmetic, `${a[0]}` without
 * an operator inside it, and `let "u=${m[x]:-0}+1"` are right.
 *
 * Tried: side by side with bash 5.2.15: a `while IFS=, read` CSV loop counting with `count[$dept]=$(( ${count[$dept]:-0}
 * + 1 ))`, `$(( ${a[0]:-0} + 1 ))`, `${a[0]-0}`, `${a[0]:+7}`, `${a[0]#0}`, `${#a[0]}`, `(( t = ${m[x]:-0} + 1 ))`,
 * `$(( ${m[y]:-9} + 1 ))`, `$(( ${b:-0} + 1 ))` (scalar), `$(( ${c[k]} * 2 ))`, `$(( c[k] * 2 ))`, `let`.
 * Held: a scalar with an operator (`$(( ${b:-0} + 1 ))` is 6), an element without one (`$(( ${h[$k]} + 1 ))`), a
 * subscript in arithmetic (`count[$w]=$((count[$w]+1))`), an unset element's default (`${m[y]:-9}` gives 10), `let`.
 * Found (high — the usual assoc-array tally in a report script silently counts wrong, exit 0; 2 of 2 runs).
 * Suggested fix: src/backends/worker-shell/isolate/arith-subst.ts (AX, run 29) or the arithmetic text expansion it
 * feeds: a `${name[sub]op…}` inside `$(( ))`/`(( ))` seems read as an arithmetic subscript reference (or cut at `[`)
 * instead of being parameter-expanded with the word expander before evaluation — expand every `${ … }` in the
 * arithmetic text as bash does, then evaluate.
 *
 * Fixed: a `${ … }` in arithmetic is expanded by just-bash's word expander (`__arithSubst.braced` in
 * src/backends/worker-shell/isolate/arith-subst.ts, patched in for just-bash's hand-written `${ }` reader and the
 * subscript reader by scripts/gen-shell.mjs, AE), and `$(( ))` / `(( ))` / `for (( ))` text holding one is expanded
 * before it is evaluated, as bash (AE, run 30). Not a regression of AX: the hand-written reader looked the whole
 * `name[sub]` up as one variable before it too. Siblings in test/workers/fix30/shell-arith-param-and-nounset.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const csv = "name,dept\nalice,eng\nbob,eng\ncarol,ops\n";

it("a ${element:-default} inside $(( )) is the element's value, as bash", async () => {
  const out = await shellCases({ files: { "data.csv": csv } }, [
    "declare -A count; while IFS=, read -r name dept; do [[ $name == name ]] && continue; count[$dept]=$(( ${count[$dept]:-0} + 1 )); done < data.csv; for k in \"${!count[@]}\"; do echo \"$k=${count[$k]}\"; done | sort",
    "declare -A h; h[a]=1; h[b]=2; echo $(( ${h[a]:-0} + ${h[b]:-0} ))",
    "a=(5); echo $(( ${a[0]:-0} + 1 )) $(( ${a[0]-0} + 1 )) $(( ${#a[0]} + 1 ))",
    "declare -A m; m[x]=4; (( t = ${m[x]:-0} + 1 )); echo $t",
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    // Was: "eng=1\nops=1\n".
    ["declare -A count; while IFS=, read -r name dept; do [[ $name == name ]] && continue; count[$dept]=$(( ${count[$dept]:-0} + 1 )); done < data.csv; for k in \"${!count[@]}\"; do echo \"$k=${count[$k]}\"; done | sort", "eng=2\nops=1\n", "", 0],
    // Was: "0\n".
    ["declare -A h; h[a]=1; h[b]=2; echo $(( ${h[a]:-0} + ${h[b]:-0} ))", "3\n", "", 0],
    // Was: "1 1 1\n".
    ["a=(5); echo $(( ${a[0]:-0} + 1 )) $(( ${a[0]-0} + 1 )) $(( ${#a[0]} + 1 ))", "6 6 2\n", "", 0],
    // Was: "1\n".
    ["declare -A m; m[x]=4; (( t = ${m[x]:-0} + 1 )); echo $t", "5\n", "", 0],
  ]);
});
