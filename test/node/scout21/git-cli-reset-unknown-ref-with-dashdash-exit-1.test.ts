/**
 * Issue 20, twenty-first attack run (scout of fixes): `git reset <unknown ref> --` exits 1; git exits 128.
 * Tried: d27ae85 (reset: a pathspec matching nothing exits 0; without `--` an argument that is neither a revision
 * nor a path is `ambiguous argument`, 128) — the same unknown revision with `--`, side by side with real git (the
 * helpers' disk copy): `reset nope --`, `reset HEAD~5 -- a.txt`, and without `--` `reset HEAD~5`.
 * Held: `reset HEAD~5` (no `--`) is 128 with git's `ambiguous argument` text, as real git; nothing changes.
 * Found (low — exit codes a script or model branches on; deterministic): with `--` the CLI exits 1 with
 * `git reset: unknown revision 'nope'` where real git exits 128 (`fatal: Failed to resolve 'nope' as a valid
 * revision.` / `… 'HEAD~5' as a valid tree.`) — the same typo now gets 128 or 1 depending on whether `--` follows.
 * Suggested fix: in the CLI's reset (src/git/cli/commands.ts), resolve `ref` first when it was taken because of `--`
 * and fail 128 with `Failed to resolve '<ref>' as a valid revision.` (`… as a valid tree.` when paths follow), as git.
 * Fixed: the CLI's reset resolves a ref written before `--` first and fails 128 with git's text (the exact messages
 * are checked side by side with real git in test/node/fix21/git-cli-quiet-and-exit-codes.test.ts).
 */
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("reset with an unknown revision before -- exits 128, as real git", async () => {
  const base = committedRepo({ "a.txt": "a\n" }, "one");
  const disk = diskCopy(base);
  const { git } = await workspaceCopy(base);
  const cases = [["reset", "nope", "--"], ["reset", "HEAD~5", "--", "a.txt"], ["reset", "HEAD~5"]];
  const real = cases.map((argv) => ({ argv: argv.join(" "), code: realGitResult(disk, ...argv).status }));
  expect(real.map((r) => r.code)).toEqual([128, 128, 128]);
  const ours = [];
  for (const argv of cases) ours.push({ argv: argv.join(" "), code: (await git.cli({ argv, cwd: "/repo", env: identityEnv() })).exitCode });
  // Found: [1, 1, 128].
  expect(ours).toEqual(real);
});
