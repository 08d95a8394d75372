/**
 * Issue 20, run 40, attacker e: a `.gitignore` (or `.gitattributes`) in the working tree that is a SYMBOLIC LINK is
 * followed — here to a file outside the repository — and its patterns applied. git (since 2.32) opens in-tree
 * `.gitignore` / `.gitattributes` with O_NOFOLLOW: a symlinked one is not read (`warning: unable to access
 * '.gitignore': Too many levels of symbolic links`) and the link itself is an ordinary untracked/tracked entry. Here a
 * cloned or hostile repository's `.gitignore -> ../patterns` silently drops the agent's files from `git add -A` and
 * `git status` (they are never committed), and any file the link reaches is read as rules.
 * Reproduction: `echo '*.txt' > patterns; git init r; cd r; echo a > a.txt; echo b > b.md; ln -s ../patterns
 * .gitignore; git status --porcelain=v1; git add -A; git ls-files`, then `printf '*.md -diff\n' > ../attrs;
 * ln -s ../attrs .gitattributes; git commit -m x; echo c >> b.md; git diff b.md`.
 * Today: status `?? .gitignore` / `?? b.md` (a.txt hidden); ls-files `.gitignore`, `b.md` — a.txt never staged;
 * `git diff b.md` prints `Binary files a/b.md and b/b.md differ`.
 * git 2.39.5 (the same commands on disk in /tmp, `git -C /tmp/x …`): status `?? .gitignore` / `?? a.txt` /
 * `?? b.md`; ls-files `.gitignore`, `a.txt`, `b.md`; `git diff b.md` the text patch (`+c`); each command warns
 * `unable to access '.gitignore'` / `'.gitattributes'`.
 * Likely cause: src/git/ops/ignores.ts (the ignore file read, `fs.promises.readFile(path, "utf8")`) and
 * src/git/ops/attributes.ts (`workspace.fs.readFile(path, "utf8")`) follow links; they should lstat first and skip a
 * link, as git's O_NOFOLLOW.
 * Fixed in run 40 by fixer f40g1: an in-tree `.gitignore` / `.gitattributes` that is a link is lstat'ed and not read
 * (git's warning is not printed; docs/git.md).
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

it("a symlinked .gitignore / .gitattributes is not read, as git 2.39.5 (O_NOFOLLOW)", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = async (...argv: string[]) => {
    const r = await git.cli({ argv, cwd: "/w/r" });
    return `${r.exitCode} ${r.stdout}`;
  };
  await ws.fs.mkdir("/w/r", { recursive: true });
  await ws.fs.writeFile("/w/patterns", "*.txt\n");
  await ws.fs.writeFile("/w/attrs", "*.md -diff\n");
  expect(await run("init", "-q")).toBe("0 ");
  await ws.fs.writeFile("/w/r/a.txt", "a\n");
  await ws.fs.writeFile("/w/r/b.md", "b\n");
  await ws.fs.symlink("../patterns", "/w/r/.gitignore");

  const status = await run("status", "--porcelain=v1"); // today: "0 ?? .gitignore\n?? b.md\n"
  await run("add", "-A");
  const staged = await run("ls-files"); // today: "0 .gitignore\nb.md\n"
  expect({ status, staged }).toEqual({ status: "0 ?? .gitignore\n?? a.txt\n?? b.md\n", staged: "0 .gitignore\na.txt\nb.md\n" });

  await ws.fs.symlink("../attrs", "/w/r/.gitattributes");
  await run("add", ".gitattributes");
  expect(await run("commit", "-qm", "x")).toBe("0 ");
  await ws.fs.writeFile("/w/r/b.md", "b\nc\n");
  const diff = await run("diff", "b.md"); // today: "Binary files a/b.md and b/b.md differ"
  expect(diff).toBe("0 diff --git a/b.md b/b.md\nindex 6178079..9ddeb5c 100644\n--- a/b.md\n+++ b/b.md\n@@ -1 +1,2 @@\n b\n+c\n");
  await ws.close();
});
