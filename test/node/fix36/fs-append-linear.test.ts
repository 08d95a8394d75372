/**
 * `workspace.fs.appendFile` (issue 20, run 36, fixer AP; found by attacker f): an append costs O(appended bytes + one
 * chunk), not a rewrite of the file. Before, every append (the provider's `appendFile`, handle appends, the shell's
 * `>>`) read the whole file and stored it again: attacker f measured 251 ms at 1 MiB, 574 ms at 16 MiB and 1,969 ms
 * at 48 MiB per `echo x >> f` (workers), so a loop appending N lines to a growing log was O(N × size).
 *
 * Now the file's full 512 KiB chunks (spec 01 §4.2) stay as they are; only its last, partial chunk is read and cut
 * again with the new bytes, in one transaction (src/fs/write.ts `FileWriter.append`, src/fs/chunks.ts `splice`).
 * Checked here, against bytes built by the test itself:
 * - bytes exact after appends crossing chunk boundaries, for file sizes 0 (missing and empty), 1, around
 *   INLINE_CHUNK_BYTES (16,384: chunks kept in the index row), CHUNK_SIZE − 1, CHUNK_SIZE, CHUNK_SIZE + 1 and two
 *   chunks (+5), and appended sizes 0, 1, INLINE + 3, CHUNK_SIZE − 1, CHUNK_SIZE, CHUNK_SIZE + 1;
 * - the store exact after each: every chunk's refs equal its references, chunk lists contiguous, sizes summing, no
 *   unreferenced chunk left unleased (test/shared/attack3/integrity.ts);
 * - bounded work without timing: the bytes hashed by an append (crypto.subtle.digest, observed, not replaced) are
 *   the old partial chunk + the new bytes; a 1-byte append to a 40-chunk (20 MiB) file hashes ≤ 1 chunk and writes
 *   one chunk-list row, where the rewrite hashed all 20 MiB and wrote 40;
 * - data safety: a stream that fails midway leaves the old bytes, refs exact; concurrent appends (bytes and
 *   streams) all land; the file found is the file appended to (ifInode → ESTALE); mode kept; mtime, revision and
 *   the change log move as for a write; a dangling link's target is created; EROFS on a read-only mount.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Workspace, WorkerBundle } from "../../../src/index.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { CHUNK_SIZE, INLINE_CHUNK_BYTES } from "../../../src/fs/chunks.js";
import type { WorkspaceFs } from "../../../src/fs/filesystem.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";

function fresh(mounts?: ConstructorParameters<typeof Workspace>[0]["mounts"]) {
  const storage = nodeSqliteStorage(":memory:");
  return { ws: new Workspace({ storage, mounts }), sql: storage.sql };
}
type Sql = ReturnType<typeof fresh>["sql"];
const count = (sql: Sql, query: string, ...args: unknown[]) => Number((sql.exec(query, ...(args as never[])).toArray()[0] as { n: number }).n);
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? String(e.message));

/** `n` bytes, position-dependent (seeded), so a misplaced piece shows. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.byteLength));
  return out;
}
async function read(ws: Workspace, path: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer());
}
function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a).equals(Buffer.from(b));
}
function streamOf(parts: Uint8Array[], fail?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < parts.length) c.enqueue(parts[i++]!);
      else if (fail) c.error(fail);
      else c.close();
    },
  });
}
/** The store is sound and holds the file's list as chunks of CHUNK_SIZE (rows 0..n−1 when over one chunk). */
function expectSound(sql: Sql, ws: Workspace, ino: number, size: number): void {
  expect(integrityProblems(sql)).toEqual([]);
  expect(unleasedOrphans(sql)).toBe(0);
  const rows = sql.exec(`SELECT idx FROM __ws_file_chunks WHERE ino = ? ORDER BY idx`, ino).toArray() as { idx: number }[];
  const want = size > CHUNK_SIZE ? Math.ceil(size / CHUNK_SIZE) : 0;
  expect(rows.map((r) => r.idx)).toEqual(Array.from({ length: want }, (_, i) => i));
  if (want > 0) {
    // all but the last are full (spec 01 §4.2)
    const short = count(sql, `SELECT count(*) AS n FROM __ws_file_chunks f JOIN __ws_chunks c ON c.id = f.chunk WHERE f.ino = ? AND f.idx < ? AND c.size <> ?`, ino, want - 1, CHUNK_SIZE);
    expect(short).toBe(0);
  }
  void ws;
}

/** Bytes hashed by SHA-256 while `run` runs (the digest is observed, not replaced). */
async function hashed(run: () => Promise<unknown>): Promise<number> {
  const digest = crypto.subtle.digest.bind(crypto.subtle);
  let total = 0;
  const spy = vi.spyOn(crypto.subtle, "digest").mockImplementation(((...args: Parameters<typeof crypto.subtle.digest>) => {
    total += (args[1] as ArrayBufferView).byteLength;
    return digest(...args);
  }) as typeof crypto.subtle.digest);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return total;
}

afterEach(() => vi.restoreAllMocks());

const C = CHUNK_SIZE;
const I = INLINE_CHUNK_BYTES;
const STARTS: (number | "missing")[] = ["missing", 0, 1, I - 1, I, I + 1, C - 1, C, C + 1, 2 * C + 5];
const ADDS = [0, 1, I + 3, C - 1, C, C + 1];

describe("fix36 AP: appendFile keeps full chunks, re-cuts only the last partial one", () => {
  it("bytes, chunk rows and refs exact for every start size × appended size (crossing 16 KiB and 512 KiB edges)", async () => {
    const { ws, sql } = fresh();
    let n = 0;
    for (const start of STARTS) {
      for (const add of ADDS) {
        const path = `/f${n++}`;
        const old = start === "missing" ? new Uint8Array(0) : bytes(start, n);
        if (start !== "missing") await ws.fs.writeFile(path, old);
        const extra = bytes(add, 1000 + n);
        const work = await hashed(() => ws.fs.appendFile(path, extra));
        const want = concat([old, extra]);
        expect(same(await read(ws, path), want), `${start} + ${add}`).toBe(true);
        const stat = await ws.fs.stat(path);
        expect(stat.size).toBe(want.byteLength);
        expectSound(sql, ws, stat.inode, want.byteLength);
        // Work: the old partial chunk and the new bytes, never the full chunks before them (nothing at all for 0 bytes).
        const tail = start === "missing" ? 0 : start % C;
        expect(work, `${start} + ${add}: bytes hashed`).toBe(add === 0 ? 0 : tail + add);
      }
    }
    // Many appends in a row to one file land in order, the store sound after each.
    const parts: Uint8Array[] = [];
    for (const [i, add] of [1, C - 2, 1, 1, C, 3, I, C + 7].entries()) {
      parts.push(bytes(add, 5000 + i));
      await ws.fs.appendFile("/log", parts[parts.length - 1]!);
      const size = parts.reduce((s, p) => s + p.byteLength, 0);
      expectSound(sql, ws, (await ws.fs.stat("/log")).inode, size);
    }
    expect(same(await read(ws, "/log"), concat(parts))).toBe(true);
    // Strings are UTF-8.
    await ws.fs.appendFile("/log", "é\n");
    expect((await read(ws, "/log")).subarray(-3)).toEqual(new Uint8Array([0xc3, 0xa9, 0x0a]));
  });

  it("bounded work: a 1-byte append to a 40-chunk file hashes ≤ 1 chunk and writes 1 chunk-list row", async () => {
    const { ws, sql } = fresh();
    const big = bytes(40 * C - 10, 7);
    await ws.fs.writeFile("/big", big);
    const ino = (await ws.fs.stat("/big")).inode;
    const rowsBefore = sql.exec(`SELECT idx, chunk FROM __ws_file_chunks WHERE ino = ? ORDER BY idx`, ino).toArray() as { idx: number; chunk: number }[];
    const chunksBefore = count(sql, `SELECT count(*) AS n FROM __ws_chunks`);
    const work = await hashed(() => ws.fs.appendFile("/big", "x"));
    expect(work).toBe(C - 10 + 1);
    const rowsAfter = sql.exec(`SELECT idx, chunk FROM __ws_file_chunks WHERE ino = ? ORDER BY idx`, ino).toArray() as { idx: number; chunk: number }[];
    // The 39 full chunks are the same rows; only the last one changed (one new chunk stored, the old last one reclaimed).
    expect(rowsAfter.slice(0, 39)).toEqual(rowsBefore.slice(0, 39));
    expect(rowsAfter).toHaveLength(40);
    expect(rowsAfter[39]!.chunk).not.toBe(rowsBefore[39]!.chunk);
    expect(count(sql, `SELECT count(*) AS n FROM __ws_chunks`)).toBe(chunksBefore);
    // Exactly full now: the next 1-byte append hashes 1 byte and adds chunk 41.
    expect(await hashed(() => ws.fs.appendFile("/big", bytes(9, 8)))).toBe(C);
    expect(await hashed(() => ws.fs.appendFile("/big", "y"))).toBe(1);
    expectSound(sql, ws, ino, 40 * C + 1);
    expect(same(await read(ws, "/big"), concat([big, new TextEncoder().encode("x"), bytes(9, 8), new TextEncoder().encode("y")]))).toBe(true);
  });

  it("a stream is read once, re-cut as it arrives; one failing midway leaves the old bytes and the store exact", async () => {
    const { ws, sql } = fresh();
    const old = bytes(C + 100, 1);
    await ws.fs.writeFile("/s", old);
    const pieces = [bytes(C - 50, 2), bytes(3, 3), bytes(C + 1, 4)];
    await ws.fs.appendFile("/s", streamOf(pieces));
    const want = concat([old, ...pieces]);
    expect(same(await read(ws, "/s"), want)).toBe(true);
    const ino = (await ws.fs.stat("/s")).inode;
    expectSound(sql, ws, ino, want.byteLength);
    const before = await ws.fs.stat("/s");
    await expect(ws.fs.appendFile("/s", streamOf([bytes(2 * C, 9)], new Error("source broke")))).rejects.toThrow("source broke");
    expect(same(await read(ws, "/s"), want)).toBe(true);
    expect(await ws.fs.stat("/s")).toEqual(before);
    await ws.fs.writeFile("/sweep", "x"); // the next release sweeps what the failed append staged
    await ws.fs.rm("/sweep");
    expectSound(sql, ws, ino, want.byteLength);
    // A stream of nothing to an existing file changes nothing.
    await ws.fs.appendFile("/s", streamOf([]));
    expect(await ws.fs.stat("/s")).toEqual(before);
    await expect(ws.fs.appendFile("/s", 42 as never)).rejects.toThrow(TypeError);
  });

  it("concurrent appends (bytes and streams, crossing a chunk edge) all land, each whole", async () => {
    const { ws, sql } = fresh();
    await ws.fs.writeFile("/c", bytes(C - 3, 1));
    const adds = Array.from({ length: 12 }, (_, i) => bytes(i % 3 === 0 ? C / 2 + i : 5 + i, 100 + i));
    await Promise.all(adds.map((a, i) => ws.fs.appendFile("/c", i % 2 === 0 ? a : streamOf([a.subarray(0, 2), a.subarray(2)]))));
    const got = await read(ws, "/c");
    expect(got.byteLength).toBe(C - 3 + adds.reduce((n, a) => n + a.byteLength, 0));
    expect(same(got.subarray(0, C - 3), bytes(C - 3, 1))).toBe(true);
    // Each append is one whole run of bytes somewhere after the old content.
    let at = C - 3;
    const left = new Set(adds.keys());
    while (at < got.byteLength) {
      const i = [...left].find((k) => same(got.subarray(at, at + adds[k]!.byteLength), adds[k]!));
      expect(i, `an append starts at ${at}`).toBeDefined();
      left.delete(i!);
      at += adds[i!]!.byteLength;
    }
    expect(left.size).toBe(0);
    expectSound(sql, ws, (await ws.fs.stat("/c")).inode, got.byteLength);
  });

  it("as a write: mode kept, mtime/revision/change log moved; dangling link's target created; ifInode; EROFS; errors", async () => {
    const { ws, sql } = fresh({ "/skills": WorkerBundle({ "a.md": "# A\n" }) });
    await ws.ready();
    await ws.fs.writeFile("/m", "a", { mode: 0o600 });
    const before = await ws.fs.stat("/m");
    const tracked = ws.fs as unknown as WorkspaceFs; // the change tracking (internal)
    const rev = tracked.revision();
    await ws.fs.appendFile("/m", "b", { mode: 0o777 });
    const after = await ws.fs.stat("/m");
    expect(after.mode & 0o7777).toBe(0o600);
    expect(after.inode).toBe(before.inode);
    expect(after.mtime).toBeGreaterThan(before.mtime);
    expect(tracked.revision()).toBe(rev + 1);
    const changes = tracked.changesSince({ rev, path: null });
    expect(changes.entries.map((c) => [c.path, c.kind, c.rev])).toEqual([["/m", "file", rev + 1]]);
    // A missing file is created with options.mode (default 0o644).
    await ws.fs.appendFile("/new", "x");
    expect((await ws.fs.stat("/new")).mode & 0o7777).toBe(0o644);
    await ws.fs.appendFile("/new2", "x", { mode: 0o640 });
    expect((await ws.fs.stat("/new2")).mode & 0o7777).toBe(0o640);
    // Through a dangling link its target is created (as open(2) O_APPEND|O_CREAT); the link stays.
    await ws.fs.symlink("target", "/link");
    await ws.fs.appendFile("/link", "t");
    expect(await ws.fs.readFile("/target", "utf8")).toBe("t");
    expect((await ws.fs.lstat("/link")).isSymbolicLink).toBe(true);
    await ws.fs.appendFile("/link", "u");
    expect(await ws.fs.readFile("/target", "utf8")).toBe("tu");
    // ifInode: only the file found.
    expect(await code(ws.fs.appendFile("/m", "z", { ifInode: after.inode + 999 }))).toBe("ESTALE");
    expect(await code(ws.fs.appendFile("/gone", "z", { ifInode: after.inode }))).toBe("ESTALE");
    expect(await code(ws.fs.stat("/gone"))).toBe("ENOENT");
    await ws.fs.appendFile("/m", "c", { ifInode: after.inode });
    expect(await ws.fs.readFile("/m", "utf8")).toBe("abc");
    // Refusals, each leaving nothing behind.
    expect(await code(ws.fs.appendFile("/skills/a.md", "x"))).toBe("EROFS");
    expect(await code(ws.fs.appendFile("/skills/new.md", "x"))).toBe("EROFS");
    await ws.fs.symlink("/skills/a.md", "/tomount");
    expect(await code(ws.fs.appendFile("/tomount", "x"))).toBe("EROFS");
    expect(await ws.fs.readFile("/skills/a.md", "utf8")).toBe("# A\n");
    await ws.fs.mkdir("/d");
    expect(await code(ws.fs.appendFile("/d", "x"))).toBe("EISDIR");
    expect(await code(ws.fs.appendFile("/", "x"))).toBe("EISDIR");
    expect(await code(ws.fs.appendFile("/nope/f", "x"))).toBe("ENOENT");
    expect(await code(ws.fs.appendFile("/m/f", "x"))).toBe("ENOTDIR");
    await expect(ws.fs.appendFile("/m", "x", { ifInode: -1 })).rejects.toThrow(TypeError);
    await expect(ws.fs.appendFile("/m", "x", { mode: "rw" as never })).rejects.toThrow();
    expect(integrityProblems(sql)).toEqual([]);
  });
});
