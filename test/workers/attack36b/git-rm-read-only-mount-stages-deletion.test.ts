/**
 * Issue 20, thirty-sixth attack run: `git rm -r m` where `m` is a read-only mount the agent had committed fails
 * (EROFS, exit 1) but has already removed the entries from the index: `git status` then shows every mount file as a
 * staged deletion and the next `git commit` records the removal the agent was told failed. git 2.39.5 on a read-only
 * bind mount removes the working-tree files first and dies on the first failure before writing the index:
 * `fatal: git rm: 'm/a.txt': Read-only file system`, exit 128, index untouched, `git commit` then "nothing to commit".
 * Tried: a WorkerBundle mount at /workspace/m committed with `git add -A`; `git rm -r m`, then `git status -s`,
 * `git commit >/dev/null`, `git ls-files`; differential: the same repo with `m` bind-mounted read-only (`mount -o remount,bind,ro`)
 * under git 2.39.5. Also git stash, git clean -fd, git reset --hard and git switch beside the mount.
 * Held: the mount's bytes are unchanged (EROFS from the VFS); `git reset --hard` and `git switch` beside the mount
 * leave it alone; the failure is reported on stderr.
 * Found (medium — an agent that retries or goes on with `git commit` commits the deletion of files that are still
 * there, a history change it never got; 1 of 1 runs, deterministic): see the `Was:` lines.
 * Suggested fix: src/git/ops/repo.ts `rm` (the RM_WORKTREE path): remove the working-tree files first (or check with
 * the mount guard that they can be removed) and only then `git.remove` the index entries; on a first failure throw
 * git's `fatal: git rm: '<path>': Read-only file system` (128) with the index untouched.
 * Fixed: src/git/ops/repo.ts `rm` with RM_WORKTREE removes the working-tree files first, in index order, stops at the
 * first that cannot go and removes the index entries only of the files that went, throwing `ERMFAIL` with `path` and
 * `reason`; src/git/cli/commands.ts `rm` prints git's `rm '<path>'` lines, then `fatal: git rm: '<path>': <strerror>`,
 * 128 (issue 20, run 36, fixer GR). Siblings: test/workers/fix36/git-rm-refused.test.ts.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("git rm -r of a committed read-only mount fails 128 with the index untouched, as git 2.39.5", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      const r = await sh(
        ws,
        "git init -q && git add -A && git commit -qm c && git rm -q -r m; echo rc=$?; git status -s; git commit -qm gone >/dev/null; echo rc=$?; git ls-files",
        { cwd: "/workspace" },
      );
      return { stdout: r.stdout, stderr: r.stderr, mount: await ws.fs.readFile("/workspace/m/a.txt", "utf8") };
    },
    {
      workspace: {
        git: createGitClient(),
        defaultGitIdentity: { name: "T", email: "t@e" },
        mounts: { "/workspace/m": WorkerBundle({ "a.txt": "A\n" }) },
      },
    },
  );
  expect(out).toEqual({
    // Was: "rc=1\nD  m/a.txt\n ? m/\nrc=0\n" — the deletion staged, then committed; m/a.txt gone from the repository
    stdout: "rc=128\nrc=1\nm/a.txt\n",
    // Was: "git rm: EROFS: read-only file system (mount at /workspace/m), rm: /workspace/m/a.txt\n"
    stderr: expect.stringContaining("fatal: git rm: 'm/a.txt': Read-only file system"),
    mount: "A\n",
  });
}, 60000);
