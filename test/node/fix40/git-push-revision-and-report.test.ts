/**
 * Issue 20, run 40, fixer f40g2: cases beside attack40e's push tests — a revision source (`main^`, a short oid) pushed
 * to refs/remotes/… and refs/heads/…, a revision naming nothing, one with no <dst>, `-u` with a revision, a deletion
 * outside refs/heads and refs/tags, and a fast-forward of a ref made from a revision.
 * Expected outputs checked against git 2.39.5 on a bare repository in /tmp (`git push ../pz.git main^:refs/remotes/o/m`
 * → ` * [new reference]   main^ -> o/m`; `<oid7>:refs/heads/sh` → ` * [new branch]      <oid7> -> sh`;
 * `HEAD~5:refs/heads/q` → `error: src refspec HEAD~5 does not match any` + `error: failed to push some refs to …`, 1;
 * `HEAD~1` → `fatal: invalid refspec 'HEAD~1'`, 128; `-u HEAD~1:refs/heads/u` sets no `branch.*`;
 * `:refs/remotes/o/m` → ` - [deleted]         o/m`; `HEAD:refs/heads/u` → `   <a>..<b>  HEAD -> u`).
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const ENV = { GIT_AUTHOR_DATE: "@1704164645 +0000", GIT_COMMITTER_DATE: "@1704164645 +0000" };

it("git push of revisions and the report lines for other refs, as git 2.39.5", { timeout: 30_000 }, async () => {
  const { url, name } = await forkRepo();
  const { ws, git } = newWorkspace();
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/work/repo", env: ENV });
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work", env: ENV })).exitCode).toBe(0);
  await ws.fs.writeFile("/work/repo/z.txt", "1\n");
  await run("add", "z.txt");
  await run("commit", "-qm", "z1");
  const head = (await run("rev-parse", "HEAD")).stdout.trim();
  const parent = (await run("rev-parse", "HEAD~1")).stdout.trim();
  const to = (line: string) => ({ stdout: "", stderr: `To ${url}\n${line}\n`, exitCode: 0 });

  expect(await run("push", "origin", "main^:refs/remotes/o/m")).toEqual(to(` * [new reference]   main^ -> o/m`));
  expect(await run("push", "origin", `${parent.slice(0, 7)}:refs/heads/sh`)).toEqual(to(` * [new branch]      ${parent.slice(0, 7)} -> sh`));
  expect(await run("push", "origin", "HEAD~9:refs/heads/q")).toEqual({
    stdout: "",
    stderr: `error: src refspec HEAD~9 does not match any\nerror: failed to push some refs to '${url}'\n`,
    exitCode: 1,
  });
  expect(await run("push", "origin", "HEAD~1")).toEqual({ stdout: "", stderr: "fatal: invalid refspec 'HEAD~1'\n", exitCode: 128 });
  expect(await run("push", "-u", "origin", "HEAD~1:refs/heads/u")).toEqual(to(` * [new branch]      HEAD~1 -> u`));
  expect((await run("config", "--get", "branch.HEAD~1.remote")).stdout).toBe("");
  expect(await run("push", "origin", "HEAD:refs/heads/u")).toEqual(to(`   ${parent.slice(0, 7)}..${head.slice(0, 7)}  HEAD -> u`));
  expect(await run("push", "origin", ":refs/remotes/o/m")).toEqual(to(` - [deleted]         o/m`));
  const remote = await serverGit(name, ["rev-parse", "refs/heads/sh", "refs/heads/u"]);
  expect(remote.stdout).toBe(`${parent}\n${head}\n`);
  expect((await serverGit(name, ["show-ref", "refs/remotes/o/m"])).stdout).toBe("");
});
