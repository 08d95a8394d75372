/**
 * Issue 20, thirtieth run, fixer AE: a `${ … }` inside shell arithmetic is expanded by the shell's word expander —
 * array and assoc elements with an operator (`${count[$k]:-0}`), `${a[@]:1:1}`, `${#a[@]}`, `${m[k]:=5}` (assigns),
 * nested `$(( ))` — in `$(( ))`, `(( ))`, `for (( ))`, `$[ ]`, `${s:…}` offsets and subscripts, and `$(( ))` / `(( ))`
 * text is expanded before it is evaluated (`x=1+2; $(( ${x} * 3 ))` is 7). `${m[key]:=v}` of an assoc array assigns
 * that key (it set m[0]), and a `${s:off:len}` offset holding a `${ … }` is read whole. Under `set -u` an unset
 * variable in `[[ ]]`, `(( ))`, `for (( ))` or `case` ends the shell (127; a subshell or `$( )` with 1) even with
 * `|| true`, and `${X:?msg}` there does too. Expected outputs are bash 5.2.15's (`bash -c`, run in a temp dir; its
 * `line 1: ` left out of stderr).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("a ${ } in arithmetic is the word expander's value, expanded before evaluation, as bash", async () => {
  const out = await shellCases({}, [
    "a=(5 6 7); echo $(( ${a[@]:1:1} + 1 )) $(( ${#a[@]} + 1 )) $(( ${#a[1]} + 1 ))",
    "declare -A m; echo $(( ${m[k]:=5} + 1 )) ${m[k]}",
    "v=; echo $(( ${v:-$((1+1))} * 3 )) $(( ${x:-$(( 2 ))} + 1 ))",
    "declare -A m; echo ${m[k]:=5} ${m[k]}; : ${m[j]:=7}; echo ${#m[@]} ${m[j]} ${m[0]-none}",
    "a=(3); echo $(( ${a[0]:-$(( 1 + ${a[0]} ))} * 2 ))",
    "a=(2 4); for (( i=${a[0]:-0}; i < ${a[1]:-0}; i++ )); do printf '%s ' $i; done; echo",
    "i=; b=(9 8); echo ${b[${i:-1}]} $(( b[${i:-1}] ))",
    "a=(5 6); echo $[ ${a[1]:-0} + 1 ]",
    "x=\"1+2\"; echo $(( ${x} * 3 )); (( y = ${x} * 3 )); echo $y",
    "a=(5); echo $(( ${a[0]#5} + 1 )) $(( ${a[0]/5/9} + 1 ))",
    "a=(1 2); s=abcdef; echo ${s:${a[1]:-0}:1} ${s:$(( ${a[0]:-0} )):2}",
    "s=abcdef; echo ${s:${i:-1}:1} ${s:${i:-1}:${n:-2}}",
    "declare -A m; m[x]=4; (( z = ${m[x]:+7} )); echo $z",
    "declare -A m; m[x]=4; let \"u = ${m[x]:-0} + 1\"; echo $u",
    "h=16; echo $(( ${h}#ff )) $(( ${h}0 + 1 ))",
    "declare -A c; for w in a b a c a; do (( c[$w] = ${c[$w]:-0} + 1 )); done; echo ${c[a]} ${c[b]} ${c[c]}",
    "a=(1 2 3); i=1; echo $(( ${a[i]} + ${a[$i+1]:-0} ))",
    "echo $(( ${X:?oops} + 1 )); echo after",
    "set -u; a=(1); echo $(( ${a[3]} + 1 )); echo after",
    "f() { echo $(( ${1:-0} + ${#} )); }; f 4 5",
    "a=(4); echo $(( $(echo ${a[0]:-0}) + ${a[0]:-0} ))",
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    ["a=(5 6 7); echo $(( ${a[@]:1:1} + 1 )) $(( ${#a[@]} + 1 )) $(( ${#a[1]} + 1 ))", "7 4 2\n", "", 0],
    ["declare -A m; echo $(( ${m[k]:=5} + 1 )) ${m[k]}", "6 5\n", "", 0],
    ["v=; echo $(( ${v:-$((1+1))} * 3 )) $(( ${x:-$(( 2 ))} + 1 ))", "6 3\n", "", 0],
    ["declare -A m; echo ${m[k]:=5} ${m[k]}; : ${m[j]:=7}; echo ${#m[@]} ${m[j]} ${m[0]-none}", "5 5\n2 7 none\n", "", 0],
    ["a=(3); echo $(( ${a[0]:-$(( 1 + ${a[0]} ))} * 2 ))", "6\n", "", 0],
    ["a=(2 4); for (( i=${a[0]:-0}; i < ${a[1]:-0}; i++ )); do printf '%s ' $i; done; echo", "2 3 \n", "", 0],
    ["i=; b=(9 8); echo ${b[${i:-1}]} $(( b[${i:-1}] ))", "8 8\n", "", 0],
    ["a=(5 6); echo $[ ${a[1]:-0} + 1 ]", "7\n", "", 0],
    ["x=\"1+2\"; echo $(( ${x} * 3 )); (( y = ${x} * 3 )); echo $y", "7\n7\n", "", 0],
    ["a=(5); echo $(( ${a[0]#5} + 1 )) $(( ${a[0]/5/9} + 1 ))", "1 10\n", "", 0],
    ["a=(1 2); s=abcdef; echo ${s:${a[1]:-0}:1} ${s:$(( ${a[0]:-0} )):2}", "c bc\n", "", 0],
    ["s=abcdef; echo ${s:${i:-1}:1} ${s:${i:-1}:${n:-2}}", "b bc\n", "", 0],
    ["declare -A m; m[x]=4; (( z = ${m[x]:+7} )); echo $z", "7\n", "", 0],
    ["declare -A m; m[x]=4; let \"u = ${m[x]:-0} + 1\"; echo $u", "5\n", "", 0],
    ["h=16; echo $(( ${h}#ff )) $(( ${h}0 + 1 ))", "255 161\n", "", 0],
    ["declare -A c; for w in a b a c a; do (( c[$w] = ${c[$w]:-0} + 1 )); done; echo ${c[a]} ${c[b]} ${c[c]}", "3 1 1\n", "", 0],
    ["a=(1 2 3); i=1; echo $(( ${a[i]} + ${a[$i+1]:-0} ))", "5\n", "", 0],
    ["echo $(( ${X:?oops} + 1 )); echo after", "", "bash: X: oops\n", 127],
    ["set -u; a=(1); echo $(( ${a[3]} + 1 )); echo after", "", "bash: a[3]: unbound variable\n", 127],
    ["f() { echo $(( ${1:-0} + ${#} )); }; f 4 5", "6\n", "", 0],
    ["a=(4); echo $(( $(echo ${a[0]:-0}) + ${a[0]:-0} ))", "8\n", "", 0],
  ]);
});

it("set -u and ${X:?} end the shell from [[ ]], (( )), for (( )) and case, as bash", async () => {
  const out = await shellCases({}, [
    "set -u; a=(1); [[ ${a[5]} ]]; echo after",
    "set -u; [[ -v X ]]; echo after $?",
    "set -u; [[ ${X:-} ]]; echo after $?",
    "set -u; (( X )); echo after $?",
    "set -u; (( X + 1 )); echo after $?",
    "set -u; case $X in *) echo in;; esac; echo after",
    "set -u; f(){ [[ $X ]]; echo inf; }; f; echo after",
    "set -u; ( [[ $X ]]; echo insub ); echo after $?",
    "set -u; [[ $X ]] || true; echo after",
    "set -u; [[ $X ]] && echo y; echo after",
    "set -u; x=$( [[ $X ]]; echo in ); echo after $? \"$x\"",
    "set -u; for ((i=0;i<X;i++)); do :; done; echo after",
    "[[ ${X:?oops} ]]; echo after",
    "(( ${X:?oops} )); echo after",
    "set -u; [[ $X == y ]] | cat; echo after $?",
    "set -u; X=1; [[ $X == 1 ]]; echo after $?",
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    ["set -u; a=(1); [[ ${a[5]} ]]; echo after", "", "bash: a[5]: unbound variable\n", 127],
    ["set -u; [[ -v X ]]; echo after $?", "after 1\n", "", 0],
    ["set -u; [[ ${X:-} ]]; echo after $?", "after 1\n", "", 0],
    ["set -u; (( X )); echo after $?", "", "bash: X: unbound variable\n", 127],
    ["set -u; (( X + 1 )); echo after $?", "", "bash: X: unbound variable\n", 127],
    ["set -u; case $X in *) echo in;; esac; echo after", "", "bash: X: unbound variable\n", 127],
    ["set -u; f(){ [[ $X ]]; echo inf; }; f; echo after", "", "bash: X: unbound variable\n", 127],
    ["set -u; ( [[ $X ]]; echo insub ); echo after $?", "after 1\n", "bash: X: unbound variable\n", 0],
    ["set -u; [[ $X ]] || true; echo after", "", "bash: X: unbound variable\n", 127],
    ["set -u; [[ $X ]] && echo y; echo after", "", "bash: X: unbound variable\n", 127],
    ["set -u; x=$( [[ $X ]]; echo in ); echo after $? \"$x\"", "after 1 \n", "bash: X: unbound variable\n", 0],
    ["set -u; for ((i=0;i<X;i++)); do :; done; echo after", "", "bash: X: unbound variable\n", 127],
    ["[[ ${X:?oops} ]]; echo after", "", "bash: X: oops\n", 127],
    ["(( ${X:?oops} )); echo after", "", "bash: X: oops\n", 127],
    ["set -u; [[ $X == y ]] | cat; echo after $?", "after 0\n", "bash: X: unbound variable\n", 0],
    ["set -u; X=1; [[ $X == 1 ]]; echo after $?", "after 0\n", "", 0],
  ]);
});
