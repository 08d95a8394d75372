/**
 * The git CLI's network commands (spec 04 §2.5) against the loopback
 * smart-HTTP server (test/shared/git-server.ts): `clone` (full, shallow,
 * `-b`), `status` after a clone (tracking lines compared with the real
 * git's clone), `fetch`, `pull` (fast-forward), `push` (verified on the
 * server with the real git) and a rejected push (exit 1) (issue 15).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { GitClient, GitCliResult } from "../../../src/git/types.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, IDENTITY, newWorkspace, realGit, TIME, tempDir } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const ENV = {
  GIT_AUTHOR_NAME: IDENTITY.name,
  GIT_AUTHOR_EMAIL: IDENTITY.email,
  GIT_AUTHOR_DATE: `@${TIME} +0000`,
  GIT_COMMITTER_DATE: `@${TIME} +0000`,
};

function run(git: GitClient, argv: string[], cwd = "/work/repo"): Promise<GitCliResult> {
  return git.cli({ argv, cwd, env: ENV });
}

async function ok(git: GitClient, argv: string[], cwd = "/work/repo"): Promise<GitCliResult> {
  const result = await run(git, argv, cwd);
  expect({ argv, exitCode: result.exitCode, stderr: result.exitCode === 0 ? "" : result.stderr }).toEqual({ argv, exitCode: 0, stderr: "" });
  return result;
}

/** The real git's clone of `url` (same arguments), for comparing outputs. */
function realClone(url: string, ...args: string[]): string {
  const dir = tempDir("wsgit-cli-clone-");
  realGit(dir, "clone", "-q", ...args, url, "repo");
  return join(dir, "repo");
}

describe("git clone / fetch / pull / push through the CLI", () => {
  it("clone prints Cloning into, then status, log, branch and ls-files match a real clone", async () => {
    const { url } = await forkRepo();
    const { git } = newWorkspace();
    const cloned = await run(git, ["clone", url, "repo"], "/work");
    expect(cloned).toEqual({ stdout: "", stderr: "Cloning into 'repo'...\n", exitCode: 0 });
    const real = realClone(url);
    for (const argv of [["status"], ["status", "-s", "-b"], ["log", "--oneline"], ["ls-files"], ["branch"], ["rev-parse", "HEAD", "origin/main"]]) {
      expect({ argv, out: (await ok(git, argv)).stdout }).toEqual({ argv, out: realGit(real, ...argv) });
    }
    expect((await ok(git, ["status"])).stdout).toContain("Your branch is up to date with 'origin/main'.\n");
    // real git also lists "origin/HEAD -> origin/main": GitClient.branchList leaves the symbolic HEAD out
    expect((await ok(git, ["branch", "-r"])).stdout).toBe(realGit(real, "branch", "-r").replace(/^ {2}origin\/HEAD -> .*\n/m, ""));
    expect((await ok(git, ["branch", "-a"])).stdout).toBe(realGit(real, "branch", "-a").replace(/^ {2}remotes\/origin\/HEAD -> .*\n/m, ""));
    // the directory name comes from the URL
    const named = await run(git, ["clone", "--depth", "1", "-b", "feature", url], "/other");
    const name = url.split("/").pop()!.replace(/\.git$/, "");
    expect(named).toEqual({ stdout: "", stderr: `Cloning into '${name}'...\n`, exitCode: 0 });
    expect((await ok(git, ["log", "--format=%H"], `/other/${name}`)).stdout).toBe(realGit(real, "rev-parse", "origin/feature"));
    expect((await ok(git, ["branch", "--show-current"], `/other/${name}`)).stdout).toBe("feature\n");
    // cloning into a repository that exists fails
    const again = await run(git, ["clone", url, "repo"], "/work");
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).toMatch(/^Cloning into 'repo'\.\.\.\ngit clone: /);
  });

  it("commit + push reaches the server; a rejected push exits 1; fetch and pull fast-forward", async () => {
    const { name, url } = await forkRepo();
    const { ws, git } = newWorkspace();
    await ok(git, ["clone", "-q", url, "/work/repo"], "/");
    await ws.fs.writeFile("/work/repo/PUSHED.md", "from the workspace\n");
    await ok(git, ["add", "PUSHED.md"]);
    const commit = await ok(git, ["commit", "-m", "workspace commit"]);
    const oid = (await ok(git, ["rev-parse", "HEAD"])).stdout.trim();
    expect(commit.stdout).toBe(`[${oid.slice(0, 7)}] workspace commit\n`);
    expect((await ok(git, ["status", "-s", "-b"])).stdout).toBe("## main...origin/main [ahead 1]\n");
    expect((await ok(git, ["branch", "-v"])).stdout).toBe(`* main ${oid.slice(0, 7)} [ahead 1] workspace commit\n`);
    expect((await ok(git, ["status"])).stdout).toBe(
      'On branch main\nYour branch is ahead of \'origin/main\' by 1 commit.\n  (use "git push" to publish your local commits)\n\nnothing to commit, working tree clean\n',
    );
    const before = (await serverGit(name, ["rev-parse", "main"])).stdout.trim();
    const pushed = await run(git, ["push", "origin", "main"]);
    expect([pushed.exitCode, pushed.stdout, pushed.stderr]).toEqual([0, "", `To ${url}\n   ${before.slice(0, 7)}..${oid.slice(0, 7)}  main -> main\n`]);
    expect((await serverGit(name, ["rev-parse", "main"])).stdout.trim()).toBe(oid);
    expect((await serverGit(name, ["fsck", "--strict"])).code).toBe(0);
    expect((await serverGit(name, ["show", "main:PUSHED.md"])).stdout).toBe("from the workspace\n");
    expect((await ok(git, ["status", "-s", "-b"])).stdout).toBe("## main...origin/main\n");

    // someone else pushes; our next push is rejected (exit 1), fetch shows "behind", pull fast-forwards
    const other = realClone(url);
    writeFileSync(join(other, "OTHER.md"), "other\n");
    realGit(other, "add", "OTHER.md");
    realGit(other, "commit", "-q", "-m", "other commit");
    realGit(other, "push", "-q", "origin", "main");
    const upstream = realGit(other, "rev-parse", "HEAD").trim();
    await ws.fs.writeFile("/work/repo/LOCAL.md", "local\n");
    await ok(git, ["commit", "-q", "-m", "local", "--allow-empty"]);
    const rejected = await run(git, ["push"]);
    expect(rejected.exitCode).toBe(1);
    expect(rejected.stderr).toBe(
      `To ${url}\n ! [rejected]        main -> main (non-fast-forward (fetch and merge first, or push with force))\nerror: failed to push some refs to '${url}'\n`,
    );
    expect((await serverGit(name, ["rev-parse", "main"])).stdout.trim()).toBe(upstream);
    await ok(git, ["reset", "--hard", "origin/main"]);
    await ok(git, ["fetch"]);
    expect((await ok(git, ["status", "-s", "-b"])).stdout).toBe("## main...origin/main [behind 1]\n?? LOCAL.md\n".replace("?? ", " ? "));
    const pulled = await ok(git, ["pull", "--ff-only"]);
    expect(pulled.stdout).toBe(`Fast-forward to ${upstream.slice(0, 7)}\n`);
    expect((await ok(git, ["pull"])).stdout).toBe("Already up to date.\n");
    expect((await ok(git, ["log", "--format=%H", "-1"])).stdout).toBe(`${upstream}\n`);
    // push to a URL positional and a src:dst refspec creates a branch on the server
    const toUrl = await run(git, ["push", url, "main:from-cli"]);
    expect(toUrl.exitCode).toBe(0);
    expect((await serverGit(name, ["rev-parse", "from-cli"])).stdout.trim()).toBe(upstream);
    const deleted = await run(git, ["push", "-d", "origin", "from-cli"]);
    expect(deleted.exitCode).toBe(0);
    expect((await serverGit(name, ["rev-parse", "--verify", "-q", "refs/heads/from-cli"])).code).not.toBe(0);
  });
});
