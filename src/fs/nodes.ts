/**
 * Inode rows and path resolution with symbolic links (spec 01 §2.3): the
 * owner of `__ws_nodes`. Every statement on the tree is here; content
 * (`__ws_chunks` and friends) belongs to `ChunkStore`.
 *
 * Each row carries its path key (`path-key.ts`, docs/filesystem.md "Path
 * index"): a path with no link on it resolves in one lookup of its key; one
 * that meets a link reads the chain of its existing prefixes in one
 * statement and walks on segment by segment from the link, exactly as the
 * link rules ask. Keys change with the tree: a new node takes its parent's
 * key plus its name, a rename rewrites the moved subtree's keys in one
 * statement, `rm -r` deletes one key range.
 *
 * @module
 */
import { toBytes, type Database } from "../storage/database.js";
import { INLINE_CHUNK_BYTES } from "./chunks.js";
import { childKey, keyOf, keyToPath, pathKey, prefixKeys, SEP, SEP_END } from "./path-key.js";
import { checkPathLimits, MAX_MOVE_GROWTH_BYTES, MAX_PATH_BYTES, MAX_PATH_PREFIX_BYTES, measurePath, tooLong, utf8Length } from "./path.js";
import { Kind, prunedRevision, setPrunedRevision } from "./schema.js";

/** One row of `__ws_nodes`. */
export interface Node {
  ino: number;
  parent: number;
  name: string;
  kind: Kind;
  mode: number;
  mtime: number;
  size: number;
  target: string | null;
  /** The single chunk of a file of 1..CHUNK_SIZE bytes; `null` otherwise. */
  chunk: number | null;
  /** The node's path key (`path-key.ts`): its physical path, `""` for `/`. */
  key: string;
  /**
   * The store revision of the node's last change (see {@link Nodes.revision}):
   * every change of a file's content stamps a larger one, so a read that sees
   * the same `rev` again read one version (issue 20, run 39, fixer RR). Set
   * by path lookups, walks and {@link Nodes.reread}; absent from {@link Nodes.get}.
   */
  rev?: number;
  /** The file's bytes, when a resolve asked for them (`withData`) and they were at hand. */
  data?: Uint8Array;
}

/** Prefix keys bound one parameter each when reading a path's chain; more go as one JSON array. */
const MAX_BOUND_KEYS = 90;

/** Maximum link expansions per operation; the 41st fails with ELOOP. */
export const MAX_LINK_EXPANSIONS = 40;

/**
 * Most segments (names and `..`) the link targets followed in one resolution
 * may add to its walk; more fails with ELOOP. A target may hold up to 256 KiB
 * (`MAX_PATH_BYTES`), and `..` in a target is physical, so without this bound
 * a chain of 40 links of `x/../` × 52,000 walked 4 million steps — about a
 * minute of SQL for one `stat` (issue 20, thirteenth attack run). Linux bounds
 * the same walk by `PATH_MAX` (4,096 bytes) per target: 40 × 2,048 segments.
 */
export const MAX_LINK_SEGMENTS = 16_384;

const COLUMNS = `ino, parent, name, kind, mode, mtime, size, target, chunk, path_key AS key`;

/** {@link COLUMNS} and `rev`: the row of a lookup whose content a read may take (issue 20, run 39, fixer RR). */
const ROW = `${COLUMNS}, rev`;

/** The bytes of a file of at most `INLINE_CHUNK_BYTES` (its chunk's inline data) as column `data` of a row of `__ws_nodes n`. */
const INLINE_DATA = `CASE WHEN kind = ${Kind.File} AND size BETWEEN 1 AND ${INLINE_CHUNK_BYTES} THEN (SELECT c.data FROM __ws_chunks c WHERE c.id = n.chunk) END AS data`;

/** A row read with {@link INLINE_DATA}: `data` as bytes, or no `data` when there were none. */
function withBytes(row: Node & { data: unknown }): Node {
  const { data, ...fields } = row;
  return data === null || data === undefined ? fields : { ...fields, data: toBytes(data) };
}

/**
 * The store revision (see {@link Nodes.revision}): every mutation leaves a
 * stamp or a tombstone at its revision, stamps only grow and tombstones go
 * only by pruning, which keeps its mark. Two index ends and two `__ws_meta` rows.
 */
const HEAD_REV = `max(
  coalesce((SELECT max(rev) FROM __ws_nodes), 0),
  coalesce((SELECT max(rev) FROM __ws_tombstones), 0),
  coalesce((SELECT max(value) FROM __ws_meta WHERE key IN ('rev', 'pruned')), 0)
)`;

/**
 * The revision a stamping statement writes: its bound parameter (the open
 * mutation's revision, once known) or else the next one, computed inside the
 * statement (`coalesce` stops at its first non-null argument), so the
 * common one-statement mutation (a new small file) costs no extra statement.
 */
const STAMP = `coalesce(?, ${HEAD_REV} + 1)`;

/** What `stat` reports of a node. */
export type NodeStat = Pick<Node, "ino" | "kind" | "mode" | "mtime" | "size">;

/** What a walk reads of each entry without `full`: the index alone answers it. */
export type WalkRow = Pick<Node, "kind" | "key">;

/** Outcome of walking a path. */
export type Resolution =
  /** `slash`: the last component came from a link target ending in `/` (it names a directory). */
  | { status: "found"; node: Node; slash?: boolean }
  /** Every component but the last exists; `parent` is the directory the last would live in. */
  | { status: "missing"; parent: Node; name: string; slash?: boolean }
  /** A component before the last is missing (or a link in the chain dangles). */
  | { status: "enoent" }
  /** A component before the last is a file (or, with `followLinks: false`, a link). */
  | { status: "enotdir" }
  | { status: "eloop" };

export interface ResolveOptions {
  /** Follow a link in the last position. */
  followFinal: boolean;
  /** Follow links before the last position. Default `true`; `false` makes a link there `enotdir`. */
  followLinks?: boolean;
  /** The whole literal path is known to have no node (a {@link Nodes.stat} miss): skip its lookup. */
  absent?: boolean;
  /**
   * The path may well not exist yet (a create): read the key of every prefix,
   * the path's own included, in one statement, instead of its key first and
   * the chain on a miss.
   */
  creating?: boolean;
  /** Called for a missing directory named by the caller's path (not by a link target); returns the created node. */
  createMissing?: (parent: Node, name: string) => Node;
  /** Also fetch the bytes of a small final file in the same query (for reads). */
  withData?: boolean;
  /** Filled in when given: whether a link was followed, and the deepest node reached. */
  trace?: ResolveTrace;
}

/** Where a walk went (for read-only mount checks through links, spec 01 §6.3). */
export interface ResolveTrace {
  /** A symbolic link was expanded. */
  viaLink: boolean;
  /** The found node, the parent of a missing leaf, or the last directory reached before a failure. */
  reached?: Node;
}

interface Segment {
  name: string;
  fromLink: boolean;
  /** The last part of a link target written with a trailing `/`. */
  slash?: boolean;
}

const ROOT_STUB: Node = { ino: 1, parent: 0, name: "", kind: Kind.Directory, mode: 0o755, mtime: 0, size: 0, target: null, chunk: null, key: "" };

/** Orders two keys as SQLite's `BINARY` collation does (UTF-8 byte order, i.e. code point order). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** One row of {@link Nodes.changes}: a live node (`kind` > 0) or a tombstone (`kind` 0). */
export interface ChangeRow {
  key: string;
  /** {@link Kind} of a live node; 0 for a tombstone. */
  kind: number;
  rev: number;
  mode: number;
  mtime: number;
  size: number;
  target: string | null;
  /** Tombstones: 1 when everything under the path went too. */
  subtree: number;
}

/** Lookups and changes on `__ws_nodes` and its change log `__ws_tombstones`. */
export class Nodes {
  readonly #db: Database;
  /** Open {@link transaction} calls. */
  #depth = 0;
  /** The revision the open mutation transaction stamps, once it has changed something. */
  #rev: number | undefined;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Runs `fn` in one synchronous storage transaction (nested calls become
   * savepoints): the boundary of a filesystem mutation, all or nothing. Every
   * mutation changes the tree, so the tree's owner opens it for the facade
   * and the write pipeline; `ChunkStore` statements made inside `fn`
   * join the same transaction.
   *
   * The first change made inside the outermost call advances the store
   * revision (spec 01 §4 item 8); every node it touches is stamped with it,
   * so one mutation is one revision, and one that changes nothing (`mkdir -p`
   * of an existing directory, `rm -f` of a missing path) none. A failure
   * rolls the revision back with everything else.
   */
  transaction<T>(fn: () => T): T {
    const before = this.#rev;
    this.#depth++;
    try {
      return this.#db.tx(fn);
    } catch (error) {
      // The savepoint that advanced the revision was rolled back: so was the advance.
      this.#rev = before;
      throw error;
    } finally {
      if (--this.#depth === 0) this.#rev = undefined;
    }
  }

  /** The revision of the open mutation: the next one, taken on first use inside a {@link transaction}. */
  #stamp(): number {
    if (this.#rev !== undefined) return this.#rev;
    return this.#took(this.revision() + 1);
  }

  /** Keeps `rev`, written by a stamping statement ({@link STAMP}), as the open mutation's revision. */
  #took(rev: number): number {
    if (this.#depth > 0) this.#rev = rev;
    return rev;
  }

  /**
   * The store revision: that of the last committed mutation (0: never
   * changed). Every mutation leaves a stamp or a tombstone at its revision,
   * stamps only grow and tombstones go only by {@link pruneTombstones}, which
   * keeps its mark: so it is the largest of those, the pruned mark and the
   * floor of an upgraded store. No mutation writes an extra row for it.
   */
  revision(): number {
    return this.#db.one<{ rev: number }>(`SELECT ${HEAD_REV} AS rev`)!.rev;
  }

  /** The revision stamped on node `ino` by its last change (`undefined`: no such node). */
  stampOf(ino: number): number | undefined {
    return this.#db.one<{ rev: number }>(`SELECT rev FROM __ws_nodes WHERE ino = ?`, ino)?.rev;
  }

  /**
   * Up to `limit` changes after `(rev, key)` in `(rev, key)` order: nodes
   * stamped later (`/` too, once chmod touched it) and tombstones recorded
   * later; at one `(rev, key)` a tombstone comes first. `key` `null`:
   * everything of revision `rev` is behind the cursor. Two ordered range
   * reads (the revision index, the tombstones' primary key), merged.
   */
  changes(rev: number, key: string | null, limit: number): ChangeRow[] {
    const after = key === null ? `rev > ?1` : `(rev > ?1 OR (rev = ?1 AND path_key > ?2))`;
    const live = this.#db.all<ChangeRow>(
      `SELECT path_key AS key, kind, rev, mode, mtime, size, target, 0 AS subtree FROM __ws_nodes WHERE ${after} ORDER BY rev, path_key LIMIT ?3`,
      rev,
      key ?? "",
      limit,
    );
    const dead = this.#db.all<ChangeRow>(
      `SELECT path_key AS key, 0 AS kind, rev, 0 AS mode, 0 AS mtime, 0 AS size, NULL AS target, subtree FROM __ws_tombstones WHERE ${after} ORDER BY rev, path_key LIMIT ?3`,
      rev,
      key ?? "",
      limit,
    );
    if (dead.length === 0) return live;
    const out: ChangeRow[] = [];
    let i = 0;
    let j = 0;
    while (out.length < limit && (i < live.length || j < dead.length)) {
      const a = live[i];
      const d = dead[j];
      // Keys compare as SQLite's BINARY collation does (UTF-8 bytes): code points, not UTF-16 units.
      if (!a || (d && (d.rev < a.rev || (d.rev === a.rev && compareKeys(d.key, a.key) <= 0)))) out.push(dead[j++]);
      else out.push(live[i++]);
    }
    return out;
  }

  /**
   * Deletes the tombstones of revisions up to `rev` (inclusive) and raises
   * the pruned mark to `rev`, in one transaction; returns how many went.
   */
  pruneTombstones(rev: number): number {
    return this.#db.tx(() => {
      const gone = this.#db.all(`DELETE FROM __ws_tombstones WHERE rev <= ? RETURNING rev`, rev).length;
      setPrunedRevision(this.#db, rev);
      return gone;
    });
  }

  /** The revision up to which tombstones were pruned (0: never). */
  pruned(): number {
    return prunedRevision(this.#db);
  }

  /**
   * Records that `node`'s path (and, for a directory, everything under it)
   * was vacated by the open mutation. A path keeps one tombstone, its
   * newest: an older one tells no cursor more than the newer deletion does
   * (its `subtree` is kept: 1 when any of them covered a subtree), so a
   * path written and deleted again and again costs one row, not one a cycle.
   */
  tombstone(node: Pick<Node, "key" | "kind">): void {
    const rev = this.#stamp();
    const older = this.#db.one<{ subtree: number | null }>(
      `SELECT max(subtree) AS subtree FROM __ws_tombstones WHERE path_key = ? AND rev < ?`,
      node.key,
      rev,
    )?.subtree;
    if (older !== null && older !== undefined) this.#db.run(`DELETE FROM __ws_tombstones WHERE path_key = ? AND rev < ?`, node.key, rev);
    this.#db.run(
      `INSERT OR REPLACE INTO __ws_tombstones (rev, path_key, subtree) VALUES (?, ?, ?)`,
      rev,
      node.key,
      node.kind === Kind.Directory || older === 1 ? 1 : 0,
    );
  }

  /** Schema 3 → 4: stamps every node but `/` with `rev` (`ensureSchema`). */
  stampAll(rev: number): void {
    this.#db.run(`UPDATE __ws_nodes SET rev = ? WHERE ino <> 1`, rev);
  }

  /** Creates `/` (inode 1, mode 0o755) unless it exists. */
  createRoot(mtime: number): void {
    this.#db.run(
      `INSERT OR IGNORE INTO __ws_nodes (ino, parent, name, kind, mode, mtime, size, path_key) VALUES (1, 0, '', ${Kind.Directory}, ${0o755}, ?, 0, '')`,
      mtime,
    );
  }

  get(ino: number): Node | undefined {
    return this.#db.one<Node>(`SELECT ${COLUMNS} FROM __ws_nodes WHERE ino = ?`, ino);
  }

  /** The row of node `ino` now, with its `rev` (for a read that found the file changed: issue 20, run 39, fixer RR). */
  reread(ino: number): Node | undefined {
    return this.#db.one<Node>(`SELECT ${ROW} FROM __ws_nodes WHERE ino = ?`, ino);
  }

  child(parent: number, name: string): Node | undefined {
    return this.#db.one<Node>(`SELECT ${ROW} FROM __ws_nodes WHERE parent = ? AND name = ?`, parent, name);
  }

  hasChildren(ino: number): boolean {
    return this.#db.one(`SELECT 1 AS x FROM __ws_nodes WHERE parent = ? LIMIT 1`, ino) !== undefined;
  }

  /**
   * Up to `limit` nodes of a subtree in key order (depth-first pre-order,
   * siblings by name byte order): keys from `from` (inclusive, or exclusive
   * with `after`) to `end` (exclusive). `full` reads every column; otherwise
   * only `kind` and `key`, which the path-key index holds. With `suffix`
   * (characters without `GLOB` meaning), only directories and the entries
   * whose key ends with it are returned (the rest are still read). With
   * `filesOnly`, only regular files are returned (the index skips the rest).
   * With `withData` (and `full`), a file of at most `INLINE_CHUNK_BYTES`
   * comes with its bytes (`Node.data`), read in the same statement as its
   * row, so they are of the revision the row has (issue 20, run 39, fixer RR:
   * `grep` reads them without a statement per file).
   */
  scan(from: string, after: boolean, end: string, limit: number, full: boolean, suffix?: string, filesOnly = false, withData = false): WalkRow[] {
    const columns = !full ? `kind, path_key AS key` : withData ? `${ROW}, ${INLINE_DATA}` : ROW;
    const only = filesOnly ? ` AND kind = ${Kind.File}` : suffix ? ` AND (kind = ${Kind.Directory} OR path_key GLOB ?)` : "";
    const range = `path_key ${after ? ">" : ">="} ? AND path_key < ?`;
    const query = `SELECT ${columns} FROM __ws_nodes n WHERE ${range}${only} ORDER BY path_key LIMIT ?`;
    const rows = suffix && !filesOnly ? this.#db.all<WalkRow>(query, from, end, `*${suffix}`, limit) : this.#db.all<WalkRow>(query, from, end, limit);
    return full && withData ? rows.map((row) => withBytes(row as Node & { data: unknown })) : rows;
  }

  /**
   * One page of directory `parent`'s entries by name byte order (`readdir`):
   * name, kind, size and mtime only. `limit` -1 means no limit. With
   * `maxName`, only the entries whose name has at most that many characters
   * (code points, SQLite's `length()`) are listed (and counted by `offset`).
   */
  list(parent: number, limit: number, offset: number, maxName?: number): Pick<Node, "name" | "kind" | "size" | "mtime">[] {
    if (maxName !== undefined) {
      return this.#db.all<Node>(
        `SELECT name, kind, size, mtime FROM __ws_nodes WHERE parent = ? AND length(name) <= ? ORDER BY name LIMIT ? OFFSET ?`,
        parent,
        maxName,
        limit,
        offset,
      );
    }
    return this.#db.all<Node>(`SELECT name, kind, size, mtime FROM __ws_nodes WHERE parent = ? ORDER BY name LIMIT ? OFFSET ?`, parent, limit, offset);
  }

  /** Paths of every file below directory `ino`, each `base` + its relative path, sorted (`ls`). */
  filePaths(ino: number, base: string): string[] {
    return this.#db
      .all<{ path: string }>(
        `WITH RECURSIVE tree (ino, kind, path) AS (
           SELECT ino, kind, ? || name FROM __ws_nodes WHERE parent = ?
           UNION ALL
           SELECT n.ino, n.kind, tree.path || '/' || n.name FROM __ws_nodes n JOIN tree ON n.parent = tree.ino WHERE tree.kind = ${Kind.Directory}
         )
         SELECT path FROM tree WHERE kind = ${Kind.File} ORDER BY path`,
        base,
        ino,
      )
      .map((row) => row.path);
  }

  /**
   * Refuses child `name` of directory `parent` when its path passes the path
   * limits (`path.ts`): for a create whose parent was reached through a link.
   * @throws WorkspaceFsError `ENAMETOOLONG` (for `syscall`).
   */
  checkChildPath(parent: Node, name: string, syscall: string): void {
    checkKeyLimits(childKey(parent.key, name), syscall);
  }

  /**
   * Creates child `node.name` of directory `parent`, with its path key.
   * @throws WorkspaceFsError `ENAMETOOLONG` (for `syscall`) when the new entry's
   * path passes the path limits: possible when `parent` was reached through a link.
   */
  insert(parent: Node, node: Omit<Node, "ino" | "parent" | "key" | "rev">, syscall: string): Node {
    const key = childKey(parent.key, node.name);
    checkKeyLimits(key, syscall);
    const row = this.#db.one<{ ino: number; rev: number }>(
      `INSERT INTO __ws_nodes (parent, name, kind, mode, mtime, size, target, chunk, path_key, rev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${STAMP}) RETURNING ino, rev`,
      parent.ino,
      node.name,
      node.kind,
      node.mode,
      node.mtime,
      node.size,
      node.target,
      node.chunk,
      key,
      this.#rev ?? null,
    )!;
    this.#took(row.rev);
    return { ...node, parent: parent.ino, key, ino: row.ino, rev: row.rev };
  }

  /**
   * Creates file `name` in the directory whose path key is `parentKey`, in
   * one statement, when that directory exists and has no entry `name`; keys
   * are physical paths, so such a directory is reached without a link and the
   * walk would end at `missing` there. Returns `false` (nothing changed)
   * otherwise: no such directory, or the name is taken; resolve the path.
   */
  createFile(parentKey: string, name: string, file: { mode: number; mtime: number; size: number; chunk: number | null }): boolean {
    // LIMIT 1: the key is unique, so the lookup need not step past its row. WHERE before ON CONFLICT: no join ambiguity.
    const row = this.#db.one<{ ino: number; rev: number }>(
      `INSERT INTO __ws_nodes (parent, name, kind, mode, mtime, size, target, chunk, path_key, rev)
       SELECT ino, ?, ${Kind.File}, ?, ?, ?, NULL, ?, ?, ${STAMP} FROM __ws_nodes WHERE path_key = ? AND kind = ${Kind.Directory} LIMIT 1
       ON CONFLICT DO NOTHING RETURNING ino, rev`,
      name,
      file.mode,
      file.mtime,
      file.size,
      file.chunk,
      childKey(parentKey, name),
      this.#rev ?? null,
      parentKey,
    );
    if (row) this.#took(row.rev);
    return row !== undefined;
  }

  /**
   * Points file `ino` at new content: its mode, mtime, size and single chunk (`null` for 0 or ≥ 2 chunks).
   * The new mtime is `content.mtime` or, when the clock has not passed the old one, the old one + 1 ms:
   * every change of a file's content changes its mtime. Workers' clock stands still between I/O, so two
   * writes in one stretch would otherwise share an mtime, and a same-size rewrite would keep every stat
   * a cache compares (git's index, the tools' freshness check) — git's "racy clean" file.
   */
  setContent(ino: number, content: { mode: number; mtime: number; size: number; chunk: number | null }): void {
    const row = this.#db.one<{ rev: number }>(
      `UPDATE __ws_nodes SET mode = ?, mtime = MAX(?, mtime + 1), size = ?, chunk = ?, rev = ${STAMP} WHERE ino = ? RETURNING rev`,
      content.mode,
      content.mtime,
      content.size,
      content.chunk,
      this.#rev ?? null,
      ino,
    );
    if (row) this.#took(row.rev);
  }

  /** Sets the single chunk of file `ino`. */
  setChunk(ino: number, chunk: number): void {
    this.#db.run(`UPDATE __ws_nodes SET chunk = ? WHERE ino = ?`, chunk, ino);
  }

  /** Sets the permission bits and mtime of `ino` (`chmod`); the mtime never moves back (see {@link setContent}). */
  setMode(ino: number, mode: number, mtime: number): void {
    const row = this.#db.one<{ rev: number }>(`UPDATE __ws_nodes SET mode = ?, mtime = MAX(?, mtime), rev = ${STAMP} WHERE ino = ? RETURNING rev`, mode, mtime, this.#rev ?? null, ino);
    if (row) this.#took(row.rev);
  }

  /**
   * Moves `node` to directory `parent` under `name` (`rename`): one row, and
   * for a directory the path keys of its subtree in one statement. The moved
   * nodes are stamped with the mutation's revision (their paths changed) and
   * the old path leaves a tombstone (covering the old subtree).
   */
  move(node: Node, parent: Node, name: string): void {
    const key = childKey(parent.key, name);
    const rev = this.#stamp();
    this.#db.run(`UPDATE __ws_nodes SET parent = ?, name = ?, path_key = ?, rev = ? WHERE ino = ?`, parent.ino, name, key, rev, node.ino);
    if (node.kind === Kind.Directory) {
      this.#db.run(
        `UPDATE __ws_nodes SET path_key = ?1 || substr(path_key, length(?2) + 1), rev = ?5 WHERE path_key >= ?3 AND path_key < ?4`,
        key,
        node.key,
        node.key + SEP,
        node.key + SEP_END,
        rev,
      );
    }
    this.tombstone(node);
  }

  /**
   * Refuses (before anything changes) a {@link move} of `node` to `key` that
   * would give it, or any node below it, a path past {@link MAX_PATH_BYTES} or
   * ancestors' paths past {@link MAX_PATH_PREFIX_BYTES} together.
   *
   * A descendant with relative path `rel` (`d` segments, `r` bytes) lands at
   * `new + rel`: `bytes(new) + r` bytes, ancestors `prefixes(new) + d ×
   * bytes(new) + prefixes within rel`. When the new path is no longer and no
   * deeper-weighted than the old one, nothing grows: no query. Otherwise one
   * index range read gives the subtree's longest key `R` and greatest depth
   * `D` (keys are never shorter than their paths), and `bytes(new) + R` and
   * `prefixes(new) + D × bytes(new) + (D − 1) × R` bound every moved path;
   * only when such a bound passes a limit is the subtree walked to measure
   * each path exactly, so only a move that truly passes one is refused.
   * @throws WorkspaceFsError `ENAMETOOLONG` (for `syscall`) naming the first 60 characters of the offending new path.
   */
  assertMovable(node: Node, key: string, syscall: string): void {
    const to = keyToPath(key);
    checkPathLimits(to, syscall, "where it would be moved to");
    if (node.kind !== Kind.Directory) return;
    const moved = measurePath(to);
    const from = node.key === "" ? "/" : keyToPath(node.key);
    const was = measurePath(from);
    // What each entry below adds as stored: keys double U+0001/U+0002, so a name of those grows its keys
    // though its path keeps its length.
    const keyGrowth = utf8Length(key) - utf8Length(node.key);
    if (moved.bytes <= was.bytes && moved.prefixes <= was.prefixes && keyGrowth <= 0) return;
    const range = this.#db.one<{ bytes: number | null; depth: number | null; count: number }>(
      `SELECT max(length(CAST(path_key AS BLOB))) AS bytes, max(length(path_key) - length(replace(path_key, char(1), ''))) AS depth, count(*) AS count
       FROM __ws_nodes WHERE path_key >= ? AND path_key < ?`,
      node.key + SEP,
      node.key + SEP_END,
    );
    if (!range || range.bytes === null || range.depth === null) return; // an empty directory
    // Every entry below is rewritten with the longer prefix: bound what one call adds (after the per-path limits, whose message is more precise).
    const growth = range.count * keyGrowth;
    const checkGrowth = () => {
      if (growth <= MAX_MOVE_GROWTH_BYTES) return;
      throw tooLong(
        `moving ${range.count} entries to a place ${keyGrowth} bytes longer (as stored) would add ${growth} bytes of paths, at most ${MAX_MOVE_GROWTH_BYTES} for one rename`,
        syscall,
        to,
        "nothing was moved; move it somewhere shorter, or move its entries a few at a time",
      );
    };
    const rel = range.bytes - utf8Length(node.key);
    const depth = range.depth - (node.key.length - node.key.replaceAll(SEP, "").length);
    if (moved.bytes + rel <= MAX_PATH_BYTES && moved.prefixes + depth * moved.bytes + (depth - 1) * rel <= MAX_PATH_PREFIX_BYTES) return checkGrowth();
    // Exact: each node below, its relative path's bytes, depth and ancestors' bytes within it.
    const worst = this.#db.one<{ ino: number; moved_bytes: number; moved_total: number }>(
      `WITH RECURSIVE sub (ino, kind, bytes, depth, pre) AS (
         SELECT ino, kind, 1 + length(CAST(name AS BLOB)), 1, 0 FROM __ws_nodes WHERE parent = ?1
         UNION ALL
         SELECT n.ino, n.kind, sub.bytes + 1 + length(CAST(n.name AS BLOB)), sub.depth + 1, sub.pre + sub.bytes
         FROM __ws_nodes n JOIN sub ON n.parent = sub.ino WHERE sub.kind = ${Kind.Directory}
       )
       SELECT ino, ?2 + bytes AS moved_bytes, ?3 + depth * ?2 + pre AS moved_total FROM sub
       WHERE ?2 + sub.bytes > ?4 OR ?3 + sub.depth * ?2 + sub.pre > ?5
       ORDER BY ?2 + sub.bytes > ?4 DESC, sub.bytes DESC, ?3 + sub.depth * ?2 + sub.pre DESC LIMIT 1`,
      node.ino,
      moved.bytes,
      moved.prefixes,
      MAX_PATH_BYTES,
      MAX_PATH_PREFIX_BYTES,
    );
    if (!worst) return checkGrowth();
    const path = to + this.pathOf(worst.ino).slice(from.length);
    const what =
      worst.moved_bytes > MAX_PATH_BYTES
        ? `a path below the moved directory would be too long: ${worst.moved_bytes} bytes of UTF-8, at most ${MAX_PATH_BYTES}`
        : `a path below the moved directory would be too deep for its length: its ancestors' paths would hold ${worst.moved_total} bytes of UTF-8 together, at most ${MAX_PATH_PREFIX_BYTES}`;
    throw tooLong(what, syscall, path, "nothing was moved; move it somewhere shorter or shallower");
  }

  /** Deletes the row of `ino` (its content must be released first: `ChunkStore.release`). */
  delete(ino: number): void {
    // Take the mutation's revision before the row goes: it may hold the largest stamp.
    this.#stamp();
    this.#db.run(`DELETE FROM __ws_nodes WHERE ino = ?`, ino);
  }

  /**
   * Deletes every node below `directory` (not the directory itself): one
   * range of path keys. Release their content first (`ChunkStore.releaseSubtree`).
   */
  deleteSubtree(directory: Node): void {
    this.#stamp();
    this.#db.run(`DELETE FROM __ws_nodes WHERE path_key >= ? AND path_key < ?`, directory.key + SEP, directory.key + SEP_END);
  }

  /**
   * Schema 2 → 3: sets every node's path key from its parent chain, in one
   * statement (`ensureSchema`).
   */
  fillPathKeys(): void {
    this.#db.run(
      `WITH RECURSIVE keyed (ino, key) AS (
         SELECT ino, '' FROM __ws_nodes WHERE ino = 1
         UNION ALL
         SELECT n.ino, keyed.key || char(1) || replace(replace(n.name, char(2), char(2, 3)), char(1), char(2, 2))
         FROM __ws_nodes n JOIN keyed ON n.parent = keyed.ino WHERE n.ino <> 1
       )
       UPDATE __ws_nodes SET path_key = keyed.key FROM keyed WHERE keyed.ino = __ws_nodes.ino`,
    );
  }

  /**
   * `stat`/`lstat` of a canonical path in one lookup of the five columns they
   * report: the node, `"absent"` when no node has this path (a link on the
   * way may still lead somewhere: {@link resolve} with `absent`), or
   * `"link"` for a link to follow (resolve). `/` is `"link"` too (resolve).
   */
  stat(canonical: string, followFinal: boolean): NodeStat | "absent" | "link" {
    if (canonical === "/") return "link";
    const row = this.#db.one<NodeStat>(`SELECT ino, kind, mode, mtime, size FROM __ws_nodes WHERE path_key = ? LIMIT 1`, pathKey(canonical));
    if (!row) return "absent";
    return followFinal && row.kind === Kind.Symlink ? "link" : row;
  }

  /** Walks `segments` from `/` (spec 01 §2.3). */
  resolve(segments: readonly string[], options: ResolveOptions): Resolution {
    const followLinks = options.followLinks ?? true;
    const trace = options.trace;
    // Pending segments, last element next.
    const stack: Segment[] = [];
    for (let i = segments.length - 1; i >= 0; i--) stack.push({ name: segments[i], fromLink: false });
    let current: Node = ROOT_STUB;
    let expansions = 0;
    let slash = false;
    let known: Map<string, Node | undefined> | undefined;
    if (segments.length > 0) {
      // The literal path, no link on it: one lookup of its key, whatever its depth.
      if (options.creating) known = this.#chain(segments, undefined, true);
      else {
        const hit = options.absent ? undefined : this.#byKey(keyOf(segments), options.withData === true);
        if (hit && !(hit.kind === Kind.Symlink && options.followFinal)) {
          if (trace) trace.reached = hit;
          return { status: "found", node: hit };
        }
        known = this.#chain(segments, hit);
      }
    }
    // Lookups made in this resolution, by `parent/name` (and parents by ino): a target walking the
    // same directories again (`x/../x/../…`) reads each of them once.
    const seen = known ?? new Map<string, Node | undefined>();
    const parents = new Map<number, Node | undefined>();
    const lookup = (parent: number, name: string): Node | undefined => {
      const key = `${parent}/${name}`;
      if (seen.has(key)) return seen.get(key);
      const node = this.child(parent, name);
      seen.set(key, node);
      return node;
    };
    let linkSegments = 0;
    while (stack.length > 0) {
      const segment = stack.pop()!;
      const last = stack.length === 0;
      if (last) slash = segment.slash === true;
      if (segment.name === "..") {
        if (current.ino !== 1) {
          const ino = current.parent;
          if (!parents.has(ino)) parents.set(ino, this.get(ino));
          current = parents.get(ino) ?? ROOT_STUB;
        }
        continue;
      }
      const child = lookup(current.ino, segment.name);
      if (!child) {
        if (last) {
          const parent = this.#full(current);
          if (trace) trace.reached = parent;
          return slash ? { status: "missing", parent, name: segment.name, slash } : { status: "missing", parent, name: segment.name };
        }
        if (options.createMissing && !segment.fromLink) {
          const parentIno = current.ino;
          current = options.createMissing(this.#full(current), segment.name);
          seen.set(`${parentIno}/${segment.name}`, current);
          continue;
        }
        if (trace) trace.reached = current;
        return { status: "enoent" };
      }
      if (child.kind === Kind.Symlink && (last ? options.followFinal : followLinks)) {
        if (trace) trace.viaLink = true;
        if (++expansions > MAX_LINK_EXPANSIONS) {
          if (trace) trace.reached = current;
          return { status: "eloop" };
        }
        const target = child.target ?? "";
        if (target.startsWith("/")) current = ROOT_STUB;
        const parts = target.split("/");
        for (const name of parts) if (name !== "" && name !== ".") linkSegments++;
        if (linkSegments > MAX_LINK_SEGMENTS) {
          if (trace) trace.reached = current;
          return { status: "eloop" };
        }
        // A target ending in `/` (or a link reached through such a target) names a directory.
        let trailing = segment.slash === true || target.endsWith("/");
        for (let i = parts.length - 1; i >= 0; i--) {
          const name = parts[i];
          if (name !== "" && name !== ".") {
            stack.push(trailing ? { name, fromLink: true, slash: true } : { name, fromLink: true });
            trailing = false;
          }
        }
        continue;
      }
      if (!last && child.kind !== Kind.Directory) {
        if (trace) trace.reached = current;
        return { status: "enotdir" };
      }
      current = child;
    }
    const node = this.#full(current);
    if (trace) trace.reached = node;
    return slash ? { status: "found", node, slash } : { status: "found", node };
  }

  /** The canonical path of inode `ino` (`/` for the root), from its path key. */
  pathOf(ino: number): string {
    if (ino === 1) return "/";
    const row = this.#db.one<{ key: string }>(`SELECT path_key AS key FROM __ws_nodes WHERE ino = ?`, ino);
    return row ? keyToPath(row.key) : "/";
  }

  /** The node whose path key is `key`, with the bytes of a small file when `withData`. */
  #byKey(key: string, withData: boolean): Node | undefined {
    // LIMIT 1: the key is unique (it is the path), so the lookup need not step past its row.
    if (!withData) return this.#db.one<Node>(`SELECT ${ROW} FROM __ws_nodes WHERE path_key = ? LIMIT 1`, key);
    const row = this.#db.one<Node & { data: unknown }>(`SELECT ${ROW}, ${INLINE_DATA} FROM __ws_nodes n WHERE path_key = ? LIMIT 1`, key);
    return row ? withBytes(row) : undefined;
  }

  /**
   * The nodes along the literal path (every proper prefix that exists, and
   * `last` for the whole path when found; with `whole`, the whole path's
   * node is read here too), read in one statement by their
   * keys, for the segment walk: keys `parent/name`, an `undefined` value
   * records an entry known to be absent. The physical paths that exist are
   * closed under prefixes, so the rows are the chain from `/` down to where
   * the path leaves the tree: a link, a file, or a missing name.
   */
  #chain(segments: readonly string[], last: Node | undefined, whole = false): Map<string, Node | undefined> {
    const keys = prefixKeys(whole ? segments : segments.slice(0, -1));
    const rows = keys.length === 0 ? [] : this.#db.all<Node>(`SELECT ${ROW} FROM __ws_nodes WHERE path_key IN (${keyList(keys)}) ORDER BY path_key`, ...keyBindings(keys));
    if (last) rows.push(last);
    const known = new Map<string, Node | undefined>();
    let parent = 1;
    let parentIsDir = true;
    let depth = 0;
    for (const node of rows) {
      if (node.parent !== parent || node.name !== segments[depth]) break;
      known.set(`${node.parent}/${node.name}`, node);
      parent = node.ino;
      parentIsDir = node.kind === Kind.Directory;
      depth++;
    }
    if (depth < segments.length && parentIsDir) known.set(`${parent}/${segments[depth]}`, undefined);
    return known;
  }

  #full(node: Node): Node {
    return node === ROOT_STUB ? this.get(1)! : node;
  }
}

/**
 * Refuses a new entry's key whose path passes the path limits (`path.ts`): a
 * path given literally was checked already, but one whose parent was reached
 * through a link was not. A key is never shorter than its path, so a short
 * key costs nothing.
 */
function checkKeyLimits(key: string, syscall: string): void {
  if (key.length * 3 > 4_096) checkPathLimits(keyToPath(key), syscall, "where its links lead");
}

/**
 * The `IN (…)` list of the chain lookup in {@link Nodes}. Durable Objects bind
 * at most 100 parameters, so a deeper path passes the longest key once and
 * the length of each prefix (in code points, as SQLite's `substr` counts) as a
 * JSON array: the keys themselves as JSON would grow with depth × length and
 * pass SQLite's string limit (`SQLITE_TOOBIG`) on a path of a few KB.
 */
function keyList(keys: readonly string[]): string {
  return keys.length <= MAX_BOUND_KEYS ? keys.map(() => "?").join(", ") : `SELECT substr(?, 1, value) FROM json_each(?)`;
}

/** The bindings for {@link keyList}: the keys, or the longest key and its prefix lengths. */
function keyBindings(keys: readonly string[]): unknown[] {
  if (keys.length <= MAX_BOUND_KEYS) return [...keys];
  const longest = keys[keys.length - 1]!;
  const lengths: number[] = [];
  let points = 0;
  let at = 0;
  for (const key of keys) {
    for (; at < key.length; at++) {
      const unit = longest.charCodeAt(at);
      if (unit < 0xdc00 || unit > 0xdfff) points++; // a low surrogate ends a pair already counted
    }
    lengths.push(points);
  }
  return [longest, JSON.stringify(lengths)];
}
