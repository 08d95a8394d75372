/**
 * Issue 20, run 40, attacker e: an annotated tag fetched from a server (docs/git.md: "annotated tags from a server are
 * read fine") is shown as if it were its commit: `git show v1.0` leaves out git's tag block (`tag v1.0`, `Tagger:`,
 * `Date:`, the tag's message), so the release notes an agent asks for never appear; and `git rev-parse v1.0~0`
 * (also `v1.0^0`) answers the TAG object's oid where git peels to the commit (`~0`/`^0` name a commit).
 * Reproduction (loopback server's fixture, whose `v1.0` is annotated "release 1.0"): `git clone <url> repo; cd repo;
 * git show -s v1.0; git rev-parse v1.0~0`.
 * Today: `git show -s v1.0` starts at `commit 57784d4…` (no tag block); `rev-parse v1.0~0` prints bd4361de… (the
 * tag object; `git cat-file -t` of it is `tag`).
 * git 2.39.5 (a real `git clone` of the same URL in /tmp; `git show -s --date=iso v1.0`, as this CLI prints ISO dates
 * by design): `tag v1.0\nTagger: Fixture Committer <committer@fixture.test>\nDate:   2023-11-14 23:25:20 +0100\n\n
 * release 1.0\n\ncommit 57784d4…`; `git rev-parse v1.0~0` = 57784d495a5dba9ca81b79597504e3d673601ef9.
 * Likely cause: src/git/cli/commands.ts `show` (peels the tag to its commit before printing, without the tag block)
 * and src/git/ops/rev.ts (`~0`/`^0` applied without peeling a tag to its commit first).
 * Fixed in run 40 by fixer f40g1: `show` prints each tag's block (cli/format.ts formatTagBlock) before the tagged
 * object; rev.ts peels a tag to its commit for `~0` (`^0` peels through isomorphic-git's readCommit).
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace, realGit, tempDir } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git show v1.0 of an annotated tag prints the tag block first, and v1.0~0 is its commit, as git 2.39.5", { timeout: 20_000 }, async () => {
  const { url } = await forkRepo();
  const { git } = newWorkspace();
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work" })).exitCode).toBe(0);
  const disk = tempDir("a40e-tag-");
  realGit(disk, "clone", "-q", url, "repo");
  const real = `${disk}/repo`;
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/work/repo" });

  const shown = await run("show", "-s", "v1.0");
  const expected = realGit(real, "show", "-s", "--date=iso", "v1.0");
  expect(expected.startsWith("tag v1.0\nTagger: ")).toBe(true);
  // Today: starts at "commit 57784d4…", no "tag v1.0" / "Tagger:" / "release 1.0"
  expect({ exitCode: shown.exitCode, stdout: shown.stdout }).toEqual({ exitCode: 0, stdout: expected });

  const peeled = await run("rev-parse", "v1.0~0", "v1.0^0");
  const commit = realGit(real, "rev-parse", "v1.0^{commit}").trim();
  // Today: the tag object's oid (bd4361de…) twice
  expect(peeled.stdout).toBe(`${commit}\n${commit}\n`);
});
