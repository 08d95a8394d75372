/**
 * Fixed in run 40 by fixer f40g2: push resolves a revision source (`HEAD~1`, `main^`, a short oid) with src/git/ops/rev.ts and pushes its commit (a full oid already worked).
 * Issue 20, run 40, attacker e: `git push origin HEAD~1:refs/heads/x` (any revision expression — `HEAD~1`, `HEAD^`,
 * `main~1` — or a full commit oid as the source of a refspec) fails with `git push: Could not find HEAD~1.`, exit 1,
 * and nothing is pushed — although `HEAD~1` exists (`git rev-parse HEAD~1` answers). The message misleads: it says
 * the commit is missing. An agent that wants to publish all but its last commit (or a given commit) cannot.
 * Reproduction (CLI, loopback server): `git clone <url> repo; cd repo; echo 1 > z; git add z; git commit -m z1;
 * echo 2 > z; git commit -am z2; git push origin HEAD~1:refs/heads/x; git push origin <oid of HEAD~1>:refs/heads/y`.
 * Today: both exit 1 with `git push: Could not find HEAD~1.` / `… Could not find <oid>.`; the server has no `x`, `y`.
 * git 2.39.5 (checked: `git push ../pz.git HEAD~1:refs/heads/x` and `git push ../pz.git <oid>:refs/heads/y` on a
 * bare repository in /tmp): exit 0, stderr `To <url>\n * [new branch]      HEAD~1 -> x\n` and
 * `To <url>\n * [new branch]      <full oid> -> y\n`; the remote's `x` and `y` are HEAD~1.
 * Likely cause: src/git/cli/commands.ts (push's run → pushOne) hands `where.src` to the client's push as `ref`,
 * which isomorphic-git resolves as a ref name only (GitRefManager.resolve), never as a revision.
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const ENV = { GIT_AUTHOR_DATE: "@1704164645 +0000", GIT_COMMITTER_DATE: "@1704164645 +0000" };

it("git push origin HEAD~1:refs/heads/x and <oid>:refs/heads/y push that commit, as git 2.39.5", { timeout: 20_000 }, async () => {
  const { url, name } = await forkRepo();
  const { ws, git } = newWorkspace();
  const run = (argv: string[]) => git.cli({ argv, cwd: "/work/repo", env: ENV });
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work", env: ENV })).exitCode).toBe(0);
  await ws.fs.writeFile("/work/repo/z.txt", "1\n");
  expect((await run(["add", "z.txt"])).exitCode).toBe(0);
  expect((await run(["commit", "-qm", "z1"])).exitCode).toBe(0);
  await ws.fs.writeFile("/work/repo/z.txt", "2\n");
  expect((await run(["commit", "-qam", "z2"])).exitCode).toBe(0);
  const parent = (await run(["rev-parse", "HEAD~1"])).stdout.trim();
  expect(parent).toMatch(/^[0-9a-f]{40}$/);

  const byRevision = await run(["push", "origin", "HEAD~1:refs/heads/x"]);
  // Today: { stdout: "", stderr: "git push: Could not find HEAD~1.\n", exitCode: 1 }
  expect(byRevision).toEqual({ stdout: "", stderr: `To ${url}\n * [new branch]      HEAD~1 -> x\n`, exitCode: 0 });
  const byOid = await run(["push", "origin", `${parent}:refs/heads/y`]);
  expect(byOid).toEqual({ stdout: "", stderr: `To ${url}\n * [new branch]      ${parent} -> y\n`, exitCode: 0 });
  const remote = await serverGit(name, ["rev-parse", "refs/heads/x", "refs/heads/y"]);
  expect(remote.stdout).toBe(`${parent}\n${parent}\n`);
});
