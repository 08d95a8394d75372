/**
 * `git diff` with a pathspec in directory form (`a.txt/`, `sub/`, `sub/.`) as real git: `a.txt/` names no directory,
 * so nothing is shown (the client dropped the slash and showed a.txt's change — left by the helper fixing the
 * twentieth attack run's pathspec defects, whose other commands already refuse or match only directories).
 */
import { writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "./worktree-helpers.js";

afterAll(cleanupScratch);

it("git diff -- a.txt/ shows nothing; -- sub/ and sub/. show sub's change; with --stat, --name-only, --numstat, --cached", async () => {
  const base = committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "one");
  const argvs = [
    ["diff", "--", "a.txt/"],
    ["diff", "--", "sub/"],
    ["diff", "--", "sub/."],
    ["diff", "--", "a.txt/", "sub/"],
    ["diff", "--stat", "--", "a.txt/"],
    ["diff", "--name-only", "--", "a.txt/", "sub/"],
    ["diff", "--numstat", "--", "sub/"],
    ["diff", "--cached", "--", "a.txt/"],
    ["diff", "HEAD", "--", "a.txt/"],
  ];
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const argv of argvs) {
    const { ws, git } = await workspaceCopy(base);
    await ws.fs.writeFile("/repo/a.txt", "edited\n");
    await ws.fs.writeFile("/repo/sub/b.txt", "edited\n");
    await git.add({ dir: "/repo", paths: ["a.txt"] });
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    ours.push({ argv, exitCode: r.exitCode, stdout: r.stdout });
    const dir = diskCopy(base);
    writeFileSync(`${dir}/a.txt`, "edited\n");
    writeFileSync(`${dir}/sub/b.txt`, "edited\n");
    realGitResult(dir, "add", "a.txt");
    const g = realGitResult(dir, ...argv);
    theirs.push({ argv, exitCode: g.status, stdout: g.stdout });
  }
  expect(ours).toEqual(theirs);
});
