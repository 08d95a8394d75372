/**
 * Issue 20, twenty-third attack run: `sed -i EXPR l`, where l is a symbolic link, edits the file the link points to
 * and leaves l a link. GNU sed 4.9 -i (without --follow-symlinks, which is not supported here) writes the result to a
 * new regular file renamed over l: the link is replaced by the edited copy and its target is left unchanged — so an
 * in-place edit of a name never changes a file elsewhere (with l -> ../shared/config or a file on another tree).
 * With -i.bak GNU keeps the link itself as l.bak (still pointing at the untouched target); here l.bak is a copy and
 * the target is edited.
 * Tried: side by side with GNU sed 4.9: `sed -i` and `sed -i.bak` on a link to a file outside the directory,
 * `--follow-symlinks` (unsupported here: usage error, status 1); `split` onto an output name that is a link to its
 * input (held: refused, "would overwrite input").
 * Held: sed -i on regular files (mode and inode kept, fix22); the refusal of split.
 * Found (low-medium — an in-place edit changes a file outside the named one; 2 of 2 runs): see the expectations.
 * Suggested fix: in sed -i (gen-shell "sed -i files"), lstat each operand; for a link, write the result as a new file
 * at the link's own path (rm the link, then write; with a suffix rename the link to name+suffix first), as GNU sed's
 * output temp + rename does; add --follow-symlinks for today's behaviour.
 * Fixed: sed -i looks at each operand itself (text-output.ts sedInPlaceTarget/sedWriteInPlace, patched in by
 * gen-shell's "sed -i through a link"): a link is replaced by the edited file — written beside it as `sedXXXXXX` with
 * the mode of the file it led to, then renamed over it — and the file it led to is left alone; with -iSUFFIX the link
 * itself is renamed to the backup name first. `--follow-symlinks` is accepted and edits the file at the end of the
 * links in place (its backup named after it, as GNU: `d/a.bak`). Siblings: test/workers/fix23/shell-sb3-siblings.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

const tree = { dirs: ["outside"], files: { "outside/secret": "S\n" }, links: { l: "outside/secret" } };

it("sed -i on a link replaces the link with the edited file and leaves the target, as GNU sed", async () => {
  const out = await shellCases(tree, [
    "sed -i s/S/X/ l; echo rc=$?; ls -l l | cut -c1; cat outside/secret l",
    "sed -i.bak s/S/X/ l; echo rc=$?; ls -l l l.bak | cut -c1; cat outside/secret l l.bak",
  ]);
  // Before the fix: "rc=0\nl\nX\nX\n" and "rc=0\nl\n-\nX\nX\nS\n" (the target edited, the link kept).
  expect(out).toEqual([
    ["sed -i s/S/X/ l; echo rc=$?; ls -l l | cut -c1; cat outside/secret l", "rc=0\n-\nS\nX\n", ""],
    ["sed -i.bak s/S/X/ l; echo rc=$?; ls -l l l.bak | cut -c1; cat outside/secret l l.bak", "rc=0\n-\nl\nS\nX\nS\n", ""],
  ]);
});
