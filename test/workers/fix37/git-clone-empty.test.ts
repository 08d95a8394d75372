/**
 * Siblings of test/workers/attack37e/git-clone-empty-repository-fails.test.ts (issue 20, run 37, fixer GE): a clone of
 * an empty repository (src/git/ops/network.ts clonedEmpty) — the CLI's stderr, HEAD, the remote and branch config, no
 * refs, `status`, `clone -b <missing>` refused (128, nothing left), the first commit pushed with `push -u` (not quiet:
 * `branch 'main' set up to track 'origin/main'.`), and the typed API's clone. Expected outputs are git 2.39.5's
 * (bash 5.2.15) for the same script against `git init --bare -b main` (file://; git takes the unborn `main` from the
 * remote's HEAD over protocol v2 — this library, on protocol v1, from its `init` default, also `main`); here the
 * remote is the loopback fixture with every ref deleted (HEAD → refs/heads/main). git prints only `fatal: Remote
 * branch nope not found in upstream origin` for `-b nope`; the message is checked, not its prefix.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

async function emptyRepo(): Promise<{ url: string; name: string }> {
  const repo = await forkRepo();
  for (const ref of ["refs/heads/main", "refs/heads/feature", "refs/tags/v0.1", "refs/tags/v1.0"]) {
    expect((await serverGit(repo.name, ["update-ref", "-d", ref])).code).toBe(0);
  }
  return repo;
}

it("the CLI clones an empty repository as git 2.39.5: warning, unborn main tracking origin/main, first push creates it", async () => {
  const { url, name } = await emptyRepo();
  const r = await inShellWorkspace(
    (ws) =>
      sh(
        ws,
        [
          `URL=${url}`,
          "git clone $URL c; echo rc=$?",
          "git clone -b nope $URL d; echo nope=$?; test -e d; echo d=$?",
          "cd c && cat .git/HEAD; git config --get remote.origin.fetch; git config --get branch.main.remote; git config --get branch.main.merge",
          "ls .git/refs/heads | wc -l; git branch -r | wc -l; git status; git status -s | wc -l",
          "echo x > x && git add x && git commit -qm x && git push -u origin main 2>/dev/null; echo push=$?",
          "git status | head -2; git branch -r",
        ].join("\n"),
      ),
    withGit,
  );
  expect(r.stdout).toBe("rc=0\nnope=128\nd=1\nref: refs/heads/main\n+refs/heads/*:refs/remotes/origin/*\norigin\nrefs/heads/main\n0\n0\nOn branch main\n\nNo commits yet\n\nnothing to commit (create/copy files and use \"git add\" to track)\n0\nbranch 'main' set up to track 'origin/main'.\npush=0\nOn branch main\nYour branch is up to date with 'origin/main'.\n  origin/main\n");
  expect(r.stderr).toContain("Cloning into 'c'...\nwarning: You appear to have cloned an empty repository.\n");
  expect(r.stderr).toContain("Remote branch nope not found in upstream origin");
  expect((await serverGit(name, ["log", "--format=%s", "main"])).stdout).toBe("x\n");
});

it("the typed clone of an empty repository leaves an unborn main with origin configured (git 2.39.5's repository)", async () => {
  const { url } = await emptyRepo();
  const got = await inShellWorkspace(async (ws) => {
    const git = ws.git!;
    await git.clone({ url, dir: "/repo" });
    return {
      branch: await git.currentBranch({ dir: "/repo" }),
      head: await git.revParse({ dir: "/repo", ref: "HEAD" }).then(
        () => "resolved",
        (e: { code?: string }) => e.code,
      ),
      remote: await git.configGet({ dir: "/repo", path: "branch.main.remote" }),
      merge: await git.configGet({ dir: "/repo", path: "branch.main.merge" }),
      fetch: await git.configGet({ dir: "/repo", path: "remote.origin.fetch" }),
      branches: await git.branchList({ dir: "/repo" }),
      remotes: await git.branchList({ dir: "/repo", remote: "origin" }),
      status: await git.status({ dir: "/repo" }),
      headFile: await ws.fs.readFile("/repo/.git/HEAD", "utf8"),
    };
  }, withGit);
  // git 2.39.5: HEAD `ref: refs/heads/main`, `git rev-parse HEAD` fails (128), no branch, nothing to commit.
  expect(got).toEqual({
    branch: "main",
    head: "EREVPARSEFAIL",
    remote: "origin",
    merge: "refs/heads/main",
    fetch: "+refs/heads/*:refs/remotes/origin/*",
    branches: [],
    remotes: [],
    status: [],
    headFile: "ref: refs/heads/main\n",
  });
});
