/**
 * Content-addressed chunk storage (spec 01 §4.2–4.7).
 *
 * Files are cut by offset into {@link CHUNK_SIZE} pieces; each piece is keyed
 * by its SHA-256 and stored once however many files use it. A chunk's
 * `refs` counts the `__ws_file_chunks` rows pointing at it. A chunk whose
 * count drops to zero is reclaimed by {@link ChunkStore.sweep} unless it is
 * *pinned*: in-flight stream writes pin the chunks they stored before commit,
 * and open read streams pin the chunks of their snapshot. Pins live in
 * memory, shared by every Workspace over the same storage object; chunks
 * left at zero by a crash are reclaimed by the sweep at the next start.
 *
 * @module
 */
import { toBytes, type Database } from "../storage/database.js";

/** Chunk size in bytes: 512 KiB (spec 01 §4.2). */
export const CHUNK_SIZE = 524_288;

/** Rows per multi-row INSERT (Durable Objects allow 100 bound parameters). */
const INSERT_BATCH = 32;

/** A chunk ready to store: its bytes and SHA-256. */
export interface HashedChunk {
  hash: Uint8Array;
  data: Uint8Array;
}

/** SHA-256 of `data` (Web Crypto; available in workerd and Node). */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/** Cuts `bytes` into chunks and hashes them. */
export async function hashChunks(bytes: Uint8Array): Promise<HashedChunk[]> {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_SIZE) {
    pieces.push(bytes.subarray(offset, Math.min(offset + CHUNK_SIZE, bytes.byteLength)));
  }
  return Promise.all(pieces.map(async (data) => ({ data, hash: await sha256(data) })));
}

const pinRegistries = new WeakMap<object, Map<number, number>>();

export class ChunkStore {
  readonly #db: Database;
  readonly #pins: Map<number, number>;

  constructor(db: Database, storageKey: object) {
    this.#db = db;
    let pins = pinRegistries.get(storageKey);
    if (!pins) pinRegistries.set(storageKey, (pins = new Map()));
    this.#pins = pins;
  }

  /** Protects chunks from the sweep until {@link unpin}. */
  pin(ids: Iterable<number>): void {
    for (const id of ids) this.#pins.set(id, (this.#pins.get(id) ?? 0) + 1);
  }

  unpin(ids: Iterable<number>): void {
    for (const id of ids) {
      const count = (this.#pins.get(id) ?? 0) - 1;
      if (count > 0) this.#pins.set(id, count);
      else this.#pins.delete(id);
    }
  }

  /**
   * Stores a chunk if its hash is new and returns its id. The chunk starts
   * with `refs = 0`: callers either link it in the same transaction or pin it.
   */
  put(chunk: HashedChunk): number {
    const existing = this.#db.one<{ id: number }>(`SELECT id FROM __ws_chunks WHERE hash = ?`, chunk.hash);
    if (existing) return existing.id;
    const row = this.#db.one<{ id: number }>(
      `INSERT INTO __ws_chunks (hash, size, refs) VALUES (?, ?, 0) RETURNING id`,
      chunk.hash,
      chunk.data.byteLength,
    )!;
    this.#db.run(`INSERT INTO __ws_blobs (id, data) VALUES (?, ?)`, row.id, chunk.data);
    return row.id;
  }

  /** Points file `ino` at `ids` (index order) and counts the new references. */
  link(ino: number, ids: readonly number[]): void {
    for (let start = 0; start < ids.length; start += INSERT_BATCH) {
      const batch = ids.slice(start, start + INSERT_BATCH);
      const values = batch.map(() => "(?, ?, ?)").join(", ");
      const params: number[] = [];
      batch.forEach((id, i) => params.push(ino, start + i, id));
      this.#db.run(`INSERT INTO __ws_file_chunks (ino, idx, chunk) VALUES ${values}`, ...params);
    }
    if (ids.length === 1) {
      this.#db.run(`UPDATE __ws_chunks SET refs = refs + 1 WHERE id = ?`, ids[0]);
    } else if (ids.length > 1) {
      this.#db.run(
        `UPDATE __ws_chunks SET refs = refs + (SELECT count(*) FROM __ws_file_chunks f WHERE f.ino = ? AND f.chunk = __ws_chunks.id)
         WHERE id IN (SELECT chunk FROM __ws_file_chunks WHERE ino = ?)`,
        ino,
        ino,
      );
    }
  }

  /** Drops file `ino`'s chunk list and its references. Returns whether anything was unlinked. */
  unlink(ino: number, size: number): boolean {
    if (size === 0) return false;
    this.#db.run(
      `UPDATE __ws_chunks SET refs = refs - (SELECT count(*) FROM __ws_file_chunks f WHERE f.ino = ? AND f.chunk = __ws_chunks.id)
       WHERE id IN (SELECT chunk FROM __ws_file_chunks WHERE ino = ?)`,
      ino,
      ino,
    );
    this.#db.run(`DELETE FROM __ws_file_chunks WHERE ino = ?`, ino);
    return true;
  }

  /** Chunk ids of file `ino` overlapping chunk indexes `[first, last]`, in order. */
  range(ino: number, first: number, last: number): number[] {
    return this.#db
      .all<{ chunk: number }>(
        `SELECT chunk FROM __ws_file_chunks WHERE ino = ? AND idx BETWEEN ? AND ? ORDER BY idx`,
        ino,
        first,
        last,
      )
      .map((row) => row.chunk);
  }

  /** The bytes of chunk `id`, or `undefined` when it is missing from the store. */
  read(id: number): Uint8Array | undefined {
    const row = this.#db.one<{ data: unknown }>(`SELECT data FROM __ws_blobs WHERE id = ?`, id);
    return row ? toBytes(row.data) : undefined;
  }

  /** Deletes unreferenced, unpinned chunks. Bounded per call; safe to call any time. */
  sweep(): void {
    for (;;) {
      const orphans = this.#db
        .all<{ id: number }>(`SELECT id FROM __ws_chunks WHERE refs <= 0 LIMIT 512`)
        .map((row) => row.id);
      if (orphans.length === 0) return;
      const free = orphans.filter((id) => !this.#pins.has(id));
      if (free.length === orphans.length && this.#pins.size === 0) {
        this.#db.tx(() => {
          this.#db.run(`DELETE FROM __ws_blobs WHERE id IN (SELECT id FROM __ws_chunks WHERE refs <= 0 LIMIT 512)`);
          this.#db.run(`DELETE FROM __ws_chunks WHERE id IN (SELECT id FROM __ws_chunks WHERE refs <= 0 LIMIT 512)`);
        });
      } else {
        this.#db.tx(() => {
          for (const id of free) {
            this.#db.run(`DELETE FROM __ws_blobs WHERE id = ?`, id);
            this.#db.run(`DELETE FROM __ws_chunks WHERE id = ?`, id);
          }
        });
      }
      if (orphans.length < 512 || free.length === 0) return;
    }
  }
}
