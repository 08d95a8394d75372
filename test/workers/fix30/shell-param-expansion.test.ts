/**
 * Issue 20, run 30, fixer PX: parameter expansion as bash 5.2.15 (siblings of attack30d's nameref and `${v: -N}`
 * findings, and a finding from attacker d's list of oddities: `${arr[$((${#arr[@]}-1))]}` — the last element — failed
 * `bash: ${arr[]}: bad substitution`, exit 1, because just-bash's subscript reader took `$(( … ))` for a `$( … )` and
 * ran `( … )` as a command). Every expectation is bash 5.2.15's output for the same line (`bash -c`).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, c: string, r: { stdout: string; stderr: string; exitCode: number }) => [c, r.stdout, r.stderr, r.exitCode];

it("a $(( )) in an array subscript is arithmetic, as bash", async () => {
  const cases: [string, string][] = [
    // Was: "", "bash: ${arr[]}: bad substitution\n", 1.
    ['arr=(a b c); echo "${arr[$((${#arr[@]}-1))]}"', "c\n"],
    ['arr=(a b c); echo "${arr[${#arr[@]}-1]}" "${arr[-1]}" "${arr[${#arr[@]}/2]}"', "c c b\n"],
    // Was: "b\n" with `bash: ${arr[]}: bad substitution` for the first echo.
    ['arr=(a b c); n=3; echo "${arr[$(( n-1 ))]}"; i=0; echo "${arr[$i+1]}" ${arr[$((i+2))]}', "c\nb c\n"],
    ['a=(a b c); echo "${a[$((1))]:-d}" "${#a[$((1))]}" "${a[@]:$((1)):1}"', "b 1 b\n"],
    ['declare -A m=([2]=two [k]=v); echo "${m[$((1+1))]}"', "two\n"],
    ['a=(); a[$((1+1))]=x; a[$(( 0 ))]=y; echo "${!a[@]} ${a[@]}"', "0 2 y x\n"],
  ];
  const out = await shellCases({}, cases.map(([c]) => c), { collect });
  expect(out).toEqual(cases.map(([c, stdout]) => [c, stdout, "", 0]));
});

it("a negative substring offset before the start is empty for strings and elements, as bash", async () => {
  const cases: [string, string][] = [
    ['s=abc; echo "[${s: -5}]" "[${s: -3}]" "[${s: -4:2}]" "[${s:(-5)}]" "[${s: -4:-1}]" "[${s: -3:-1}]" "[${s: -1}]"', "[] [abc] [] [] [] [ab] [c]\n"],
    ['a=(a b c); echo "[${a[@]: -5}]" "[${a[@]: -2}]" "[${a[*]: -4:2}]" "[${a[@]: -3:1}]"', "[] [b c] [] [a]\n"],
    // Was: "[value] [value]\n".
    ['declare -A m=([k]=value); echo "[${m[k]: -5}]" "[${m[k]: -6}]"', "[value] []\n"],
  ];
  const out = await shellCases({}, cases.map(([c]) => c), { collect });
  expect(out).toEqual(cases.map(([c, stdout]) => [c, stdout, "", 0]));
});

it("a nameref to an array stands for it in every expansion, assignment and unset, as bash", async () => {
  const cases: [string, string][] = [
    // Was: "\n2\n" — `${!r[@]}` and `${r[*]: -1}` looked at the nameref, not the array.
    ['f() { local -n r=$1; echo "${!r[@]}"; echo "${r[*]: -1}" "${#r[1]}"; }; a=(p qq); f a', "0 1\nqq 2\n"],
    ['f() { local -n r=$1; r[k]=v; r+=([j]=w); echo "${#r[@]}"; }; declare -A m=([x]=1); f m; for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done | sort', "3\nj=w\nk=v\nx=1\n"],
    // Was: "3\np q s\n" and `bash: unset: r: not an array variable`.
    ["f() { local -n r=$1; unset 'r[1]'; echo \"${#r[@]}\"; }; a=(p q s); f a; echo \"${a[@]}\"", "2\np s\n"],
    ['sum() { local -n xs=$1; local t=0 x; for x in "${xs[@]}"; do t=$((t+x)); done; echo $t; }; nums=(1 2 3 4); sum nums', "10\n"],
    // `${!ref}` is still the name the nameref holds.
    ['f() { local -n r=$1; echo "${!r}"; }; a=(p q); f a', "a\n"],
    ['declare -n nr=arr; arr=(1); nr+=(2 3); echo "${arr[@]}" "${#nr[@]}"; nr=(x); echo "${arr[@]}"', "1 2 3 3\nx\n"],
    ['f() { local -n r=$1; r=(a b c); }; f out; echo "${#out[@]} ${out[*]}"', "3 a b c\n"],
    ["f() { local -n r=$1; echo \"${r[@]/#/-}\" \"${r[@]^}\"; printf '<%s>' \"${r[@]}\"; echo; }; a=('p q' r); f a", "-p q -r P q R\n<p q><r>\n"],
    // Was: "declare -n r=\"a\"\n" — `[[ -v r[1] ]]` looked for an element of the nameref itself.
    ['f() { local -n r=$1; [[ -v r[1] ]] && echo set; declare -p r; }; a=(p q); f a', 'set\ndeclare -n r="a"\n'],
    // A nameref to a scalar, as before.
    ['x=5; declare -n r=x; r=6; echo "$r ${r:-d} ${#r} $x"', "6 6 1 6\n"],
  ];
  const out = await shellCases({}, cases.map(([c]) => c), { collect });
  expect(out).toEqual(cases.map(([c, stdout]) => [c, stdout, "", 0]));
});

it("an array filled through a nameref is what a redirection writes to storage", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, 'add() { local -n to=$1; shift; to+=("$@"); }; lines=(one); add lines "two words" three; printf \'%s\\n\' "${lines[@]}" > /workspace/out.txt; echo "${#lines[@]}"', { cwd: "/workspace" });
    expect([r.stdout, r.stderr, r.exitCode]).toEqual(["3\n", "", 0]);
    expect(await ws.fs.readFile("/workspace/out.txt", "utf8")).toBe("one\ntwo words\nthree\n");
  });
});
