/**
 * Issue 20, thirty-seventh attack run: a synced directory renamed (`a → b`) and then one of its subdirectories moved
 * out of it (`b/s → c`) before the next push: the container's `s` is removed and `c` re-created from the Workspace,
 * so what only the container held in it — entries under an ignored glob (`MOUNT_IGNORE=**\/node_modules`: an
 * `npm install`'s `node_modules`, a `.venv`) — is destroyed, which `mv` keeps. This is run 35's finding
 * (attack35g, fixed by run 36's fixer RN) in a form the fix does not reach, and docs/container.md (Sync, Push) does
 * not list it among the cases still sent as a deletion and a re-creation.
 * Tried: `a/s/x`, `a/y`, a container-only `a/s/node_modules/n`; `rename a b`, `rename b/s c` in the Workspace; `true`
 * in the container. Differential: bash 5.2 on a temp dir, `mv a b; mv b/s c` → `b b/y c c/node_modules
 * c/node_modules/n c/x`.
 * Held: the other order (`a/s → x; a → b`: both renamed), `a/s → a/t; a → b`, `a/s → x; rm -r a`, `p/q → q; p → q/p`,
 * a rotation through a third name (content right), a relaunch on a fresh disk before and after a rename, a
 * directory renamed over a file the Workspace removed with a file renamed into it.
 * Found (medium — the container loses installed dependencies or build output it alone holds; the agent's next
 * `npm test` fails until it reinstalls; 2 of 2 runs): container after the push `b b/y c c/x` (no
 * `c/node_modules/n`), pushed 4, nothing skipped. The same within the renamed directory (`a → b; b/s → b/t`, a
 * project renamed and then one of its folders): container `b b/t b/t/x`, bash keeps `b/t/node_modules/n`.
 * Suggested fix: src/runtime/sync.ts `#pushRename` — the change log's order is (rev, path): the rename `a → b` (rev
 * R1) is pushed first, and its scan of the moved rows removes `b/s` ("what the Workspace removed inside the moved
 * tree") because nothing is at `b/s` any more; `c` (rev R2) then finds no row with its inode. In that scan, a moved
 * directory row whose inode now lives at another synced, non-ignored path should be renamed there (the same checks
 * as `#pushRename`'s, e.g. by calling it for that row) instead of removed.
 * Fixed: src/runtime/sync.ts `#pushRename` — in the scan of moved rows, a directory whose inode lives at another
 * synced, non-ignored path whose change-log entry is still to come (newer revision) and that is not recorded there
 * yet is kept (`#movedOn`): that entry finds the row by its inode and renames it (`b/s → c`, `b/s → b/t`), with the
 * same checks as any rename (issue 20, run 37, fixer RA). Renaming it from the scan itself would run before the new
 * parent exists in the container (`mv a z; mkdir a; mv z/s a/s`). Siblings:
 * test/workers/fix37/container-rename-sequences.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, workspaceTree, type LocalContainer } from "../container/helpers.js";

const IGNORE = { MOUNT_IGNORE: "**/node_modules" };

async function paths(c: LocalContainer): Promise<string[]> {
  return [...(await c.tree()).keys()].sort();
}

describe("attack37a: a rename, then a subdirectory moved out of the renamed directory", () => {
  it("a → b, b/s → c: the container's c keeps its node_modules, as mv", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a/s", { recursive: true });
      await ws.fs.writeFile("/workspace/a/s/x", "x");
      await ws.fs.writeFile("/workspace/a/y", "y");
      expect((await sh(ws, "mkdir a/s/node_modules && echo n > a/s/node_modules/n")).exitCode).toBe(0);
      await ws.fs.rename("/workspace/a", "/workspace/b");
      await ws.fs.rename("/workspace/b/s", "/workspace/c");
      const r = await sh(ws, "cat c/node_modules/n");
      expect([...(await workspaceTree(ws)).keys()].sort()).toEqual(["b", "b/y", "c", "c/x"]);
      // Was: "", "cat: c/node_modules/n: No such file or directory\n", 1 — the container's tree ["b", "b/y", "c", "c/x"].
      expect([r.stdout, r.stderr, r.exitCode, r.skipped]).toEqual(["n\n", "", 0, []]);
      expect(await paths(c)).toEqual(["b", "b/y", "c", "c/node_modules", "c/node_modules/n", "c/x"]);
    });
  });

  it("a → b, b/s → b/t: the container's b/t keeps its node_modules, as mv", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a/s", { recursive: true });
      await ws.fs.writeFile("/workspace/a/s/x", "x");
      expect((await sh(ws, "mkdir a/s/node_modules && echo n > a/s/node_modules/n")).exitCode).toBe(0);
      await ws.fs.rename("/workspace/a", "/workspace/b");
      await ws.fs.rename("/workspace/b/s", "/workspace/b/t");
      const r = await sh(ws, "cat b/t/node_modules/n");
      // Was: "", "cat: b/t/node_modules/n: No such file or directory\n", 1 — the container's tree ["b", "b/t", "b/t/x"].
      expect([r.stdout, r.stderr, r.exitCode, r.skipped]).toEqual(["n\n", "", 0, []]);
      expect(await paths(c)).toEqual(["b", "b/t", "b/t/node_modules", "b/t/node_modules/n", "b/t/x"]);
    });
  });
});
