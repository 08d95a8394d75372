/**
 * Issue 20, thirty-fifth attack run: `return` run inside a pipeline element or a command substitution — the common
 * `producer | while read x; do …; return 1; done` inside a function, `echo x | { read v; return 2; }`,
 * `x=$( … || return 1 )` — returns from the enclosing function in the shell, skipping every command after the loop.
 * In bash each pipeline element (without lastpipe) and each `$( … )` is a subshell: `return` there ends only that
 * subshell, `$?` after the pipeline is its status, and the function goes on to its next command (the well-known
 * "return in a piped while loop" behaviour scripts are written against). `exit` in the same places and `return`
 * in a plain `( … )` subshell are right; only `return` escapes.
 * Tried: side by side with bash 5.2.15 in a temp dir: `return N` in a piped `while read` loop, a piped `{ …; }`
 * group, as the right and the left element of a pipe, in `$( … )`, and in `( … )`; `exit N` in a piped loop and in
 * a function's pipe; `break` in a piped loop.
 * Held: `(return 3)`, `exit` in a piped loop (`st=5`, script goes on), `f(){ echo a | exit 3; …; }`, `break` in a
 * piped loop, and variables set in a piped loop staying in it.
 * Found (medium — a function that scans `ls`/`find`/`git` output in a `| while read` loop and returns from it runs
 * different code than bash: the commands after the loop (cleanup, writing a result file, the final `return`) are
 * skipped and the function's status is the loop's `return` value; an agent reading the files or the status acts
 * on the wrong outcome; 2 of 2 runs): the six scripts below; e.g. the fourth prints `saw a`, `f=1`, then
 * `cat: done.txt: No such file or directory`, status 1, where bash prints `saw a`, `after 0`, `f=0`, `cleanup`.
 * Suggested fix: where just-bash runs a pipeline element other than the last-with-lastpipe (executePipeline) and a
 * command substitution, catch its ReturnError as the subshell's exit (status = the return's code) the way
 * `( … )` and ExitError are already caught there, instead of letting it unwind into callFunction.
 * Fixed: a ReturnError (and a BreakError/ContinueError/SubshellExitError) raised in a pipeline element that is a
 * subshell (all but the last under lastpipe), a `$( … )`/backquotes (word, here-document, `$(( ))` text) or a
 * `<( … )` is turned into just-bash's ExitError with the return's status (0 for break/continue) where that
 * subshell already ends on `exit` (RP_PATCHES in scripts/gen-shell.mjs, src/backends/worker-shell/isolate/
 * subshell-control.ts); `exit` in the last element under lastpipe ends the shell (issue 20, run 35, fixer RP).
 * Siblings: test/workers/fix35/return-in-subshells.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }) => [command, r.stdout, r.stderr, r.exitCode];

it("return inside a pipeline element or $( ) ends only that subshell, as bash 5.2", async () => {
  const scripts = [
    "f(){ printf 'a\\nb\\n' | while read l; do return 4; done; echo \"after-loop $?\"; }; f; echo \"f=$?\"",
    "f(){ x=$(return 3); echo \"after $?\"; }; f; echo \"f=$?\"",
    "f(){ echo x | { read v; return 2; }; echo \"after $?\"; }; f; echo \"f=$?\"",
    "f(){ printf 'a\\nb\\n' | while read l; do echo \"saw $l\"; [ \"$l\" = a ] && return 1; done; echo cleanup > done.txt; echo \"after $?\"; }; f; echo \"f=$?\"; cat done.txt",
    "f(){ ls | while read x; do return 0; done; echo reached; return 9; }; touch one; f; echo \"f=$?\"",
    "f(){ return 6 | cat; echo \"after $?\"; }; f; echo \"f=$?\"",
  ];
  const out = await shellCases({ files: {} }, scripts, { collect });
  // Was: "f=4\n"; "f=3\n"; "f=2\n"; "saw a\nf=1\n" + "cat: done.txt: No such file or directory\n", 1; "f=0\n"; "f=6\n".
  expect(out).toEqual([
    [scripts[0], "after-loop 4\nf=0\n", "", 0],
    [scripts[1], "after 3\nf=0\n", "", 0],
    [scripts[2], "after 2\nf=0\n", "", 0],
    [scripts[3], "saw a\nafter 0\nf=0\ncleanup\n", "", 0],
    [scripts[4], "reached\nf=9\n", "", 0],
    [scripts[5], "after 0\nf=0\n", "", 0],
  ]);
}, 60_000);

it("exit in a piped loop and return in ( ) already end only the subshell", async () => {
  const scripts = [
    "printf '1\\n2\\n3\\n' | while read l; do [ $l = 2 ] && exit 5; echo $l; done; echo \"st=$?\"",
    "f(){ (return 3); echo \"after $?\"; }; f; echo \"f=$?\"",
  ];
  const out = await shellCases({ files: {} }, scripts, { collect });
  expect(out).toEqual([
    [scripts[0], "1\nst=5\n", "", 0],
    [scripts[1], "after 3\nf=0\n", "", 0],
  ]);
}, 60_000);
