/**
 * Issue 20, twenty-eighth attack run: `git clean -fd` removes the directory of a submodule (a gitlink entry, mode
 * 160000, in the index) with every file in it, and `git status` lists those files as untracked (`?? lib/`). The
 * gitlink is tracked: real git 2.39.5 shows a clean status and `clean -fd` leaves `lib/` and its files alone.
 * (Submodules are not cloned here — docs/git.md "What is not supported" — so `lib/` is filled by other means: a
 * download, a build, a copy; `git clean -fdn` then `-fd` after a `?? lib/` is what an agent runs.)
 * Tried: side by side with git 2.39.5 on a repository whose HEAD and index hold `lib` as a gitlink (update-index
 * --cacheinfo 160000): lib/ empty and lib/ holding lib/src/x.c, then status (-s, --porcelain=v1, long), clean -fdn,
 * clean -fd, add -A, commit -am, reset --hard, stash, checkout -b, ls-tree, ls-files; also untracked files in tracked
 * directories, ignored files and nested repositories for clean -fd, and checkout/merge/stash pop over untracked or
 * modified files.
 * Held: the gitlink stays in the index and in new commits (add -A, commit, reset --hard, stash, checkout -b as git);
 * clean -fd keeps ignored files and nested repositories; checkout, merge and stash pop refuse to overwrite untracked
 * or modified files.
 * Found (medium — files git keeps are deleted by a plain `git clean -fd`, and status calls tracked content
 * untracked; 2 of 2 runs).
 * Suggested fix: src/git/ops/worktree.ts `clean` — a directory whose path is itself an index entry (a gitlink) is
 * tracked: skip it (`if (index.has(path)) continue;` before the trackedDirs test); the status walk
 * (src/git/ops/repo.ts / tree-state) likewise must not list what lies inside a gitlink's directory as untracked.
 * Fixed: src/git/ops/worktree.ts clean skips a directory that is itself an index entry (a gitlink); the status walk
 * (src/git/ops/walk.ts) does not enter a gitlink's directory, and status (repo.ts) lists the gitlink itself as git
 * does (staged A/D/M, ` D` when its directory is gone). Siblings: test/node/fix28/git-gitlinks.test.ts (fixer GS).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("git clean -fd keeps the files in a submodule's directory, and status does not list them", { timeout: 60_000 }, async () => {
  const disk = committedRepo({ "a.txt": "a\n" }, "base", (d) => {
    realGit(d, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,lib");
    realGit(d, "commit", "-q", "-m", "add submodule lib");
    mkdirSync(join(d, "lib/src"), { recursive: true });
    writeFileSync(join(d, "lib/src/x.c"), "int x;\n");
  });
  const { ws, git, dir } = await workspaceCopy(disk);
  const run = (...argv: string[]) => git.cli({ argv, cwd: dir });

  expect(await run("status", "--porcelain=v1")).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // Was: stdout "?? lib/\n"
  expect(await run("clean", "-fdn")).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // Was: "Would remove lib/\n"
  expect(await run("clean", "-fd")).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // Was: "Removing lib/\n"
  expect(await ws.fs.readFile(`${dir}/lib/src/x.c`, "utf8")).toBe("int x;\n"); // Was: ENOENT — lib/ emptied
});
