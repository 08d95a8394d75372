/**
 * Issue 20, thirty-seventh attack run: a synced directory `a` renamed away (`a → z`), a new `a` made, and its
 * subdirectory moved back into it (`z/s → a/s`) before the next push leaves the container without `a/s` and
 * everything in it — the Workspace's own files (`a/s/x`) as well as what only the container held there
 * (`a/s/node_modules`). Nothing is owed or skipped: every later command sees `a/` empty while the Workspace holds
 * `a/s/x`, and no later push sends it (the manifest records it as synced). No directory rename is needed: a file
 * saved aside, its directory wiped and re-made, the file moved back (`a/f → t; rm -r a; mkdir a; t → a/f`, a plain
 * "keep one file, clear the rest") leaves the container's `a` empty the same way.
 * Tried: with `MOUNT_IGNORE=**\/node_modules`, `a/s/x`, `a/y` and a container-only `a/s/node_modules/n`; then in the
 * Workspace `rename a z`, `mkdir a`, `rename z/s a/s`; then `true`, `ls -R; cat a/s/x` and `true` in the container.
 * Differential: bash 5.2 on a temp dir, `mv a z; mkdir a; mv z/s a/s` → `a a/s a/s/node_modules a/s/node_modules/n
 * a/s/x z z/y`.
 * Held: a subdirectory moved out and its parent removed or renamed (`a/s → x; rm -r a` / `a → b`); a rotation
 * through a third name (content right); `p/q → q; p → q/p`; `a → b; mkdir a; b → a/b` and `a → b; b/d → a`
 * (content right; the container's node_modules go, as the documented deletion fallback); a file made at the old path.
 * Found (medium — a command in the container runs on a tree missing files the Workspace holds, for good: a build or
 * test reads the wrong tree, and the container-only node_modules are lost; 2 of 2 runs): container after the push
 * `a z z/y` (Workspace `a a/s a/s/x z z/y`), `cat a/s/x` → "No such file or directory", exit 1; two later commands
 * push 0 and pull 0, the container stays without `a/s`. The file case: container `a` only (Workspace `a a/f`),
 * `cat a/f` → exit 1 (bash: `keep`, exit 0).
 * Suggested fix: src/runtime/sync.ts `#pushEntries` — the change log gives (rev, path) order: `a` deleted (R1, a
 * subtree; `#pushRename` declines, a new `a` exists) queues `rm a`, whose `#forget(a)` runs only when the batch is
 * flushed; `a/s` and `a/s/x` (R3) are met before that flush, still find their rows of R0 (same inode, same
 * signature) and are taken as "restamped without a change" (`#unchangedSince`) — then the flush removes the
 * container's `a` with them and forgets their rows. Forget (or mark pending) the rows under a queued `rm` when it is
 * queued, or flush before an entry under a path with a pending removal is checked against the manifest.
 * Fixed: src/runtime/sync.ts — an entry at or under a path whose `rm` is queued and not answered yet is checked as
 * one the container does not hold (`#pendingAt`, the set emptied when the batch is answered), so `a/f` is sent after
 * the `rm a`; a directory renamed away is renamed in the container even when something was made at its old path
 * since (that comes later in the change log), and a moved row whose directory lives at another path not synced yet
 * is kept for that path's entry to rename (`#movedOn`), so `z/s` is renamed to `a/s` with its node_modules
 * (issue 20, run 37, fixer RA). Siblings: test/workers/fix37/container-rename-sequences.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, workspaceTree, type LocalContainer } from "../container/helpers.js";

const IGNORE = { MOUNT_IGNORE: "**/node_modules" };

async function paths(c: LocalContainer): Promise<string[]> {
  return [...(await c.tree()).keys()].sort();
}

describe("attack37a: rename away, new directory at the old path, subdirectory moved back", () => {
  it("a → z, mkdir a, z/s → a/s: the container holds a/s as mv leaves it", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a/s", { recursive: true });
      await ws.fs.writeFile("/workspace/a/s/x", "x");
      await ws.fs.writeFile("/workspace/a/y", "y");
      expect((await sh(ws, "mkdir a/s/node_modules && echo n > a/s/node_modules/n")).exitCode).toBe(0);
      await ws.fs.rename("/workspace/a", "/workspace/z");
      await ws.fs.mkdir("/workspace/a");
      await ws.fs.rename("/workspace/z/s", "/workspace/a/s");
      const r = await sh(ws, "true");
      expect(r.skipped).toEqual([]);
      expect([...(await workspaceTree(ws)).keys()].sort()).toEqual(["a", "a/s", "a/s/x", "z", "z/y"]);
      const next = await sh(ws, "cat a/s/x");
      // Was: "", "cat: a/s/x: No such file or directory\n", 1 — and the container's tree ["a", "z", "z/y"], for good.
      expect([next.stdout, next.stderr, next.exitCode]).toEqual(["x", "", 0]);
      expect(await paths(c)).toEqual(["a", "a/s", "a/s/node_modules", "a/s/node_modules/n", "a/s/x", "z", "z/y"]);
    });
  });

  it("a/f → t, rm -r a, mkdir a, t → a/f: the container holds a/f", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a", { recursive: true });
      await ws.fs.writeFile("/workspace/a/f", "keep");
      await ws.fs.writeFile("/workspace/a/g", "junk");
      expect((await sh(ws, "true")).pushed).toBe(3);
      await ws.fs.rename("/workspace/a/f", "/workspace/t");
      await ws.fs.rm("/workspace/a", { recursive: true });
      await ws.fs.mkdir("/workspace/a");
      await ws.fs.rename("/workspace/t", "/workspace/a/f");
      const r = await sh(ws, "cat a/f");
      expect([...(await workspaceTree(ws)).keys()].sort()).toEqual(["a", "a/f"]);
      // Was: "", "cat: a/f: No such file or directory\n", 1 — the container's tree ["a"], and a second command the same.
      expect([r.stdout, r.stderr, r.exitCode]).toEqual(["keep", "", 0]);
      const again = await sh(ws, "cat a/f");
      expect([again.stdout, again.exitCode]).toEqual(["keep", 0]);
      expect(await paths(c)).toEqual(["a", "a/f"]);
    });
  });
});
