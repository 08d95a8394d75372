/**
 * Issue 20, twenty-second attack run (scout of fixes): a file among the parents of rename's OLD path (and of
 * unlink/rmdir/readlink's path) is ENOENT in the provider; Linux says ENOTDIR.
 * Tried: 2e08df5 (provider rename: "a file (or a link to one) among newPath's parents is ENOTDIR, not ENOENT",
 * #parentIsNotDirectory) — the same parent on the other operand and on the other calls that name one path, side
 * by side with node:fs on Linux: rename `f.txt/x` → `y`, rename `lf/x` → `y` (lf a link to f.txt), unlink
 * `f.txt/x`, rmdir `f.txt/x`, readlink `f.txt/x` and `lf/x`.
 * Held: rename `f.txt` → `f.txt/x` / `lf/x` and `missing` → `f.txt/x` are ENOTDIR (the fix), and so is mkdir
 * `f.txt/x`; nothing moves or goes.
 * Found (low — the code a caller branches on, and the fix's own rule answered for one operand of one call;
 * deterministic): each case above rejects ENOENT. Wider than the fix's calls: lstat, stat, readdir, chmod, truncate
 * and readFile of `f.txt/x` are ENOENT too (Linux: ENOTDIR) — the Workspace's path walk says ENOENT for a file met
 * mid-path, and only rename's newPath was patched over it.
 * Suggested fix: apply #parentIsNotDirectory to the error of every provider call (ENOENT → ENOTDIR when an existing
 * parent is not a directory) — rename's oldPath, unlink, rmdir, readlink (the call() wrapper is one place) — or have
 * the Workspace's path walk say ENOTDIR for a file met mid-path, as lstat already does.
 * Fixed: src/fs/provider.ts — trailingSlashAware now wraps every workspace.fs call the provider makes: an ENOENT
 * becomes ENOTDIR when an existing parent of a path the call names (both of rename's, symlink's link path) is a file
 * or a link to one; the walk stops at the first missing parent. rename's own newPath check (2e08df5) is folded in.
 */
import type { promises as real } from "node:fs";
import { expect, it } from "vitest";
import { onLinuxAndProvider } from "../fs/linux-oracle.js";

type Fs = Pick<typeof real, "rename" | "unlink" | "rmdir" | "readlink" | "mkdir" | "writeFile" | "symlink" | "readdir">;
const calls: [string, (fs: Fs, b: string) => Promise<unknown>][] = [
  ["rename f.txt/x y", (fs, b) => fs.rename(`${b}/f.txt/x`, `${b}/y`)],
  ["rename lf/x y", (fs, b) => fs.rename(`${b}/lf/x`, `${b}/y`)],
  ["unlink f.txt/x", (fs, b) => fs.unlink(`${b}/f.txt/x`)],
  ["rmdir f.txt/x", (fs, b) => fs.rmdir(`${b}/f.txt/x`)],
  ["readlink f.txt/x", (fs, b) => fs.readlink(`${b}/f.txt/x`)],
  ["readlink lf/x", (fs, b) => fs.readlink(`${b}/lf/x`)],
  ["rename f.txt f.txt/x (fixed)", (fs, b) => fs.rename(`${b}/f.txt`, `${b}/f.txt/x`)],
];

async function run(fs: Fs, b: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [label, call] of calls) {
    const base = `${b}/${Object.keys(out).length}`;
    await fs.mkdir(base);
    await fs.writeFile(`${base}/f.txt`, "f");
    await fs.symlink("f.txt", `${base}/lf`);
    const r = await call(fs, base).then(() => "ok", (e: NodeJS.ErrnoException) => `${e.code}`);
    out[label] = `${r}; left ${(await fs.readdir(base)).sort().join(",")}`;
  }
  return out;
}

it("a file among the parents of the path is ENOTDIR for rename's old path, unlink, rmdir and readlink", async () => {
  const { linux, provider } = await onLinuxAndProvider(run);
  expect(Object.values(linux)).toEqual(Array(calls.length).fill("ENOTDIR; left f.txt,lf"));
  // Found: ENOENT for all but the fixed case.
  expect(provider).toEqual(linux);
});
