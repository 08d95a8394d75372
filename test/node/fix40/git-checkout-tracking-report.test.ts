/**
 * Issue 20, run 40, fixer f40g2: cases beside attack40e's checkout test — git's report_tracking after a switch when the
 * branch is ahead, behind or diverged (stdout), after `git checkout HEAD` (the tracking line alone), none with `-q`,
 * and `git switch <b>` making `<b>` from `origin/<b>` (git's --guess, on by default).
 * Expected outputs checked against git 2.39.5 on a clone in /tmp (`git checkout main` → stdout `Your branch is ahead of
 * 'origin/main' by 1 commit.\n  (use "git push" to publish your local commits)`, stderr `Switched to branch 'main'`;
 * behind: `Your branch is behind 'origin/main' by 1 commit, and can be fast-forwarded.\n  (use "git pull" to update
 * your local branch)`; `git checkout HEAD`: the tracking line only; `git switch sh` → stdout `branch 'sh' set up to
 * track 'origin/sh'.`, stderr `Switched to a new branch 'sh'`).
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const ENV = { GIT_AUTHOR_DATE: "@1704164645 +0000", GIT_COMMITTER_DATE: "@1704164645 +0000" };

it("checkout/switch print git's tracking lines, and switch guesses a remote branch, as git 2.39.5", { timeout: 30_000 }, async () => {
  const { url } = await forkRepo();
  const { git } = newWorkspace();
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work", env: ENV })).exitCode).toBe(0);
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/work/repo", env: ENV });

  expect(await run("switch", "feature")).toEqual({
    stdout: "branch 'feature' set up to track 'origin/feature'.\n",
    stderr: "Switched to a new branch 'feature'\n",
    exitCode: 0,
  });
  expect(await run("switch", "-q", "main")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await run("commit", "-q", "--allow-empty", "-m", "ahead")).toMatchObject({ exitCode: 0 });
  const ahead = "Your branch is ahead of 'origin/main' by 1 commit.\n  (use \"git push\" to publish your local commits)\n";
  expect(await run("checkout", "HEAD")).toEqual({ stdout: ahead, stderr: "", exitCode: 0 });
  expect(await run("checkout", "-q", "feature")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  expect(await run("checkout", "main")).toEqual({ stdout: ahead, stderr: "Switched to branch 'main'\n", exitCode: 0 });
  expect(await run("reset", "-q", "--hard", "HEAD~2")).toMatchObject({ exitCode: 0 });
  expect(await run("checkout", "main")).toEqual({
    stdout: "Your branch is behind 'origin/main' by 1 commit, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n",
    stderr: "Already on 'main'\n",
    exitCode: 0,
  });
});
