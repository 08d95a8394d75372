/**
 * Issue 20, twenty-third attack run: `git branch -d f` deletes a branch whose commits are not merged into HEAD —
 * `-d` and `-D` are the same here (src/git/cli/commands.ts, branch: `ctx.bool("delete") || ctx.bool("D")` →
 * branchDelete). Real git (2.39) refuses with `error: The branch 'f' is not fully merged.` / `If you are sure you want
 * to delete it, run 'git branch -D f'.`, status 1, and keeps the branch: `-d` is the safe delete an agent reaches
 * for, and here it silently makes the branch's commits unreachable (the Workspace's git keeps no reflog to find
 * them again).
 * Tried: side by side with git 2.39.5: `-d` of a merged branch (held: deleted, `Deleted branch f (was <oid7>).`),
 * of the checked-out branch (held: refused, status 1), of a missing branch (held: status 1), of an unmerged branch
 * (this); `-D` of an unmerged branch (held: deleted).
 * Held: see Tried.
 * Found (medium — a safe delete loses commits; 2 of 2 runs): see the expectations.
 * Suggested fix: for `-d` without `-f`, check that the branch tip is an ancestor of HEAD (or of its upstream, when
 * it has one — git's rule) with the client's isDescendent/merge-base, else fail with git's two lines, status 1, and
 * delete nothing; `-D` (or `-d -f`) keeps deleting.
 * Fixed: the CLI's `branch -d` (src/git/cli/commands.ts deleteBranches) keeps a branch whose tip is not merged — an
 * ancestor of its upstream's tip when one is set and resolves, else of HEAD (none while HEAD is unborn), as git 2.39's
 * branch_merged, with git's warning when HEAD and the upstream disagree — printing `git branch: The branch '<b>' is
 * not fully merged.` and the `git branch -D <b>` hint, exit 1; like git it goes on with the next name and exits 1 when
 * any failed (it stopped at the first). `-D` and `-d -f` delete merged or not; the typed `branchDelete` is unchanged
 * (documented as `git branch -D`). Siblings in test/workers/fix23/git-cli-gb.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it("git branch -d refuses a branch not merged into HEAD, as git", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(
      ws,
      "git init -q . && echo a > a.txt && git add a.txt && git commit -q -m init && git checkout -q -b f && echo f > f.txt && git add f.txt && " +
        "git commit -q -m f && git checkout -q main && git branch -d f; echo rc=$?; git branch",
      { cwd: "/workspace" },
    );
    return { stdout: r.stdout, stderr: r.stderr };
  }, withGit);
  // git 2.39.5: "rc=1\n  f\n* main\n" and stderr "error: The branch 'f' is not fully merged. …".
  // Before the fix: "Deleted branch f (was <oid7>).\nrc=0\n* main\n", nothing on stderr.
  expect(out).toEqual({
    stdout: "rc=1\n  f\n* main\n",
    stderr: "git branch: The branch 'f' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D f'.\n",
  });
});
