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
 * The `assertWritable…` methods turn a refusal into the EROFS error every
 * mutation throws; the filesystem calls them before and inside its
 * transactions.
 *
 * @module
 */
import type { WorkspaceDatabase } from "../storage/database.js";
import { WorkspaceFsError } from "./errors.js";
import { MountRecords } from "./mount-records.js";
import type { Resolution, ResolveTrace } from "./nodes.js";
import { isUnder } from "../util/path.js";
import { joinPath } from "./path.js";

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

  /** Roots of the recorded read-only mounts, sorted. */
  get readOnlyRoots(): readonly string[] {
    return this.#roots;
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
    for (const busy of this.#busy.keys()) if (isUnder(busy, path)) return { root: busy, copying: true };
    return undefined;
  }

  /**
   * EROFS when canonical `path` is a read-only mount root, lies under one, or
   * is an ancestor of one (spec 01 §6.3) — or when `rm`/`rename` would take
   * away the root, or an ancestor of the root, of a mount being copied in.
   */
  assertWritable(path: string, syscall: string): void {
    if (!this.active) return;
    const refusal = this.refusal(path, syscall);
    if (refusal) throw readOnlyError(syscall, path, refusal.root, refusal.copying);
  }

  /** A trace for a mutation's resolve, when a read-only mount is recorded (else `undefined`: no cost). */
  trace(): ResolveTrace | undefined {
    return this.active ? { viaLink: false } : undefined;
  }

  /**
   * EROFS when a walk that followed a link landed on a read-only mount: the
   * target (or the missing leaf's place) overlaps one, or the walk failed
   * inside one (a link target met while resolving). `nodes` gives the real
   * path of the node the walk reached.
   */
  assertWritableVia(
    trace: ResolveTrace | undefined,
    found: Resolution,
    syscall: string,
    path: string,
    nodes: { pathOf(ino: number): string },
  ): void {
    if (!trace?.viaLink || !trace.reached) return;
    let real = nodes.pathOf(trace.reached.ino);
    if (found.status === "found" || found.status === "missing") {
      if (found.status === "missing") real = joinPath(real, found.name);
      const refusal = this.refusal(real, syscall);
      if (refusal) throw readOnlyError(syscall, path, refusal.root, refusal.copying);
      return;
    }
    const root = this.#roots.find((candidate) => isUnder(real, candidate));
    if (root !== undefined) throw readOnlyError(syscall, path, root, false);
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

function readOnlyError(syscall: string, path: string, root: string, copying: boolean): WorkspaceFsError {
  const detail = copying
    ? `read-only file system (mount at ${root} is being copied in; its root and the directories above it cannot be removed or moved until ready() finishes)`
    : `read-only file system (mount at ${root})`;
  return new WorkspaceFsError("EROFS", syscall, path, detail);
}

/** True when canonical paths `a` and `b` are equal or one contains the other. */
export function overlaps(a: string, b: string): boolean {
  return isUnder(a, b) || isUnder(b, a);
}

/** True when canonical `path` is `root` or lies below it (`isUnder` of `util/path.ts`, under the name `mounts/` imports). */
export const within: (path: string, root: string) => boolean = isUnder;

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
