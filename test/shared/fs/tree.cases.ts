/**
 * Spec 01 §3.2–§3.3 and §3.6: mkdir, readdir, stat/lstat, rm, rename,
 * symlink, readlink, chmod — success shapes, metadata and every error row.
 */
import { describe, expect } from "vitest";
import { byteOrder, expectFsError, expectTypeError, fsIt, type FsHarness, type FsTestContext } from "./harness.js";

const BAD_PAGE_VALUES: readonly unknown[] = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "1"];

async function names(t: FsTestContext, p: string): Promise<string[]> {
  return (await t.fs.readdir(p)).map((e) => e.name);
}

export function defineTreeCases(h: FsHarness): void {
  describe("mkdir", () => {
    fsIt(h, "creates the leaf with mode ?? 0o755 (masked), mtime = now, parent mtime unchanged", async (t) => {
      const rootMtime = (await t.fs.stat("/")).mtime;
      t.clock.advance(777);
      await t.fs.mkdir("/a");
      await t.fs.mkdir("/b", { mode: 0o700 });
      await t.fs.mkdir("/c", { mode: 0o40750 });
      expect(await t.fs.stat("/a")).toMatchObject({ mode: 0o755, mtime: t.clock.value, size: 0, isDirectory: true, isFile: false, isSymbolicLink: false });
      expect((await t.fs.stat("/b")).mode).toBe(0o700);
      expect((await t.fs.stat("/c")).mode).toBe(0o750);
      await t.fs.mkdir("/zero", { mode: 0 });
      expect((await t.fs.stat("/zero")).mode).toBe(0);
      expect((await t.fs.stat("/")).mtime).toBe(rootMtime);
    });

    fsIt(h, "recursive creates missing ancestors (0o755) and the leaf (mode)", async (t) => {
      await t.fs.mkdir("/a/b/c", { recursive: true, mode: 0o700 });
      expect((await t.fs.stat("/a")).mode).toBe(0o755);
      expect((await t.fs.stat("/a/b")).mode).toBe(0o755);
      expect((await t.fs.stat("/a/b/c")).mode).toBe(0o700);
      await t.fs.mkdir("/a/b/c", { recursive: true }); // silent success
      await t.fs.mkdir("/a", { recursive: true, mode: 0o711 }); // existing dir untouched
      expect((await t.fs.stat("/a")).mode).toBe(0o755);
    });

    fsIt(h, "error rows in check order", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/f", "x");
      await t.fs.symlink("/d", "/dl");
      await t.fs.symlink("/nowhere", "/dangling");
      await expectFsError(t.fs.mkdir("/"), "EEXIST");
      await expectFsError(t.fs.mkdir("/no/x"), "ENOENT");
      await expectFsError(t.fs.mkdir("/dangling/x"), "ENOENT");
      await expectFsError(t.fs.mkdir("/dangling/x", { recursive: true }), "ENOENT");
      await expectFsError(t.fs.mkdir("/f/x"), "ENOTDIR");
      await expectFsError(t.fs.mkdir("/f/x/y", { recursive: true }), "ENOTDIR");
      await expectFsError(t.fs.mkdir("/d"), "EEXIST", "/d");
      await expectFsError(t.fs.mkdir("/f"), "EEXIST", "/f");
      await expectFsError(t.fs.mkdir("/f", { recursive: true }), "EEXIST", "/f");
      await expectFsError(t.fs.mkdir("/dl"), "EEXIST", "/dl");
      await expectFsError(t.fs.mkdir("/dl", { recursive: true }), "EEXIST", "/dl");
      await expectFsError(t.fs.mkdir("/dangling", { recursive: true }), "EEXIST");
      await expectFsError(t.fs.stat("/nowhere"), "ENOENT");
      expect(await names(t, "/")).toEqual(["d", "dangling", "dl", "f"]);
    });

    fsIt(h, "links in the parent chain are followed (new dirs land under the resolved location)", async (t) => {
      await t.fs.mkdir("/real");
      await t.fs.symlink("/real", "/l");
      await t.fs.mkdir("/l/new");
      expect((await t.fs.stat("/real/new")).isDirectory).toBe(true);
      await t.fs.mkdir("/l/x/y", { recursive: true });
      expect((await t.fs.stat("/real/x/y")).isDirectory).toBe(true);
      expect((await t.fs.lstat("/l")).isSymbolicLink).toBe(true);
    });
  });

  describe("readdir", () => {
    fsIt(h, "children by unsigned UTF-8 byte order, exact entry shapes", async (t) => {
      const all = ["a", "B", "é", "😀", "\uE000", "Z", "_", "ab", "a b", "A", "~"];
      await t.fs.mkdir("/d");
      t.clock.advance(100);
      for (const n of all) await t.fs.writeFile(`/d/${n}`, n);
      const listed = await names(t, "/d");
      expect(listed).toEqual([...all].sort(byteOrder));
      expect(listed).toEqual(["A", "B", "Z", "_", "a", "a b", "ab", "~", "é", "\uE000", "😀"]);
      await t.fs.mkdir("/e");
      t.clock.advance(5);
      await t.fs.writeFile("/e/file", "12345");
      await t.fs.mkdir("/e/sub", { mode: 0o700 });
      await t.fs.symlink("file", "/e/link");
      const now = t.clock.value;
      expect(await t.fs.readdir("/e")).toEqual([
        { name: "file", parentPath: "/e", size: 5, mtime: now, isFile: true, isDirectory: false, isSymbolicLink: false },
        { name: "link", parentPath: "/e", size: 4, mtime: now, isFile: false, isDirectory: false, isSymbolicLink: true },
        { name: "sub", parentPath: "/e", size: 0, mtime: now, isFile: false, isDirectory: true, isSymbolicLink: false },
      ]);
      expect((await t.fs.readdir("/e/sub")).length).toBe(0);
    });

    fsIt(h, "limit/offset paginate; limit 0 → []; no maximum", async (t) => {
      await t.fs.mkdir("/d");
      const n = 300;
      const all = Array.from({ length: n }, (_, i) => `f${String(i).padStart(3, "0")}`);
      for (const name of all) await t.fs.writeFile(`/d/${name}`, "");
      expect(await names(t, "/d")).toEqual(all);
      expect((await t.fs.readdir("/d", { limit: 0 }))).toEqual([]);
      expect((await t.fs.readdir("/d", { offset: 0, limit: 5 })).map((e) => e.name)).toEqual(all.slice(0, 5));
      expect((await t.fs.readdir("/d", { offset: 250, limit: 10 })).map((e) => e.name)).toEqual(all.slice(250, 260));
      expect((await t.fs.readdir("/d", { offset: 295 })).map((e) => e.name)).toEqual(all.slice(295));
      expect(await t.fs.readdir("/d", { offset: 300 })).toEqual([]);
      expect(await t.fs.readdir("/d", { offset: 5000, limit: 3 })).toEqual([]);
      expect((await t.fs.readdir("/d", { limit: 1000 })).length).toBe(300);
    });

    fsIt(h, "bad limit/offset → TypeError; error rows in check order", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/f", "x");
      await t.fs.symlink("/nowhere", "/dangling");
      for (const bad of BAD_PAGE_VALUES) {
        await expectTypeError(t.fs.readdir("/d", { limit: bad as number }));
        await expectTypeError(t.fs.readdir("/d", { offset: bad as number }));
      }
      await expectFsError(t.fs.readdir("/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.readdir("/dangling"), "ENOENT");
      await expectFsError(t.fs.readdir("/f"), "ENOTDIR", "/f");
      // check order: path errors come before option errors
      await expectFsError(t.fs.readdir("", { limit: -1 }), "EINVAL");
      await expectFsError(t.fs.readdir("/missing", { limit: -1 }), "ENOENT");
      await expectFsError(t.fs.readdir("/f", { offset: -1 }), "ENOTDIR");
    });

    fsIt(h, "follows a final link; parentPath is the canonical requested path", async (t) => {
      await t.fs.mkdir("/real");
      await t.fs.writeFile("/real/x", "");
      await t.fs.symlink("/real", "/l");
      expect(await t.fs.readdir("/l//")).toEqual([
        { name: "x", parentPath: "/l", size: 0, mtime: t.clock.value, isFile: true, isDirectory: false, isSymbolicLink: false },
      ]);
      expect((await t.fs.readdir("/")).map((e) => e.parentPath)).toEqual(["/", "/"]);
    });
  });

  describe("stat / lstat", () => {
    fsIt(h, "exact shapes for file, directory, link (stat follows, lstat reports the link)", async (t) => {
      t.clock.set(1_000);
      await t.fs.writeFile("/f", "é!", { mode: 0o640 });
      t.clock.set(2_000);
      await t.fs.mkdir("/d", { mode: 0o711 });
      t.clock.set(3_000);
      await t.fs.symlink("/f", "/l");
      await t.fs.symlink("é😀", "/weird");
      const f = await t.fs.stat("/f");
      expect(f).toEqual({ name: "f", inode: f.inode, mode: 0o640, mtime: 1_000, size: 3, isFile: true, isDirectory: false, isSymbolicLink: false });
      expect(Number.isSafeInteger(f.inode) && f.inode > 1).toBe(true);
      const d = await t.fs.stat("/d");
      expect(d).toEqual({ name: "d", inode: d.inode, mode: 0o711, mtime: 2_000, size: 0, isFile: false, isDirectory: true, isSymbolicLink: false });
      expect(await t.fs.stat("/l")).toEqual({ ...f, name: "l" });
      const l = await t.fs.lstat("/l");
      expect(l).toEqual({ name: "l", inode: l.inode, mode: 0o777, mtime: 3_000, size: 2, isFile: false, isDirectory: false, isSymbolicLink: true });
      expect(new Set([f.inode, d.inode, l.inode, 1]).size).toBe(4);
      expect((await t.fs.lstat("/weird")).size).toBe(3); // UTF-16 code units
      expect(await t.fs.lstat("/f")).toEqual(f);
    });

    fsIt(h, "dangling: lstat succeeds, stat → ENOENT; error rows", async (t) => {
      await t.fs.symlink("/nowhere", "/dangling");
      await t.fs.writeFile("/f", "");
      expect((await t.fs.lstat("/dangling")).isSymbolicLink).toBe(true);
      await expectFsError(t.fs.stat("/dangling"), "ENOENT");
      await expectFsError(t.fs.stat("/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.lstat("/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.lstat("/f/x"), "ENOENT");
      await expectFsError(t.fs.lstat("/dangling/x"), "ENOENT");
    });

    fsIt(h, "inode: / is 1, kept across overwrite and rename, never reused", async (t) => {
      const seen = new Set<number>([1]);
      await t.fs.writeFile("/f", "1");
      const f = (await t.fs.stat("/f")).inode;
      seen.add(f);
      await t.fs.writeFile("/f", "2");
      expect((await t.fs.stat("/f")).inode).toBe(f);
      await t.fs.writeFile("/f", new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array([3])), c.close()) }));
      expect((await t.fs.stat("/f")).inode).toBe(f);
      await t.fs.mkdir("/d");
      await t.fs.rename("/f", "/d/g");
      expect((await t.fs.stat("/d/g")).inode).toBe(f);
      const d = (await t.fs.stat("/d")).inode;
      seen.add(d);
      await t.fs.rename("/d", "/e");
      expect((await t.fs.stat("/e")).inode).toBe(d);
      await t.fs.rm("/e", { recursive: true });
      for (let i = 0; i < 5; i++) {
        await t.fs.writeFile(`/n${i}`, "");
        await t.fs.mkdir(`/m${i}`);
        await t.fs.symlink("x", `/s${i}`);
        for (const p of [`/n${i}`, `/m${i}`, `/s${i}`]) {
          const inode = (await t.fs.lstat(p)).inode;
          expect(seen.has(inode), `${p} reused inode ${inode}`).toBe(false);
          expect(Number.isSafeInteger(inode) && inode > 0).toBe(true);
          seen.add(inode);
        }
        await t.fs.rm(`/n${i}`);
        await t.fs.rm(`/m${i}`);
        await t.fs.rm(`/s${i}`);
      }
    });

    fsIt(h, "mtime: chmod updates it, children never change a directory's mtime, rename keeps it", async (t) => {
      t.clock.set(10_000);
      await t.fs.mkdir("/d");
      await t.fs.mkdir("/e");
      t.clock.set(20_000);
      await t.fs.writeFile("/d/f", "x");
      await t.fs.mkdir("/d/sub");
      await t.fs.symlink("f", "/d/l");
      t.clock.set(30_000);
      await t.fs.writeFile("/d/f", "y");
      await t.fs.rename("/d/f", "/e/f");
      await t.fs.rm("/d/sub");
      await t.fs.rename("/d/l", "/d/l2");
      expect((await t.fs.stat("/d")).mtime).toBe(10_000);
      expect((await t.fs.stat("/e")).mtime).toBe(10_000);
      expect((await t.fs.stat("/e/f")).mtime).toBe(30_000);
      expect((await t.fs.lstat("/d/l2")).mtime).toBe(20_000);
      t.clock.set(40_000);
      await t.fs.chmod("/e/f", 0o600);
      expect(await t.fs.stat("/e/f")).toMatchObject({ mode: 0o600, mtime: 40_000 });
      t.clock.set(50_000);
      await t.fs.chmod("/d", 0o700);
      expect(await t.fs.stat("/d")).toMatchObject({ mode: 0o700, mtime: 50_000 });
    });
  });

  describe("rm", () => {
    fsIt(h, "removes a file, a link (never its target), an empty directory", async (t) => {
      await t.fs.writeFile("/f", "x");
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/d/keep", "k");
      await t.fs.symlink("/d", "/ld");
      await t.fs.symlink("/f", "/lf");
      await t.fs.mkdir("/empty");
      await t.fs.rm("/lf");
      await t.fs.rm("/ld", { recursive: true });
      await t.fs.rm("/empty");
      expect(await t.fs.readFile("/f", "utf8")).toBe("x");
      expect(await t.fs.readFile("/d/keep", "utf8")).toBe("k");
      await t.fs.rm("/f");
      expect(await names(t, "/")).toEqual(["d"]);
      await expectFsError(t.fs.stat("/f"), "ENOENT");
    });

    fsIt(h, "recursive removes the whole subtree; force ignores missing paths only", async (t) => {
      await t.fs.mkdir("/d/a/b", { recursive: true });
      await t.fs.writeFile("/d/a/b/f", "x");
      await t.fs.writeFile("/d/g", "y");
      await t.fs.symlink("/d/g", "/d/a/l");
      await t.fs.writeFile("/d-sibling", "stay");
      await expectFsError(t.fs.rm("/d"), "ENOTEMPTY", "/d");
      await expectFsError(t.fs.rm("/d", { force: true }), "ENOTEMPTY", "/d");
      await t.fs.rm("/d", { recursive: true });
      for (const p of ["/d", "/d/a", "/d/a/b", "/d/a/b/f", "/d/g"]) await expectFsError(t.fs.lstat(p), "ENOENT");
      expect(await names(t, "/")).toEqual(["d-sibling"]);
      await expectFsError(t.fs.rm("/missing"), "ENOENT", "/missing");
      await t.fs.rm("/missing", { force: true });
      await t.fs.rm("/missing/parent/x", { force: true });
      await t.fs.rm("/d-sibling/x", { force: true });
      await expectFsError(t.fs.rm("/missing/parent/x"), "ENOENT");
      await t.fs.symlink("/l2", "/l1");
      await t.fs.symlink("/l1", "/l2");
      await expectFsError(t.fs.rm("/l1/x", { force: true }), "ELOOP");
      expect(await t.fs.readFile("/d-sibling", "utf8")).toBe("stay");
    });

    fsIt(h, "subtree removal is segment-aware, also with LIKE/GLOB metacharacters in names", async (t) => {
      for (const dir of ["/p_q", "/pxq", "/100%", "/100x", "/s*t", "/s[t", "/a", "/a-b", "/ab"]) {
        await t.fs.mkdir(dir);
        await t.fs.writeFile(`${dir}/f`, dir);
      }
      await t.fs.rm("/p_q", { recursive: true });
      await t.fs.rm("/100%", { recursive: true });
      await t.fs.rm("/s*t", { recursive: true });
      await t.fs.rm("/a", { recursive: true });
      expect(await t.fs.ls("/")).toEqual(["/100x/f", "/a-b/f", "/ab/f", "/pxq/f", "/s[t/f"]);
    });
  });

  describe("rename", () => {
    fsIt(h, "moves a file keeping inode, mtime, mode and content", async (t) => {
      t.clock.set(5_000);
      await t.fs.writeFile("/f", "content", { mode: 0o600 });
      const before = await t.fs.stat("/f");
      t.clock.set(9_000);
      await t.fs.mkdir("/d");
      await t.fs.rename("/f", "/d/g");
      expect(await t.fs.stat("/d/g")).toEqual({ ...before, name: "g" });
      expect(await t.fs.readFile("/d/g", "utf8")).toBe("content");
      await expectFsError(t.fs.stat("/f"), "ENOENT");
    });

    fsIt(h, "moves a directory with its subtree (segment-aware)", async (t) => {
      await t.fs.mkdir("/p_q/sub", { recursive: true });
      await t.fs.writeFile("/p_q/sub/f", "1");
      await t.fs.mkdir("/pxq");
      await t.fs.writeFile("/pxq/g", "2");
      await t.fs.writeFile("/p_q-x", "3");
      await t.fs.rename("/p_q", "/moved");
      expect(await t.fs.ls("/")).toEqual(["/moved/sub/f", "/p_q-x", "/pxq/g"]);
      expect(await t.fs.readFile("/moved/sub/f", "utf8")).toBe("1");
      expect(await t.fs.find("/moved")).toEqual([
        { path: "/moved/sub", type: "dir" },
        { path: "/moved/sub/f", type: "file" },
      ]);
    });

    fsIt(h, "moves a link itself; a relative target then resolves from the new place", async (t) => {
      await t.fs.mkdir("/a");
      await t.fs.mkdir("/b");
      await t.fs.writeFile("/a/t", "in a");
      await t.fs.writeFile("/b/t", "in b");
      await t.fs.symlink("t", "/a/l");
      const before = await t.fs.lstat("/a/l");
      await t.fs.rename("/a/l", "/b/l");
      expect(await t.fs.lstat("/b/l")).toEqual(before);
      expect(await t.fs.readlink("/b/l")).toBe("t");
      expect(await t.fs.readFile("/b/l", "utf8")).toBe("in b");
      expect(await t.fs.readFile("/a/t", "utf8")).toBe("in a");
    });

    fsIt(h, "replaces a destination of an agreeing kind", async (t) => {
      await t.fs.writeFile("/f1", "one");
      await t.fs.writeFile("/f2", "two");
      const f1 = (await t.fs.stat("/f1")).inode;
      await t.fs.rename("/f1", "/f2");
      expect(await t.fs.readFile("/f2", "utf8")).toBe("one");
      expect((await t.fs.stat("/f2")).inode).toBe(f1);
      await expectFsError(t.fs.stat("/f1"), "ENOENT");
      // link over file, file over link
      await t.fs.symlink("/f2", "/l");
      await t.fs.writeFile("/g", "g");
      await t.fs.rename("/l", "/g");
      expect(await t.fs.readlink("/g")).toBe("/f2");
      await t.fs.writeFile("/h", "h");
      await t.fs.rename("/h", "/g");
      expect((await t.fs.lstat("/g")).isFile).toBe(true);
      expect(await t.fs.readFile("/f2", "utf8")).toBe("one");
      // directory over an empty directory
      await t.fs.mkdir("/d1");
      await t.fs.writeFile("/d1/x", "x");
      await t.fs.mkdir("/d2");
      await t.fs.rename("/d1", "/d2");
      expect(await names(t, "/d2")).toEqual(["x"]);
      expect(await names(t, "/")).toEqual(["d2", "f2", "g"]);
    });

    fsIt(h, "error rows in check order", async (t) => {
      await t.fs.mkdir("/d/sub", { recursive: true });
      await t.fs.writeFile("/d/sub/x", "x");
      await t.fs.mkdir("/empty");
      await t.fs.writeFile("/f", "f");
      await t.fs.symlink("/f", "/lf");
      await t.fs.symlink("/d/sub", "/lsub");
      await expectFsError(t.fs.rename("/", "/x"), "EINVAL");
      await expectFsError(t.fs.rename("/missing", "/"), "EINVAL");
      await expectFsError(t.fs.rename("", "/x"), "EINVAL");
      await expectFsError(t.fs.rename("/f", "rel"), "EINVAL");
      await expectFsError(t.fs.rename("/missing", "/x"), "ENOENT");
      await expectFsError(t.fs.rename("/missing", "/missing"), "ENOENT");
      await expectFsError(t.fs.rename("/missing", "/nodir/x"), "ENOENT");
      await expectFsError(t.fs.rename("/f/x", "/y"), "ENOENT");
      await expectFsError(t.fs.rename("/f", "/nodir/x"), "ENOENT");
      await expectFsError(t.fs.rename("/f", "/f/x"), "ENOENT");
      await expectFsError(t.fs.rename("/f", "/lf/x"), "ENOENT");
      await expectFsError(t.fs.rename("/d", "/d/sub/inner"), "EINVAL");
      await expectFsError(t.fs.rename("/d", "/d/new"), "EINVAL");
      await expectFsError(t.fs.rename("/d", "/lsub/new"), "EINVAL"); // resolved location is inside /d
      await expectFsError(t.fs.rename("/d", "/d/sub/x"), "EINVAL"); // subtree before ENOTDIR
      await expectFsError(t.fs.rename("/f", "/empty"), "EISDIR");
      await expectFsError(t.fs.rename("/lf", "/empty"), "EISDIR");
      await expectFsError(t.fs.rename("/empty", "/f"), "ENOTDIR");
      await expectFsError(t.fs.rename("/empty", "/lf"), "ENOTDIR");
      await expectFsError(t.fs.rename("/empty", "/d"), "ENOTEMPTY");
      expect(await t.fs.ls("/")).toEqual(["/d/sub/x", "/f"]);
      expect(await names(t, "/")).toEqual(["d", "empty", "f", "lf", "lsub"]);
    });

    fsIt(h, "same path or same entry via links → no-op", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/d/f", "x");
      await t.fs.symlink("/d", "/l");
      const before = await t.fs.stat("/d/f");
      await t.fs.rename("/d/f", "/d/f");
      await t.fs.rename("/d/f", "/l/f");
      await t.fs.rename("/l/f", "/d//f/");
      await t.fs.rename("/d", "/d");
      await t.fs.rename("/l", "/l");
      expect(await t.fs.stat("/d/f")).toEqual(before);
      expect(await t.fs.readFile("/d/f", "utf8")).toBe("x");
      expect((await t.fs.lstat("/l")).isSymbolicLink).toBe(true);
    });

    fsIt(h, "either end's parent may be reached through links", async (t) => {
      await t.fs.mkdir("/a");
      await t.fs.mkdir("/b");
      await t.fs.symlink("/a", "/la");
      await t.fs.symlink("/b", "/lb");
      await t.fs.writeFile("/a/f", "f");
      await t.fs.rename("/la/f", "/lb/g");
      expect(await t.fs.readFile("/b/g", "utf8")).toBe("f");
      expect(await names(t, "/a")).toEqual([]);
    });
  });

  describe("symlink / readlink", () => {
    fsIt(h, "creates a link (mode 0o777, size = target length, mtime = now)", async (t) => {
      t.clock.set(123_456);
      await t.fs.symlink("some/where", "/l");
      const l = await t.fs.lstat("/l");
      expect(l).toEqual({ name: "l", inode: l.inode, mode: 0o777, mtime: 123_456, size: 10, isFile: false, isDirectory: false, isSymbolicLink: true });
      expect(await t.fs.readlink("/l")).toBe("some/where");
    });

    fsIt(h, "symlink error rows: parent chain is not link-followed", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/f", "x");
      await t.fs.symlink("/d", "/dl");
      await t.fs.symlink("/nowhere", "/dangling");
      await expectFsError(t.fs.symlink("x", "/"), "EEXIST");
      await expectFsError(t.fs.symlink("x", "/missing/l"), "ENOENT");
      await expectFsError(t.fs.symlink("x", "/f/l"), "ENOTDIR");
      await expectFsError(t.fs.symlink("x", "/dl/l"), "ENOTDIR");
      await expectFsError(t.fs.symlink("x", "/dangling/l"), "ENOTDIR");
      for (const p of ["/d", "/f", "/dl", "/dangling"]) await expectFsError(t.fs.symlink("x", p), "EEXIST", p);
      expect(await names(t, "/d")).toEqual([]);
    });

    fsIt(h, "readlink error rows; intermediate links are followed", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/f", "x");
      await t.fs.symlink("target", "/d/l");
      await t.fs.symlink("/d", "/dl");
      expect(await t.fs.readlink("/dl/l")).toBe("target");
      await expectFsError(t.fs.readlink("/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.readlink("/f/x"), "ENOENT");
      await expectFsError(t.fs.readlink("/f"), "EINVAL", "/f");
      await expectFsError(t.fs.readlink("/d"), "EINVAL", "/d");
      await t.fs.symlink("/loop2", "/loop1");
      await t.fs.symlink("/loop1", "/loop2");
      await expectFsError(t.fs.readlink("/loop1/x"), "ELOOP");
    });
  });

  describe("chmod", () => {
    fsIt(h, "follows links, stores mode & 0o7777, sets mtime", async (t) => {
      await t.fs.writeFile("/f", "x");
      await t.fs.symlink("/f", "/l");
      t.clock.advance(42);
      await t.fs.chmod("/l", 0o100700);
      expect(await t.fs.stat("/f")).toMatchObject({ mode: 0o700, mtime: t.clock.value });
      expect((await t.fs.lstat("/l")).mode).toBe(0o777);
      await t.fs.chmod("/f", 0o7777);
      expect((await t.fs.stat("/f")).mode).toBe(0o7777);
      await t.fs.chmod("/f", 0);
      expect((await t.fs.stat("/f")).mode).toBe(0);
    });

    fsIt(h, "error rows", async (t) => {
      await t.fs.symlink("/nowhere", "/dangling");
      await t.fs.symlink("/loop", "/loop");
      await expectFsError(t.fs.chmod("/missing", 0o600), "ENOENT", "/missing");
      await expectFsError(t.fs.chmod("/dangling", 0o600), "ENOENT");
      await expectFsError(t.fs.chmod("/loop", 0o600), "ELOOP");
      await expectFsError(t.fs.chmod("", 0o600), "EINVAL");
    });
  });
}
