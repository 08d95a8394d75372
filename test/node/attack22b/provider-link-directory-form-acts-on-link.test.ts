/**
 * Issue 20, twenty-second attack run: the node:fs provider (ws.provider()) treats `ld/` — a symbolic link to a
 * directory, written in directory form — as the link itself in rename, unlink and readlink. On Linux a trailing
 * slash makes the path resolve through the link to the directory: rename("ld/", "x") and unlink("ld/") are ENOTDIR
 * (the link is kept), readlink("ld/") is EINVAL (a directory is not a link). Nearby: rename("f.txt", "f.txt/x")
 * is ENOENT here, ENOTDIR in node:fs.
 * Tried: 86 calls side by side with node:fs in a temp dir (tree: d/f2.txt, d/sub, e, f.txt, ld->d, le->e, lf->f.txt,
 * dang->nowhere, loop->loop): rename/unlink/rmdir/mkdir/writeFile(wx)/appendFile/truncate/copyFile(EXCL)/symlink/
 * readlink/readdir/readFile/stat/realpath/access/chmod over files, directories, links, dangling links, loops, `x/`.
 * Held: 80 of them — every ELOOP, EISDIR/ENOTDIR/ENOTEMPTY/EINVAL of rename, rmdir ld/ ENOTDIR, writeFile through a
 * dangling link, copyFile onto itself, chmod through a link, modes.
 * Found (low — the link is moved or removed where Linux refuses and keeps it; nothing under d is touched; 2 of 2
 * runs): rename("ld/", "x") moves the link to x, unlink("ld/") removes it, readlink("ld/") answers "d".
 * Suggested fix: in the provider's rename/unlink/readlink, a path in directory form (util/path directoryForm)
 * whose last segment is a link resolves through it: ENOTDIR for rename/unlink when it names a directory (or
 * ENOTDIR/ENOENT as Linux when not), EINVAL for readlink; rename's newPath under a file is ENOTDIR.
 * Fixed: src/fs/provider.ts — trailingSlashAware refuses rename/unlink/rmdir of a link written with a trailing `/`
 * (either rename path; to a directory, a file or nothing) with ENOTDIR, as Linux, and readlink of a path in directory
 * form answers what it resolves to (a directory EINVAL, a file ENOTDIR, nothing ENOENT); rename's ENOENT becomes
 * ENOTDIR when a parent of newPath is a file. Siblings below (lf/, dang/, d -> ld/, f.txt/x/y).
 */
import { mkdtempSync, promises as real, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

type Fs = Pick<typeof real, "rename" | "unlink" | "readlink" | "mkdir" | "writeFile" | "symlink" | "lstat">;
const calls: [string, (fs: Fs, base: string) => Promise<unknown>][] = [
  ["rename ld/ x", (fs, b) => fs.rename(`${b}/ld/`, `${b}/x`)],
  ["unlink ld/", (fs, b) => fs.unlink(`${b}/ld/`)],
  ["readlink ld/", (fs, b) => fs.readlink(`${b}/ld/`)],
  ["rename f.txt f.txt/x", (fs, b) => fs.rename(`${b}/f.txt`, `${b}/f.txt/x`)],
];
const linux = { "rename ld/ x": "ENOTDIR", "unlink ld/": "ENOTDIR", "readlink ld/": "EINVAL", "rename f.txt f.txt/x": "ENOTDIR" };

async function setup(fs: Fs, b: string): Promise<void> {
  await fs.mkdir(`${b}/d`);
  await fs.writeFile(`${b}/d/f2.txt`, "two");
  await fs.writeFile(`${b}/f.txt`, "hello");
  await fs.symlink("d", `${b}/ld`);
}

async function run(fs: Fs, b: string): Promise<{ codes: Record<string, string>; linkKept: boolean[] }> {
  const codes: Record<string, string> = {};
  const linkKept: boolean[] = [];
  for (const [label, call] of calls) {
    const base = `${b}/${Object.keys(codes).length}`;
    await fs.mkdir(base);
    await setup(fs, base);
    codes[label] = await call(fs, base).then(() => "ok", (e: NodeJS.ErrnoException) => `${e.code}`);
    linkKept.push(await fs.lstat(`${base}/ld`).then((s) => s.isSymbolicLink(), () => false));
  }
  return { codes, linkKept };
}

it("node:fs on Linux (the oracle)", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "attack22b-"));
  try {
    expect(await run(real, tmp)).toEqual({ codes: linux, linkKept: [true, true, true, true] });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

it("the provider answers as node:fs and keeps the link", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.ready();
  await ws.fs.mkdir("/w");
  expect(await run(ws.provider() as unknown as Fs, "/w")).toEqual({ codes: linux, linkKept: [true, true, true, true] });
});

const siblings: [string, (fs: Fs, base: string) => Promise<unknown>][] = [
  ["rename lf/ x", (fs, b) => fs.rename(`${b}/lf/`, `${b}/x`)],
  ["rename dang/ x", (fs, b) => fs.rename(`${b}/dang/`, `${b}/x`)],
  ["rename e ld/", (fs, b) => fs.rename(`${b}/e`, `${b}/ld/`)],
  ["unlink lf/", (fs, b) => fs.unlink(`${b}/lf/`)],
  ["unlink dang/", (fs, b) => fs.unlink(`${b}/dang/`)],
  ["readlink lf/", (fs, b) => fs.readlink(`${b}/lf/`)],
  ["readlink dang/", (fs, b) => fs.readlink(`${b}/dang/`)],
  ["readlink ld/.", (fs, b) => fs.readlink(`${b}/ld/.`)],
  ["rename f.txt f.txt/x/y", (fs, b) => fs.rename(`${b}/f.txt`, `${b}/f.txt/x/y`)],
  ["readlink ld", (fs, b) => fs.readlink(`${b}/ld`)],
  ["rename ld x", (fs, b) => fs.rename(`${b}/ld`, `${b}/x`).then(() => fs.readlink(`${b}/x`))],
];

async function siblingCodes(fs: Fs, b: string): Promise<Record<string, string>> {
  const codes: Record<string, string> = {};
  for (const [label, call] of siblings) {
    const base = `${b}/s${Object.keys(codes).length}`;
    await fs.mkdir(base);
    await setup(fs, base);
    await fs.mkdir(`${base}/e`);
    await fs.symlink("f.txt", `${base}/lf`);
    await fs.symlink("nowhere", `${base}/dang`);
    codes[label] = await call(fs, base).then((v) => (typeof v === "string" ? v : "ok"), (e: NodeJS.ErrnoException) => `${e.code}`);
  }
  return codes;
}

const linuxSiblings = {
  "rename lf/ x": "ENOTDIR",
  "rename dang/ x": "ENOTDIR",
  "rename e ld/": "ENOTDIR",
  "unlink lf/": "ENOTDIR",
  "unlink dang/": "ENOTDIR",
  "readlink lf/": "ENOTDIR",
  "readlink dang/": "ENOENT",
  "readlink ld/.": "EINVAL",
  "rename f.txt f.txt/x/y": "ENOTDIR",
  "readlink ld": "d",
  "rename ld x": "d",
};

it("siblings: node:fs on Linux and the provider agree", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "attack22b-"));
  try {
    expect(await siblingCodes(real, tmp)).toEqual(linuxSiblings);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.ready();
  await ws.fs.mkdir("/w");
  expect(await siblingCodes(ws.provider() as unknown as Fs, "/w")).toEqual(linuxSiblings);
});
