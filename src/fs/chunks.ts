/**
 * Content-addressed chunk storage (spec 01 §4.2–4.7).
 *
 * Files are cut by offset into {@link CHUNK_SIZE} pieces; each piece is keyed
 * by its SHA-256 and stored once however many files use it. The bytes live in
 * `__ws_blobs`, apart from the `__ws_chunks` index row, so reference-count
 * updates never rewrite chunk data.
 *
 * A file of one chunk keeps the chunk id in its inode row (`__ws_nodes.chunk`);
 * longer files list their chunks in `__ws_file_chunks (ino, idx) → chunk`.
 * `refs` counts every such reference. A chunk whose count is zero is reclaimed
 * by {@link ChunkStore.sweep} unless it is *pinned* or *leased*. In-flight
 * writes stage their chunks with a lease in the database: one
 * `__ws_chunk_leases (chunk, holder, until)` row per chunk and write (the
 * holder is a random id per write), {@link STAGE_LEASE_MS} ahead, renewed
 * while the write runs, so no sweep of any Workspace, process or isolate on
 * the same database takes a chunk a live write still needs (spec 01 §4.7).
 * A write ends only its own leases, when it commits or fails, so two writes
 * staging the same content never end each other's protection. An open read
 * stream over more than one chunk leases the chunks of its snapshot the same
 * way ({@link ChunkStore.openRead}: one row per chunk, the holder a random id per
 * stream, renewed as the stream is pulled, ended when it finishes, fails or
 * is cancelled), so a sweep by another storage object or process cannot tear
 * it either. Chunks left at zero by a crash are reclaimed by the first sweep
 * after their lease ends (at most {@link STAGE_LEASE_MS} after the writer's
 * or reader's last renewal).
 *
 * The owner of `__ws_chunks`, `__ws_blobs` and `__ws_file_chunks`: every
 * statement on content and its reference counts is here.
 *
 * @module
 */
import { toBytes, type Database } from "../storage/database.js";
import { SEP, SEP_END } from "./path-key.js";
import { Kind, SUBTREE } from "./schema.js";

/** Chunk size in bytes: 512 KiB (spec 01 §4.2). */
export const CHUNK_SIZE = 524_288;

/** Chunks of at most this many bytes keep their bytes in the index row (one row, one statement). */
export const INLINE_CHUNK_BYTES = 16_384;

/** Rows per multi-row INSERT (Durable Objects allow 100 bound parameters). */
const INSERT_BATCH = 32;

/**
 * How long a staged chunk is kept from the sweep without a renewal: 10
 * minutes. A running write renews its chunks' leases every third of it.
 */
export const STAGE_LEASE_MS = 600_000;

/**
 * How long an open read stream's chunks are kept from the sweep without a
 * renewal: the same 10 minutes. Each `pull` renews the lease when a third
 * of it has passed, so a reader that is still pulling keeps its snapshot;
 * one that stops pulling for longer (or crashed) loses it.
 */
export const READ_LEASE_MS = STAGE_LEASE_MS;

/** The chunks one open read stream has leased ({@link ChunkStore.openRead}). */
export interface ReadLease {
  /** The snapshot's chunk ids, in order. */
  readonly ids: number[];
  /** Extends the lease to {@link READ_LEASE_MS} from now when a third of it has passed (call it on every pull). */
  renew(): void;
  /** Ends the lease (the stream finished, failed or was cancelled) and sweeps what it alone kept. Safe to call twice. */
  end(): void;
}

/** Thrown inside {@link ChunkStore.openRead}'s transaction to roll its lease back when the file changed. */
const RACED = Symbol("file changed before its read stream opened");

/** Ids per statement that lists them (Durable Objects allow 100 bound parameters). */
const ID_BATCH = 90;

/**
 * The sweep's condition: unreferenced, and no live lease at time `?1` —
 * neither a write's row in `__ws_chunk_leases` nor a schema-2 `lease`.
 */
const RECLAIMABLE = `refs <= 0 AND (lease IS NULL OR lease <= ?1)
  AND NOT EXISTS (SELECT 1 FROM __ws_chunk_leases l WHERE l.chunk = __ws_chunks.id AND l.until > ?1)`;

/** Orphans deleted per sweep statement. */
const SWEEP_BATCH = 512;

/**
 * Orphans reclaimed per sweep call, so one huge `rm` does not pay for all its
 * content at once; the rest is reclaimed by the following mutations.
 */
const SWEEP_BUDGET = 1024;

/** A chunk ready to store: its bytes and SHA-256. */
export interface HashedChunk {
  hash: Uint8Array;
  data: Uint8Array;
}

/** What the chunk store needs to know of a file. */
export interface FileContent {
  ino: number;
  size: number;
  /** The single chunk of a file of ≤ CHUNK_SIZE bytes, else `null`. */
  chunk: number | null;
}

/** SHA-256 of `data` (Web Crypto; available in workerd and Node). */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/** Cuts `bytes` into CHUNK_SIZE views. */
export function splitChunks(bytes: Uint8Array): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_SIZE) {
    pieces.push(bytes.subarray(offset, Math.min(offset + CHUNK_SIZE, bytes.byteLength)));
  }
  return pieces;
}

/** A chunk's bytes and its file's revision, read in one statement ({@link ChunkStore.readChecked}). */
export interface CheckedChunk {
  /** The bytes; `undefined` when they are missing from the store (or the file has no such chunk). */
  data: Uint8Array | undefined;
  /** The inode's revision (`Node.rev`) when the bytes were read; `undefined` when the inode is gone. */
  rev: number | undefined;
}

function checkedChunk(row: { data: unknown; rev: number } | undefined): CheckedChunk {
  if (!row) return { data: undefined, rev: undefined };
  return { data: row.data === null || row.data === undefined ? undefined : toBytes(row.data), rev: Number(row.rev) };
}

/** Per-storage state shared by every Workspace over the same storage object. */
interface Shared {
  pins: Map<number, number>;
  /** A sweep stopped at its budget: orphans remain. */
  backlog: boolean;
  /** When leases this store granted may have ended (ms): a sweep runs then even without a release. */
  recheckAt: number;
}

const registries = new WeakMap<object, Shared>();

export class ChunkStore {
  readonly #db: Database;
  readonly #pins: Map<number, number>;
  readonly #shared: Shared;
  readonly #clock: () => number;

  /**
   * @param storageKey The storage object: pins and sweep state are shared by every store over it.
   * @param clock Clock (ms) for leases and the sweep. Default: the wall clock, `Date.now()` read at each call. Leases
   *   are a protocol between every connection to the storage (other Workspaces, processes, isolates), so they are
   *   dated with the one clock all of them share — never a Workspace's `now`, which dates mtimes only (issue 20,
   *   run 40, fixer f40fs: a Workspace with a fixed `now` had its live leases reclaimed by another's sweep).
   */
  constructor(db: Database, storageKey: object, clock: () => number = () => Date.now()) {
    this.#db = db;
    this.#clock = clock;
    let shared = registries.get(storageKey);
    if (!shared) registries.set(storageKey, (shared = { pins: new Map(), backlog: true, recheckAt: Infinity }));
    this.#shared = shared;
    this.#pins = shared.pins;
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
   * Stores a chunk with one reference already counted (for writes committed
   * in the same transaction). Returns its id.
   */
  acquire(chunk: HashedChunk): number {
    if (chunk.data.byteLength <= INLINE_CHUNK_BYTES) {
      return this.#db.one<{ id: number }>(
        `INSERT INTO __ws_chunks (hash, size, refs, data) VALUES (?, ?, 1, ?)
         ON CONFLICT (hash) DO UPDATE SET refs = refs + 1 RETURNING id`,
        chunk.hash,
        chunk.data.byteLength,
        chunk.data,
      )!.id;
    }
    const existing = this.#db.one<{ id: number }>(`SELECT id FROM __ws_chunks WHERE hash = ?`, chunk.hash);
    if (existing) {
      this.#db.run(`UPDATE __ws_chunks SET refs = refs + 1 WHERE id = ?`, existing.id);
      return existing.id;
    }
    return this.#insertLarge(chunk, 1);
  }

  /** A new lease holder: the id one staged write passes to {@link stage}, {@link renew}, {@link count} and {@link endLease}. */
  holder(): string {
    return crypto.randomUUID();
  }

  /**
   * Stores a chunk without counting a reference, pins it and leases it to
   * `holder` for {@link STAGE_LEASE_MS} (for streamed writes, linked later
   * by {@link count}). The chunk is found or inserted and the lease recorded
   * in one transaction, so no sweep can take it in between. The bytes are
   * written before the index row, so an interrupted write can leave
   * unreferenced bytes but never an index row without bytes.
   */
  stage(chunk: HashedChunk, holder: string): number {
    const until = this.#clock() + STAGE_LEASE_MS;
    this.#shared.recheckAt = Math.min(this.#shared.recheckAt, until + 1);
    const id = this.#db.tx(() => {
      // A write statement: it takes the write lock before the chunk is found, so no other process's sweep runs in between.
      const existing = this.#db.one<{ id: number }>(`UPDATE __ws_chunks SET refs = refs WHERE hash = ? RETURNING id`, chunk.hash);
      let found: number;
      if (existing) found = existing.id;
      else if (chunk.data.byteLength <= INLINE_CHUNK_BYTES) {
        found = this.#db.one<{ id: number }>(
          `INSERT INTO __ws_chunks (hash, size, refs, data) VALUES (?, ?, 0, ?) RETURNING id`,
          chunk.hash,
          chunk.data.byteLength,
          chunk.data,
        )!.id;
      } else {
        found = this.#insertLarge(chunk, 0);
      }
      this.#db.run(
        `INSERT INTO __ws_chunk_leases (chunk, holder, until) VALUES (?, ?, ?)
         ON CONFLICT (chunk, holder) DO UPDATE SET until = max(until, excluded.until)`,
        found,
        holder,
        until,
      );
      return found;
    });
    this.pin([id]);
    return id;
  }

  /** Extends every lease of `holder` to {@link STAGE_LEASE_MS} from now. */
  renew(holder: string): void {
    const until = this.#clock() + STAGE_LEASE_MS;
    this.#shared.recheckAt = Math.min(this.#shared.recheckAt, until + 1);
    this.#db.run(`UPDATE __ws_chunk_leases SET until = max(until, ?) WHERE holder = ?`, until, holder);
  }

  /**
   * Ends every lease of `holder` (a staged write that committed or failed):
   * its chunks are then kept only by their references, pins and other
   * holders' leases. Safe to call twice.
   */
  endLease(holder: string): void {
    this.#db.run(`DELETE FROM __ws_chunk_leases WHERE holder = ?`, holder);
  }

  /**
   * Leases the chunks of file `file` at chunk indexes `[first, last]` for a
   * read stream: one `__ws_chunk_leases` row per distinct chunk, the holder
   * a new id, {@link READ_LEASE_MS} ahead. The lease rows and the chunk list
   * are written and read in one transaction that starts with the write, so
   * no sweep of another process runs between them. Returns the stream's
   * {@link ReadLease} (with no chunks, nothing is written), or `undefined`
   * (nothing leased) when the file's size is no longer `file.size`: another
   * storage object or process changed it since `file` was read, and the
   * caller resolves the path again. (At the same size, the chunk list read
   * here is the whole of one version.)
   */
  openRead(file: FileContent, first: number, last: number): ReadLease | undefined {
    const holder = this.holder();
    let renewed = this.#clock();
    const granted = (at: number): void => {
      this.#shared.recheckAt = Math.min(this.#shared.recheckAt, at + READ_LEASE_MS + 1);
    };
    let ids: number[];
    try {
      ids = this.#db.tx(() => {
        if (file.chunk !== null) {
          if (first !== 0) return [];
          this.#db.run(`INSERT INTO __ws_chunk_leases (chunk, holder, until) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, file.chunk, holder, renewed + READ_LEASE_MS);
        } else {
          this.#db.run(
            `INSERT INTO __ws_chunk_leases (chunk, holder, until)
             SELECT DISTINCT chunk, ?, ? FROM __ws_file_chunks WHERE ino = ? AND idx BETWEEN ? AND ? ON CONFLICT DO NOTHING`,
            holder,
            renewed + READ_LEASE_MS,
            file.ino,
            first,
            last,
          );
        }
        const row = this.#db.one<{ size: number }>(`SELECT size FROM __ws_nodes WHERE ino = ?`, file.ino);
        if (Number(row?.size) !== file.size) throw RACED;
        return this.range(file, first, last);
      });
    } catch (error) {
      if (error === RACED) return undefined;
      throw error;
    }
    if (ids.length > 0) granted(renewed);
    let ended = ids.length === 0;
    return {
      ids,
      renew: () => {
        const now = this.#clock();
        if (ended || now - renewed < READ_LEASE_MS / 3) return;
        renewed = now;
        granted(now);
        this.#db.run(`UPDATE __ws_chunk_leases SET until = max(until, ?) WHERE holder = ?`, now + READ_LEASE_MS, holder);
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.endLease(holder);
        // Whether the lease alone kept any of them (the file was replaced or removed meanwhile): then sweep.
        if (this.#anyUnreferenced(ids)) this.reclaim(true); // best-effort (run 38, fixer SW)
      },
    };
  }

  /**
   * Whether any chunk of `ids` has no reference left: probes of the
   * partial index of unreferenced chunks (the schema creates it on every
   * open), so a referenced chunk's row is never read — a 2-chunk stream's
   * check reads 2 rows, not 4 (bound ids; a `json_each` list reads 6).
   */
  #anyUnreferenced(ids: readonly number[]): boolean {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += ID_BATCH) {
      const batch = unique.slice(start, start + ID_BATCH);
      const hit = this.#db.one(`SELECT 1 AS x FROM __ws_chunks INDEXED BY __ws_chunks_unreferenced WHERE refs <= 0 AND id IN (${batch.map(() => "?").join(", ")}) LIMIT 1`, ...batch);
      if (hit) return true;
    }
    return false;
  }

  /** Whether every chunk of `ids` is still stored, bytes included (checked at a write's commit). */
  present(ids: readonly number[]): boolean {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += ID_BATCH) {
      const batch = unique.slice(start, start + ID_BATCH);
      const row = this.#db.one<{ n: number }>(
        `SELECT count(*) AS n FROM __ws_chunks c WHERE c.id IN (${batch.map(() => "?").join(", ")})
         AND (c.data IS NOT NULL OR EXISTS (SELECT 1 FROM __ws_blobs b WHERE b.id = c.blob))`,
        ...batch,
      );
      if (Number(row?.n ?? 0) !== batch.length) return false;
    }
    return true;
  }

  /**
   * Stores a chunk's bytes in `__ws_blobs`, then its index row. The bytes go
   * first, so an interrupted write can leave unreferenced bytes but never an
   * index row without bytes.
   */
  #insertLarge(chunk: HashedChunk, refs: number): number {
    const blob = this.#db.one<{ id: number }>(`INSERT INTO __ws_blobs (data) VALUES (?) RETURNING id`, chunk.data)!.id;
    return this.#db.one<{ id: number }>(
      `INSERT INTO __ws_chunks (hash, size, refs, blob) VALUES (?, ?, ?, ?) RETURNING id`,
      chunk.hash,
      chunk.data.byteLength,
      refs,
      blob,
    )!.id;
  }

  /**
   * Records the chunk list of a file with more than one chunk. Returns the
   * value for `__ws_nodes.chunk` (the id of a single chunk, else `null`).
   */
  list(ino: number, ids: readonly number[]): number | null {
    if (ids.length <= 1) return ids[0] ?? null;
    for (let start = 0; start < ids.length; start += INSERT_BATCH) {
      const batch = ids.slice(start, start + INSERT_BATCH);
      const params: number[] = [];
      batch.forEach((id, i) => params.push(ino, start + i, id));
      this.#db.run(`INSERT INTO __ws_file_chunks (ino, idx, chunk) VALUES ${batch.map(() => "(?, ?, ?)").join(", ")}`, ...params);
    }
    return null;
  }

  /**
   * Counts one reference per occurrence in `ids` (staged chunks being linked
   * by `holder`) and ends `holder`'s leases: a referenced chunk needs none,
   * and a lease left in place would keep the chunk after the file is
   * removed. Other writes' leases on the same chunks stay. (A schema-2
   * `lease` on them is ended too: only schema-2 code set it.)
   */
  count(ids: readonly number[], holder: string): void {
    const counts = new Map<number, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    if (counts.size === 1) {
      for (const [id, n] of counts) this.#db.run(`UPDATE __ws_chunks SET refs = refs + ?, lease = NULL WHERE id = ?`, n, id);
    } else {
      // Every chunk in one statement: `[id, n]` pairs as one JSON parameter (no limit on bound parameters).
      this.#db.run(
        `UPDATE __ws_chunks SET refs = refs + j.n, lease = NULL
         FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS n FROM json_each(?)) AS j
         WHERE __ws_chunks.id = j.id`,
        JSON.stringify([...counts]),
      );
    }
    this.endLease(holder);
  }

  /**
   * Re-points a file's content for an append (issue 20, run 36, fixer AP):
   * its first `keep` chunks stay where they are (their rows and references
   * untouched), every later one is dropped (its reference released, its row
   * deleted), and `ids` (references already counted, by {@link count}) are
   * listed after them. Writes one row per id of `ids` (plus the moved row
   * when a one-chunk file becomes a list), never the kept ones: an append to
   * a file of N chunks costs O(`ids.length`) statements' rows, not O(N).
   * Call it inside the commit's transaction. Returns the value for
   * `__ws_nodes.chunk` (the single chunk when the result has one, else
   * `null`) and whether a reference was released (then sweep).
   */
  splice(file: FileContent, keep: number, ids: readonly number[]): { chunk: number | null; released: boolean } {
    const total = keep + ids.length;
    if (file.chunk !== null) {
      // One chunk, kept in the inode row: kept as chunk 0, or released.
      const kept = keep > 0 ? [file.chunk] : [];
      if (keep === 0) this.#db.run(`UPDATE __ws_chunks SET refs = refs - 1 WHERE id = ?`, file.chunk);
      const all = [...kept, ...ids];
      return { chunk: this.list(file.ino, all), released: keep === 0 };
    }
    if (file.size <= CHUNK_SIZE) return { chunk: this.list(file.ino, ids), released: false };
    // A listed file: the rows from `keep` on are released and deleted, the new ones inserted after the kept ones.
    const dropped = this.#db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_file_chunks WHERE ino = ? AND idx >= ?`, file.ino, keep);
    const released = Number(dropped?.n ?? 0) > 0;
    if (released) {
      this.#db.run(
        `UPDATE __ws_chunks SET refs = refs - f.n
         FROM (SELECT chunk, count(*) AS n FROM __ws_file_chunks WHERE ino = ? AND idx >= ? GROUP BY chunk) AS f
         WHERE __ws_chunks.id = f.chunk`,
        file.ino,
        keep,
      );
      this.#db.run(`DELETE FROM __ws_file_chunks WHERE ino = ? AND idx >= ?`, file.ino, keep);
    }
    if (total <= 1) {
      // Down to one chunk: it moves from the list to the inode row (its reference unchanged).
      const first = keep === 1 ? this.#db.one<{ chunk: number }>(`SELECT chunk FROM __ws_file_chunks WHERE ino = ? AND idx = 0`, file.ino)?.chunk : ids[0];
      this.#db.run(`DELETE FROM __ws_file_chunks WHERE ino = ?`, file.ino);
      return { chunk: first ?? null, released };
    }
    for (let start = 0; start < ids.length; start += INSERT_BATCH) {
      const batch = ids.slice(start, start + INSERT_BATCH);
      const params: number[] = [];
      batch.forEach((id, i) => params.push(file.ino, keep + start + i, id));
      this.#db.run(`INSERT INTO __ws_file_chunks (ino, idx, chunk) VALUES ${batch.map(() => "(?, ?, ?)").join(", ")}`, ...params);
    }
    return { chunk: null, released };
  }

  /** Drops a file's references and chunk list. Returns whether any reference was dropped. */
  release(file: FileContent): boolean {
    if (file.chunk !== null) {
      this.#db.run(`UPDATE __ws_chunks SET refs = refs - 1 WHERE id = ?`, file.chunk);
      return true;
    }
    if (file.size <= CHUNK_SIZE) return false;
    this.#db.run(
      `UPDATE __ws_chunks SET refs = refs - f.n
       FROM (SELECT chunk, count(*) AS n FROM __ws_file_chunks WHERE ino = ? GROUP BY chunk) AS f
       WHERE __ws_chunks.id = f.chunk`,
      file.ino,
    );
    this.#db.run(`DELETE FROM __ws_file_chunks WHERE ino = ?`, file.ino);
    return true;
  }

  /**
   * Drops the references of every file below the directory whose path key is
   * `key`, set-wise over its key range: references of one-chunk files
   * (`__ws_nodes.chunk`), then chunk lists of longer files (skipped when the
   * store has none). Call it before the subtree's nodes are deleted
   * (`Nodes.deleteSubtree`). Returns whether content may have been released
   * (always `true`).
   */
  releaseSubtree(key: string): boolean {
    const from = key + SEP;
    const to = key + SEP_END;
    this.#db.run(
      `${SUBTREE}
       UPDATE __ws_chunks SET refs = refs - c.n
       FROM (SELECT chunk, count(*) AS n FROM sub WHERE chunk IS NOT NULL GROUP BY chunk) AS c
       WHERE __ws_chunks.id = c.chunk`,
      from,
      to,
    );
    if (this.#db.one(`SELECT 1 AS x FROM __ws_file_chunks LIMIT 1`)) {
      const long = `SELECT ino FROM sub WHERE kind = ${Kind.File} AND size > ${CHUNK_SIZE}`;
      this.#db.run(
        `${SUBTREE}
         UPDATE __ws_chunks SET refs = refs - c.n
         FROM (SELECT chunk, count(*) AS n FROM __ws_file_chunks WHERE ino IN (${long}) GROUP BY chunk) AS c
         WHERE __ws_chunks.id = c.chunk`,
        from,
        to,
      );
      this.#db.run(`${SUBTREE} DELETE FROM __ws_file_chunks WHERE ino IN (${long})`, from, to);
    }
    return true;
  }

  /** Chunk ids of a file overlapping chunk indexes `[first, last]`, in order. */
  range(file: FileContent, first: number, last: number): number[] {
    if (file.chunk !== null) return first === 0 ? [file.chunk] : [];
    return this.#db
      .all<{ chunk: number }>(
        `SELECT chunk FROM __ws_file_chunks WHERE ino = ? AND idx BETWEEN ? AND ? ORDER BY idx`,
        file.ino,
        first,
        last,
      )
      .map((row) => row.chunk);
  }

  /** The bytes of the file's chunk at `index`, in one query; `undefined` when missing. */
  readAt(file: FileContent, index: number): Uint8Array | undefined {
    if (file.chunk !== null) return index === 0 ? this.read(file.chunk) : undefined;
    const row = this.#db.one<{ data: unknown }>(
      `SELECT coalesce(c.data, (SELECT b.data FROM __ws_blobs b WHERE b.id = c.blob)) AS data
       FROM __ws_file_chunks f JOIN __ws_chunks c ON c.id = f.chunk WHERE f.ino = ? AND f.idx = ?`,
      file.ino,
      index,
    );
    return row && row.data !== null ? toBytes(row.data) : undefined;
  }

  /**
   * The bytes of chunk `id` and, in the same statement (so from one state of
   * the database), the revision of inode `ino` (`Node.rev`): a reader that
   * looked the file up at revision `rev` and sees `rev` again here knows no
   * change of the file committed in between, so `id` is still the file's and
   * its bytes are present. Another revision (or `rev` `undefined`: the inode
   * is gone) means another storage object or process changed the file: its
   * chunks may have been reclaimed, or the id taken by other content (issue 20,
   * run 39, fixer RR). `data` is `undefined` when the bytes are missing.
   */
  readChecked(id: number, ino: number): CheckedChunk {
    const row = this.#db.one<{ data: unknown; rev: number }>(
      `SELECT coalesce(data, (SELECT data FROM __ws_blobs b WHERE b.id = c.blob)) AS data, n.rev AS rev
       FROM __ws_nodes n LEFT JOIN __ws_chunks c ON c.id = ? WHERE n.ino = ?`,
      id,
      ino,
    );
    return checkedChunk(row);
  }

  /**
   * {@link readAt} with the inode's revision read in the same statement (see
   * {@link readChecked}): the bytes of the file's chunk at `index` as the
   * file is listed now, and the revision they belong to.
   */
  readAtChecked(file: FileContent, index: number): CheckedChunk {
    if (file.chunk !== null) return index === 0 ? this.readChecked(file.chunk, file.ino) : { data: undefined, rev: this.#db.one<{ rev: number }>(`SELECT rev FROM __ws_nodes WHERE ino = ?`, file.ino)?.rev };
    const row = this.#db.one<{ data: unknown; rev: number }>(
      `SELECT coalesce(c.data, (SELECT b.data FROM __ws_blobs b WHERE b.id = c.blob)) AS data, n.rev AS rev
       FROM __ws_nodes n LEFT JOIN __ws_file_chunks f ON f.ino = n.ino AND f.idx = ? LEFT JOIN __ws_chunks c ON c.id = f.chunk WHERE n.ino = ?`,
      index,
      file.ino,
    );
    return checkedChunk(row);
  }

  /** The bytes of chunk `id`, or `undefined` when they are missing from the store. */
  read(id: number): Uint8Array | undefined {
    const row = this.#db.one<{ data: unknown }>(
      `SELECT coalesce(data, (SELECT data FROM __ws_blobs b WHERE b.id = c.blob)) AS data FROM __ws_chunks c WHERE c.id = ?`,
      id,
    );
    return row && row.data !== null ? toBytes(row.data) : undefined;
  }

  /**
   * {@link sweep} as the last step of a call whose change has already
   * committed (or failed with its own error), best-effort (issue 20, run 38,
   * fixer SW): an error of the sweep — `EBUSY` when another connection to a
   * shared SQLite file holds the write lock past `busyTimeoutMs`, a closed or
   * failing store — is swallowed and the shared backlog set, so the next
   * sweep over this storage object (any later mutation's, `released` or not)
   * runs and reclaims what this one left; another Workspace or process on the
   * same database reclaims it with its own start-up sweep, or its next sweep
   * after a release. Nothing is deleted that the sweep would not delete, so a
   * reclaim put off only keeps orphans (bytes no file references) longer. The
   * call it ends resolves (or rejects with its own error) either way: a write
   * that landed never reports a failure a retry would repeat (sqlite's
   * `busy_timeout` still blocks it up to `busyTimeoutMs` first).
   * @param released Whether the mutation released a reference (see {@link sweep}).
   */
  reclaim(released = true): void {
    try {
      this.sweep(released);
    } catch {
      // Put off, not lost: the next sweep over this storage object runs (`backlog`) and takes what this one left.
      this.#shared.backlog = true;
    }
  }

  /**
   * Deletes unreferenced, unpinned chunks whose lease has ended by `now`
   * (ms; the store's clock unless a test injects a time): at most
   * {@link SWEEP_BUDGET} per call. Call it after a mutation that released
   * content; it also runs when an earlier sweep left a backlog (or failed:
   * {@link reclaim}) or a lease this store granted may have ended. Safe to
   * call any time.
   * @throws The storage's error (`EBUSY` on a shared SQLite file whose lock
   *   another connection holds past `busyTimeoutMs`): after a commit, call
   *   {@link reclaim}, which swallows it.
   */
  sweep(released = true, now: number = this.#clock()): void {
    const shared = this.#shared;
    if (!released && !shared.backlog && now < shared.recheckAt) return;
    let budget = SWEEP_BUDGET;
    shared.backlog = false;
    if (now >= shared.recheckAt) shared.recheckAt = Infinity;
    while (budget > 0) {
      if (this.#pins.size === 0) {
        // Nothing pinned: the orphans go in one statement that names their bytes, then the bytes.
        const taken = this.#db.tx(() => {
          const rows = this.#db.all<{ blob: number | null }>(
            `DELETE FROM __ws_chunks WHERE id IN (SELECT id FROM __ws_chunks WHERE ${RECLAIMABLE} LIMIT ${SWEEP_BATCH}) RETURNING blob`,
            now,
          );
          const blobs = rows.flatMap((row) => (row.blob === null ? [] : [row.blob]));
          if (blobs.length > 0) this.#db.run(`DELETE FROM __ws_blobs WHERE id IN (SELECT value FROM json_each(?))`, JSON.stringify(blobs));
          return rows.length;
        });
        if (taken === 0) return;
        budget -= taken;
        this.#db.run(`DELETE FROM __ws_chunk_leases WHERE until <= ?`, now);
        if (taken < SWEEP_BATCH) return;
        continue;
      }
      const orphans = this.#db
        .all<{ id: number }>(`SELECT id FROM __ws_chunks WHERE ${RECLAIMABLE} LIMIT ${SWEEP_BATCH}`, now)
        .map((row) => row.id);
      if (orphans.length === 0) return;
      const free = orphans.filter((id) => !this.#pins.has(id));
      // Each statement checks the condition again: another process may have staged or linked a chunk since.
      this.#db.tx(() => {
        if (free.length === orphans.length) {
          const batch = `SELECT id FROM __ws_chunks WHERE ${RECLAIMABLE} LIMIT ${SWEEP_BATCH}`;
          this.#db.run(`DELETE FROM __ws_blobs WHERE id IN (SELECT blob FROM __ws_chunks WHERE id IN (${batch}))`, now);
          this.#db.run(`DELETE FROM __ws_chunks WHERE id IN (${batch})`, now);
        } else {
          for (const id of free) {
            this.#db.run(`DELETE FROM __ws_blobs WHERE id = (SELECT blob FROM __ws_chunks WHERE id = ?2 AND ${RECLAIMABLE})`, now, id);
            this.#db.run(`DELETE FROM __ws_chunks WHERE id = ?2 AND ${RECLAIMABLE}`, now, id);
          }
        }
      });
      budget -= orphans.length;
      // Leases of writers that crashed (ended, never removed) are dropped with the chunks they no longer keep.
      this.#db.run(`DELETE FROM __ws_chunk_leases WHERE until <= ?`, now);
      if (orphans.length < SWEEP_BATCH || free.length < orphans.length) return;
    }
    shared.backlog = true;
  }
}
