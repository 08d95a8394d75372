/**
 * Issue 20, twenty-second attack run: `rm -f` / `rm -rf` of a path in a read-only mount (or of a tree holding
 * one) prints nothing and exits 0 while nothing is removed. GNU rm's -f only silences a missing operand: on a
 * read-only file system it prints `rm: cannot remove '…': Read-only file system` and exits 1. The agent is told the
 * delete worked — the sibling of run 20's `rm -rf /` fix (df649f7: -f hid the Workspace's EPERM).
 * Tried: a WorkerBundle mount at /workspace/ro (f.txt, sub/g.txt) plus /workspace/f.txt: `rm ro/f.txt`, `rm -f
 * ro/f.txt`, `rm -r ro`, `rm -rf ro`, `rm -rf ro/sub`, `rm -rf ro/sub/g.txt nonexist`, `rm -r /workspace`, `rm -rf
 * /workspace`, `rm -rf /workspace/*`; also mv/cp/touch/mkdir/ln/redirects/tar -x/gzip/find -delete into the mount.
 * Held: without -f every rm reports EROFS with $? 1; mv, cp, mkdir, ln -s, `>>`, tar -x, gzip, find -delete
 * report it; a link to a mount file is removed as a link; writes through a link into the mount are refused.
 * Found (medium — a silent no-op reported as success; 2 of 2 runs): `rm -f ro/f.txt; echo rc=$?` → `rc=0`, no
 * stderr, ro/f.txt still there; `rm -rf ro`, `rm -rf ro/sub`, `rm -rf /workspace` the same (the last also keeps
 * /workspace/f.txt, which is not in the mount).
 * Suggested fix: in the rm patch/adapter, let -f swallow ENOENT only (as GNU's ignorable errors); report EROFS
 * (and EPERM, EACCES, EBUSY) with GNU's line and $? 1.
 * Fixed: a gen-shell patch of just-bash's rm: -f ignores only what GNU rm's nonexistent_file_errno ignores (ENOENT,
 * ENOTDIR, EINVAL, EILSEQ — path-errors.ts rmForceIgnores); any other failure prints `rm: cannot remove '…': <strerror
 * of its code>` (`Read-only file system`, no longer the Workspace's raw `EROFS: …, rm '/…'` text) and sets $? 1. One
 * line per operand: the Workspace removes a tree in one transaction, so `rm -rf ro` names `ro`, not each file.
 * Siblings: test/workers/fix22/shell-sh1-siblings.test.ts (a missing name and one below a file still ignored).
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const commands = ["rm -f ro/f.txt", "rm -rf ro", "rm -rf ro/sub"];

it("rm -f reports a read-only mount's refusal and exits 1, as GNU rm on a read-only file system", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const results = [];
      for (const command of commands) {
        const r = await sh(ws, `${command}; echo rc=$?`, { cwd: "/workspace" });
        results.push({ stdout: r.stdout, stderr: r.stderr, kept: (await ws.fs.find("/workspace/ro")).length });
      }
      return results;
    },
    { workspace: { mounts: { "/workspace/ro": WorkerBundle({ "f.txt": "abc\n", "sub/g.txt": "g\n" }) } } },
  );
  expect(out).toEqual(
    ["ro/f.txt", "ro", "ro/sub"].map((name) => ({ stdout: "rc=1\n", stderr: `rm: cannot remove '${name}': Read-only file system\n`, kept: 3 })),
  );
});
