/**
 * Inode rows and path resolution with symbolic links (spec 01 §2.3): the
 * owner of `__ws_nodes`. Every statement on the tree is here; content
 * (`__ws_chunks` and friends) belongs to `ChunkStore`.
 *
 * @module
 */
import { toBytes, type Database } from "../storage/database.js";
import { INLINE_CHUNK_BYTES } from "./chunks.js";
import { Kind, SUBTREE } from "./schema.js";

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
  /** The file's bytes, when a resolve asked for them (`withData`) and they were at hand. */
  data?: Uint8Array;
}

/** Maximum link expansions per operation; the 41st fails with ELOOP. */
export const MAX_LINK_EXPANSIONS = 40;

const COLUMNS = `ino, parent, name, kind, mode, mtime, size, target, chunk`;

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

const ROOT_STUB: Node = { ino: 1, parent: 0, name: "", kind: Kind.Directory, mode: 0o755, mtime: 0, size: 0, target: null, chunk: null };

/** Lookups and changes on `__ws_nodes`. */
export class Nodes {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Runs `fn` in one synchronous storage transaction (nested calls become
   * savepoints): the boundary of a filesystem mutation, all or nothing. Every
   * mutation changes the tree, so the tree's owner opens it for the facade
   * and the write pipeline; `ChunkStore` statements made inside `fn`
   * join the same transaction.
   */
  transaction<T>(fn: () => T): T {
    return this.#db.tx(fn);
  }

  /** Creates `/` (inode 1, mode 0o755) unless it exists. */
  createRoot(mtime: number): void {
    this.#db.run(
      `INSERT OR IGNORE INTO __ws_nodes (ino, parent, name, kind, mode, mtime, size) VALUES (1, 0, '', ${Kind.Directory}, ${0o755}, ?, 0)`,
      mtime,
    );
  }

  get(ino: number): Node | undefined {
    return this.#db.one<Node>(`SELECT ${COLUMNS} FROM __ws_nodes WHERE ino = ?`, ino);
  }

  child(parent: number, name: string): Node | undefined {
    return this.#db.one<Node>(`SELECT ${COLUMNS} FROM __ws_nodes WHERE parent = ? AND name = ?`, parent, name);
  }

  hasChildren(ino: number): boolean {
    return this.#db.one(`SELECT 1 AS x FROM __ws_nodes WHERE parent = ? LIMIT 1`, ino) !== undefined;
  }

  /** Children of `parent` after `afterName` (exclusive), by name byte order. */
  page(parent: number, afterName: string | null, limit: number): Node[] {
    return afterName === null
      ? this.#db.all<Node>(`SELECT ${COLUMNS} FROM __ws_nodes WHERE parent = ? ORDER BY name LIMIT ?`, parent, limit)
      : this.#db.all<Node>(
          `SELECT ${COLUMNS} FROM __ws_nodes WHERE parent = ? AND name > ? ORDER BY name LIMIT ?`,
          parent,
          afterName,
          limit,
        );
  }

  /**
   * One page of directory `parent`'s entries by name byte order (`readdir`):
   * name, kind, size and mtime only. `limit` -1 means no limit.
   */
  list(parent: number, limit: number, offset: number): Pick<Node, "name" | "kind" | "size" | "mtime">[] {
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

  insert(node: Omit<Node, "ino">): Node {
    const row = this.#db.one<{ ino: number }>(
      `INSERT INTO __ws_nodes (parent, name, kind, mode, mtime, size, target, chunk) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ino`,
      node.parent,
      node.name,
      node.kind,
      node.mode,
      node.mtime,
      node.size,
      node.target,
      node.chunk,
    )!;
    return { ...node, ino: row.ino };
  }

  /** Points file `ino` at new content: its mode, mtime, size and single chunk (`null` for 0 or ≥ 2 chunks). */
  setContent(ino: number, content: { mode: number; mtime: number; size: number; chunk: number | null }): void {
    this.#db.run(
      `UPDATE __ws_nodes SET mode = ?, mtime = ?, size = ?, chunk = ? WHERE ino = ?`,
      content.mode,
      content.mtime,
      content.size,
      content.chunk,
      ino,
    );
  }

  /** Sets the single chunk of file `ino`. */
  setChunk(ino: number, chunk: number): void {
    this.#db.run(`UPDATE __ws_nodes SET chunk = ? WHERE ino = ?`, chunk, ino);
  }

  /** Sets the permission bits and mtime of `ino` (`chmod`). */
  setMode(ino: number, mode: number, mtime: number): void {
    this.#db.run(`UPDATE __ws_nodes SET mode = ?, mtime = ? WHERE ino = ?`, mode, mtime, ino);
  }

  /** Moves `ino` to directory `parent` under `name` (`rename`). */
  move(ino: number, parent: number, name: string): void {
    this.#db.run(`UPDATE __ws_nodes SET parent = ?, name = ? WHERE ino = ?`, parent, name, ino);
  }

  /** Deletes the row of `ino` (its content must be released first: `ChunkStore.release`). */
  delete(ino: number): void {
    this.#db.run(`DELETE FROM __ws_nodes WHERE ino = ?`, ino);
  }

  /**
   * Deletes every node below directory `ino` (not `ino` itself), in one
   * statement. Release their content first (`ChunkStore.releaseSubtree`).
   */
  deleteSubtree(ino: number): void {
    this.#db.run(`${SUBTREE} DELETE FROM __ws_nodes WHERE ino IN (SELECT ino FROM sub)`, ino);
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
    const known = segments.length > 1 || (options.withData && segments.length > 0) ? this.#prefetch(segments, options.withData === true) : undefined;
    const lookup = (parent: number, name: string): Node | undefined => {
      const key = `${parent}/${name}`;
      return known?.has(key) ? known.get(key) : this.child(parent, name);
    };
    while (stack.length > 0) {
      const segment = stack.pop()!;
      const last = stack.length === 0;
      if (last) slash = segment.slash === true;
      if (segment.name === "..") {
        if (current.ino !== 1) current = this.get(current.parent) ?? ROOT_STUB;
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
          current = options.createMissing(this.#full(current), segment.name);
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

  /** The canonical path of inode `ino` (`/` for the root), from its parent chain in one query. */
  pathOf(ino: number): string {
    if (ino === 1) return "/";
    const rows = this.#db.all<{ name: string }>(
      `WITH RECURSIVE up (ino, parent, name, depth) AS (
         SELECT ino, parent, name, 0 FROM __ws_nodes WHERE ino = ?
         UNION ALL
         SELECT n.ino, n.parent, n.name, up.depth + 1 FROM __ws_nodes n JOIN up ON n.ino = up.parent WHERE up.ino <> 1
       )
       SELECT name FROM up WHERE ino <> 1 ORDER BY depth DESC`,
      ino,
    );
    return "/" + rows.map((row) => row.name).join("/");
  }

  /**
   * Reads the nodes along the literal path in one query (one indexed lookup
   * per segment, stopping at the first missing entry or non-directory), so a
   * deep path costs one statement. Keys are `parent/name`; an `undefined`
   * value records an entry known to be absent.
   */
  #prefetch(segments: readonly string[], withData: boolean): Map<string, Node | undefined> {
    const data = withData
      ? `CASE WHEN depth = ?2 AND kind = ${Kind.File} AND size BETWEEN 1 AND ${INLINE_CHUNK_BYTES} THEN (SELECT c.data FROM __ws_chunks c WHERE c.id = walk.chunk) END`
      : "NULL";
    const rows = this.#db.all<Node & { depth: number; data: unknown }>(
      `WITH RECURSIVE walk (depth, ino, parent, name, kind, mode, mtime, size, target, chunk) AS (
         SELECT 0, 1, 0, '', ${Kind.Directory}, 0, 0, 0, NULL, NULL
         UNION ALL
         SELECT walk.depth + 1, n.ino, n.parent, n.name, n.kind, n.mode, n.mtime, n.size, n.target, n.chunk
         FROM walk JOIN __ws_nodes n ON n.parent = walk.ino AND n.name = json_extract(?1, '$[' || walk.depth || ']')
         WHERE walk.kind = ${Kind.Directory} AND walk.depth < ?2
       )
       SELECT ${COLUMNS}, depth, ${data} AS data FROM walk WHERE depth > 0`,
      JSON.stringify(segments),
      segments.length,
    );
    const known = new Map<string, Node | undefined>();
    let parent = 1;
    let parentIsDir = true;
    for (const row of rows) {
      const { depth: _depth, data, ...fields } = row;
      const node: Node = data === null || data === undefined ? fields : { ...fields, data: toBytes(data) };
      known.set(`${node.parent}/${node.name}`, node);
      parent = node.ino;
      parentIsDir = node.kind === Kind.Directory;
    }
    if (rows.length < segments.length && parentIsDir) known.set(`${parent}/${segments[rows.length]}`, undefined);
    return known;
  }

  #full(node: Node): Node {
    return node === ROOT_STUB ? this.get(1)! : node;
  }

  /** True when `ino` is `ancestor` or lies below it. */
  isWithin(ino: number, ancestor: number): boolean {
    let cursor: number | undefined = ino;
    while (cursor !== undefined && cursor !== 0) {
      if (cursor === ancestor) return true;
      if (cursor === 1) return false;
      cursor = this.#db.one<{ parent: number }>(`SELECT parent FROM __ws_nodes WHERE ino = ?`, cursor)?.parent;
    }
    return false;
  }
}
