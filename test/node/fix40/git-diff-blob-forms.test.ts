/**
 * Issue 20, run 40, fixer f40g1 (sibling of attack40e/git-diff-blob-blob-internal-error): the other blob forms of
 * `git diff`, as git 2.39.5 (checked in /tmp: `git init; echo a > a.txt; echo b > b.txt; git add -A; git commit -m
 * first; echo a2 > a.txt; git commit -am second; echo a3 > a.txt; git add a.txt`, then): `git diff HEAD~1:a.txt
 * :a.txt` (a blob from the index) prints the patch `-a` / `+a3`; `git diff --stat HEAD~1:a.txt HEAD:a.txt` is
 * ` a.txt | 2 +-` …; `git diff HEAD:a.txt HEAD:a.txt` prints nothing (0); a lone blob (`git diff HEAD:a.txt`,
 * `git diff :a.txt`), a blob with a commit (`git diff HEAD:a.txt HEAD`) and `--cached HEAD:a.txt` are usage errors
 * (129; git prints its usage text, here one line naming the blob).
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

it("git diff with blobs: index blob, --stat, equal blobs, and the usage errors of git 2.39.5", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = async (...argv: string[]) => {
    const r = await git.cli({ argv, cwd: "/r" });
    return `${r.exitCode} ${r.stdout}`;
  };
  await ws.fs.mkdir("/r");
  await run("init", "-q");
  await ws.fs.writeFile("/r/a.txt", "a\n");
  await ws.fs.writeFile("/r/b.txt", "b\n");
  await run("add", "-A");
  await run("commit", "-qm", "first");
  await ws.fs.writeFile("/r/a.txt", "a2\n");
  await run("commit", "-qam", "second");
  await ws.fs.writeFile("/r/a.txt", "a3\n");
  await run("add", "a.txt");

  expect(await run("diff", "HEAD~1:a.txt", ":a.txt")).toBe("0 diff --git a/a.txt b/a.txt\nindex 7898192..d616f73 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+a3\n");
  expect(await run("diff", "--stat", "HEAD~1:a.txt", "HEAD:a.txt")).toBe("0  a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n");
  expect(await run("diff", "HEAD:a.txt", "HEAD:a.txt")).toBe("0 ");
  for (const argv of [["HEAD:a.txt"], [":a.txt"], ["HEAD:a.txt", "HEAD"], ["--cached", "HEAD:a.txt"]]) {
    expect(await run("diff", ...argv)).toBe("129 ");
  }
  await ws.close();
});
