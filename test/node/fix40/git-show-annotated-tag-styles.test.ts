/**
 * Issue 20, run 40, fixer f40g1 (sibling of attack40e/git-show-annotated-tag-omits-tag-header): `git show` of an
 * annotated tag in the other styles and with the patch, compared with real git 2.39.5 on a real clone of the same
 * loopback fixture: `--oneline` (no Tagger line, no blank line before the commit), `--format=%H` (a tformat: the
 * Tagger line without Date, no blank line), `--format=format:%H` (a blank line), the full patch (`--date=iso` on the
 * real side: this CLI prints ISO dates), and `rev-parse v1.0~0^{tree}` / `v1.0^{}` peeling as git.
 */
import { afterAll, expect, it } from "vitest";
import { forkRepo } from "../../shared/git-remote.js";
import { cleanupScratch, newWorkspace, realGit, tempDir } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git show <annotated tag> in --oneline, tformat, format and with the patch, as git 2.39.5", { timeout: 20_000 }, async () => {
  const { url } = await forkRepo();
  const { git } = newWorkspace();
  expect((await git.cli({ argv: ["clone", "-q", url, "repo"], cwd: "/work" })).exitCode).toBe(0);
  const disk = tempDir("f40g1-tag-");
  realGit(disk, "clone", "-q", url, "repo");
  const real = `${disk}/repo`;
  const mine = async (...argv: string[]) => (await git.cli({ argv, cwd: "/work/repo" })).stdout;

  expect(await mine("show", "-s", "--oneline", "v1.0")).toBe(realGit(real, "show", "-s", "--oneline", "v1.0"));
  expect(await mine("show", "-s", "--format=%H", "v1.0")).toBe(realGit(real, "show", "-s", "--format=%H", "v1.0"));
  expect(await mine("show", "-s", "--format=format:%H", "v1.0")).toBe(realGit(real, "show", "-s", "--format=format:%H", "v1.0"));
  expect(await mine("show", "v1.0")).toBe(realGit(real, "show", "--date=iso", "v1.0"));
  expect(await mine("rev-parse", "v1.0~0^{tree}", "v1.0^{}")).toBe(realGit(real, "rev-parse", "v1.0~0^{tree}", "v1.0^{}"));
});
