/**
 * Issue 20, thirty-fourth attack run: a work branch made from a remote-tracking branch (`git checkout -b fix
 * origin/main`, which since run 32 tracks `origin/main`, as git's branch.autoSetupMerge) is pushed by a bare
 * `git push` straight onto the remote's `main`, and the transcript says `fix -> fix`. git 2.39.5 (push.default
 * `simple`, its default) refuses: `fatal: The upstream branch of your current branch does not match the name of your
 * current branch. …`, exit 128, nothing sent. An agent that branches off `origin/main` to prepare a change for review
 * publishes its unreviewed commits on the shared `main` (and is told it pushed a branch `fix`).
 * Tried: a differential run against git 2.39.5 (a bare repository here; the loopback smart-HTTP server in the test):
 * clone, `git checkout -b fix origin/main` (also `-b t origin/feature`: `feature` moved, printed `t -> t`), commit,
 * `git push`, then the server's `main`.
 * Held: `git push -u origin nb` of a new branch, a plain `git push` on a branch whose upstream has its name, a
 * rejected non-fast-forward (also `main:feature`), `--delete`/`:b`, `--tags` up to date, a push after a merge of a
 * second remote's branch (all objects sent), a shallow clone's push.
 * Found (high — commits meant for a review branch land on the remote's shared branch (moving `main` for every other
 * clone) where git refuses, and the output names a branch that was never pushed; 2 of 2 runs): exit 0, stderr
 * `   4933655..<oid7>  fix -> fix`, the server's `main` at the agent's commit, no branch `fix` on the server.
 * Suggested fix: src/git/cli/commands.ts `push.run` (no refspec): as git's push.default `simple` — when the current
 * branch's upstream (`branch.<b>.merge`) names another branch than `<b>` on the same remote, refuse with git's
 * message and 128 (or honour an explicit `push.default` from `.git/config`: `upstream` → push there and print
 * `fix -> main`, `current` → `fix -> fix`); and print the ref actually updated.
 *
 * Fixed: git 2.39.5's push.default in src/git/push-default.ts (simple when unset; current, upstream/tracking,
 * nothing; matching refused EUNSUPPORTED), used by the shell's bare `git push [<remote>]` (src/git/cli/commands.ts:
 * git's refusals on stderr, 128, nothing sent; `git push` with no remote goes to branch.<b>.pushRemote /
 * remote.pushDefault / branch.<b>.remote / origin; push.autoSetupRemote) and the typed `push` (src/git/ops/network.ts:
 * the remote ref is never left to isomorphic-git's `branch.<ref>.merge`; a `ref` goes to its own name)
 * (issue 20, run 34, fixer GN). Siblings: test/workers/fix34/git-remote-config.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("git push on a branch tracking origin/main under another name refuses, as git 2.39.5 (push.default simple)", async () => {
  const { url, name } = await forkRepo();
  const before = (await serverGit(name, ["rev-parse", "main"])).stdout;
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${url} c && cd c`,
          "git checkout -q -b fix origin/main && echo fix > fix.txt && git add fix.txt && git commit -qm fix",
          "git push 2>err; echo rc=$?",
          "head -1 err",
        ].join("\n"),
      ),
    withGit,
  );
  const after = (await serverGit(name, ["rev-parse", "main"])).stdout;
  const fix = await serverGit(name, ["rev-parse", "--verify", "-q", "refs/heads/fix"]);
  // Was: rc=0 / `To http://127.0.0.1:<port>/git/<name>.git`; the server's main moved to the agent's commit `fix`
  expect(r.stdout).toBe("rc=128\nfatal: The upstream branch of your current branch does not match\n");
  expect(after).toBe(before); // Was: main at the commit `fix`
  expect(fix.code).not.toBe(0);
});
