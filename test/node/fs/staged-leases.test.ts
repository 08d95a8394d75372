/**
 * Spec 01 §4.7 across storage objects and processes: the chunks an in-flight
 * stream write has staged carry a lease in the database, so no sweep — of
 * another Workspace on the same file, or of another process — reclaims
 * them; a crashed writer's chunks are reclaimed once the lease ends; and a
 * commit whose staged chunk went missing fails with EIO, old content intact.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { Database } from "../../../src/storage/database.js";
import { CHUNK_SIZE, ChunkStore, STAGE_LEASE_MS } from "../../../src/fs/chunks.js";
import { SCHEMA_VERSION } from "../../../src/fs/schema.js";
import { concatBytes } from "../../../src/util/bytes.js";
import { childWorkspaceScript } from "./lease-helpers.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ws-leases-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function piece(i: number): Uint8Array {
  const bytes = new Uint8Array(CHUNK_SIZE);
  for (let k = 0; k < bytes.length; k += 4096) bytes[k] = (k / 4096 + i * 7) & 0xff;
  bytes[0] = i + 1;
  return bytes;
}

/** A stream of three chunks that stops before the third until `release()`; `staged` resolves once two are staged. */
function gatedStream() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const staged = new Promise<void>((r) => (reached = r));
  let fail!: (e: unknown) => void;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        fail = (e) => controller.error(e);
      },
      async pull(controller) {
        if (i === 2) {
          reached();
          await gate;
        }
        if (i === 3) return controller.close();
        controller.enqueue(piece(i++));
      },
    },
    { highWaterMark: 0 },
  );
  const expected = new Uint8Array(3 * CHUNK_SIZE);
  for (let k = 0; k < 3; k++) expected.set(piece(k), k * CHUNK_SIZE);
  return { stream, staged, release, fail, expected };
}

async function bytesOf(workspace: Workspace, path: string): Promise<Uint8Array> {
  const stream = (await workspace.fs.readFile(path)) as ReadableStream<Uint8Array>;
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return concatBytes(parts);
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return actual.byteLength === expected.byteLength && Buffer.from(actual).equals(Buffer.from(expected));
}

function orphanCount(file: string): number {
  const storage = nodeSqliteStorage(file);
  try {
    return Number(storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_chunks WHERE refs <= 0").toArray()[0]!.n);
  } finally {
    storage.close();
  }
}

describe("staged chunks are leased in the database (spec 01 §4.7)", () => {
  /** Workspace `a` on a fresh file `name` holding /f = "OLD", with a stream write to /f staged and held at the gate. */
  async function stagedWrite(name: string) {
    const file = join(dir, name);
    const sa = nodeSqliteStorage(file);
    const a = new Workspace({ storage: sa });
    await a.fs.writeFile("/f", "OLD");
    const { stream, staged, release, fail, expected } = gatedStream();
    const writing = a.fs.writeFile("/f", stream);
    await staged;
    return { file, sa, a, writing, release, fail, expected };
  }

  it("another Workspace on the same file does not reclaim an in-flight write's chunks", async () => {
    const { file, sa, a, writing, release, expected } = await stagedWrite("two-workspaces.db");
    const sb = nodeSqliteStorage(file);
    const b = new Workspace({ storage: sb }); // its start-up sweep
    await b.fs.writeFile("/g", "x");
    await b.fs.rm("/g");
    release();
    await writing;
    expect(sameBytes(await bytesOf(a, "/f"), expected)).toBe(true);
    expect(sameBytes(await bytesOf(b, "/f"), expected)).toBe(true);
    await b.close();
    sb.close();
    await a.close();
    sa.close();
  });

  it("another process on the same file does not reclaim an in-flight write's chunks", async () => {
    const sweep = await childWorkspaceScript(
      dir,
      "sweeper.mjs",
      `await workspace.fs.writeFile("/g", "x");
       await workspace.fs.rm("/g");
       await workspace.close();
       storage.close();
       process.stdout.write("swept");`,
    );
    const { file, sa, a, writing, release, expected } = await stagedWrite("two-processes.db");
    expect(await sweep(file)).toBe("swept");
    release();
    await writing;
    expect(sameBytes(await bytesOf(a, "/f"), expected)).toBe(true);
    await a.close();
    sa.close();
  });

  it("a crashed writer's staged chunks are reclaimed once their lease has ended", async () => {
    const started = await stagedWrite("crashed.db");
    const { file, sa, a, fail } = started;
    const writing = started.writing.catch((e: unknown) => e);
    // The writer is now "crashed": it never renews or commits. Another store sweeps.
    const sb = nodeSqliteStorage(file);
    const db = new Database(sb);
    const b = new Workspace({ storage: sb }); // start-up sweep, real clock
    const chunks = new ChunkStore(db, sb);
    chunks.sweep(true, Date.now() + STAGE_LEASE_MS - 60_000);
    expect(orphanCount(file)).toBe(2);
    chunks.sweep(true, Date.now() + STAGE_LEASE_MS + 1);
    expect(orphanCount(file)).toBe(0);
    expect(await b.fs.readFile("/f", "utf8")).toBe("OLD");
    // The abandoned write's commit finds its chunks gone: EIO, old content intact.
    fail(new Error("crash"));
    expect(await writing).toMatchObject({ message: "crash" });
    expect(await a.fs.readFile("/f", "utf8")).toBe("OLD");
    await b.close();
    sb.close();
    await a.close();
    sa.close();
  });

  it("a commit whose staged chunk went missing fails with EIO and leaves the old content", async () => {
    const started = await stagedWrite("missing.db");
    const { sa, a, release } = started;
    const writing = started.writing.catch((e: unknown) => e);
    sa.sql.exec("DELETE FROM __ws_blobs WHERE id = (SELECT blob FROM __ws_chunks WHERE refs <= 0 ORDER BY id LIMIT 1)");
    sa.sql.exec("DELETE FROM __ws_chunks WHERE id = (SELECT id FROM __ws_chunks WHERE refs <= 0 ORDER BY id LIMIT 1)");
    release();
    expect(await writing).toMatchObject({ name: "WorkspaceFsError", code: "EIO" });
    expect(await a.fs.readFile("/f", "utf8")).toBe("OLD");
    await a.close();
    sa.close();
  });

  it("a second writer that links the same chunk does not end the first writer's lease on it", async () => {
    // Second attack run (issue 20): B's commit used to clear the lease A held on a chunk they share.
    const { file, sa, a, writing, release, expected } = await stagedWrite("shared-chunk.db");
    const sb = nodeSqliteStorage(file);
    const b = new Workspace({ storage: sb });
    // B streams the same first chunk plus 3 bytes, links it, then removes the file: refs back to 0.
    const tail = new Uint8Array([1, 2, 3]);
    let sent = 0;
    const same = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(piece(0));
        else if (sent === 1) controller.enqueue(tail);
        else controller.close();
        sent++;
      },
    });
    await b.fs.writeFile("/g", same);
    await b.fs.rm("/g");
    expect(orphanCount(file)).toBe(2); // A's two staged chunks, still leased to A
    release();
    await writing;
    expect(sameBytes(await bytesOf(a, "/f"), expected)).toBe(true);
    await b.close();
    sb.close();
    await a.close();
    sa.close();
  });

  it("a failed stream write's chunks are reclaimed at once: it ends its own leases", async () => {
    const started = await stagedWrite("failed.db");
    const { file, sa, a, fail } = started;
    const writing = started.writing.catch((e: unknown) => e);
    fail(new Error("source failed"));
    expect(await writing).toMatchObject({ message: "source failed" });
    expect(orphanCount(file)).toBe(0);
    const leases = Number(sa.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_chunk_leases").toArray()[0]!.n);
    expect(leases).toBe(0);
    expect(await a.fs.readFile("/f", "utf8")).toBe("OLD");
    await a.close();
    sa.close();
  });

  it("a schema-1 store (no lease column) is upgraded when opened", async () => {
    const file = join(dir, "upgrade.db");
    let storage = nodeSqliteStorage(file);
    let workspace = new Workspace({ storage });
    await workspace.fs.writeFile("/f", "OLD");
    await workspace.close();
    storage.sql.exec("ALTER TABLE __ws_chunks DROP COLUMN lease");
    // Nor path keys (schema 3).
    storage.sql.exec("DROP INDEX __ws_nodes_key");
    storage.sql.exec("ALTER TABLE __ws_nodes DROP COLUMN path_key");
    storage.sql.exec("UPDATE __ws_meta SET value = 1 WHERE key = 'schema'");
    storage.close();
    storage = nodeSqliteStorage(file);
    workspace = new Workspace({ storage });
    expect(Number(storage.sql.exec<{ value: number }>("SELECT value FROM __ws_meta WHERE key = 'schema'").toArray()[0]!.value)).toBe(SCHEMA_VERSION);
    expect(await workspace.fs.readFile("/f", "utf8")).toBe("OLD");
    const { stream, release, expected } = gatedStream();
    release();
    await workspace.fs.writeFile("/f", stream);
    expect(sameBytes(await bytesOf(workspace, "/f"), expected)).toBe(true);
    await workspace.close();
    storage.close();
  });
});
