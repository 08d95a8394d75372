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
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it.fails("git branch -d refuses a branch not merged into HEAD, as git", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(
      ws,
      "git init -q . && echo a > a.txt && git add a.txt && git commit -q -m init && git checkout -q -b f && echo f > f.txt && git add f.txt && " +
        "git commit -q -m f && git checkout -q main && git branch -d f; echo rc=$?; git branch",
      { cwd: "/workspace" },
    );
    return { stdout: r.stdout, notMerged: r.stderr.includes("not fully merged") };
  }, withGit);
  // git 2.39.5: "rc=1\n  f\n* main\n" and stderr "error: The branch 'f' is not fully merged. …".
  // Here: "Deleted branch f (was <oid7>).\nrc=0\n* main\n", nothing on stderr.
  expect(out).toEqual({ stdout: "rc=1\n  f\n* main\n", notMerged: true });
});
