/**
 * Fixed in run 40 by fixer f40g2: push's report names the remote ref's kind ([new tag]/[new branch]/[new reference]) and prettifies names, as git's print_ok_ref_status.
 * Issue 20, run 40, attacker e: `git push origin HEAD:refs/tags/t1` (a branch or HEAD pushed to a TAG ref) creates
 * the tag on the remote but reports it as ` * [new branch]      HEAD -> refs/tags/t1`; `git push origin
 * main:refs/notes/n` reports ` * [new branch]      main -> refs/notes/n`. git names the kind of the DESTINATION ref
 * (transport.c print_ok_ref_status: `refs/tags/` → `[new tag]`, `refs/heads/` → `[new branch]`, else
 * `[new reference]`) and prints it prettified (`t1`, not `refs/tags/t1`). docs/git.md's push row promises git's
 * ` * [new tag]` lines. An agent reading the report is told it made a branch when it made a tag.
 * Reproduction (CLI, loopback server): `git clone <url> repo; cd repo; git push origin HEAD:refs/tags/t1;
 * git push origin main:refs/notes/n; git push origin :refs/tags/v0.1`.
 * Today: stderr `To <url>\n * [new branch]      HEAD -> refs/tags/t1\n` and `… * [new branch]      main -> refs/notes/n`; the
 * deletion ` - [deleted]         refs/tags/v0.1`.
 * git 2.39.5 (checked on a bare repository in /tmp: `git push ../pz.git main:refs/tags/t2`,
 * `git push ../pz.git main:refs/notes/n`): `To <url>\n * [new tag]         HEAD -> t1\n` and
 * `To <url>\n * [new reference]   main -> refs/notes/n\n`; `git push ../pz.git :refs/tags/t1`:
 * ` - [deleted]         t1`.
 * Likely cause: src/git/cli/commands.ts, push's run: `tagSrc` looks at the source (`where.src`) only, and pushOne
 * prints `[new branch]` for everything else; `short(remoteRef)` keeps `refs/tags/`.
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo, serverGit } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git push origin HEAD:refs/tags/t1 reports [new tag] t1, main:refs/notes/n [new reference], and :refs/tags/v0.1 [deleted] v0.1, as git 2.39.5", { timeout: 20_000 }, async () => {
  const { url, name } = await forkRepo();
  const { git } = newWorkspace();
  const run = (argv: string[]) => git.cli({ argv, cwd: "/work/repo" });
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work" })).exitCode).toBe(0);
  const head = (await run(["rev-parse", "HEAD"])).stdout.trim();

  const tag = await run(["push", "origin", "HEAD:refs/tags/t1"]);
  // Today: " * [new branch]      HEAD -> refs/tags/t1"
  expect(tag).toEqual({ stdout: "", stderr: `To ${url}\n * [new tag]         HEAD -> t1\n`, exitCode: 0 });
  const other = await run(["push", "origin", "main:refs/notes/n"]);
  // Today: " * [new branch]      main -> refs/notes/n"
  expect(other).toEqual({ stdout: "", stderr: `To ${url}\n * [new reference]   main -> refs/notes/n\n`, exitCode: 0 });
  expect((await serverGit(name, ["rev-parse", "refs/tags/t1", "refs/notes/n"])).stdout).toBe(`${head}\n${head}\n`);
  const deleted = await run(["push", "origin", ":refs/tags/v0.1"]);
  // Today: " - [deleted]         refs/tags/v0.1"
  expect(deleted).toEqual({ stdout: "", stderr: `To ${url}\n - [deleted]         v0.1\n`, exitCode: 0 });
});
