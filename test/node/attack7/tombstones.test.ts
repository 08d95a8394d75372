/**
 * Issue 20 seventh attack run, category 2 (journal growth): the change
 * tracking of issue 17 (`__ws_tombstones`, docs/filesystem.md "Change
 * tracking") records one row per `rm` and per `rename` (the old path), and
 * tombstones "go only by pruning" — `pruneTombstones` is internal and
 * nothing calls it yet.
 *
 * DEFECT (low), FIXED — a path keeps only its newest tombstone (nodes.ts `tombstone` deletes older ones of the path, keeping `subtree`). Reproduction, Node (the same in a Durable Object):
 *   const name = "/w/" + "n".repeat(100_000);
 *   for (let i = 0; i < 200; i++) { await ws.fs.writeFile(name, "x"); await ws.fs.rm(name); }
 *   // the tree is empty again; __ws_tombstones holds 200 rows, ~20 MB of path keys
 * and with the write and delete TOOLS the same (a model's loop). Every cycle
 * that leaves nothing behind grows the database by the path's length,
 * forever; a 1 MB name (names have no length limit) makes it 1 MB per
 * cycle — a Durable Object's 10 GB store fills after ~10,000 cycles.
 * Renames do the same (`mv a b; mv b a`: two rows per round).
 * Impact: low — needs many cycles, but it is unbounded growth from
 * operations that change nothing visible, and nothing reclaims it.
 * Fix proposal: keep only the newest tombstone per path (a path deleted
 * 200 times needs one row: replace on insert — a later deletion tells every
 * older cursor all it needs), and drop a tombstone when a node is created
 * again at its path under a newer revision when no cursor can need it; and/or
 * prune automatically past a bound while no consumer is registered.
 *
 * Withstood here: the chunk storage does not grow (the content is
 * reclaimed: attack3 integrityProblems is clean, __ws_chunks is empty).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

function setup() {
  const storage = nodeSqliteStorage(":memory:");
  const ws = new Workspace({ storage });
  const bytes = () => (storage.sql.exec("SELECT count(*) AS n, coalesce(sum(length(path_key)), 0) AS b FROM __ws_tombstones").toArray()[0] as { n: number; b: number });
  return { ws, sql: storage.sql, bytes };
}

describe("attack7: tombstones of operations that leave nothing behind", () => {
  it("FIXED (low): 200 write+rm cycles of a 100,000-character name leave one tombstone", { timeout: 60_000 }, async () => {
    const { ws, bytes } = setup();
    await ws.fs.mkdir("/w");
    const name = "/w/" + "n".repeat(100_000);
    for (let i = 0; i < 200; i++) {
      await ws.fs.writeFile(name, "x");
      await ws.fs.rm(name);
    }
    expect(await ws.fs.readdir("/w")).toEqual([]);
    // Before the fix: { n: 200, b: ~20,000,000 }.
    expect(bytes()).toEqual({ n: 1, b: 100_000 + 3 });
  });

  it("FIXED (low): the same through the write and delete tools, and through renames back and forth: one tombstone per path", { timeout: 60_000 }, async () => {
    const { ws, bytes } = setup();
    await ws.fs.mkdir("/w");
    const { execute } = createPiTools({ workspace: ws });
    const name = "/w/" + "t".repeat(50_000);
    for (let i = 0; i < 50; i++) {
      expect((await execute({ id: `w${i}`, name: "write", arguments: { path: name, content: "x" } })).isError).toBe(false);
      expect((await execute({ id: `d${i}`, name: "delete", arguments: { path: name } })).isError).toBe(false);
    }
    await ws.fs.writeFile("/w/a", "a");
    for (let i = 0; i < 100; i++) {
      await ws.fs.rename("/w/a", name);
      await ws.fs.rename(name, "/w/a");
    }
    // Before the fix: 250 rows, ~7.5 MB. Now: one row for the long name, one for /w/a.
    expect(bytes()).toEqual({ n: 2, b: 50_003 + 4 });
  });

  it("the content itself is reclaimed: no chunk is left and storage is sound", { timeout: 60_000 }, async () => {
    const { ws, sql } = setup();
    await ws.fs.mkdir("/w");
    for (let i = 0; i < 50; i++) {
      await ws.fs.writeFile("/w/f", new Uint8Array(600_000).fill(i));
      await ws.fs.rm("/w/f");
    }
    expect(sql.exec("SELECT count(*) AS n FROM __ws_chunks").toArray()[0]).toEqual({ n: 0 });
    expect(integrityProblems(sql)).toEqual([]);
  });
});
