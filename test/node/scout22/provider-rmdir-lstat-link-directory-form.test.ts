/**
 * Issue 20, twenty-second attack run (scout of fixes): the provider's rmdir and lstat of a link written with a
 * trailing `/` answer EINVAL, not Linux's ENOTDIR / the directory's stats.
 * Tried: 2e08df5 (provider: a link written with a trailing `/` is ENOTDIR for rename/unlink, readlink of `x/`
 * EINVAL/ENOTDIR/ENOENT — its comment names "rename(2), unlink(2), rmdir(2)") — the same shapes through the other
 * calls, side by side with node:fs on Linux: rmdir of `le/` (a link to an EMPTY directory), `ld/` (to a full one),
 * `dang/` (dangling); lstat of `ld/` and `lld/` (a link to that link).
 * Held: the fixed rename/unlink/readlink cases; rmdir of `lf/` (a link to a file) and of `ld` (no slash) are
 * ENOTDIR; lstat of `lf/` ENOTDIR and of `dang/` ENOENT; nothing is removed by any call below.
 * Found (low — error codes and a stat that node:fs-based code (globbers, `fs.lstat(dir + "/")`) branches on;
 * deterministic): provider.rmdir starts with the provider's own lstat, and lstat of `ld/` rejects
 * `EINVAL: invalid argument, lstat '/w/ld/'` (undocumented: its TSDoc lists ENOENT · ELOOP · EINVAL for bigint) —
 * so rmdir of `le/`/`ld/` is EINVAL naming lstat, and of `dang/` ENOENT; Linux's lstat(2) of `ld/` resolves through
 * the link (a trailing `/` follows it) and answers the directory, and rmdir(2) of any link with `/` is ENOTDIR.
 * Suggested fix: in statsOf/lstat (src/fs/provider.ts), a path ending in `/` is stat (the final link followed, as
 * Linux), and rmdir checks "a link written with `/`" (lstat without the slash) → ENOTDIR before its type check,
 * as the trailingSlashAware `rm` branch does for unlink.
 * Fixed: src/fs/provider.ts — trailingSlashAware's lstat of a path in directory form answers stat's result (the final
 * link followed; ENOTDIR for a file), so statsOf no longer reads the link (2e08df5 made that readlink EINVAL); rmdir
 * refuses a link written with a trailing `/` with ENOTDIR before anything else.
 */
import type { promises as real } from "node:fs";
import { expect, it } from "vitest";
import { onLinuxAndProvider } from "../fs/linux-oracle.js";

type Fs = Pick<typeof real, "rmdir" | "lstat" | "mkdir" | "writeFile" | "symlink" | "readdir">;
const kind = (s: { isDirectory(): boolean; isSymbolicLink(): boolean }) => (s.isDirectory() ? "directory" : s.isSymbolicLink() ? "link" : "other");
const calls: [string, (fs: Fs, b: string) => Promise<unknown>][] = [
  ["rmdir le/", (fs, b) => fs.rmdir(`${b}/le/`)],
  ["rmdir ld/", (fs, b) => fs.rmdir(`${b}/ld/`)],
  ["rmdir dang/", (fs, b) => fs.rmdir(`${b}/dang/`)],
  ["lstat ld/", (fs, b) => fs.lstat(`${b}/ld/`).then(kind)],
  ["lstat lld/", (fs, b) => fs.lstat(`${b}/lld/`).then(kind)],
];

async function run(fs: Fs, b: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [label, call] of calls) {
    const base = `${b}/${Object.keys(out).length}`;
    await fs.mkdir(base);
    await fs.mkdir(`${base}/d`);
    await fs.writeFile(`${base}/d/f.txt`, "f");
    await fs.mkdir(`${base}/e`);
    await fs.symlink("d", `${base}/ld`);
    await fs.symlink("ld", `${base}/lld`);
    await fs.symlink("e", `${base}/le`);
    await fs.symlink("nowhere", `${base}/dang`);
    const r = await call(fs, base).then((v) => `ok ${String(v)}`, (e: NodeJS.ErrnoException) => `${e.code}`);
    out[label] = `${r}; left ${(await fs.readdir(base)).sort().join(",")} e:${(await fs.readdir(`${base}/e`)).length}`;
  }
  return out;
}

it("rmdir and lstat of a link written with a trailing / answer as Linux", async () => {
  const { linux, provider } = await onLinuxAndProvider(run);
  const left = "left d,dang,e,ld,le,lld e:0";
  expect(linux).toEqual({
    "rmdir le/": `ENOTDIR; ${left}`,
    "rmdir ld/": `ENOTDIR; ${left}`,
    "rmdir dang/": `ENOTDIR; ${left}`,
    "lstat ld/": `ok directory; ${left}`,
    "lstat lld/": `ok directory; ${left}`,
  });
  // Found: rmdir le/ and ld/ EINVAL, dang/ ENOENT; lstat ld/ and lld/ EINVAL (nothing removed).
  expect(provider).toEqual(linux);
});
