/**
 * Issue 20, twenty-fifth attack run (fixer L1): seven of run 24's leads, fixed through scripts/gen-shell.mjs entries
 * marked L1 (helpers in src/backends/worker-shell/isolate/gnu-extra.ts).
 *
 * - `mapfile -u FD` / `readarray -u FD` (and `-uFD`) read the open descriptor and leave what -n/-s did not take on
 *   it; just-bash skipped -u and read stdin (`mapfile -u 3 arr` gave an empty array).
 * - sed takes GNU's address flags `I` and `M`: `/A/Ip`, `/a/I,/b/Ip` (it said `sed: invalid command: I`).
 * - `mkdir -p` makes each missing directory along the operand in turn; -v names each, parents first, and none that
 *   existed (it named only the operand, even one that existed); a file on the way is `Not a directory`.
 * - `cp f nope/` (nope missing) is `Not a directory` (it said `Is a directory`); `cp a b T` / `mv a b T` say
 *   `target 'T': <reason>` (it said `target 'T' is not a directory` for a missing T too).
 * - comm checks that its inputs are sorted: by default a warning once per file, only after an unpairable line, then
 *   `comm: input is not in sorted order` and status 1; `--check-order` fails at once, `--nocheck-order` is silent.
 * - join pairs the lines in one merge of both files, so -a/-v lines come out in order among the pairs (it printed
 *   every pair first, then file 2's unpairable lines).
 * - `sort -k` with a bad key fails with GNU's message (its ‘’ quotes) and status 2: `-k 0`, `-k 1.0`, `-k x`, …
 *
 * Every expected stdout, stderr and status is what bash 5.2.15, GNU coreutils 9.1 and GNU sed 4.9 printed for the
 * same command, but that bash prefixes a builtin's message with `line 1: ` (`bash: line 1: mapfile: …`), which
 * just-bash's builtins never do.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];
type Case = [string, string, string, number];
const run = async (files: Record<string, string>, expected: Case[], dirs: string[] = []) =>
  expect(await shellCases({ dirs, files }, expected.map(([command]) => command), { collect })).toEqual(expected);

it("mapfile -u FD and readarray -u FD read the descriptor; -n and -s leave the rest on it", async () => {
  await run({ f: "a\nb\n", f3: "a\nb\nc\n" }, [
    ["exec 3< f; mapfile -u 3 arr; echo ${#arr[@]} ${arr[1]}", "2 b\n", "", 0],
    ["exec 3<f; readarray -t -u 3 a; declare -p a", 'declare -a a=([0]="a" [1]="b")\n', "", 0],
    ['exec 3< f3; mapfile -n 1 -u 3 a; read -u 3 x; echo "${a[@]}|$x"', "a\n|b\n", "", 0],
    ['exec 4<f3; mapfile -u4 -t b; echo "${#b[@]} ${b[2]}"; mapfile -t -u 4 c; echo "${#c[@]}"', "3 c\n0\n", "", 0],
    ['exec 5<f3; mapfile -s 1 -n 1 -u 5 e; read -u 5 y; echo "${e[@]}|$y"', "b\n|c\n", "", 0],
    ["mapfile -u 7 d; echo $?; readarray -u x d; echo $?", "1\n1\n", "bash: mapfile: 7: invalid file descriptor: Bad file descriptor\nbash: readarray: x: invalid file descriptor specification\n", 0],
    ["exec 6>o; mapfile -u 6 g; echo $? ${#g[@]}; mapfile -u 0 i < f3; echo ${#i[@]}", "0 0\n3\n", "", 0],
    ['exec 8<f3; printf "x\\ny\\n" | { mapfile -t -u 8 k; read z; echo "${k[*]}|$z"; }', "a b c|x\n", "", 0],
    ['mapfile -t c < f; echo "${c[*]}"; printf "p\\nq\\n" | { mapfile -t d; echo "${d[*]}"; }', "a b\np q\n", "", 0],
  ]);
});

it("sed address flags I and M", async () => {
  await run({ f: "a\nb\n" }, [
    ['sed -n "/A/Ip" f', "a\n", "", 0],
    ['sed -n "/A/I,/B/Ip" f', "a\nb\n", "", 0],
    ['sed "s/A/X/I" f; sed -n "/A/I{p}" f; sed "/B/Id" f', "X\nb\na\na\n", "", 0],
    ['sed -n "/^b/Mp" f; printf "x\\nA\\n" | sed -n "N;/^a$/MIp"; sed -n "/A/p" f', "b\nx\nA\n", "", 0],
  ]);
});

it("mkdir -p makes each missing parent and -v names each; a file on the way ends the operand", async () => {
  await run({ f: "a\nb\n" }, [
    ["mkdir -pv x/y/z; mkdir -pv x/y/w; mkdir -pv x; mkdir -v q r", "mkdir: created directory 'x'\nmkdir: created directory 'x/y'\nmkdir: created directory 'x/y/z'\nmkdir: created directory 'x/y/w'\nmkdir: created directory 'q'\nmkdir: created directory 'r'\n", "", 0],
    ["mkdir -pv ./a/b a//b///c/; ls -d a/b/c", "mkdir: created directory './a'\nmkdir: created directory './a/b'\nmkdir: created directory 'a//b///c/'\na/b/c\n", "", 0],
    ["mkdir -pv f/y/z; echo $?; mkdir -p f; echo $?; mkdir -p x/y; echo $?; ls -d x/y", "1\n1\n0\nx/y\n", "mkdir: cannot create directory 'f': Not a directory\nmkdir: cannot create directory 'f': File exists\n", 0],
  ]);
});

it("cp to a missing name/ is Not a directory; cp/mv of several sources name the target's own failure", async () => {
  await run({ f: "a\n", g: "", "d/h": "x\n" }, [
    ["cp f nope/", "", "cp: cannot create regular file 'nope/': Not a directory\n", 1],
    ["ln -s nowhere dl; cp f dl/", "", "cp: cannot create regular file 'dl/': Not a directory\n", 1],
    ["mv f nope/", "", "mv: cannot move 'f' to 'nope/': Not a directory\n", 1],
    ["cp -r d nope2/; ls nope2", "h\n", "", 0],
    ["cp f g f; cp f g nope; mv f g nope/; cp f g g/x; mv f g g/x", "", "cp: target 'f': Not a directory\ncp: target 'nope': No such file or directory\nmv: target 'nope/': No such file or directory\ncp: target 'g/x': Not a directory\nmv: target 'g/x': Not a directory\n", 1],
  ], ["d"]);
});

it("comm checks its inputs' order (--check-order, --nocheck-order)", async () => {
  await run({ s1: "b\na\n", s2: "a\nb\n" }, [
    ["comm s1 s2; echo $?", "\ta\n\t\tb\na\n1\n", "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n", 0],
    ["comm --nocheck-order s1 s2; echo $?", "\ta\n\t\tb\na\n0\n", "", 0],
    ["comm --check-order s1 s2; echo $?", "\ta\n\t\tb\n1\n", "comm: file 1 is not in sorted order\n", 0],
    ["comm -12 s2 s2; comm s2 s2; echo $?", "a\nb\n\t\ta\n\t\tb\n0\n", "", 0],
    // Unsorted but every line pairs up: no warning (GNU warns only after an unpairable line).
    ["comm s1 s1; echo $?", "\t\tb\n\t\ta\n0\n", "", 0],
    ['printf "a\\nc\\nb\\n" > u1; printf "a\\nz\\ny\\n" > u2; comm -3 u1 u2; echo $?', "c\nb\n\tz\n\ty\n1\n", "comm: file 1 is not in sorted order\ncomm: file 2 is not in sorted order\ncomm: input is not in sorted order\n", 0],
  ]);
});

it("join merges: unpairable lines (-a, -v) in order among the pairs, runs of equal keys paired each with each", async () => {
  await run({ j1: "1 a\n3 c\n", j2: "2 b\n3 x\n4 d\n", m1: "k 1\nk 2\n", m2: "k x\nk y\n" }, [
    ["join -a2 j1 j2", "2 b\n3 c x\n4 d\n", "", 0],
    ["join -a1 j2 j1", "2 b\n3 x c\n4 d\n", "", 0],
    ["join -a1 -a2 j1 j2", "1 a\n2 b\n3 c x\n4 d\n", "", 0],
    ["join -v2 j1 j2; join -v1 j2 j1; join -v1 -v2 j1 j2", "2 b\n4 d\n2 b\n4 d\n1 a\n2 b\n4 d\n", "", 0],
    ["join m1 m2; join -e E -o 1.2,2.2 -a1 j1 j2", "k 1 x\nk 1 y\nk 2 x\nk 2 y\na E\nc x\n", "", 0],
  ]);
});

it("sort -k with a bad key fails with GNU's message, status 2", async () => {
  await run({ f: "b 1\na 2\n" }, [
    ["sort -k 0 f", "", "sort: field number is zero: invalid field specification ‘0’\n", 2],
    ["sort -k 1.0 f", "", "sort: character offset is zero: invalid field specification ‘1.0’\n", 2],
    ["sort -k x f", "", "sort: invalid number at field start: invalid count at start of ‘x’\n", 2],
    ["sort -k1,0 f", "", "sort: field number is zero: invalid field specification ‘1,0’\n", 2],
    ["sort -k 1.x f", "", "sort: invalid number after '.': invalid count at start of ‘x’\n", 2],
    ["sort -k 1x f", "", "sort: stray character in field spec: invalid field specification ‘1x’\n", 2],
    ["sort --key=2,1.y f", "", "sort: invalid number after '.': invalid count at start of ‘y’\n", 2],
    ["sort -k", "", "sort: option requires an argument -- 'k'\nTry 'sort --help' for more information.\n", 2],
    ["sort -k2n,2 f; sort -k 1.1,1.0 f; sort --key 1 f; sort -k2r f", "b 1\na 2\na 2\nb 1\na 2\nb 1\na 2\nb 1\n", "", 0],
  ]);
});
