/**
 * Issue 20, thirty-second attack run: `git push -u origin HEAD` (and `git push origin HEAD`) — the usual way an agent
 * publishes the branch it just made — fails with `! [remote rejected] HEAD -> HEAD (funny refname)`, exit 1, and sets
 * no upstream: the shell's git sends the literal name `HEAD` as the destination ref where git 2.39.5 resolves `HEAD`
 * to the current branch (`* [new branch]      HEAD -> t1`, `branch 't1' set up to track 'origin/t1'.`).
 * Tried: a differential run against git 2.39.5 over the loopback smart-HTTP server: clone, `checkout -b t1`, a
 * commit, `git push -u origin HEAD`, `git status -sb`, `git push origin HEAD:t3`, `HEAD:refs/heads/t2`,
 * `--set-upstream origin t1`, `+t1:feature`, `-f origin t1:main`.
 * Held: `HEAD:<name>` and `HEAD:refs/heads/<name>`, `-u origin <branch>`, `--set-upstream`, `+src:dst` and `-f`
 * reach the same remote refs as git (forced updates are printed as ` a..b` instead of ` + a...b (forced update)`).
 * Found (medium — a very common agent form fails and the branch is not published; the server's "funny refname"
 * does not say what to do; 2 of 2 runs).
 * Suggested fix: src/git/cli/commands.ts push: resolve a `src` of `HEAD` (no `:dst`) to the current branch's full
 * name before choosing `remoteRef` and the `-u` upstream, as git's refspec matching does (detached HEAD: git's
 * "You are not currently on a branch" error, 128).
 *
 * Fixed: src/git/cli/commands.ts push: a lone `HEAD` refspec goes to `refs/heads/<current branch>` (`-u` tracks the
 * current branch); a detached HEAD gets git's "not a full refname" error, exit 1. The push now learns the remote's
 * old oid from its advertisement (PUSH_REMOTE_OLD in src/git/ops/network.ts), so each line is git's (`* [new
 * branch]`, `* [new tag]`, `old..new`, nothing for an up-to-date ref, `Everything up-to-date` with no `To` line when
 * nothing was sent), and `--tags` pushes every tag (issue 20, run 32, fixer GC). Siblings:
 * test/workers/fix32/git-push-head-tags.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("git push -u origin HEAD pushes the current branch and tracks it, as git 2.39.5", async () => {
  const { url, name } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone ${url} c 2>/dev/null && cd c`,
          "git checkout -b t1 2>/dev/null && echo a > a.txt && git add a.txt && git commit -m a >/dev/null",
          "git push -u origin HEAD; echo rc=$?",
          "git status -sb",
          "git rev-parse HEAD",
        ].join("\n"),
      ),
    withGit,
  );
  const head = r.stdout.trim().split("\n").at(-1)!;
  // Was: rc=1, `## t1`, stderr ` ! [remote rejected] HEAD -> HEAD (funny refname)`
  expect(r.stdout).toBe(`branch 't1' set up to track 'origin/t1'.\nrc=0\n## t1...origin/t1\n${head}\n`);
  expect(r.stderr).toBe(`To ${url}\n * [new branch]      HEAD -> t1\n`);
  expect((await serverGit(name, ["rev-parse", "refs/heads/t1"])).stdout.trim()).toBe(head); // Was: no such ref
});
