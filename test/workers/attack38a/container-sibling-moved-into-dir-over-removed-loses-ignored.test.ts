/**
 * Issue 20, thirty-eighth attack run: a directory the container holds (`b`, with a container-only `b/node_modules`)
 * moved into a NEW directory that is then renamed onto the path of a removed directory (`mkdir c; mv b c/b; rm -r a;
 * mv c a`, in the Workspace between two pushes) reaches the container without its container-only entries: the push
 * exits 0 and the container holds `a a/b a/b/q` — `b/node_modules/m` is gone, although `b` never lived under the
 * removed `a` and docs/container.md says any sequence of renames, removals and creations before a push leaves the
 * container as `mv`, `rm -r` and `mkdir` leave it.
 * Tried: with `MOUNT_IGNORE=**\/node_modules` and the seed of test/workers/fix37/container-rename-sequences.test.ts
 * (a/s/x, a/y, b/q; container-only a/s/node_modules/n, b/node_modules/m): `mkdir c; mv b c/b; rm a; mv c a`,
 * `rm a; mkdir a; mv b a/b`, `rm a; mv b a`, `mkdir c; mv b c/b; rm a; mv c a; mv a/b b`, `rm a/s; mkdir a/s; mv b
 * a/s/b`, `mv a t; mv b t/b; rm t`. Differential: the same steps with bash 5.2.15 on a temp dir, `find . -mindepth 1
 * | LC_ALL=C sort` → a a/b a/b/node_modules a/b/node_modules/m a/b/q.
 * Held: the five other sequences (container tree equal to bash's, bytes equal to the Workspace's, nothing pushed
 * or pulled by a second command); the directory made in place (`rm a; mkdir a; mv b a/b`) keeps b/node_modules.
 * Found (medium — a reorganisation an agent does (`mkdir new; mv lib new/; rm -r old; mv new old`) silently drops
 * the dependencies it installed in the container; 3 of 3 runs): container tree a a/b a/b/q, b/node_modules/m lost.
 * Suggested fix: src/runtime/sync.ts #pushRename: `b`'s rename to `a/b` appears to land inside the container's OLD
 * `a` (still there, its removal queued), which the removal then takes; order the rename after the removal of the
 * target's recorded ancestor (or park `b` first, as the run 37 `.ws-sync-move-` parking does for a parent).
 * Fixed: before the container's `rm` of a recorded directory, every recorded directory under it whose Workspace inode
 * lives on (at a synced path whose change-log entry is still to come, its recorded path included) is parked under
 * `.ws-sync-move-<8 hex>` and renamed into place by that entry — src/runtime/sync.ts `RemoteSync.#parkLiving`, called
 * for a deletion's removals, a stale row's removal, a kind change and a renamed tree's removed rows (issue 20, run 38,
 * fixer RB). Siblings: test/workers/fix38/container-living-under-removed.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, workspaceTree } from "../container/helpers.js";

const W = (p: string) => `/workspace/${p}`;

describe("attack38a: a sibling moved into a new directory renamed over a removed one", () => {
  it("keeps its container-only node_modules, as mv does", async () => {
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
      await ws.fs.rename(W("b"), W("c/b"));
      await ws.fs.rm(W("a"), { recursive: true });
      await ws.fs.rename(W("c"), W("a"));

      const r = await sh(ws, "true");
      expect([r.exitCode, r.skipped]).toEqual([0, []]);
      for (const [path, entry] of await workspaceTree(ws)) if (entry.kind === "file") expect([path, await c.text(path)]).toEqual([path, entry.text]);
      // Was: ["a", "a/b", "a/b/q"] — b/node_modules/m lost.
      expect([...(await c.tree()).keys()].sort()).toEqual(["a", "a/b", "a/b/node_modules", "a/b/node_modules/m", "a/b/q"]);
      expect(await c.text("a/b/node_modules/m")).toBe("m\n");
    });
  });
});
