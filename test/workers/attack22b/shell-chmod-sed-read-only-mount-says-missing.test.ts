/**
 * Issue 20, twenty-second attack run: on a file of a read-only mount, `chmod 644 f` and `chmod -R 755 dir` say
 * `chmod: cannot access 'ro/f.txt': No such file or directory`, and `sed -i s/a/b/ ro/f.txt` says `sed: ro/f.txt:
 * No such file or directory` — the file exists and `cat` prints it; the real reason (read-only) is hidden behind a
 * wrong ENOENT, so an agent goes looking for a missing file. GNU: `chmod: changing permissions of 'ro/f.txt':
 * Read-only file system`; GNU sed -i: `sed: couldn't open temporary file ro/sedXXXXXX: Read-only file system`.
 * Tried: a WorkerBundle mount at /workspace/ro (f.txt, sub/g.txt): chmod 644/777 of a file, chmod -R of the root,
 * sed -i, touch of an existing file (exit 0, a no-op — GNU fails; utimes is documented as a no-op) and of a new one.
 * Held: mv, cp, mkdir, ln -s, redirects, rm without -f name EROFS / Read-only file system.
 * Found (low-medium — a misleading error code; $? 1 is right; 2 of 2 runs): the three commands above print
 * "No such file or directory".
 * Suggested fix: in the gen-shell chmod and sed -i paths, print the error's own reason (readFailureReason /
 * strerror of its code, as run 21's coreutils helpers do) instead of a fixed ENOENT text.
 * Fixed: gen-shell patches print the error's own reason — chmod through path-errors.ts chmodFailure (GNU's
 * `changing permissions of '…'` for a refused change, `cannot access '…'` for a name that cannot be reached, e.g.
 * ELOOP), sed -i as `sed: <file>: <strerror>` (just-bash's line, GNU's reason; SH2 owns sed -i's other wording).
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const commands = ["chmod 644 ro/f.txt", "chmod -R 755 ro", "sed -i s/a/b/ ro/f.txt"];

it("chmod and sed -i on a read-only mount name the read-only file system, not a missing file", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const results = [];
      for (const command of commands) {
        const r = await sh(ws, `${command}; echo rc=$?; cat ro/f.txt`, { cwd: "/workspace" });
        results.push({ stdout: r.stdout, stderr: r.stderr });
      }
      return results;
    },
    { workspace: { mounts: { "/workspace/ro": WorkerBundle({ "f.txt": "abc\n", "sub/g.txt": "g\n" }) } } },
  );
  expect(out).toEqual([
    { stdout: "rc=1\nabc\n", stderr: "chmod: changing permissions of 'ro/f.txt': Read-only file system\n" },
    { stdout: "rc=1\nabc\n", stderr: "chmod: changing permissions of 'ro': Read-only file system\n" },
    { stdout: "rc=1\nabc\n", stderr: "sed: ro/f.txt: Read-only file system\n" },
  ]);
});
