/**
 * Issue 20, twenty-second attack run (scout of fixes): `grep -r` with one FILE operand prefixes its name; GNU does
 * not — and `grep -R` skips a link to a file met while walking, which GNU (and docs/runtime.md) follow.
 * Tried: 7c9cff2 (grep -r names as GNU grep 3.8: no operand → `a.txt`, explicit `.` → `./a.txt`, hidden names,
 * unreadable start points) — the other operand shapes, side by side with GNU grep 3.8 on this machine: `-r` with a
 * single regular file operand (plain, `-n`, `-c`, `-l`), and `-R` over a directory holding `la -> ../a.txt` and
 * `ld -> ../d`.
 * Held: the fix's cases; `-r` with two file operands names both; `-r`/`-R` with a directory operand name as GNU;
 * `-R` follows a link to a directory (`w/ld/f.txt:x`); `-r` follows none.
 * Found (low — output a script or model parses: a file's lines gain a `a.txt:` prefix, and `-R` misses matches;
 * deterministic): `grep -r x a.txt` prints `a.txt:x` (GNU `x`), `-rn` `a.txt:1:x` (GNU `1:x`), `-rc` `a.txt:1`
 * (GNU `1`) — just-bash sets "show names" whenever `-r` is on, not when more than one file is searched or a
 * directory is walked; `grep -R x w` prints only `w/ld/f.txt:x` (GNU adds `w/la:x`), though docs/runtime.md says
 * `grep -R` follows the links it meets.
 * Suggested fix: in the grep patches (scripts/gen-shell.mjs), show file names when a directory operand is walked or
 * more than one operand is given (as GNU's `-H` default), not for `-r` alone; under `-R` stat (not lstat) a link met
 * while walking and search a file it leads to.
 * Fixed: scripts/gen-shell.mjs ("grep -r names a walked directory") names files when more than one file is searched,
 * when an operand is a directory that is walked, or with the new `-H`/`--with-filename` (`-h` still wins when last),
 * as GNU's out_file; "grep -R follows links to files" stats (follows) an entry the listing marks as a link, so under
 * -R a link to a file is searched and one that leads nowhere is reported (`grep: w/dl: No such file or directory`,
 * status 2) — under -r the walk's listings leave links out, as before. `--dereference-recursive` is -R. Siblings in
 * test/workers/fix22/shell-grep-patterns-and-names.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d", "w"], files: { "a.txt": "x\n", "d/f.txt": "x\n" }, links: { "w/la": "../a.txt", "w/ld": "../d" } };
// What GNU grep 3.8 prints for each (checked on Linux beside this test).
const cases: [string, string, string][] = [
  ["grep -r x a.txt; grep -rn x a.txt; grep -rc x a.txt; grep -rl x a.txt", "x\n1:x\n1\na.txt\n", ""],
  ["grep -R x w | sort", "w/la:x\nw/ld/f.txt:x\n", ""],
];

it("grep -r names a single file operand as GNU (not at all); grep -R follows a link to a file", async () => {
  expect(await shellCases(TREE, cases.map(([command]) => command))).toEqual(cases);
}, 60_000);
