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
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number | bigint };
    readonly reader?: boolean;
    columns?(): unknown[];
  };
  exec(sql: string): void;
  close(): void;
  readonly isOpen?: boolean;
}

/** The storage returned by {@link nodeSqliteStorage}: a `DurableObjectStorageLike` plus `close()`. */
export interface NodeSqliteStorage extends DurableObjectStorageLike {
  sql: {
    exec<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): SqlCursorLike<T>;
  };
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
}

function loadDatabaseSync(): new (path: string) => NodeSqliteDatabase {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.("node:sqlite") as
    | { DatabaseSync: new (path: string) => NodeSqliteDatabase }
    | undefined;
  if (!mod) {
    throw new Error(
      "nodeSqliteStorage needs node:sqlite (Node.js 22.13 or newer). In a Durable Object pass ctx.storage instead.",
    );
  }
  return mod.DatabaseSync;
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
 * @throws Error when `node:sqlite` is not available (Node < 22.13, or a non-Node runtime).
 */
export function nodeSqliteStorage(
  location: string | NodeSqliteDatabase = ":memory:",
  options: NodeSqliteStorageOptions = {},
): NodeSqliteStorage {
  const database: NodeSqliteDatabase =
    typeof location === "string" ? new (loadDatabaseSync())(location) : location;
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

  function exec<T>(query: string, ...bindings: unknown[]): SqlCursorLike<T> {
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

  function transactionSync<T>(closure: () => T): T {
    const name = depth === 0 ? null : `ws_sp_${++savepoint}`;
    database.exec(name ? `SAVEPOINT ${name}` : "BEGIN");
    depth++;
    try {
      const result = closure();
      if (result && typeof (result as { then?: unknown }).then === "function") {
        throw new Error("transactionSync closure must be synchronous");
      }
      depth--;
      database.exec(name ? `RELEASE ${name}` : "COMMIT");
      return result;
    } catch (error) {
      depth--;
      database.exec(name ? `ROLLBACK TO ${name}; RELEASE ${name}` : "ROLLBACK");
      throw error;
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
