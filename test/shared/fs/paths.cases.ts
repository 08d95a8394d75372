/**
 * Spec 01 §2 (canonical paths, errors, symlink rules) and root protections.
 */
import { describe, expect } from "vitest";
import {
  expectFsError,
  fsIt,
  noSyncThrow,
  type FsHarness,
  type FsTestContext,
} from "./harness.js";

const BAD_PATHS: readonly [string, string][] = [
  ["empty", ""],
  ["relative", "a/b"],
  ["relative single", "a"],
  ["NUL", "/a\0b"],
  ["escapes root", "/.."],
  ["escapes root twice", "/a/../.."],
];

/** Each method called with `p` as its (first) path argument. */
function pathCalls(t: FsTestContext): [string, (p: string) => Promise<unknown>][] {
  const fs = t.fs;
  return [
    ["readFile", (p) => fs.readFile(p)],
    ["readFile utf8", (p) => fs.readFile(p, "utf8")],
    ["writeFile", (p) => fs.writeFile(p, "x")],
    ["mkdir", (p) => fs.mkdir(p)],
    ["mkdir recursive", (p) => fs.mkdir(p, { recursive: true })],
    ["readdir", (p) => fs.readdir(p)],
    ["stat", (p) => fs.stat(p)],
    ["lstat", (p) => fs.lstat(p)],
    ["rm", (p) => fs.rm(p)],
    ["rm force", (p) => fs.rm(p, { recursive: true, force: true })],
    ["rename source", (p) => fs.rename(p, "/dst")],
    ["rename destination", (p) => fs.rename("/src", p)],
    ["symlink", (p) => fs.symlink("/src", p)],
    ["readlink", (p) => fs.readlink(p)],
    ["chmod", (p) => fs.chmod(p, 0o600)],
    ["find", (p) => fs.find(p)],
    ["ls", (p) => fs.ls(p)],
    ["grep", (p) => fs.grep("x", p)],
  ];
}

export function definePathCases(h: FsHarness): void {
  describe("§2.1 canonical paths", () => {
    for (const [label, bad] of BAD_PATHS) {
      fsIt(h, `bad path (${label}) → EINVAL from every method, as a rejection`, async (t) => {
        await t.fs.writeFile("/src", "s");
        for (const [method, call] of pathCalls(t)) {
          const promise = noSyncThrow(() => call(bad));
          const error = await expectFsError(promise, "EINVAL").catch((e: Error) => {
            throw new Error(`${method}(${JSON.stringify(bad)}): ${e.message}`);
          });
          expect(error).toBeInstanceOf(Error);
        }
        // nothing was created or removed
        expect(await t.fs.readFile("/src", "utf8")).toBe("s");
        expect((await t.fs.readdir("/")).map((e) => e.name)).toEqual(["src"]);
      });
    }

    fsIt(h, "a non-string path → EINVAL, as a rejection", async (t) => {
      for (const bad of [undefined, null, 42, {}, ["/a"]]) {
        for (const [method, call] of pathCalls(t)) {
          await expectFsError(noSyncThrow(() => call(bad as unknown as string)), "EINVAL").catch((e: Error) => {
            throw new Error(`${method}(${String(bad)}): ${e.message}`);
          });
        }
      }
    });

    fsIt(h, "empty and '.' segments are dropped, trailing slash ignored", async (t) => {
      await t.fs.mkdir("/a");
      await t.fs.writeFile("/a//b/", "B");
      expect(await t.fs.readFile("/a/b", "utf8")).toBe("B");
      expect(await t.fs.readFile("/a/./b", "utf8")).toBe("B");
      expect(await t.fs.readFile("//a///./b//", "utf8")).toBe("B");
      expect((await t.fs.stat("/a/./b/")).name).toBe("b");
      expect((await t.fs.readdir("/a//")).map((e) => e.parentPath)).toEqual(["/a"]);
    });

    fsIt(h, "'..' is lexical, before symlink resolution", async (t) => {
      await t.fs.mkdir("/x/y", { recursive: true });
      await t.fs.writeFile("/x/z", "Z");
      await t.fs.writeFile("/z", "root z");
      await t.fs.symlink("/x/y", "/p");
      const a = await t.fs.stat("/x/y/..");
      expect(a.name).toBe("x");
      expect(a.isDirectory).toBe(true);
      // /p/.. is / lexically, not /x
      const root = await t.fs.stat("/p/..");
      expect(root.inode).toBe(1);
      expect(root.name).toBe("");
      expect(await t.fs.readFile("/p/../z", "utf8")).toBe("root z");
      expect(await t.fs.readFile("/x/y/../z", "utf8")).toBe("Z");
      expect((await t.fs.stat("/x/y/../..")).inode).toBe(1);
    });

    fsIt(h, "names may hold any character but '/' and NUL; '\\' is ordinary", async (t) => {
      const names = ["a\\b", "é😀", " spaced name ", "colon:semi;", "tab\there", "new\nline", "%_*?[x]{a,b}", "..."];
      for (const name of names) await t.fs.writeFile(`/${name}`, name);
      for (const name of names) expect(await t.fs.readFile(`/${name}`, "utf8")).toBe(name);
      const listed = (await t.fs.readdir("/")).map((e) => e.name);
      expect([...listed].sort()).toEqual([...names].sort());
      const long = "n".repeat(3000);
      await t.fs.writeFile(`/${long}`, "long");
      expect((await t.fs.stat(`/${long}`)).name).toBe(long);
    });
  });

  describe("§2.2 errors", () => {
    fsIt(h, "WorkspaceFsError: name, code, path and a message ending in ': <path>'", async (t) => {
      const error = await expectFsError(t.fs.stat("/missing"), "ENOENT", "/missing");
      expect(error.message.match(/: \/missing/g)?.length).toBe(1);
      await expectFsError(t.fs.readFile("/missing/deeper", "utf8"), "ENOENT");
    });

    fsIt(h, "a file mid-path: ENOENT for read-side calls, ENOTDIR for writeFile/mkdir/symlink", async (t) => {
      await t.fs.writeFile("/f", "file");
      const p = "/f/x";
      await expectFsError(t.fs.stat(p), "ENOENT");
      await expectFsError(t.fs.lstat(p), "ENOENT");
      await expectFsError(t.fs.readFile(p), "ENOENT");
      await expectFsError(t.fs.readFile(p, "utf8"), "ENOENT");
      await expectFsError(t.fs.readdir(p), "ENOENT");
      await expectFsError(t.fs.rm(p), "ENOENT");
      await t.fs.rm(p, { force: true });
      await expectFsError(t.fs.readlink(p), "ENOENT");
      await expectFsError(t.fs.chmod(p, 0o600), "ENOENT");
      await expectFsError(t.fs.find(p), "ENOENT");
      await expectFsError(t.fs.grep("x", p), "ENOENT");
      await expectFsError(t.fs.rename(p, "/y"), "ENOENT");
      await expectFsError(t.fs.rename("/f", "/f/y"), "ENOENT");
      expect(await t.fs.ls(p)).toEqual([]);
      await expectFsError(t.fs.writeFile(p, "x"), "ENOTDIR");
      await expectFsError(t.fs.mkdir(p), "ENOTDIR");
      await expectFsError(t.fs.mkdir(`${p}/y`, { recursive: true }), "ENOTDIR");
      await expectFsError(t.fs.symlink("/t", p), "ENOTDIR");
      expect(await t.fs.readFile("/f", "utf8")).toBe("file");
    });
  });

  describe("§2.3 symbolic links", () => {
    fsIt(h, "targets: relative from the link's parent, absolute, '..' physical, '..' at / stays /", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/d/t", "T");
      await t.fs.writeFile("/a", "A");
      await t.fs.symlink("t", "/d/rel");
      await t.fs.symlink("d/t", "/rel2");
      await t.fs.symlink("../d/t", "/d/rel3");
      await t.fs.symlink("/d/t", "/abs");
      await t.fs.symlink("../../../a", "/d/up");
      await t.fs.symlink("./t", "/d/dot");
      for (const p of ["/d/rel", "/rel2", "/d/rel3", "/abs", "/d/dot"]) expect(await t.fs.readFile(p, "utf8")).toBe("T");
      expect(await t.fs.readFile("/d/up", "utf8")).toBe("A");
      // physical '..' inside a target: /p -> /x/y, so /p/../z is /x/z
      await t.fs.mkdir("/x/y", { recursive: true });
      await t.fs.writeFile("/x/z", "XZ");
      await t.fs.symlink("/x/y", "/p");
      await t.fs.symlink("/p/../z", "/q");
      expect(await t.fs.readFile("/q", "utf8")).toBe("XZ");
      await t.fs.symlink("p/../z", "/q2");
      expect(await t.fs.readFile("/q2", "utf8")).toBe("XZ");
    });

    fsIt(h, "targets are stored verbatim and may dangle", async (t) => {
      const targets = ["nowhere", "/abs/missing", "a//b/../c/", "../..", "é😀", "."];
      for (const [i, target] of targets.entries()) await t.fs.symlink(target, `/l${i}`);
      for (const [i, target] of targets.entries()) {
        expect(await t.fs.readlink(`/l${i}`)).toBe(target);
        expect((await t.fs.lstat(`/l${i}`)).size).toBe(target.length);
      }
      await expectFsError(t.fs.stat("/l0"), "ENOENT");
      await expectFsError(t.fs.readFile("/l1", "utf8"), "ENOENT");
    });

    fsIt(h, "writeFile through a link whose target ends in '/' → EISDIR, nothing created (Linux)", async (t) => {
      await t.fs.mkdir("/workspace");
      await t.fs.symlink("/workspace/b/", "/workspace/link");
      await expectFsError(t.fs.writeFile("/workspace/link", "x"), "EISDIR");
      await expectFsError(t.fs.lstat("/workspace/b"), "ENOENT");
      // relative form, and a chain ending in such a link
      await t.fs.symlink("c/", "/workspace/rel");
      await t.fs.symlink("/workspace/rel", "/workspace/via");
      await expectFsError(t.fs.writeFile("/workspace/rel", "x"), "EISDIR");
      await expectFsError(t.fs.writeFile("/workspace/via", "x"), "EISDIR");
      await expectFsError(t.fs.lstat("/workspace/c"), "ENOENT");
      // a link to "d/" reached through a link to "e": the slash still applies
      await t.fs.symlink("/workspace/e/", "/workspace/f");
      await t.fs.symlink("/workspace/f", "/workspace/g");
      await expectFsError(t.fs.writeFile("/workspace/g", "x"), "EISDIR");
      await expectFsError(t.fs.lstat("/workspace/e"), "ENOENT");
      // an existing file named with a trailing '/' is not written either; a directory is EISDIR as before
      await t.fs.writeFile("/workspace/file", "old");
      await t.fs.symlink("file/", "/workspace/tofile");
      await expectFsError(t.fs.writeFile("/workspace/tofile", "x"), "EISDIR");
      expect(await t.fs.readFile("/workspace/file", "utf8")).toBe("old");
      await t.fs.mkdir("/workspace/dir");
      await t.fs.symlink("dir/", "/workspace/todir");
      await expectFsError(t.fs.writeFile("/workspace/todir", "x"), "EISDIR");
      // mkdir through the parent chain still works: a trailing '/' mid-path is harmless
      await t.fs.symlink("/workspace/dir/", "/workspace/mid");
      await t.fs.writeFile("/workspace/mid/inner", "in");
      expect(await t.fs.readFile("/workspace/dir/inner", "utf8")).toBe("in");
    });

    async function chain(t: FsTestContext, prefix: string, count: number, last: string): Promise<void> {
      // prefix1 -> prefix2 -> … -> prefix<count> -> last
      for (let i = 1; i <= count; i++) await t.fs.symlink(i === count ? last : `${prefix}${i + 1}`, `${prefix}${i}`);
    }

    fsIt(h, "40 expansions succeed, the 41st → ELOOP (final links)", async (t) => {
      await t.fs.writeFile("/f", "end");
      await chain(t, "/ok", 40, "/f");
      await chain(t, "/bad", 41, "/f");
      expect(await t.fs.readFile("/ok1", "utf8")).toBe("end");
      expect((await t.fs.stat("/ok1")).isFile).toBe(true);
      await expectFsError(t.fs.readFile("/bad1", "utf8"), "ELOOP");
      await expectFsError(t.fs.stat("/bad1"), "ELOOP");
      await expectFsError(t.fs.chmod("/bad1", 0o600), "ELOOP");
      await expectFsError(t.fs.writeFile("/bad1", "x"), "ELOOP");
      // lstat/readlink do not follow the final link
      expect((await t.fs.lstat("/bad1")).isSymbolicLink).toBe(true);
      expect(await t.fs.readlink("/bad1")).toBe("/bad2");
      expect(await t.fs.readFile("/f", "utf8")).toBe("end");
    });

    fsIt(h, "40 expansions succeed, the 41st → ELOOP (intermediate links)", async (t) => {
      await t.fs.mkdir("/real");
      await t.fs.writeFile("/real/f", "inner");
      await chain(t, "/ok", 40, "/real");
      await chain(t, "/bad", 41, "/real");
      expect(await t.fs.readFile("/ok1/f", "utf8")).toBe("inner");
      expect((await t.fs.readdir("/ok1")).map((e) => e.name)).toEqual(["f"]);
      await expectFsError(t.fs.readFile("/bad1/f", "utf8"), "ELOOP");
      await expectFsError(t.fs.readdir("/bad1"), "ELOOP");
      await expectFsError(t.fs.writeFile("/bad1/g", "x"), "ELOOP");
      await expectFsError(t.fs.mkdir("/bad1/g"), "ELOOP");
      await expectFsError(t.fs.rm("/bad1/f"), "ELOOP");
      await expectFsError(t.fs.find("/bad1"), "ELOOP");
      await expectFsError(t.fs.grep("x", "/bad1"), "ELOOP");
    });

    fsIt(h, "intermediate and final expansions share the 40 budget", async (t) => {
      await t.fs.mkdir("/real");
      await t.fs.writeFile("/real/f", "F");
      await chain(t, "/d", 20, "/real"); // 20 intermediate expansions
      await chain(t, "/real/ok", 20, "/real/f"); // + 20 final = 40
      await chain(t, "/real/bad", 21, "/real/f"); // + 21 final = 41
      expect(await t.fs.readFile("/d1/ok1", "utf8")).toBe("F");
      await expectFsError(t.fs.readFile("/d1/bad1", "utf8"), "ELOOP");
      await expectFsError(t.fs.stat("/d1/bad1"), "ELOOP");
      expect((await t.fs.lstat("/d1/bad1")).isSymbolicLink).toBe(true);
    });

    fsIt(h, "cycles → ELOOP for following calls; non-following calls act on the link", async (t) => {
      await t.fs.symlink("/b", "/a");
      await t.fs.symlink("a", "/b");
      await t.fs.symlink("/self", "/self");
      for (const p of ["/a", "/self"]) {
        await expectFsError(t.fs.stat(p), "ELOOP");
        await expectFsError(t.fs.readFile(p), "ELOOP");
        await expectFsError(t.fs.readdir(p), "ELOOP");
        await expectFsError(t.fs.chmod(p, 0o600), "ELOOP");
        await expectFsError(t.fs.writeFile(p, "x"), "ELOOP");
        await expectFsError(t.fs.find(p), "ELOOP");
        await expectFsError(t.fs.grep("x", p), "ELOOP");
        await expectFsError(t.fs.stat(`${p}/x`), "ELOOP");
        await expectFsError(t.fs.mkdir(`${p}/x`, { recursive: true }), "ELOOP");
        await expectFsError(t.fs.rm(`${p}/x`, { force: true }), "ELOOP");
        await expectFsError(t.fs.symlink("t", p), "EEXIST");
        await expectFsError(t.fs.mkdir(p), "EEXIST");
        expect(await t.fs.ls(p)).toEqual([]);
        expect((await t.fs.lstat(p)).isSymbolicLink).toBe(true);
      }
      expect(await t.fs.readlink("/a")).toBe("/b");
      await t.fs.rename("/a", "/a2");
      expect(await t.fs.readlink("/a2")).toBe("/b");
      await t.fs.rm("/a2");
      await t.fs.rm("/self");
      expect((await t.fs.readdir("/")).map((e) => e.name)).toEqual(["b"]);
    });

    fsIt(h, "reported paths derive from the path the caller gave", async (t) => {
      await t.fs.mkdir("/real/sub", { recursive: true });
      await t.fs.writeFile("/real/sub/f.txt", "needle");
      await t.fs.symlink("/real", "/l");
      expect((await t.fs.readdir("/l")).map((e) => [e.parentPath, e.name])).toEqual([["/l", "sub"]]);
      expect((await t.fs.readdir("/l/sub/")).map((e) => e.parentPath)).toEqual(["/l/sub"]);
      expect(await t.fs.find("/l")).toEqual([
        { path: "/l/sub", type: "dir" },
        { path: "/l/sub/f.txt", type: "file" },
      ]);
      expect(await t.fs.grep("needle", "/l")).toEqual([{ path: "/l/sub/f.txt", line: 1, text: "needle" }]);
      expect((await t.fs.stat("/l")).name).toBe("l");
      expect((await t.fs.stat("/l/sub/f.txt")).name).toBe("f.txt");
    });
  });

  describe("root protections", () => {
    fsIt(h, "/ exists on a fresh store as a 0o755 directory with inode 1; /workspace is not created", async (t) => {
      const root = await t.fs.stat("/");
      expect(root).toEqual({
        name: "",
        inode: 1,
        mode: 0o755,
        mtime: t.clock.value,
        size: 0,
        isFile: false,
        isDirectory: true,
        isSymbolicLink: false,
      });
      expect(await t.fs.lstat("/")).toEqual(root);
      expect(await t.fs.readdir("/")).toEqual([]);
      await expectFsError(t.fs.stat("/workspace"), "ENOENT", "/workspace");
      expect(await t.fs.ls("/")).toEqual([]);
      expect(await t.fs.find("/")).toEqual([]);
      expect(await t.fs.grep("", "/")).toEqual([]);
    });

    fsIt(h, "mutations of / fail with the spec's codes and change nothing", async (t) => {
      await t.fs.writeFile("/keep", "k");
      await expectFsError(t.fs.writeFile("/", "x"), "EISDIR");
      await expectFsError(t.fs.writeFile("/", "x", { exclusive: true }), "EISDIR");
      await expectFsError(t.fs.writeFile("//", "x"), "EISDIR");
      await expectFsError(t.fs.mkdir("/"), "EEXIST");
      await expectFsError(t.fs.mkdir("/", { recursive: true }), "EEXIST");
      await expectFsError(t.fs.rm("/"), "EPERM");
      await expectFsError(t.fs.rm("/", { recursive: true, force: true }), "EPERM");
      await expectFsError(t.fs.rm("/keep/..", { recursive: true, force: true }), "EPERM");
      await expectFsError(t.fs.rename("/", "/x"), "EINVAL");
      await expectFsError(t.fs.rename("/keep", "/"), "EINVAL");
      await expectFsError(t.fs.rename("/missing", "/"), "EINVAL");
      await expectFsError(t.fs.symlink("x", "/"), "EEXIST");
      await expectFsError(t.fs.readFile("/"), "EISDIR");
      await expectFsError(t.fs.readFile("/", "utf8"), "EISDIR");
      await expectFsError(t.fs.readlink("/"), "EINVAL");
      expect(await t.fs.readFile("/keep", "utf8")).toBe("k");
      expect((await t.fs.stat("/")).inode).toBe(1);
    });

    fsIt(h, "chmod on / is allowed", async (t) => {
      t.clock.advance(5000);
      await t.fs.chmod("/", 0o700);
      const root = await t.fs.stat("/");
      expect(root.mode).toBe(0o700);
      expect(root.mtime).toBe(t.clock.value);
    });
  });
}
