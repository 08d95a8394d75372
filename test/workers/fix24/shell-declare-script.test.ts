/**
 * Issue 20, twenty-fourth attack run (fixer SF2): siblings of the two scout findings, each against bash 5.2.15.
 * Declaration builtins (`declare`, `typeset`, `local`, `readonly`, `export`) expand each word of `NAME=(…)` as
 * bash does — a command substitution (`$(…)`, backquotes) is split, an escaped blank stays in its element, keyed
 * elements take their subscript's expansions; `export NAME=(…)` / `NAME+=(…)` makes an exported array. A script run
 * by path (`./s`, `../s`, with or without a `#!` line) starts from the caller's exported variables only.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const declarations: [string, string][] = [
  ["declare -a x=($(echo 1 2) 3); declare -p x", 'declare -a x=([0]="1" [1]="2" [2]="3")\n'],
  ['declare -a z=(a\\ b c "d e"$(echo f g)h); declare -p z', 'declare -a z=([0]="a b" [1]="c" [2]="d ef" [3]="gh")\n'],
  ['v="1 2"; declare -a w=(${v:-x} ${u:-p q} $((1+2)) [5]=$(echo k l)); declare -p w', 'declare -a w=([0]="1" [1]="2" [2]="p" [3]="q" [4]="3" [5]="k l")\n'],
  ["readonly r=($(echo 1 2)); echo ${#r[@]} ${r[1]}; (r=3) 2>/dev/null; echo $?", "2 2\n1\n"],
  ['declare -A h=(["a b"]=$(echo c d) [k]="x y"); echo "${h[a b]}|${h[k]}"', "c d|x y\n"],
  ["i=1; declare -a q=([i+1]=a\\ b [$i]='c d'); declare -p q", 'declare -a q=([1]="c d" [2]="a b")\n'],
  ['f(){ local -a l=($(echo a b) "x y"); declare -p l; }; f', 'declare -a l=([0]="a" [1]="b" [2]="x y")\n'],
  ["typeset -a t=(`echo 1 2` 'a b'); declare -p t", 'declare -a t=([0]="1" [1]="2" [2]="a b")\n'],
  ["i=3; declare -a k=([$i]=a [$((i+1))]=$(echo b c)); declare -p k", 'declare -a k=([3]="a" [4]="b c")\n'],
  ["declare -a e=(); declare -p e", "declare -a e=()\n"],
  ["declare -a c=(a # comment\nb $(echo c d)\n); declare -p c", 'declare -a c=([0]="a" [1]="b" [2]="c" [3]="d")\n'],
  ["touch a.txt b.txt; declare -a g=(*.txt {x,y} ~); declare -p g", 'declare -a g=([0]="a.txt" [1]="b.txt" [2]="x" [3]="y" [4]="/workspace")\n'],
  ["e=1; export e+=(x y); declare -p e", 'declare -ax e=([0]="1" [1]="x" [2]="y")\n'],
  ["export p=1 q=(a b); declare -p p q", 'declare -x p="1"\ndeclare -ax q=([0]="a" [1]="b")\n'],
  ["f(){ export fe=(a b); }; f; declare -p fe", 'declare -ax fe=([0]="a" [1]="b")\n'],
  ['f(){ local le=1; export le=(a b); declare -p le; }; f; echo "[${le[*]}]"', 'declare -ax le=([0]="a" [1]="b")\n[]\n'],
  ["declare -ar a=(1); declare -a e=(); export e; declare -p a e", 'declare -ar a=([0]="1")\ndeclare -ax e=()\n'],
];

it("declaration array words expand as NAME=(…) in bash 5.2 (command substitutions, escapes, keys, export)", async () => {
  const out = await shellCases({}, declarations.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(declarations.map(([, stdout]) => [stdout, "", 0]));
});

const scripts: [string, string][] = [
  ["printf 'echo \"[$v]\"\\n' > s; chmod +x s; v=1 ./s", "[1]\n"],
  ["IFS=:; printf 'x=\"a b\"; set -- $x; echo $#\\n' > s; chmod +x s; ./s", "2\n"],
  ["set -- a b; printf 'echo $#\\n' > s; chmod +x s; ./s", "0\n"],
  ["readonly ro=1; export ro; printf 'ro=2; echo $ro\\n' > s; chmod +x s; ./s", "2\n"],
  ["declare -i n=1; export n; printf 'n=1+1; echo $n\\n' > s; chmod +x s; ./s", "1+1\n"],
  ["f(){ local v=1; ./s; }; printf 'echo \"[$v]\"\\n' > s; chmod +x s; f", "[]\n"],
  ["f(){ local v=1; export v; ./s; }; printf 'echo \"[$v]\"\\n' > s; chmod +x s; f", "[1]\n"],
  ["f(){ ./s; echo \"rc=$?\"; }; printf 'echo \"[${FUNCNAME[*]}]\"\\n' > s; chmod +x s; f", "[]\nrc=0\n"],
  ["set -a; v=3; set +a; printf 'echo \"[$v]\"\\n' > s; chmod +x s; ./s", "[3]\n"],
  ["mkdir d; cd d; printf 'echo \"$PWD\"; cd /; x=1\\n' > ../s; chmod +x ../s; ../s; echo \"$PWD[$x]\"", "/workspace/d\n/workspace/d[]\n"],
  ["printf '#!/bin/sh\\necho \"[$v]\"\\n' > s; chmod +x s; v=1; ./s", "[]\n"],
  ["declare -A h=([k]=v); printf 'echo \"[${h[k]}]\"\\n' > s; chmod +x s; ./s", "[]\n"],
  ["v=1; ./s 2>/dev/null; printf 'echo \"[$v]\"\\n' > s; chmod +x s; ./s; echo \"[$v]\"", "[]\n[1]\n"],
];

it("./script starts from the caller's exported variables only, as bash FILE", async () => {
  const out = await shellCases({}, scripts.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual(scripts.map(([, stdout]) => [stdout, "", 0]));
});
