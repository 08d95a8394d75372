/**
 * The VFS schema (spec 01 §4). Every table carries the reserved `__ws_`
 * prefix so it can share a Durable Object's database with the app's tables.
 *
 * - `__ws_nodes`: one row per inode; `(parent, name)` is unique (`readdir`
 *   pages, link walks). `path_key` (schema 3) is the node's materialised path
 *   (`path-key.ts`), indexed with `kind`: resolving a path without links is one
 *   lookup whatever its depth, and a subtree is one key range in `find`'s
 *   order; a rename rewrites the keys of the moved subtree in one statement.
 * - `__ws_chunks`: content-addressed chunk index (SHA-256 → id, refcount).
 *   Chunks up to 16 KiB keep their bytes in the row (`data`); larger ones
 *   keep them apart in `__ws_blobs` (`blob` → its id), so refcount updates
 *   never rewrite a 512 KiB row. `lease` (ms since the epoch, schema 2) is
 *   the lease of schema-2 code, still honoured by the sweep.
 * - `__ws_chunk_leases` (schema 3): `(chunk, holder) → until` (ms since the
 *   epoch), one row per chunk an in-flight write has staged or an open read
 *   stream will read: the sweep of any Workspace or process keeps a chunk
 *   with a live row (spec 01 §3.3, §4.7; see `chunks.ts`). Each write or
 *   stream ends only its own rows, so a write that links a chunk never ends
 *   another holder's lease on it.
 * - `__ws_file_chunks`: the chunk list of a file longer than one chunk,
 *   `(ino, idx)` → chunk id; a one-chunk file keeps its chunk id in
 *   `__ws_nodes.chunk`, so small files cost one row.
 * - Change tracking (schema 4, spec 01 §4 item 8): each mutation
 *   transaction takes the next store revision; each node carries the
 *   revision that last touched it (`rev`, indexed); `__ws_tombstones` keeps
 *   `(rev, path_key, subtree)` for every path a mutation vacated (rm, the old
 *   path of a rename; `subtree` 1 for a directory: everything under it too),
 *   until pruned (`__ws_meta` key `pruned` keeps the mark). Every mutation
 *   leaves a stamp or a tombstone, so the store revision is the largest of
 *   them (and of the pruned mark and the floor `__ws_meta` key `rev`): read
 *   from two index ends, never written by a mutation, so tracking costs a
 *   write no extra page.
 * - `__ws_mounts`: one record per mount root (spec 01 §6): its kind, the
 *   mode enforced now (`read-write` while it is being materialised),
 *   whether the last run completed, and the version it ran for.
 *
 * This module runs the DDL and owns `__ws_meta`; the rows of each table are
 * read and written only by its owner: `__ws_nodes` and `__ws_tombstones` by `nodes.ts`, the chunk
 * tables (leases included) by `chunks.ts`, `__ws_mounts` by `mount-records.ts`.
 *
 * @module
 */
import type { Database } from "../storage/database.js";
import { WorkspaceFsError } from "./errors.js";

/** Schema version written by this code. A store with a higher version is refused (EIO). */
export const SCHEMA_VERSION = 4;

export const enum Kind {
  File = 1,
  Directory = 2,
  Symlink = 3,
}

const DDL = [
  `CREATE TABLE IF NOT EXISTS __ws_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS __ws_nodes (
     ino INTEGER PRIMARY KEY AUTOINCREMENT,
     parent INTEGER NOT NULL,
     name TEXT NOT NULL,
     kind INTEGER NOT NULL,
     mode INTEGER NOT NULL,
     mtime INTEGER NOT NULL,
     size INTEGER NOT NULL DEFAULT 0,
     target TEXT,
     chunk INTEGER,
     path_key TEXT,
     rev INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS __ws_nodes_child ON __ws_nodes (parent, name)`,
  `CREATE TABLE IF NOT EXISTS __ws_chunks (
     id INTEGER PRIMARY KEY,
     hash BLOB NOT NULL UNIQUE,
     size INTEGER NOT NULL,
     refs INTEGER NOT NULL,
     data BLOB,
     blob INTEGER,
     lease INTEGER
   )`,
  // The sweep's own condition (`refs <= 0`, chunks.ts), so it reads the orphans alone, not the table.
  `CREATE INDEX IF NOT EXISTS __ws_chunks_unreferenced ON __ws_chunks (id) WHERE refs <= 0`,
  `CREATE TABLE IF NOT EXISTS __ws_blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`,
  // One row per (chunk, in-flight write or open read stream): each holder holds and ends only its own leases.
  `CREATE TABLE IF NOT EXISTS __ws_chunk_leases (
     chunk INTEGER NOT NULL,
     holder TEXT NOT NULL,
     until INTEGER NOT NULL,
     PRIMARY KEY (chunk, holder)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS __ws_file_chunks (
     ino INTEGER NOT NULL,
     idx INTEGER NOT NULL,
     chunk INTEGER NOT NULL,
     PRIMARY KEY (ino, idx)
   ) WITHOUT ROWID`,
  // Schema 4: one row per path a mutation left (rm, the old path of a rename); \`subtree\` 1 = everything under it too.
  `CREATE TABLE IF NOT EXISTS __ws_tombstones (
     rev INTEGER NOT NULL,
     path_key TEXT NOT NULL,
     subtree INTEGER NOT NULL,
     PRIMARY KEY (rev, path_key)
   ) WITHOUT ROWID`,
  // A path keeps its newest tombstone only (nodes.ts \`tombstone\`): the older ones are found by path.
  `CREATE INDEX IF NOT EXISTS __ws_tombstones_path ON __ws_tombstones (path_key)`,
  `CREATE TABLE IF NOT EXISTS __ws_mounts (
     root TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     mode TEXT NOT NULL,
     complete INTEGER NOT NULL,
     version TEXT
   ) WITHOUT ROWID`,
];

/**
 * Common table expression `sub (ino, kind, size, chunk)`: every node below
 * a directory, for statements on a whole subtree (its nodes, its files'
 * chunk references). Its parameters `?1`, `?2` are the subtree's key range
 * (`path-key.ts`: the directory's key + `SEP` to its key + `SEP_END`): one
 * range of the path-key index.
 */
export const SUBTREE = `WITH sub (ino, kind, size, chunk) AS (
    SELECT ino, kind, size, chunk FROM __ws_nodes WHERE path_key >= ?1 AND path_key < ?2
  )`;

/** Index of path keys, created once the column is filled (a schema-2 store gains the column first). */
const PATH_KEY_INDEX = `CREATE INDEX IF NOT EXISTS __ws_nodes_key ON __ws_nodes (path_key, kind)`;

/**
 * Index of node revisions (schema 4): the changes since a cursor are one
 * range of it. `rev` alone (not `(rev, path_key)`): a page sorts the rows of
 * each revision it reaches by path key, and stops at its limit.
 */
const REV_INDEX = `CREATE INDEX IF NOT EXISTS __ws_nodes_rev ON __ws_nodes (rev)`;

/** Row changes an upgrade needs from the tables' owners (the DDL stays here). */
export interface SchemaUpgrades {
  /** Schema 2 → 3: sets `path_key` of every node from its parent chain (the column exists, all `NULL`). */
  fillPathKeys(): void;
  /** Schema 3 → 4: stamps every node but `/` with revision `rev` (the column exists, all 0). */
  stampAll(rev: number): void;
}

/** Revision up to which tombstones were pruned (`__ws_meta` key `pruned`; 0: none). */
export function prunedRevision(db: Database): number {
  return db.one<{ value: number }>(`SELECT value FROM __ws_meta WHERE key = 'pruned'`)?.value ?? 0;
}

/** Records that tombstones up to `rev` are gone (never lowers the mark). */
export function setPrunedRevision(db: Database, rev: number): void {
  db.run(`INSERT INTO __ws_meta (key, value) VALUES ('pruned', ?1) ON CONFLICT (key) DO UPDATE SET value = max(value, ?1)`, rev);
}


/**
 * Creates or checks the schema, synchronously and idempotently, upgrades an
 * older store (`upgrades` changes the rows), then runs `bootstrap` (the first
 * rows the owners need, e.g. `/`) in the same transaction.
 * @throws WorkspaceFsError `EIO` when the store was written by a newer schema.
 */
export function ensureSchema(db: Database, upgrades: SchemaUpgrades, bootstrap: () => void): void {
  db.tx(() => {
    for (const statement of DDL) db.run(statement);
    const row = db.one<{ value: number }>(`SELECT value FROM __ws_meta WHERE key = 'schema'`);
    if (row && row.value > SCHEMA_VERSION) {
      throw new WorkspaceFsError(
        "EIO",
        "open",
        undefined,
        `workspace store has schema version ${row.value}; this version of agent-computer reads up to ${SCHEMA_VERSION} — upgrade the package`,
      );
    }
    if (!row) db.run(`INSERT INTO __ws_meta (key, value) VALUES ('schema', ?)`, SCHEMA_VERSION);
    else if (row.value < SCHEMA_VERSION) {
      // Schema 1 → 2: staged chunks carry a durable lease.
      if (row.value < 2) db.run(`ALTER TABLE __ws_chunks ADD COLUMN lease INTEGER`);
      // Schema 2 → 3: every node carries its materialised path key.
      if (row.value < 3) {
        db.run(`ALTER TABLE __ws_nodes ADD COLUMN path_key TEXT`);
        upgrades.fillPathKeys();
        // Its condition (`refs = 0`) did not cover the sweep's `refs <= 0`: every sweep scanned the whole table.
        db.run(`DROP INDEX IF EXISTS __ws_chunks_orphans`);
      }
      // Schema 3 → 4: change tracking. What the store holds is one change, revision 1, so a
      // consumer starting from revision 0 receives the whole tree.
      if (row.value < 4) {
        // A store rewritten to look older (tests) may keep the column: add it only when missing.
        const table = db.one<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '__ws_nodes'`);
        if (!/\brev\s+INTEGER\b/.test(table?.sql ?? "")) db.run(`ALTER TABLE __ws_nodes ADD COLUMN rev INTEGER NOT NULL DEFAULT 0`);
        upgrades.stampAll(1);
        db.run(`INSERT OR REPLACE INTO __ws_meta (key, value) VALUES ('rev', 1)`);
      }
      db.run(`UPDATE __ws_meta SET value = ? WHERE key = 'schema'`, SCHEMA_VERSION);
    }
    db.run(PATH_KEY_INDEX);
    db.run(REV_INDEX);
    db.run(`INSERT OR IGNORE INTO __ws_meta (key, value) VALUES ('rev', 0)`);
    bootstrap();
  });
}
