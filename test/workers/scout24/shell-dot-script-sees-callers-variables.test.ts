/**
 * Issue 20, twenty-fourth attack run (scout of fixes): 4633982 starts `./script` as a new shell for its OPTIONS
 * (`newShell`: set -o and shopt off), but the script still runs in a copy of the caller's state, so it sees the
 * caller's unexported variables, arrays and functions — `bash s` and `bash -c` (the same new shell) do not.
 * Tried against bash 5.2.15: `v=1; ./s` (s: `echo "[$v]"`), `f(){ …; }; ./s` (s: `f`), `a=(1 2); ./s`
 *   (s: `echo ${#a[@]}`), the same with `bash s`/`bash -c`, and a script that sets a variable and cd's.
 * Held: options (set -e, nullglob, set -u) no longer cross; what the script sets or cd's stays inside; `bash s` and
 *   `bash -c` see only exported variables and no functions.
 * Found (medium: a script's behaviour depends on the caller's private variables — `./build.sh` picks up a stray `$v`
 *   or calls the caller's function instead of a command): `[1]` (bash `[]`), `f` runs with status 0 (bash: `./s:
 *   line 1: f: command not found`, 127), `2` (bash `0`).
 * Suggested fix: run `./script` as bash runs `bash script` — from a fresh state holding only the exported variables
 *   (and exported functions), as the `bash FILE` path already does.
 * Fixed (SF2): shell-options.ts newShell (run where just-bash starts a script file, in the copy of the caller's
 *   state it restores after) now also keeps only the exported variables (`export`, `v=1 ./s`, `set -a`) as plain
 *   strings, resets IFS/OPTIND/PWD/$?, and empties arrays, functions, attributes, locals, FUNCNAME and the hash
 *   table. (just-bash has no `export -f`, so no function reaches a script.) Siblings: test/workers/fix24/
 *   shell-declare-script.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const cases: [string, string, string, number][] = [
  ["v=1; printf 'echo \"[$v]\"\\n' > s; chmod +x s; ./s", "[]\n", "", 0],
  ["a=(1 2); printf 'echo ${#a[@]}\\n' > s; chmod +x s; ./s", "0\n", "", 0],
  ["export w=2; printf 'echo \"[$w]\"\\n' > s; chmod +x s; ./s", "[2]\n", "", 0],
  ["f(){ echo f; }; printf 'f\\n' > s; chmod +x s; ./s; echo rc=$?", "rc=127\n", "f: command not found", 0],
];

it("./script sees only exported variables and no functions, as bash s does", async () => {
  const out = await shellCases({}, cases.map(([command]) => command), { collect: (_ws, _c, r) => [r.stdout, r.stderr.includes("f: command not found") ? "f: command not found" : r.stderr, r.exitCode] });
  expect(out).toEqual(cases.map(([, stdout, stderr, code]) => [stdout, stderr, code]));
});
