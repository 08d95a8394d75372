/**
 * Issue 20, run 40, attacker e: `git diff <rev>:<path> <rev>:<path>` (git's `git diff [<options>] <blob> <blob>`
 * form: compare one file across commits, or two files) fails with isomorphic-git's internal message
 * `git diff: Object 78981922… was anticipated to be a tree but it is a blob.`, exit 1 — a message that names no
 * argument and no git concept the agent used. docs/git.md's diff row (`[ref [ref]]`) does not say blobs are refused.
 * Reproduction: `git init; echo a > a.txt; echo b > b.txt; git add -A; git commit -m first; echo a2 > a.txt;
 * git commit -am second; git diff HEAD~1:a.txt HEAD:a.txt; git diff HEAD~1:a.txt HEAD:b.txt`.
 * Today: both exit 1, `git diff: Object <oid> was anticipated to be a tree but it is a blob.`
 * git 2.39.5 (the same commands on disk in /tmp): exit 0, `diff --git a/a.txt b/a.txt\nindex 7898192..c1827f0 100644\n
 * --- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+a2\n`, and for the second `diff --git a/a.txt b/b.txt\nindex
 * 7898192..6178079 100644\n--- a/a.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-a\n+b\n`.
 * Likely cause: src/git/cli/commands.ts (diff's run) resolves each revision and hands the oids to the tree walk
 * (src/git/ops/diff.ts) without checking for a blob.
 * Fixed in run 40 by fixer f40g1: ops/diff.ts diffs two blobs (rev.ts blobOf: name and mode from the path); a blob
 * used otherwise is a usage error (CLI 129, as git).
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

const ENV = { GIT_AUTHOR_DATE: "@1704164645 +0000", GIT_COMMITTER_DATE: "@1704164645 +0000" };

it("git diff <blob> <blob> prints the patch between the two files, as git 2.39.5", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/r", env: ENV });
  await ws.fs.mkdir("/r");
  await run("init", "-q");
  await ws.fs.writeFile("/r/a.txt", "a\n");
  await ws.fs.writeFile("/r/b.txt", "b\n");
  await run("add", "-A");
  await run("commit", "-qm", "first");
  await ws.fs.writeFile("/r/a.txt", "a2\n");
  expect((await run("commit", "-qam", "second")).exitCode).toBe(0);

  expect({
    same: await run("diff", "HEAD~1:a.txt", "HEAD:a.txt"), // today: exit 1, "… was anticipated to be a tree but it is a blob."
    other: await run("diff", "HEAD~1:a.txt", "HEAD:b.txt"),
  }).toEqual({
    same: { stdout: "diff --git a/a.txt b/a.txt\nindex 7898192..c1827f0 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+a2\n", stderr: "", exitCode: 0 },
    other: { stdout: "diff --git a/a.txt b/b.txt\nindex 7898192..6178079 100644\n--- a/a.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-a\n+b\n", stderr: "", exitCode: 0 },
  });
  await ws.close();
});
