/**
 * Fixer SN (issue 20, run 27): compound array assignments as bash 5.2.15 — an unquoted leading `[…]` of an element of
 * `NAME=(…)` is one word with its blanks (`declare -A m=([c d]=3)`, `m+=([e f]=4)`, `a=([x y] z)`), and an array with
 * the integer attribute stores each element's arithmetic value (`declare -ai a=(1+1)`, `a=(…)`, `a+=(…)`, `a[3]=4+4`,
 * `a[0]+=3`, `local -ai`, `declare -Ai`); `local` with an attribute or `NAME=(…)` is `declare` for the function.
 * Expected outputs are GNU bash 5.2.15's.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: readonly (readonly [string, string])[] = [
  ["declare -ai a=(1+1 2*3); echo \"${a[@]}\"", "2 6\n"],
  ["declare -i b; b=(1+1); b+=(2*2); b[3]=4+4; echo \"${b[@]}\"; declare -p b", "2 4 8\ndeclare -ai b=([0]=\"2\" [1]=\"4\" [3]=\"8\")\n"],
  ["declare -Ai c=([x]=1+2); c[y]=3*3; c+=([z]=4); c[x]+=5; echo \"${c[x]} ${c[y]} ${c[z]}\"", "8 9 4\n"],
  ["declare -i d=(5+5 [4]=1+1); declare -p d", "declare -ai d=([0]=\"10\" [4]=\"2\")\n"],
  ["f(){ local -ai l=(2+3); declare -p l; }; f", "declare -ai l=([0]=\"5\")\n"],
  ["declare -ia e; e[0]=2; e[0]+=3; declare -p e", "declare -ai e=([0]=\"5\")\n"],
  ["x=3; declare -ai g=(x x+1 \"1 + 2\"); declare -p g", "declare -ai g=([0]=\"3\" [1]=\"4\" [2]=\"3\")\n"],
  ["declare -ai h=(1); h+=(2+2 3*3); declare -p h", "declare -ai h=([0]=\"1\" [1]=\"4\" [2]=\"9\")\n"],
  ["declare -A m; m=(['a b']=1 [c d]=2); m+=([e f]+=x [c d]+=y); for k in \"a b\" \"c d\" \"e f\"; do echo \"<${m[$k]}>\"; done", "<1>\n<2y>\n<x>\n"],
  ["declare -a n=([1 + 1]=x [3]=y); declare -p n", "declare -a n=([2]=\"x\" [3]=\"y\")\n"],
  ["b=([2 * 1]=y); declare -p b", "declare -a b=([2]=\"y\")\n"],
  ["a=([0]=x [1]=\"y z\" [3]=w); declare -p a", "declare -a a=([0]=\"x\" [1]=\"y z\" [3]=\"w\")\n"],
  ["a=([1]=one two); a+=([5 ]=five); declare -p a", "declare -a a=([1]=\"one\" [2]=\"two\" [5]=\"five\")\n"],
  ["declare -A m=([c  d]=3 [a;b]=4 [e]=5); for k in \"c  d\" \"a;b\" e; do echo \"<${m[$k]}>\"; done; echo ${#m[@]}", "<3>\n<4>\n<5>\n3\n"],
  ["f(){ local -A m=([a b]=1 [c]=2); local -i n=2+3; local a=([2]=x y); echo \"${m[a b]} ${m[c]} $n ${!a[@]} ${a[@]}\"; }; f; echo \"${#m[@]} ${n-unset} ${a-unset}\"", "1 2 5 2 3 x y\n0 unset unset\n"],
  ["f(){ local -i q; q=(1+1 3*3); echo \"${q[@]}\"; }; f", "2 9\n"],
  ["x=2; a=([0]=x); a=([x + 1]=1 [ 5 ]=2); declare -p a", "declare -a a=([3]=\"1\" [5]=\"2\")\n"],
];

it("compound array assignments: [key with blank] and the integer attribute, as bash", async () => {
  const out = await shellCases({}, cases.map(([command]) => command));
  expect(out).toEqual(cases.map(([command, stdout]) => [command, stdout, ""]));
});
