/**
 * Spec 01 §1.1 durability and §4 storage requirements that can be observed
 * from outside: a second Workspace over the same storage sees everything;
 * chunks are content-addressed and deduplicated; orphaned chunks are
 * reclaimed (after the safety window); a missing stored chunk → EIO.
 */
import { describe, expect } from "vitest";
import {
  CHUNK,
  expectFsError,
  expectSameBytes,
  expectStreamMatchesSequence,
  fsIt,
  readAll,
  seededBytes,
  sequenceStream,
  type FsHarness,
  type FsTestContext,
} from "./harness.js";

/** Snapshot of everything observable: find order, lstat/stat of every entry, contents, link targets. */
export async function snapshotTree(t: FsTestContext): Promise<unknown[]> {
  const out: unknown[] = [];
  out.push(["/", await t.fs.stat("/")]);
  for (const { path, type } of await t.fs.find("/")) {
    const lstat = await t.fs.lstat(path);
    if (type === "file") out.push([path, lstat, Array.from(await readAll(await t.fs.readFile(path)))]);
    else if (type === "symlink") out.push([path, lstat, await t.fs.readlink(path)]);
    else out.push([path, lstat, await t.fs.readdir(path)]);
  }
  return out;
}

/** Populates a small mixed tree (files of several sizes, modes, dirs, links). */
export async function populate(t: FsTestContext): Promise<void> {
  t.clock.set(1_000_000);
  await t.fs.mkdir("/w/src/deep", { recursive: true, mode: 0o750 });
  await t.fs.writeFile("/w/src/a.ts", "export const a = 1;\n", { mode: 0o755 });
  await t.fs.writeFile("/w/src/deep/é😀.txt", "unicode name\n");
  await t.fs.writeFile("/w/empty", "");
  t.clock.advance(500);
  await t.fs.writeFile("/w/big.bin", seededBytes(99, 2 * CHUNK + 333));
  await t.fs.symlink("src/a.ts", "/w/link");
  await t.fs.symlink("/nowhere", "/w/dangling");
  await t.fs.chmod("/w/src", 0o700);
}

/** Tables of the VFS whose rows hold chunk payloads. */
function chunkTables(t: FsTestContext): string[] {
  return t
    .sql<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_\\_ws\\_%' ESCAPE '\\' AND (name LIKE '%chunk%' OR name LIKE '%blob%')",
    )
    .map((r) => r.name)
    .filter((name) => {
      // keep tables that store payload bytes: they have a BLOB-ish data column
      const columns = t.sql<{ name: string; type: string }>(`PRAGMA table_info("${name.replaceAll('"', '""')}")`);
      return columns.some((c) => /^(data|bytes|payload|content|body|blob)$/i.test(c.name));
    });
}

/**
 * Distinct chunks stored: rows of `__ws_chunks` (one per content hash). Small
 * chunks keep their bytes in that row; large ones in `__ws_blobs`, which must
 * hold exactly one row per large chunk — no payload without an index row.
 */
export function chunkRows(t: FsTestContext): number {
  const tables = chunkTables(t);
  expect([...tables].sort(), "chunk payload tables (adapt chunkTables() to the schema)").toEqual(["__ws_blobs", "__ws_chunks"]);
  const chunks = Number(t.sql<{ n: number }>(`SELECT count(*) AS n FROM __ws_chunks`)[0].n);
  const large = Number(t.sql<{ n: number }>(`SELECT count(*) AS n FROM __ws_chunks WHERE blob IS NOT NULL`)[0].n);
  const blobs = Number(t.sql<{ n: number }>(`SELECT count(*) AS n FROM __ws_blobs`)[0].n);
  expect(blobs, "__ws_blobs rows = large chunks").toBe(large);
  return chunks;
}

export function defineStorageCases(h: FsHarness): void {
  describe("durability", () => {
    fsIt(h, "a new Workspace over the same storage sees every committed file", async (t) => {
      await populate(t);
      const before = await snapshotTree(t);
      const first = t.workspace;
      const second = t.reopen();
      expect(second).not.toBe(first);
      expect(await snapshotTree(t)).toEqual(before);
      expect(await t.fs.readFile("/w/link", "utf8")).toBe("export const a = 1;\n");
      expectSameBytes(await readAll(await t.fs.readFile("/w/big.bin")), seededBytes(99, 2 * CHUNK + 333));
      expect(await t.fs.ls("/w")).toEqual(["/w/big.bin", "/w/empty", "/w/src/a.ts", "/w/src/deep/é😀.txt"]);
      // the new Workspace keeps working and never reuses inodes
      const used = new Set<number>();
      for (const { path } of await t.fs.find("/")) used.add((await t.fs.lstat(path)).inode);
      await t.fs.writeFile("/w/new", "n");
      expect(used.has((await t.fs.stat("/w/new")).inode)).toBe(false);
      // and a third one sees the second one's writes
      t.reopen();
      expect(await t.fs.readFile("/w/new", "utf8")).toBe("n");
      expect((await t.fs.stat("/")).inode).toBe(1);
    });

    fsIt(h, "the root keeps its first-initialisation mtime across reopen", async (t) => {
      const root = await t.fs.stat("/");
      t.clock.advance(99_000);
      t.reopen();
      expect(await t.fs.stat("/")).toEqual(root);
    });
  });

  describe("storage (§4)", () => {
    fsIt(h, "content addressing: an identical second file adds no chunk rows", async (t) => {
      const data = seededBytes(21, 2 * CHUNK + 10);
      await t.fs.writeFile("/a", data);
      const afterFirst = chunkRows(t);
      expect(afterFirst).toBeGreaterThanOrEqual(3);
      await t.fs.writeFile("/b", data);
      await t.fs.writeFile("/c", sequenceStream(0, 0)); // empty file: no chunk needed
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/d/e", new Uint8Array(data));
      expect(chunkRows(t)).toBe(afterFirst);
      // a file made of one repeated chunk stores it once
      const block = seededBytes(22, CHUNK);
      const before = chunkRows(t);
      const repeated = new Uint8Array(4 * CHUNK);
      for (let i = 0; i < 4; i++) repeated.set(block, i * CHUNK);
      await t.fs.writeFile("/r", repeated);
      expect(chunkRows(t)).toBe(before + 1);
      expectSameBytes(await readAll(await t.fs.readFile("/r")), repeated);
    });

    fsIt(h, "orphaned chunks are reclaimed after overwrite, rm and a failed stream (after the safety window)", async (t) => {
      const keep = seededBytes(30, CHUNK + 1); // 2 chunks stay referenced
      await t.fs.writeFile("/keep", keep);
      await t.fs.writeFile("/x", "x"); // 1 small chunk stays referenced
      await t.fs.writeFile("/a", seededBytes(31, 3 * CHUNK)); // 3 chunks…
      await t.fs.writeFile("/a", seededBytes(32, CHUNK)); // …orphaned by the overwrite; 1 live
      await t.fs.writeFile("/b", seededBytes(33, 2 * CHUNK));
      await t.fs.rm("/b"); // 2 orphans
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/d/c", seededBytes(34, 2 * CHUNK));
      await t.fs.rm("/d", { recursive: true }); // 2 orphans
      await t.fs.symlink("/a", "/la");
      await t.fs.writeFile("/la", seededBytes(37, CHUNK + 2)); // through a link: /a's chunk orphaned, 2 live
      await t.fs.rename("/keep", "/keep2");
      await t.fs.writeFile("/keep3", keep);
      await t.fs.rename("/keep3", "/keep2"); // replaced destination: no orphan (same chunks)
      await t.fs
        .writeFile("/failed", sequenceStream(35, 4 * CHUNK, { failAfter: 2 * CHUNK + 1 }))
        .catch(() => undefined); // a failed stream's chunks are orphans too
      // well past any safety window (spec: default 60 s), then mutations that orphan nothing new
      t.clock.advance(10 * 60_000);
      await t.fs.writeFile("/trigger", keep);
      await t.fs.rm("/trigger");
      await t.fs.mkdir("/t2");
      await t.fs.rm("/t2");
      t.clock.advance(10 * 60_000);
      await t.fs.writeFile("/trigger", "x");
      await t.fs.rm("/trigger");
      expect(chunkRows(t), "chunk rows = distinct chunks of live files (/keep2: 2, /x: 1, /a: 2)").toBe(5);
      expectSameBytes(await readAll(await t.fs.readFile("/keep2")), keep);
      expectSameBytes(await readAll(await t.fs.readFile("/a")), seededBytes(37, CHUNK + 2));
      expect(await t.fs.readFile("/x", "utf8")).toBe("x");
      // and the same after a reopen
      t.reopen();
      await t.fs.writeFile("/trigger", "x");
      await t.fs.rm("/trigger");
      expect(chunkRows(t)).toBe(5);
    });

    fsIt(h, "reclamation never deletes chunks of an in-flight stream write", async (t) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const seq = sequenceStream(40, 3 * CHUNK, { pieceSize: CHUNK });
      const reader = seq.getReader();
      let pulls = 0;
      const gated = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            pulls++;
            if (pulls === 3) await gate;
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
        },
        { highWaterMark: 0 },
      );
      const writing = t.fs.writeFile("/inflight", gated);
      for (let i = 0; i < 50 && pulls < 3; i++) await new Promise((r) => setTimeout(r, 2));
      // churn: orphan-producing mutations far past the safety window
      for (let i = 0; i < 3; i++) {
        t.clock.advance(10 * 60_000);
        await t.fs.writeFile("/churn", seededBytes(41 + i, CHUNK + 5));
        await t.fs.rm("/churn");
      }
      release();
      await writing;
      await expectStreamMatchesSequence(await t.fs.readFile("/inflight"), 40, 3 * CHUNK);
      t.reopen();
      await expectStreamMatchesSequence(await t.fs.readFile("/inflight"), 40, 3 * CHUNK);
    });

    fsIt(h, "workspace.fs is the same object on every access", async (t) => {
      expect(t.workspace.fs).toBe(t.workspace.fs);
    });

    fsIt(h, "a ranged read touches only the chunks it overlaps (rows read stay small)", async (t) => {
      const total = 40 * CHUNK;
      await t.fs.writeFile("/big", sequenceStream(60, total, { pieceSize: CHUNK }));
      t.reopen(); // no warm cache
      const db = t.workspace.db;
      const before = db.rowsRead;
      const window = (await t.fs.readFile("/big", { byteOffset: 38 * CHUNK + 5, byteLength: CHUNK })) as ReadableStream<Uint8Array>;
      const bytes = await readAll(window);
      expect(bytes.byteLength).toBe(CHUNK);
      const rows = db.rowsRead - before;
      expect(rows, `rows read for a 2-chunk window of a 40-chunk file: ${rows}`).toBeLessThanOrEqual(16);
    });

    fsIt(h, "a store written by a newer schema → the constructor throws WorkspaceFsError EIO", async (t) => {
      await t.fs.writeFile("/f", "x");
      const meta = t.sql<{ key: string; value: number }>("SELECT key, value FROM __ws_meta WHERE key = 'schema'");
      expect(meta.length, "adapt to the schema-version record").toBe(1);
      t.sql("UPDATE __ws_meta SET value = ? WHERE key = 'schema'", Number(meta[0].value) + 1);
      let thrown: unknown;
      try {
        t.reopen();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ name: "WorkspaceFsError", code: "EIO" });
      t.sql("UPDATE __ws_meta SET value = ? WHERE key = 'schema'", Number(meta[0].value));
      t.reopen();
      expect(await t.fs.readFile("/f", "utf8")).toBe("x");
    });

    fsIt(h, "a stored chunk that went missing → EIO on read", async (t) => {
      await t.fs.writeFile("/f", seededBytes(50, CHUNK + 10));
      for (const name of chunkTables(t)) t.sql(`DELETE FROM "${name}"`);
      t.reopen(); // drop any payload cache
      await expectFsError(
        (async () => {
          await readAll(await t.fs.readFile("/f"));
        })(),
        "EIO",
      );
      await expectFsError(t.fs.readFile("/f", "utf8"), "EIO");
    });
  });
}
