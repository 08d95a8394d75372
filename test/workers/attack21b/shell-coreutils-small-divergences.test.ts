/**
 * Issue 20, twenty-first attack run: seven small wrong answers of the shell's coreutils, each a line an agent's
 * script would branch on: `dirname /` is `.` (GNU `/`: `cd "$(dirname "$p")"` lands in the cwd), `basename -- -x`
 * is `missing operand`, `rmdir -p d/sub` exits 0 silently when d is not empty (GNU 1 + `failed to remove directory
 * 'd': Directory not empty`), `wc -l DIR` says `No such file or directory` (GNU `Is a directory`, and `0 d`),
 * `od -An -tx1` prints octal (the attached `-tx1` form is ignored; `-t x1` works), `tac` adds a newline to input
 * without one, `ls -d d/ ld/ ./d//sub` prints blank lines between the names and does not sort them.
 * Tried: /workspace with a.txt ("one\ntwo\n"), d/f.txt, d/sub, ld -> d; each command side by side with GNU
 * coreutils 9.1.
 * Held: `od -An -t x1`, `od -t c`, `basename -a a/b c/d`, `dirname /a`, `ls -F`.
 * Found (low — wrong text or exit status, nothing lost; 2 of 2 runs): as listed, the exact outputs below.
 * Suggested fix: gen-shell patches for just-bash's dirname (all-slash operand → `/`), basename (honour `--`),
 * rmdir -p (report and fail on the first parent that cannot go), wc (EISDIR message and a `0 name` line), od
 * (parse an attached -t argument), tac (no separator added after a last record without one), ls -d (one sorted
 * list of operands, no directory headers).
 * Fixed: scripts/gen-shell.mjs (SOURCE_PATCHES) routes each through src/backends/worker-shell/isolate/coreutils.ts:
 * dirname/basename take their operands as getopt does (`--`, a lone `-`) and compute the name as POSIX (`/` for an
 * all-slash name, `a//b` → `a`, a suffix equal to the whole name is kept); `rmdir -p` stops at the first parent that
 * cannot go with GNU's `failed to remove directory` line and `$?` 1; just-bash's shared file reader (wc, cut, sort,
 * uniq, jq, xan) names the real reason (`Is a directory`, `Permission denied`) and wc keeps a directory's `0 d` line;
 * od splits an attached `-tx1` / `--format=x1`; tac prints a last record without a newline as it came; `ls -d` sorts
 * its operands (reversed with -r) into one list. Siblings: test/workers/fix21/shell-coreutils-gnu.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d/sub"], files: { "a.txt": "one\ntwo\n", "d/f.txt": "keep\n" }, links: { ld: "d" } };

const checks: [string, string, string][] = [
  ["dirname /; dirname //", "/\n/\n", ""],
  ["basename -- -x", "-x\n", ""],
  ["rmdir -p d/sub; echo rc=$?", "rc=1\n", "rmdir: failed to remove directory 'd': Directory not empty\n"],
  ["wc -l d; echo rc=$?", "0 d\nrc=1\n", "wc: d: Is a directory\n"],
  ["od -An -tx1 a.txt", " 6f 6e 65 0a 74 77 6f 0a\n", ""],
  ["printf 'x' | tac", "x", ""],
  ["ls -d d/ ld/ ./d//sub", "./d//sub\nd/\nld/\n", ""],
];

it("dirname, basename, rmdir -p, wc, od, tac and ls -d answer as GNU coreutils", async () => {
  expect(await shellCases(TREE, checks.map(([command]) => command))).toEqual(checks);
});
