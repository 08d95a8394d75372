/**
 * Issue 20, run 33, fixer AA — sibling of test/workers/attack33d/array-append-quadratic.test.ts.
 *
 * Shell arrays now keep an index per array (src/backends/worker-shell/isolate/array-index.ts, patched into just-bash
 * by scripts/gen-shell.mjs, entries `// AA`): the count of indices, the largest index and the sorted keys. These
 * cases check the neighbourhood of `a+=(…)` and `${#a[@]}` against bash 5.2.15 (each expected output was produced by
 * `bash -c '{ CASE
 * } 2>&1'` on this machine): appends to empty, sparse and scalar variables, unset elements (middle, last, by negative
 * subscript), negative subscripts in reads and assignments, `[[ -v ]]`, arithmetic `${#a[@]}`, associative arrays
 * (count, keys after `+=` and unset), `local`/`declare` appends and `declare -p`.
 * `unset 'a[-2]'` on `([0]=a [5]=b)` counted from the number of elements (removing a[0]); bash counts from the
 * largest index + 1 (a[4]: nothing). Fixed with the rest.
 *
 * The once-quadratic case: 20,000 appends, a `for ((i=0; i<${#a[@]}; i++))` sum over them and 10,000 `unset
 * 'a[-1]'` pops. Before: 5,000 appends alone took 2.07 s and 20,000 passed 20 s (attack33d's figures); bash 5.2.15
 * runs the whole case in 0.56 s here. Before the fix, 2,500 reads of `${#a[@]}` on 5,000 elements took 5.5 s and
 * the `for ((…; i<${#a[@]}; …))` loop over 5,000 took 12.5 s (each read expanded the whole array); now 0.7 s and
 * 1.0 s, and this whole case 5.6 s, under a generous 60 s `timeoutMs` (a timeout would be status 124).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

/** [script, bash 5.2.15's stdout+stderr, its status]. */
const CASES: ReadonlyArray<readonly [string, string, number]> = [
  ["a=(); for i in 1 2 3; do a+=(\"v$i\"); done; a+=(x y); echo \"${#a[@]} ${a[*]} ${!a[*]}\"", "5 v1 v2 v3 x y 0 1 2 3 4\n", 0],
  ["a=([2]=b [7]=c); a+=(d e); declare -p a; echo \"${#a[@]} ${!a[@]}\"", "declare -a a=([2]=\"b\" [7]=\"c\" [8]=\"d\" [9]=\"e\")\n4 2 7 8 9\n", 0],
  ["s=scalar; s+=(t u); declare -p s; echo ${#s[@]}", "declare -a s=([0]=\"scalar\" [1]=\"t\" [2]=\"u\")\n3\n", 0],
  ["a=(a b c d e); unset 'a[1]' 'a[3]'; echo \"${#a[@]} ${!a[@]} ${a[@]}\"; a+=(f); echo \"${!a[@]} ${a[-1]} ${a[-2]}\"", "3 0 2 4 a c e\n0 2 4 5 f e\n", 0],
  ["a=(a b c d e); unset 'a[4]'; a+=(z); echo \"${!a[@]} ${a[@]}\"; unset 'a[-1]'; echo \"${!a[@]} ${#a[@]}\"", "0 1 2 3 4 a b c d z\n0 1 2 3 4\n", 0],
  ["a=([0]=a [5]=b); unset 'a[-2]'; declare -p a; unset 'a[-1]'; declare -p a", "declare -a a=([0]=\"a\" [5]=\"b\")\ndeclare -a a=([0]=\"a\")\n", 0],
  ["a=(1 2 3); unset 'a[-4]' 2>&1; echo \"st=$? ${a[*]}\"; a=(); unset 'a[-1]' 2>&1; echo \"st=$?\"", "bash: line 1: unset: [-4]: bad array subscript\nst=1 1 2 3\nbash: line 1: unset: [-1]: bad array subscript\nst=1\n", 0],
  ["a=([3]=x [10]=y); a[-1]=Y; a[-8]=X; declare -p a; echo \"${a[-11]-unset}\"", "declare -a a=([3]=\"X\" [10]=\"Y\")\nunset\n", 0],
  ["a=(p q r); for ((i=0; i<${#a[@]}; i++)); do printf '%s:%s ' \"$i\" \"${a[i]}\"; done; echo; echo $(( ${#a[@]} * 2 ))", "0:p 1:q 2:r \n6\n", 0],
  ["a=(x); [[ -v a ]] && echo v1; unset 'a[0]'; [[ -v a ]] || echo v0; [[ -v a[@] ]] || echo va0; a[3]=q; echo \"${#a[@]}\"; [[ -v 'a[-1]' ]] && echo neg", "v1\nv0\nva0\n1\nneg\n", 0],
  ["declare -A m; for k in zeta alpha mid beta; do m[$k]=${#k}; done; echo \"${#m[@]}\"; for k in \"${!m[@]}\"; do echo \"$k=${m[$k]}\"; done | sort", "4\nalpha=5\nbeta=4\nmid=3\nzeta=4\n", 0],
  ["declare -A m=([b]=2 [a]=1); m+=([c]=3 [a]=9); unset 'm[b]'; echo \"${#m[@]}\"; for k in \"${!m[@]}\"; do echo \"$k=${m[$k]}\"; done | sort", "2\na=9\nc=3\n", 0],
  ["a=(1 2 3 4 5 6); for i in 0 2 4; do unset \"a[$i]\"; done; echo \"${#a[@]} ${!a[@]}\"; while (( ${#a[@]} )); do last=${a[-1]}; unset \"a[-1]\"; echo \"pop $last ${#a[@]}\"; done", "3 1 3 5\npop 6 2\npop 4 1\npop 2 0\n", 0],
  ["a=(); a+=(); echo \"${#a[@]}\"; a+=(\"\"); echo \"${#a[@]} [${a[0]}]\"; b=(x); b+=(\"${a[@]}\" y); declare -p b", "0\n1 []\ndeclare -a b=([0]=\"x\" [1]=\"\" [2]=\"y\")\n", 0],
  ["f() { local -a l=(1 2); l+=(3); echo \"${#l[@]} ${l[-1]}\"; }; f; declare -a g=(1); declare -a g+=(2 3); declare -p g", "3 3\ndeclare -a g=([0]=\"1\" [1]=\"2\" [2]=\"3\")\n", 0],
  ["a=(); for i in $(seq 50); do a+=(\"$i\"); (( i % 10 == 0 )) && unset \"a[$((i-5))]\"; done; echo \"${#a[@]} ${a[-1]} ${a[44]-none} ${a[45]}\"; echo \"${!a[@]}\" | wc -w", "45 50 45 \n45\n", 0],
];

it("array appends, lengths, unsets and negative subscripts answer as bash 5.2.15", async () => {
  const got = await inShellWorkspace(async (ws) => {
    const out: Array<[string, string, number]> = [];
    for (const [script] of CASES) {
      const r = await sh(ws, `{ ${script}\n} 2>&1`, { cwd: "/workspace" });
      out.push([script, r.stdout + r.stderr, r.exitCode]);
    }
    return out;
  });
  expect(got).toEqual(CASES.map(([s, o, c]) => [s, o, c]));
}, 180_000);

it("20,000 appends, a ${#a[@]} loop over them and 10,000 pops run in linear time", async () => {
  const script =
    'a=(); for i in $(seq 20000); do a+=("$i"); done; n=0; for ((i=0; i<${#a[@]}; i++)); do n=$((n + ${a[i]})); done; ' +
    'while (( ${#a[@]} > 10000 )); do unset "a[-1]"; done; echo "$n ${#a[@]} ${a[-1]}"';
  const r = await inShellWorkspace((ws) => sh(ws, script, { cwd: "/workspace", timeoutMs: 60_000 }));
  // bash 5.2.15: "200010000 10000 10000", status 0.
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["200010000 10000 10000\n", "", 0]);
}, 180_000);
