/**
 * The mounts of one Workspace (spec 01 §6.2): configured at construction
 * (config.ts); `ready()` runs a pass that brings every mount up to date
 * (materialize.ts), shared by concurrent callers; `unmount()` drops a
 * record under the root lock (root-lock.ts).
 *
 * @module
 */
import { mountGuardFor } from "../fs/mount-guard.js";
import { MountRecords } from "../fs/mount-records.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { Database } from "../storage/database.js";
import { configuredMounts } from "./config.js";
import { materializeMount, type MountRunContext } from "./materialize.js";
import { mountCallbackContext } from "./reentry.js";
import { withRootLock } from "./root-lock.js";
import type { Mount, MountFactory } from "./types.js";
import type { SQLiteWorkspaceProvider } from "../fs/provider.js";

/** The mounts of one Workspace. */
export class MountRegistry {
  readonly #mounts: ReadonlyMap<string, Mount>;
  readonly #db: Database;
  readonly #records: MountRecords;
  readonly #run: MountRunContext;
  #pass?: Promise<void>;
  #settled = false;
  #forgetWhenSettled = false;

  /**
   * @throws Error for a root that is not absolute and canonical, ends in `/`,
   * or lies inside another root; or for a factory that does not return a mount
   * (see {@link configuredMounts}).
   */
  constructor(mounts: Record<string, Mount | MountFactory> | undefined, context: { fs: WorkspaceFilesystem; provider: () => SQLiteWorkspaceProvider; db: Database; sessionId: string }) {
    this.#db = context.db;
    this.#records = new MountRecords(context.db);
    this.#mounts = configuredMounts(mounts, context);
    this.#run = {
      registry: this,
      fs: context.fs,
      db: context.db,
      records: this.#records,
      isConfigured: (root) => this.#mounts.has(root),
    };
  }

  /** A copy of the registry (root → mount). */
  mounts(): Map<string, Mount> {
    return new Map(this.#mounts);
  }

  /**
   * Materialises every mount that needs it, in parallel; rejects with the
   * first failure after all settle. Concurrent callers share one pass; a
   * failed pass is forgotten so the next call retries.
   *
   * @throws (rejects) Error when called from inside one of this registry's
   *   mount callbacks (it would wait for itself); else the first mount's
   *   failure (see {@link materializeMount}).
   */
  ensure(): Promise<void> {
    if (this.#mounts.size === 0) return Promise.resolve();
    const context = mountCallbackContext();
    if (context?.registry === this) {
      return Promise.reject(
        new Error(`mount ${context.root}: its version() or materialize() called ready(), ensureMountsIndexed() or unmount() of the Workspace it is filling, which would wait for itself`),
      );
    }
    if (!this.#pass) {
      // Assigned before the pass starts, so a caller reached from inside it joins instead of starting another.
      const pass = Promise.resolve().then(() => this.#all());
      this.#pass = pass;
      this.#settled = false;
      pass.then(
        () => {
          this.#settled = true;
          if (this.#forgetWhenSettled && this.#pass === pass) this.#pass = undefined;
          this.#forgetWhenSettled = false;
        },
        () => {
          this.#forgetWhenSettled = false;
          if (this.#pass === pass) this.#pass = undefined;
        },
      );
    }
    return this.#pass;
  }

  /**
   * Forgets the pass, so the next {@link ensure} checks the records again
   * (`workspace.close()`). A pass still running is kept until it settles, so
   * callers in between join it instead of starting a second one.
   */
  forget(): void {
    if (!this.#pass) return;
    if (this.#settled) this.#pass = undefined;
    else this.#forgetWhenSettled = true;
  }

  async #all(): Promise<void> {
    const results = await Promise.allSettled([...this.#mounts].map(([root, mount]) => materializeMount(this.#run, root, mount)));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
  }

  /**
   * Drops the stored record of the mount at `root` (see `Workspace.unmount`).
   * Waits for a run at that root to finish first.
   * @returns whether a record was dropped.
   * @throws Error when called from a mount callback for an overlapping root (see {@link withRootLock}).
   */
  async unmount(root: string): Promise<boolean> {
    let dropped = false;
    await withRootLock(this.#db.storage, root, async () => {
      dropped = this.#records.has(root);
      this.#records.delete(root);
      mountGuardFor(this.#db).reload();
    });
    return dropped;
  }
}
