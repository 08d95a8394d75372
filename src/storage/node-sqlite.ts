/**
 * A {@link DurableObjectStorageLike} over Node's built-in `node:sqlite`, so a
 * Workspace runs on Node (Node ≥ 22.13) with the same schema and code as in a
 * Durable Object.
 *
 * @module
 */
import type { DurableObjectStorageLike, SqlCursorLike } from "./types.js";

/** Minimal structural view of `node:sqlite`'s `DatabaseSync`, so this module has no hard import. */
export interface NodeSqliteDatabase {
  /**
   * Compiles one statement (`DatabaseSync.prepare`): `all` returns its rows,
   * `run` executes it and reports the rows it changed; `columns()`, when
   * present, tells whether the statement returns rows (else the SQL text is
   * sniffed: `SELECT`, `WITH`, `PRAGMA`, `RETURNING`).
   *
   * @throws node:sqlite's error (`code: "ERR_SQLITE_ERROR"`) for invalid SQL.
   */
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number | bigint };
    readonly reader?: boolean;
    columns?(): unknown[];
  };
  /** Runs SQL text without results (`BEGIN`, `SAVEPOINT`, `COMMIT`, …). */
  exec(sql: string): void;
  /** Closes the database (`DatabaseSync.close`). */
  close(): void;
  /** Whether the database is open (`DatabaseSync.isOpen`); not read by this package. */
  readonly isOpen?: boolean;
}

/** The storage returned by {@link nodeSqliteStorage}: a `DurableObjectStorageLike` plus `close()`. */
export interface NodeSqliteStorage extends DurableObjectStorageLike {
  /**
   * `exec(query, ...bindings)` over cached prepared statements: `undefined`
   * binds as `NULL`, booleans as `1`/`0`, an `ArrayBuffer` as bytes. The
   * cursor's `rowsRead` is the number of rows returned, `rowsWritten` the
   * rows changed.
   *
   * @throws node:sqlite's error (`code: "ERR_SQLITE_ERROR"`) when the statement fails;
   *   `code: "EBUSY"` (message `EBUSY: database is locked: another connection …`,
   *   `errcode` 5 or 6 kept) when another connection to the file holds its lock
   *   past `busyTimeoutMs`.
   */
  sql: {
    exec<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): SqlCursorLike<T>;
  };
  /**
   * Runs `closure` in a transaction (`BEGIN IMMEDIATE` … `COMMIT`, `ROLLBACK`
   * when it throws); nested calls become savepoints. The write lock is taken
   * at `BEGIN IMMEDIATE`, so a transaction that reads before it writes waits
   * for another connection's lock as a write does (a deferred `BEGIN`'s
   * upgrade would be refused at once).
   *
   * @throws Error `transactionSync closure must be synchronous` when `closure`
   *   returns a promise (the transaction is rolled back), or what `closure` throws.
   * @throws `EBUSY` when another connection to the file holds its lock past
   *   `busyTimeoutMs` at `BEGIN IMMEDIATE`, a write, or `COMMIT` (the
   *   transaction is rolled back; a later call starts afresh).
   */
  transactionSync<T>(closure: () => T): T;
  /** The underlying `node:sqlite` database. */
  readonly database: NodeSqliteDatabase;
  /** Closes the database. The storage (and any Workspace on it) is unusable afterwards. */
  close(): void;
}

/** Options for {@link nodeSqliteStorage}. */
export interface NodeSqliteStorageOptions {
  /** Maximum prepared statements kept (by SQL text). Default `256`. */
  statementCacheSize?: number;
  /**
   * How long a statement waits for another connection to the same file
   * (another process, or another handle in this one) to release its lock
   * before failing `EBUSY` (SQLite's `busy_timeout`), in ms: a whole number
   * from 0 (fail at once) to 2,147,483,647. Default {@link DEFAULT_BUSY_TIMEOUT_MS}
   * (5,000) for a database this function opens; an open `DatabaseSync`
   * passed in keeps its own setting unless this is given.
   */
  busyTimeoutMs?: number;
}

/** The default {@link NodeSqliteStorageOptions.busyTimeoutMs}: 5,000 ms (as better-sqlite3's `timeout`). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** SQLite's primary result codes for a lock another connection holds (`SQLITE_BUSY`, `SQLITE_LOCKED`). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/**
 * `error` as this storage throws it: a node:sqlite error whose SQLite result code is `SQLITE_BUSY` or
 * `SQLITE_LOCKED` (another connection holds the lock) gets `code: "EBUSY"` and a message saying so (`errcode` and
 * `errstr` stay); any other error is returned as it is. `startedAt` (`Date.now()` before the statement) tells how
 * long it actually waited: the message claims the busy timeout was waited out only when it was, and otherwise says
 * after how many ms SQLite refused without waiting (a deferred transaction's read-to-write upgrade, for one).
 */
function busyError(error: unknown, timeoutMs: number | undefined, startedAt: number): unknown {
  const e = error as { errcode?: unknown; code?: unknown; message?: unknown } | null;
  if (!(error instanceof Error) || typeof e?.errcode !== "number") return error;
  const primary = e.errcode & 0xff;
  if (primary !== SQLITE_BUSY && primary !== SQLITE_LOCKED) return error;
  if (e.code === "EBUSY") return error;
  const waitedMs = Date.now() - startedAt;
  // SQLite's busy handler sleeps until the timeout is reached; Date.now()'s 1 ms steps may read a little short.
  const waited =
    timeoutMs === undefined
      ? "held its lock"
      : waitedMs + 2 >= timeoutMs
        ? `held its lock for busyTimeoutMs (${timeoutMs} ms)`
        : `holds its lock; SQLite refused after ${waitedMs} ms without waiting out busyTimeoutMs (${timeoutMs} ms)`;
  error.message = `EBUSY: ${error.message}: another connection to the database file ${waited}; try again, or raise nodeSqliteStorage's busyTimeoutMs`;
  (error as { code?: string }).code = "EBUSY";
  return error;
}

/** The oldest Node.js whose `node:sqlite` works without a flag (22.13; on the 23 line, 23.4). */
const NODE_SQLITE_MIN_VERSION = "22.13.0";

function loadDatabaseSync(): new (path: string) => NodeSqliteDatabase {
  const proc = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: (id: string) => unknown } }).process;
  const isWorkerd = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";
  const version = isWorkerd ? undefined : proc?.versions?.node;
  let mod: { DatabaseSync?: new (path: string) => NodeSqliteDatabase } | undefined;
  try {
    // Resolved at call time, never imported statically: the root entry must load on Node 20 and in workerd.
    mod = proc?.getBuiltinModule?.("node:sqlite") as typeof mod;
  } catch {
    mod = undefined;
  }
  const tooOld = version !== undefined && olderThan(version, NODE_SQLITE_MIN_VERSION);
  if (mod?.DatabaseSync && !tooOld) return mod.DatabaseSync;

  const running = isWorkerd ? "Cloudflare Workers (workerd)" : version ? `Node.js ${version}` : "this JavaScript runtime";
  const why =
    !version || olderThan(version, "22.5.0")
      ? "which has no node:sqlite"
      : tooOld
        ? "whose node:sqlite is experimental (behind --experimental-sqlite)"
        : "which does not provide node:sqlite (Node.js 23.0–23.3 need --experimental-sqlite)";
  throw new Error(
    `nodeSqliteStorage() needs node:sqlite from Node.js ${NODE_SQLITE_MIN_VERSION} or newer; this is ${running}, ${why}. ` +
      `Run this process on Node.js ${NODE_SQLITE_MIN_VERSION} or newer (check with \`node --version\`), ` +
      `or, inside a Durable Object, pass ctx.storage as the Workspace's storage instead.`,
  );
}

function olderThan(version: string, minimum: string): boolean {
  const a = version.replace(/^v/, "").split(".").map((part) => Number.parseInt(part, 10) || 0);
  const b = minimum.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== b[i]) return (a[i] ?? 0) < b[i];
  }
  return false;
}

/** Opens `path`; a failure keeps node:sqlite's `code` and names the path (node:sqlite's message does not). */
function openDatabase(path: string): NodeSqliteDatabase {
  const DatabaseSync = loadDatabaseSync();
  try {
    return new DatabaseSync(path);
  } catch (error) {
    if (error instanceof Error && !error.message.includes(path)) {
      error.message = `${error.message}: ${path} (nodeSqliteStorage opens or creates a file there; its directory must exist and be writable)`;
    }
    throw error;
  }
}

/**
 * Opens (or creates) a SQLite database with `node:sqlite` and wraps it as
 * Workspace storage.
 *
 * @param location A file path, or `":memory:"` (the default) for a private in-memory database.
 * @example
 * ```ts
 * import { Workspace, nodeSqliteStorage } from "agent-computer";
 * const workspace = new Workspace({ storage: nodeSqliteStorage("./workspace.db") });
 * await workspace.fs.writeFile("/hello.txt", "hi");
 * ```
 * @throws Error naming the running and the needed version when `node:sqlite` is not
 *   available (Node < 22.13, Node 23.0–23.3 without `--experimental-sqlite`, workerd, Bun, …).
 * @throws node:sqlite's error (`code: "ERR_SQLITE_ERROR"`), its message ending with the path,
 *   when the file cannot be opened or created (for example, its directory does not exist).
 */
export function nodeSqliteStorage(
  location: string | NodeSqliteDatabase = ":memory:",
  options: NodeSqliteStorageOptions = {},
): NodeSqliteStorage {
  const busyTimeoutMs = options.busyTimeoutMs ?? (typeof location === "string" ? DEFAULT_BUSY_TIMEOUT_MS : undefined);
  if (busyTimeoutMs !== undefined && !(Number.isInteger(busyTimeoutMs) && busyTimeoutMs >= 0 && busyTimeoutMs <= 2_147_483_647)) {
    throw new RangeError(`nodeSqliteStorage: busyTimeoutMs must be a whole number of ms from 0 to 2147483647, got ${String(busyTimeoutMs)}`);
  }
  const database: NodeSqliteDatabase = typeof location === "string" ? openDatabase(location) : location;
  if (busyTimeoutMs !== undefined) database.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const cacheSize = options.statementCacheSize ?? 256;
  const statements = new Map<string, ReturnType<NodeSqliteDatabase["prepare"]>>();
  let depth = 0;
  let savepoint = 0;

  function prepare(query: string) {
    let statement = statements.get(query);
    if (statement) {
      statements.delete(query);
    } else {
      statement = database.prepare(query);
      if (statements.size >= cacheSize) statements.delete(statements.keys().next().value as string);
    }
    statements.set(query, statement);
    return statement;
  }

  /** Runs `sql` (no results); a lock held elsewhere past the busy timeout throws `EBUSY`. */
  function run(sql: string): void {
    const startedAt = Date.now();
    try {
      database.exec(sql);
    } catch (error) {
      throw busyError(error, busyTimeoutMs, startedAt);
    }
  }

  function exec<T>(query: string, ...bindings: unknown[]): SqlCursorLike<T> {
    const startedAt = Date.now();
    try {
      return execStatement<T>(query, bindings);
    } catch (error) {
      throw busyError(error, busyTimeoutMs, startedAt);
    }
  }

  function execStatement<T>(query: string, bindings: unknown[]): SqlCursorLike<T> {
    const params = bindings.map(toSqliteValue);
    const statement = prepare(query);
    const returnsRows = statement.columns ? statement.columns().length > 0 : /^\s*(select|with|pragma)|\breturning\b/i.test(query);
    if (!returnsRows) {
      const info = statement.run(...params);
      const written = Number(info.changes);
      return { toArray: () => [], rowsRead: 0, rowsWritten: written };
    }
    const rows = statement.all(...params) as T[];
    return { toArray: () => rows, rowsRead: rows.length, rowsWritten: 0 };
  }

  /** Ends the transaction or savepoint `name` by rolling it back; a failure to do so does not hide `error`. */
  function rollback(name: string | null): void {
    try {
      database.exec(name ? `ROLLBACK TO ${name}; RELEASE ${name}` : "ROLLBACK");
    } catch {
      /* the error that made us roll back is the one reported */
    }
  }

  function transactionSync<T>(closure: () => T): T {
    const name = depth === 0 ? null : `ws_sp_${++savepoint}`;
    // A top-level transaction takes the write lock at BEGIN (IMMEDIATE), where SQLite's busy handler waits up to
    // busyTimeoutMs for another connection's lock: a deferred BEGIN would take it at the first write, and SQLite
    // refuses that read-to-write upgrade at once (SQLITE_BUSY, no wait) when another connection holds it. Every
    // transaction of a Workspace writes (or may), so nothing that only reads pays for the lock.
    run(name ? `SAVEPOINT ${name}` : "BEGIN IMMEDIATE");
    depth++;
    // The depth goes down exactly once, whatever fails: the closure, the COMMIT/RELEASE, or the ROLLBACK after them.
    try {
      const result = closure();
      if (result && typeof (result as { then?: unknown }).then === "function") {
        throw new Error("transactionSync closure must be synchronous");
      }
      run(name ? `RELEASE ${name}` : "COMMIT");
      return result;
    } catch (error) {
      // Also after a refused COMMIT (EBUSY), which leaves the transaction open: nothing of it stays.
      rollback(name);
      throw error;
    } finally {
      depth--;
    }
  }

  return {
    sql: { exec },
    transactionSync,
    database,
    close() {
      statements.clear();
      database.close();
    },
  };
}

function toSqliteValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return value;
}
