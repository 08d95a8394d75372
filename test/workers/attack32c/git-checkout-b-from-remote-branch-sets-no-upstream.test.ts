/**
 * Issue 20, thirty-second attack run: `git checkout -b t4 origin/feature` (and `git switch -c`) from a
 * remote-tracking branch does not set the new branch's upstream, where git 2.39.5 (branch.autoSetupMerge, on by
 * default) prints `branch 't4' set up to track 'origin/feature'.` and records `branch.t4.remote/merge`: afterwards
 * `git status` says nothing about `origin/feature` (no `Your branch is behind …`), and `git pull` asks the server
 * for a branch `t4` instead of `feature` (fails "Could not find t4.") — the pull an agent runs to catch up is lost.
 * Tried: a differential run against git 2.39.5 over the loopback smart-HTTP server: clone, `checkout -b t4
 * origin/feature`, `status -sb`, another clone pushes to feature, `git pull`, `git status -sb`.
 * Held: `git checkout <name>` of a branch that exists only as `origin/<name>` creates it tracking `origin/<name>`,
 * as git; `push -u` records the upstream; `branch -vv` shows `[gone]` after the remote branch is deleted.
 * Found (medium — `git checkout -b fix origin/main` then `git pull` / `git status` is a common agent workflow and
 * silently misses the upstream; 2 of 2 runs).
 * Suggested fix: src/git/cli/commands.ts checkout -b / switch -c (and `branch <new> <start>`): when the start point
 * names a remote-tracking ref `refs/remotes/<r>/<b>`, set `branch.<new>.remote=<r>` and `branch.<new>.merge=
 * refs/heads/<b>` and print `branch '<new>' set up to track '<r>/<b>'.` on stdout, as git's setup_tracking.
 *
 * Fixed: src/git/cli/commands.ts `setupTracking` (fixer GB, run 32): `checkout -b`/`-B`, `switch -c`/`-C` and
 * `branch [-f] <new> <start>` resolve the start point in git's DWIM order and, for a remote-tracking branch, set
 * `branch.<new>.remote`/`merge` and print git's line (not with -q); `--no-track`, `-t/--track` (a local start tracks
 * it as remote `.`; `checkout --track origin/x` makes `x`) and `branch.autoSetupMerge` (false/always) as git.
 * Siblings: test/workers/fix32/git-branch-track.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("git checkout -b t4 origin/feature tracks origin/feature, so status and pull follow it, as git 2.39.5", async () => {
  const { url } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone ${url} c 2>/dev/null`,
          "git -C c checkout -b t4 origin/feature",
          "git -C c status -sb",
          `git clone -b feature ${url} o 2>/dev/null && cd o && echo up > up.txt && git add up.txt && git commit -m up >/dev/null && git push 2>/dev/null && cd ../c`,
          "git pull >/dev/null 2>&1; echo pull=$?",
          "git status -sb",
          "cat up.txt",
        ].join("\n"),
      ),
    withGit,
  );
  // Was: "## t4\npull=1\n## t4\n" and cat: up.txt: No such file (pull: `Could not find t4.`)
  expect(r.stdout).toBe("branch 't4' set up to track 'origin/feature'.\n## t4...origin/feature\npull=0\n## t4...origin/feature\nup\n");
});
