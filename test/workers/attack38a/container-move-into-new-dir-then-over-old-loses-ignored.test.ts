/**
 * Issue 20, thirty-eighth attack run: a subdirectory moved into a NEW directory, its old parent removed, and the new
 * directory then renamed onto the old parent's path (`mkdir c; mv a/s c/s; rm -r a; mv c a`, all in the Workspace
 * between two pushes) reaches the container without the subdirectory's container-only entries: with
 * `MOUNT_IGNORE=**\/node_modules`, `a/s/node_modules/n` (installed by a command in the container) is gone after the
 * next push, although docs/container.md says any sequence of renames, removals and creations before a push leaves
 * the container as `mv`, `rm -r` and `mkdir` leave it. `s`'s inode lives on at `a/s` (its path unchanged at the
 * end), but its old parent's deletion takes it with it.
 * Tried: the same seed as test/workers/fix37/container-rename-sequences.test.ts (a/s/x, a/y, b/q; container-only
 * a/s/node_modules/n, b/node_modules/m), then thirteen sequences: a cycle a→t→u→a (in one push and across three),
 * a rename plus an edit of the moved file, a rename over an existing empty directory and over an existing file, a
 * name with a newline, a tree holding a link and an empty directory, a rename into a synced sibling, rename chains
 * out of a renamed tree, a file and a directory moved into a renamed one. Differential: bash 5.2.15 on a temp dir,
 * `mkdir c; mv a/s c/s; rm -r a; mv c a; find . -mindepth 1 | LC_ALL=C sort` →
 * a a/s a/s/node_modules a/s/node_modules/n a/s/x b b/node_modules b/node_modules/m b/q.
 * Held: the twelve other sequences (container tree equal to bash's, every file's bytes equal to the Workspace's,
 * a second command pushes and pulls nothing).
 * Found (medium — a dependency tree or virtualenv an agent installed in the container vanishes after a
 * Workspace-side reorganisation, silently; the next `node`/`python` run fails; 3 of 3 runs): container tree
 * a a/s a/s/x b b/node_modules b/node_modules/m b/q — a/s/node_modules/n lost; the push exits 0, skipped [].
 * Suggested fix: src/runtime/sync.ts #pushRename / #movedOn: `s` moved on out of `a` into a directory the container
 * does not hold yet (`c`, new this push), then `c` lands at `a` — `s`'s final path equals its recorded one, so it is
 * neither renamed nor parked, and `rm a` takes it. Park `s` before the removal of its recorded parent when its inode
 * lives on under a path that is re-created (or rename `a`'s old tree aside and remove only what did not move on).
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, workspaceTree } from "../container/helpers.js";

const W = (p: string) => `/workspace/${p}`;

describe("attack38a: a subdirectory moved into a new directory that then replaces its old parent", () => {
  it.fails("keeps its container-only node_modules, as mv does", async () => {
    const c = await startContainer({ MOUNT_IGNORE: "**/node_modules" });
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir(W("a/s"), { recursive: true });
      await ws.fs.mkdir(W("b"));
      await ws.fs.writeFile(W("a/s/x"), "x");
      await ws.fs.writeFile(W("a/y"), "y");
      await ws.fs.writeFile(W("b/q"), "q");
      const install = await sh(ws, "mkdir a/s/node_modules b/node_modules && echo n > a/s/node_modules/n && echo m > b/node_modules/m");
      expect(install.exitCode).toBe(0);

      await ws.fs.mkdir(W("c"));
      await ws.fs.rename(W("a/s"), W("c/s"));
      await ws.fs.rm(W("a"), { recursive: true });
      await ws.fs.rename(W("c"), W("a"));

      const r = await sh(ws, "true");
      expect([r.exitCode, r.skipped]).toEqual([0, []]);
      const tree = await workspaceTree(ws);
      for (const [path, entry] of tree) if (entry.kind === "file") expect([path, await c.text(path)]).toEqual([path, entry.text]);
      // Was: ["a", "a/s", "a/s/x", "b", "b/node_modules", "b/node_modules/m", "b/q"] — a/s/node_modules/n lost.
      expect([...(await c.tree()).keys()].sort()).toEqual(["a", "a/s", "a/s/node_modules", "a/s/node_modules/n", "a/s/x", "b", "b/node_modules", "b/node_modules/m", "b/q"]);
      expect(await c.text("a/s/node_modules/n")).toBe("n\n");
    });
  });
});
