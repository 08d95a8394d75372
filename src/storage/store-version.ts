/**
 * A change stamp of the SQL store, for caches that must not outlive a write
 * (the JavaScript backend's confined-path memo).
 *
 * @module
 */
import type { WorkspaceDatabase } from "./database.js";

/**
 * A stamp that changes whenever the store behind the filesystem may have
 * changed (any write on this connection or a commit by another one), or
 * `undefined` when the store cannot tell.
 */
export type StoreVersion = () => string | undefined;

/**
 * Builds a {@link StoreVersion} over a SQL store: SQLite's `total_changes()`
 * (rows changed on this connection, monotonic) with `data_version` (bumped by
 * other connections' commits). If the store refuses the query, returns a
 * version that is always `undefined`, which turns memoisation off.
 */
export function sqlStoreVersion(db: Pick<WorkspaceDatabase, "one">): StoreVersion {
  let supported = true;
  return () => {
    if (!supported) return undefined;
    try {
      const row = db.one<{ c: number; v: number }>("SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v");
      return row ? `${row.c}:${row.v}` : undefined;
    } catch {
      supported = false;
      return undefined;
    }
  };
}
