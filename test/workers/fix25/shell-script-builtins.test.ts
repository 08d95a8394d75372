/**
 * Issue 20, twenty-fifth attack run (fixer SW): shell commands scripts and agents use that just-bash lacked —
 * `trap`, printf `%q`/`%Q`, GNU xargs's options and statuses, `mktemp` — fixed through scripts/gen-shell.mjs
 * entries marked SW (helpers in src/backends/worker-shell/isolate/script-builtins.ts; mktemp is a custom command
 * in worker.ts).
 *
 * Before: `trap` was `bash: trap: command not found` (127), so `trap 'rm -f "$tmp"' EXIT` cleaned nothing; printf
 * `%q` failed (`[sprintf] unexpected placeholder`: the `q` was read as a length modifier); xargs had no -I{}/-i/-L,
 * read quotes literally, exited with the command's status (not 123) and said `bash: X: command not found`; mktemp
 * did not exist.
 *
 * Every expected stdout, stderr and status is what bash 5.2.15 (`bash -c`, C.UTF-8) with GNU findutils 4.9 /
 * coreutils 9.1 printed, without bash's `line 1: `.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];
const check = async (expected: (string | number)[][]) =>
  expect(await shellCases({ files: {} }, expected.map(([command]) => command as string), { collect })).toEqual(expected);

it("trap EXIT runs once when the shell ends: normal end, exit N, set -e, a shell-ending error; exit in the trap wins", async () => {
  await check([
    ["trap 'echo bye' EXIT; echo hi", "hi\nbye\n", "", 0],
    ["trap 'echo bye' 0; echo hi; exit 3", "hi\nbye\n", "", 3],
    ["trap 'false' EXIT; true", "", "", 0],
    ["trap 'echo rc=$?' EXIT; false", "rc=1\n", "", 1],
    ["trap 'exit 4' EXIT; exit 1", "", "", 4],
    ["trap 'echo in; exit 4; echo no' EXIT; echo main", "main\nin\n", "", 4],
    ["set -e; trap 'echo t' EXIT; false; echo no", "t\n", "", 1],
    ["set -u; trap 'echo t' EXIT; echo $y", "t\n", "bash: y: unbound variable\n", 127],
    ["trap 'echo t' EXIT; echo ${y:?nope}", "t\n", "bash: y: nope\n", 127],
    ["trap 'echo t' EXIT; eval 'exit 2'", "t\n", "", 2],
    ["trap 'echo t >&2' EXIT; echo hi >&2", "", "hi\nt\n", 0],
    ["trap 'echo t1' EXIT; trap 'echo t2' EXIT; echo x", "x\nt2\n", "", 0],
    ["f(){ trap 'echo ft' EXIT; }; f; echo after", "after\nft\n", "", 0],
    ["trap 'echo t' EXIT; trap - EXIT; echo x", "x\n", "", 0],
    ["trap 'echo t' EXIT; trap '' EXIT; echo x", "x\n", "", 0],
    ["trap 'echo t' EXIT; trap EXIT; trap -p; echo x", "x\n", "", 0],
    ["trap 'echo t' EXIT; nosuchcmd; echo $?", "127\nt\n", "bash: nosuchcmd: command not found\n", 0],
  ]);
});

it("trap -p, trap, trap -l and bad conditions print as bash", async () => {
  await check([
    ["trap 'echo t' EXIT; trap -p; trap -p EXIT; trap", "trap -- 'echo t' EXIT\ntrap -- 'echo t' EXIT\ntrap -- 'echo t' EXIT\nt\n", "", 0],
    [
      "trap 'echo a' INT TERM; trap 'echo b' HUP USR1 QUIT; trap -p; trap -p INT",
      "trap -- 'echo b' SIGHUP\ntrap -- 'echo a' SIGINT\ntrap -- 'echo b' SIGQUIT\ntrap -- 'echo b' SIGUSR1\ntrap -- 'echo a' SIGTERM\ntrap -- 'echo a' SIGINT\n",
      "",
      0,
    ],
    ["trap 'echo t' sigint; echo $?; trap 'echo t' 2 15 9; trap -p", "0\ntrap -- 'echo t' SIGINT\ntrap -- 'echo t' SIGKILL\ntrap -- 'echo t' SIGTERM\n", "", 0],
    ["trap 'echo t' FOO; echo $?; trap 'echo t' 99; echo $?", "1\n1\n", "bash: trap: FOO: invalid signal specification\nbash: trap: 99: invalid signal specification\n", 0],
    ["trap 'echo t' EXIT; trap -p INT EXIT FOO; echo $?", "trap -- 'echo t' EXIT\n1\nt\n", "bash: trap: FOO: invalid signal specification\n", 0],
    ["trap -x; echo $?", "2\n", "bash: trap: -x: invalid option\ntrap: usage: trap [-lp] [[arg] signal_spec ...]\n", 0],
    ["trap; echo $?; trap EXIT; echo $?; trap 1 INT; trap -p", "0\n0\n", "", 0],
    ["trap 'echo \"it'\"'\"'s\"' EXIT; trap -p EXIT", "trap -- 'echo \"it'\\''s\"' EXIT\nit's\n", "", 0],
    ["trap 'echo t' RETURN; trap -p; trap '' INT; (trap -p)", "trap -- 'echo t' RETURN\ntrap -- '' SIGINT\ntrap -- 'echo t' RETURN\n", "", 0],
    [
      "trap -l | head -2; trap -l | tail -1",
      " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1\n63) SIGRTMAX-1\t64) SIGRTMAX\t\n",
      "",
      0,
    ],
  ]);
});

it("subshells and $(…) do not run the parent's traps, show them to trap -p, and run their own EXIT trap at their end", async () => {
  await check([
    ["trap 'echo t' EXIT; (echo sub); echo main", "sub\nmain\nt\n", "", 0],
    ["trap 'echo t' EXIT; (trap 'echo st' EXIT; echo sub); echo main", "sub\nst\nmain\nt\n", "", 0],
    ["(trap 'echo st' EXIT; echo sub; exit 3); echo main=$?", "sub\nst\nmain=3\n", "", 0],
    ["x=$(trap 'echo st' EXIT; echo sub); echo \"[$x]\"", "[sub\nst]\n", "", 0],
    ["trap 'echo t' EXIT; x=$(trap -p); echo \"[$x]\"", "[trap -- 'echo t' EXIT]\nt\n", "", 0],
    ["trap 'echo t' EXIT INT; (trap 'echo x' TERM; trap -p)", "trap -- 'echo x' SIGTERM\nt\n", "", 0],
    ["trap 'echo t' EXIT; (trap - INT; trap -p)", "t\n", "", 0],
    ["trap 'echo t' EXIT; bash -c 'trap \"echo in\" EXIT; echo inner'; echo main", "inner\nin\nmain\nt\n", "", 0],
  ]);
});

it("trap ERR runs after a failing command where set -e would apply, not in functions or subshells unless set -E", async () => {
  await check([
    ["trap 'echo e' ERR; false; echo after; true", "e\nafter\n", "", 0],
    ["trap 'echo e $?' ERR; false || true; ! false; if false; then :; fi; while false; do :; done; false && true; echo done", "done\n", "", 0],
    ["trap 'echo e' ERR; if true; then false; fi; { false; }; for i in 1; do false; done; echo x", "e\ne\ne\nx\n", "", 0],
    ["trap 'echo e' ERR; f(){ false; echo inf; }; f; echo x", "inf\nx\n", "", 0],
    ["set -E; trap 'echo e' ERR; f(){ false; echo inf; }; f; echo x", "e\ninf\nx\n", "", 0],
    ["set -E; trap 'echo e' ERR; f(){ false; }; f; echo x", "e\ne\nx\n", "", 0],
    ["trap 'echo e' ERR; (false; echo sub); echo x", "sub\nx\n", "", 0],
    ["trap 'echo e' ERR; (exit 3); x=$(exit 3); echo x", "e\ne\nx\n", "", 0],
    ["set -e; trap 'echo e' ERR; false; echo no", "e\n", "", 1],
    ["trap 'echo e' ERR; false | true; true | false; echo x", "e\nx\n", "", 0],
    ["trap 'echo $?; (exit 7)' ERR; false; echo $?", "1\n1\n", "", 0],
    ["trap 'echo e' ERR; false; trap -p ERR; trap - ERR; false; echo x", "e\ntrap -- 'echo e' ERR\nx\n", "", 0],
  ]);
});

it("printf %q and %Q quote as bash 5.2", async () => {
  await check([
    ['printf "%q\\n" "a b" "c\'d" "" "$(printf "x\\ny")" "é" a=b "~x" "x~" "#a" "a#" "x=~" "a:~"', "a\\ b\nc\\'d\n''\n$'x\\ny'\né\na=b\n\\~x\nx~\n\\#a\na#\nx=\\~\na:\\~\n", "", 0],
    ['printf "%q\\n" "$(printf \'\\001\\033\')" "$(printf \'a"\\t\')" \'!\' \'a\\b\' "{a,b}" "[" "*" "@"', "$'\\001\\E'\n$'a\"\\t'\n\\!\na\\\\b\n\\{a\\,b\\}\n\\[\n\\*\n@\n", "", 0],
    ['printf "[%10q] [%5Q] [%.2Q] [%.2q] [%-6q]\\n" "a b" "a b" "a b c" "a b c" x; printf "%qd|%lld\\n" 5 6', "[      a\\ b] [ a\\ b] [a\\ ] [a\\] [x     ]\n5d|6\n", "", 0],
  ]);
});

it("xargs reads, groups and reports as GNU findutils 4.9", async () => {
  await check([
    ["printf 'a\\nb\\n' | xargs -I{} echo x{}y{}; printf 'a\\nb\\n' | xargs -i echo x{}y; printf 'a\\nb\\n' | xargs -iZ echo xZy", "xaya\nxbyb\nxay\nxby\nxay\nxby\n", "", 0],
    ["printf '  a b  \\n c\\n\\n' | xargs -I X echo [X]", "[a b  ]\n[c]\n", "", 0],
    ["printf 'a b\\nc\\nd\\n' | xargs -L 2 echo; printf 'a b \\nc\\nd\\n' | xargs -L 1 echo", "a b c\nd\na b c\nd\n", "", 0],
    ["printf 'a b c d e\\n' | xargs -n2 echo; printf 'a:b:c' | xargs -d : -n1 echo; printf 'a:b:c\\n' | xargs -d: echo", "a b\nc d\ne\na\nb\nc\na b c\n\n", "", 0],
    ["echo \"'a b' \\\"c d\\\" e\\\\ f\" | xargs -n1 echo", "a b\nc d\ne f\n", "", 0],
    ["echo \"'a b\" | xargs echo; echo $?", "1\n", "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n", 0],
    ["echo a | xargs false; echo $?; printf 'a\\nb\\n' | xargs -n1 sh -c 'echo $0; exit 2'; echo $?", "123\na\nb\n123\n", "", 0],
    ["echo a b | xargs -n1 sh -c 'exit 255'; echo $?", "124\n", "xargs: sh: exited with status 255; aborting\n", 0],
    ["echo a | xargs nosuch; echo $?", "127\n", "xargs: nosuch: No such file or directory\n", 0],
    ["xargs -r echo x </dev/null; echo $?; xargs -0 echo </dev/null; echo | xargs echo z", "0\n\nz\n", "", 0],
    ["printf 'a b\\0c\\0' | xargs -0 -n1 echo; echo a b c | xargs -E b echo; echo a b c | xargs -s 8 echo", "a b\nc\na\na\nb\nc\n", "", 0],
    ["echo 'a b' | xargs -t -I{} echo '{}' x", "a b x\n", "echo 'a b' x\n", 0],
    ["echo a | xargs -n 0 echo; echo a | xargs -L x echo; echo a | xargs -q; echo a | xargs --foo; echo a | xargs -I; echo $?", "1\n", "xargs: value 0 for -n option should be >= 1\nTry 'xargs --help' for more information.\nxargs: invalid number \"x\" for -L option\nTry 'xargs --help' for more information.\nxargs: invalid option -- 'q'\nTry 'xargs --help' for more information.\nxargs: unrecognized option '--foo'\nTry 'xargs --help' for more information.\nxargs: option requires an argument -- 'I'\nTry 'xargs --help' for more information.\n", 0],
    ["echo a b | xargs -n1 -I{} echo {}; echo a b | xargs -L1 -n1 echo", "a b\na\nb\n", "xargs: warning: options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value\nxargs: warning: options --max-lines and --max-args/-n are mutually exclusive, ignoring previous --max-lines value\n", 0],
    ["echo aaaaaaaaaa | xargs -s 8 echo; echo $?; xargs -a nofile echo; echo $?", "1\n1\n", "xargs: argument line too long\nxargs: Cannot open input file ‘nofile’: No such file or directory\n", 0],
  ]);
});

it("mktemp makes a new file (0600) or directory (0700) from its template, in $TMPDIR or /tmp, as GNU mktemp", async () => {
  const name = "sed -E 's/(tmp\\.|foo|a)[A-Za-z0-9]+$/\\1N/'";
  await check([
    [`f=$(mktemp); echo $f | ${name}; ls -l $f | cut -c1-10; d=$(mktemp -d); echo $d | ${name}; ls -ld $d | cut -c1-10; ls -ld /tmp | cut -c1-10`, "/tmp/tmp.N\n-rw-------\n/tmp/tmp.N\ndrwx------\ndrwxrwxrwt\n", "", 0],
    [`mktemp fooXXX | ${name}; mktemp -p . aXXX | ${name}; mktemp -t aXXX | ${name}; ls | wc -l`, "fooN\n./aN\n/tmp/aN\n2\n", "", 0],
    ["mktemp foo.XXX.txt | sed 's/foo\\....\\.txt/ok/'; mktemp --suffix=.txt fooXXX | sed 's/foo...\\.txt/ok/'; mktemp -d --suffix=.d | sed 's/tmp\\..*\\.d$/ok/'", "ok\nok\n/tmp/ok\n", "", 0],
    ["mkdir t; TMPDIR=t mktemp | sed 's/tmp\\..*/N/'; TMPDIR=/nonexist mktemp -p t | sed 's/tmp\\..*/N/'; ls t | wc -l; mktemp -u | sed 's/tmp\\..*/N/'; ls t | wc -l", "t/N\nt/N\n2\n/tmp/N\n2\n", "", 0],
    ["mktemp fooXX; mktemp a b; mktemp -z; mktemp nodir/fooXXX; mktemp -q nodir/fooXXX; echo $?", "1\n", "mktemp: too few X's in template ‘fooXX’\nmktemp: too many templates\nTry 'mktemp --help' for more information.\nmktemp: invalid option -- 'z'\nTry 'mktemp --help' for more information.\nmktemp: failed to create file via template ‘nodir/fooXXX’: No such file or directory\n", 0],
    ["mktemp -p /tmp /abs/XXXXXX; mktemp XXXXXX/foo; mktemp 'fooXXX.bar' --suffix=.a; TMPDIR=/nonexist mktemp; echo $?", "1\n", "mktemp: invalid template, ‘/abs/XXXXXX’; with --tmpdir, it may not be absolute\nmktemp: invalid suffix ‘/foo’, contains directory separator\nmktemp: with --suffix, template ‘fooXXX.bar’ must end in X\nmktemp: failed to create file via template ‘/nonexist/tmp.XXXXXXXXXX’: No such file or directory\n", 0],
    ["tmp=$(mktemp); trap 'rm -f \"$tmp\"' EXIT; echo data > \"$tmp\"; cat \"$tmp\"; bash -c \"test -e $tmp\" && echo exists", "data\nexists\n", "", 0],
  ]);
});
