/**
 * Issue 20, thirteenth attack run: storage written by ONE `rename` of a wide directory to a long place
 * (src/fs/nodes.ts `move`: "a rename rewrites the moved subtree's keys in one statement"; the path limits
 * of docs/filesystem.md "Paths", 256 KiB per path and 32 MiB of ancestors' paths).
 *
 * Tried: 250 empty files in /d (a few KB of store), a directory named with 200,000 `L`s, then
 * `rename("/d", "/LLL…/d")` on a file database, measuring the database (+ WAL) before and after.
 * Every moved path is within both limits, so the move is allowed — and each of the 250 rows gets a new
 * 200 KB path key, indexed: the database grew by 100.9 MB (measured), from one call whose input is
 * 200 KB; moving it back rewrites the same again. The cost is (entries below) × (length of the new
 * place), with no bound: 10,000 empty files (one shell `touch {1..10000}`) and one `mv` are ~4 GB of
 * writes in one transaction — a Durable Object's whole storage (10 GB) in three calls, and a
 * transaction the platform may not finish. The per-path limits were made to bound exactly this
 * amplification ("depth × length is what mkdir -p stores"), but only per path, not per call.
 *
 * Found (medium-low): unbounded storage written by one rename (also reachable through the shell's
 * `mv`, the provider's `rename` and git).
 * Reproduction (Node, file storage):
 *   for (let i = 0; i < 250; i++) await fs.writeFile(`/d/f${i}`, "");
 *   await fs.mkdir(`/${"L".repeat(200_000)}`);
 *   await fs.rename("/d", `/${"L".repeat(200_000)}/d`);   // database +100 MB
 * Fixed: MAX_MOVE_GROWTH_BYTES (32 MiB) of added path bytes per rename, ENAMETOOLONG past it, nothing moved.
 * Suggested fix: bound what one move may rewrite — (entries below) × bytes(new path), from the same
 * range read assertMovable does (count(*) alongside max length) — and refuse past it (e.g. 32 MiB, the
 * ancestors' bound) with ENAMETOOLONG/EFBIG naming the cost, moving nothing.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "attack13b-rename-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bytesOnDisk(file: string): number {
  let size = statSync(file).size;
  try {
    size += statSync(`${file}-wal`).size;
  } catch {
    // no WAL file
  }
  return size;
}

describe("attack13b: one rename of a wide directory to a long place", () => {
  it("moving 250 empty files under a 200,000-character directory writes at most 32 MiB, or is refused moving nothing", { timeout: 60_000 }, async () => {
    const file = join(dir, "db.sqlite");
    const storage = nodeSqliteStorage(file);
    const ws = new Workspace({ storage });
    const long = `/${"L".repeat(200_000)}`;
    await ws.fs.mkdir("/d");
    for (let i = 0; i < 250; i++) await ws.fs.writeFile(`/d/f${i}`, "");
    await ws.fs.mkdir(long);
    const before = bytesOnDisk(file);
    const outcome = await ws.fs.rename("/d", `${long}/d`).then(
      () => "moved",
      (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
    );
    // Fixed: 250 × 200,001 more bytes of paths is past MAX_MOVE_GROWTH_BYTES (32 MiB): refused, nothing moved.
    expect(outcome).toBe(
      `ENAMETOOLONG: ENAMETOOLONG: moving 250 entries to a place 200001 bytes longer (as stored) would add 50000250 bytes of paths, at most 33554432 for one rename; nothing was moved; move it somewhere shorter, or move its entries a few at a time: /${"L".repeat(59)}…, rename`,
    );
    expect(bytesOnDisk(file) - before).toBeLessThan(1024 * 1024);
    expect((await ws.fs.readdir("/d")).length).toBe(250);
    expect(await ws.fs.readdir(long)).toEqual([]);
    // A move of fewer entries to the same place is within the bound.
    await ws.fs.mkdir("/e");
    for (let i = 0; i < 100; i++) await ws.fs.writeFile(`/e/f${i}`, "");
    await ws.fs.rename("/e", `${long}/e`);
    expect((await ws.fs.readdir(`${long}/e`)).length).toBe(100);
    storage.close();
  });

  // Fifteenth attack run (noticed by attack15b): keys double U+0001 and U+0002, so renaming a directory to a
  // name of those of the same UTF-8 length grew every key below it unchecked (up to twice the bound).
  it("a rename to a name of the same length whose stored keys are longer counts what the keys add", { timeout: 60_000 }, async () => {
    const storage = nodeSqliteStorage(join(dir, "keys.sqlite"));
    const ws = new Workspace({ storage });
    const name = "a".repeat(100_000);
    const escaped = "\u0001".repeat(100_000); // the same 100,000 bytes of UTF-8; 200,000 as stored
    await ws.fs.mkdir(`/${name}`);
    for (let i = 0; i < 400; i++) await ws.fs.writeFile(`/${name}/f${i}`, "");
    const outcome = await ws.fs.rename(`/${name}`, `/${escaped}`).then(
      () => "moved",
      (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
    );
    // the 400 entries below, each 100,000 bytes longer as stored
    expect(outcome).toBe(
      `ENAMETOOLONG: ENAMETOOLONG: moving 400 entries to a place 100000 bytes longer (as stored) would add 40000000 bytes of paths, at most 33554432 for one rename; nothing was moved; move it somewhere shorter, or move its entries a few at a time: /${"\u0001".repeat(59)}…, rename`,
    );
    expect((await ws.fs.readdir(`/${name}`)).length).toBe(400);
    await expect(ws.fs.stat(`/${escaped}`)).rejects.toMatchObject({ code: "ENOENT" });
    storage.close();
  });
});
