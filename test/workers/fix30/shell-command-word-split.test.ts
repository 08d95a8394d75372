/**
 * Issue 20, thirtieth run, fixer CW: siblings of attack30d/shell-unquoted-command-word-not-split, each compared with
 * bash 5.2.15 in a temp dir. The command word is expanded as every other word of a simple command — split on IFS
 * where unquoted, globbed — and its first field is the command, the others leading arguments; a command word that
 * gives no field leaves no command: redirections made, assignments kept, status that of the last command
 * substitution performed, else 0. (just-bash 3.4.2 itself expanded the command word to one unsplit string; this was
 * not a regression of run 29's CZ lookup.)
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["src"], files: { "a.txt": "apple\nbanana\n", "src/a.ts": "// TODO\n", "src/b.ts": "x\n" } };
const JQ = 'bash: jq: command not found; it comes with the jq command group (import "agent-computer/shell/jq" and pass it in WorkerShellBackend({ commands }))\n';
const collect = (_ws: unknown, c: string, r: { stdout: string; stderr: string; exitCode: number }) => [c, r.stdout, r.stderr, r.exitCode];

it("an expansion as the command word is split on IFS and globbed; the first field is the command", async () => {
  const out = await shellCases(tree, [
    'cmd="echo   a    b"; $cmd',
    'IFS=,; c="echo,a b"; $c',
    "cmd=(echo hi there); ${cmd[@]}",
    'cmd=(printf "[%s]" "a b" c); "${cmd[@]}"; echo',
    "c='echo *.txt'; $c",
    "$(echo echo hi)",
    'c="echo a"; $c$c',
    'c="x y"; echo$c',
    'c="nosuch x"; $c; echo rc=$?',
    'c="jq ."; $c; echo rc=$?',
    'c="sed -n"; $c 2p a.txt',
    'v="ls"; $v -1 src',
  ], { collect });
  expect(out).toEqual([
    ['cmd="echo   a    b"; $cmd', "a b\n", "", 0],
    ['IFS=,; c="echo,a b"; $c', "a b\n", "", 0],
    ["cmd=(echo hi there); ${cmd[@]}", "hi there\n", "", 0],
    ['cmd=(printf "[%s]" "a b" c); "${cmd[@]}"; echo', "[a b][c]\n", "", 0],
    ["c='echo *.txt'; $c", "a.txt\n", "", 0],
    ["$(echo echo hi)", "hi\n", "", 0],
    ['c="echo a"; $c$c', "aecho a\n", "", 0],
    ['c="x y"; echo$c', "", "bash: echox: command not found\n", 127],
    ['c="nosuch x"; $c; echo rc=$?', "rc=127\n", "bash: nosuch: command not found\n", 0],
    ['c="jq ."; $c; echo rc=$?', "rc=127\n", JQ, 0],
    ['c="sed -n"; $c 2p a.txt', "banana\n", "", 0],
    ['v="ls"; $v -1 src', "a.ts\nb.ts\n", "", 0],
  ]);
});

it("the first field may be a function or a builtin, through every route that runs a command", async () => {
  const out = await shellCases(tree, [
    'f() { echo "f:$#:$*"; }; cmd="f x y"; $cmd',
    'run() { "$@"; }; f() { echo "f $1"; }; run f "a b"',
    'c="echo a"; $c | tr a b',
    'c="echo a"; command $c',
    'c="echo a"; (exec $c); echo rc=$?',
    'c="exec echo hi"; ($c); echo rc=$?',
    'c="cd src"; $c; pwd',
    'c="type -t"; $c echo',
    'c="declare -x FOO=1"; $c; echo $FOO; printenv FOO',
    'c="eval echo a"; $c',
    'c="printenv x"; x=1 $c; echo "[$x]"',
    'c="ls -1"; { time $c src; } 2>/dev/null; echo rc=$?',
    'c="echo a"; set -x; $c',
  ], { collect });
  expect(out).toEqual([
    ['f() { echo "f:$#:$*"; }; cmd="f x y"; $cmd', "f:2:x y\n", "", 0],
    ['run() { "$@"; }; f() { echo "f $1"; }; run f "a b"', "f a b\n", "", 0],
    ['c="echo a"; $c | tr a b', "b\n", "", 0],
    ['c="echo a"; command $c', "a\n", "", 0],
    ['c="echo a"; (exec $c); echo rc=$?', "a\nrc=0\n", "", 0],
    ['c="exec echo hi"; ($c); echo rc=$?', "hi\nrc=0\n", "", 0],
    ['c="cd src"; $c; pwd', "/workspace/src\n", "", 0],
    ['c="type -t"; $c echo', "builtin\n", "", 0],
    ['c="declare -x FOO=1"; $c; echo $FOO; printenv FOO', "1\n1\n", "", 0],
    ['c="eval echo a"; $c', "a\n", "", 0],
    ['c="printenv x"; x=1 $c; echo "[$x]"', "1\n[]\n", "", 0],
    ['c="ls -1"; { time $c src; } 2>/dev/null; echo rc=$?', "a.ts\nb.ts\nrc=0\n", "", 0],
    ['c="echo a"; set -x; $c', "a\n", "+ echo a\n", 0],
  ]);
});

it("a command word with no field leaves no command: redirections made, assignments kept, status 0 or the last substitution's", async () => {
  const out = await shellCases(tree, [
    'set --; false; "$@"; echo rc=$?',
    "E=; false; $E; echo rc=$?",
    "false; x=$(exit 3) $E; echo rc=$?",
    "$(false); echo rc=$?",
    "false; $(true); echo rc=$?",
    'E=; x=1 $E; echo "x=$x"',
    "E=; $E echo hi",
    'E=; $E ""; echo rc=$?',
    '""; echo rc=$?',
    "shopt -s nullglob; nosuch*; echo rc=$?",
    'set --; "$@" > out; ls',
    'c="echo a"; $c > out; cat out',
  ], { collect: async (ws, c, r) => [c, r.stdout, r.stderr, r.exitCode, await ws.fs.readFile("/workspace/out", "utf8").catch(() => null)] });
  expect(out).toEqual([
    // Was: "rc=127\n", "bash: : command not found\n".
    ['set --; false; "$@"; echo rc=$?', "rc=0\n", "", 0, null],
    // Was: "rc=1\n".
    ["E=; false; $E; echo rc=$?", "rc=0\n", "", 0, null],
    ["false; x=$(exit 3) $E; echo rc=$?", "rc=3\n", "", 0, null],
    ["$(false); echo rc=$?", "rc=1\n", "", 0, null],
    ["false; $(true); echo rc=$?", "rc=0\n", "", 0, null],
    ['E=; x=1 $E; echo "x=$x"', "x=1\n", "", 0, null],
    ["E=; $E echo hi", "hi\n", "", 0, null],
    // Was: "rc=0\n", "" (the empty first argument was taken as no command).
    ['E=; $E ""; echo rc=$?', "rc=127\n", "bash: : command not found\n", 0, null],
    ['""; echo rc=$?', "rc=127\n", "bash: : command not found\n", 0, null],
    // Was: "rc=127\n", "bash: nosuch*: command not found\n".
    ["shopt -s nullglob; nosuch*; echo rc=$?", "rc=0\n", "", 0, null],
    // Was: stderr "bash: : command not found\n".
    ['set --; "$@" > out; ls', "a.txt\nout\nsrc\n", "", 0, ""],
    ['c="echo a"; $c > out; cat out', "a\n", "", 0, "a\n"],
  ]);
});
