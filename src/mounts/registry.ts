/**
 * Mount registration and materialisation (spec 01 §6.2). Roots are checked
 * and factories run at construction; `ready()` copies every mount whose
 * stored record is missing, incomplete or of another version.
 *
 * @module
 */
import type { Database } from "../storage/database.js";
import { mountGuardFor, overlaps, within } from "../fs/mount-guard.js";
import { MountRecords } from "../fs/mount-records.js";
import { canonicalPath, isCanonicalPath, joinPath } from "../fs/path.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import { bytesOf } from "./bytes-stream.js";
import type { Mount, MountFactory, MountWriteAPI } from "./types.js";

/** The mounts of one Workspace. */
export class MountRegistry {
  readonly #mounts: ReadonlyMap<string, Mount>;
  readonly #fs: WorkspaceFilesystem;
  readonly #db: Database;
  readonly #records: MountRecords;
  #pass?: Promise<void>;
  #settled = false;
  #forgetWhenSettled = false;

  /**
   * @throws Error for a root that is not absolute and canonical, ends in `/`,
   * or lies inside another root; or for a factory that does not return a mount.
   */
  constructor(mounts: Record<string, Mount | MountFactory> | undefined, context: { fs: WorkspaceFilesystem; db: Database; sessionId: string }) {
    this.#fs = context.fs;
    this.#db = context.db;
    this.#records = new MountRecords(context.db);
    const registry = new Map<string, Mount>();
    if (mounts !== undefined) {
      if (mounts === null || typeof mounts !== "object" || Array.isArray(mounts)) {
        throw new TypeError("Workspace mounts must be an object of root path → R2Bucket(…) / WorkerBundle(…) / mount factory");
      }
      const roots = Object.keys(mounts);
      for (const root of roots) checkRoot(root);
      for (const a of roots) {
        for (const b of roots) {
          if (a !== b && within(b, a)) throw new Error(`Workspace mounts: ${b} lies inside mount ${a}; mount roots must not nest`);
        }
      }
      for (const root of roots) {
        const value = mounts[root];
        let mount: unknown = value;
        if (typeof value === "function") {
          try {
            mount = value({ sessionId: context.sessionId, root, vfs: context.fs });
          } catch (error) {
            throw new Error(`Workspace mounts: the factory for ${root} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
          }
        }
        checkMount(root, mount);
        registry.set(root, mount);
      }
    }
    this.#mounts = registry;
  }

  /** A copy of the registry (root → mount). */
  mounts(): Map<string, Mount> {
    return new Map(this.#mounts);
  }

  /**
   * Materialises every mount that needs it, in parallel; rejects with the
   * first failure after all settle. Concurrent callers share one pass; a
   * failed pass is forgotten so the next call retries.
   */
  ensure(): Promise<void> {
    if (this.#mounts.size === 0) return Promise.resolve();
    const context = runContext();
    if (context?.registry === this) {
      return Promise.reject(
        new Error(`mount ${context.root}: its version() or materialize() called ready(), ensureMountsIndexed() or unmount() of the Workspace it is filling, which would wait for itself`),
      );
    }
    if (!this.#pass) {
      // Assigned before the pass starts, so a caller reached from inside it joins instead of starting another.
      const pass = Promise.resolve().then(() => this.#run());
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

  async #run(): Promise<void> {
    const results = await Promise.allSettled([...this.#mounts].map(([root, mount]) => this.#materialize(root, mount)));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
  }

  async #materialize(root: string, mount: Mount): Promise<void> {
    try {
      const wanted = await inMountCallback(this, this.#db.storage, root, async () =>
        typeof mount.version === "function" ? mount.version() : mount.version,
      );
      if (wanted !== undefined && typeof wanted !== "string") throw new Error(`mount ${root}: version() must resolve to a string`);
      // One run at a time per store for overlapping roots; each re-reads the record.
      await withRootLock(this.#db.storage, root, () => this.#run1(root, mount, wanted));
    } catch (error) {
      throw withRoot(root, error);
    }
  }

  async #run1(root: string, mount: Mount, wanted: string | undefined): Promise<void> {
    const record = this.#records.get(root);
    const guard = mountGuardFor(this.#db);
    if (record && record.complete === 1 && (wanted === undefined || wanted === record.version)) {
      if (record.mode !== mount.mode || record.kind !== mount.kind) {
        this.#records.setMode(root, mount.mode, mount.kind);
        guard.reload();
      }
      return;
    }
    await this.#checkAncestors(root);
    // A recorded mount that overlaps this root but is no longer configured is superseded by it.
    const stale = this.#records.otherRoots(root).filter((other) => overlaps(other, root) && !this.#mounts.has(other));
    for (const other of stale) this.#records.delete(other);
    // In progress: writable while it is cleared and filled.
    this.#records.begin(root, mount.kind);
    guard.reload();
    // The root entry must be a real directory: a link or a file there is removed (not what it points to).
    if (root !== "/") {
      const entry = await this.#fs.lstat(root).catch(() => undefined);
      if (entry && !entry.isDirectory) await this.#fs.rm(root);
      await this.#fs.mkdir(root, { recursive: true });
    }
    // From here the root and its ancestors are frozen (EROFS) until the run ends; the contents stay writable.
    guard.busy(root, true);
    let chain: number[] | undefined;
    try {
      chain = await this.#chain(root);
      await this.#clearChildren(root);
      await inMountCallback(this, this.#db.storage, root, () => mount.materialize(this.#api(root, mount)));
      if (!sameChain(chain, await this.#chain(root).catch(() => undefined))) {
        throw new Error(`mount ${root}: the root was moved or replaced while it was being copied; call ready() again`);
      }
    } catch (error) {
      // Clear only what is still the root this run created: never through a path that now leads elsewhere.
      if (chain && sameChain(chain, await this.#chain(root).catch(() => undefined))) await this.#clearChildren(root).catch(() => {});
      guard.busy(root, false);
      throw error;
    }
    guard.busy(root, false);
    const completed = this.#records.complete(root, mount.mode, wanted ?? null);
    guard.reload();
    if (!completed) throw new Error(`mount ${root}: its record was removed while it was being copied (unmount, or a mount over an overlapping root); call ready() again`);
  }

  /**
   * Drops the stored record of the mount at `root` (see `Workspace.unmount`).
   * Waits for a run at that root to finish first.
   * @returns whether a record was dropped.
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

  /**
   * Refuses a root reached through a symbolic link or below a file: EROFS is
   * enforced on paths, so a mount must live at the path its root names.
   * A missing ancestor ends the check (mkdir -p creates real directories).
   */
  async #checkAncestors(root: string): Promise<void> {
    let prefix = "";
    const segments = root.split("/").filter((segment) => segment !== "");
    for (const segment of segments.slice(0, -1)) {
      prefix += `/${segment}`;
      const stat = await this.#fs.lstat(prefix).catch(() => undefined);
      if (!stat) return;
      if (stat.isSymbolicLink) {
        throw new Error(`mount ${root}: ${prefix} is a symbolic link; a mount root must not be reached through a link (remove the link or choose another root)`);
      }
      if (!stat.isDirectory) throw new Error(`mount ${root}: ${prefix} is a file; a mount root must lie in directories (remove the file or choose another root)`);
    }
  }

  /** Inode numbers of `/`'s children down to the root (lstat: links are not followed). */
  async #chain(root: string): Promise<number[]> {
    const inodes: number[] = [];
    let prefix = "";
    for (const segment of root.split("/").filter((part) => part !== "")) {
      prefix += `/${segment}`;
      const stat = await this.#fs.lstat(prefix);
      if (!stat.isDirectory) throw new Error(`mount ${root}: ${prefix} is not a directory`);
      inodes.push(stat.inode);
    }
    return inodes;
  }

  /** Removes every entry in the root directory (not the root itself: it stays frozen while busy). */
  async #clearChildren(root: string): Promise<void> {
    for (;;) {
      const children = await this.#fs.readdir(root, { limit: 256 });
      if (children.length === 0) return;
      for (const child of children) await this.#fs.rm(joinPath(root, child.name), { recursive: true, force: true });
    }
  }

  #api(root: string, mount: Mount): MountWriteAPI {
    const fs = this.#fs;
    let entries = 0;
    let bytes = 0;
    /** Directories this run has created (parents are made once per run, not once per file). */
    const made = new Set<string>([root]);
    const inside = (path: string, allowRoot: boolean): string => {
      let canonical: string;
      try {
        canonical = canonicalPath(path, "mount");
      } catch {
        throw new Error(`mount ${root}: ${JSON.stringify(path)} is not an absolute path`);
      }
      if (!within(canonical, root) || (!allowRoot && canonical === root)) {
        throw new Error(`mount ${root}: ${JSON.stringify(path)} is outside the mount root`);
      }
      return canonical;
    };
    const count = () => {
      if (mount.maxEntries !== undefined && ++entries > mount.maxEntries) throw new Error(`mount ${root}: maxEntries=${mount.maxEntries} exceeded`);
    };
    const limited = (source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> => {
      if (mount.maxBytes === undefined) return source;
      const max = mount.maxBytes;
      return source.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            bytes += chunk.byteLength;
            if (bytes > max) controller.error(new Error(`mount ${root}: maxBytes=${max} exceeded`));
            else controller.enqueue(chunk);
          },
        }),
      );
    };
    return {
      root,
      async writeFile(absPath, source, mode) {
        const path = inside(absPath, false);
        count();
        const parent = path.slice(0, path.lastIndexOf("/")) || "/";
        if (parent !== "/" && !made.has(parent)) {
          await fs.mkdir(parent, { recursive: true });
          made.add(parent);
        }
        const inMemory = bytesOf(source);
        if (inMemory && mount.maxBytes !== undefined && (bytes += inMemory.byteLength) > mount.maxBytes) {
          throw new Error(`mount ${root}: maxBytes=${mount.maxBytes} exceeded`);
        }
        await fs.writeFile(path, inMemory ?? limited(source), { mode: mode ?? 0o644 });
      },
      async mkdir(absPath, mode) {
        const path = inside(absPath, true);
        count();
        if (made.has(path)) return; // the root (created by the run) or a directory this run made
        await fs.mkdir(path, mode === undefined ? { recursive: true } : { recursive: true, mode });
        made.add(path);
      },
    };
  }
}

/** Runs in progress per storage object: root → settled-never-rejects promise. */
const activeRuns = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `task` once no task for an overlapping root (the same root, an
 * ancestor or a descendant) is running on the same storage object, so mount
 * runs, unmounts and supersessions touching one subtree never interleave.
 */
async function withRootLock(storage: object, root: string, task: () => Promise<void>): Promise<void> {
  const context = runContext();
  if (context && context.storage === storage && overlaps(context.root, root)) {
    throw new Error(`mount ${context.root}: its version() or materialize() got ready, unmounted or mounted ${root} on the same storage, which would wait for itself`);
  }
  let runs = activeRuns.get(storage);
  if (!runs) activeRuns.set(storage, (runs = new Map()));
  for (;;) {
    const blocking = [...runs].filter(([other]) => overlaps(other, root)).map(([, done]) => done);
    if (blocking.length === 0) break;
    await Promise.all(blocking);
  }
  const current = task();
  const done = current.then(
    () => {},
    () => {},
  );
  runs.set(root, done);
  try {
    await current;
  } finally {
    if (runs.get(root) === done) runs.delete(root);
  }
}

/** Whether two inode chains name the same directories. */
function sameChain(a: readonly number[], b: readonly number[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((inode, i) => inode === b[i]);
}

/** `error`, prefixed `mount <root>: ` when it does not already name the mount (the original kept as `cause`). */
function withRoot(root: string, error: unknown): unknown {
  if (!(error instanceof Error) || error.message.startsWith(`mount ${root}:`)) return error;
  const wrapped = new Error(`mount ${root}: ${error.message}`, { cause: error });
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(wrapped, { code });
  return wrapped;
}

/** Which mount callback (version() / materialize()) the current async context runs in, where the platform can tell. */
interface RunContext {
  readonly registry: MountRegistry;
  readonly storage: object;
  readonly root: string;
}

interface AsyncLocalStorageLike<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

let contexts: AsyncLocalStorageLike<RunContext> | null | undefined;

/** `AsyncLocalStorage` from node:async_hooks (Node, workerd with nodejs_compat), or `null`: then re-entry is not detected. */
function contextStore(): AsyncLocalStorageLike<RunContext> | null {
  if (contexts === undefined) {
    try {
      const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const hooks = proc?.getBuiltinModule?.("node:async_hooks") as { AsyncLocalStorage?: new () => AsyncLocalStorageLike<RunContext> } | undefined;
      contexts = hooks?.AsyncLocalStorage ? new hooks.AsyncLocalStorage() : null;
    } catch {
      contexts = null;
    }
  }
  return contexts;
}

function runContext(): RunContext | undefined {
  return contexts ? contexts.getStore() : undefined;
}

/** Runs a mount callback marked with its registry and root, so calls back into ready()/unmount() are refused instead of deadlocking. */
function inMountCallback<T>(registry: MountRegistry, storage: object, root: string, fn: () => Promise<T>): Promise<T> {
  const store = contextStore();
  return store ? store.run({ registry, storage, root }, fn) : fn();
}

function checkRoot(root: string): void {
  if (!root.startsWith("/")) throw new Error(`Workspace mounts: root ${JSON.stringify(root)} must be an absolute path`);
  if (root !== "/" && root.endsWith("/")) throw new Error(`Workspace mounts: root ${JSON.stringify(root)} must not end with "/"`);
  if (!isCanonicalPath(root)) throw new Error(`Workspace mounts: root ${JSON.stringify(root)} must be canonical (no empty, "." or ".." segments)`);
}

function checkMount(root: string, mount: unknown): asserts mount is Mount {
  const m = mount as Partial<Mount> | null;
  if (!m || typeof m !== "object" || m.strategy !== "eager" || typeof m.materialize !== "function") {
    throw new TypeError(`Workspace mounts: ${root} must be a mount (R2Bucket(…), WorkerBundle(…) or { strategy: "eager", materialize }) or a factory returning one`);
  }
  if (m.mode !== "read-only" && m.mode !== "read-write") throw new TypeError(`Workspace mounts: ${root} has mode ${JSON.stringify(m.mode)}; use "read-only" or "read-write"`);
  if (typeof m.kind !== "string" || m.kind === "") throw new TypeError(`Workspace mounts: ${root} needs a kind string`);
}
