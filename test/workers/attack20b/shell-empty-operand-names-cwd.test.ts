/**
 * Issue 20, twentieth attack run: in the shell an empty path names the working directory — `[ -d '' ]` and
 * `test -e ''` are true, `chmod 000 ''` changes the cwd's mode, `ls ''` lists it — where every POSIX call on ""
 * is ENOENT. (rm of an empty operand, the data-loss case, is shell-rm-empty-operand-removes-cwd.test.ts.)
 * Tried: cwd /workspace/w holding d/f.txt, d/sub and e: `test -e ''`, `[ -d '' ]`, `chmod 000 ''`, `ls ''`,
 * `touch ''`, `rmdir ''`, also `stat -c %F ''`, `find '' -maxdepth 0`, `du -s ''`, `tar -cf t.tar ''`, `mkdir -p ''`,
 * `mv '' x`, `cp -r '' x`, `cd ''`; side by side with bash 5.2 and GNU coreutils 9.1.
 * Held: `cd ''` stays (as bash); `mv '' x` and `cp -r '' x` fail (with "into itself" where GNU says
 * `cannot stat '': No such file or directory`); an empty redirect target (scout18 fix).
 * Found (medium — a guard a script relies on is wrong: `[ -d "$DIR" ] && rm -rf "$DIR"` with DIR empty passes the
 * test and then removes the cwd; chmod changes the cwd's mode): `test -e ''` and `[ -d '' ]` exit 0 (bash 1);
 * `chmod 000 ''` sets the cwd's mode to 0, `$?` 0; `ls ''` lists d and e, `$?` 0 (ls: `cannot access ''`, 2);
 * `touch ''` and `mkdir -p ''` succeed silently; `rmdir ''` says `Directory not empty`; `stat`, `find`, `du` and
 * `tar` take '' as the cwd (2 of 2 runs).
 * Suggested fix: the adapter answers every method on "" with ENOENT — decided before resolvePath joins it to the
 * cwd (e.g. resolvePath keeps "" as a path no method accepts).
 * Fixed: the adapter's resolvePath keeps "" as "" and every adapter method answers it with ENOENT (exists: false).
 *   Expectation corrected for `ls ''` and `touch ''`: this shell words a missing operand as just-bash does for every
 *   path (`ls: missing: No such file or directory`, test/workers/shell; `touch: cannot touch 'p': <adapter message>`),
 *   not GNU's `cannot access`/strerror wording — the defect was acting on the cwd, which is gone; the wording is not.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["w/d/sub", "w/e"], files: { "w/d/f.txt": "keep\n" } };

const commands: [string, string, string][] = [
  ["test -e ''", "", "rc=1\n"],
  ["[ -d '' ]", "", "rc=1\n"],
  ["chmod 000 ''", "chmod: cannot access '': No such file or directory\n", "rc=1\n755\n"],
  ["ls ''", "ls: : No such file or directory\n", "rc=2\n"],
  ["touch ''", "touch: cannot touch '': No such file or directory\n", "rc=1\n"],
  ["rmdir ''", "rmdir: failed to remove '': No such file or directory\n", "rc=1\n"],
];

it("an empty operand is ENOENT, not the cwd (bash 5.2, GNU coreutils 9.1)", async () => {
  const out = await shellCases(TREE, commands.map(([command]) => command), {
    cwd: "/workspace/w",
    wrap: (command) => `${command}; echo rc=$?${command.startsWith("chmod") ? "; stat -c %a ." : ""}`,
  });
  expect(out).toEqual(commands.map(([command, stderr, stdout]) => [command, stdout, stderr]));
});
