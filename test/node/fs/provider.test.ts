/**
 * `workspace.provider()` — SQLiteWorkspaceProvider (spec 01 §1.2): the
 * Workspace as a node:vfs-style provider. Driven through the real
 * `@platformatic/vfs` (`new VirtualFileSystem(provider)` → node:fs-like API; its `create()` takes only its own `VirtualProvider` subclasses), and directly
 * for what that shim does not reach (file handles' writes, link, the sync
 * forms). Every result is checked against the bytes and modes
 * `workspace.fs` then holds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { afterAll, describe, expect, it } from "vitest";
import { VirtualFileSystem, type VirtualProvider } from "@platformatic/vfs";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";
import type { WorkspaceStats } from "../../../src/index.js";

const tmp = mkdtempSync(join(tmpdir(), "ac-provider-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fresh(file = ":memory:") {
  return new Workspace({ storage: nodeSqliteStorage(file) });
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function errorOf(promise: Promise<unknown> | (() => unknown)): Promise<Record<string, unknown>> {
  try {
    if (typeof promise === "function") promise();
    else await promise;
  } catch (error) {
    const e = error as Record<string, unknown> & Error;
    return { message: e.message, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path };
  }
  throw new Error("expected a rejection");
}

describe("workspace.provider()", () => {
  it("is memoised, writable, with symlinks and watch", () => {
    const ws = fresh();
    const provider = ws.provider();
    expect(provider).toBeInstanceOf(SQLiteWorkspaceProvider);
    expect(ws.provider()).toBe(provider);
    expect({ readonly: provider.readonly, supportsSymlinks: provider.supportsSymlinks, supportsWatch: provider.supportsWatch }).toEqual({ readonly: false, supportsSymlinks: true, supportsWatch: true });
  });

  it("a mount factory receives it as ctx.vfs", () => {
    let seen: unknown;
    const ws = new Workspace({
      storage: nodeSqliteStorage(":memory:"),
      mounts: {
        "/data": (ctx) => {
          seen = ctx.vfs;
          return { strategy: "eager", mode: "read-write", kind: "test", materialize: async () => {} } as never;
        },
      },
    });
    expect(seen).toBe(ws.provider());
  });
});

describe("through @platformatic/vfs (promises API)", () => {
  it("writes, reads, lists and stats with node:fs results, and workspace.fs holds the same bytes", async () => {
    const ws = fresh();
    const vfs = new VirtualFileSystem(ws.provider() as unknown as VirtualProvider, { moduleHooks: false });
    expect(await vfs.promises.mkdir("/a/b/c", { recursive: true })).toBe("/a");
    expect(await vfs.promises.mkdir("/a/b/c", { recursive: true })).toBeUndefined();
    await vfs.promises.writeFile("/a/b/c/hello.txt", "héllo\n");
    await vfs.promises.writeFile("/a/bin.dat", Buffer.from([0, 255, 128, 10]));
    expect(await ws.fs.readFile("/a/b/c/hello.txt", "utf8")).toBe("héllo\n");
    expect((await ws.fs.stat("/a/b/c/hello.txt")).mode).toBe(0o644);
    expect((await ws.fs.stat("/a/b")).mode).toBe(0o755);
    const bytes = await vfs.promises.readFile("/a/bin.dat");
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect([...bytes]).toEqual([0, 255, 128, 10]);
    expect(await vfs.promises.readFile("/a/b/c/hello.txt", "utf8")).toBe("héllo\n");
    expect(await vfs.promises.readdir("/a")).toEqual(["b", "bin.dat"]);
    const dirents = (await vfs.promises.readdir("/a", { withFileTypes: true })).map((d) => [d.name, d.isFile(), d.isDirectory(), d.parentPath]);
    expect(dirents).toEqual([["b", false, true, "/a"], ["bin.dat", true, false, "/a"]]);
    const stat = await vfs.promises.stat("/a/b/c/hello.txt");
    expect({ mode: stat.mode, size: stat.size, nlink: stat.nlink, file: stat.isFile(), dir: stat.isDirectory(), ino: stat.ino }).toEqual({
      mode: 0o100644,
      size: 7,
      nlink: 1,
      file: true,
      dir: false,
      ino: (await ws.fs.stat("/a/b/c/hello.txt")).inode,
    });
    expect(stat.mtime).toBeInstanceOf(Date);
    expect((await vfs.promises.stat("/a")).mode).toBe(0o40755);
  });

  it("appendFile, copyFile, rename, unlink, rmdir, symlink, readlink, realpath, access", async () => {
    const ws = fresh();
    const vfs = new VirtualFileSystem(ws.provider() as unknown as VirtualProvider, { moduleHooks: false });
    await vfs.promises.mkdir("/d");
    await vfs.promises.appendFile("/d/log", "one\n");
    await vfs.promises.appendFile("/d/log", "two\n");
    expect(await ws.fs.readFile("/d/log", "utf8")).toBe("one\ntwo\n");
    await ws.fs.chmod("/d/log", 0o600);
    await vfs.promises.copyFile("/d/log", "/d/copy");
    expect(await ws.fs.readFile("/d/copy", "utf8")).toBe("one\ntwo\n");
    expect((await ws.fs.stat("/d/copy")).mode).toBe(0o600);
    expect(await errorOf(vfs.promises.copyFile("/d/log", "/d/copy", 1))).toMatchObject({ code: "EEXIST", syscall: "copyfile" });
    await vfs.promises.rename("/d/copy", "/d/moved");
    expect(await vfs.promises.readdir("/d")).toEqual(["log", "moved"]);
    await vfs.promises.symlink("log", "/d/link");
    expect(await vfs.promises.readlink("/d/link")).toBe("log");
    expect(await vfs.promises.realpath("/d/link")).toBe("/d/log");
    expect((await vfs.promises.lstat("/d/link")).isSymbolicLink()).toBe(true);
    expect((await vfs.promises.lstat("/d/link")).size).toBe(3);
    await vfs.promises.access("/d/log");
    expect(await errorOf(vfs.promises.access("/d/log", 1))).toMatchObject({ code: "EACCES", syscall: "access" });
    await vfs.promises.unlink("/d/link");
    await vfs.promises.unlink("/d/moved");
    expect(await errorOf(vfs.promises.rmdir("/d"))).toMatchObject({ code: "ENOTEMPTY", syscall: "rmdir" });
    await vfs.promises.unlink("/d/log");
    await vfs.promises.rmdir("/d");
    expect(await ws.fs.readdir("/")).toEqual([]);
  });

  it("fails with node:fs errors: code, negative errno, syscall, path and message", async () => {
    const ws = fresh();
    const vfs = new VirtualFileSystem(ws.provider() as unknown as VirtualProvider, { moduleHooks: false });
    await ws.fs.mkdir("/dir");
    expect(await errorOf(vfs.promises.readFile("/nope"))).toEqual({ message: "ENOENT: no such file or directory, open '/nope'", code: "ENOENT", errno: -2, syscall: "open", path: "/nope" });
    expect(await errorOf(vfs.promises.unlink("/dir"))).toEqual({ message: "EISDIR: illegal operation on a directory, unlink '/dir'", code: "EISDIR", errno: -21, syscall: "unlink", path: "/dir" });
    expect(await errorOf(vfs.promises.readdir("/nope"))).toMatchObject({ code: "ENOENT", syscall: "scandir" });
    expect(await errorOf(vfs.promises.mkdir("/dir"))).toMatchObject({ code: "EEXIST", errno: -17, syscall: "mkdir" });
    expect(await errorOf(vfs.promises.writeFile("/missing/f", "x"))).toMatchObject({ code: "ENOENT", syscall: "open" });
    expect(await errorOf(vfs.promises.readFile("/dir"))).toMatchObject({ code: "EISDIR" });
    expect(await errorOf(vfs.promises.readFile("/dir", "latin1"))).toMatchObject({ code: "EINVAL", message: "EINVAL: unsupported encoding 'latin1': only utf8 (or buffer) is supported, open '/dir'" });
    expect(await errorOf(ws.provider().link("/dir", "/hard"))).toMatchObject({ code: "ENOSYS", syscall: "link", errno: -38 });
    expect(await errorOf(ws.provider().link("/nope", "/hard"))).toMatchObject({ code: "ENOENT", syscall: "lstat" });
    expect(await errorOf(() => ws.provider().statSync())).toMatchObject({
      code: "ENOSYS",
      message: "ENOSYS: SQLiteWorkspaceProvider is asynchronous: statSync is not supported; use the promise form (stat, or vfs.promises.*), statSync ''",
    });
    expect(await errorOf(vfs.promises.stat("/dir", { bigint: true }))).toMatchObject({ code: "EINVAL", message: "EINVAL: bigint stats are not supported, stat '/dir'" });
    // The Workspace's own error is kept as the cause.
    try {
      await vfs.promises.readFile("/nope");
    } catch (error) {
      expect((error as Error & { cause: { name: string } }).cause.name).toBe("WorkspaceFsError");
    }
  });

  it("callback API: open, read, fstat, close on a handle reading byte ranges", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "0123456789");
    const vfs = new VirtualFileSystem(ws.provider() as unknown as VirtualProvider, { moduleHooks: false });
    const fd = await new Promise<number>((resolve, reject) => vfs.open("/f", "r", (err, fd) => (err ? reject(err) : resolve(fd))));
    const buffer = Buffer.alloc(4);
    const n = await new Promise<number>((resolve, reject) => vfs.read(fd, buffer, 0, 4, 3, (err, n) => (err ? reject(err) : resolve(n))));
    expect([n, buffer.toString()]).toEqual([4, "3456"]);
    const stat = await new Promise<{ size: number }>((resolve, reject) => vfs.fstat(fd, (err, s) => (err ? reject(err) : resolve(s))));
    expect(stat.size).toBe(10);
    await new Promise<void>((resolve, reject) => vfs.close(fd, (err) => (err ? reject(err) : resolve())));
  });
});

describe("file handles", () => {
  it("writes are held by the handle and stored atomically at close, keeping the mode", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "old content", { mode: 0o600 });
    const provider = ws.provider();
    const h = await provider.open("/f", "w");
    expect(await ws.fs.readFile("/f", "utf8")).toBe("");
    await h.write(Buffer.from("hello "));
    await h.write("world");
    expect(await ws.fs.readFile("/f", "utf8")).toBe("");
    expect((await h.stat()).size).toBe(11);
    await h.close();
    expect(await ws.fs.readFile("/f", "utf8")).toBe("hello world");
    expect((await ws.fs.stat("/f")).mode).toBe(0o600);
    await h.close();
    expect(await errorOf(h.write("x"))).toMatchObject({ code: "EBADF", syscall: "write" });
  });

  it("r+ writes at positions, zero-fills a gap, reads its own writes; a+ appends whatever the position", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "abcdef");
    const provider = ws.provider();
    const h = await provider.open("/f", "r+");
    await h.write(Buffer.from("XY"), 0, 2, 2);
    await h.write(Buffer.from("Z"), 0, 1, 8);
    const out = Buffer.alloc(9);
    const { bytesRead } = await h.read(out, 0, 9, 0);
    expect([bytesRead, [...out]]).toEqual([9, [...Buffer.from("abXYef\0\0Z")]]);
    await h.sync();
    expect([...(await ws.fs.readFile("/f", "utf8"))]).toEqual([..."abXYef\0\0Z"]);
    await h.truncate(3);
    await h.close();
    expect(await ws.fs.readFile("/f", "utf8")).toBe("abX");
    const a = await provider.open("/f", "a+");
    await a.write(Buffer.from("!"), 0, 1, 0);
    await a.close();
    expect(await ws.fs.readFile("/f", "utf8")).toBe("abX!");
  });

  it("open flags: create with the umask, wx on an existing file, r on a missing one, a directory for writing, a read-only handle", async () => {
    const ws = fresh();
    const provider = ws.provider();
    await (await provider.open("/new", "w", 0o777)).close();
    expect((await ws.fs.stat("/new")).mode).toBe(0o755);
    expect(await errorOf(provider.open("/new", "wx"))).toMatchObject({ code: "EEXIST", syscall: "open" });
    expect(await errorOf(provider.open("/missing"))).toMatchObject({ code: "ENOENT", syscall: "open", path: "/missing" });
    await ws.fs.mkdir("/dir");
    expect(await errorOf(provider.open("/dir", "w"))).toMatchObject({ code: "EISDIR", syscall: "open" });
    expect(await errorOf(provider.open("/new", "rw"))).toMatchObject({ code: "EINVAL", syscall: "open" });
    const r = await provider.open("/new");
    expect(await errorOf(r.write("x"))).toMatchObject({ code: "EBADF", message: "EBADF: bad file descriptor: the handle was opened with flags \"r\", write '/new'" });
    await r.close();
    // Numeric O_* flags: O_WRONLY | O_CREAT | O_TRUNC.
    const n = await provider.open("/num", 0o1101);
    await n.write("n");
    await n.close();
    expect(await ws.fs.readFile("/num", "utf8")).toBe("n");
  });

  it("a r+ handle does not overwrite another writer's change: close rejects ESTALE and the other content stays", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "original");
    const h = await ws.provider().open("/f", "r+");
    await h.write("X", 0);
    await ws.fs.writeFile("/f", "someone else");
    expect(await errorOf(h.close())).toMatchObject({ code: "ESTALE", syscall: "write", errno: -116 });
    expect(h.closed).toBe(true);
    expect(await ws.fs.readFile("/f", "utf8")).toBe("someone else");
  });

  it("a handle names its file: after a rename its reads fail ESTALE instead of reaching what is now at the path", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "mine");
    const h = await ws.provider().open("/f", "r");
    await ws.fs.rename("/f", "/g");
    await ws.fs.writeFile("/f", "another file");
    expect(await errorOf(h.readFile("utf8"))).toMatchObject({ code: "ESTALE", message: "ESTALE: stale file handle: the path now leads to another file than the one opened, read '/f'" });
    await h.close();
  });

  it("a handle holds at most maxOpenFileBytes (EFBIG), and the file is left intact", async () => {
    const ws = fresh();
    const provider = new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: 16 });
    await ws.fs.writeFile("/big", "x".repeat(17));
    expect(await errorOf(provider.open("/big", "r+"))).toMatchObject({ code: "EFBIG", syscall: "open" });
    await ws.fs.writeFile("/small", "0123456789");
    const h = await provider.open("/small", "r+");
    expect(await errorOf(h.write("0123456789", 10))).toMatchObject({ code: "EFBIG", syscall: "write" });
    await h.close();
    expect(await ws.fs.readFile("/small", "utf8")).toBe("0123456789");
    expect(() => new SQLiteWorkspaceProvider(ws, { maxOpenFileBytes: 0 })).toThrow("SQLiteWorkspaceProvider: maxOpenFileBytes must be a positive integer, got 0");
  });
});

describe("watching through the change log", () => {
  it("watch: rename for an entry that appears or goes, change for one seen before; only direct entries without recursive", async () => {
    const ws = fresh();
    await ws.fs.mkdir("/w/sub", { recursive: true });
    await ws.fs.writeFile("/w/old", "1");
    const provider = new SQLiteWorkspaceProvider(ws, { watchIntervalMs: 5 });
    const events: [string, string][] = [];
    const watcher = provider.watch("/w");
    watcher.on("change", (type: string, name: string) => events.push([type, name]));
    await new Promise((r) => setTimeout(r, 30));
    const step = async (mutate: () => Promise<unknown>, expected: [string, string]) => {
      const before = events.length;
      await mutate();
      await until(() => (events.length > before ? true : undefined), expected.join(" "));
      expect(events.slice(before)).toEqual([expected]);
    };
    await step(() => ws.fs.writeFile("/w/old", "2"), ["change", "old"]);
    await step(() => ws.fs.writeFile("/w/new", "x"), ["rename", "new"]);
    await step(() => ws.fs.writeFile("/w/new", "y"), ["change", "new"]);
    await step(() => ws.fs.rm("/w/new"), ["rename", "new"]);
    // Deeper than one level: nothing (the directory itself is not re-stamped by a child's write).
    await ws.fs.writeFile("/w/sub/deep", "x");
    await step(() => ws.fs.writeFile("/w/last", "x"), ["rename", "last"]);
    watcher.close();
    expect(watcher.closed).toBe(true);
  });

  it("recursive watch sees nested paths, and changes made by another Workspace on the same file", async () => {
    const file = join(tmp, "watch.sqlite");
    const a = fresh(file);
    await a.fs.mkdir("/w", { recursive: true });
    const provider = new SQLiteWorkspaceProvider(a, { watchIntervalMs: 5 });
    const events: string[] = [];
    const watcher = provider.watch("/w", { recursive: true });
    watcher.on("change", (type: string, name: string) => events.push(`${type} ${name}`));
    await new Promise((r) => setTimeout(r, 30));
    const b = fresh(file);
    await b.fs.mkdir("/w/x/y", { recursive: true });
    await b.fs.writeFile("/w/x/y/z.txt", "from b");
    await until(() => (events.includes("rename x/y/z.txt") ? true : undefined), "the nested file");
    watcher.close();
    expect(events).toEqual(["rename x", "rename x/y", "rename x/y/z.txt"]);
  });

  it("watchAsync yields { eventType, filename } and ends with an AbortError when aborted", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "1");
    const provider = new SQLiteWorkspaceProvider(ws, { watchIntervalMs: 5 });
    const controller = new AbortController();
    const iterator = provider.watchAsync("/f", { signal: controller.signal });
    const first = iterator.next();
    await new Promise((r) => setTimeout(r, 30));
    await ws.fs.writeFile("/f", "2");
    expect(await first).toEqual({ value: { eventType: "change", filename: "f" }, done: false });
    const second = iterator.next();
    controller.abort();
    expect(await errorOf(second)).toMatchObject({ message: "The operation was aborted" });
  });

  it("watchFile calls the listener with current and previous stats; a removed file reports zeroed stats", async () => {
    const ws = fresh();
    await ws.fs.writeFile("/f", "1");
    const provider = ws.provider();
    const calls: [number, number][] = [];
    const listener = (curr: WorkspaceStats, prev: WorkspaceStats) => calls.push([curr.size, prev.size]);
    provider.watchFile("/f", { interval: 5 }, listener);
    await new Promise((r) => setTimeout(r, 30));
    await ws.fs.writeFile("/f", "123");
    await until(() => (calls.length >= 1 ? true : undefined), "the first change");
    await ws.fs.rm("/f");
    await until(() => (calls.length >= 2 ? true : undefined), "the removal");
    provider.unwatchFile("/f", listener);
    expect(calls).toEqual([
      [3, 1],
      [0, 3],
    ]);
  });
});
