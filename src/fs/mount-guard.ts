/**
 * Read-only mount protection (spec 01 §6.3). The roots of read-only mounts
 * recorded in `__ws_mounts` are kept in memory, shared by every Workspace
 * over the same storage object, so a mutation costs no extra statement when
 * no read-only mount is recorded, and one lexical check when one is.
 *
 * While a mount is being copied in ("busy"), its root entry and the root's
 * ancestors cannot be removed or moved (its contents stay writable, so the
 * copy can write): nobody can take the root away or swap an ancestor for a
 * link under a running copy.
 *
 * @module
 */
import type { WorkspaceDatabase } from "../storage/database.js";
import { MountRecords } from "./mount-records.js";

/** Read-only mount roots of one store. */
export class MountGuard {
  readonly #records: MountRecords;
  #roots: readonly string[] = [];
  readonly #busy = new Map<string, number>();

  constructor(records: MountRecords) {
    this.#records = records;
    this.reload();
  }

  /** Re-reads the read-only roots from the mount records (after a record changed). */
  reload(): void {
    this.#roots = this.#records.readOnlyRoots();
  }

  /** Whether any read-only mount is recorded or being copied. */
  get active(): boolean {
    return this.#roots.length > 0 || this.#busy.size > 0;
  }

  /** Marks a mount root as being copied (`true`) or done (`false`); nests. */
  busy(root: string, on: boolean): void {
    const count = (this.#busy.get(root) ?? 0) + (on ? 1 : -1);
    if (count > 0) this.#busy.set(root, count);
    else this.#busy.delete(root);
  }

  /**
   * Why mutation `syscall` of canonical `path` is refused, or `undefined`: it
   * overlaps a read-only root, or it removes or moves the root (or an
   * ancestor of the root) of a mount being copied.
   */
  refusal(path: string, syscall: string): { root: string; copying: boolean } | undefined {
    const root = this.overlapping(path);
    if (root !== undefined) return { root, copying: false };
    // Only moves and removals can take a running copy's root away; mkdir -p or chmod of an ancestor cannot.
    if (syscall !== "rm" && syscall !== "rename") return undefined;
    for (const busy of this.#busy.keys()) if (within(busy, path)) return { root: busy, copying: true };
    return undefined;
  }

  /** Read-only roots, sorted. */
  get roots(): readonly string[] {
    return this.#roots;
  }

  /**
   * The read-only root that canonical `path` overlaps — the root itself, a
   * path under it, or an ancestor of it — or `undefined`.
   */
  overlapping(path: string): string | undefined {
    for (const root of this.#roots) {
      if (overlaps(path, root)) return root;
    }
    return undefined;
  }
}

/** True when canonical paths `a` and `b` are equal or one contains the other. */
export function overlaps(a: string, b: string): boolean {
  return within(a, b) || within(b, a);
}

/** True when canonical `path` is `root` or lies below it. */
export function within(path: string, root: string): boolean {
  if (root === "/") return true;
  return path === root || (path.startsWith(root) && path.charCodeAt(root.length) === 47);
}

const guards = new WeakMap<object, MountGuard>();

/** The guard shared by every Workspace over `db.storage`. */
export function mountGuardFor(db: WorkspaceDatabase): MountGuard {
  let guard = guards.get(db.storage);
  if (!guard) {
    guard = new MountGuard(new MountRecords(db));
    guards.set(db.storage, guard);
  }
  return guard;
}
