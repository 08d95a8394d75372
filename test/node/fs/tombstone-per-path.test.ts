/**
 * One tombstone per path (docs/filesystem.md "Change tracking"): a newer
 * deletion of a path replaces its older tombstones, keeping `subtree` when
 * any of them covered one, and every cursor still learns what it needs.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import type { ChangeCursor } from "../../../src/fs/changes.js";
import type { WorkspaceFs } from "../../../src/fs/index.js";

function open() {
  const storage = nodeSqliteStorage(":memory:");
  const ws = new Workspace({ storage, now: () => 1_700_000_000_000 });
  const rows = () => storage.sql.exec("SELECT rev, path_key AS key, subtree FROM __ws_tombstones ORDER BY rev").toArray();
  return { ws, fs: ws.fs as unknown as WorkspaceFs, rows };
}

describe("tombstones: the newest per path", () => {
  it("a directory deleted, the path made a file and deleted again: one row, subtree kept, older cursors see the deletion", async () => {
    const { ws, fs, rows } = open();
    await ws.fs.mkdir("/d/sub", { recursive: true });
    await ws.fs.writeFile("/d/sub/f", "x");
    const before: ChangeCursor = { rev: fs.revision(), path: null };
    await ws.fs.rm("/d", { recursive: true });
    const between: ChangeCursor = { rev: fs.revision(), path: null };
    await ws.fs.writeFile("/d", "file");
    await ws.fs.rm("/d");
    const head = fs.revision();
    expect(rows()).toEqual([{ rev: head, key: expect.any(String), subtree: 1 }]);
    for (const cursor of [before, between]) {
      expect(fs.changesSince(cursor).entries).toEqual([{ path: "/d", kind: "deleted", rev: head, subtree: true }]);
    }
  });

  it("different paths keep their own tombstones; a path created again keeps its last deletion until deleted again", async () => {
    const { ws, fs, rows } = open();
    for (const p of ["/a", "/b"]) {
      await ws.fs.writeFile(p, "1");
      await ws.fs.rm(p);
    }
    await ws.fs.writeFile("/a", "2");
    expect(rows().map((r) => r.subtree)).toEqual([0, 0]);
    const page = fs.changesSince({ rev: 0, path: null }).entries.map((e) => `${e.kind} ${e.path}`);
    expect(page).toEqual(["deleted /a", "deleted /b", "file /a"]);
  });
});
