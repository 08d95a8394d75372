/**
 * Issue 20, thirtieth attack run: a command word that expands to several words is not split into the command and its
 * arguments: `cmd="ls -1"; $cmd src`, `SED="sed -n"; $SED 1p a.txt` — and even a quoted `"$@"` or `"${cmd[@]}"` as the
 * command, so the `run() { echo "+ $*"; "$@"; }; run grep -c x f` wrapper too — fail with `bash: ls -1: command not
 * found`, status 127; bash 5.2 runs `ls` with `-1`. Expansions in argument positions split (`f $v`, `for w in $CC`).
 *
 * Tried: side by side with bash 5.2.15 in a temp dir: `cmd="echo hi there"; $cmd`, `cmd="ls -1"; $cmd src`,
 * `cmd="grep -c TODO"; $cmd f`, `SED="sed -n"; $SED 1p f`, `CMD="printf %s\n"; $CMD a b`, `set -- echo "a b"; $@`,
 * `cmd=(echo hi there); ${cmd[@]}`, `f() {…}; cmd="f x y"; $cmd`, `IFS=,; cmd2="echo,a"; $cmd2`, and `eval "$cmd"`.
 * Held: a one-word command in a variable (`cmd=echo; $cmd hi`), `run() { "$@"; }; run true`, `eval "$cmd"`, splitting
 * of expansions in argument positions (`f $v`, `for w in $CC`, `echo $CC`, `printf '[%s]' "${args[@]}"`).
 * Found (high — the `$CMD args` / `$PKG_MANAGER run` / `${cmd[@]}` form of build and CI scripts exits 127 instead of
 * running the command, even `"$@"` as a command; 2 of 2 runs).
 * Suggested fix: in the shell's simple-command execution (just-bash's interpreter as patched by scripts/gen-shell.mjs;
 * probably the CZ `unavailable command` lookup or the PATH lookup it wraps): field-split (IFS) the expanded command
 * word before looking the name up, and take the first field as the name, the rest as leading arguments — the whole
 * expanded word `ls -1` is looked up as one name today.
 *
 * Fixed: not a regression of run 29's CZ lookup — just-bash 3.4.2's executeSimpleCommandInner expanded the command
 * word to one unsplit string. scripts/gen-shell.mjs (CW_PATCHES) makes it expand the command word with the
 * interpreter's own argument expansion (IFS splitting where unquoted, globbing, one field per "$@"/"${a[@]}" element)
 * and take the first field as the command, the rest as leading arguments; a command word with no field leaves no
 * command (status of the last command substitution, else 0) — helpers in
 * src/backends/worker-shell/isolate/command-word.ts; siblings in test/workers/fix30/shell-command-word-split.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["src"], files: { "a.txt": "apple\nbanana\n", "src/a.ts": "// TODO remove\n", "src/b.ts": "x\n" } };

it("an unquoted expansion as the command word is split into the command and its arguments, as bash", async () => {
  const out = await shellCases(tree, [
    'cmd="echo hi there"; $cmd',
    'cmd="ls -1"; $cmd src',
    'cmd="grep -c TODO"; $cmd src/a.ts; echo rc=$?',
    'SED="sed -n"; $SED 1p a.txt',
    'set -- echo "a b"; "$@"',
    'cmd=(echo hi there); "${cmd[@]}"',
    'run() { echo "+ $*"; "$@"; }; run grep -c an a.txt',
  ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr, r.exitCode] });
  expect(out).toEqual([
    // Was: "", "bash: echo hi there: command not found\n", 127.
    ['cmd="echo hi there"; $cmd', "hi there\n", "", 0],
    // Was: "", "bash: ls -1: command not found\n", 127.
    ['cmd="ls -1"; $cmd src', "a.ts\nb.ts\n", "", 0],
    // Was: "rc=127\n", "bash: grep -c TODO: command not found\n".
    ['cmd="grep -c TODO"; $cmd src/a.ts; echo rc=$?', "1\nrc=0\n", "", 0],
    // Was: "", "bash: sed -n: command not found\n", 127.
    ['SED="sed -n"; $SED 1p a.txt', "apple\n", "", 0],
    // Was: "", "bash: echo a b: command not found\n", 127.
    ['set -- echo "a b"; "$@"', "a b\n", "", 0],
    // Was: "", "bash: echo hi there: command not found\n", 127.
    ['cmd=(echo hi there); "${cmd[@]}"', "hi there\n", "", 0],
    // Was: "+ grep -c an a.txt\n", "bash: grep -c an a.txt: command not found\n", 127.
    ['run() { echo "+ $*"; "$@"; }; run grep -c an a.txt', "+ grep -c an a.txt\n1\n", "", 0],
  ]);
});
