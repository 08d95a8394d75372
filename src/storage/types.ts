/**
 * The SQL storage the Workspace runs on (spec 01 §1.4). A Durable Object's
 * `ctx.storage` satisfies it; {@link nodeSqliteStorage} provides one on Node.
 *
 * @module
 */

/** A query cursor: the rows of one statement. `rowsRead`/`rowsWritten` are reported by Durable Objects. */
export interface SqlCursorLike<T = Record<string, unknown>> {
  /** Every row of the result, one object per row keyed by column name (`[]` for a statement that returns none). */
  toArray(): T[];
  /** Rows the statement read (a count, not bytes), as the store reports it; absent when it reports none. */
  readonly rowsRead?: number;
  /** Rows the statement inserted, updated or deleted, as the store reports it; absent when it reports none. */
  readonly rowsWritten?: number;
}

/** The `sql` half of a Durable Object's storage: `exec(query, ...bindings)`. */
export interface SqlStorageLike {
  /**
   * Runs one SQL statement with `?` placeholders bound, in order, to
   * `bindings`, and returns its cursor (Durable Object `SqlStorage.exec`).
   *
   * @throws the store's error when the statement fails (syntax, constraint, …).
   */
  exec<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): SqlCursorLike<T>;
}

/**
 * What `new Workspace({ storage })` needs: SQL, and ideally a synchronous
 * transaction. `transactionSync` is used if present, else `transaction` (whose
 * result must not be a promise), else statements run without a transaction.
 * Nested transactions must work.
 */
export interface DurableObjectStorageLike {
  /** The SQL interface: `exec(query, ...bindings)` returning a cursor with `toArray()` (`ctx.storage.sql`). */
  sql: { exec(query: string, ...bindings: any[]): { toArray(): object[] } };
  /**
   * A transaction, used only when `transactionSync` is absent: `closure` must
   * run synchronously; a promise result makes the Workspace throw
   * `Workspace storage requires synchronous transactions (transactionSync)`.
   */
  transaction?<T>(closure: () => T | Promise<T>): T | Promise<T>;
  /**
   * Runs `closure` in one synchronous transaction: committed when it returns,
   * rolled back when it throws (`ctx.storage.transactionSync`). Preferred over
   * `transaction` when present.
   */
  transactionSync?<T>(closure: () => T): T;
}
