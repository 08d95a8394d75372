/**
 * Issue 20, twenty-first attack run (leads of the fixers and the scout of fixes): the git CLI's exit codes and quiet
 * output side by side with real git 2.39 — `reset <unknown ref> --` / `reset <ref past the root> -- a.txt` (128,
 * `Failed to resolve '<r>' as a valid revision.` / `… valid tree.`; ours exited 1), `checkout -- <spec matching
 * nothing>` (1, `pathspec '<p>' did not match any file(s) known to git`; ours 128), and `-q` on checkout and
 * `stash pop` (nothing printed; ours printed `Already on 'main'` and `Dropped stash@{0}`). Exit code, stdout, stderr
 * (the CLI names the command where git prints `fatal: `/`error: `) and `status` after.
 */
import { writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGitResult, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const argvs = [
  ["reset", "nope", "--"],
  ["reset", "HEAD~5", "--", "a.txt"],
  ["checkout", "--", "nope"],
  ["checkout", "--", "a.txt/"],
  ["checkout", "-q", "-f", "HEAD"],
  ["checkout", "-f", "HEAD"],
  ["checkout", "-q", "main"],
  ["checkout", "-q", "-b", "topic"],
];

it("exit codes and quiet output as real git: reset of an unknown ref with --, checkout of a spec matching nothing, -q", async () => {
  const base = committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "one");
  const ours: unknown[] = [];
  const theirs: unknown[] = [];
  for (const argv of argvs) {
    const { ws, git } = await workspaceCopy(base);
    await ws.fs.writeFile("/repo/a.txt", "edited\n");
    const r = await git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const status = (await git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/repo", env: identityEnv() })).stdout;
    ours.push({ argv, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, status });
    const dir = diskCopy(base);
    writeFileSync(`${dir}/a.txt`, "edited\n");
    const g = realGitResult(dir, ...argv);
    const stderr = g.stderr.replace(/^(fatal|error): /gm, `git ${argv[0]}: `);
    theirs.push({ argv, exitCode: g.status, stdout: g.stdout, stderr, status: realGitResult(dir, "status", "--porcelain=v1").stdout });
  }
  expect(ours).toEqual(theirs);
});

it("stash pop -q prints nothing; stash pop prints what it dropped", async () => {
  const base = committedRepo({ "a.txt": "a\n" }, "one");
  const { ws, git } = await workspaceCopy(base);
  const run = (argv: string[]) => git.cli({ argv, cwd: "/repo", env: identityEnv() });
  await ws.fs.writeFile("/repo/a.txt", "edited\n");
  expect((await run(["stash", "-q"])).exitCode).toBe(0);
  expect(await run(["stash", "pop", "-q"])).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
  expect(await ws.fs.readFile("/repo/a.txt", "utf8")).toBe("edited\n");
  expect((await run(["stash", "-q"])).exitCode).toBe(0);
  expect((await run(["stash", "pop"])).stdout).toMatch(/^Dropped refs\/stash@\{0\} \([0-9a-f]{40}\)\n$|^Dropped stash@\{0\}/m);
});
