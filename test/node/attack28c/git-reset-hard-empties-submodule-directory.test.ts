/**
 * Issue 20, twenty-eighth attack run: `git reset --hard`, `git checkout -- .` and `git checkout -f <branch>` delete
 * every file inside a submodule's directory (a gitlink entry, mode 160000) whose commit did not change: the gitlink
 * is "placed" again, and placing it removes the existing directory recursively and makes it empty
 * (src/git/ops/tree-state.ts placeWorktreeFile). Real git 2.39.5 never touches a gitlink's directory on these
 * commands: `lib/src/x.c` stays. Submodules are not cloned here (docs/git.md), so `lib/` holds whatever the agent
 * put there; `reset --hard` / `checkout -- .` to drop its own edits is then a silent loss of those files.
 * Tried: side by side with git 2.39.5, a repository whose HEAD holds `lib` as a gitlink and whose working tree has
 * lib/src/x.c (no lib/.git): reset --hard, reset --hard <branch without lib>, checkout -f HEAD, checkout -- .,
 * checkout <branch>, checkout -f <branch>, checkout <branch without lib>, merge, stash, add -A, add lib,
 * rm -r --cached lib, then the file and status.
 * Held: plain checkout <branch>, merge, stash, add and reset --hard to a commit without lib keep lib/src/x.c; the
 * gitlink stays in the index and in commits.
 * Found (medium — files the real git keeps are deleted by the commands agents run to drop their edits; 2 of 2 runs).
 * (Siblings seen, same cause: `git status` lists lib's files as untracked (`?? lib/`), `checkout <branch without lib>`
 * refuses "local changes … lib" where git switches, `rm -r --cached lib` leaves the gitlink staged; `clean -fd`:
 * git-clean-fd-removes-submodule-directory.test.ts.)
 * Suggested fix: src/git/ops/tree-state.ts placeWorktreeFile — for a gitlink, keep an existing directory as it is
 * (mkdir only when the path is absent or not a directory); and the working-tree compare (status, the dirty check of
 * reset/checkout) should take a gitlink whose directory exists and holds no repository as unchanged, as git does
 * for a submodule that is not checked out.
 * Fixed: src/git/ops/tree-state.ts — placeWorktreeFile keeps an existing directory for a gitlink (makes one only
 * where none is), sameWorktree takes a gitlink whose directory exists as unchanged (the dirty checks of checkout,
 * reset, merge), findOverwrites does not count files in a gitlink's directory as untracked, and leaving a gitlink
 * removes its directory only when empty (unplaceWorktreeFile); checkout -- <paths> uses the same compare
 * (worktree.ts). Siblings: test/node/fix28/git-gitlinks.test.ts (fixer GS).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, committedRepo, workspaceCopy, realGit } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

async function setup() {
  const disk = committedRepo({ "a.txt": "a\n" }, "base", (d) => {
    realGit(d, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,lib");
    realGit(d, "commit", "-q", "-m", "add submodule lib");
    realGit(d, "branch", "other");
    mkdirSync(join(d, "lib/src"), { recursive: true });
    writeFileSync(join(d, "lib/src/x.c"), "int x;\n");
  });
  return workspaceCopy(disk);
}

for (const argv of [["reset", "--hard"], ["checkout", "--", "."], ["checkout", "-f", "HEAD"], ["checkout", "-f", "other"]]) {
  it(`git ${argv.join(" ")} keeps the files in a submodule's directory`, { timeout: 60_000 }, async () => {
    const { ws, git, dir } = await setup();
    await ws.fs.writeFile(`${dir}/a.txt`, "edited\n");
    const r = await git.cli({ argv, cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("a\n");
    // Was: ENOENT — lib/ left empty
    expect(await ws.fs.readFile(`${dir}/lib/src/x.c`, "utf8")).toBe("int x;\n");
  });
}
