/**
 * Issue 20, twenty-third attack run: `cp` gets modes wrong in two ways. Copying over an existing file replaces the
 * destination's mode with the source's (`chmod 755 b; chmod 600 a; cp a b` leaves b 600 — an executable script
 * overwritten with new content stops being executable, or a private file's mode is widened), where GNU cp 9.1 writes
 * into the existing file and keeps its mode (755). And `cp -r d e` makes e 0755 whatever d's mode is (GNU: the
 * source directory's mode masked by the umask, so a 0700 directory stays 0700 — a private directory's copy is
 * opened up).
 * Tried: side by side with GNU coreutils 9.1: `cp a b` to a new file (held: source mode), `cp -p` (held), over an
 * existing file (this), `mv` (held: mode kept), `cp -r` of a 0700 directory holding a 0755 file (file held,
 * directory not), `cp -a`/`-u`/`-i` (unsupported: usage errors, not asserted).
 * Held: new files get the source's mode; -p; mv.
 * Found (low — modes wrong after a copy, no error; 2 of 2 runs): see the expectations.
 * Suggested fix: in cp (just-bash's cp over the adapter), when the destination file exists and -p is not given,
 * write without a mode (keep the existing one — the Workspace's writeFile resets to 0o644 without `mode`, so pass
 * the existing file's mode); for -r make each directory with the source's mode & ~0o022.
 * Fixed: cp gives what it makes GNU cp 9.1's modes (link-operands.ts cpWithModes around the adapter's cp, gen-shell
 * "cp modes"): a file already there keeps its mode, a new file gets the source's less umask 022 (setuid/setgid/sticky
 * dropped: a 0777 source gives 0755), a new directory the source's less 022 (sticky kept), a directory already there
 * keeps its own; -p gives each the source's whole mode. Siblings: test/workers/fix23/shell-sb3-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("cp keeps an existing destination's mode, and cp -r a directory's mode, as GNU cp", async () => {
  const out = await shellCases({ dirs: ["d"], files: { a: "A\n", b: "B\n", "d/f": "F\n" } }, [
    "chmod 755 b; chmod 600 a; cp a b; stat -c '%a %n' b",
    "chmod 700 d; chmod 755 d/f; cp -r d e; stat -c '%a %n' e e/f",
  ]);
  // Before the fix: "600 b\n" and "755 e\n755 e/f\n".
  expect(out).toEqual([
    ["chmod 755 b; chmod 600 a; cp a b; stat -c '%a %n' b", "755 b\n", ""],
    ["chmod 700 d; chmod 755 d/f; cp -r d e; stat -c '%a %n' e e/f", "700 e\n755 e/f\n", ""],
  ]);
});
