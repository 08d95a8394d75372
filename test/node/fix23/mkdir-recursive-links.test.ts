/**
 * Fixer SB2 (issue 20, run 23, findings b4/b5): recursive mkdir over symbolic links, entry point by entry point.
 * The provider (node:fs promises) is checked case by case against node:fs on Linux; `workspace.fs.mkdir` keeps spec
 * 01 §3.3 (a link at the leaf, even one to a directory, is EEXIST with `recursive`). The shell's `mkdir -p` and the
 * JavaScript backend's node:fs are in test/workers/fix23/mkdir-recursive-links.test.ts.
 */
import { expect, it } from "vitest";
import { onLinuxAndProvider, type NodeFsPromises } from "../fs/linux-oracle.js";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

/** d a directory, ld → d, lld → ld, dang → nope (dangling), f a file, lf → f, loop → loop. */
async function tree(fs: Pick<NodeFsPromises, "mkdir" | "symlink" | "writeFile">, base: string): Promise<void> {
  await fs.mkdir(`${base}/d`);
  await fs.symlink("d", `${base}/ld`);
  await fs.symlink("ld", `${base}/lld`);
  await fs.symlink("nope", `${base}/dang`);
  await fs.writeFile(`${base}/f`, "");
  await fs.symlink("f", `${base}/lf`);
  await fs.symlink("loop", `${base}/loop`);
}

const CASES = ["f/x/y", "loop/x/y", "d", "d/", "ld", "ld/", "ld/.", "lld", "lld/", "ld/sub/x", "dang", "dang/", "dang/x", "dang/x/y", "f", "f/", "f/.", "f/x", "lf", "lf/", "lf/x", "loop", "loop/x"];

it("recursive mkdir answers as node:fs's promises on Linux, case by case (code, message, return value)", async () => {
  const { linux, provider } = await onLinuxAndProvider(async (fs, base) => {
    await tree(fs, base);
    const out: Record<string, string> = {};
    for (const name of CASES) {
      try {
        const first = await fs.mkdir(`${base}/${name}`, { recursive: true });
        out[name] = `resolved ${first === undefined ? "undefined" : first.slice(base.length)}`;
      } catch (error) {
        out[name] = (error as Error).message.replaceAll(base, "B");
      }
    }
    out["d after"] = (await fs.readdir(`${base}/d`)).join(",");
    return out;
  });
  expect(linux).toEqual({
    d: "resolved undefined",
    "d/": "resolved undefined",
    ld: "resolved undefined",
    "ld/": "resolved undefined",
    "ld/.": "resolved undefined",
    lld: "resolved undefined",
    "lld/": "resolved undefined",
    "ld/sub/x": "resolved /ld/sub",
    dang: "ENOENT: no such file or directory, mkdir 'B/dang'",
    "dang/": "ENOENT: no such file or directory, mkdir 'B/dang/'",
    "dang/x": "ENOTDIR: not a directory, mkdir 'B/dang'",
    "dang/x/y": "ENOTDIR: not a directory, mkdir 'B/dang'",
    f: "EEXIST: file already exists, mkdir 'B/f'",
    "f/": "ENOTDIR: not a directory, mkdir 'B/f/'",
    "f/.": "ENOTDIR: not a directory, mkdir 'B/f/.'",
    "f/x": "ENOTDIR: not a directory, mkdir 'B/f/x'",
    lf: "EEXIST: file already exists, mkdir 'B/lf'",
    "lf/": "ENOTDIR: not a directory, mkdir 'B/lf/'",
    "lf/x": "ENOTDIR: not a directory, mkdir 'B/lf/x'",
    loop: "ELOOP: too many symbolic links encountered, mkdir 'B/loop'",
    "loop/x": "ELOOP: too many symbolic links encountered, mkdir 'B/loop/x'",
    "f/x/y": "ENOTDIR: not a directory, mkdir 'B/f/x/y'",
    "loop/x/y": "ELOOP: too many symbolic links encountered, mkdir 'B/loop/x/y'",
    "d after": "sub",
  });
  expect(provider).toEqual(linux);
});

it("the provider makes a missing directory through a link with the given mode, and nothing over a link to one", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.ready();
  await ws.fs.mkdir("/w");
  await tree(ws.fs as never, "/w");
  const vfs = ws.provider();
  const before = (await ws.fs.stat("/w/d")).mtime;
  expect(await vfs.mkdir("/w/ld", { recursive: true, mode: 0o700 })).toBeUndefined();
  expect(await vfs.mkdir("/w/lld/", { recursive: true })).toBeUndefined();
  expect((await ws.fs.lstat("/w/ld")).isSymbolicLink).toBe(true);
  expect((await ws.fs.stat("/w/d")).mtime).toBe(before);
  expect(await vfs.mkdir("/w/ld/n", { recursive: true, mode: 0o700 })).toBe("/w/ld/n");
  expect((await ws.fs.stat("/w/d/n")).mode & 0o777).toBe(0o700 & ~0o022);
  // Without recursive a link to a directory is still EEXIST, as mkdir(2).
  await expect(vfs.mkdir("/w/ld")).rejects.toMatchObject({ code: "EEXIST", syscall: "mkdir", path: "/w/ld" });
  expect((await ws.fs.readdir("/w/d")).map((e) => e.name)).toEqual(["n"]);
  await ws.close();
});

it("workspace.fs.mkdir recursive keeps spec 01: a link at the leaf is EEXIST, a dangling link in the chain ENOENT", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.ready();
  await ws.fs.mkdir("/w");
  await tree(ws.fs as never, "/w");
  const codes: Record<string, string> = {};
  for (const name of ["ld", "ld/", "dang", "dang/x", "ld/sub"]) {
    try {
      await ws.fs.mkdir(`/w/${name}`, { recursive: true });
      codes[name] = "resolved";
    } catch (error) {
      codes[name] = (error as { code: string }).code;
    }
  }
  expect(codes).toEqual({ ld: "EEXIST", "ld/": "EEXIST", dang: "EEXIST", "dang/x": "ENOENT", "ld/sub": "resolved" });
  await ws.close();
});
