/**
 * Issue 20, run 40, fixer f40g1 (sibling of attack40e/git-symlinked-gitignore-gitattributes-followed): a symbolic
 * link named `.gitignore` in a SUBDIRECTORY is not read either (status, clean), while `.git/info/exclude` — not a
 * working-tree file — is still read through a link, as git 2.39.5.
 * Checked with real git 2.39.5: `echo '*.txt' > patterns; echo '*.log' > ex; git init r; cd r; mkdir sub;
 * echo a > sub/a.txt; echo l > x.log; echo l > sub/y.log; ln -s ../../patterns sub/.gitignore;
 * rm .git/info/exclude; ln -s ../../../ex .git/info/exclude; git status --porcelain=v1 -uall; git clean -nd`
 * → `?? sub/.gitignore` / `?? sub/a.txt`, and `Would remove sub/.gitignore` / `Would remove sub/a.txt` (plus git's
 * `warning: unable to access 'sub/.gitignore'` on stderr, which this git does not print: docs/git.md).
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

it("a symlinked sub/.gitignore is not read; a symlinked .git/info/exclude is", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = async (...argv: string[]) => {
    const r = await git.cli({ argv, cwd: "/w/r" });
    return `${r.exitCode} ${r.stdout}`;
  };
  await ws.fs.mkdir("/w/r", { recursive: true });
  await ws.fs.writeFile("/w/patterns", "*.txt\n");
  await ws.fs.writeFile("/w/ex", "*.log\n");
  expect(await run("init", "-q")).toBe("0 ");
  await ws.fs.mkdir("/w/r/sub");
  await ws.fs.writeFile("/w/r/sub/a.txt", "a\n");
  await ws.fs.writeFile("/w/r/x.log", "l\n");
  await ws.fs.writeFile("/w/r/sub/y.log", "l\n");
  await ws.fs.symlink("../../patterns", "/w/r/sub/.gitignore");
  await ws.fs.rm("/w/r/.git/info/exclude", { force: true });
  await ws.fs.symlink("../../../ex", "/w/r/.git/info/exclude");

  expect({
    status: await run("status", "--porcelain=v1", "-uall"),
    clean: await run("clean", "-nd"),
  }).toEqual({
    status: "0 ?? sub/.gitignore\n?? sub/a.txt\n",
    clean: "0 Would remove sub/.gitignore\nWould remove sub/a.txt\n",
  });
  await ws.close();
});
