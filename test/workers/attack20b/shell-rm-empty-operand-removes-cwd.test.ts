/**
 * Issue 20, twentieth attack run: `rm -rf ''` — and so `rm -rf "$DIR"` with DIR empty or unset — removes the
 * shell's working directory and everything in it.
 * Tried: cwd /workspace/w holding d/f.txt, d/sub and e, /workspace/keep beside it: `rm -rf ''`, `D=; rm -rf "$D"`,
 * `rm -rf "$UNSET"`, `rm -r ''`; side by side with GNU coreutils 9.1 rm.
 * Found (high — silent data loss from the commonest shell slip, an empty variable in `rm -rf "$X"`): each removes
 * /workspace/w whole, `$?` 0, no stderr (2 of 2 runs). GNU rm: unlink('')/stat('') is ENOENT, so `rm -rf ''` does
 * nothing, `$?` 0, and `rm -r ''` prints `rm: cannot remove '': No such file or directory`, `$?` 1. The adapter's
 * resolvePath joins '' to the cwd (`<cwd>/` → `<cwd>`), so the Workspace's rm gets the cwd (the scout18 fix covers
 * only an empty redirect target).
 * Suggested fix: the empty path is ENOENT for every adapter method (open(2), stat(2), unlink(2) on "" are ENOENT),
 * decided on the operand as written before it is resolved: resolvePath (or each method) must not map "" to the
 * cwd — e.g. resolvePath returns a path no method accepts for "", or a gen-shell patch of rm/rmdir/mv/cp refuses it.
 * Fixed: the adapter's resolvePath keeps "" as "" and every adapter method answers it with ENOENT (exists: false), so
 *   rm's stat of '' fails as GNU's does and nothing is removed.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const TREE = { dirs: ["w/d/sub", "w/e"], files: { "w/d/f.txt": "keep\n", keep: "keep\n" } };

const commands: [string, string, number][] = [
  ["rm -rf ''", "", 0],
  ['D=; rm -rf "$D"', "", 0],
  ['rm -rf "$UNSET"', "", 0],
  ["rm -r ''", "rm: cannot remove '': No such file or directory\n", 1],
];

it("rm of an empty operand removes nothing (ENOENT), as GNU rm", async () => {
  const out = await shellCases(TREE, commands.map(([command]) => command), {
    cwd: "/workspace/w",
    wrap: (command) => `${command}; echo rc=$?; find /workspace | sort | tr '\\n' ' '`,
  });
  expect(out).toEqual(
    commands.map(([command, stderr, rc]) => [
      command,
      `rc=${rc}\n/workspace /workspace/keep /workspace/w /workspace/w/d /workspace/w/d/f.txt /workspace/w/d/sub /workspace/w/e `,
      stderr,
    ]),
  );
});
