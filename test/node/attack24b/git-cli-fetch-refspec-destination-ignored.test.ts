/**
 * Issue 20, twenty-fourth attack run: `git fetch origin feature:localfeat` exits 0 and prints nothing, but makes no
 * `localfeat` — the `:dst` half of the refspec is parsed (remoteAndRefspec) and passed to the client's fetch as
 * `ref`, which isomorphic-git reads as "the branch to fetch", not as where to store it. Real git 2.39 creates
 * refs/heads/localfeat at origin's feature. A script or agent that fetches a branch into a local one and then checks
 * it out (`git fetch origin pr:review && git checkout review`) fails at the second step, after a "successful" fetch.
 * Tried: side by side with git 2.39.5 against the loopback smart-HTTP server: pull --ff-only / pull diverged / push
 * behind / pull over untracked and modified files / fetch + merge / push -u new branch / push -d / push HEAD:ref /
 * push of a missing ref / pull <remote> <branch> / remote add + fetch / fetch src:dst / push -f after amend.
 * Held: refusals before writing (pull over untracked/modified files), push rejections, push -u tracking, push -d,
 * fetch --prune, fetch of a second remote, HEAD:refs/heads/x.
 * Found (low-medium — a documented form silently does nothing; 2 of 2 runs): see the expectations.
 * Suggested fix: in the CLI's fetch (src/git/cli/commands.ts), after the fetch, write `dst` (refs/heads/<dst> when
 * not qualified) to the fetched commit as git does (refusing a non-fast-forward update of an existing branch without
 * `+`, and the checked-out branch) — or reject a `:dst` refspec as unsupported (exit 129) instead of ignoring it.
 * Fixed: the CLI's fetch no longer passes `dst` as isomorphic-git's `ref`; after the fetch it stores the fetched commit
 * at `dst` (git's get_local_ref: `refs/heads/<dst>` unless qualified) as update_local_ref does, with git's lines
 * (`From <url>`, ` * [new branch]      feature    -> localfeat`, `old..new`, `! [rejected] … (non-fast-forward)`
 * exit 1, `+` forced); the checked-out branch and an invalid dst exit 128 before fetching. Siblings: pull refuses a
 * `src:dst` (129, it was ignored too), push honours a leading `+` (test/node/fix24/git-stash-fetch.test.ts).
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git fetch origin feature:localfeat makes the local branch localfeat at origin's feature", async () => {
  const { url, name } = await forkRepo();
  const feature = (await serverGit(name, ["rev-parse", "refs/heads/feature"])).stdout.trim();
  const { git } = newWorkspace();
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/w" })).exitCode).toBe(0);
  const fetched = await git.cli({ argv: ["fetch", "origin", "feature:localfeat"], cwd: "/w/repo" });
  expect(fetched).toEqual({ stdout: "", stderr: `From ${url.replace(/\.git$/, "")}\n * [new branch]      feature    -> localfeat\n`, exitCode: 0 });
  const local = await git.cli({ argv: ["rev-parse", "--verify", "-q", "refs/heads/localfeat"], cwd: "/w/repo" });
  // The same call answers for main (so the form is understood):
  expect((await git.cli({ argv: ["rev-parse", "--verify", "-q", "refs/heads/main"], cwd: "/w/repo" })).exitCode).toBe(0);
  // Found: exit 1, nothing printed — `git branch` lists only main.
  expect({ exitCode: local.exitCode, stdout: local.stdout }).toEqual({ exitCode: 0, stdout: `${feature}\n` });
});
