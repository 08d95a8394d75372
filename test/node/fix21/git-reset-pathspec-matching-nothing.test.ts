/**
 * Issue 20 (a lead left by the twentieth attack run): `git reset [<commit>] -- <spec>` where the spec matches
 * nothing. Real git (2.39) exits 0 and changes nothing — for a plain name (`nope`) and for a directory form naming a
 * file (`a.txt/`, `a.txt/.`) alike; ours refused the directory form with 128 ("pathspec 'a.txt/' did not match any
 * files", the error checkout and rm give). A directory form must still never reach the client as the file `a.txt`
 * (that would unstage it). Side by side with real git: exit code, output, and `status` after, with a.txt and
 * sub/b.txt staged. Without \`--\`, as real git: a first argument that is neither a revision nor a path of the working
 * tree is \`ambiguous argument\` (128, was ours: \`reset a.txt/\` exit 0), the arguments after it are not checked.
 */
import { writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const argvs = [
  ["reset", "-q", "--", "a.txt/"],
  ["reset", "-q", "--", "a.txt/."],
  ["reset", "-q", "HEAD", "--", "a.txt/", "nope"],
  ["reset", "-q", "--", "nope"],
  ["reset", "-q", "--", "a.txt/", "sub/"],
  ["reset", "-q", "a.txt/"],
  ["reset", "-q", "nope", "a.txt"],
  ["reset", "-q", "a.txt", "nope"],
  ["reset", "-q", "HEAD", "nope"],
];

it("reset with a pathspec matching nothing (nope, a.txt/, a.txt/.): exit 0, nothing unstaged — as real git", async () => {
  const base = committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "one");
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const argv of argvs) {
    const { ws, git } = await workspaceCopy(base);
    await ws.fs.writeFile("/repo/a.txt", "staged\n");
    await ws.fs.writeFile("/repo/sub/b.txt", "staged\n");
    await git.cli({ argv: ["add", "a.txt", "sub/b.txt"], cwd: "/repo", env: identityEnv() });
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const status = (await git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/repo", env: identityEnv() })).stdout;
    ours.push({ argv, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, status });
    const dir = diskCopy(base);
    writeFileSync(`${dir}/a.txt`, "staged\n");
    writeFileSync(`${dir}/sub/b.txt`, "staged\n");
    realGitResult(dir, "add", "a.txt", "sub/b.txt");
    const g = realGitResult(dir, ...argv);
    // The CLI names the command where git prints `fatal:` (docs/git.md).
    theirs.push({ argv, exitCode: g.status, stdout: g.stdout, stderr: g.stderr.replace(/^fatal: /, "git reset: "), status: realGitResult(dir, "status", "--porcelain=v1").stdout });
  }
  expect(ours).toEqual(theirs);
  // The exact outcome (real git's too): a.txt stays staged; only `sub/` unstages sub/b.txt.
  expect(ours.map((o) => (o as { status: string }).status)).toEqual([
    "M  a.txt\nM  sub/b.txt\n",
    "M  a.txt\nM  sub/b.txt\n",
    "M  a.txt\nM  sub/b.txt\n",
    "M  a.txt\nM  sub/b.txt\n",
    "M  a.txt\n M sub/b.txt\n",
    "M  a.txt\nM  sub/b.txt\n",
    "M  a.txt\nM  sub/b.txt\n",
    " M a.txt\nM  sub/b.txt\n",
    "M  a.txt\nM  sub/b.txt\n",
  ]);
});
