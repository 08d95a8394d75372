/**
 * Issue 20, thirty-fourth attack run: on a branch whose upstream branch was deleted on the remote — the usual state
 * after a pull request is merged and its branch removed — every plain `git fetch` (also `git fetch --prune`, the
 * command meant to clean this up) fails `git fetch: Could not find refs/heads/<upstream>.`, exit 1, and updates
 * nothing: `origin/main` stays at its old commit and the gone `origin/<upstream>` is never pruned. git 2.39.5 fetches
 * the remote's refspec (`+refs/heads/*:refs/remotes/origin/*`) whatever the current branch, exits 0, moves
 * `origin/main` and, with `--prune`, deletes `origin/<upstream>` (` - [deleted] (none) -> origin/tmp`).
 * The fetch resolves the current branch's upstream (`branch.t.merge`) against the remote's refs (isomorphic-git's
 * fetch without `ref` asks for the current branch's upstream) and throws when it is missing.
 * Tried: a differential run against git 2.39.5 (a bare repository here; the loopback smart-HTTP server in the test):
 * clone, push `main:tmp`, `git checkout -b t origin/tmp` (tracks it), another clone deletes `tmp` on the remote and
 * pushes a commit to main, then `git fetch`, `git rev-parse origin/main`, `git fetch --prune`, `git branch -r`.
 * Held: on a new local branch without an upstream (`checkout -b nf`), `git fetch`, `git fetch origin` and
 * `git fetch --prune` update origin/main and exit 0; `--prune` removes deleted branches of the named remote only (a
 * second remote's refs stay); `git status` says "the upstream is gone" and `branch -vv` shows `[gone]`.
 * Found (medium — an agent on such a branch cannot see the remote's new commits at all (`origin/main` stale, exit 1
 * from every fetch) and `fetch --prune` cannot clear the gone branch; it acts on a stale `origin/main` or gives up;
 * 2 of 2 runs): `rc=1`, origin/main the pre-push commit, `origin/tmp` still listed after `--prune`.
 * Suggested fix: src/git/ops/network.ts `runFetch` (reached from `fetch` without `remoteRef`): when no `ref` /
 * `remoteRef` is given, fetch the remote's refspec (all branches; isomorphic-git `fetch` with `singleBranch: false`
 * and an explicit `ref` of the remote's HEAD, or not depending on the current branch's upstream), so a missing
 * upstream is no error, as git's fetch; the CLI's `git fetch` (src/git/cli/commands.ts) then exits 0.
 *
 * Fixed: src/git/ops/network.ts runFetch — a plain fetch (no ref/remoteRef) whose defaulted upstream the remote no
 * longer has is fetched again against the remote's HEAD (every branch, pruned with --prune; fetchHead null), as git's
 * fetch of the remote's refspec (issue 20, run 34, fixer GN). Siblings: test/workers/fix34/git-remote-config.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("git fetch on a branch whose upstream was deleted on the remote fetches the rest and prunes it, as git 2.39.5", async () => {
  const { url, name } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${url} c && git clone -q ${url} o`,
          "cd c && git push -q origin main:tmp && git checkout -q -b t origin/tmp",
          "cd ../o && git push -q origin --delete tmp && echo r > r && git add r && git commit -qm r && git push -q && cd ../c",
          "git fetch 2>/dev/null; echo rc=$?",
          "git rev-parse origin/main",
          "git fetch --prune 2>/dev/null; echo rc=$?",
          "git branch -r | grep -c tmp",
        ].join("\n"),
      ),
    withGit,
  );
  const main = (await serverGit(name, ["rev-parse", "main"])).stdout;
  // Was: rc=1 / origin/main still the clone's commit (4933655…) / rc=1 / 1 (origin/tmp kept)
  expect(r.stdout).toBe(`rc=0\n${main}rc=0\n0\n`);
});
