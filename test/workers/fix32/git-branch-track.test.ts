/**
 * Issue 20, run 32, fixer GB — siblings of attack32c/git-checkout-b-from-remote-branch-sets-no-upstream: a branch
 * made from a remote-tracking branch tracks it (git 2.39.5's branch.autoSetupMerge=true) through every route —
 * `switch -c`, `branch <new> <start>` (also `-f`, `-q`, `refs/remotes/…`, `remotes/…`), `checkout -q -b` — but not
 * from `origin/feature~0`, with `--no-track`, or with `branch.autoSetupMerge=false`; `-t`/`--track` and
 * `autoSetupMerge=always` track a local branch (remote `.`); `checkout --track origin/feature` makes `feature`.
 * The expected bytes are real git 2.39.5's on the same script (a clone of a repository with `main` and `feature`).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

const SCRIPT = [
  "git switch -c s1 origin/feature",
  "git branch b1 origin/feature",
  "git branch -q b2 origin/feature",
  "git checkout -q -b b3 origin/feature; echo q=$?",
  "git branch b4 refs/remotes/origin/feature",
  "git branch b5 remotes/origin/feature",
  "git branch b6 origin/feature~0",
  "git branch --no-track b7 origin/feature",
  "git checkout -b b8 --no-track origin/feature",
  "git branch -t b9 main",
  "git branch b10 main",
  "git branch -f b1 origin/main",
  "git config branch.autoSetupMerge false",
  "git branch b11 origin/feature",
  "git branch --track b12 origin/feature",
  "git config branch.autoSetupMerge always",
  "git branch b13 main",
  "git config --unset branch.autoSetupMerge",
  "git checkout -q main",
  "git checkout --track origin/feature; echo rc=$?",
  "git checkout --track main; echo rc=$?",
  'for b in s1 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 feature; do echo "$b $(git config branch.$b.remote) $(git config branch.$b.merge)"; done',
  "git status -sb | head -1",
].join("\n");

it("branches made from remote-tracking branches track them, by every route and option, as git 2.39.5", async () => {
  const { url } = await forkRepo();
  const r = await inShellWorkspace((ws) => sh(ws, `git clone ${url} c 2>/dev/null && cd c\n${SCRIPT}`), withGit);
  expect(r.stdout).toBe(
    [
      "branch 's1' set up to track 'origin/feature'.",
      "branch 'b1' set up to track 'origin/feature'.",
      "q=0",
      "branch 'b4' set up to track 'origin/feature'.",
      "branch 'b5' set up to track 'origin/feature'.",
      "branch 'b9' set up to track 'main'.",
      "branch 'b1' set up to track 'origin/main'.",
      "branch 'b12' set up to track 'origin/feature'.",
      "branch 'b13' set up to track 'main'.",
      "branch 'feature' set up to track 'origin/feature'.",
      "rc=0",
      "rc=128",
      "s1 origin refs/heads/feature",
      "b1 origin refs/heads/main",
      "b2 origin refs/heads/feature",
      "b3 origin refs/heads/feature",
      "b4 origin refs/heads/feature",
      "b5 origin refs/heads/feature",
      "b6  ",
      "b7  ",
      "b8  ",
      "b9 . refs/heads/main",
      "b10  ",
      "b11  ",
      "b12 origin refs/heads/feature",
      "b13 . refs/heads/main",
      "feature origin refs/heads/feature",
      "## feature...origin/feature",
      "",
    ].join("\n"),
  );
  // Real git: `fatal: missing branch name; try -b` (this CLI prefixes `git checkout: ` for git's `fatal: `).
  expect(r.stderr).toBe(
    "Switched to a new branch 's1'\nSwitched to a new branch 'b8'\nSwitched to a new branch 'feature'\ngit checkout: missing branch name; try -b\n",
  );
});
