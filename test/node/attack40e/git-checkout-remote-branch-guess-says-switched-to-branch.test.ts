/**
 * Fixed in run 40 by fixer f40g2: a guessed branch prints git's tracking and `Switched to a new branch` lines, a switch to a branch with an upstream git's report_tracking line (`git switch <b>` guesses too).
 * Issue 20, run 40, attacker e: after a clone, `git checkout feature` (no local `feature`, only `origin/feature` —
 * git's checkout.guess) CREATES the branch `feature` tracking `origin/feature` (branch.feature.remote/merge are set,
 * as git) but reports `Switched to branch 'feature'` — as if the branch had existed — and not git's
 * `branch 'feature' set up to track 'origin/feature'.` / `Switched to a new branch 'feature'`; and switching to a
 * branch with an upstream (`git switch main`, `git checkout main`) leaves out git's `Your branch is up to date with
 * 'origin/main'.` (or ahead/behind) line, so an agent is not told that its branch is behind or ahead after a switch.
 * Reproduction (loopback server's fixture, branches main and feature): `git clone <url> repo; cd repo;
 * git checkout feature; git switch main`.
 * Today: `git checkout feature` → stdout "", stderr `Switched to branch 'feature'\n`; `git switch main` → stdout "",
 * stderr `Switched to branch 'main'\n`.
 * git 2.39.5 (a real clone of the same URL in /tmp, the same commands): stdout
 * `branch 'feature' set up to track 'origin/feature'.\n`, stderr `Switched to a new branch 'feature'\n`; then stdout
 * `Your branch is up to date with 'origin/main'.\n`, stderr `Switched to branch 'main'\n`.
 * Likely cause: src/git/cli/commands.ts, checkout/switch's run (the remote-branch guess path prints the plain
 * "Switched to branch" line; no upstream report after a switch — git's checkout.c report_tracking).
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git checkout <b> from origin/<b> says it set up tracking and made a new branch, and a switch reports the upstream, as git 2.39.5", { timeout: 20_000 }, async () => {
  const { url } = await forkRepo();
  const { git } = newWorkspace();
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work" })).exitCode).toBe(0);
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/work/repo" });

  const guessed = await run("checkout", "feature");
  const tracking = [(await run("config", "branch.feature.remote")).stdout, (await run("config", "branch.feature.merge")).stdout];
  const back = await run("switch", "main");
  expect({ guessed, tracking, back }).toEqual({
    // Today: { stdout: "", stderr: "Switched to branch 'feature'\n", exitCode: 0 }
    guessed: { stdout: "branch 'feature' set up to track 'origin/feature'.\n", stderr: "Switched to a new branch 'feature'\n", exitCode: 0 },
    tracking: ["origin\n", "refs/heads/feature\n"],
    // Today: { stdout: "", stderr: "Switched to branch 'main'\n", exitCode: 0 }
    back: { stdout: "Your branch is up to date with 'origin/main'.\n", stderr: "Switched to branch 'main'\n", exitCode: 0 },
  });
});
