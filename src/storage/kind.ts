/**
 * Telling a Durable Object's storage from other storage (`nodeSqliteStorage`,
 * hand-made storage objects).
 *
 * @module
 */
import type { DurableObjectStorageLike } from "./types.js";

/**
 * Whether `storage` is a Durable Object's `ctx.storage`: it has the alarm API
 * (`getAlarm`, `setAlarm`) and `transactionSync`, and is not a
 * `nodeSqliteStorage()` (which has `database`). Such storage has one live
 * writer at a time: only one instance of a Durable Object lives at once.
 * A wrapper around `ctx.storage` without the alarm API is not recognised.
 */
export function isDurableObjectStorage(storage: DurableObjectStorageLike): boolean {
  const s = storage as { getAlarm?: unknown; setAlarm?: unknown; transactionSync?: unknown; database?: unknown };
  return typeof s.getAlarm === "function" && typeof s.setAlarm === "function" && typeof s.transactionSync === "function" && s.database === undefined;
}
