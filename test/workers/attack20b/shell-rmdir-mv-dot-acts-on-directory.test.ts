/**
 * Issue 20, twentieth attack run: `rmdir` and `mv` of an operand whose last segment is `.` or `..` act on the
 * directory it names (rmdir(2) and rename(2) refuse such a path: EINVAL, EBUSY).
 * Tried: with /workspace/d/f.txt, /workspace/d/sub and an empty /workspace/e, in the shell (cwd /workspace):
 * `rmdir e/.`, `mv d/. x`, `mv d/sub/.. y`, `cd e && rmdir .`; side by side with GNU coreutils 9.1.
 * Found (low — a directory removed or renamed by a command Linux refuses; nothing lost): `rmdir e/.` and
 * `cd e && rmdir .` remove e, `mv d/. x` and `mv d/sub/.. y` rename d, `$?` 0 (2 of 2 runs). GNU:
 * `rmdir: failed to remove 'e/.': Invalid argument`, `mv: cannot move 'd/.' to 'x': Device or resource busy`, `$?` 1.
 * Suggested fix: as for rm (shell-rm-dot-removes-directory.test.ts), refuse an operand whose last segment as
 * written is `.` or `..` before resolvePath turns it into the directory itself.
 * Fixed: gen-shell patches of just-bash's rmdir (last `.`: Invalid argument, last `..`: Directory not empty, as rmdir(2))
 *   and mv (Device or resource busy, as rename(2)) check the operand as written; the adapter's mv refuses a source
 *   still ending in `/.` with EBUSY.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["d/sub", "e"], files: { "d/f.txt": "keep\n" } };

const commands: [string, string][] = [
  ["rmdir e/.", "rmdir: failed to remove 'e/.': Invalid argument\n"],
  ["cd e && rmdir .", "rmdir: failed to remove '.': Invalid argument\n"],
  ["mv d/. x", "mv: cannot move 'd/.' to 'x': Device or resource busy\n"],
  ["mv d/sub/.. y", "mv: cannot move 'd/sub/..' to 'y': Device or resource busy\n"],
];

it("rmdir and mv of an operand ending in . or .. fail as on Linux ($? 1, the tree unchanged)", async () => {
  const out = await shellCases(TREE, commands.map(([command]) => command), {
    wrap: (command) => `(${command}); echo rc=$?; find /workspace | sort | tr '\\n' ' '`,
  });
  expect(out).toEqual(
    commands.map(([command, stderr]) => [command, "rc=1\n/workspace /workspace/d /workspace/d/f.txt /workspace/d/sub /workspace/e ", stderr]),
  );
});
