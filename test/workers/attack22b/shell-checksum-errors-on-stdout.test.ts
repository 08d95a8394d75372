/**
 * Issue 20, twenty-second attack run: md5sum / sha1sum / sha256sum print their error lines ("…: nope: No such file
 * or directory", "WARNING: 1 computed checksum did NOT match") on STANDARD OUTPUT. `sha256sum a missing > SUMS`
 * therefore writes the error into the checksum file (a later `sha256sum -c SUMS` meets an unformatted line), and a
 * pipeline parsing the sums gets a bogus record. GNU writes them to stderr. A directory operand is called "No such
 * file or directory" (GNU: "Is a directory").
 * Tried: side by side with GNU coreutils 9.1: `md5sum nope`, `sha256sum nope > sums`, `sha1sum a nope`, `sha256sum
 * -c` of a good, a changed and a removed file, `md5sum d` (a directory), `echo a | md5sum` (held), `md5sum --quiet
 * -c` (unsupported option).
 * Held: the sums themselves (also over all 256 byte values), exit statuses, the `FAILED` lines of -c.
 * Found (low-medium — an error line lands in data files; 2 of 2 runs): `sha256sum nope > sums; cat sums` prints
 * `sha256sum: nope: No such file or directory` (GNU: sums is empty, the line on stderr).
 * Suggested fix: in the checksum commands (just-bash's shared implementation, gen-shell patch), send the
 * per-file error and the WARNING lines to stderr, and name the reason from the error's code.
 * Fixed: md5sum/sha1sum/sha256sum are text-output.ts checksumCommand: read errors and WARNING lines on stderr with the
 * error's reason; -c counts improperly formatted lines, unreadable files (`FAILED open or read`) and mismatches as GNU
 * 9.1, `no properly formatted checksum lines found`, --quiet/--status/--strict/-w. Siblings in
 * test/workers/fix22/shell-text-output.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("checksum commands print errors on stderr, never into the sums, as GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    const r = await sh(ws, "echo a > a; sha1sum a nope > sums; echo rc=$?; cat sums; md5sum d; echo b > a; sha1sum -c sums; echo rc=$?", { cwd: "/workspace" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({
    stdout: "rc=1\n3f786850e387550fdab836ed7e6dc881de23001b  a\na: FAILED\nrc=1\n",
    stderr: "sha1sum: nope: No such file or directory\nmd5sum: d: Is a directory\nsha1sum: WARNING: 1 computed checksum did NOT match\n",
  });
});
