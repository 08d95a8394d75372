/**
 * The workspace.fs → isomorphic-git `{ promises }` bridge (src/git/fs-bridge.ts):
 * every method with its exact results and error codes, then an isomorphic-git
 * repository built through it (from the generated bundle) that the real git
 * CLI reads back after the Workspace tree is copied out to disk.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { afterAll, describe, expect, it } from "vitest";
import { createWorkspaceFsBridge, GitFsStats } from "../../../src/git/fs-bridge.js";
import { loadIsomorphicGit } from "../../../src/git/load.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { Workspace } from "../../../src/workspace.js";
import type { WorkspaceFilesystem } from "../../../src/fs/types.js";

const tmp = mkdtempSync(join(tmpdir(), "ac-git-bridge-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const gitEnv = { PATH: process.env.PATH, HOME: tmp, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" };
const realGit = (cwd: string, args: string[]) => execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8", timeout: 30_000 });

function fresh() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  return { ws, fs: ws.fs };
}
async function bridge() {
  const { ws, fs } = fresh();
  const { promises: p } = await createWorkspaceFsBridge(ws);
  return { ws, fs, p };
}
/** The rejection's `code`, or "ok". */
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (e: unknown) => (e instanceof Error ? ((e as Error & { code?: string }).code ?? `no code: ${e.message}`) : `not an Error: ${String(e)}`),
  );

/** Copies the Workspace subtree at `from` to `to` on disk, keeping modes and links. */
async function copyOut(fs: WorkspaceFilesystem, from: string, to: string): Promise<void> {
  mkdirSync(to, { recursive: true });
  for (const entry of await fs.readdir(from)) {
    const src = `${from === "/" ? "" : from}/${entry.name}`;
    const dst = join(to, entry.name);
    if (entry.isDirectory) {
      await copyOut(fs, src, dst);
    } else if (entry.isSymbolicLink) {
      symlinkSync(await fs.readlink(src), dst);
    } else {
      const bytes = new Uint8Array(await new Response(await fs.readFile(src)).arrayBuffer());
      writeFileSync(dst, bytes);
      chmodSync(dst, (await fs.stat(src)).mode);
    }
  }
}

describe("fs bridge: each method", () => {
  it("readFile: a Buffer of the exact bytes (also across stored chunks), or a string that keeps a BOM", async () => {
    const { fs, p } = await bridge();
    await fs.writeFile("/t.txt", "\uFEFFhé\n");
    const bytes = await p.readFile("/t.txt");
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect([...(bytes as Uint8Array)]).toEqual([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9, 0x0a]);
    expect(await p.readFile("/t.txt", "utf8")).toBe("\uFEFFhé\n");
    expect(await p.readFile("/t.txt", { encoding: "utf8" })).toBe("\uFEFFhé\n");
    expect(await p.readFile("/t.txt", { encoding: "utf-8" })).toBe("\uFEFFhé\n");
    expect(Buffer.isBuffer(await p.readFile("/t.txt", { encoding: null }))).toBe(true);
    const big = new Uint8Array(1_300_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 9)) & 0xff;
    await fs.writeFile("/big.bin", big);
    const back = (await p.readFile("/big.bin")) as Uint8Array;
    expect(back.byteLength).toBe(big.byteLength);
    expect(Buffer.compare(Buffer.from(back), Buffer.from(big))).toBe(0);
    expect((await p.readFile("/empty-not-there").catch((e: Error) => e)) instanceof Error).toBe(true);
    expect(await code(p.readFile("/missing"))).toBe("ENOENT");
    expect(await code(p.readFile("/t.txt/x"))).toBe("ENOENT");
    await fs.mkdir("/d");
    expect(await code(p.readFile("/d"))).toBe("EISDIR");
    expect(await code(p.readFile("/t.txt", "latin1"))).toBe("EINVAL");
    await fs.writeFile("/empty", "");
    expect((await p.readFile("/empty")).length).toBe(0);
    expect(await p.readFile("/empty", "utf8")).toBe("");
  });

  it("writeFile: strings as UTF-8, bytes of any view; mode through a 0o022 umask (0o777 → 0o755, default 0o644)", async () => {
    const { fs, p } = await bridge();
    await p.writeFile("/a.txt", "ünï\n", "utf8");
    expect(await fs.readFile("/a.txt", "utf8")).toBe("ünï\n");
    expect((await fs.stat("/a.txt")).mode).toBe(0o644);
    await p.writeFile("/b.bin", Buffer.from([0, 1, 2, 255]));
    await p.writeFile("/c.bin", new Uint16Array([0x0201, 0x0403]));
    await p.writeFile("/d.bin", new Uint8Array([9, 8, 7]).buffer);
    const sub = new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 4);
    await p.writeFile("/e.bin", sub);
    expect([...((await p.readFile("/b.bin")) as Uint8Array)]).toEqual([0, 1, 2, 255]);
    expect([...((await p.readFile("/c.bin")) as Uint8Array)]).toEqual([1, 2, 3, 4]);
    expect([...((await p.readFile("/d.bin")) as Uint8Array)]).toEqual([9, 8, 7]);
    expect([...((await p.readFile("/e.bin")) as Uint8Array)]).toEqual([2, 3, 4]);
    await p.writeFile("/run.sh", "#!/bin/sh\n", { mode: 0o777 });
    expect((await fs.stat("/run.sh")).mode).toBe(0o755);
    await p.writeFile("/run.sh", "#!/bin/sh\n");
    expect((await fs.stat("/run.sh")).mode).toBe(0o644);
    await p.writeFile("/ro", "x", { mode: 0o600, encoding: "utf8" });
    expect((await fs.stat("/ro")).mode).toBe(0o600);
    expect(await code(p.writeFile("/nope/x", "x"))).toBe("ENOENT");
    expect(await code(p.writeFile("/a.txt/x", "x"))).toBe("ENOTDIR");
    await fs.mkdir("/dir");
    expect(await code(p.writeFile("/dir", "x"))).toBe("EISDIR");
    expect(await code(p.writeFile("/f", "x", "latin1"))).toBe("EINVAL");
    expect(await code(p.writeFile("/f", 42 as unknown as string))).toBe("EINVAL");
  });

  it("mkdir one level (0o755), EEXIST on any existing entry, ENOENT without parent; recursive creates the chain", async () => {
    const { fs, p } = await bridge();
    await p.mkdir("/r");
    expect((await fs.stat("/r")).mode).toBe(0o755);
    expect(await code(p.mkdir("/r"))).toBe("EEXIST");
    await fs.writeFile("/file", "x");
    expect(await code(p.mkdir("/file"))).toBe("EEXIST");
    expect(await code(p.mkdir("/a/b"))).toBe("ENOENT");
    expect(await code(p.mkdir("/file/sub"))).toBe("ENOTDIR");
    await p.mkdir("/a/b/c", { recursive: true });
    await p.mkdir("/a/b/c", { recursive: true });
    expect((await fs.stat("/a/b")).isDirectory).toBe(true);
    await p.mkdir("/priv", 0o700);
    expect((await fs.stat("/priv")).mode).toBe(0o700);
    await p.mkdir("/m", { mode: 0o777 });
    expect((await fs.stat("/m")).mode).toBe(0o755);
  });

  it("readdir: child names in byte order; ENOENT, ENOTDIR", async () => {
    const { fs, p } = await bridge();
    await fs.mkdir("/d");
    for (const n of ["b", "a", "Z", "é", "a.txt"]) await fs.writeFile(`/d/${n}`, n);
    await fs.mkdir("/d/sub");
    await fs.symlink("a", "/d/ln");
    expect(await p.readdir("/d")).toEqual(["Z", "a", "a.txt", "b", "ln", "sub", "é"]);
    expect(await p.readdir("/d/sub")).toEqual([]);
    expect(await code(p.readdir("/none"))).toBe("ENOENT");
    expect(await code(p.readdir("/d/a"))).toBe("ENOTDIR");
  });

  it("rmdir removes an empty directory only; unlink a file or link only; rm with recursive/force", async () => {
    const { fs, p } = await bridge();
    await fs.mkdir("/d/e", { recursive: true });
    await fs.writeFile("/d/f", "x");
    await fs.symlink("/d/f", "/ln");
    expect(await code(p.rmdir("/d"))).toBe("ENOTEMPTY");
    expect(await code(p.rmdir("/d/f"))).toBe("ENOTDIR");
    expect(await code(p.rmdir("/nope"))).toBe("ENOENT");
    expect(await code(p.rmdir("/ln"))).toBe("ENOTDIR");
    await p.rmdir("/d/e");
    expect(await fs.readdir("/d").then((l) => l.map((e) => e.name))).toEqual(["f"]);
    expect(await code(p.unlink("/d"))).toBe("EISDIR");
    expect(await code(p.unlink("/nope"))).toBe("ENOENT");
    await p.unlink("/ln");
    expect(await fs.readFile("/d/f", "utf8")).toBe("x");
    await p.unlink("/d/f");
    expect(await code(fs.stat("/d/f"))).toBe("ENOENT");
    await fs.mkdir("/t/u", { recursive: true });
    await fs.writeFile("/t/u/v", "x");
    expect(await code(p.rm("/t"))).toBe("ENOTEMPTY");
    await p.rm("/t", { recursive: true });
    expect(await code(fs.stat("/t"))).toBe("ENOENT");
    expect(await code(p.rm("/t"))).toBe("ENOENT");
    await p.rm("/t", { force: true });
  });

  it("stat/lstat: type bits, permission bits, ino, times, size (a link's in UTF-8 bytes); stat follows links", async () => {
    const { fs, p } = await bridge();
    await fs.writeFile("/f", "hello", { mode: 0o755 });
    await fs.mkdir("/d");
    await fs.symlink("tärget", "/ln");
    await fs.symlink("f", "/ok");
    const wsf = await fs.stat("/f");
    const f = await p.stat("/f");
    expect(f).toBeInstanceOf(GitFsStats);
    expect({ mode: f.mode, size: f.size, ino: f.ino, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs, dev: f.dev, uid: f.uid, gid: f.gid }).toEqual({
      mode: 0o100755,
      size: 5,
      ino: wsf.inode,
      mtimeMs: wsf.mtime,
      ctimeMs: wsf.mtime,
      dev: 0,
      uid: 0,
      gid: 0,
    });
    expect(f.mtime.getTime()).toBe(wsf.mtime);
    expect(f.ctime.getTime()).toBe(wsf.mtime);
    expect([f.isFile(), f.isDirectory(), f.isSymbolicLink()]).toEqual([true, false, false]);
    const d = await p.stat("/d");
    expect([d.mode, d.size, d.isFile(), d.isDirectory(), d.isSymbolicLink()]).toEqual([0o40755, 0, false, true, false]);
    const l = await p.lstat("/ln");
    expect([l.mode, l.size, l.isFile(), l.isDirectory(), l.isSymbolicLink()]).toEqual([0o120777, 7, false, false, true]);
    expect(l.ino).toBe((await fs.lstat("/ln")).inode);
    expect(await code(p.stat("/ln"))).toBe("ENOENT");
    const followed = await p.stat("/ok");
    expect([followed.mode, followed.size, followed.ino]).toEqual([0o100755, 5, wsf.inode]);
    expect((await p.lstat("/f")).mode).toBe(0o100755);
    expect(await code(p.stat("/missing"))).toBe("ENOENT");
    expect(await code(p.lstat("/f/x"))).toBe("ENOENT");
  });

  it("readlink (string or Buffer), symlink (EEXIST, ENOENT parent), chmod (no umask)", async () => {
    const { fs, p } = await bridge();
    await p.symlink("../ä/b", "/ln");
    expect(await fs.readlink("/ln")).toBe("../ä/b");
    expect(await p.readlink("/ln")).toBe("../ä/b");
    const buf = await p.readlink("/ln", { encoding: "buffer" });
    expect(Buffer.isBuffer(buf)).toBe(true);
    expect((buf as Buffer).toString("utf8")).toBe("../ä/b");
    expect(Buffer.isBuffer(await p.readlink("/ln", "buffer"))).toBe(true);
    expect(await code(p.symlink("x", "/ln"))).toBe("EEXIST");
    expect(await code(p.symlink("x", "/no/ln"))).toBe("ENOENT");
    await fs.writeFile("/f", "x");
    expect(await code(p.readlink("/f"))).toBe("EINVAL");
    expect(await code(p.readlink("/none"))).toBe("ENOENT");
    await p.chmod("/f", 0o777);
    expect((await fs.stat("/f")).mode).toBe(0o777);
    await p.chmod("/f", 0o100644);
    expect((await fs.stat("/f")).mode).toBe(0o644);
    expect(await code(p.chmod("/none", 0o644))).toBe("ENOENT");
  });

  it("every failure is an Error with a string code (what isomorphic-git branches on)", async () => {
    const { p } = await bridge();
    const e = await p.readFile("/missing").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect((e as { code: string }).code).toBe("ENOENT");
    const bad = await p.writeFile("/x", {} as unknown as string).catch((x: unknown) => x);
    expect(bad).toBeInstanceOf(Error);
    expect((bad as { code: string }).code).toBe("EINVAL");
  });
});

describe("isomorphic-git through the bridge; the real git reads the result", () => {
  it("init/add/commit/log in the Workspace: git fsck --strict is clean, same oids, modes and links, clean status", async () => {
    const { ws, fs } = fresh();
    const { git } = await loadIsomorphicGit();
    const bridged = await createWorkspaceFsBridge(ws);
    const dir = "/work/repo";
    await fs.mkdir(dir, { recursive: true });
    await git.init({ fs: bridged, dir, defaultBranch: "main" });
    expect(await fs.readFile(`${dir}/.git/HEAD`, "utf8")).toBe("ref: refs/heads/main\n");

    const author = { name: "Ada Lovelace", email: "ada@example.com", timestamp: 1_700_000_000, timezoneOffset: -120 };
    await fs.writeFile(`${dir}/README.md`, "# repo\n");
    await fs.mkdir(`${dir}/src/deep`, { recursive: true });
    await fs.writeFile(`${dir}/src/deep/a.ts`, "export const a = 1;\n");
    await fs.writeFile(`${dir}/run.sh`, "#!/bin/sh\necho hi\n", { mode: 0o755 });
    await fs.symlink("README.md", `${dir}/link`);
    await fs.writeFile(`${dir}/ünï côdé.txt`, "non-ASCII path\n");
    const binary = new Uint8Array(700_000);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919) & 0xff;
    await fs.writeFile(`${dir}/data.bin`, binary);
    await git.add({ fs: bridged, dir, filepath: "." });
    const first = await git.commit({ fs: bridged, dir, message: "first\n\nbody line\n", author });

    await fs.writeFile(`${dir}/README.md`, "# repo\n\nmore\n");
    await fs.rm(`${dir}/src/deep/a.ts`);
    await git.remove({ fs: bridged, dir, filepath: "src/deep/a.ts" });
    await git.add({ fs: bridged, dir, filepath: "README.md" });
    const second = await git.commit({ fs: bridged, dir, message: "second\n", author: { ...author, timestamp: author.timestamp + 60 } });

    const log = await git.log({ fs: bridged, dir });
    expect(log.map((c) => c.oid)).toEqual([second, first]);
    expect(log[0]!.commit.parent).toEqual([first]);
    expect(log[1]!.commit.message).toBe("first\n\nbody line\n");
    expect(
      (await git.statusMatrix({ fs: bridged, dir })).filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1)),
    ).toEqual([]);

    const disk = join(tmp, "repo-out");
    await copyOut(fs, dir, disk);
    expect(realGit(disk, ["fsck", "--strict", "--no-progress"])).toBe("");
    expect(realGit(disk, ["log", "--format=%H"]).trim().split("\n")).toEqual([second, first]);
    expect(realGit(disk, ["log", "-1", "--format=%an <%ae> %at %ai", first]).trim()).toBe(
      "Ada Lovelace <ada@example.com> 1700000000 2023-11-15 00:13:20 +0200",
    );
    expect(realGit(disk, ["ls-tree", "-r", "--format=%(objectmode) %(path)", "HEAD"]).trim().split("\n")).toEqual([
      "100644 README.md",
      "100644 data.bin",
      "120000 link",
      "100755 run.sh",
      '100644 "\\303\\274n\\303\\257 c\\303\\264d\\303\\251.txt"',
    ]);
    expect(realGit(disk, ["cat-file", "-p", "HEAD:link"])).toBe("README.md");
    expect(Buffer.compare(execFileSync("git", ["cat-file", "blob", "HEAD:data.bin"], { cwd: disk, env: gitEnv, maxBuffer: 8 << 20 }), Buffer.from(binary))).toBe(0);
    // The index isomorphic-git wrote is one the real git reads; the copied tree matches it.
    expect(realGit(disk, ["status", "--porcelain"])).toBe("");
    expect(readFileSync(join(disk, ".git/HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
  });

  it("a repository at / (the default dir): isomorphic-git's `${dir}/${path}` joins (`//README.md`) resolve", async () => {
    const { ws, fs } = fresh();
    const { git } = await loadIsomorphicGit();
    const bridged = await createWorkspaceFsBridge(ws);
    expect(await bridged.promises.readFile("//a/../x").catch((e: { code: string }) => e.code)).toBe("ENOENT");
    await git.init({ fs: bridged, dir: "/", defaultBranch: "main" });
    await fs.writeFile("/README.md", "root\n");
    await fs.mkdir("/src");
    await fs.writeFile("/src/a.txt", "a\n");
    await git.add({ fs: bridged, dir: "/", filepath: "." });
    const oid = await git.commit({ fs: bridged, dir: "/", message: "root\n", author: { name: "R", email: "r@e", timestamp: 1_700_000_000, timezoneOffset: 0 } });
    await fs.writeFile("/src/a.txt", "changed\n");
    expect((await git.statusMatrix({ fs: bridged, dir: "/" })).map((r) => r.join(" "))).toEqual(["README.md 1 1 1", "src/a.txt 1 2 1"]);
    await git.checkout({ fs: bridged, dir: "/", ref: "main", force: true });
    expect(await fs.readFile("/src/a.txt", "utf8")).toBe("a\n");
    const disk = join(tmp, "root-out");
    await copyOut(fs, "/", disk);
    expect(realGit(disk, ["fsck", "--strict", "--no-progress"])).toBe("");
    expect(realGit(disk, ["rev-parse", "HEAD"]).trim()).toBe(oid);
    expect(realGit(disk, ["status", "--porcelain"])).toBe("");
  });

  it("a repository the real git made (loose and packed objects) is read through the bridge", async () => {
    const src = join(tmp, "real");
    mkdirSync(src);
    realGit(src, ["init", "-q", "-b", "main"]);
    writeFileSync(join(src, "a.txt"), "one\n".repeat(500));
    realGit(src, ["add", "."]);
    realGit(src, ["-c", "user.name=R", "-c", "user.email=r@e", "commit", "-q", "-m", "one"]);
    writeFileSync(join(src, "a.txt"), "one\n".repeat(500) + "two\n");
    realGit(src, ["add", "."]);
    realGit(src, ["-c", "user.name=R", "-c", "user.email=r@e", "commit", "-q", "-m", "two"]);
    realGit(src, ["gc", "-q"]);
    writeFileSync(join(src, "b.txt"), "loose\n");
    realGit(src, ["add", "."]);
    realGit(src, ["-c", "user.name=R", "-c", "user.email=r@e", "commit", "-q", "-m", "three"]);
    const { ws, fs } = fresh();
    const copyIn = async (from: string, to: string) => {
      await fs.mkdir(to, { recursive: true });
      for (const entry of readdirSync(from, { withFileTypes: true })) {
        const full = join(from, entry.name);
        if (entry.isDirectory()) await copyIn(full, `${to}/${entry.name}`);
        else await fs.writeFile(`${to}/${entry.name}`, readFileSync(full));
      }
    };
    await copyIn(src, "/r");
    const { git } = await loadIsomorphicGit();
    const bridged = await createWorkspaceFsBridge(ws);
    const log = await git.log({ fs: bridged, dir: "/r" });
    expect(log.map((c) => c.oid)).toEqual(realGit(src, ["log", "--format=%H"]).trim().split("\n"));
    expect(log.map((c) => c.commit.message)).toEqual(["three\n", "two\n", "one\n"]);
    const { blob } = await git.readBlob({ fs: bridged, dir: "/r", oid: log[1]!.oid, filepath: "a.txt" });
    expect(Buffer.from(blob).toString("utf8")).toBe("one\n".repeat(500) + "two\n");
  });
});
