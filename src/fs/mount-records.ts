/**
 * Mount records (spec 01 §6): the owner of `__ws_mounts`, one row per mount
 * root with its kind, the mode enforced now (`read-write` while it is being
 * materialised), whether the last run completed, and the version it ran
 * for. The mounts layer decides when to change them (`mounts/registry.ts`
 * for the ready() pass and unmount, `mounts/materialize.ts` for one run); the
 * guard (`mount-guard.ts`) keeps the read-only roots in memory.
 *
 * @module
 */
import type { WorkspaceDatabase } from "../storage/database.js";

/** One row of `__ws_mounts` (without its root). */
export interface MountRecord {
  kind: string;
  mode: string;
  /** 1 when the last run completed, else 0. */
  complete: number;
  version: string | null;
}

/** Reads and changes on `__ws_mounts`. */
export class MountRecords {
  readonly #db: WorkspaceDatabase;

  constructor(db: WorkspaceDatabase) {
    this.#db = db;
  }

  /** The record at `root`, or `undefined`. */
  get(root: string): MountRecord | undefined {
    return this.#db.one<MountRecord>(`SELECT kind, mode, complete, version FROM __ws_mounts WHERE root = ?`, root);
  }

  /** Whether a record exists at `root`. */
  has(root: string): boolean {
    return this.#db.one(`SELECT 1 AS x FROM __ws_mounts WHERE root = ?`, root) !== undefined;
  }

  /** Roots of every record but the one at `root`. */
  otherRoots(root: string): string[] {
    return this.#db.all<{ root: string }>(`SELECT root FROM __ws_mounts WHERE root <> ?`, root).map((row) => row.root);
  }

  /** Roots of read-only records, sorted. */
  readOnlyRoots(): string[] {
    return this.#db.all<{ root: string }>(`SELECT root FROM __ws_mounts WHERE mode = 'read-only' ORDER BY root`).map((row) => row.root);
  }

  /** Updates the mode and kind of a completed record (the mount's options changed, not its content). */
  setMode(root: string, mode: string, kind: string): void {
    this.#db.run(`UPDATE __ws_mounts SET mode = ?, kind = ? WHERE root = ?`, mode, kind, root);
  }

  /** Records a run in progress at `root`: writable while it is cleared and filled, incomplete, no version. */
  begin(root: string, kind: string): void {
    this.#db.run(
      `INSERT INTO __ws_mounts (root, kind, mode, complete, version) VALUES (?, ?, 'read-write', 0, NULL)
       ON CONFLICT (root) DO UPDATE SET kind = excluded.kind, mode = 'read-write', complete = 0, version = NULL`,
      root,
      kind,
    );
  }

  /**
   * Marks the run at `root` complete with its final mode and version.
   * @returns `false` when the in-progress record is gone (removed while the run copied).
   */
  complete(root: string, mode: string, version: string | null): boolean {
    const completed = this.#db.all(
      `UPDATE __ws_mounts SET mode = ?, complete = 1, version = ? WHERE root = ? AND complete = 0 RETURNING root`,
      mode,
      version,
      root,
    );
    return completed.length > 0;
  }

  /** Drops the record at `root`, if any. */
  delete(root: string): void {
    this.#db.run(`DELETE FROM __ws_mounts WHERE root = ?`, root);
  }
}
