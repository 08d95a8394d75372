/**
 * Issue 20, thirty-seventh attack run: deleting a ref whose name has a slash (`feat/x` — a remote branch deleted with
 * `git push origin :feat/x`, a remote-tracking ref pruned by `fetch --prune`, a local `git branch -d t/x`) removes the
 * loose ref file but leaves its now-empty parent directory (`.git/refs/remotes/origin/feat/`, `.git/refs/heads/t/`),
 * and every later write of a ref with the directory's name (`feat`, `t`) fails `EISDIR: is a directory, writeFile:
 * …/.git/refs/remotes/origin/feat`. git's files backend removes the empty directories a deleted ref leaves and, when
 * creating a ref, an empty directory in its way. So after the common "branch `feat/x` merged and deleted, `feat` made"
 * on the remote: the push of `feat` reaches the server but exits 1 (the agent believes it failed and the tracking ref
 * `origin/feat` is never recorded), and in a clone that had fetched `feat/x`, `git fetch --prune` — git's own advice
 * for this state — and every plain `git fetch` afterwards fail, exit 1, nothing updated: the repository is stuck until
 * the agent finds and removes a directory inside `.git`.
 * Tried: the script below with bash 5.2.15 and git 2.39.5 against a bare repository here (file://; the loopback
 * smart-HTTP server in the test): two clones, one pushes `main:feat/x`, the other fetches it, the first deletes
 * `feat/x` and pushes `main:feat`, then `fetch --prune`, `fetch`, and a local `branch t/x`, `branch -d t/x`,
 * `branch t`. Also: plain `git fetch` with `origin/feat/x` still present (git 2.39.5 fails too, `cannot lock ref`, and
 * says to prune — not compared).
 * Held: pulls over dirty/staged/untracked files (modified, deleted, added, a directory replaced by a file, a file by a
 * directory) refuse and keep the local bytes; a conflicting pull keeps the local commit and dirty files; rejected
 * pushes leave `origin/main`; forced fetches; moved remote tags are not clobbered; `push -u`/`--delete` tracking.
 * Found (medium — after a routine branch delete/re-create every fetch fails and a successful push reports failure; the
 * agent is stuck or acts on a stale `origin/*`; 2 of 2 runs): `push=1`, no `origin/feat`; `prune=1` with
 * `origin/feat/x` kept; `fetch=1`; `branch=128`, all `EISDIR: is a directory, writeFile: …/refs/…/feat` (or `/t`).
 * The server's `refs/heads/feat` does exist after the "failed" push.
 * Suggested fix: src/git/ops/refs.ts (branch -d, the deleteRef calls at lines 81/138) and src/git/ops/network.ts
 * (push's delete of the tracking ref, the prune at line 833, and wherever fetch/push write `refs/remotes/*`): after
 * deleting a loose ref, remove its empty parent directories up to `refs/` (as `pruneEmptyParents` does for the
 * worktree); before writing a ref, remove an empty directory at its path (git's refs/files-backend.c
 * lock_raw_ref → remove_empty_directories), so repositories already in this state recover.
 * Fixed: src/git/ref-files.ts (refFilesContext, put in front of every operation's fs by src/git/client.ts): deleting a
 * loose ref or reflog removes the parent directories it leaves empty down to refs/<kind>, and writing a ref over a
 * directory that holds only empty directories removes it first (a directory holding a ref stays and fails with git's
 * `cannot lock ref …` message) — git's files backend (issue 20, run 37, fixer GE). Siblings:
 * test/workers/fix37/git-ref-dirs.test.ts.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("a deleted ref `feat/x` leaves no directory that blocks `feat`: push, fetch --prune, fetch and branch succeed as git 2.39.5", async () => {
  const { url, name } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `git clone -q ${url} c && git clone -q ${url} o`,
          "cd o && git push -q origin main:feat/x && cd ../c && git fetch -q && cd ../o && git push -q origin :feat/x",
          "git push -q origin main:feat; echo push=$?; git branch -r | grep feat",
          "cd ../c && git fetch -q --prune; echo prune=$?; git branch -r | grep feat; git fetch -q; echo fetch=$?",
          "git branch t/x && git branch -d t/x >/dev/null && git branch t; echo branch=$?; git branch | grep t",
        ].join("\n"),
      ),
    withGit,
  );
  // The push did reach the server, whatever its exit code says.
  expect((await serverGit(name, ["rev-parse", "--verify", "-q", "refs/heads/feat"])).code).toBe(0);
  // Was: push=1 / (no origin/feat) /   origin/feature / prune=1 /   origin/feat/x /   origin/feature / fetch=1 /
  // branch=128 / (no t) — stderr: EISDIR: is a directory, writeFile: /workspace/o/.git/refs/remotes/origin/feat (×1),
  // …/workspace/c/.git/refs/remotes/origin/feat (×2), …/workspace/c/.git/refs/heads/t
  expect(r.stdout).toBe(
    "push=0\n  origin/feat\n  origin/feature\nprune=0\n  origin/feat\n  origin/feature\nfetch=0\nbranch=0\n  t\n",
  );
  expect(r.stderr).not.toContain("EISDIR");
});
