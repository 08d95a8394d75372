/**
 * Spec 01 §3.3 across storage objects and processes (issue 20, third attack
 * run): a read stream is a snapshot. A stream over more than one chunk
 * leases its chunks in `__ws_chunk_leases` (one row per chunk, the holder a
 * per-stream id, READ_LEASE_MS ahead), so no sweep — of another Workspace on
 * the same file, or of another process — tears it; each pull renews the
 * lease when a third of it has passed; the lease ends when the stream ends,
 * fails or is cancelled; and a reader that never finishes (crashed) loses
 * its lease after the window, its chunks then reclaimed.
 *
 * Leases are dated with the wall clock, not the Workspace's `now` (issue 20, run 40, fixer f40fs): the tests that move
 * time move `Date.now()` (a spy) as well as `now`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { CHUNK_SIZE, READ_LEASE_MS } from "../../../src/fs/chunks.js";
import { concatBytes } from "../../../src/util/bytes.js";
import { childWorkspaceScript } from "./lease-helpers.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ws-read-leases-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Moves the wall clock the leases read with `now` (run 40, fixer f40fs: leases no longer read the Workspace's `now`). */
function leaseClock(now: () => number): void {
  vi.spyOn(Date, "now").mockImplementation(now);
}

type Sql = ReturnType<typeof nodeSqliteStorage>["sql"];

/** `n` chunks of distinct content: byte `i` of the file is `(i * 7 + (i >> 19)) & 0xff`. */
function distinct(n: number): Uint8Array {
  const bytes = new Uint8Array(n * CHUNK_SIZE);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 19)) & 0xff;
  return bytes;
}

function count(sql: Sql, query: string, ...bindings: unknown[]): number {
  return Number((sql.exec(query, ...(bindings as never[])).toArray()[0] as { n: number }).n);
}
const bigChunks = (sql: Sql) => count(sql, `SELECT count(*) AS n FROM __ws_chunks WHERE size = ${CHUNK_SIZE}`);
const blobs = (sql: Sql) => count(sql, `SELECT count(*) AS n FROM __ws_blobs`);
const leases = (sql: Sql) => count(sql, `SELECT count(*) AS n FROM __ws_chunk_leases`);

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, parts: Uint8Array[]): Promise<Uint8Array> {
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return concatBytes(parts);
    parts.push(value);
  }
}

function same(actual: Uint8Array, expected: Uint8Array): boolean {
  return actual.byteLength === expected.byteLength && Buffer.from(actual).equals(Buffer.from(expected));
}

/** Two Workspaces on one fresh database file `name` in `dir`, each over its own connection; `close()` closes all four. */
function twoWorkspaces(name: string, now?: () => number) {
  if (now) leaseClock(now);
  const file = join(dir, name);
  const sa = nodeSqliteStorage(file);
  const sb = nodeSqliteStorage(file);
  const a = new Workspace({ storage: sa, now });
  const b = new Workspace({ storage: sb, now });
  async function close() {
    await a.close();
    await b.close();
    sa.close();
    sb.close();
  }
  return { file, sa, a, b, close };
}

describe("read streams lease their chunks in the database (spec 01 §3.3)", () => {
  it("the issue's reproduction: another Workspace on the same file overwrites the file under an open stream; the stream reads the old bytes", async () => {
    const { sa, a, b, close } = twoWorkspaces("repro.db");
    const old = new Uint8Array(3 * 524_288).fill(7);
    await a.fs.writeFile("/f", old);
    const r = (await b.fs.readFile("/f")).getReader();
    const first = await r.read();
    expect(first.value!.byteLength).toBe(CHUNK_SIZE);
    // One chunk (three equal pieces): one lease row, held by the stream.
    expect(leases(sa.sql)).toBe(1);
    await a.fs.writeFile("/f", "new"); // a's sweep: the old chunk is unreferenced, but leased
    expect(bigChunks(sa.sql)).toBe(1);
    const rest = await drain(r, [first.value!]);
    expect(same(rest, old)).toBe(true);
    // The stream ended its lease and swept what it alone kept.
    expect(leases(sa.sql)).toBe(0);
    expect(bigChunks(sa.sql)).toBe(0);
    expect(blobs(sa.sql)).toBe(0);
    expect(await a.fs.readFile("/f", "utf8")).toBe("new");
    await close();
  });

  it("distinct chunks, replaced and removed by the other Workspace, which also sweeps from a fresh start: the stream keeps all of them", async () => {
    const { file, sa, a, b, close } = twoWorkspaces("distinct.db");
    const old = distinct(4);
    await a.fs.writeFile("/f", old);
    const r = (await b.fs.readFile("/f")).getReader();
    const first = await r.read();
    expect(leases(sa.sql)).toBe(4);
    await a.fs.writeFile("/f", "new");
    await a.fs.rm("/f");
    const sc = nodeSqliteStorage(file);
    const c = new Workspace({ storage: sc }); // its start-up sweep
    await c.fs.writeFile("/g", "x");
    await c.fs.rm("/g");
    expect(bigChunks(sa.sql)).toBe(4);
    expect(same(await drain(r, [first.value!]), old)).toBe(true);
    expect([leases(sa.sql), bigChunks(sa.sql), blobs(sa.sql)]).toEqual([0, 0, 0]);
    await c.close();
    sc.close();
    await close();
  });

  it("another process on the same file overwrites and sweeps under an open stream; the stream reads the old bytes", async () => {
    const overwrite = await childWorkspaceScript(
      dir,
      "overwriter.mjs",
      `await workspace.fs.writeFile("/f", "new");
       await workspace.fs.writeFile("/g", "x");
       await workspace.fs.rm("/g");
       const n = storage.sql.exec("SELECT count(*) AS n FROM __ws_chunks WHERE size = ${CHUNK_SIZE}").toArray()[0].n;
       await workspace.close();
       storage.close();
       process.stdout.write("overwrote; large chunks left: " + n);`,
    );
    const file = join(dir, "two-processes.db");
    const sa = nodeSqliteStorage(file);
    const a = new Workspace({ storage: sa });
    const old = distinct(3);
    await a.fs.writeFile("/f", old);
    const r = (await a.fs.readFile("/f")).getReader();
    const first = await r.read();
    expect(await overwrite(file)).toBe("overwrote; large chunks left: 3");
    expect(same(await drain(r, [first.value!]), old)).toBe(true);
    expect([leases(sa.sql), bigChunks(sa.sql), blobs(sa.sql)]).toEqual([0, 0, 0]);
    expect(await a.fs.readFile("/f", "utf8")).toBe("new");
    await a.close();
    sa.close();
  });

  it("a reader that never finishes (crashed) loses its lease after the window: the next write's sweep reclaims the chunks, and a late pull is EIO", async () => {
    let t = Date.now();
    const { sa, a, b: reader, close } = twoWorkspaces("crashed.db", () => t);
    await a.fs.writeFile("/f", distinct(3));
    const r = (await reader.fs.readFile("/f")).getReader();
    await r.read(); // opened, one chunk read, never read again nor closed
    const until = Number((sa.sql.exec("SELECT max(until) AS u FROM __ws_chunk_leases").toArray()[0] as { u: number }).u);
    expect(until).toBe(t + READ_LEASE_MS);
    t += READ_LEASE_MS - 1_000;
    await a.fs.writeFile("/f", "new");
    expect([bigChunks(sa.sql), leases(sa.sql)]).toEqual([3, 3]); // still leased
    t += 2_000;
    await a.fs.writeFile("/f", "newer");
    // Expired: the chunks, their bytes and the lease rows are gone.
    expect([bigChunks(sa.sql), blobs(sa.sql), leases(sa.sql)]).toEqual([0, 0, 0]);
    await expect(r.read()).rejects.toMatchObject({ name: "WorkspaceFsError", code: "EIO", message: expect.stringContaining("is missing") });
    expect(await a.fs.readFile("/f", "utf8")).toBe("newer");
    await close();
  });

  it("a slow but live reader renews its lease as it pulls: its snapshot survives past the window", async () => {
    let t = Date.now();
    const { sa, a, b: reader, close } = twoWorkspaces("renewed.db", () => t);
    const old = distinct(5);
    await a.fs.writeFile("/f", old);
    const opened = t;
    const r = (await reader.fs.readFile("/f")).getReader();
    const parts = [(await r.read()).value!];
    await a.fs.writeFile("/f", "new");
    const step = Math.ceil(READ_LEASE_MS * 0.4);
    for (let k = 1; k < 4; k++) {
      t += step;
      parts.push((await r.read()).value!); // renews: more than a third of the window since the last renewal
      expect(Number((sa.sql.exec("SELECT min(until) AS u FROM __ws_chunk_leases").toArray()[0] as { u: number }).u)).toBe(t + READ_LEASE_MS);
      await a.fs.writeFile("/f", `new ${k}`); // sweeps at the same clock
      expect(bigChunks(sa.sql)).toBe(5);
    }
    expect(t - opened).toBeGreaterThan(READ_LEASE_MS);
    expect(same(await drain(r, parts), old)).toBe(true);
    expect([leases(sa.sql), bigChunks(sa.sql), blobs(sa.sql)]).toEqual([0, 0, 0]);
    await close();
  });

  it("pulls within a third of the window do not rewrite the lease", async () => {
    let t = Date.now();
    const storage = nodeSqliteStorage(":memory:");
    leaseClock(() => t);
    const ws = new Workspace({ storage, now: () => t });
    await ws.fs.writeFile("/f", distinct(3));
    const r = (await ws.fs.readFile("/f")).getReader();
    const opened = t;
    await r.read();
    t += Math.floor(READ_LEASE_MS / 3) - 1;
    await r.read();
    expect(Number((storage.sql.exec("SELECT min(until) AS u FROM __ws_chunk_leases").toArray()[0] as { u: number }).u)).toBe(opened + READ_LEASE_MS);
    await r.cancel();
    await ws.close();
    storage.close();
  });

  it("cancel ends the lease and reclaims chunks the stream alone kept; a failed stream ends its lease", async () => {
    const { sa, a, b, close } = twoWorkspaces("cancel.db");
    await a.fs.writeFile("/f", distinct(3));
    const r = (await b.fs.readFile("/f")).getReader();
    await r.read();
    await a.fs.writeFile("/f", "new");
    expect([bigChunks(sa.sql), leases(sa.sql)]).toEqual([3, 3]);
    await r.cancel();
    expect([leases(sa.sql), bigChunks(sa.sql), blobs(sa.sql)]).toEqual([0, 0, 0]);

    // A stream whose next chunk was deleted behind the library's back fails with EIO and ends its lease.
    await a.fs.writeFile("/f", distinct(3));
    const s = (await b.fs.readFile("/f")).getReader();
    await s.read();
    expect(leases(sa.sql)).toBe(3);
    sa.sql.exec(`DELETE FROM __ws_chunks WHERE id = (SELECT chunk FROM __ws_file_chunks WHERE idx = 1)`);
    await expect(s.read()).rejects.toMatchObject({ name: "WorkspaceFsError", code: "EIO" });
    expect(leases(sa.sql)).toBe(0);

    // A stream released unread (the reader's lock dropped, the stream cancelled) ends its lease too.
    const stream = await b.fs.readFile("/f", { byteOffset: 2 * CHUNK_SIZE - 10 });
    expect(leases(sa.sql)).toBe(2);
    await stream.cancel();
    expect(leases(sa.sql)).toBe(0);
    await close();
  });

  it("a file another process changes between readFile's lookup and the stream's lease is looked up again: the stream is one whole version", async () => {
    const file = join(dir, "race-at-open.db");
    const sa = nodeSqliteStorage(file);
    const sb = nodeSqliteStorage(file);
    const a = new Workspace({ storage: sa });
    const old = distinct(3);
    await a.fs.writeFile("/f", old);
    // "Another process" (raw SQL on a's connection) shortens /f by one byte after b's lookup, just before b's lease
    // transaction. It cannot inside that transaction: a nodeSqliteStorage transaction holds the write lock from its
    // BEGIN IMMEDIATE. So b's first lease statement abandons its transaction, the change is made, and the same
    // transaction runs again, now over the changed file.
    let raced = 0;
    const RACE = new Error("race: the file changes before this transaction");
    const exec = sb.sql.exec.bind(sb.sql);
    (sb.sql as { exec: unknown }).exec = (query: string, ...bindings: never[]) => {
      if (raced === 0 && query.includes("INSERT INTO __ws_chunk_leases")) throw RACE;
      return exec(query, ...bindings);
    };
    const transactionSync = sb.transactionSync.bind(sb);
    (sb as { transactionSync: unknown }).transactionSync = <T>(closure: () => T): T => {
      try {
        return transactionSync(closure);
      } catch (error) {
        if (error !== RACE) throw error;
        raced++;
        sa.sql.exec("UPDATE __ws_nodes SET size = size - 1 WHERE size = ?", old.byteLength);
        return transactionSync(closure);
      }
    };
    const b = new Workspace({ storage: sb });
    const got = await drain((await b.fs.readFile("/f")).getReader(), []);
    expect(raced).toBe(1);
    expect(same(got, old.subarray(0, old.byteLength - 1))).toBe(true);
    // The first attempt's lease was rolled back with its transaction; the second ended with its stream.
    expect(leases(sa.sql)).toBe(0);
    await a.close();
    await b.close();
    sa.close();
    sb.close();
  });

  it("only what the stream reads is leased, and a one-chunk window or file writes no lease row", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    await ws.fs.writeFile("/f", distinct(5));
    await ws.fs.writeFile("/small", new Uint8Array(CHUNK_SIZE).fill(1));
    const window = await ws.fs.readFile("/f", { byteOffset: CHUNK_SIZE + 5, byteLength: CHUNK_SIZE });
    expect(leases(storage.sql)).toBe(2); // chunks 1 and 2
    const inside = await ws.fs.readFile("/f", { byteOffset: 3 * CHUNK_SIZE, byteLength: 100 });
    const small = await ws.fs.readFile("/small");
    expect(leases(storage.sql)).toBe(2);
    const got = await drain(window.getReader(), []);
    expect(same(got, distinct(5).subarray(CHUNK_SIZE + 5, 2 * CHUNK_SIZE + 5))).toBe(true);
    expect(leases(storage.sql)).toBe(0);
    expect((await drain(inside.getReader(), [])).byteLength).toBe(100);
    expect((await drain(small.getReader(), [])).byteLength).toBe(CHUNK_SIZE);
    await ws.close();
    storage.close();
  });
});
