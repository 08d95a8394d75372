/**
 * Issue 20, run 38, fixer SW — siblings of test/node/attack38f/append-rejects-ebusy-after-it-landed.test.ts.
 *
 * A Workspace mutation commits in one transaction, then reclaims the chunks it released (or a failed write staged) in
 * a second one: the sweep. On a SQLite file shared with another connection (another process, as docs/filesystem.md
 * allows), that connection may take the write lock between the two and hold it past `busyTimeoutMs`; the sweep's
 * `BEGIN IMMEDIATE` then throws `EBUSY`. Before the fix every caller let it through: a write that had landed rejected
 * "EBUSY … try again" (a retry applied it twice), and a write that had failed reported the sweep's EBUSY instead of
 * its own error. Now `ChunkStore.reclaim` (src/fs/chunks.ts) is the post-commit sweep, best-effort: its error is
 * swallowed and the shared backlog set, so the next sweep over the storage object — any later mutation's — or the
 * start-up sweep of the next Workspace on the file reclaims what was left.
 *
 * Technique (the attacker's, generalised): a second `node:sqlite` connection to the file takes the write lock
 * (`BEGIN IMMEDIATE` + an insert into a table of its own) right after the first top-level `transactionSync` that
 * raised the store's revision — the operation's commit — and holds it until the call settled; `busyTimeoutMs: 50`.
 * Each operation is also run with node:fs on a real directory (Node 22 on ext4/tmpfs, the reference for bytes and
 * error codes) and the resulting trees compared entry by entry, bytes included. Storage is checked with SQL on the
 * tables: before the lock is released the released chunks are still there (so the sweep really was put off), after a
 * later unrelated write (or a fresh Workspace's start-up sweep) no chunk row has refs ≤ 0, every chunk's `refs`
 * equals the references the nodes and chunk lists hold, no blob lacks its chunk row and no lease row is left.
 */
import { DatabaseSync } from "node:sqlite";
import * as realFs from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Workspace, nodeSqliteStorage, type NodeSqliteStorage } from "../../../src/index.js";
import { STAGE_LEASE_MS } from "../../../src/fs/chunks.js";

const KiB = 1024;

/** Deterministic bytes (an LCG per seed), so chunks of different seeds never dedupe. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A stream of `data` in `piece`-byte pieces. */
function streamOf(data: Uint8Array, piece = 200 * KiB): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.byteLength) return controller.close();
      controller.enqueue(data.slice(offset, offset + piece));
      offset += piece;
    },
  });
}

interface Fixture {
  /** The wall clock (ms) the leases read, and the Workspace's: the real `Date.now()` plus `skew` (a spy; run 40, fixer f40fs: leases read `Date.now()`, not `now`). */
  skew: { ms: number };
  file: string;
  storage: NodeSqliteStorage;
  workspace: Workspace;
  other: DatabaseSync;
  real: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length > 0) await cleanups.pop()!();
});

function fixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), "fix38-sw-"));
  const file = join(dir, "w.db");
  const storage = nodeSqliteStorage(file, { busyTimeoutMs: 50 });
  const skew = { ms: 0 };
  const realNow = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + skew.ms);
  const workspace = new Workspace({ storage, now: () => Date.now() });
  const other = new DatabaseSync(file);
  other.exec("CREATE TABLE IF NOT EXISTS other_t (v)");
  const real = join(dir, "real");
  const state = { skew, file, storage, workspace, other, real };
  cleanups.push(async () => {
    try {
      if (other.isOpen) {
        if (other.isTransaction) other.exec("ROLLBACK");
        other.close();
      }
      await state.workspace.close();
      state.storage.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return state;
}

/**
 * Arms the storage: `when` decides, after each top-level transaction (`ok`: it returned; `raised`: the store's
 * revision went up in it), whether the other connection takes the write lock now. Returns `release`.
 */
function lockAfter(
  f: Fixture,
  when: (ok: boolean, raised: boolean) => boolean,
  storage: NodeSqliteStorage = f.storage,
  revision: () => number = () => (f.workspace.fs as unknown as { revision(): number }).revision(),
): { taken: () => boolean; release: () => void } {
  const fs = { revision };
  const original = storage.transactionSync.bind(storage);
  let depth = 0;
  let taken = false;
  (storage as { transactionSync: typeof original }).transactionSync = <T>(closure: () => T): T => {
    if (depth > 0 || taken) {
      depth++;
      try {
        return original(closure);
      } finally {
        depth--;
      }
    }
    const before = fs.revision();
    depth++;
    let ok = false;
    try {
      const result = original(closure);
      ok = true;
      return result;
    } finally {
      depth--;
      if (when(ok, fs.revision() > before)) {
        taken = true;
        f.other.exec("BEGIN IMMEDIATE");
        f.other.exec("INSERT INTO other_t VALUES (1)");
      }
    }
  };
  return {
    taken: () => taken,
    release: () => {
      if (f.other.isTransaction) f.other.exec("COMMIT");
    },
  };
}

/** Storage facts (read on the other connection, outside any lock of its own). */
function storageFacts(f: Fixture) {
  const n = (sql: string) => Number((f.other.prepare(sql).get() as { n: number }).n);
  return {
    unreferenced: n(`SELECT count(*) AS n FROM __ws_chunks WHERE refs <= 0`),
    miscounted: n(`SELECT count(*) AS n FROM __ws_chunks c WHERE c.refs !=
      (SELECT count(*) FROM __ws_nodes WHERE chunk = c.id) + (SELECT count(*) FROM __ws_file_chunks WHERE chunk = c.id)`),
    strayBlobs: n(`SELECT count(*) AS n FROM __ws_blobs b WHERE NOT EXISTS (SELECT 1 FROM __ws_chunks c WHERE c.blob = b.id)`),
    leases: n(`SELECT count(*) AS n FROM __ws_chunk_leases`),
  };
}
const CLEAN = { unreferenced: 0, miscounted: 0, strayBlobs: 0, leases: 0 };

/** Every entry below `/` of the Workspace: path → bytes (files) or "dir". */
async function workspaceTree(ws: Workspace, dir = "/", out: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const entry of await ws.fs.readdir(dir)) {
    const path = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
    if (entry.isDirectory) {
      out[path] = "dir";
      await workspaceTree(ws, path, out);
    } else {
      const stream = (await ws.fs.readFile(path)) as ReadableStream<Uint8Array>;
      out[path] = Buffer.from(await new Response(stream).arrayBuffer()).toString("base64");
    }
  }
  return out;
}

/** The same for a real directory. */
async function realTree(root: string, dir = "", out: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const entry of await realFs.readdir(root + (dir || "/"), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      out[path] = "dir";
      await realTree(root, path, out);
    } else out[path] = (await realFs.readFile(root + path)).toString("base64");
  }
  return out;
}

/** Outcome of a call: "resolved", or the error's code. */
const settle = (p: Promise<unknown>) => p.then(() => "resolved", (e: { code?: string }) => e.code ?? String(e));

interface Case {
  name: string;
  /** Builds the starting tree (through the Workspace and through node:fs on the real directory). */
  setup: (ws: Workspace, real: string) => Promise<void>;
  /** The operation under test, on the Workspace. */
  op: (ws: Workspace) => Promise<unknown>;
  /** The same operation with node:fs. */
  realOp: (real: string) => Promise<unknown>;
}

/** Chunks of a file of `size` bytes: 512 KiB pieces (spec 01 §4.2). */
const chunksOf = (size: number) => Math.ceil(size / (512 * KiB));
const big1 = bytes(1024 * KiB + 3, 1);
const big2 = bytes(1536 * KiB + 7, 2);
const tail = bytes(300 * KiB, 3);

async function both(ws: Workspace, real: string, path: string, data: Uint8Array | string): Promise<void> {
  await ws.fs.writeFile(path, data);
  await realFs.writeFile(real + path, data);
}

const cases: Case[] = [
  {
    name: "appendFile of bytes to a small file (its one chunk released)",
    setup: (ws, real) => both(ws, real, "/log", "one\n"),
    op: (ws) => ws.fs.appendFile("/log", "two\n"),
    realOp: (real) => realFs.appendFile(`${real}/log`, "two\n"),
  },
  {
    name: "appendFile of a stream to a file of two chunks (its partial last chunk released)",
    setup: (ws, real) => both(ws, real, "/big", big1),
    op: (ws) => ws.fs.appendFile("/big", streamOf(tail)),
    realOp: (real) => realFs.appendFile(`${real}/big`, tail),
  },
  {
    name: "writeFile of ≤ one chunk over a file (one transaction)",
    setup: (ws, real) => both(ws, real, "/f", "old content\n"),
    op: (ws) => ws.fs.writeFile("/f", "new\n"),
    realOp: (real) => realFs.writeFile(`${real}/f`, "new\n"),
  },
  {
    name: "writeFile of 1.5 MiB bytes over a 1 MiB file (staged)",
    setup: (ws, real) => both(ws, real, "/f", big1),
    op: (ws) => ws.fs.writeFile("/f", big2),
    realOp: (real) => realFs.writeFile(`${real}/f`, big2),
  },
  {
    name: "writeFile of a stream over a 1 MiB file (staged)",
    setup: (ws, real) => both(ws, real, "/f", big1),
    op: (ws) => ws.fs.writeFile("/f", streamOf(big2)),
    realOp: (real) => realFs.writeFile(`${real}/f`, big2),
  },
  {
    name: "rm of a 1 MiB file",
    setup: async (ws, real) => {
      await both(ws, real, "/f", big1);
      await both(ws, real, "/keep", "kept\n");
    },
    op: (ws) => ws.fs.rm("/f"),
    realOp: (real) => realFs.rm(`${real}/f`),
  },
  {
    name: "rm -r of a directory of files",
    setup: async (ws, real) => {
      await ws.fs.mkdir("/d/e", { recursive: true });
      await realFs.mkdir(`${real}/d/e`, { recursive: true });
      await both(ws, real, "/d/a", big1);
      await both(ws, real, "/d/e/b", "small\n");
      await both(ws, real, "/keep", "kept\n");
    },
    op: (ws) => ws.fs.rm("/d", { recursive: true }),
    realOp: (real) => realFs.rm(`${real}/d`, { recursive: true }),
  },
  {
    name: "rename of a file over a 1 MiB file",
    setup: async (ws, real) => {
      await both(ws, real, "/a", "from a\n");
      await both(ws, real, "/b", big1);
    },
    op: (ws) => ws.fs.rename("/a", "/b"),
    realOp: (real) => realFs.rename(`${real}/a`, `${real}/b`),
  },
  {
    name: "provider truncate of a 1 MiB file to 1000 bytes",
    setup: (ws, real) => both(ws, real, "/f", big1),
    op: (ws) => ws.provider().truncate("/f", 1000),
    realOp: (real) => realFs.truncate(`${real}/f`, 1000),
  },
  {
    name: "provider copyFile over a 1 MiB file",
    setup: async (ws, real) => {
      await both(ws, real, "/src", big2);
      await both(ws, real, "/dst", big1);
    },
    op: (ws) => ws.provider().copyFile("/src", "/dst"),
    realOp: (real) => realFs.copyFile(`${real}/src`, `${real}/dst`),
  },
];

describe("a mutation that committed resolves though another connection holds the lock when it sweeps", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const f = fixture();
      await realFs.mkdir(f.real);
      await c.setup(f.workspace, f.real);
      expect(storageFacts(f)).toEqual(CLEAN);
      const lock = lockAfter(f, (ok, raised) => ok && raised);
      const outcome = await settle(c.op(f.workspace));
      expect(lock.taken()).toBe(true);
      const held = storageFacts(f);
      lock.release();
      await c.realOp(f.real);
      // Was: "EBUSY" (the change landed all the same).
      expect(outcome).toBe("resolved");
      expect(await workspaceTree(f.workspace)).toEqual(await realTree(f.real));
      // The sweep really was put off: the released chunks are still stored, unreferenced.
      expect(held.unreferenced).toBeGreaterThan(0);
      // A later, unrelated write (it releases nothing) reclaims them: the backlog.
      await f.workspace.fs.writeFile("/later", "x");
      expect(storageFacts(f)).toEqual(CLEAN);
    });
  }

  it("a Workspace opened later on the file reclaims what a put-off sweep left (the start-up sweep)", async () => {
    const f = fixture();
    await f.workspace.fs.writeFile("/f", big1);
    const lock = lockAfter(f, (ok, raised) => ok && raised);
    expect(await settle(f.workspace.fs.rm("/f"))).toBe("resolved");
    lock.release();
    expect(storageFacts(f).unreferenced).toBe(chunksOf(big1.byteLength));
    // This process stops here (its backlog never served); another opens the file.
    await f.workspace.close();
    f.storage.close();
    f.storage = nodeSqliteStorage(f.file, { busyTimeoutMs: 50 });
    f.workspace = new Workspace({ storage: f.storage });
    expect(storageFacts(f)).toEqual(CLEAN);
    expect(await workspaceTree(f.workspace)).toEqual({});
  });

  it("a Workspace whose start-up sweep meets the lock opens, and its first mutation reclaims", async () => {
    const f = fixture();
    await f.workspace.fs.writeFile("/f", big1);
    const rm = lockAfter(f, (ok, raised) => ok && raised);
    expect(await settle(f.workspace.fs.rm("/f"))).toBe("resolved");
    rm.release();
    await f.workspace.close();
    f.storage.close();
    // Another process opens the file; the other connection takes the lock right after the schema transaction.
    f.storage = nodeSqliteStorage(f.file, { busyTimeoutMs: 50 });
    const open = lockAfter(f, (ok) => ok, f.storage, () => 0);
    f.workspace = new Workspace({ storage: f.storage, now: () => Date.now() }); // was: throws EBUSY
    expect(open.taken()).toBe(true);
    expect(await workspaceTree(f.workspace)).toEqual({});
    open.release();
    expect(storageFacts(f).unreferenced).toBe(chunksOf(big1.byteLength));
    await f.workspace.fs.mkdir("/d");
    expect(storageFacts(f).unreferenced).toBe(chunksOf(big1.byteLength)); // mkdir does not sweep
    await f.workspace.fs.writeFile("/d/x", "x");
    expect(storageFacts(f)).toEqual(CLEAN);
  });
});

describe("errors before the commit are kept", () => {
  it("an append that meets the lock at its commit rejects EBUSY and changes nothing", async () => {
    const f = fixture();
    await f.workspace.fs.writeFile("/log", "one\n");
    f.other.exec("BEGIN IMMEDIATE");
    f.other.exec("INSERT INTO other_t VALUES (1)");
    const outcome = await settle(f.workspace.fs.appendFile("/log", "two\n"));
    f.other.exec("COMMIT");
    expect({ outcome, content: await f.workspace.fs.readFile("/log", "utf8") }).toEqual({ outcome: "EBUSY", content: "one\n" });
    await f.workspace.fs.writeFile("/later", "x");
    expect(storageFacts(f)).toEqual(CLEAN);
  });

  it("a staged write refused at its commit rejects with its own error, not the sweep's EBUSY", async () => {
    const f = fixture();
    await realFs.mkdir(f.real);
    // The stream creates the target while it is read: the exclusive commit finds it (node:fs: O_EXCL → EEXIST).
    const ws = f.workspace;
    let pulls = 0;
    const racing = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        if (pulls === 2) await ws.fs.writeFile("/x", "raced\n");
        if (pulls > 4) return controller.close();
        controller.enqueue(big2.slice((pulls - 1) * 400 * KiB, pulls * 400 * KiB));
      },
    });
    const lock = lockAfter(f, (ok) => !ok);
    const outcome = await settle(ws.fs.writeFile("/x", racing, { exclusive: true }));
    expect(lock.taken()).toBe(true);
    const held = storageFacts(f);
    lock.release();
    await realFs.writeFile(`${f.real}/x`, "raced\n");
    const realOutcome = await settle(realFs.writeFile(`${f.real}/x`, big2, { flag: "wx" }));
    // Was: "EBUSY" (the sweep's error replaced the refusal).
    expect(outcome).toBe(realOutcome);
    expect(outcome).toBe("EEXIST");
    expect(await workspaceTree(ws)).toEqual(await realTree(f.real));
    // Its staged chunks wait: the lock also refused the end of its leases, so they are kept as a crashed writer's are,
    // until the leases run out (STAGE_LEASE_MS, 10 minutes), then taken by the next sweep.
    const staged = { unreferenced: chunksOf(big2.slice(0, 4 * 400 * KiB).byteLength), leases: chunksOf(4 * 400 * KiB) };
    expect(held).toMatchObject(staged);
    await ws.fs.writeFile("/later", "x");
    expect(storageFacts(f)).toMatchObject(staged);
    f.skew.ms = STAGE_LEASE_MS + 1;
    await ws.fs.writeFile("/later", "y");
    expect(storageFacts(f)).toEqual(CLEAN);
  });
});
