/**
 * Path keys (schema 3, `src/fs/path-key.ts`): every node's `path_key` is its
 * physical path, kept through every change; a path without links resolves in
 * one statement whatever its depth; `find` reads O(limit + depth) rows and
 * never reads below an excluded directory; a schema-2 store is upgraded when
 * opened. Rows read are the store's own counts (`cursor.rowsRead`).
 */
import { describe, expect } from "vitest";
import { compileGlob } from "../../../src/fs/glob.js";
import { childKey } from "../../../src/fs/path-key.js";
import { SCHEMA_VERSION } from "../../../src/fs/schema.js";
import { expectFsError, fsIt, type FsHarness, type FsTestContext } from "./harness.js";
import { populate, snapshotTree } from "./storage.cases.js";

/** Names that sort around the key separator and escapes. */
const TRICKY = ["a", "a.b", "a b", "a\u0001", "a\u0002z", "a\u0001\u0002", "A", "é", "z", "😀", "\u0003"];

/** Every node's key must be its parent's key plus its escaped name; `/` has `""`. */
function expectKeysConsistent(t: FsTestContext): void {
  const rows = t.sql<{ ino: number; parent: number; name: string; key: string | null }>("SELECT ino, parent, name, path_key AS key FROM __ws_nodes");
  const byIno = new Map(rows.map((row) => [Number(row.ino), row]));
  for (const row of rows) {
    if (Number(row.ino) === 1) {
      expect(row.key).toBe("");
      continue;
    }
    const parent = byIno.get(Number(row.parent));
    expect(parent, `parent of ${row.name}`).toBeDefined();
    expect(row.key, `key of ${JSON.stringify(row.name)}`).toBe(childKey(parent!.key!, row.name));
  }
}

/** DFS pre-order built from `readdir` (ordered by the (parent, name) index, not by keys). */
async function readdirWalk(t: FsTestContext, dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await t.fs.readdir(dir)) {
    const path = `${dir === "/" ? "" : dir}/${entry.name}`;
    out.push(path);
    if (entry.isDirectory) out.push(...(await readdirWalk(t, path, prefix)));
  }
  return out;
}

async function trickyTree(t: FsTestContext): Promise<void> {
  for (const name of TRICKY) {
    await t.fs.mkdir(`/t/${name}`, { recursive: true });
    for (const child of TRICKY.slice(0, 4)) await t.fs.writeFile(`/t/${name}/${child}`, `${name}/${child}`);
  }
}

function rowsRead(t: FsTestContext): number {
  return t.workspace.db.rowsRead;
}

export function definePathKeyCases(h: FsHarness): void {
  describe("path keys (schema 3)", () => {
    fsIt(h, "every node's key is its physical path through mkdir, writes, links, renames and rm -r", async (t) => {
      await populate(t);
      await trickyTree(t);
      expectKeysConsistent(t);
      await t.fs.rename("/t/a", "/t/moved");
      await t.fs.rename("/t/moved", "/w/src/deep/moved");
      await t.fs.mkdir("/t/empty");
      await t.fs.rename("/t/a.b", "/t/empty"); // a directory over an empty one
      await t.fs.rename("/w/src/a.ts", "/t/z/a"); // a file over a file
      await t.fs.mkdir("/w/link-dir-target", { recursive: true });
      await t.fs.symlink("link-dir-target", "/w/ld");
      await t.fs.mkdir("/w/ld/made/deeper", { recursive: true }); // created under the link's target
      await t.fs.writeFile("/w/ld/made/f", "through a link");
      await t.fs.rm("/t/é", { recursive: true });
      await t.fs.rename("/w", "/t/\u0001w");
      expectKeysConsistent(t);
      expect(await t.fs.readFile("/t/\u0001w/link-dir-target/made/f", "utf8")).toBe("through a link");
      expect(await t.fs.readFile("/t/\u0001w/src/deep/moved/a.b", "utf8")).toBe("a/a.b");
      expect(await t.fs.readFile("/t/empty/a\u0001", "utf8")).toBe("a.b/a\u0001");
      expect((await t.fs.stat("/t/\u0001w/ld/made/deeper")).isDirectory).toBe(true);
      await expectFsError(t.fs.stat("/t/a/a"), "ENOENT");
      await expectFsError(t.fs.stat("/w/src"), "ENOENT");
    });

    fsIt(h, "find walks keys in depth-first name byte order, as readdir orders siblings", async (t) => {
      await trickyTree(t);
      const found = (await t.fs.find("/t")).map((entry) => entry.path);
      expect(found).toEqual(await readdirWalk(t, "/t"));
      expect(found.slice(0, 6)).toEqual(["/t/\u0003", "/t/\u0003/a", "/t/\u0003/a\u0001", "/t/\u0003/a b", "/t/\u0003/a.b", "/t/A"]);
      expect(found.slice(found.indexOf("/t/a"), found.indexOf("/t/a") + 7)).toEqual([
        "/t/a",
        "/t/a/a",
        "/t/a/a\u0001",
        "/t/a/a b",
        "/t/a/a.b",
        "/t/a\u0001",
        "/t/a\u0001/a",
      ]);
      const paged = [];
      for (let offset = 0; offset < found.length; offset += 7) paged.push(...(await t.fs.find("/t", undefined, { offset, limit: 7 })).map((e) => e.path));
      expect(paged).toEqual(found);
    });

    fsIt(h, "find with a pattern finds exactly the entries its glob matches (the store pre-filters on a plain suffix)", async (t) => {
      await trickyTree(t);
      await t.fs.mkdir("/t/src/deep", { recursive: true });
      for (const name of ["a.ts", "b.md", "index.ts", "x.\u212A", "y.K", "z.k", "d.ts.bak", "e\u0301.ts", "\u00e9.ts"]) await t.fs.writeFile(`/t/src/deep/${name}`, name);
      await t.fs.mkdir("/t/src/dir.ts");
      const all = await t.fs.find("/t");
      for (const pattern of ["**/*.ts", "*.ts", "**/*.md", "**/index.ts", "**/*.K", "**/*.k", "**/*.{ts,md}", "src/**", "**/dir.ts", "**/*.ts.bak", "**/\u00e9.ts", "a*", "**/a"]) {
        const matches = compileGlob(pattern);
        const expected = all.filter((entry) => matches(entry.path.slice("/t/".length)));
        expect(await t.fs.find("/t", pattern), pattern).toEqual(expected);
      }
    });

    fsIt(h, "stat of a path without links is one statement, whatever its depth", async (t) => {
      const deep = "/d/" + Array.from({ length: 10 }, (_, i) => `x${i}`).join("/");
      await t.fs.mkdir(deep, { recursive: true });
      await t.fs.mkdir("/s/x", { recursive: true });
      await t.fs.writeFile(`${deep}/f`, "deep");
      await t.fs.writeFile("/s/x/f", "shallow");
      const cost = async (path: string) => {
        const [statements, rows] = [t.workspace.db.statements, rowsRead(t)];
        await t.fs.stat(path);
        await t.fs.readFile(path, "utf8");
        return [t.workspace.db.statements - statements, rowsRead(t) - rows];
      };
      const shallow = await cost("/s/x/f");
      expect(shallow[0]).toBe(2);
      expect(await cost(`${deep}/f`)).toEqual(shallow);
    });

    fsIt(h, "a path 150 segments deep: created, found, walked, and missing names under it", async (t) => {
      const deep = "/" + Array.from({ length: 150 }, (_, i) => `s${i}`).join("/");
      await t.fs.mkdir(deep, { recursive: true });
      await t.fs.writeFile(`${deep}/f`, "deep");
      await t.fs.symlink("s149", `${deep.slice(0, deep.lastIndexOf("/"))}/ln`);
      expect(await t.fs.readFile(`${deep}/f`, "utf8")).toBe("deep");
      expect(await t.fs.readFile(`${deep.slice(0, deep.lastIndexOf("/"))}/ln/f`, "utf8")).toBe("deep");
      await expectFsError(t.fs.stat(`${deep}/missing/x`), "ENOENT");
      await expectFsError(t.fs.writeFile(`${deep}/f/x`, "x"), "ENOTDIR");
      expect((await t.fs.find("/s0", "**/f")).map((e) => e.path)).toEqual([`${deep}/f`]);
      await t.fs.rename("/s0", "/r0");
      expect(await t.fs.readFile(`/r0${deep.slice(3)}/f`, "utf8")).toBe("deep");
      expectKeysConsistent(t);
    });

    fsIt(h, "a path through a linked directory resolves as before (segment walk past the link)", async (t) => {
      await t.fs.mkdir("/real/a/b", { recursive: true });
      await t.fs.writeFile("/real/a/b/f", "x");
      await t.fs.symlink("/real/a", "/ln");
      await t.fs.symlink("../ln/b", "/real/rel");
      await t.fs.symlink("loop2", "/loop1");
      await t.fs.symlink("loop1", "/loop2");
      expect(await t.fs.readFile("/ln/b/f", "utf8")).toBe("x");
      expect(await t.fs.readFile("/real/rel/f", "utf8")).toBe("x");
      expect((await t.fs.stat("/ln")).isDirectory).toBe(true);
      expect((await t.fs.lstat("/ln")).isSymbolicLink).toBe(true);
      await expectFsError(t.fs.stat("/loop1/x"), "ELOOP");
      await expectFsError(t.fs.stat("/ln/b/f/g"), "ENOENT");
      expect(await t.fs.find("/ln")).toEqual([
        { path: "/ln/b", type: "dir" },
        { path: "/ln/b/f", type: "file" },
      ]);
    });

    fsIt(h, "find's first page reads O(limit + depth) rows, at 10× the files too", async (t) => {
      const build = async (root: string, files: number) => {
        for (let i = 0; i < files; i++) {
          if (i % 10 === 0) await t.fs.mkdir(`${root}/a${Math.floor(i / 100)}/b${Math.floor(i / 10) % 10}`, { recursive: true });
          await t.fs.writeFile(`${root}/a${Math.floor(i / 100)}/b${Math.floor(i / 10) % 10}/f${i % 10}.${i % 2 ? "md" : "ts"}`, `${root}${i}`);
        }
      };
      await build("/small", 100);
      await build("/large", 1000);
      const page = async (root: string) => {
        const before = rowsRead(t);
        const found = await t.fs.find(root, "**/*.ts", { limit: 20 });
        expect(found.length).toBe(20);
        return rowsRead(t) - before;
      };
      const small = await page("/small");
      const large = await page("/large");
      expect(large).toBe(small);
      // 20 matches are 40 files and 5 directories; plus the root's lookup and a page's slack.
      expect(large).toBeLessThanOrEqual(2 * 20 + 5 + 20);
    });

    fsIt(h, "find never reads below an excluded directory", async (t) => {
      for (let i = 0; i < 300; i++) {
        if (i % 50 === 0) await t.fs.mkdir(`/w/node_modules/p${i / 50}`, { recursive: true });
        await t.fs.writeFile(`/w/node_modules/p${Math.floor(i / 50)}/f${i}`, `m${i}`);
      }
      await t.fs.writeFile("/w/a.ts", "a");
      await t.fs.writeFile("/w/z.ts", "z");
      const before = rowsRead(t);
      const found = await t.fs.find("/w", undefined, { exclude: ["node_modules"] });
      const rows = rowsRead(t) - before;
      expect(found.map((e) => e.path)).toEqual(["/w/a.ts", "/w/z.ts"]);
      expect(rows).toBeLessThan(40);
      const grepBefore = rowsRead(t);
      expect((await t.fs.grep("m1", "/w", { exclude: ["node_modules/**"] })).length).toBe(0);
      expect(rowsRead(t) - grepBefore).toBeLessThan(60);
    });

    fsIt(h, "removing a file sweeps its chunk without reading every chunk of the store", async (t) => {
      await t.fs.mkdir("/many");
      for (let i = 0; i < 300; i++) await t.fs.writeFile(`/many/f${i}`, `distinct ${i}`);
      const before = rowsRead(t);
      await t.fs.rm("/many/f7");
      expect(rowsRead(t) - before).toBeLessThan(20);
    });

    fsIt(h, "a schema-2 store (no path keys) is upgraded when opened", async (t) => {
      await populate(t);
      await trickyTree(t);
      const before = await snapshotTree(t);
      t.sql("DROP INDEX __ws_nodes_key");
      t.sql("ALTER TABLE __ws_nodes DROP COLUMN path_key");
      t.sql("DROP INDEX __ws_chunks_unreferenced");
      t.sql("CREATE INDEX __ws_chunks_orphans ON __ws_chunks (id) WHERE refs = 0");
      t.sql("UPDATE __ws_meta SET value = 2 WHERE key = 'schema'");
      t.reopen();
      expect(Number(t.sql<{ value: number }>("SELECT value FROM __ws_meta WHERE key = 'schema'")[0].value)).toBe(SCHEMA_VERSION);
      expectKeysConsistent(t);
      const indexes = t.sql<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '__ws_%' ORDER BY name").map((row) => row.name);
      expect(indexes).toContain("__ws_nodes_key");
      expect(indexes).toContain("__ws_chunks_unreferenced");
      expect(indexes).not.toContain("__ws_chunks_orphans");
      expect(await snapshotTree(t)).toEqual(before);
      await t.fs.rename("/t", "/t2");
      expectKeysConsistent(t);
      expect(await t.fs.readFile("/t2/a\u0002z/a b", "utf8")).toBe("a\u0002z/a b");
    });
  });
}
