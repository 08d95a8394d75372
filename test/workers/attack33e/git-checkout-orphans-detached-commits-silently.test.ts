/**
 * Issue 20, thirty-third attack run: the shell's `git checkout <branch>` (also `switch`) from a detached HEAD whose
 * commits no branch or tag reaches switches without a word about them, so the agent's work committed on the detached
 * HEAD is left unreachable — and this git has no `reflog` (nor `log --all`) to find it again. git 2.39.5 switches too
 * but prints `Warning: you are leaving 1 commit behind, not connected to any of your branches:`, the commit's
 * `<oid7> <subject>` and the `git branch <new-branch-name> <oid7>` hint on stderr, so the agent can keep it.
 * Tried: commit on `main`, `checkout HEAD~1`, commit `c` (detached), `checkout main`, with real git 2.39.5 on the
 * same script.
 * Held: the switch itself, the working tree and `status` afterwards agree with git; a detached checkout of a tag
 * (`HEAD detached at <oid7>` where git names the tag `v1` — wording only).
 * Found (medium — a lost change: work an agent committed after `git checkout <rev>` vanishes from every listing
 * with no notice and no reflog to recover it; 3 of 3 runs): stderr `Switched to branch 'main'\n` only.
 * Suggested fix: in the CLI's checkout/switch (src/git, the branch-switch path), when HEAD is detached and its
 * commit is not reachable from any ref (refs/heads, refs/tags, refs/remotes, refs/stash) print git's
 * orphaned-commit warning (up to 4 commits listed, then `... and N more.`) before `Switched to branch`.
 *
 * Fixed: the CLI's checkout/switch (src/git/cli/commands.ts `switchTo` → `warnOrphans`) prints git's
 * orphaned_commit_warning for the commits reachable from the old detached HEAD and from no ref nor the new HEAD (4
 * listed, ` ... and N more.`, the hint unless advice.detachedHead=false), or `Previous HEAD position was <oid7> <s>`
 * when none is left (issue 20, run 33, fixer GE). Siblings: test/workers/fix33/git-gitlink-detached.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

const SCRIPT =
  "mkdir r && cd r && git init -q -b main . && echo a > a && git add . && git commit -qm a && echo b > a && git commit -qam b && " +
  "git checkout -q HEAD~1 && echo c > c && git add c && git commit -qm c && git rev-parse --short HEAD && git checkout main; echo rc=$?";

it("git checkout away from a detached HEAD warns of the commits it leaves behind, as git 2.39.5", async () => {
  const r = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/t", { recursive: true });
    return sh(ws, SCRIPT, { cwd: "/t" });
  }, withGit);
  const [oid, rc] = r.stdout.trim().split("\n");
  expect(rc).toBe("rc=0");
  // Was: "Switched to branch 'main'\n"
  expect(r.stderr).toBe(
    `Warning: you are leaving 1 commit behind, not connected to\nany of your branches:\n\n  ${oid} c\n\n` +
      `If you want to keep it by creating a new branch, this may be a good time\nto do so with:\n\n git branch <new-branch-name> ${oid}\n\n` +
      "Switched to branch 'main'\n",
  );
});
