/**
 * Internal handle on the SQL store: typed queries, blob normalisation,
 * synchronous transactions (with savepoint nesting) and a rows-read counter.
 * Exposed as `workspace.db` (typed {@link WorkspaceDatabase}) for
 * diagnostics; its shape is not a stable API.
 *
 * @module
 */
import type { DurableObjectStorageLike, SqlCursorLike } from "./types.js";

type Row = Record<string, unknown>;

/**
 * `workspace.db`, and `db` of a backend's `connect(host)`: the SQL store
 * behind a Workspace, with statement and rows-read counters for
 * diagnostics. A type only: the package exports no value for it (the
 * Workspace builds its own). Its shape is not a stable API.
 */
export interface WorkspaceDatabase {
  /** Rows read by every statement so far, as reported by the store (`cursor.rowsRead`). Writable, e.g. to reset it. */
  rowsRead: number;
  /** Statements executed so far. Writable, e.g. to reset it. */
  statements: number;
  /** The storage this database runs on (`ctx.storage`, or `nodeSqliteStorage()`). */
  readonly storage: DurableObjectStorageLike;
  /** Runs a statement and returns all its rows. */
  all<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): T[];
  /** Runs a statement and returns its first row, or `undefined`. */
  one<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): T | undefined;
  /** Runs a statement for its effect. */
  run(query: string, ...bindings: unknown[]): void;
  /** Runs `fn` in one synchronous transaction (nested calls become savepoints). */
  tx<T>(fn: () => T): T;
}

/** The Workspace's {@link WorkspaceDatabase}: internal, not exported by any entry point. */
export class Database implements WorkspaceDatabase {
  /** Rows read by every statement so far, as reported by the store (`cursor.rowsRead`). */
  rowsRead = 0;
  /** Statements executed so far. */
  statements = 0;
  readonly #storage: DurableObjectStorageLike;
  readonly #tx: <T>(fn: () => T) => T;

  constructor(storage: DurableObjectStorageLike) {
    if (!storage || typeof storage !== "object" || typeof storage.sql?.exec !== "function") {
      throw new TypeError(
        "Workspace storage must provide sql.exec(query, ...bindings): pass a Durable Object's ctx.storage, or nodeSqliteStorage() on Node",
      );
    }
    this.#storage = storage;
    if (typeof storage.transactionSync === "function") {
      this.#tx = (fn) => storage.transactionSync!(fn);
    } else if (typeof storage.transaction === "function") {
      this.#tx = <T>(fn: () => T): T => {
        const result = storage.transaction!(fn);
        if (result && typeof (result as { then?: unknown }).then === "function") {
          throw new Error("Workspace storage requires synchronous transactions (transactionSync)");
        }
        return result as T;
      };
    } else {
      this.#tx = (fn) => fn();
    }
  }

  /** The storage this database runs on. */
  get storage(): DurableObjectStorageLike {
    return this.#storage;
  }

  #exec(query: string, bindings: unknown[]): SqlCursorLike<Row> {
    this.statements++;
    const cursor = this.#storage.sql.exec(query, ...bindings) as SqlCursorLike<Row>;
    return cursor;
  }

  /** Runs a statement and returns all its rows. */
  all<T = Row>(query: string, ...bindings: unknown[]): T[] {
    const cursor = this.#exec(query, bindings);
    const rows = cursor.toArray();
    this.rowsRead += cursor.rowsRead ?? rows.length;
    return rows as T[];
  }

  /** Runs a statement and returns its first row, or `undefined`. */
  one<T = Row>(query: string, ...bindings: unknown[]): T | undefined {
    return this.all<T>(query, ...bindings)[0];
  }

  /** Runs a statement for its effect. */
  run(query: string, ...bindings: unknown[]): void {
    const cursor = this.#exec(query, bindings);
    cursor.toArray();
    this.rowsRead += cursor.rowsRead ?? 0;
  }

  /** Runs `fn` in one synchronous transaction (nested calls become savepoints). */
  tx<T>(fn: () => T): T {
    return this.#tx(fn);
  }
}

/** Normalises a BLOB column (ArrayBuffer in Durable Objects, Uint8Array on node:sqlite). */
export function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value === null || value === undefined) return new Uint8Array(0);
  throw new TypeError(`expected a BLOB, got ${typeof value}`);
}
