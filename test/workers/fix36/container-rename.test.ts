/**
 * Issue 20, run 36, fixer RN — sibling of test/workers/attack35g/container-workspace-rename-destroys-ignored-dir.test.ts.
 * A Workspace rename of a synced directory is pushed to the container as the daemon's `rename` op
 * (src/runtime/sync.ts `#pushRename`), so what only the container holds in it — entries under an ignored glob
 * (`MOUNT_IGNORE=**\/node_modules`) — moves with it, as `mv` (rename(2)) moves it in bash; the moved files are not
 * sent again unless changed. The neighbourhood: a new parent, an edit before the push, two renames, a rename back,
 * a deletion inside the moved tree between two renames, a rename over an empty directory, names with newlines, a
 * rename over a directory where the container holds entries of its own (rename(2) answers ENOTEMPTY: pushed as a
 * deletion and a re-creation, as before), a swap through a third name (as before: content right), and the cost.
 * Every expected container tree is what `mv` gives in bash 5.2 on the same steps (the Workspace's own entries plus
 * the container's node_modules moved with their directory); `c.tree()` lists the daemon's disk, not the sync's view.
 * Figures: a rename of a 5,000-file tree (50 directories × 100 files) was pushed as 5,052 ops (rm, 51 mkdirs, 5,000
 * files, 5,000 × 1 byte); now 1 op, 0 bytes.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer, type LocalContainer } from "../container/helpers.js";

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
