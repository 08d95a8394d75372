/**
 * Issue 20, twenty-second attack run (fixer G2), siblings of test/workers/attack22b/git-cli-merge-quiet-and-
 * typechange.test.ts in real workerd, each expectation what git 2.39.5 printed for the same commands: a type change
 * (link → file and file → link) in the long status (`typechange:`), `--porcelain=v2` (`1 .T`), `diff --name-status`,
 * and staged (`T `, `diff --cached --name-status`); the typed status and diffSummary give `T`.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "T", email: "t@e" } } };

it("a link turned file and a file turned link are type changes, unstaged and staged", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const dir = "/workspace/t";
    await ws.fs.mkdir(dir, { recursive: true });
    const r = await sh(
      ws,
      "git init -q -b main; echo x > a; ln -s a l; echo y > f; git add -A; git commit -q -m i; rm l; echo plain > l; rm f; ln -s a f; " +
        "git status; git status --porcelain=v2; git diff --name-status; echo ==; git add -A; git status --porcelain=v1; git diff --cached --name-status",
      { cwd: dir },
    );
    const status = await ws.git.status({ dir });
    const summary = (await ws.git.diffSummary({ dir, cached: true })).map((e) => [e.path, e.status]);
    return { text: [r.stdout, r.stderr, r.exitCode], status, summary };
  }, withGit);
  expect(out).toEqual({
    text: [
      "On branch main\nChanges not staged for commit:\n" +
        '  (use "git add <file>..." to update what will be committed)\n' +
        '  (use "git restore <file>..." to discard changes in working directory)\n' +
        "\ttypechange: f\n\ttypechange: l\n\n" +
        'no changes added to commit (use "git add" and/or "git commit -a")\n' +
        "1 .T f\n1 .T l\nT\tf\nT\tl\n==\nT  f\nT  l\nT\tf\nT\tl\n",
      "",
      0,
    ],
    status: [
      { path: "f", index: "T", worktree: " " },
      { path: "l", index: "T", worktree: " " },
    ],
    summary: [
      ["f", "T"],
      ["l", "T"],
    ],
  });
});
