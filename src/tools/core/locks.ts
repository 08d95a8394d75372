/**
 * Path locks for the mutating tools (spec 03 §5.3). Locks live in isolate
 * memory, keyed by `store.lockIdentity ?? store`, on `store.lockPath(path)`
 * (default: the path normalised lexically). Two locks conflict when
 * their paths are equal, or when either is a subtree lock and one path is
 * an ancestor of the other. An operation waits for every conflicting
 * operation registered before it; operations that do not conflict run
 * concurrently. Paths are compared in NFC, so two spellings of one name in
 * different Unicode normalisations share a lock.
 *
 * @module
 */
import { isUnder, normalizePath } from "../../util/path.js";
import type { FileStore } from "./store.js";

interface Held {
  readonly path: string;
  readonly subtree: boolean;
  readonly released: Promise<void>;
}

const tables = new WeakMap<object, Set<Held>>();

function conflicts(a: Held, path: string, subtree: boolean): boolean {
  if (a.path === path) return true;
  if (!a.subtree && !subtree) return false;
  return isUnder(path, a.path) || isUnder(a.path, path);
}

/**
 * Runs `fn` while holding the lock on `path` for `store` (a subtree lock
 * when `subtree` is true). The lock is released on success or failure.
 */
export async function withPathLock<T>(
  store: FileStore,
  path: string,
  subtree: boolean,
  fn: () => Promise<T>,
): Promise<T> {
  const identity = store.lockIdentity ?? store;
  let table = tables.get(identity);
  if (!table) {
    table = new Set();
    tables.set(identity, table);
  }
  // NFC: names equal up to Unicode normalisation share a lock, so write's twin-name check cannot race the twin's creation.
  const key = (store.lockPath ? store.lockPath(path) : normalizePath(path)).normalize("NFC");
  const waits: Promise<void>[] = [];
  for (const held of table) if (conflicts(held, key, subtree)) waits.push(held.released);
  let release!: () => void;
  const entry: Held = { path: key, subtree, released: new Promise<void>((resolve) => (release = resolve)) };
  table.add(entry);
  try {
    if (waits.length > 0) await Promise.all(waits);
    return await fn();
  } finally {
    table.delete(entry);
    release();
  }
}
