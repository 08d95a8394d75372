/**
 * Issue 20, run 36, fixer RN — sibling of test/workers/attack35g/container-workspace-rename-destroys-ignored-dir.test.ts.
 * A Workspace rename of a synced directory is pushed to the container as the daemon's `rename` op
 * (src/runtime/sync.ts `#pushRename`), so what only the container holds in it — entries under an ignored glob
 * (`MOUNT_IGNORE=**\/node_modules`) — moves with it, as `mv` (rename(2)) moves it in bash; the moved files are not
 * sent again unless changed. The neighbourhood: a new parent, an edit before the push, two renames, a rename back,
 * a deletion inside the moved tree between two renames, a rename over an empty directory, names with newlines, a
 * rename over a directory where the container holds entries of its own (rename(2) answers ENOTEMPTY: pushed as a
 * deletion and a re-creation, as before), a swap through a third name (as before: content right), a command
 * writing into the directory while the Workspace renames it (the container wins: its entries stay at the old path,
 * nothing lost), a manifest table of an earlier version (columns added), and the cost.
 * Every expected container tree is what `mv` gives in bash 5.2 on the same steps (the Workspace's own entries plus
 * the container's node_modules moved with their directory); `c.tree()` lists the daemon's disk, not the sync's view.
 * Figures: a rename of a 5,000-file tree (50 directories × 100 files) was pushed as 5,052 ops (rm, 51 mkdirs, 5,000
 * files, 5,000 × 1 byte); now 1 op, 0 bytes.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import { inWorkspace, sh, startContainer, waitFor, workspaceTree, type LocalContainer } from "../container/helpers.js";

const IGNORE = { MOUNT_IGNORE: "**/node_modules" };

/** The container's paths, sorted (as `find . | sort` without `.`). */
async function paths(c: LocalContainer): Promise<string[]> {
  return [...(await c.tree()).keys()].sort();
}

describe("fix36 RN: a Workspace directory rename reaches the container as a rename", () => {
  it("into a new parent: node_modules moves, nothing else is sent", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/proj/src", { recursive: true });
      await ws.fs.writeFile("/workspace/proj/src/a.js", "a");
      await ws.fs.writeFile("/workspace/proj/b.js", "bb");
      const install = await sh(ws, "mkdir -p proj/node_modules/p && echo i > proj/node_modules/p/i.js");
      expect([install.exitCode, install.pushed]).toEqual([0, 4]);
      await ws.fs.mkdir("/workspace/deep/er", { recursive: true });
      await ws.fs.rename("/workspace/proj", "/workspace/deep/er/proj2");
      const r = await sh(ws, "true");
      // mkdir deep, mkdir deep/er, rename proj → deep/er/proj2.
      expect([r.exitCode, r.pushed, r.pulled, r.skipped]).toEqual([0, 3, 0, []]);
      expect(await paths(c)).toEqual([
        "deep", "deep/er", "deep/er/proj2", "deep/er/proj2/b.js", "deep/er/proj2/node_modules", "deep/er/proj2/node_modules/p",
        "deep/er/proj2/node_modules/p/i.js", "deep/er/proj2/src", "deep/er/proj2/src/a.js",
      ]);
      expect(await c.text("deep/er/proj2/node_modules/p/i.js")).toBe("i\n");
      expect(await c.text("deep/er/proj2/b.js")).toBe("bb");
      // Nothing left to send or pull.
      const again = await sh(ws, "true");
      expect([again.pushed, again.pulled]).toEqual([0, 0]);
    });
  });

  it("an edit, a new file and a deletion under the renamed directory before the push are sent, nothing else", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a", { recursive: true });
      for (const n of ["x", "y", "z"]) await ws.fs.writeFile(`/workspace/a/${n}`, n);
      expect((await sh(ws, "mkdir -p a/node_modules && echo m > a/node_modules/m")).pushed).toBe(4);
      await ws.fs.writeFile("/workspace/a/x", "y"); // same size, a new mtime — before the rename
      await ws.fs.rename("/workspace/a", "/workspace/b");
      await ws.fs.writeFile("/workspace/b/y", "yy"); // after it
      await ws.fs.writeFile("/workspace/b/w", "w");
      await ws.fs.rm("/workspace/b/z");
      const r = await sh(ws, "true");
      // rename, x, y, w, rm z.
      expect([r.pushed, r.skipped]).toEqual([5, []]);
      expect(await paths(c)).toEqual(["b", "b/node_modules", "b/node_modules/m", "b/w", "b/x", "b/y"]);
      expect([await c.text("b/x"), await c.text("b/y"), await c.text("b/w")]).toEqual(["y", "yy", "w"]);
    });
  });

  it("twice (a → b → c), back (a → b → a), and with a deletion between two renames", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      for (const d of ["a", "d", "g"]) {
        await ws.fs.mkdir(`/workspace/${d}/s`, { recursive: true });
        await ws.fs.writeFile(`/workspace/${d}/s/f`, d);
        await ws.fs.writeFile(`/workspace/${d}/k`, d);
      }
      expect((await sh(ws, "for d in a d g; do mkdir -p $d/node_modules && echo $d > $d/node_modules/n; done")).exitCode).toBe(0);
      await ws.fs.rename("/workspace/a", "/workspace/b");
      await ws.fs.rename("/workspace/b", "/workspace/c");
      await ws.fs.rename("/workspace/d", "/workspace/e");
      await ws.fs.rename("/workspace/e", "/workspace/d");
      await ws.fs.rename("/workspace/g", "/workspace/t");
      await ws.fs.rm("/workspace/t/s", { recursive: true });
      await ws.fs.rename("/workspace/t", "/workspace/h");
      const r = await sh(ws, "true");
      // rename a → c, rename g → h, rm h/s.
      expect([r.pushed, r.skipped]).toEqual([3, []]);
      expect(await paths(c)).toEqual([
        "c", "c/k", "c/node_modules", "c/node_modules/n", "c/s", "c/s/f",
        "d", "d/k", "d/node_modules", "d/node_modules/n", "d/s", "d/s/f",
        "h", "h/k", "h/node_modules", "h/node_modules/n",
      ]);
      expect([await c.text("c/node_modules/n"), await c.text("d/node_modules/n"), await c.text("h/node_modules/n")]).toEqual(["a\n", "d\n", "g\n"]);
    });
  });

  it("over an empty directory, with names holding newlines", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a\nb", { recursive: true });
      await ws.fs.writeFile("/workspace/a\nb/f\n", "f");
      await ws.fs.mkdir("/workspace/empty", { recursive: true });
      expect((await sh(ws, "d=$(printf 'a\\nb') && mkdir -p \"$d/node_modules\" && echo n > \"$d/node_modules/n\"")).exitCode).toBe(0);
      await ws.fs.rename("/workspace/a\nb", "/workspace/empty");
      const r = await sh(ws, "true");
      expect([r.pushed, r.skipped]).toEqual([1, []]);
      expect(await paths(c)).toEqual(["empty", "empty/f\n", "empty/node_modules", "empty/node_modules/n"]);
      await ws.fs.rename("/workspace/empty", "/workspace/c\nd");
      const s = await sh(ws, "true");
      expect([s.pushed, s.skipped]).toEqual([1, []]);
      expect(await paths(c)).toEqual(["c\nd", "c\nd/f\n", "c\nd/node_modules", "c\nd/node_modules/n"]);
    });
  });

  it("over a directory where the container holds entries of its own: rename(2) refuses (ENOTEMPTY), pushed as a deletion and a re-creation", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a", { recursive: true });
      await ws.fs.writeFile("/workspace/a/f", "f");
      await ws.fs.mkdir("/workspace/b", { recursive: true });
      expect((await sh(ws, "mkdir -p a/node_modules b/node_modules && echo a > a/node_modules/n && echo b > b/node_modules/n")).exitCode).toBe(0);
      await ws.fs.rename("/workspace/a", "/workspace/b");
      const r = await sh(ws, "true");
      expect(r.skipped).toEqual([]);
      // As before the fix: a removed with what it held, b keeps its own node_modules and gets the Workspace's files.
      expect(await paths(c)).toEqual(["b", "b/f", "b/node_modules", "b/node_modules/n"]);
      expect(await c.text("b/node_modules/n")).toBe("b\n");
    });
  });

  it("a swap through a third name (a → t, b → a, t → b) leaves the container as the Workspace", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      for (const d of ["a", "b"]) {
        await ws.fs.mkdir(`/workspace/${d}`, { recursive: true });
        await ws.fs.writeFile(`/workspace/${d}/${d}`, d);
      }
      expect((await sh(ws, "true")).pushed).toBe(4);
      await ws.fs.rename("/workspace/a", "/workspace/t");
      await ws.fs.rename("/workspace/b", "/workspace/a");
      await ws.fs.rename("/workspace/t", "/workspace/b");
      const r = await sh(ws, "true");
      expect(r.skipped).toEqual([]);
      expect(await paths(c)).toEqual(["a", "a/b", "b", "b/a"]);
      expect([await c.text("a/b"), await c.text("b/a")]).toEqual(["b", "a"]);
    });
  });

  it("while a command writes into the directory (the container wins): nothing is lost, the container's entries stay at the old path", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/a", { recursive: true });
      await ws.fs.writeFile("/workspace/a/x", "x");
      expect((await sh(ws, "mkdir a/node_modules && echo n > a/node_modules/n")).pushed).toBe(2);
      const run = await ws.runtime.exec(`${waitFor("go")} && echo c > a/new`, { backend: "box", encoding: "utf8", timeoutMs: 60_000 });
      await ws.fs.rename("/workspace/a", "/workspace/b");
      await c.put("go", "");
      const r = await run.result();
      expect([r.exitCode, r.pushed]).toEqual([0, 0]);
      // The command's a/new was pulled back into the Workspace at a/ (the container's change wins).
      expect([...(await workspaceTree(ws)).keys()].sort()).toEqual(["a", "a/new", "b", "b/x", "go"]);
      const next = await sh(ws, "true");
      expect(next.skipped).toEqual([]);
      // Pushed as a deletion of what the Workspace moved (a/x) and the entries at b: the container's a/new and
      // a/node_modules stay where the command wrote them.
      expect(await paths(c)).toEqual(["a", "a/new", "a/node_modules", "a/node_modules/n", "b", "b/x", "go"]);
      expect(await c.text("a/new")).toBe("c\n");
    });
  });

  it("a manifest made by an earlier version gains the inode columns; its directories then rename once synced again", async () => {
    const c = await startContainer(IGNORE);
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      // The table as run 35 made it (no ino, no wsig).
      state.storage.sql.exec(`CREATE TABLE __ws_sync_manifest (
        backend TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, mode INTEGER NOT NULL, size INTEGER NOT NULL,
        mtime REAL NOT NULL, ctime REAL NOT NULL, target TEXT, rev INTEGER NOT NULL, PRIMARY KEY (backend, path)) WITHOUT ROWID`);
      const ws = new Workspace({ storage: state.storage, backends: [new TestBackend({ url: c.url, secret: c.secret, id: "box" })] });
      try {
        await ws.fs.mkdir("/workspace/a", { recursive: true });
        await ws.fs.writeFile("/workspace/a/f", "f");
        expect((await sh(ws, "mkdir a/node_modules && echo n > a/node_modules/n")).pushed).toBe(2);
        const columns = [...state.storage.sql.exec(`SELECT name FROM pragma_table_info('__ws_sync_manifest')`)].map((r) => r.name);
        expect(columns).toEqual(["backend", "path", "kind", "mode", "size", "mtime", "ctime", "target", "rev", "ino", "wsig"]);
        await ws.fs.rename("/workspace/a", "/workspace/b");
        expect((await sh(ws, "true")).pushed).toBe(1);
        expect(await paths(c)).toEqual(["b", "b/f", "b/node_modules", "b/node_modules/n"]);
      } finally {
        await ws.close();
      }
    });
  });

  it("a 5,000-file tree is renamed with one op and no bytes", async () => {
    const c = await startContainer(IGNORE);
    await inWorkspace(c, async (ws) => {
      for (let d = 0; d < 50; d++) {
        await ws.fs.mkdir(`/workspace/big/d${d}`, { recursive: true });
        for (let f = 0; f < 100; f++) await ws.fs.writeFile(`/workspace/big/d${d}/f${f}`, "x");
      }
      const first = await sh(ws, "mkdir big/node_modules && echo n > big/node_modules/n");
      expect(first.pushed).toBe(5051);
      await ws.fs.rename("/workspace/big", "/workspace/moved");
      const r = await sh(ws, "find moved -type f | wc -l && cat moved/node_modules/n");
      expect([r.stdout, r.pushed, r.skipped]).toEqual(["5001\nn\n", 1, []]);
    });
  });
});
