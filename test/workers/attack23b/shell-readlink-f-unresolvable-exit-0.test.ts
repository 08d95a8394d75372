/**
 * Issue 20, twenty-third attack run: `readlink -f` prints a path and exits 0 for names it cannot canonicalise — a
 * link loop (`l1 -> l2 -> l1`) prints `/workspace/l1`, a path below a missing directory (`nope/x`) prints
 * `/workspace/nope/x`. GNU readlink 9.1 -f requires every component but the last to exist and every link to resolve:
 * it prints nothing and exits 1 for both. Scripts use `p=$(readlink -f "$x") || exit` to canonicalise and check a
 * path at once; here the check always passes and the script goes on with a path that leads nowhere (or in circles).
 * Tried: side by side with GNU coreutils 9.1: `readlink -f a` (held), `readlink -f nope` (held: last component may
 * be missing, prints the path), `readlink -f nope/x`, `readlink -f l1` (loop), `readlink -f dangling` (held: prints
 * the target path), `readlink -e`/`-m` (unsupported: usage error, not asserted).
 * Held: existing paths, links to files and directories, a missing last component.
 * Found (low-medium — a canonicalisation that never fails; 2 of 2 runs; run 22's link-loop test noted the loop case
 * in passing, unreported): see the expectations.
 * Suggested fix: in readlink -f (just-bash's readlink over the adapter's realpath) resolve every component but the
 * last with the adapter (stat following links): ENOENT/ENOTDIR/ELOOP before the last → print nothing for that
 * operand, exit 1; a loop in the last component too (ELOOP).
 * Fixed: readlink is GNU readlink 9.1 (link-operands.ts readlinkCommand/canonicalize, gen-shell "readlink"): -f
 * canonicalizes as gnulib's canonicalize_filename_mode — every link in every component resolved (`ld/..` goes up from
 * where ld points; just-bash resolved only a final link), every component but the last must exist — and an operand
 * it cannot canonicalize prints nothing, status 1; -e (all must exist) and -m (none) are supported, with -n, -z, -v,
 * -q/-s. Siblings: test/workers/fix23/shell-sb3-siblings.test.ts and test/node/fix23/shell-readlink-canonicalize.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("readlink -f fails (exit 1, no output) for a link loop and a missing parent, as GNU", async () => {
  const out = await shellCases({ files: { a: "A\n" }, links: { l1: "l2", l2: "l1" } }, [
    "readlink -f nope/x; echo rc=$?",
    "readlink -f l1; echo rc=$?",
    "readlink -f nope; echo rc=$?",
  ]);
  // Before the fix: "/workspace/nope/x\nrc=0\n" and "/workspace/l1\nrc=0\n".
  expect(out).toEqual([
    ["readlink -f nope/x; echo rc=$?", "rc=1\n", ""],
    ["readlink -f l1; echo rc=$?", "rc=1\n", ""],
    ["readlink -f nope; echo rc=$?", "/workspace/nope\nrc=0\n", ""],
  ]);
});
