/**
 * Issue 20, run 40, fixer f40sh: siblings of attacker a's here-document, readonly -f, $BASH_COMMAND and mapfile -C
 * tests, for cases they do not cover: a script ending in a newline inside an open here-document, `unset -f` of a
 * readonly function and `readonly -f` of a missing one (stderr), a dup redirect in $BASH_COMMAND (`>&2` is shown
 * as `1>&2`), and a mapfile callback given the line with its newline (no -t) and a quote in it.
 * Reference: `bash --norc --noprofile -c SCRIPT` (GNU bash 5.2.15) on this machine; stdout, stderr and status
 * copied from that run.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Row = [string, string, string, number];
const collect = (_ws: unknown, command: string, r: { stdout: string; stderr: string; exitCode: number }): Row => [command, r.stdout, r.stderr, r.exitCode];

const ROWS: Row[] = [
  ["cat <<EOF\nx\n", "x\n", "bash: line 2: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\n", 0],
  ['f(){ :; }; readonly -f f; unset -f f; echo "rc $?"; readonly -f nope; echo "rc $?"', "rc 1\nrc 1\n", "bash: line 1: unset: f: cannot unset: readonly function\nbash: line 1: readonly: nope: not a function\n", 0],
  ["trap 'echo \"c=$BASH_COMMAND\"' ERR\nx=1; test -z \"$x\" >&2\necho end", 'c=test -z "$x" 1>&2\nend\n', "", 0],
  ["cb(){ echo \"[$1|$2]\"; }; printf \"a b\\nc'd\\n\" | { mapfile -C cb -c 1 A; echo ${#A[@]}; }", "[0|a b\n]\n[1|c'd\n]\n2\n", "", 0],
];

it("here-document to end of script, readonly -f refusals, $BASH_COMMAND redirects and mapfile -C lines as bash 5.2", async () => {
  const out = await shellCases({ files: {} }, ROWS.map((r) => r[0]), { collect });
  expect(out).toEqual(ROWS);
});
