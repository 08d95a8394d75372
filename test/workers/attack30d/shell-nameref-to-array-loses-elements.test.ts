/**
 * Issue 20, thirtieth attack run: a nameref (`local -n` / `declare -n`) to an array does not act on the array: through
 * `local -n ref=$1`, `ref+=(new)` appends nothing, `ref=(a b c)` leaves the caller's array empty, and `"${ref[@]}"`
 * expands to the referenced array's NAME (`${#ref[@]}` is 1) instead of its elements; bash 5.2 resolves the name for
 * every array operation. Scripts that pass an array to a helper by reference silently read or fill the wrong data.
 *
 * Tried: side by side with bash 5.2.15: `f() { local -n ref=$1; ref+=(new); }`, `ref=(a b c)` into an unset name,
 * `r[2]=z`, `r+=x` on a string, `m[k]=v` on an assoc array, `"${#r[@]} ${r[1]}"` and `for e in "${r[@]}"`, and a
 * global `declare -n nr=arr; nr+=(2 3)`.
 * Held: a nameref to a scalar (`nr=changed`, `${!ref}`), element reads and writes (`${r[1]}`, `r[2]=z`, `m[k]=v`),
 * string append `r+=x`.
 * Found (medium — the pass-an-array-by-reference helper of a report script loses the appended/assigned elements and
 * iterates the array's name, exit 0; 2 of 2 runs).
 * Suggested fix: in just-bash's interpreter as patched by scripts/gen-shell.mjs: resolve a nameref before a compound
 * array assignment (`ref=(…)`, `ref+=(…)`) and before `${ref[@]}` / `${ref[*]}` / `${#ref[@]}` / `${!ref[@]}`, as the
 * element paths already do.
 *
 * Fixed: scripts/gen-shell.mjs (PX_PATCHES) with src/backends/worker-shell/isolate/param-expansion.ts: a parameter
 * expansion whose name (or `${!ref[@]}`'s array) is a nameref to a plain variable is expanded as that variable's —
 * in the word expander's entry (so the quoted `"${ref[@]}"` forms see it too) and in the part expander — except
 * `${!ref}`; a compound assignment (`ref=(…)`, `ref+=(…)`) and `unset 'ref[i]'` act on the target. Siblings in
 * test/workers/fix30/shell-param-expansion.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("a nameref to an array appends, assigns and expands the referenced array, as bash", async () => {
  const out = await shellCases({}, [
    'f() { local -n ref=$1; ref+=(new); }; arr=(old); f arr; echo "${arr[@]}"',
    'f() { local -n ref=$1; ref=(a b c); }; f out; echo "${#out[@]} ${out[*]}"',
    'f() { local -n r=$1; echo "${#r[@]} ${r[1]}"; for e in "${r[@]}"; do echo "-$e"; done; }; a=(p q); f a',
    'declare -n nr=arr; arr=(1); nr+=(2 3); echo "${arr[@]}"',
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    // Was: "old\n".
    ['f() { local -n ref=$1; ref+=(new); }; arr=(old); f arr; echo "${arr[@]}"', "old new\n", "", 0],
    // Was: "0 \n".
    ['f() { local -n ref=$1; ref=(a b c); }; f out; echo "${#out[@]} ${out[*]}"', "3 a b c\n", "", 0],
    // Was: "1 q\n-a\n".
    ['f() { local -n r=$1; echo "${#r[@]} ${r[1]}"; for e in "${r[@]}"; do echo "-$e"; done; }; a=(p q); f a', "2 q\n-p\n-q\n", "", 0],
    // Was: "1\n".
    ['declare -n nr=arr; arr=(1); nr+=(2 3); echo "${arr[@]}"', "1 2 3\n", "", 0],
  ]);
});
