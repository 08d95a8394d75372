/**
 * Issue 20, twentieth attack run: the node:fs provider (SQLiteWorkspaceProvider, the JS backend's node:fs) lets
 * `rmdir` and `rename` act on the directory a path ending in `/.` or `/..` names; node:fs on Linux refuses them.
 * Tried: on /w with d/f.txt, d/sub and an empty e, side by side with node:fs in a temp dir: rmdir(e/.),
 * rmdir(d/sub/..), rename(d/., x), rename(d/sub/.., y), rename(e, x/.), rmdir(e/), unlink(d/f.txt/.),
 * mkdir(d/new/..).
 * Held: rmdir(d/sub/..) ENOTEMPTY, rmdir(e/) removes e, unlink(d/f.txt/.) ENOTDIR, as node:fs.
 * Found (low — a directory removed or moved by a call Linux refuses; nothing lost): rmdir(e/.) removes e (node:fs
 * EINVAL); rename(d/., x) and rename(d/sub/.., y) move d (EBUSY); rename(e, x/.) creates x (ENOENT) — 2 of 2 runs.
 * mkdir(d/new/..) is EEXIST where node:fs says ENOENT (d/new is missing).
 * Suggested fix: in rmdir and rename, check the path as written: a last segment `.` is EINVAL for rmdir and EBUSY
 * for rename's oldPath (`..`: ENOTEMPTY / EBUSY), and a newPath ending in `/.` names nothing new (ENOENT), before
 * the Workspace drops the tail (spec 01 §2.1).
 * Fixed: the provider's rmdir refuses a last segment `.` (EINVAL) or `..` (ENOTEMPTY), and rename a path on either
 * side whose last segment is `.`/`..` (EBUSY when it names a directory, ENOENT when it names nothing), before the
 * Workspace drops the dot. (mkdir(d/new/..) is still EEXIST, not ENOENT: nothing is created either way.)
 */
import { mkdirSync, mkdtempSync, promises as real, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

type Fs = Pick<typeof real, "rmdir" | "rename">;
const calls: [string, (fs: Fs, base: string) => Promise<unknown>][] = [
  ["rmdir e/.", (fs, b) => fs.rmdir(`${b}/e/.`)],
  ["rename d/. x", (fs, b) => fs.rename(`${b}/d/.`, `${b}/x`)],
  ["rename d/sub/.. y", (fs, b) => fs.rename(`${b}/d/sub/..`, `${b}/y`)],
  ["rename e x/.", (fs, b) => fs.rename(`${b}/e`, `${b}/x/.`)],
];

const linux = { "rmdir e/.": "EINVAL", "rename d/. x": "EBUSY", "rename d/sub/.. y": "EBUSY", "rename e x/.": "ENOENT" };

it("node:fs on Linux refuses these calls and leaves the tree (the oracle)", async () => {
  const out: Record<string, string> = {};
  for (const [label, call] of calls) {
    const tmp = mkdtempSync(join(tmpdir(), "attack20b-"));
    try {
      mkdirSync(`${tmp}/d/sub`, { recursive: true });
      mkdirSync(`${tmp}/e`);
      writeFileSync(`${tmp}/d/f.txt`, "x");
      out[label] = await call(real, tmp).then(() => "ok", (e: NodeJS.ErrnoException) => `${e.code}`);
      expect((await real.readdir(tmp, { recursive: true })).sort()).toEqual(["d", "d/f.txt", "d/sub", "e"]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  expect(out).toEqual(linux);
});

it("the provider refuses them with node:fs's codes and leaves the tree", async () => {
  const out: Record<string, string> = {};
  const trees: string[][] = [];
  for (const [label, call] of calls) {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    await ws.ready();
    await ws.fs.mkdir("/w/d/sub", { recursive: true });
    await ws.fs.mkdir("/w/e");
    await ws.fs.writeFile("/w/d/f.txt", "x");
    const p = ws.provider();
    out[label] = await call(p as unknown as Fs, "/w").then(() => "ok", (e: NodeJS.ErrnoException) => `${e.code}`);
    trees.push(((await p.readdir("/w", { recursive: true })) as string[]).sort());
  }
  expect(out).toEqual(linux);
  expect(trees).toEqual(calls.map(() => ["d", "d/f.txt", "d/sub", "e"]));
});
