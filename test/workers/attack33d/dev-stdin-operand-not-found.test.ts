/**
 * Issue 20, thirty-third attack run: `/dev/stdin` (and `/dev/fd/0`) as a file operand or a `<` redirect is "No such
 * file or directory" in every command — `cat /dev/stdin`, `sort /dev/stdin`, `grep y /dev/stdin`, `diff /dev/stdin
 * exp`, `awk … /dev/stdin`, `wc -l /dev/stdin`, `sed … /dev/stdin`, `head /dev/stdin`, `cp /dev/stdin out.txt`,
 * `tee copy < /dev/stdin` — where bash 5.2.15 with GNU coreutils reads the command's standard input. The common
 * script idiom `payload=$(cat /dev/stdin)` in a function fed by a pipe gets an empty string and the script goes on
 * with it (status 0; only a stderr line), and `cmd | diff /dev/stdin expected` reports trouble (2) instead of
 * "same" (0). Only sed's `r /dev/stdin` and awk's `print > "/dev/stderr"` are handled (docs/porting.md); nothing
 * documents the operand form.
 * Tried: a differential run against bash 5.2.15 + GNU coreutils 9.1 / grep 3.8 / sed 4.9 / gawk 5.2.1 of the commands
 * above fed by a pipe; `cat -`, `cat /dev/fd/0`, `< /dev/stdin`, `awk getline < "/dev/stdin"`.
 * Held: `-` as an operand (`cat -`, `diff - f`), `tee /dev/stderr`, `> /dev/stderr`, `> /dev/stdout`, awk's
 * `"/dev/stderr"`, sed `r /dev/stdin`.
 * Found (medium — a script written for Linux (a repo's hook, a helper an agent writes) silently loses its input:
 * `f() { in=$(cat /dev/stdin); echo "got:$in"; }; echo payload | f` prints `got:` with status 0; 3 of 3 runs):
 * every form above fails with `…: /dev/stdin: No such file or directory` (cat 1, sort/grep/diff/awk 2, cp 1).
 * Suggested fix: src/backends/worker-shell (the shell's file system adapter / command wrappers): resolve `/dev/stdin`
 * and `/dev/fd/0` to the command's stdin, as `-` is (and as the awk `/dev/stdout`/`/dev/stderr` handling and sed's
 * `r /dev/stdin` already do), for file operands and for a `<` redirect; `cp /dev/stdin f` copies what it reads.
 * Fixed: each command's `fs` (just-bash's command context, patched by scripts/gen-shell.mjs `// SD33`) reads
 * `/dev/stdin`, `/dev/fd/0` and `/proc/self/fd/0` as the command's standard input (readFile, readFileBytes,
 * readFileBuffer, stat, exists, realpath, cp from it; src/backends/worker-shell/isolate/dev-stdin.ts), and
 * `< /dev/stdin` on fd 0 keeps the input (issue 20, run 33, fixer SD).
 * Siblings: test/workers/fix33/shell-dev-stdin-brace.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("/dev/stdin as a file operand reads the command's stdin, as bash 5.2.15 with GNU tools", async () => {
  const results = await shellCases(
    { files: { exp: "a\n" } },
    [
      `f() { local in; in=$(cat /dev/stdin); echo "got:$in"; }; echo payload | f`,
      "printf 'b\\na\\n' | sort /dev/stdin; echo rc=$?",
      "printf 'x\\ny\\n' | grep y /dev/stdin; echo rc=$?",
      "printf 'a\\n' | diff /dev/stdin exp; echo rc=$?",
      "printf 'saved\\n' | cp /dev/stdin out.txt; echo rc=$?; cat out.txt",
      "printf 'q\\n' | cat /dev/fd/0",
    ],
    { collect: (_ws, command, r) => [command, r.stdout, r.stderr] },
  );
  // Was: "got:\n", "rc=2\n", "rc=2\n", "rc=2\n", "rc=1\n", "" — each with `…: /dev/stdin: No such file or directory`.
  expect(results.map(([, out, err]) => [out, err])).toEqual([
    ["got:payload\n", ""],
    ["a\nb\nrc=0\n", ""],
    ["y\nrc=0\n", ""],
    ["rc=0\n", ""],
    ["rc=0\nsaved\n", ""],
    ["q\n", ""],
  ]);
});
