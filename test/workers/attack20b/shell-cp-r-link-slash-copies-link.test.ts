/**
 * Issue 20, twentieth attack run: `cp -r link/ x` (a link to a directory, named with a trailing `/` or `/.`) makes x
 * a LINK to the same directory instead of a copy of it, so writing into the "copy" changes the original.
 * Tried: /workspace/w/d holding f.txt ("keep\n") and sub, link -> d: `cp -r link/ x`, `cp -r link/. z`,
 * `cp -R link/ w2`, then `echo new > x/f.txt; echo new > z/f.txt`; also `mv link/ y`, `find link/`,
 * `tar -cf t.tar link/`; side by side with GNU coreutils 9.1 and findutils 4.9.0.
 * Held: `tar -cf t.tar link/` archives the directory's entries; `ls -d link/` prints `link/`.
 * Found (medium — a backup that is no backup: later edits, and an `rm -rf x/*`, reach the original): x, z and w2 are
 * links to d (find lists no entry under them; stat follows them and says directory), `$?` 0; after the writes
 * d/f.txt is "new\n" (2 of 2 runs). GNU cp: a trailing `/` (or `/.`) resolves the link, x and z are new directories
 * holding f.txt and sub, d/f.txt stays "keep\n". Also (low): `mv link/ y` renames the link (Linux: `mv: cannot move
 * 'link/' to 'y': Not a directory`); `find link/` prints `link` and nothing under it (GNU lists link/, link/f.txt,
 * link/sub). The adapter's cp checks the directory form (1f24350) and then lstats the path, which the Workspace
 * reads without its tail: the link itself.
 * Suggested fix: in the adapter's cp (and lstat/rename), a path in directory form names what it leads to — stat it
 * (follow the link) and copy a directory; rename of `link/` is ENOTDIR.
 * Fixed: the adapter's cp stats (follows) a source in directory form (`link/`, `link/.`) and copies the directory;
 *   its mv of a source ending in `/` that is a link is ENOTDIR (rename(2)).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("cp -r link/ x and cp -r link/. z copy the directory, as GNU cp; d/f.txt is kept", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/w/d/sub", { recursive: true });
    await ws.fs.writeFile("/workspace/w/d/f.txt", "keep\n");
    await ws.fs.symlink("d", "/workspace/w/link");
    const r = await sh(ws, "cp -r link/ x; echo rc=$?; cp -r link/. z; echo rc=$?; echo new > x/f.txt; echo new > z/f.txt; cat d/f.txt; find . | sort | tr '\\n' ' '", { cwd: "/workspace/w" });
    return { stdout: r.stdout, stderr: r.stderr };
  });
  expect(out).toEqual({ stdout: "rc=0\nrc=0\nkeep\n. ./d ./d/f.txt ./d/sub ./link ./x ./x/f.txt ./x/sub ./z ./z/f.txt ./z/sub ", stderr: "" });
});
