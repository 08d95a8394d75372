/**
 * One mount's run (spec 01 §6.2): ask the mount's version, then, under the
 * root lock, keep a complete record of that version, or clear the root and
 * copy the mount into it with the root frozen (EROFS) and the record
 * in progress, and complete the record.
 *
 * @module
 */
import { mountGuardFor, overlaps } from "../fs/mount-guard.js";
import type { MountRecords } from "../fs/mount-records.js";
import { joinPath } from "../fs/path.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { Database } from "../storage/database.js";
import { inMountCallback } from "./reentry.js";
import { withRootLock } from "./root-lock.js";
import type { Mount } from "./types.js";
import { mountWriteAPI } from "./write-api.js";

/** What a mount run works on: the Workspace's filesystem, database and mount records, and its configuration. */
export interface MountRunContext {
  /** The Workspace's registry (marks the mount's callbacks for the re-entry guard). */
  readonly registry: object;
  readonly fs: WorkspaceFilesystem;
  readonly db: Database;
  readonly records: MountRecords;
  /** Whether `root` is a configured mount of this Workspace (a recorded overlapping root that is not is superseded). */
  isConfigured(root: string): boolean;
}

/**
 * Brings the mount at `root` up to date: nothing when its record is
 * complete for the version `mount.version` gives (a changed mode or kind is
 * recorded), else a fresh copy.
 *
 * @throws Error prefixed `mount <root>: ` (the original as `cause`, its `code`
 *   kept) for every failure: a bad version, a root reached through a link
 *   or below a file, the root moved or the record removed while copying, the
 *   write API's limits, re-entry, and what `version()` or `materialize()` throws.
 */
export async function materializeMount(context: MountRunContext, root: string, mount: Mount): Promise<void> {
  try {
    const wanted = await inMountCallback(context.registry, context.db.storage, root, async () =>
      typeof mount.version === "function" ? mount.version() : mount.version,
    );
    if (wanted !== undefined && typeof wanted !== "string") throw new Error(`mount ${root}: version() must resolve to a string`);
    // One run at a time per store for overlapping roots; each re-reads the record.
    await withRootLock(context.db.storage, root, () => copy(context, root, mount, wanted));
  } catch (error) {
    throw withRoot(root, error);
  }
}

/** The run under the root lock: keep the record when it is current, else clear and copy. */
async function copy(context: MountRunContext, root: string, mount: Mount, wanted: string | undefined): Promise<void> {
  const { fs, records } = context;
  const record = records.get(root);
  const guard = mountGuardFor(context.db);
  if (record && record.complete === 1 && (wanted === undefined || wanted === record.version)) {
    if (record.mode !== mount.mode || record.kind !== mount.kind) {
      records.setMode(root, mount.mode, mount.kind);
      guard.reload();
    }
    return;
  }
  await checkAncestors(fs, root);
  // A recorded mount that overlaps this root but is no longer configured is superseded by it.
  const stale = records.otherRoots(root).filter((other) => overlaps(other, root) && !context.isConfigured(other));
  for (const other of stale) records.delete(other);
  // In progress: writable while it is cleared and filled.
  records.begin(root, mount.kind);
  guard.reload();
  // The root entry must be a real directory: a link or a file there is removed (not what it points to).
  if (root !== "/") {
    const entry = await fs.lstat(root).catch(() => undefined);
    if (entry && !entry.isDirectory) await fs.rm(root);
    await fs.mkdir(root, { recursive: true });
  }
  // From here the root and its ancestors are frozen (EROFS) until the run ends; the contents stay writable.
  guard.busy(root, true);
  let chain: number[] | undefined;
  try {
    chain = await inodeChain(fs, root);
    await clearChildren(fs, root);
    await inMountCallback(context.registry, context.db.storage, root, () => mount.materialize(mountWriteAPI(fs, root, mount)));
    if (!sameChain(chain, await inodeChain(fs, root).catch(() => undefined))) {
      throw new Error(`mount ${root}: the root was moved or replaced while it was being copied; call ready() again`);
    }
  } catch (error) {
    // Clear only what is still the root this run created: never through a path that now leads elsewhere.
    if (chain && sameChain(chain, await inodeChain(fs, root).catch(() => undefined))) await clearChildren(fs, root).catch(() => {});
    guard.busy(root, false);
    throw error;
  }
  guard.busy(root, false);
  const completed = records.complete(root, mount.mode, wanted ?? null);
  guard.reload();
  if (completed) return;
  // Another Workspace over the same storage copied the same mount at the same time and completed
  // it first: its copy is this one (each run writes every file after the last clear), so it is done.
  const now = records.get(root);
  if (now && now.complete === 1 && now.kind === mount.kind && now.mode === mount.mode && now.version === (wanted ?? null)) return;
  throw new Error(
    `mount ${root}: its record was removed or replaced while it was being copied (an unmount, a mount over an overlapping root, or another Workspace over the same storage copying a different version); call ready() again`,
  );
}

/**
 * Refuses a root reached through a symbolic link or below a file: EROFS is
 * enforced on paths, so a mount must live at the path its root names.
 * A missing ancestor ends the check (mkdir -p creates real directories).
 */
async function checkAncestors(fs: WorkspaceFilesystem, root: string): Promise<void> {
  let prefix = "";
  const segments = root.split("/").filter((segment) => segment !== "");
  for (const segment of segments.slice(0, -1)) {
    prefix += `/${segment}`;
    const stat = await fs.lstat(prefix).catch(() => undefined);
    if (!stat) return;
    if (stat.isSymbolicLink) {
      throw new Error(`mount ${root}: ${prefix} is a symbolic link; a mount root must not be reached through a link (remove the link or choose another root)`);
    }
    if (!stat.isDirectory) throw new Error(`mount ${root}: ${prefix} is a file; a mount root must lie in directories (remove the file or choose another root)`);
  }
}

/** Inode numbers of `/`'s children down to the root (lstat: links are not followed). */
async function inodeChain(fs: WorkspaceFilesystem, root: string): Promise<number[]> {
  const inodes: number[] = [];
  let prefix = "";
  for (const segment of root.split("/").filter((part) => part !== "")) {
    prefix += `/${segment}`;
    const stat = await fs.lstat(prefix);
    if (!stat.isDirectory) throw new Error(`mount ${root}: ${prefix} is not a directory`);
    inodes.push(stat.inode);
  }
  return inodes;
}

/** Removes every entry in the root directory (not the root itself: it stays frozen while busy). */
async function clearChildren(fs: WorkspaceFilesystem, root: string): Promise<void> {
  for (;;) {
    const children = await fs.readdir(root, { limit: 256 });
    if (children.length === 0) return;
    for (const child of children) await fs.rm(joinPath(root, child.name), { recursive: true, force: true });
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
