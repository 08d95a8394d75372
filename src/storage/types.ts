/**
 * The SQL storage the Workspace runs on (spec 01 §1.4). A Durable Object's
 * `ctx.storage` satisfies it; {@link nodeSqliteStorage} provides one on Node.
 *
 * @module
 */

/** A query cursor: the rows of one statement. `rowsRead`/`rowsWritten` are reported by Durable Objects. */
export interface SqlCursorLike<T = Record<string, unknown>> {
  toArray(): T[];
  readonly rowsRead?: number;
  readonly rowsWritten?: number;
}

/** The `sql` half of a Durable Object's storage: `exec(query, ...bindings)`. */
export interface SqlStorageLike {
  exec<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): SqlCursorLike<T>;
}

/**
 * What `new Workspace({ storage })` needs: SQL, and ideally a synchronous
 * transaction. `transactionSync` is used if present, else `transaction` (whose
 * result must not be a promise), else statements run without a transaction.
 * Nested transactions must work.
 */
export interface DurableObjectStorageLike {
  sql: { exec(query: string, ...bindings: any[]): { toArray(): object[] } };
  transaction?<T>(closure: () => T | Promise<T>): T | Promise<T>;
  transactionSync?<T>(closure: () => T): T;
}
