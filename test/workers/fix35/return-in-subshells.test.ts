/**
 * Issue 20, thirty-fifth run (fixer RP): the siblings of test/workers/attack35d/return-in-pipeline-or-substitution-
 * leaves-function — `return`, `break` and `continue` inside each kind of subshell bash makes, and the lastpipe and
 * top-level edges around them, compared with bash 5.2.15 run on this machine (`bash -c SCRIPT` in an empty temporary
 * directory; expected stdout, stderr and status are its output verbatim, with bash's `line N: ` dropped from stderr,
 * since the shell's builtins name no line).
 * - A pipeline element (first, middle, last; a `while read` loop, a `{ }` group, a simple command, a function call),
 *   `$( … )`, backquotes, `local v=$( … )`, a here-document's `$( … )`, `$(( $( … ) ))`, `<( … )`, `>( … )` and
 *   `&` end only themselves on `return N`: the status is N (mod 256: 300 → 44, -1 → 255), PIPESTATUS and pipefail
 *   see it, and the function goes on.
 * - `break`/`continue` (and `break 2`, `continue 2`) in a pipeline element or `$( … )` end it with status 0; the loop
 *   around goes on.
 * - With `shopt -s lastpipe` the last element runs in the shell itself: `return` there leaves the function, `break`
 *   and `continue` reach the loop, `exit` ends the shell (status 3, nothing after); the other elements are still
 *   subshells.
 * - A pipeline element ended by `set -u` has status 1 (as `( … )`), and `return` outside a function is status 2.
 * Not compared: a `break` inside a `{ …; }` pipeline element or a function called as one — bash 5.2 resets its loop
 * level there, prints `break: only meaningful in a …loop` and runs the rest of the group; the shell ends the element
 * quietly with status 0, as its `( … )` does (docs/porting.md). `echo x | eval 'return 3'` is not either: bash 5.2's
 * subshell goes on to run the caller's remaining commands (a bash defect).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

/** [script, bash stdout, bash stderr (without `line N: `), bash status]. */
const CASES: readonly (readonly [string, string, string, number])[] = [
  ["f(){ printf 'a\\nb\\n' | while read l; do echo \"saw $l\"; return 4; done; echo \"after $?\"; }; f; echo \"f=$?\"", "saw a\nafter 4\nf=0\n", "", 0],
  ["f(){ for i in 1 2; do echo $i | while read l; do return 7; done; echo \"in $i $?\"; done; echo end; }; f; echo \"f=$?\"", "in 1 7\nin 2 7\nend\nf=0\n", "", 0],
  ["f(){ echo a | while read l; do echo \"got $l\"; return; done; echo \"after $?\"; }; false; f; echo \"f=$?\"", "got a\nafter 0\nf=0\n", "", 0],
  ["f(){ echo x | { read v; echo \"read $v\"; return 2; echo no; } | cat; echo \"after $? ${PIPESTATUS[*]}\"; }; f; echo \"f=$?\"", "read x\nafter 0 0 2 0\nf=0\n", "", 0],
  ["f(){ return 5 | return 6; echo \"after $? ${PIPESTATUS[*]}\"; }; f; echo \"f=$?\"", "after 6 5 6\nf=0\n", "", 0],
  ["set -o pipefail; f(){ return 5 | cat; echo \"after $?\"; }; f; echo \"f=$?\"", "after 5\nf=0\n", "", 0],
  ["f(){ ! return 4 | cat; echo \"after $?\"; }; f; echo \"f=$?\"", "after 1\nf=0\n", "", 0],
  ["f(){ echo x | { return 300; }; echo \"after $?\"; }; f; echo \"f=$?\"", "after 44\nf=0\n", "", 0],
  ["g(){ return 8; }; f(){ echo x | g; echo \"after $?\"; g | cat; echo \"after2 $?\"; }; f; echo \"f=$?\"", "after 8\nafter2 0\nf=0\n", "", 0],
  ["f(){ eval 'echo x | return 3'; echo \"after $?\"; }; f; echo \"f=$?\"", "after 3\nf=0\n", "", 0],
  ["f(){ echo x | { y=$(return 4); echo \"in $?\"; return 5; }; echo \"after $?\"; }; f; echo \"f=$?\"", "in 4\nafter 5\nf=0\n", "", 0],
  ["f(){ echo \"[$(echo a; return 4; echo b)] $?\"; echo \"st $?\"; }; f; echo \"f=$?\"", "[a] 4\nst 0\nf=0\n", "", 0],
  ["f(){ x=`echo a; return 3`; echo \"after $? $x\"; }; f; echo \"f=$?\"", "after 3 a\nf=0\n", "", 0],
  ["f(){ local v=$(return 3); echo \"after $? [$v]\"; }; f; echo \"f=$?\"", "after 0 []\nf=0\n", "", 0],
  ["f(){ x=$(return -1); echo \"after $?\"; }; f; echo \"f=$?\"", "after 255\nf=0\n", "", 0],
  ["f(){ cat <<EOF2\na $(return 3) b\nEOF2\necho \"after $?\"; }; f; echo \"f=$?\"", "a  b\nafter 0\nf=0\n", "", 0],
  ["f(){ echo $(( $(return 3) + 1 )); echo \"after $?\"; }; f; echo \"f=$?\"", "1\nafter 0\nf=0\n", "", 0],
  ["f(){ cat <(echo in; return 1; echo no); echo \"after $?\"; }; f; echo \"f=$?\"", "in\nafter 0\nf=0\n", "", 0],
  ["f(){ echo hi > >(return 2; cat); echo \"after $?\"; }; f; echo \"f=$?\"", "after 0\nf=0\n", "", 0],
  ["f(){ return 3 & wait $!; echo \"w=$?\"; }; f; echo \"f=$?\"", "w=3\nf=0\n", "", 0],
  ["for i in 1 2; do echo x | break; echo \"after $i $?\"; done; echo end", "after 1 0\nafter 2 0\nend\n", "", 0],
  ["for i in 1 2; do break | cat; echo \"after $i $?\"; done; echo end", "after 1 0\nafter 2 0\nend\n", "", 0],
  ["for i in 1 2; do echo x | continue; echo \"after $i $?\"; done; echo end", "after 1 0\nafter 2 0\nend\n", "", 0],
  ["for i in 1 2; do x=$(echo $i; break; echo no); echo \"[$x] $?\"; done; echo end", "[1] 0\n[2] 0\nend\n", "", 0],
  ["for i in 1 2; do x=$(continue); echo \"after $i $?\"; done; echo end", "after 1 0\nafter 2 0\nend\n", "", 0],
  ["while true; do echo x | break 2; echo once; break; done; echo end", "once\nend\n", "", 0],
  ["for i in 1 2; do for j in a b; do echo x | continue 2; echo \"$i$j\"; done; done", "1a\n1b\n2a\n2b\n", "", 0],
  ["f(){ for i in 1 2; do echo $i | break; echo \"in $i\"; done; echo end; }; f; echo \"f=$?\"", "in 1\nin 2\nend\nf=0\n", "", 0],
  ["shopt -s lastpipe; f(){ echo x | { read v; return 2; }; echo \"after $?\"; }; f; echo \"f=$? v=$v\"", "f=2 v=x\n", "", 0],
  ["shopt -s lastpipe; f(){ printf 'a\\nb\\n' | while read l; do return 4; done; echo \"after $?\"; }; f; echo \"f=$?\"", "f=4\n", "", 0],
  ["shopt -s lastpipe; f(){ return 2 | cat; echo \"after $?\"; }; f; echo \"f=$?\"", "after 0\nf=0\n", "", 0],
  ["shopt -s lastpipe; f(){ echo x | { read v; return 2; } | cat; echo \"after $?\"; }; f; echo \"f=$?\"", "after 0\nf=0\n", "", 0],
  ["shopt -s lastpipe; for i in 1 2; do echo x | break; echo \"after $i\"; done; echo end", "end\n", "", 0],
  ["shopt -s lastpipe; for i in 1 2; do echo x | continue; echo \"after $i\"; done; echo end", "end\n", "", 0],
  ["shopt -s lastpipe; echo x | exit 3; echo after", "", "", 3],
  ["shopt -s lastpipe; f(){ echo x | exit 3; echo after; }; f; echo \"f=$?\"", "", "", 3],
  ["echo x | exit 3; echo \"after $?\"", "after 3\n", "", 0],
  ["set -u; echo x | { echo $nope; echo b; }; echo \"s=$?\"", "s=1\n", "bash: nope: unbound variable\n", 0],
  ["x=$(return 3); echo \"top $?\"", "top 2\n", "bash: return: can only `return' from a function or sourced script\n", 0],
  ["echo x | return 3; echo \"top $?\"", "top 2\n", "bash: return: can only `return' from a function or sourced script\n", 0],
  ["return 3; echo \"top $?\"", "top 2\n", "bash: return: can only `return' from a function or sourced script\n", 0],
];

it("return, break and continue end only the subshell they run in, as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, CASES.map(([script]) => script), {
    collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode] as const,
  });
  expect(out).toEqual(CASES);
}, 120_000);
