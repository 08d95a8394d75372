/**
 * Probe of `workspace.provider()` (SQLiteWorkspaceProvider) written from the docs only:
 * docs/filesystem.md "The node:fs-style provider", docs/porting.md "The provider",
 * docs/git.md (adapter) and the TSDoc of the typings. `it` = documented behaviour that holds;
 * FIXED by the session that ran it: the findings now written as `it` (19 of 26).
 * `it.fails` = the docs (or node:fs, which the docs claim to follow) say one thing and the
 * provider does another — the comment above each says what happens instead.
 * Oracle for "errors are node:fs's": the same call on the real node:fs in a temp dir.
 */
import { mkdtempSync, rmSync, constants as C, promises as realFs } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { afterAll, describe, expect, it } from "vitest";
import { VirtualFileSystem, create, type VirtualProvider } from "@platformatic/vfs";
import { SQLiteWorkspaceProvider, Workspace, WorkspaceFsError, nodeSqliteStorage } from "../../../src/index.js";

const tmp = mkdtempSync(join(tmpdir(), "ac-probe-provider-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fresh(options?: ConstructorParameters<typeof SQLiteWorkspaceProvider>[1]) {
  const workspace = new Workspace({ storage: nodeSqliteStorage() });
  const p = options ? new SQLiteWorkspaceProvider(workspace, options) : workspace.provider();
  return { workspace, p, fs: workspace.fs };
}

async function rejection(promise: unknown): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

function syncThrow(fn: () => unknown): any {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** code, errno, syscall, path and message of an error, for exact comparison. */
function shape(e: any) {
  return { code: e?.code, errno: e?.errno, syscall: e?.syscall, path: e?.path, message: e?.message };
}

/** The same failure on real node:fs, paths rewritten from the temp dir to the Workspace. */
async function nodeShape(run: (root: string) => Promise<unknown>, setup?: (root: string) => Promise<void>) {
  const root = mkdtempSync(join(tmp, "real-"));
  await setup?.(root);
  const e = await rejection(run(root));
  const fix = (s: unknown) => (typeof s === "string" ? s.split(root).join("") : s);
  return { code: e.code, errno: e.errno, syscall: e.syscall, path: fix(e.path), message: fix(e.message) };
}

function nextEvent(emitter: { once(event: string, l: (...a: any[]) => void): unknown }, event: string): Promise<any[]> {
  return new Promise((resolve) => emitter.once(event, (...args: any[]) => resolve(args)));
}

describe("the doc's example with @platformatic/vfs", () => {
  it("writes through VirtualFileSystem with mode 0o644 and reads it back (after creating /workspace)", async () => {
    const { workspace, fs } = fresh();
    await fs.mkdir("/workspace");
    const vfs = new VirtualFileSystem(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    await vfs.promises.writeFile("/workspace/notes.md", "# Notes\n");
    expect(await vfs.promises.readFile("/workspace/notes.md", "utf8")).toBe("# Notes\n");
    expect(await fs.readFile("/workspace/notes.md", "utf8")).toBe("# Notes\n");
    expect((await fs.stat("/workspace/notes.md")).mode & 0o7777).toBe(0o644);
    expect((await vfs.promises.stat("/workspace/notes.md")).mode).toBe(0o100644);
  });

  // FIXED (docs): the example failed on a fresh Workspace (ENOENT: /workspace is not created); it now makes it first.
  it("the example runs as written on a fresh Workspace", async () => {
    const { workspace } = fresh();
    const vfs = new VirtualFileSystem(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    await vfs.promises.mkdir("/workspace", { recursive: true });
    await vfs.promises.writeFile("/workspace/notes.md", "# Notes\n");
    expect(await vfs.promises.readFile("/workspace/notes.md", "utf8")).toBe("# Notes\n");
  });

  it("provider() is memoised", () => {
    const { workspace } = fresh();
    expect(workspace.provider()).toBe(workspace.provider());
    expect(workspace.provider()).toBeInstanceOf(SQLiteWorkspaceProvider);
  });

  // FIXED (TSDoc): it said `create(workspace.provider())`, which the shim takes for an options object (an in-memory
  // VFS: nothing reached the Workspace); it now gives `new VirtualFileSystem(workspace.provider())`, and says why.
  it("new VirtualFileSystem(workspace.provider()) writes to the Workspace (Workspace.provider TSDoc)", async () => {
    const { workspace, fs } = fresh();
    const vfs = new VirtualFileSystem(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    await vfs.promises.writeFile("/created.txt", "x");
    expect(await fs.readFile("/created.txt", "utf8")).toBe("x");
    // …while the shim's create() does not take it (a MemoryProvider behind it).
    const other = create(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    await other.promises.writeFile("/elsewhere.txt", "y");
    await expect(fs.stat("/elsewhere.txt")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("flags: readonly false, supportsSymlinks true, supportsWatch true", () => {
    const { p } = fresh();
    expect([p.readonly, p.supportsSymlinks, p.supportsWatch]).toEqual([false, true, true]);
  });
});

describe("errors are node:fs's", () => {
  it("readFile of a missing file: exact node:fs shape, WorkspaceFsError as cause", async () => {
    const { p } = fresh();
    const e = await rejection(p.readFile("/x"));
    expect(e).toBeInstanceOf(Error);
    expect(shape(e)).toEqual({ code: "ENOENT", errno: -2, syscall: "open", path: "/x", message: "ENOENT: no such file or directory, open '/x'" });
    expect(e.cause).toBeInstanceOf(WorkspaceFsError);
    expect(e.cause.code).toBe("ENOENT");
    expect(shape(e)).toEqual(await nodeShape((r) => realFs.readFile(join(r, "x"))));
  });

  it("stat / lstat / mkdir EEXIST / rmdir ENOTEMPTY / unlink / rename / open wx match node:fs", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await fs.writeFile("/d/f", "1");
    expect(shape(await rejection(p.stat("/nope")))).toEqual(await nodeShape((r) => realFs.stat(join(r, "nope"))));
    expect(shape(await rejection(p.lstat("/nope")))).toEqual(await nodeShape((r) => realFs.lstat(join(r, "nope"))));
    const setup = async (r: string) => {
      await realFs.mkdir(join(r, "d"));
      await realFs.writeFile(join(r, "d/f"), "1");
    };
    expect(shape(await rejection(p.mkdir("/d")))).toEqual(await nodeShape((r) => realFs.mkdir(join(r, "d")), setup));
    expect(shape(await rejection(p.rmdir("/d")))).toEqual(await nodeShape((r) => realFs.rmdir(join(r, "d")), setup));
    expect(shape(await rejection(p.unlink("/nope")))).toEqual(await nodeShape((r) => realFs.unlink(join(r, "nope"))));
    expect(shape(await rejection(p.open("/d/f", "wx")))).toEqual(await nodeShape((r) => realFs.open(join(r, "d/f"), "wx"), setup));
  });

  // Node reports readdir failures with syscall "scandir"; check what the provider says.
  it("readdir of a missing directory matches node:fs (syscall scandir)", async () => {
    const { p } = fresh();
    expect(shape(await rejection(p.readdir("/nope")))).toEqual(await nodeShape((r) => realFs.readdir(join(r, "nope"))));
  });

  // The message lacks node's " -> '/no/b'" and the error has no `dest`: "ENOENT: no such file or directory, rename '/a'".
  it("rename onto a missing parent matches node:fs (message names both paths, dest set)", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/a", "1");
    const e = await rejection(p.rename("/a", "/no/b"));
    const n = await nodeShape((r) => realFs.rename(join(r, "a"), join(r, "no/b")), async (r) => realFs.writeFile(join(r, "a"), "1"));
    expect(shape(e)).toEqual(n);
    expect(e.dest).toBe("/no/b");
  });

  // Fixed: ELOOP's message was glibc's "too many levels of symbolic links", not node's "too many symbolic links
  // encountered"; the provider now uses node's wording (the shell adapter keeps glibc's, as bash tools print it).
  it("ELOOP message matches node:fs", async () => {
    const { p, fs } = fresh();
    await fs.symlink("/lb", "/la");
    await fs.symlink("/la", "/lb");
    const n = await nodeShape((r) => realFs.stat(join(r, "la")), async (r) => {
      await realFs.symlink(join(r, "lb"), join(r, "la"));
      await realFs.symlink(join(r, "la"), join(r, "lb"));
    });
    expect(shape(await rejection(p.stat("/la")))).toEqual(n);
  });

  it("…Sync methods throw ENOSYS synchronously, naming the promise form", () => {
    const { p } = fresh();
    for (const name of ["openSync", "statSync", "lstatSync", "readdirSync", "mkdirSync", "rmdirSync", "unlinkSync", "renameSync", "readFileSync", "writeFileSync", "appendFileSync", "existsSync", "copyFileSync", "realpathSync", "accessSync", "readlinkSync", "symlinkSync"] as const) {
      const e = syncThrow(() => (p as any)[name]("/x"));
      expect(e.code, name).toBe("ENOSYS");
      expect(e.errno, name).toBe(-38);
      expect(e.message, name).toContain(name.replace(/Sync$/, ""));
    }
  });

  it("link rejects ENOSYS (ENOENT when the source is missing)", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/a", "1");
    expect((await rejection(p.link("/a", "/b"))).code).toBe("ENOSYS");
    expect((await rejection(p.link("/missing", "/b"))).code).toBe("ENOENT");
    expect(await p.exists("/b")).toBe(false);
  });

  it("bigint stats are EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/a", "1");
    expect((await rejection(p.stat("/a", { bigint: true }))).code).toBe("EINVAL");
    expect((await rejection(p.lstat("/a", { bigint: true }))).code).toBe("EINVAL");
  });
});

describe("hostile paths", () => {
  it("'..' is lexical; above the root, relative, empty and NUL paths are EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/a");
    await fs.writeFile("/b", "B");
    expect(await p.readFile("/a/../b", "utf8")).toBe("B");
    expect(await p.readFile("/a/./..//b", "utf8")).toBe("B");
    for (const bad of ["/../b", "b", "", "/b\0x", "../b"]) {
      const e = await rejection(p.readFile(bad));
      expect(e.code, JSON.stringify(bad)).toBe("EINVAL");
      expect(e.errno, JSON.stringify(bad)).toBe(-22);
    }
  });

  it("non-string paths reject (not throw) with EINVAL", async () => {
    const { p } = fresh();
    for (const bad of [123, null, undefined, {}, ["/a"]]) {
      const promise = (p as any).readFile(bad);
      expect(promise).toBeInstanceOf(Promise);
      expect((await rejection(promise)).code).toBe("EINVAL");
    }
  });

  it("exists never rejects, also for hostile input", async () => {
    const { p } = fresh();
    for (const bad of [123, null, "", "rel", "/a\0b", "/../x"]) expect(await (p as any).exists(bad)).toBe(false);
  });

  it("NUL in writeFile/mkdir/symlink paths is EINVAL and creates nothing", async () => {
    const { p, fs } = fresh();
    expect((await rejection(p.writeFile("/a\0b", "x"))).code).toBe("EINVAL");
    expect((await rejection(p.mkdir("/d\0"))).code).toBe("EINVAL");
    expect((await rejection(p.symlink("/t", "/l\0"))).code).toBe("EINVAL");
    expect(await fs.readdir("/")).toEqual([]);
  });
});

describe("umask and modes", () => {
  it("default umask 0o022: files 0o644, directories 0o755; explicit modes masked", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "x");
    await p.mkdir("/d");
    await p.writeFile("/g", "x", { mode: 0o777 });
    await p.mkdir("/e", { mode: 0o777 });
    await p.appendFile("/h", "x", { mode: 0o666 });
    expect((await p.stat("/f")).mode).toBe(0o100644);
    expect((await p.stat("/d")).mode).toBe(0o40755);
    expect((await p.stat("/g")).mode).toBe(0o100755);
    expect((await p.stat("/e")).mode).toBe(0o40755);
    expect((await p.stat("/h")).mode).toBe(0o100644);
  });

  it("custom umask 0o077 applies to writeFile, mkdir, open(w); chmod ignores it", async () => {
    const { p } = fresh({ umask: 0o077 });
    await p.writeFile("/f", "x");
    await p.mkdir("/d", 0o777);
    const h = await p.open("/o", "w", 0o666);
    await h.close();
    expect((await p.stat("/f")).mode).toBe(0o100600);
    expect((await p.stat("/d")).mode).toBe(0o40700);
    expect((await p.stat("/o")).mode).toBe(0o100600);
    await p.chmod("/f", 0o777);
    expect((await p.stat("/f")).mode).toBe(0o100777);
  });

  it("invalid options throw TypeError at construction", () => {
    const { workspace } = fresh();
    for (const bad of [{ umask: -1 }, { umask: 0o10000 }, { umask: 1.5 }, { maxOpenFileBytes: -1 }, { watchIntervalMs: 0 }, { umask: "18" }]) {
      expect(() => new SQLiteWorkspaceProvider(workspace, bad as any), JSON.stringify(bad)).toThrow(TypeError);
    }
    expect(() => new SQLiteWorkspaceProvider({} as any)).toThrow(TypeError);
  });

  it("chmod keeps mode & 0o7777, follows a link; bad modes EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x");
    await fs.symlink("/f", "/l");
    await p.chmod("/l", 0o100640);
    expect((await p.stat("/f")).mode).toBe(0o100640);
    expect((await p.lstat("/l")).mode & 0o170000).toBe(0o120000);
    for (const bad of [NaN, -1, "abc", 1.5]) expect((await rejection(p.chmod("/f", bad as any))).code, String(bad)).toBe("EINVAL");
  });
});

describe("metadata", () => {
  it("stat fields: type bits, ino, times = mtime, nlink 1, size, blocks", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x".repeat(1000));
    const s = await p.stat("/f");
    const w = await fs.stat("/f");
    expect(s.mode).toBe(0o100644);
    expect(s.isFile()).toBe(true);
    expect(s.size).toBe(1000);
    expect(s.blocks).toBe(2);
    expect(s.nlink).toBe(1);
    expect(s.mtimeMs).toBe(w.mtime);
    expect([s.atimeMs, s.ctimeMs, s.birthtimeMs]).toEqual([w.mtime, w.mtime, w.mtime]);
  });

  it("readdir: byte order, withFileTypes, recursive breadth first", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d/sub/deep", { recursive: true });
    await fs.writeFile("/d/b", "");
    await fs.writeFile("/d/A", "");
    await fs.writeFile("/d/sub/x", "");
    await fs.symlink("sub", "/d/link");
    expect(await p.readdir("/d")).toEqual(["A", "b", "link", "sub"]);
    const dirents = (await p.readdir("/d", { withFileTypes: true })) as any[];
    expect(dirents.map((d) => [d.name, d.isFile(), d.isDirectory(), d.isSymbolicLink(), d.parentPath])).toEqual([
      ["A", true, false, false, "/d"],
      ["b", true, false, false, "/d"],
      ["link", false, false, true, "/d"],
      ["sub", false, true, false, "/d"],
    ]);
    expect(await p.readdir("/d", { recursive: true })).toEqual(["A", "b", "link", "sub", "sub/deep", "sub/x"]);
    expect((await rejection(p.readdir("/d/b"))).code).toBe("ENOTDIR");
  });

  it("access: F_OK, X_OK needs an execute bit (EACCES)", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x");
    await expect(p.access("/f")).resolves.toBeUndefined();
    await expect(p.access("/f", C.R_OK | C.W_OK)).resolves.toBeUndefined();
    const e = await rejection(p.access("/f", C.X_OK));
    expect([e.code, e.errno, e.syscall]).toEqual(["EACCES", -13, "access"]);
    await p.chmod("/f", 0o755);
    await expect(p.access("/f", C.X_OK)).resolves.toBeUndefined();
    expect((await rejection(p.access("/missing"))).code).toBe("ENOENT");
  });

  it("realpath resolves links; a loop is ELOOP; dangling ENOENT", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/real/dir", { recursive: true });
    await fs.symlink("/real", "/l1");
    await fs.symlink("l1/dir", "/l2");
    await fs.symlink("/loopB", "/loopA");
    await fs.symlink("/loopA", "/loopB");
    await fs.symlink("/nowhere", "/dangling");
    expect(await p.realpath("/l2")).toBe("/real/dir");
    expect((await rejection(p.realpath("/loopA"))).code).toBe("ELOOP");
    expect((await rejection(p.realpath("/dangling"))).code).toBe("ENOENT");
    expect(await p.exists("/dangling")).toBe(false);
  });

  it("readlink: string, buffer; not a link EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "");
    await p.symlink("é/../t", "/l");
    expect(await p.readlink("/l")).toBe("é/../t");
    const b = await p.readlink("/l", "buffer");
    expect(Buffer.isBuffer(b)).toBe(true);
    expect(Buffer.from(b as Uint8Array).toString("utf8")).toBe("é/../t");
    expect(await p.readlink("/l", { encoding: "buffer" })).toEqual(b);
    expect((await rejection(p.readlink("/f"))).code).toBe("EINVAL");
    expect((await p.lstat("/l")).size).toBe(Buffer.byteLength("é/../t"));
  });

  it("internalModuleStat: 0 file, 1 directory, negative missing, never rejects", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await fs.writeFile("/f", "");
    expect(await p.internalModuleStat("/f")).toBe(0);
    expect(await p.internalModuleStat("/d")).toBe(1);
    expect(await p.internalModuleStat("/missing")).toBeLessThan(0);
    expect(await (p as any).internalModuleStat(42)).toBeLessThan(0);
  });
});

describe("changes", () => {
  it("mkdir recursive returns the first directory made, undefined when none", async () => {
    const { p } = fresh();
    expect(await p.mkdir("/a/b/c", { recursive: true })).toBe("/a");
    expect(await p.mkdir("/a/b/c/d/e", { recursive: true })).toBe("/a/b/c/d");
    expect(await p.mkdir("/a/b", { recursive: true })).toBeUndefined();
    expect(await p.mkdir("/z")).toBeUndefined();
    expect((await rejection(p.mkdir("/q/r"))).code).toBe("ENOENT");
  });

  it("rmdir: EPERM /, ENOTDIR file and link to dir, ENOTEMPTY, recursive", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d/e", { recursive: true });
    await fs.writeFile("/f", "");
    await fs.symlink("/d", "/ld");
    expect((await rejection(p.rmdir("/"))).code).toBe("EPERM");
    expect((await rejection(p.rmdir("/f"))).code).toBe("ENOTDIR");
    expect((await rejection(p.rmdir("/ld"))).code).toBe("ENOTDIR");
    expect((await rejection(p.rmdir("/d"))).code).toBe("ENOTEMPTY");
    await p.rmdir("/d", { recursive: true });
    expect(await p.exists("/d")).toBe(false);
  });

  it("unlink: a directory is EISDIR; a link is removed, not its target", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await fs.symlink("/d", "/l");
    expect((await rejection(p.unlink("/d"))).code).toBe("EISDIR");
    await p.unlink("/l");
    expect(await p.exists("/d")).toBe(true);
    expect(await p.exists("/l")).toBe(false);
  });

  it("rename: replaces a file; dir into itself EINVAL; file onto dir EISDIR", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d/sub", { recursive: true });
    await fs.writeFile("/a", "A");
    await fs.writeFile("/b", "B");
    await p.rename("/a", "/b");
    expect(await p.readFile("/b", "utf8")).toBe("A");
    expect((await rejection(p.rename("/d", "/d/sub/x"))).code).toBe("EINVAL");
    expect((await rejection(p.rename("/b", "/d"))).code).toBe("EISDIR");
  });

  it("symlink: target verbatim, EEXIST, ENOENT parent", async () => {
    const { p } = fresh();
    await p.symlink("../../x", "/l", "dir");
    expect(await p.readlink("/l")).toBe("../../x");
    expect((await rejection(p.symlink("y", "/l"))).code).toBe("EEXIST");
    expect((await rejection(p.symlink("y", "/no/l"))).code).toBe("ENOENT");
  });

  it("utimes/lutimes keep mtime; missing ENOENT; dangling link ENOENT for utimes only", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x");
    await fs.symlink("/nowhere", "/dl");
    const before = (await p.stat("/f")).mtimeMs;
    await p.utimes("/f", new Date(0), new Date(0));
    expect((await p.stat("/f")).mtimeMs).toBe(before);
    expect((await rejection(p.utimes("/missing", 0, 0))).code).toBe("ENOENT");
    expect((await rejection(p.utimes("/dl", 0, 0))).code).toBe("ENOENT");
    await expect(p.lutimes("/dl", 0, 0)).resolves.toBeUndefined();
  });

  it("truncate: cuts, zero-extends, keeps mode; bad len EINVAL; EISDIR; EFBIG over max", async () => {
    const { p, fs } = fresh({ maxOpenFileBytes: 64 });
    await fs.writeFile("/f", "hello world", { mode: 0o600 });
    await fs.mkdir("/d");
    await p.truncate("/f", 5);
    expect(await p.readFile("/f", "utf8")).toBe("hello");
    await p.truncate("/f", 8);
    expect(Buffer.from((await p.readFile("/f")) as Uint8Array)).toEqual(Buffer.from("hello\0\0\0"));
    expect((await p.stat("/f")).mode).toBe(0o100600);
    await p.truncate("/f");
    expect((await p.stat("/f")).size).toBe(0);
    for (const bad of [-1, 1.5, NaN, "3"]) expect((await rejection(p.truncate("/f", bad as any))).code, String(bad)).toBe("EINVAL");
    expect((await rejection(p.truncate("/d", 1))).code).toBe("EISDIR");
    expect((await rejection(p.truncate("/f", 65))).code).toBe("EFBIG");
    expect((await rejection(p.truncate("/f", Number.MAX_SAFE_INTEGER))).code).toBe("EFBIG");
  });
});

describe("whole files", () => {
  it("readFile: Buffer by default, utf8 strings, BOM kept, invalid bytes U+FFFD, other encodings EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff]));
    const b = await p.readFile("/f");
    expect(Buffer.isBuffer(b)).toBe(true);
    expect(await p.readFile("/f", "utf8")).toBe("\ufeffa\ufffd");
    expect(await p.readFile("/f", { encoding: "utf-8" })).toBe("\ufeffa\ufffd");
    for (const enc of ["latin1", "base64", "hex", "bogus"]) expect((await rejection(p.readFile("/f", enc))).code, enc).toBe("EINVAL");
    expect((await rejection(p.readFile("/"))).code).toBe("EISDIR");
  });

  it("writeFile: flag wx EEXIST, flag a appends, Uint8Array/Buffer data", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "one");
    expect(shape(await rejection(p.writeFile("/f", "x", { flag: "wx" })))).toMatchObject({ code: "EEXIST", errno: -17, path: "/f" });
    await p.writeFile("/f", Buffer.from("+two"), { flag: "a" });
    await p.writeFile("/f", new Uint8Array([0x21]), { flag: "a" });
    expect(await p.readFile("/f", "utf8")).toBe("one+two!");
    expect((await rejection(p.writeFile("/f", "x", "latin1"))).code).toBe("EINVAL");
  });

  it("writeFile of non-bytes, non-string data rejects and leaves the file", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "keep");
    for (const bad of [42, {}, null, undefined, [1, 2], Symbol("s")]) {
      const e = await rejection(p.writeFile("/f", bad as any));
      expect(e, String(typeof bad)).toBeInstanceOf(Error);
    }
    expect(await p.readFile("/f", "utf8")).toBe("keep");
  });

  it("writeFile with weird flags: an unknown flag string is EINVAL; a read-only flag is refused", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "keep");
    expect((await rejection(p.writeFile("/f", "x", { flag: "zz" }))).code).toBe("EINVAL");
    expect((await rejection(p.open("/f", "rw"))).code).toBe("EINVAL");
    expect((await rejection(p.open("/f", "" as any))).code).toBe("EINVAL");
    expect(await p.readFile("/f", "utf8")).toBe("keep");
  });

  it("appendFile creates then appends; missing parent ENOENT; directory EISDIR", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await p.appendFile("/f", "a");
    await p.appendFile("/f", "b");
    expect(await p.readFile("/f", "utf8")).toBe("ab");
    expect((await rejection(p.appendFile("/no/f", "x"))).code).toBe("ENOENT");
    expect((await rejection(p.appendFile("/d", "x"))).code).toBe("EISDIR");
  });

  it("copyFile copies bytes and mode; COPYFILE_EXCL EEXIST; directory source EISDIR; missing ENOENT", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/s", "data", { mode: 0o750 });
    await fs.mkdir("/d");
    await p.copyFile("/s", "/t");
    expect(await p.readFile("/t", "utf8")).toBe("data");
    expect((await p.stat("/t")).mode).toBe(0o100750);
    expect((await rejection(p.copyFile("/s", "/t", C.COPYFILE_EXCL))).code).toBe("EEXIST");
    expect((await rejection(p.copyFile("/d", "/u"))).code).toBe("EISDIR");
    expect((await rejection(p.copyFile("/missing", "/u"))).code).toBe("ENOENT");
  });

  // node:fs copyFile onto an existing directory destination fails (EISDIR); check it does not clobber.
  it("copyFile onto a directory fails and keeps the directory", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/s", "data");
    await fs.mkdir("/d");
    expect((await rejection(p.copyFile("/s", "/d"))).code).toBe("EISDIR");
    expect((await p.stat("/d")).isDirectory()).toBe(true);
  });
});

describe("open flags", () => {
  it("r on a missing file ENOENT; w on a directory EISDIR; wx on existing EEXIST; missing parent ENOENT", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await fs.writeFile("/f", "x");
    expect(shape(await rejection(p.open("/missing")))).toEqual({ code: "ENOENT", errno: -2, syscall: "open", path: "/missing", message: "ENOENT: no such file or directory, open '/missing'" });
    expect((await rejection(p.open("/d", "w"))).code).toBe("EISDIR");
    expect((await rejection(p.open("/f", "wx"))).code).toBe("EEXIST");
    expect((await rejection(p.open("/no/f", "w"))).code).toBe("ENOENT");
  });

  it("O_NOFOLLOW on a link ELOOP; O_DIRECTORY on a file ENOTDIR; unknown bits and bad modes EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x");
    await fs.symlink("/f", "/l");
    expect((await rejection(p.open("/l", C.O_RDONLY | C.O_NOFOLLOW))).code).toBe("ELOOP");
    expect((await rejection(p.open("/f", C.O_RDONLY | C.O_DIRECTORY))).code).toBe("ENOTDIR");
    expect((await rejection(p.open("/f", 0x40000000))).code).toBe("EINVAL");
    for (const mode of [2 ** 40, -1, 1.5, NaN]) expect((await rejection(p.open("/n", "w", mode))).code, String(mode)).toBe("EINVAL");
    expect(await p.exists("/n")).toBe(false);
  });

  it("numeric O_* flags work like their strings", async () => {
    const { p } = fresh();
    const h = await p.open("/n", C.O_WRONLY | C.O_CREAT | C.O_EXCL, 0o600);
    await h.write(Buffer.from("hi"));
    await h.close();
    expect(await p.readFile("/n", "utf8")).toBe("hi");
    expect((await p.stat("/n")).mode).toBe(0o100600);
    expect((await rejection(p.open("/n", C.O_WRONLY | C.O_CREAT | C.O_EXCL))).code).toBe("EEXIST");
  });

  it("open('w') of a new file creates it at once, as node:fs does", async () => {
    const { p } = fresh();
    const h = await p.open("/new", "w");
    try {
      expect(await p.exists("/new")).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe("handles", () => {
  it("fd from 3, unique; position advances; read with explicit position leaves it", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abcdefgh");
    const h1 = await p.open("/f");
    const h2 = await p.open("/f");
    expect(h1.fd).toBeGreaterThanOrEqual(3);
    expect(h2.fd).not.toBe(h1.fd);
    const buf = Buffer.alloc(3);
    expect((await h1.read(buf, 0, 3)).bytesRead).toBe(3);
    expect(buf.toString()).toBe("abc");
    expect(h1.position).toBe(3);
    const r = await h1.read(buf, 0, 3, 6);
    expect([r.bytesRead, buf.subarray(0, 2).toString(), h1.position]).toEqual([2, "gh", 3]);
    expect((await h1.read(buf, 0, 3, 100)).bytesRead).toBe(0);
    expect(await h1.readFile("utf8")).toBe("defgh");
    expect(h1.position).toBe(8);
    expect(h1.flags).toBe("r");
    await h1.close();
    await h2.close();
  });

  it("reads come from the store until the handle writes", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "old");
    const h = await p.open("/f");
    await fs.writeFile("/f", "new!");
    expect(await h.readFile("utf8")).toBe("new!");
    await h.close();
  });

  it("r+ writes are stored at close, mode kept, zero-filled gap; stat shows the handle's size", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abc", { mode: 0o640 });
    const h = await p.open("/f", "r+");
    await h.write(Buffer.from("XY"), 0, 2, 5);
    expect((await h.stat()).size).toBe(7);
    expect(await fs.readFile("/f", "utf8")).toBe("abc");
    await h.close();
    expect(Buffer.from((await p.readFile("/f")) as Uint8Array)).toEqual(Buffer.from("abc\0\0XY"));
    expect((await p.stat("/f")).mode).toBe(0o100640);
  });

  it("write(string, position, encoding) form; other encodings EINVAL", async () => {
    const { p } = fresh();
    const h = await p.open("/f", "w+");
    const r = await h.write("héllo", 0, "utf8");
    expect(r.bytesWritten).toBe(6);
    await h.write("!", 6);
    expect((await rejection(h.write("x", 0, "latin1"))).code).toBe("EINVAL");
    await h.close();
    expect(await p.readFile("/f", "utf8")).toBe("héllo!");
  });

  it("EBADF: read on write-only, write on read-only, anything on closed; close twice is a no-op", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x");
    const r = await p.open("/f", "r");
    const w = await p.open("/g", "w");
    expect((await rejection(r.write(Buffer.from("y")))).code).toBe("EBADF");
    expect((await rejection(w.read(Buffer.alloc(1), 0, 1, 0))).code).toBe("EBADF");
    await r.close();
    await expect(r.close()).resolves.toBeUndefined();
    expect(r.closed).toBe(true);
    expect((await rejection(r.read(Buffer.alloc(1), 0, 1, 0))).code).toBe("EBADF");
    expect((await rejection(r.stat())).code).toBe("EBADF");
    expect((await rejection(r.sync())).code).toBe("EBADF");
    await w.close();
    await w.close();
    expect(await fs.readFile("/f", "utf8")).toBe("x");
  });

  it("read with bad offset/length is EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abcdef");
    const h = await p.open("/f");
    const buf = Buffer.alloc(4);
    for (const [o, l] of [[-1, 1], [0, 5], [5, 1], [1.5, 1], [0, -1]] as const) {
      expect((await rejection(h.read(buf, o, l, 0))).code, `${o},${l}`).toBe("EINVAL");
    }
    await h.close();
  });

  it("huge positions: write past maxOpenFileBytes is EFBIG and stores nothing", async () => {
    const { p, fs } = fresh({ maxOpenFileBytes: 1024 });
    await fs.writeFile("/f", "keep");
    const h = await p.open("/f", "r+");
    expect((await rejection(h.write(Buffer.from("x"), 0, 1, Number.MAX_SAFE_INTEGER))).code).toBe("EFBIG");
    expect((await rejection(h.write(Buffer.from("x"), 0, 1, 1024))).code).toBe("EFBIG");
    expect((await rejection(h.truncate(2000))).code).toBe("EFBIG");
    await h.close();
    expect(await fs.readFile("/f", "utf8")).toBe("keep");
  });

  it("bad positions (negative, fractional, NaN, Infinity) are EINVAL for write", async () => {
    const { p } = fresh();
    const h = await p.open("/f", "w");
    for (const pos of [-2, 1.5, NaN, Infinity]) expect((await rejection(h.write(Buffer.from("x"), 0, 1, pos))).code, String(pos)).toBe("EINVAL");
    await h.close();
  });

  // node:fs treats position -1 (and null) as "the current position" for FileHandle.read/write.
  it("position -1 means the current position, as node:fs", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abcdef");
    const h = await p.open("/f");
    const buf = Buffer.alloc(2);
    await h.read(buf, 0, 2, -1);
    await h.close();
    expect(buf.toString()).toBe("ab");
  });

  it("opening a file over maxOpenFileBytes for writing is EFBIG; for reading works", async () => {
    const { p, fs } = fresh({ maxOpenFileBytes: 8 });
    await fs.writeFile("/big", "0123456789");
    expect((await rejection(p.open("/big", "r+"))).code).toBe("EFBIG");
    const h = await p.open("/big");
    expect(await h.readFile("utf8")).toBe("0123456789");
    await h.close();
  });

  it("ESTALE: another writer changed the file before the handle stored; the other content stays; closed either way", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "orig");
    const h = await p.open("/f", "r+");
    await h.write(Buffer.from("HANDLE"), 0, 6, 0);
    await fs.writeFile("/f", "other");
    const e = await rejection(h.close());
    expect([e.code, e.errno]).toEqual(["ESTALE", -116]);
    expect(h.closed).toBe(true);
    expect(await fs.readFile("/f", "utf8")).toBe("other");
  });

  it("two concurrent r+ handles: the first close wins, the second is ESTALE", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "0000");
    const a = await p.open("/f", "r+");
    const b = await p.open("/f", "r+");
    await a.write("AA", 0);
    await b.write("BB", 2);
    await a.close();
    expect((await rejection(b.close())).code).toBe("ESTALE");
    expect(await fs.readFile("/f", "utf8")).toBe("AA00");
  });

  it("ESTALE when the file was renamed away or replaced after open", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "x");
    const h = await p.open("/f");
    await fs.rename("/f", "/g");
    expect((await rejection(h.read(Buffer.alloc(1), 0, 1, 0))).code).toBe("ESTALE");
    await fs.writeFile("/f", "new file same name");
    expect((await rejection(h.read(Buffer.alloc(1), 0, 1, 0))).code).toBe("ESTALE");
    await h.close();
  });

  it("append handles, appendFile and another writer all land", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/log", "start\n");
    const a = await p.open("/log", "a");
    const b = await p.open("/log", "a+");
    await a.write("a1\n");
    await b.write("b1\n", 0); // O_APPEND: position ignored
    await p.appendFile("/log", "f1\n");
    await a.close();
    await b.close();
    const text = (await fs.readFile("/log", "utf8")) as string;
    expect(text.startsWith("start\n")).toBe(true);
    expect(text.split("\n").slice(1, -1).sort()).toEqual(["a1", "b1", "f1"]);
  });

  it("a handle never closed stores nothing", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "keep");
    const h = await p.open("/f", "r+");
    await h.write("LOST", 0);
    expect(await fs.readFile("/f", "utf8")).toBe("keep");
  });

  it("sync stores; truncate on a handle; datasync same", async () => {
    const { p, fs } = fresh();
    const h = await p.open("/f", "w+");
    await h.writeFile("hello world");
    await h.sync();
    expect(await fs.readFile("/f", "utf8")).toBe("hello world");
    await h.truncate(5);
    await h.datasync();
    expect(await fs.readFile("/f", "utf8")).toBe("hello");
    await h.close();
  });

  it("handle.truncate on read-only handle EBADF; bad len EINVAL", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abc");
    const r = await p.open("/f");
    expect((await rejection(r.truncate(1))).code).toBe("EBADF");
    await r.close();
    const w = await p.open("/f", "r+");
    expect((await rejection(w.truncate(-1))).code).toBe("EINVAL");
    await w.close();
  });

  it("'w' truncates: content after close is only what was written", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "long old content");
    const h = await p.open("/f", "w");
    await h.write("new");
    await h.close();
    expect(await fs.readFile("/f", "utf8")).toBe("new");
  });
});

describe("watching", () => {
  it("watch a directory: rename on create, change on modify, rename on delete; relative names", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    const w = p.watch("/d", { interval: 5 });
    const events: [string, string][] = [];
    w.on("change", (t: string, f: string) => events.push([t, f]));
    try {
      let next = nextEvent(w, "change");
      await fs.writeFile("/d/a", "1");
      await next;
      next = nextEvent(w, "change");
      await fs.writeFile("/d/a", "2");
      await next;
      next = nextEvent(w, "change");
      await fs.rm("/d/a");
      await next;
      expect(events).toEqual([["rename", "a"], ["change", "a"], ["rename", "a"]]);
    } finally {
      w.close();
    }
  });

  it("recursive watch reports nested names relative to the directory; sees another Workspace's writes", async () => {
    const storage = nodeSqliteStorage(join(tmp, "shared.db"));
    const one = new Workspace({ storage });
    const two = new Workspace({ storage });
    await one.fs.mkdir("/d/sub", { recursive: true });
    const w = one.provider().watch("/d", { recursive: true, interval: 5 });
    try {
      const next = nextEvent(w, "change");
      await two.fs.writeFile("/d/sub/x", "1");
      expect(await next).toEqual(["rename", "sub/x"]);
    } finally {
      w.close();
    }
  });

  it("watch a missing path: one error (ENOENT) then close", async () => {
    const { p } = fresh();
    const w = p.watch("/missing", { interval: 5 });
    const errors: any[] = [];
    w.on("error", (e: any) => errors.push(e));
    await nextEvent(w, "close");
    expect(errors.length).toBe(1);
    expect([errors[0].code, errors[0].errno]).toEqual(["ENOENT", -2]);
    expect(w.closed).toBe(true);
  });

  it("watch a missing path without an error listener just closes (no throw)", async () => {
    const { p } = fresh();
    const w = p.watch("/missing", { interval: 5 });
    await nextEvent(w, "close");
    expect(w.closed).toBe(true);
  });

  it("signal aborts close the watcher; close emits close once", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    const ac = new AbortController();
    const w = p.watch("/d", { signal: ac.signal, interval: 5 });
    let closes = 0;
    w.on("close", () => closes++);
    ac.abort();
    expect(w.closed).toBe(true);
    w.close();
    expect(closes).toBe(1);
  });

  it("an already-aborted signal gives a closed watcher", () => {
    const { p, fs } = fresh();
    void fs;
    const w = p.watch("/", { signal: AbortSignal.abort(), interval: 5 });
    expect(w.closed).toBe(true);
  });

  it("workspace.close() closes the provider's watchers", async () => {
    const { workspace, fs } = fresh();
    await fs.mkdir("/d");
    const w = workspace.provider().watch("/d", { interval: 5 });
    await workspace.close();
    expect(w.closed).toBe(true);
  });

  it("bad watch/watchFile intervals throw TypeError", () => {
    const { p } = fresh();
    expect(() => p.watch("/", { interval: -5 })).toThrow(new TypeError("SQLiteWorkspaceProvider: interval must be a positive integer, got -5"));
    expect(() => p.watch("/", { interval: "abc" } as any)).toThrow(TypeError);
    expect(() => p.watchFile("/f", { interval: -1 }, () => {})).toThrow(TypeError);
    expect(() => (p as any).watchFile("/f", { interval: 5 })).toThrow(new TypeError("watchFile: listener must be a function"));
  });

  // A non-boolean `recursive` ("yes") is accepted silently (workspace.fs refuses non-boolean flags with TypeError).
  it("a non-boolean recursive option is refused", () => {
    const { p } = fresh();
    let w: any;
    expect(() => (w = p.watch("/", { recursive: "yes" } as any))).toThrow(TypeError);
    w?.close();
  });

  // A signal that is not an AbortSignal throws an internal "this[#signal]?.addEventListener is not a function".
  it("a non-AbortSignal signal is refused with an error naming the option", () => {
    const { p } = fresh();
    expect(() => p.watch("/", { signal: {} } as any)).toThrow(/^(?!.*is not a function).*signal/);
  });

  // watch("rel") / watch("/a\0") throw a bare WorkspaceFsError (no errno, message "EINVAL: path must be absolute (start with /), watch: rel"), unlike every other provider error.
  it("watch of a relative or NUL path fails with a node:fs error (errno -22, syscall watch)", () => {
    const { p } = fresh();
    for (const bad of ["rel", "/a\0"]) {
      let e: any;
      try {
        const w = p.watch(bad, { interval: 5 });
        w.close();
      } catch (error) {
        e = error;
      }
      expect(e).toBeDefined();
      expect(e.errno).toBe(-22);
      expect(e.message).toMatch(/^EINVAL: .*, watch '/);
    }
  });

  it("watchAsync yields {eventType, filename}; abort rejects with AbortError", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    const ac = new AbortController();
    const it = p.watchAsync("/d", { signal: ac.signal, interval: 5 });
    const first = it.next();
    await fs.writeFile("/d/n", "1");
    expect(await first).toEqual({ done: false, value: { eventType: "rename", filename: "n" } });
    const second = it.next();
    ac.abort();
    const e = await rejection(second);
    expect(e.name).toBe("AbortError");
  });

  it("watchAsync return() ends the iteration", async () => {
    const { p } = fresh();
    const it = p.watchAsync("/", { interval: 5 });
    expect(await it.return!()).toEqual({ done: true, value: undefined });
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it("watchFile calls (curr, prev); a missing file reports zeroed stats; unwatchFile stops", async () => {
    const { p, fs } = fresh();
    const calls: [any, any][] = [];
    let resolve!: () => void;
    let wait = new Promise<void>((r) => (resolve = r));
    const listener = (curr: any, prev: any) => {
      calls.push([curr, prev]);
      resolve();
    };
    p.watchFile("/wf", { interval: 5 }, listener);
    await fs.writeFile("/wf", "abc");
    await wait;
    expect(calls[0][0].size).toBe(3);
    expect(calls[0][1].size).toBe(0);
    expect(calls[0][1].mtimeMs).toBe(0);
    expect(calls[0][1].ino).toBe(0);
    wait = new Promise<void>((r) => (resolve = r));
    await fs.rm("/wf");
    await wait;
    expect(calls[1][0].size).toBe(0);
    expect(calls[1][0].mtimeMs).toBe(0);
    expect(calls[1][1].size).toBe(3);
    p.unwatchFile("/wf", listener);
  });
});

describe("git adapter (docs/git.md)", () => {
  // FIXED (docs): docs/git.md gave `(p) => new VirtualFileSystem(p)`, which fails ("git init failed: Cannot read
  // properties of undefined (reading 'bind')": the shim's promises lack chmod); it now shows chmod added and says why.
  it("the bare shim as adapter (no chmod) works through the git client's pack-bounded fs: init, add, commit, clean status", async () => {
    const { createGitClient } = await import("../../../src/git/index.js");
    const workspace = new Workspace({
      storage: nodeSqliteStorage(),
      git: createGitClient({ adapter: (p: any) => new VirtualFileSystem(p, { moduleHooks: false }) as any }),
      defaultGitIdentity: { name: "Probe", email: "probe@example.com" },
    });
    await workspace.fs.mkdir("/repo");
    // The client wraps the adapter's promises (pack-file bound) in a proxy over an empty target, binding each
    // method to the adapter's object; before, the bare shim failed "Cannot read properties of undefined (reading 'bind')".
    await workspace.git.init({ dir: "/repo" });
    await workspace.fs.writeFile("/repo/a.txt", "x");
    await workspace.git.add({ dir: "/repo", paths: ["a.txt"] });
    const { oid } = await workspace.git.commit({ dir: "/repo", message: "m" });
    expect(oid).toMatch(/^[0-9a-f]{40}$/);
    expect(await workspace.git.status({ dir: "/repo" })).toEqual([]);
  });
});

describe("git adapter with chmod added (docs/porting.md)", () => {
  it("VirtualFileSystem plus chmod from the provider: init, add, commit, clean status", async () => {
    const { createGitClient } = await import("../../../src/git/index.js");
    const workspace = new Workspace({
      storage: nodeSqliteStorage(),
      git: createGitClient({
        adapter: (p: any) => {
          const vfs = new VirtualFileSystem(p, { moduleHooks: false });
          return { promises: { ...vfs.promises, chmod: (path: string, mode: number) => p.chmod(path, mode) } } as any;
        },
      }),
      defaultGitIdentity: { name: "Probe", email: "probe@example.com" },
    });
    await workspace.fs.mkdir("/repo");
    await workspace.git.init({ dir: "/repo" });
    await workspace.fs.writeFile("/repo/a.txt", "hello\n");
    await workspace.git.add({ dir: "/repo", paths: ["a.txt"] });
    expect((await workspace.git.commit({ dir: "/repo", message: "first" })).oid).toMatch(/^[0-9a-f]{40}$/);
    expect(await workspace.git.status({ dir: "/repo" })).toEqual([]);
    expect(await workspace.provider().exists("/repo/.git/HEAD")).toBe(true);
  });
});

describe("more hostile input", () => {
  // writeFile with flag "r" (a read-only flag) writes the file; node:fs rejects with EBADF, the TSDoc says bad flags are EINVAL.
  it("writeFile with a read-only flag ('r') is refused and changes nothing", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "keep");
    const e = await rejection(p.writeFile("/f", "zz", { flag: "r" }));
    expect(["EBADF", "EINVAL"]).toContain(e.code);
    expect(await p.readFile("/f", "utf8")).toBe("keep");
  });

  // write() started before close() resolves { bytesWritten: 1 } yet nothing is stored (node's FileHandle.close waits for pending ops).
  it("a write racing close() is either stored or rejected, never reported written and lost", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "zz");
    const h = await p.open("/f", "r+");
    const [w] = await Promise.allSettled([h.write("Q", 0), h.close()]);
    if (w.status === "fulfilled") expect(await p.readFile("/f", "utf8")).toBe("Qz");
    else expect((w.reason as any).code).toBe("EBADF");
  });

  // handle.read("nope") rejects with a raw TypeError "buffer.set is not a function" (no code).
  it("handle.read with a non-buffer rejects with a coded error", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abc");
    const h = await p.open("/f");
    try {
      const e = await rejection(h.read("nope" as any, 0, 1, 0));
      expect(["EINVAL", "ERR_INVALID_ARG_TYPE"]).toContain(e.code);
    } finally {
      await h.close();
    }
  });

  // node:fs FileHandle.read() (no arguments) and read({ buffer, position }) work; here TypeError "reading 'byteLength'" and EINVAL.
  it("handle.read() and handle.read({ buffer, position }) as node:fs", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/f", "abc");
    const h = await p.open("/f");
    try {
      const r1 = await (h as any).read({ buffer: Buffer.alloc(2), position: 1 });
      expect([r1.bytesRead, Buffer.from(r1.buffer).toString()]).toEqual([2, "bc"]);
      const r2 = await (h as any).read();
      expect(r2.bytesRead).toBe(3);
    } finally {
      await h.close();
    }
  });

  // copyFile accepts any mode number (99); node:fs throws ERR_OUT_OF_RANGE for modes outside 0..7.
  it("copyFile with an out-of-range mode is refused", async () => {
    const { p, fs } = fresh();
    await fs.writeFile("/s", "x");
    await rejection(p.copyFile("/s", "/t", 99));
    expect(await p.exists("/t")).toBe(false);
  });

  // mkdir accepts an octal string mode ("750"); chmod("750") and open(…, "640") reject EINVAL — node:fs takes octal strings everywhere.
  it("octal-string modes are taken as node:fs takes them (chmod, open)", async () => {
    const { p, fs } = fresh();
    await p.mkdir("/d", "750" as any);
    expect((await p.stat("/d")).mode).toBe(0o40750);
    await fs.writeFile("/f", "x");
    await p.chmod("/f", "640" as any);
    expect((await p.stat("/f")).mode).toBe(0o100640);
    const h = await p.open("/g", "w", "600" as any);
    await h.close();
    expect((await p.stat("/g")).mode).toBe(0o100600);
  });

  it("non-string path to watch throws a node:fs EINVAL", () => {
    const { p } = fresh();
    const e = syncThrow(() => (p as any).watch(123));
    expect(shape(e)).toEqual({ code: "EINVAL", errno: -22, syscall: "watch", path: "123", message: "EINVAL: path must be a string, watch '123'" });
  });
});

describe("through @platformatic/vfs", () => {
  // The shim's existsSync catches the provider's ENOSYS and answers false for a file that exists.
  // Left as is: the provider is asynchronous only by design (docs/filesystem.md, "Asynchronous only",
  // which names this shim behaviour); a sync answer would need a synchronous path into the store.
  it.fails("vfs.existsSync of an existing file is true (or throws ENOSYS), never a silent false", async () => {
    const { workspace, fs } = fresh();
    await fs.writeFile("/f", "x");
    const vfs = new VirtualFileSystem(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    let answer: unknown;
    try {
      answer = vfs.existsSync("/f");
    } catch (e: any) {
      answer = e.code;
    }
    expect(["ENOSYS", true]).toContain(answer);
  });

  it("vfs sync calls throw ENOSYS naming the promise form; createReadStream fails with ENOSYS (openSync)", async () => {
    const { workspace, fs } = fresh();
    await fs.writeFile("/f", "x");
    const vfs = new VirtualFileSystem(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    const e = syncThrow(() => vfs.readFileSync("/f"));
    expect([e.code, e.errno, e.message]).toEqual(["ENOSYS", -38, "ENOSYS: SQLiteWorkspaceProvider is asynchronous: readFileSync is not supported; use the promise form (readFile, or vfs.promises.*), readFileSync ''"]);
    const stream = vfs.createReadStream("/f");
    const [err] = await new Promise<any[]>((resolve) => stream.once("error", (...a: any[]) => resolve(a)));
    expect(err.code).toBe("ENOSYS");
  });

  it("vfs promises: stat through a link, mkdir -p, realpath, symlink/readlink, watch, writeFile mode, access X_OK", async () => {
    const { workspace, fs } = fresh();
    await fs.mkdir("/d");
    await fs.symlink("/d", "/ld");
    const vfs = new VirtualFileSystem(workspace.provider() as unknown as VirtualProvider, { moduleHooks: false });
    expect((await vfs.promises.stat("/ld")).isDirectory()).toBe(true);
    expect(await vfs.promises.mkdir("/v/w", { recursive: true })).toBe("/v");
    expect(await vfs.promises.realpath("/ld")).toBe("/d");
    await vfs.promises.writeFile("/vm", "x", { mode: 0o600 });
    expect((await fs.stat("/vm")).mode).toBe(0o600);
    await vfs.promises.symlink("/vm", "/vl");
    expect(await vfs.promises.readlink("/vl")).toBe("/vm");
    expect((await rejection(vfs.promises.access("/vm", C.X_OK))).code).toBe("EACCES");
    const iterator = (vfs.promises.watch("/d", { interval: 5 }) as any)[Symbol.asyncIterator]();
    const next = iterator.next();
    await fs.writeFile("/d/q", "1");
    expect(await next).toEqual({ done: false, value: { eventType: "rename", filename: "q" } });
    await iterator.return?.();
  });
});

describe("late probes", () => {
  // realpath("rel") rejects with the bare WorkspaceFsError (no errno; message "EINVAL: path must be absolute (start with /), realpath: rel").
  it("realpath of a relative path is a node:fs EINVAL like every other method", async () => {
    const { p } = fresh();
    const e = await rejection(p.realpath("rel"));
    expect([e.code, e.errno, e.syscall]).toEqual(["EINVAL", -22, "realpath"]);
    expect(e.message).toMatch(/^EINVAL: .*, realpath 'rel'$/);
  });

  // appendFile ignores flag "ax" and appends to an existing file (node:fs: EEXIST).
  it("appendFile with flag 'ax' on an existing file is EEXIST", async () => {
    const { p } = fresh();
    await p.writeFile("/f", "x");
    expect((await rejection(p.appendFile("/f", "y", { flag: "ax" }))).code).toBe("EEXIST");
    expect(await p.readFile("/f", "utf8")).toBe("x");
  });

  // Fixed: "/f/" was read and written as "/f" (the Workspace drops trailing slashes); node:fs: ENOTDIR for a file
  // with a trailing slash. The provider now checks a path ending in "/" (or "/.") leads to a directory first.
  it("a trailing slash on a file path is ENOTDIR, as node:fs", async () => {
    const { p, fs } = fresh();
    await p.writeFile("/f", "keep");
    expect((await rejection(p.readFile("/f/"))).code).toBe("ENOTDIR");
    await rejection(p.writeFile("/f/", "x"));
    expect(await p.readFile("/f", "utf8")).toBe("keep");
    // Against the real node:fs: the same codes, messages and syscalls (paths relative to the temp root).
    await fs.symlink("/f", "/lf");
    await p.mkdir("/d");
    const setup = async (r: string) => {
      await realFs.writeFile(join(r, "f"), "keep");
      await realFs.symlink(join(r, "f"), join(r, "lf"));
      await realFs.mkdir(join(r, "d"));
    };
    expect(shape(await rejection(p.readFile("/f/")))).toEqual(await nodeShape((r) => realFs.readFile(join(r, "f") + "/"), setup));
    expect(shape(await rejection(p.stat("/lf/")))).toEqual(await nodeShape((r) => realFs.stat(join(r, "lf") + "/"), setup));
    expect(shape(await rejection(p.unlink("/f/.")))).toEqual(await nodeShape((r) => realFs.unlink(join(r, "f") + "/."), setup));
    expect(shape(await rejection(p.writeFile("/g/", "x")))).toEqual(await nodeShape((r) => realFs.writeFile(join(r, "g") + "/", "x"), setup));
    expect([await p.exists("/f/"), (await p.stat("/d/")).isDirectory(), await p.readdir("/d/")]).toEqual([false, true, []]);
    expect(await p.readFile("/f", "utf8")).toBe("keep");
  });

  it("a path past the Workspace's limits (9,000 deep: its ancestors' paths hold ~81 MB) is ENAMETOOLONG, worded as node:fs (whose PATH_MAX is 4 KiB)", async () => {
    const { p } = fresh();
    const long = `/${"a/".repeat(9000)}x`;
    expect(shape(await rejection(p.stat(long)))).toEqual(await nodeShape((r) => realFs.stat(join(r, long))));
    expect(shape(await rejection(p.writeFile(long, "x")))).toEqual(await nodeShape((r) => realFs.writeFile(join(r, long), "x")));
  });

  // mkdir of a new entry in a watched directory is reported as ["change","sub"] (docs: "rename" when an entry appears; files are "rename").
  it("a directory made in a watched directory is reported as 'rename'", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    const w = p.watch("/d", { interval: 5 });
    const events: [string, string][] = [];
    w.on("change", (t: string, f: string) => events.push([t, f]));
    try {
      const first = nextEvent(w, "change");
      await fs.mkdir("/d/sub");
      await first;
      const done = new Promise<void>((resolve) => w.on("change", (_t: string, f: string) => f === "top" && resolve()));
      await fs.writeFile("/d/top", "x");
      await done;
      expect(events).toEqual([["rename", "sub"], ["rename", "top"]]);
    } finally {
      w.close();
    }
  });

  // watch("/link-to-dir") reports nothing for writes in the directory (node:fs follows the link); a watcher on the
  // directory itself, same interval, sees two later writes meanwhile.
  it("watching through a symlink to a directory reports its changes", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await fs.symlink("/d", "/ld");
    const viaLink = p.watch("/ld", { interval: 5 });
    const direct = p.watch("/d", { interval: 5 });
    const seen: string[] = [];
    viaLink.on("change", (_t: string, f: string) => seen.push(f));
    try {
      let next = nextEvent(direct, "change");
      await fs.writeFile("/d/a", "1");
      await next;
      next = nextEvent(direct, "change");
      await fs.writeFile("/d/b", "1");
      await next;
      next = nextEvent(direct, "change");
      await fs.writeFile("/d/c", "1");
      await next;
      expect(seen).toContain("a");
    } finally {
      viaLink.close();
      direct.close();
    }
  });

  // A new symlink in a watched directory is reported as ["change","l"] too (docs: "rename" when an entry appears).
  it("a symlink made in a watched directory is reported as 'rename'", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    const w = p.watch("/d", { interval: 5 });
    try {
      const first = nextEvent(w, "change");
      await fs.symlink("/nowhere", "/d/l");
      expect(await first).toEqual(["rename", "l"]);
    } finally {
      w.close();
    }
  });

  // The new name is reported as ["change","b"] (docs: "rename" when an entry appears; node:fs on Linux: "rename" for both).
  it("mv a b inside a watched directory: 'rename' for both names", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/d");
    await fs.writeFile("/d/a", "1");
    const w = p.watch("/d", { interval: 5 });
    const events: [string, string][] = [];
    w.on("change", (t: string, f: string) => events.push([t, f]));
    try {
      const done = new Promise<void>((resolve) => w.on("change", (_t: string, f: string) => f === "z" && resolve()));
      await fs.rename("/d/a", "/d/b");
      await fs.writeFile("/d/z", "x");
      await done;
      expect(events.filter(([, f]) => f !== "z").sort()).toEqual([["rename", "a"], ["rename", "b"]]);
    } finally {
      w.close();
    }
  });
});

describe("concurrency and watcher bookkeeping", () => {
  // Concurrent open("/al", "a") of a missing file: all but one reject EEXIST (open "a" is not exclusive: create or open).
  it("ten concurrent open('a') of a missing file all succeed and all appends land", async () => {
    const { p } = fresh();
    const handles = await Promise.all(Array.from({ length: 10 }, () => p.open("/al", "a")));
    await Promise.all(handles.map((h, i) => h.write(`${i}\n`)));
    await Promise.all(handles.map((h) => h.close()));
    expect(((await p.readFile("/al", "utf8")) as string).split("\n").length - 1).toBe(10);
  });

  // Two concurrent open("/w", "w") of a missing file: the second rejects EEXIST ("w" is create-or-truncate, never exclusive).
  it("two concurrent open('w') of a missing file both succeed", async () => {
    const { p } = fresh();
    const handles = await Promise.all([p.open("/w", "w"), p.open("/w", "w")]);
    for (const h of handles) await h.close();
    expect(await p.exists("/w")).toBe(true);
  });

  it("concurrent exclusive creates: exactly one wins (open wx, writeFile wx, copyFile EXCL, mkdir)", async () => {
    const { p } = fresh();
    await p.writeFile("/s", "s");
    const codes = (r: PromiseSettledResult<unknown>[]) => r.map((x) => (x.status === "fulfilled" ? "ok" : (x.reason as any).code)).sort();
    const opens = await Promise.allSettled([p.open("/x", "wx"), p.open("/x", "wx"), p.open("/x", "wx")]);
    for (const o of opens) if (o.status === "fulfilled") await o.value.close();
    expect(codes(opens)).toEqual(["EEXIST", "EEXIST", "ok"]);
    expect(codes(await Promise.allSettled([p.writeFile("/y", "1", { flag: "wx" }), p.writeFile("/y", "2", { flag: "wx" })]))).toEqual(["EEXIST", "ok"]);
    expect(codes(await Promise.allSettled([p.copyFile("/s", "/c", C.COPYFILE_EXCL), p.copyFile("/s", "/c", C.COPYFILE_EXCL)]))).toEqual(["EEXIST", "ok"]);
    expect(codes(await Promise.allSettled([p.mkdir("/m"), p.mkdir("/m")]))).toEqual(["EEXIST", "ok"]);
  });

  it("fifty concurrent appendFile calls all land", async () => {
    const { p } = fresh();
    await Promise.all(Array.from({ length: 50 }, (_, i) => p.appendFile("/log", `${i}\n`)));
    const lines = ((await p.readFile("/log", "utf8")) as string).split("\n").slice(0, -1);
    expect(lines.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  // unwatchFile(path) without a listener ("every listener") leaves the listeners: hasNoListeners() stays false.
  it("unwatchFile(path) without a listener removes every listener", () => {
    const { p } = fresh();
    const a = p.watchFile("/f", { interval: 5 }, () => {});
    const b = p.watchFile("/f", { interval: 5 }, () => {});
    expect(a).toBe(b);
    p.unwatchFile("/f");
    expect(a.hasNoListeners()).toBe(true);
    a.stop();
  });

  it("unwatchFile(path, listener) removes that listener", () => {
    const { p } = fresh();
    const l = () => {};
    const a = p.watchFile("/f", { interval: 5 }, l);
    p.unwatchFile("/f", l);
    expect(a.hasNoListeners()).toBe(true);
    a.stop();
  });

  // The limit is on UNREAD events at any one time: once every write has been polled (and none read), at most 1,000
  // are delivered, the newest (the earlier probe read while the poller was still delivering, and got 1,009).
  it("watchAsync keeps at most 1,000 unread events", async () => {
    const { p, fs } = fresh();
    await fs.mkdir("/wd");
    const it = p.watchAsync("/wd", { interval: 5 });
    const first = it.next();
    await fs.writeFile("/wd/first", "x");
    await first;
    for (let i = 0; i < 1100; i++) await fs.writeFile(`/wd/f${String(i).padStart(4, "0")}`, "x");
    await fs.writeFile("/wd/zzz", "x");
    await new Promise((r) => setTimeout(r, 100));
    const got: string[] = [];
    for (;;) {
      const n = await it.next();
      got.push(n.value.filename);
      if (n.value.filename === "zzz") break;
    }
    await it.return!();
    expect(got.length).toBeLessThanOrEqual(1000);
  });
});
