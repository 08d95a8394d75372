/**
 * Siblings of test/workers/attack37e/git-deleted-ref-leaves-directory-blocking-fetch-push-branch.test.ts (issue 20,
 * run 37, fixer GE): loose refs kept as git's files backend keeps them (src/git/ref-files.ts) — a deleted ref leaves
 * no empty parent directory (local `branch -d`, `tag -d`, push's delete of its tracking ref, `fetch --prune`), down to
 * but not including refs/<kind>; an empty directory tree in a new ref's way is removed; a directory holding a ref, or a
 * ref file where the new ref needs a directory, stays and the write fails with git's `cannot lock ref …` message.
 * Expected outputs are git 2.39.5's (bash 5.2.15) for the same scripts, run here: the local one in a fresh
 * `git init` (init.defaultBranch=main), the network one against a bare copy (file://) of a repository with `main` and
 * `feature` (the loopback fixture's branches; `origin/HEAD`, which this library does not write, filtered out).
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

it("branch/tag delete and create: empty directories go, refs in the way refuse with git's message, as git 2.39.5", async () => {
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          "git init -q r && cd r && git commit -q --allow-empty -m i",
          "git branch t/x/y && git branch -d t/x/y >/dev/null; echo d=$?; find .git/refs | sort",
          "git branch t; echo t=$?",
          "git branch q/x; git branch q; echo q=$?",
          "git branch m/a/b; git branch m; echo m=$?",
          "git branch z; git branch z/x; echo z=$?",
          "mkdir -p .git/refs/heads/e/f/g .git/refs/tags/w/v; git branch e; echo e=$?; git tag w; echo w=$?",
          "git tag v9/x/y; git tag -d v9/x/y >/dev/null; git tag v9; echo v9=$?",
          "find .git/refs | sort; git branch; git tag",
        ].join("\n"),
      ),
    withGit,
  );
  expect(r.stdout).toBe("d=0\n.git/refs\n.git/refs/heads\n.git/refs/heads/main\n.git/refs/tags\nt=0\nq=128\nm=128\nz=128\ne=0\nw=0\nv9=0\n.git/refs\n.git/refs/heads\n.git/refs/heads/e\n.git/refs/heads/m\n.git/refs/heads/m/a\n.git/refs/heads/m/a/b\n.git/refs/heads/main\n.git/refs/heads/q\n.git/refs/heads/q/x\n.git/refs/heads/t\n.git/refs/heads/z\n.git/refs/tags\n.git/refs/tags/v9\n.git/refs/tags/w\n  e\n  m/a/b\n* main\n  q/x\n  t\n  z\nv9\nw\n");
  // git: `fatal: <message>`, exit 128 (the exit codes are in stdout above).
  for (const message of [
    "cannot lock ref 'refs/heads/q': 'refs/heads/q/x' exists; cannot create 'refs/heads/q'",
    "cannot lock ref 'refs/heads/m': 'refs/heads/m/a/b' exists; cannot create 'refs/heads/m'",
    "cannot lock ref 'refs/heads/z/x': 'refs/heads/z' exists; cannot create 'refs/heads/z/x'",
  ]) {
    expect(r.stderr).toContain(message);
  }
  expect(r.stderr).not.toMatch(/EISDIR|ENOTDIR/);
});

it("push's delete of a tracking ref and fetch --prune leave no empty directory; new refs of those names land, as git 2.39.5", async () => {
  const { url } = await forkRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `URL=${url}`,
          "git clone -q $URL c && git clone -q $URL o",
          "cd o && git push -q origin main:a/b/c && git push -q origin main:p/q && cd ../c && git fetch -q; find .git/refs/remotes -type d | sort",
          "cd ../o && git push -q origin :a/b/c; echo del=$?; find .git/refs/remotes -type d | sort",
          "git push -q origin :p/q && git push -q origin main:a && git push -q origin main:p; echo push=$?; git branch -r | grep -v HEAD",
          "cd ../c && git fetch -q --prune; echo prune=$?; find .git/refs/remotes -type d | sort; git branch -r | grep -v HEAD",
        ].join("\n"),
      ),
    withGit,
  );
  expect(r.stdout).toBe(".git/refs/remotes\n.git/refs/remotes/origin\n.git/refs/remotes/origin/a\n.git/refs/remotes/origin/a/b\n.git/refs/remotes/origin/p\ndel=0\n.git/refs/remotes\n.git/refs/remotes/origin\n.git/refs/remotes/origin/p\npush=0\n  origin/a\n  origin/feature\n  origin/main\n  origin/p\nprune=0\n.git/refs/remotes\n.git/refs/remotes/origin\n  origin/a\n  origin/feature\n  origin/main\n  origin/p\n");
  expect(r.stderr).toBe("");
});
