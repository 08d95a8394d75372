/**
 * Shared machinery of the ref and working-tree operations (spec 04 §2.3):
 * resolving commit-ish names, flat views of a commit's tree, the index and
 * the working tree, and moving the working tree and index from one commit
 * to another without losing local changes (`checkout`, `merge`, `reset`,
 * `stash`).
 *
 * Paths here are relative to the repository's `dir`, `/`-separated, as git
 * stores them; absolute Workspace paths are made with {@link absPath}.
 *
 * @module
 */
import type { GitContext, IndexUpdate } from "../context.js";
import type { GitError } from "../errors.js";
import { GIT_MAX_TREE_ENTRIES } from "../limits.js";
import { clientCacheOf } from "../operation.js";
import { throwIfCancelled, throwIfReadCancelled, toGitError } from "../wrap.js";
import { compareBytes } from "./pathspec.js";
import { readStreamBytes } from "../../util/bytes.js";
import { MAX_QUOTED_CHARS, quoteCut } from "../../util/cut.js";
import { checkSymlinkTarget } from "../../fs/path.js";
import { dirname, isUnder, normalizePath } from "../../util/path.js";

/** One file of a tree or the index: blob (or gitlink) oid and git mode (`0o100644`, `0o100755`, `0o120000`, `0o160000`). */
export interface FileEntry {
  oid: string;
  mode: number;
}

/** What is in the working tree at a path: nothing, a directory, or a file/link with its blob oid and git mode. */
export type WorktreeEntry = null | { kind: "dir" } | { kind: "file"; oid: string; mode: number };

/** One path that differs between two trees; `from`/`to` absent where the path is not a file there. */
export interface TreeChange {
  path: string;
  from?: FileEntry;
  to?: FileEntry;
}

/** `GitError` `E<OP>FAIL` with the message `git <op> failed: <detail>` (spec 04 §2.4; the code as `runOp` makes it). */
export function opError(op: string, detail: string): GitError {
  return toGitError(op, "", new Error(detail));
}

/** The absolute Workspace path of `path` (relative to `dir`). */
export function absPath(dir: string, path: string): string {
  return dir === "/" ? `/${path}` : `${dir}/${path}`;
}

/**
 * The deepest a working tree written by `clone`, `checkout`, `merge`,
 * `reset`, `pull` and `branch` with `checkout` may nest: at most this many directories
 * above any file (`a/b/c.txt` has 2). A deeper tree is refused before
 * anything is written, with `GitError` `E<OP>FAIL` (`ECLONEFAIL`,
 * `ECHECKOUTFAIL`, …) naming the first directory past the limit. Real git
 * bounds the same walk with `core.maxTreeDepth` (default 4,096 since 2.46);
 * a Workspace path lookup costs more per level, and a Durable Object has a
 * CPU budget, so the bound here is lower (issue 20, fifth attack run, O3).
 */
export const GIT_MAX_TREE_DEPTH = 256;

/** What {@link assertTreeDepth} and {@link flatTree} throw for a tree past a limit; callers report it as `E<OP>FAIL`. */
export class TreeLimitError extends Error {}

/** What {@link assertTreeDepth} throws for a tree nested too deep; callers report it as `E<OP>FAIL`. */
export class TreeTooDeepError extends TreeLimitError {
  constructor(
    /** The first directory past the limit, relative to the repository's `dir`. */
    readonly path: string,
    /** How many directories deep `path` is (counting itself). */
    readonly depth: number,
  ) {
    super(`tree too deep: directory '${path}' is nested ${depth} levels deep, over the limit of ${GIT_MAX_TREE_DEPTH} (GIT_MAX_TREE_DEPTH, as git's core.maxTreeDepth)`);
    this.name = "TreeTooDeepError";
  }
}

/** What {@link assertTreeDepth} and {@link flatTree} throw for a tree that expands past {@link GIT_MAX_TREE_ENTRIES} paths. */
export class TreeTooLargeError extends TreeLimitError {
  constructor(
    /** The commit (or tree) whose tree was refused. */
    readonly oid: string,
    /** Whether an operation that only reads the tree (`diff`, `status`, `lsFiles`) refused it: the message says "read". */
    readonly reading = false,
  ) {
    super(
      `tree too large: commit ${oid} expands to more than ${GIT_MAX_TREE_ENTRIES} files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not ${reading ? "read" : "write"} a tree this large`,
    );
    this.name = "TreeTooLargeError";
  }
}

/**
 * Throws when `commit`'s tree nests directories deeper than
 * {@link GIT_MAX_TREE_DEPTH} (`tree too deep: directory '<path>' is nested
 * <n> levels deep, over the limit of 256 (GIT_MAX_TREE_DEPTH, as git's
 * core.maxTreeDepth)`) or expands to more than {@link GIT_MAX_TREE_ENTRIES}
 * paths (`tree too large: commit <oid> expands to more than 100000 files
 * and directories (the limit, GIT_MAX_TREE_ENTRIES); …`). Reads only tree
 * objects, level by level; a tree that several paths of one level lead to
 * is read once and counted once per path, so a "git bomb" (every entry
 * naming one subtree) costs one read per level. Stops at the first
 * directory past the depth limit, or at the level where the count passes
 * the entry limit. Checks the operation's signal before each read.
 * With `reading` (an operation that only reads the tree, see
 * {@link assertTreeReadable}) the depth is not limited, and the messages say
 * so (`does not read a tree this large`; cancelled: nothing was changed).
 * @throws TreeTooDeepError / TreeTooLargeError with those messages (callers report them as `E<OP>FAIL`);
 * OperationCancelledError when the signal aborted.
 */
export async function assertTreeDepth(ctx: GitContext, dir: string, commit: string, reading = false): Promise<void> {
  // Per level: each distinct tree, the first path it was met at, and how many paths lead to it.
  let level = new Map<string, { path: string; paths: number }>([[commit, { path: "", paths: 1 }]]);
  let expanded = 0;
  for (let depth = 1; level.size > 0; depth++) {
    const next = new Map<string, { path: string; paths: number }>();
    for (const [oid, tree] of level) {
      if (reading) throwIfReadCancelled(ctx);
      else throwIfCancelled(ctx);
      const { tree: entries } = await ctx.git.readTree({ fs: ctx.fs, dir, oid, cache: ctx.cache });
      expanded += entries.length * tree.paths;
      if (expanded > GIT_MAX_TREE_ENTRIES) throw new TreeTooLargeError(commit, reading);
      for (const entry of entries) {
        if (entry.type !== "tree") continue;
        const path = tree.path === "" ? entry.path : `${tree.path}/${entry.path}`;
        if (depth > GIT_MAX_TREE_DEPTH && !reading) {
          throw new TreeTooDeepError(path, depth);
        }
        const seen = next.get(entry.oid);
        if (seen) seen.paths += tree.paths;
        else next.set(entry.oid, { path, paths: tree.paths });
      }
    }
    level = next;
  }
}

/** Trees found within {@link GIT_MAX_TREE_ENTRIES}, per client object cache (objects never change, so a verdict holds): at most {@link READABLE_MEMO} oids. */
const readable = new WeakMap<object, Set<string>>();
/** How many tree verdicts {@link assertTreeReadable} keeps per client (then it starts over). */
const READABLE_MEMO = 256;

/**
 * Throws when the tree of `rev` (a commit, tag or tree oid, or a ref; an
 * unborn `HEAD` is the empty tree and passes) expands to more than
 * {@link GIT_MAX_TREE_ENTRIES} paths — what `diff`, `diffSummary`,
 * `status`, `lsFiles` and `add`/`commit` check before they walk a commit's
 * tree, so a "git bomb" costs one tree read per level instead of a walk of
 * every path it expands to. The message is {@link TreeTooLargeError}'s with
 * "does not read a tree this large". A tree once found within the limit is
 * not read again by the same client. Checks the signal before each read.
 * @throws TreeTooLargeError; OperationCancelledError when the signal aborted.
 */
export async function assertTreeReadable(ctx: GitContext, dir: string, rev: string): Promise<void> {
  let oid = rev;
  if (!/^[0-9a-f]{40}$/.test(rev)) {
    try {
      oid = await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: rev });
    } catch (error) {
      // An unborn branch (the empty tree) or a name the walk reports itself.
      if ((error as { code?: string }).code === "NotFoundError") return;
      throw error;
    }
  }
  const known = readable.get(clientCacheOf(ctx.cache)) ?? new Set<string>();
  if (known.has(oid)) return;
  await assertTreeDepth(ctx, dir, oid, true);
  if (known.size >= READABLE_MEMO) known.clear();
  known.add(oid);
  readable.set(clientCacheOf(ctx.cache), known);
}

/** The fs methods that change the working tree or repository (checked by {@link cancellableFs}). */
const FS_WRITES = new Set(["writeFile", "mkdir", "symlink", "unlink", "rmdir", "rm", "rename", "chmod"]);

/**
 * `ctx.fs` for an isomorphic-git call that writes many files (`clone`'s
 * checkout): each change it makes checks the operation's signal first, so
 * the call stops writing within one file once the signal aborts (its reads
 * go on). `ctx.fs` itself without a signal.
 */
export function cancellableFs(ctx: GitContext): GitContext["fs"] {
  if (!ctx.signal) return ctx.fs;
  const promises = new Proxy(ctx.fs.promises, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function" || typeof key !== "string" || !FS_WRITES.has(key)) return typeof value === "function" ? value.bind(target) : value;
      return (...args: unknown[]) => {
        throwIfCancelled(ctx);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { promises } as GitContext["fs"];
}

/** The oid HEAD points at, or `undefined` on an unborn branch. */
export async function headOid(ctx: GitContext, dir: string): Promise<string | undefined> {
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: "HEAD" });
  } catch (error) {
    if ((error as { code?: string }).code === "NotFoundError") return undefined;
    throw error;
  }
}

/** The current branch's full name (`refs/heads/main`), or `undefined` when HEAD is detached. */
export async function currentBranchRef(ctx: GitContext, dir: string): Promise<string | undefined> {
  const name = await ctx.git.currentBranch({ fs: ctx.fs, dir, fullname: true });
  return typeof name === "string" ? name : undefined;
}

/**
 * Every file of `commit`'s tree (empty for `undefined`: an unborn branch).
 * Checks the operation's signal at each path, and stops once it has met
 * more than {@link GIT_MAX_TREE_ENTRIES} paths (files and directories).
 * `reading`: for an operation that only reads (`lsFiles`), whose errors say so.
 * @throws TreeTooLargeError past the limit; OperationCancelledError when the signal aborted.
 */
export async function flatTree(ctx: GitContext, dir: string, commit: string | undefined, reading = false): Promise<Map<string, FileEntry>> {
  const out = new Map<string, FileEntry>();
  if (commit === undefined) return out;
  let met = 0;
  await ctx.git.walk({
    fs: ctx.fs,
    dir,
    cache: ctx.cache,
    trees: [ctx.git.TREE({ ref: commit })],
    map: async (path, [entry]) => {
      if (path === "." || !entry) return undefined;
      if (reading) throwIfReadCancelled(ctx);
      else throwIfCancelled(ctx);
      if (++met > GIT_MAX_TREE_ENTRIES) throw new TreeTooLargeError(commit, reading);
      const type = await entry.type();
      if (type === "blob" || type === "commit") out.set(path, { oid: await entry.oid(), mode: await entry.mode() });
      return undefined;
    },
  });
  return out;
}

/**
 * Throws when `.git/index` exists but is not a regular file (a directory, a
 * link). isomorphic-git reads such an index as an empty one (its reads turn
 * every error into "no file"), so without this check `stash`, `checkout`,
 * `reset` and `merge` would treat every tracked file as unstaged — and
 * `stash` would drop the local changes it was asked to keep (issue 20).
 * A missing index is fine (a fresh repository, or one whose index was
 * deleted, reads as empty exactly as real git reads it).
 */
export async function assertIndexFile(ctx: GitContext, dir: string): Promise<void> {
  const path = dir === "/" ? "/.git/index" : `${dir}/.git/index`;
  const stat = await ctx.workspace.fs.lstat(path).catch(() => undefined);
  if (stat && (stat.isDirectory || stat.isSymbolicLink)) throw new Error(`index file ${path} is not a regular file`);
}

/** Every stage-0 entry of the index. @throws Error when `.git/index` is not a regular file ({@link assertIndexFile}). */
export async function flatIndex(ctx: GitContext, dir: string): Promise<Map<string, FileEntry>> {
  await assertIndexFile(ctx, dir);
  const out = new Map<string, FileEntry>();
  await ctx.git.walk({
    fs: ctx.fs,
    dir,
    cache: ctx.cache,
    trees: [ctx.git.STAGE()],
    map: async (path, [entry]) => {
      if (path === "." || !entry) return undefined;
      const type = await entry.type();
      if (type !== "tree") out.set(path, { oid: await entry.oid(), mode: await entry.mode() });
      return undefined;
    },
  });
  return out;
}

/** The git mode of a Workspace file: `0o100755` when any execute bit is set, else `0o100644`. */
function fileMode(permissions: number): number {
  return permissions & 0o111 ? 0o100755 : 0o100644;
}

/**
 * The bytes of a Workspace file; a working-tree file's as git stores them: through the `.gitattributes` line-end
 * conversion of `ctx.filters` (CRLF → LF for a `text` file; fixer GA, run 36).
 */
export async function readBytes(ctx: GitContext, abs: string): Promise<Uint8Array> {
  const bytes = await readStreamBytes(await ctx.workspace.fs.readFile(abs));
  return ctx.filters ? ctx.filters.toGit(abs, bytes) : bytes; // fixer GA
}

/**
 * Whether a directory above `path`'s last component (inside `dir`) is a
 * symbolic link or not a directory — git's `has_symlink_leading_path`.
 * Nothing is read, written or removed through such a link: the Workspace
 * follows links in the middle of a path, so `sub/b.txt` with `sub -> /elsewhere`
 * names `/elsewhere/b.txt`, a file outside the repository.
 */
export async function hasLeadingLink(ctx: GitContext, dir: string, path: string): Promise<boolean> {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const stat = await ctx.workspace.fs.lstat(absPath(dir, parts.slice(0, i).join("/"))).catch(() => undefined);
    if (!stat) return false;
    if (!stat.isDirectory) return true;
  }
  return false;
}

/**
 * What the working tree holds at `path` (a link is hashed as its target, as
 * git stores it); `null` when absent, or when a directory above it is a link
 * ({@link hasLeadingLink}: git sees no file there).
 */
export async function worktreeEntry(ctx: GitContext, dir: string, path: string): Promise<WorktreeEntry> {
  const abs = absPath(dir, path);
  if (path.includes("/") && (await hasLeadingLink(ctx, dir, path))) return null;
  const stat = await ctx.workspace.fs.lstat(abs).catch(() => undefined);
  if (!stat) return null;
  if (stat.isDirectory) return { kind: "dir" };
  if (stat.isSymbolicLink) {
    const target = await ctx.workspace.fs.readlink(abs);
    const { oid } = await ctx.git.hashBlob({ object: new TextEncoder().encode(target) });
    return { kind: "file", oid, mode: 0o120000 };
  }
  const { oid } = await ctx.git.hashBlob({ object: await readBytes(ctx, abs) });
  return { kind: "file", oid, mode: fileMode(stat.mode) };
}

/** Whether two entries (either may be missing) are the same file. */
export function sameEntry(a: FileEntry | undefined | null, b: FileEntry | undefined | null): boolean {
  if (!a || !b) return !a && !b;
  return a.oid === b.oid && a.mode === b.mode;
}

/**
 * Whether the working tree holds `entry`. A gitlink (a submodule, mode 160000) is there when its directory is: git
 * does not manage what lies inside (the Workspace never checks a submodule out), as git 2.39.5 takes a submodule
 * that is not checked out as unchanged.
 */
export function sameWorktree(wt: WorktreeEntry, entry: FileEntry | undefined): boolean {
  if (!entry) return wt === null;
  if (entry.mode === 0o160000) return wt?.kind === "dir";
  return wt !== null && wt.kind === "file" && wt.oid === entry.oid && wt.mode === entry.mode;
}

/** The paths whose file differs between two flat trees, sorted. */
export function diffFlat(from: Map<string, FileEntry>, to: Map<string, FileEntry>): TreeChange[] {
  const out: TreeChange[] = [];
  for (const [path, entry] of from) {
    const other = to.get(path);
    if (!sameEntry(entry, other)) out.push(other ? { path, from: entry, to: other } : { path, from: entry });
  }
  for (const [path, entry] of to) if (!from.has(path)) out.push({ path, to: entry });
  return out.sort((a, b) => compareBytes(a.path, b.path));
}

/**
 * The local changes `changes` would destroy: `local` lists tracked paths
 * whose index or working file differs from both sides, `untracked` lists
 * untracked files (or the untracked contents of directories) where a file
 * would be written.
 */
export async function findOverwrites(
  ctx: GitContext,
  dir: string,
  changes: TreeChange[],
  index: Map<string, FileEntry>,
  goneIsClean = false, // GQ
): Promise<{ local: string[]; untracked: string[] }> {
  const local: string[] = [];
  const untracked = new Set<string>();
  const removed = new Set(changes.filter((c) => !c.to).map((c) => c.path));
  for (const change of changes) {
    throwIfCancelled(ctx);
    const idx = index.get(change.path);
    const wt = await worktreeEntry(ctx, dir, change.path);
    const atTarget = sameEntry(idx, change.to) && sameWorktree(wt, change.to);
    if (atTarget) continue;
    if (change.from) {
      // git's verify_uptodate: with `goneIsClean`, a tracked file missing from the working tree (index clean) is up to // GQ
      // date, so a switch removes its index entry or writes the target's file (git 2.39.5 switches cleanly). // GQ
      const clean = sameEntry(idx, change.from) && (sameWorktree(wt, change.from) || (goneIsClean && wt === null)); // GQ
      const goneAlready = !idx && wt === null && !change.to;
      if (!clean && !goneAlready) local.push(change.path);
      continue;
    }
    if (idx) {
      local.push(change.path);
      continue;
    }
    if (wt?.kind === "file") untracked.add(change.path);
    else if (wt?.kind === "dir" && change.to?.mode !== 0o160000) {
      // (A gitlink placed where a directory is keeps the directory and its files, as git does.)
      const found = await ctx.workspace.fs.find(absPath(dir, change.path));
      for (const item of found) {
        if (item.type === "dir") continue;
        const rel = item.path.slice(absPath(dir, "").length);
        if (!removed.has(rel)) untracked.add(rel);
      }
    }
  }
  for (const change of changes) {
    if (!change.to) continue;
    throwIfCancelled(ctx);
    const parts = change.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      if (removed.has(prefix) || index.has(prefix)) continue;
      const stat = await ctx.workspace.fs.lstat(absPath(dir, prefix)).catch(() => undefined);
      if (stat && !stat.isDirectory) untracked.add(prefix);
    }
  }
  return { local, untracked: [...untracked].sort(compareBytes) };
}

/**
 * Throws the real-git-style refusal when `findOverwrites` found anything:
 * `git <op> failed: your local changes to the following files would be
 * overwritten by <op>: a, b` or `… the following untracked working tree
 * files would be overwritten by <op>: c`.
 * @throws GitError `E<OP>FAIL`.
 */
export function refuseOverwrites(op: string, found: { local: string[]; untracked: string[] }): void {
  const parts: string[] = [];
  if (found.local.length > 0) {
    parts.push(`your local changes to the following files would be overwritten by ${op}: ${found.local.join(", ")}`);
  }
  if (found.untracked.length > 0) {
    parts.push(`the following untracked working tree files would be overwritten by ${op}: ${found.untracked.join(", ")}`);
  }
  if (parts.length > 0) throw opError(op, parts.join("; "));
}

/**
 * The index update for `path` holding `entry`, with `stats` (from
 * {@link placeWorktreeFile} or {@link statBeforeHash}: taken when the file
 * was known to hold `entry`); a submodule has none.
 */
export function placed(path: string, entry: FileEntry, stats: object | undefined): IndexUpdate {
  return entry.mode === 0o160000 || !stats ? { filepath: path, oid: entry.oid, mode: entry.mode } : { filepath: path, oid: entry.oid, mode: entry.mode, stats };
}

/**
 * The file's stats (as isomorphic-git reads them, through `ctx.fs`), taken
 * BEFORE its content is hashed: if the file changes after, its stats no
 * longer match the index entry made from them, and status looks again.
 */
export async function statBeforeHash(ctx: GitContext, dir: string, path: string): Promise<object | undefined> {
  return ctx.fs.promises.lstat(absPath(dir, path)).catch(() => undefined);
}

/**
 * Writes one blob to the working tree (a link as a link, modes 644/755; a
 * submodule is its directory: an existing directory is kept as it is, files
 * and all — git does not manage a gitlink's contents — and one is made only
 * where there is none); the index is the caller's ({@link placed},
 * {@link updateIndex}). A symbolic link or a file where a directory above
 * `path` belongs is removed first and the directory made (as git's
 * checkout does: entry.c create_directories unlinks what is in the way),
 * so nothing is ever written through a link; a directory there is never
 * removed (issue 20, run 39, fixer GT: a file `p` made `checkout <ref> --
 * p/keep` fail with `EEXIST … mkdir`). Callers that must not lose a file
 * refuse first ({@link refuseOverwrites}: branch switches, merge, stash);
 * `checkout <ref> -- <paths>` overwrites, as git's does.
 */
export async function placeWorktreeFile(ctx: GitContext, dir: string, path: string, entry: FileEntry): Promise<object | undefined> {
  const abs = absPath(dir, path);
  const fs = ctx.workspace.fs;
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const lead = absPath(dir, parts.slice(0, i).join("/"));
    const stat = await fs.lstat(lead).catch(() => undefined);
    if (!stat) break;
    if (!stat.isDirectory) {
      await fs.rm(lead); // a link (never followed) or a file: the directory goes in its place
      break;
    }
  }
  const slash = abs.lastIndexOf("/");
  if (slash > 0) await fs.mkdir(abs.slice(0, slash), { recursive: true });
  const existing = await fs.lstat(abs).catch(() => undefined);
  if (entry.mode === 0o160000) {
    if (existing?.isDirectory) return undefined;
    if (existing) await fs.rm(abs);
    await fs.mkdir(abs, { recursive: true });
    return undefined;
  }
  if (existing?.isDirectory) await fs.rm(abs, { recursive: true });
  else if (existing && (existing.isSymbolicLink || entry.mode === 0o120000)) await fs.rm(abs);
  const { blob } = await ctx.git.readBlob({ fs: ctx.fs, dir, cache: ctx.cache, oid: entry.oid });
  if (entry.mode === 0o120000) await fs.symlink(linkTargetOf(dir, path, blob), abs);
  else {
    // Through the .gitattributes line-end conversion (LF → CRLF for `eol=crlf`; fixer GA, run 36).
    const bytes = ctx.filters ? await ctx.filters.toWorktree(abs, blob) : blob; // fixer GA
    await fs.writeFile(abs, bytes, { mode: entry.mode === 0o100755 ? 0o755 : 0o644 }); // fixer GA
    ctx.filters?.changed(abs); // fixer GA: a .gitattributes written applies to the files written after it
  }
  // Its stats as written: the index entry gets these, so a write by anyone else after this shows in status.
  return ctx.fs.promises.lstat(abs);
}

/**
 * Applies `updates` to the index in one step: the index is read once and
 * written once (isomorphic-git's `updateIndex` writes it whole per path).
 * Operations that move many paths write the working tree first and the
 * index last, as real git does, so a crash in the middle leaves the index
 * as it was: unstaged changes, never a half-moved index.
 */
export async function updateIndex(ctx: GitContext, dir: string, updates: readonly IndexUpdate[]): Promise<void> {
  if (updates.length > 0) await ctx.git.updateIndexMany({ fs: ctx.fs, dir, cache: ctx.cache, updates });
}

/**
 * Removes one file from the working tree (the index is the caller's), then
 * its emptied parent directories. Under a directory that is a link
 * ({@link hasLeadingLink}) nothing goes: the file behind the link is not
 * the repository's. A gitlink's directory (`gitlink`) goes only when empty,
 * as git's `rmdir` of a submodule: files in it are kept (then untracked).
 */
export async function unplaceWorktreeFile(ctx: GitContext, dir: string, path: string, gitlink = false): Promise<void> {
  const abs = absPath(dir, path);
  const behindLink = path.includes("/") && (await hasLeadingLink(ctx, dir, path));
  const stat = behindLink ? undefined : await ctx.workspace.fs.lstat(abs).catch(() => undefined);
  if (stat && !stat.isDirectory) {
    await ctx.workspace.fs.rm(abs);
    ctx.filters?.changed(abs); // fixer GA: a removed .gitattributes no longer applies
  } else if (stat && gitlink) {
    const children = await ctx.workspace.fs.readdir(abs, { limit: 1 }).catch(() => undefined);
    if (children && children.length === 0) await ctx.workspace.fs.rm(abs);
  }
  await pruneEmptyParents(ctx, dir, path);
}

/** Removes the directories above `path` (inside `dir`) that are left empty. */
export async function pruneEmptyParents(ctx: GitContext, dir: string, path: string): Promise<void> {
  const parts = path.split("/");
  for (let i = parts.length - 1; i > 0; i--) {
    const abs = absPath(dir, parts.slice(0, i).join("/"));
    const stat = await ctx.workspace.fs.lstat(abs).catch(() => undefined);
    if (!stat?.isDirectory) return; // a link (never followed) or already gone
    const children = await ctx.workspace.fs.readdir(abs, { limit: 1 }).catch(() => undefined);
    if (!children || children.length > 0) return;
    await ctx.workspace.fs.rm(abs);
  }
}

/**
 * Moves the working tree and index from `fromCommit` to `toCommit`, the
 * way `git checkout`/`git merge` do: only paths that differ between the two
 * commits are touched, and local changes to other paths are carried over.
 * Without `force`, refuses (before changing anything) when a local change
 * or an untracked file would be overwritten. With `force`, every tracked
 * path is reset to `toCommit` (`checkout -f`, `reset --hard`); untracked
 * files are kept.
 * @throws GitError `E<OP>FAIL` naming the paths (see {@link refuseOverwrites}), or a link the Workspace cannot make
 * ({@link linkTargetOf}; before anything is written).
 */
export async function moveTree(
  ctx: GitContext,
  dir: string,
  op: string,
  fromCommit: string | undefined,
  toCommit: string,
  force: boolean,
): Promise<void> {
  let from: Map<string, FileEntry>, to: Map<string, FileEntry>, index: Map<string, FileEntry>;
  try {
    await assertTreeDepth(ctx, dir, toCommit);
    [from, to, index] = await Promise.all([flatTree(ctx, dir, fromCommit), flatTree(ctx, dir, toCommit), flatIndex(ctx, dir)]);
  } catch (error) {
    throw error instanceof TreeLimitError ? opError(op, error.message) : error;
  }
  let changes: TreeChange[];
  if (force) {
    // Everything tracked (HEAD or index) goes to `to`; paths already there are skipped below.
    const tracked = new Map(from);
    for (const [path, entry] of index) tracked.set(path, entry);
    changes = [];
    const seen = new Set<string>();
    for (const path of [...tracked.keys(), ...to.keys()]) {
      if (seen.has(path)) continue;
      seen.add(path);
      throwIfCancelled(ctx);
      const target = to.get(path);
      const idx = index.get(path);
      const wt = await worktreeEntry(ctx, dir, path);
      if (sameEntry(idx, target) && sameWorktree(wt, target)) continue;
      changes.push(target ? { path, to: target } : { path, from: tracked.get(path)! });
    }
    changes.sort((a, b) => compareBytes(a.path, b.path));
  } else {
    changes = diffFlat(from, to);
    refuseOverwrites(op, await findOverwrites(ctx, dir, changes, index, true)); // GQ
  }
  try {
    await applyChanges(ctx, dir, changes, index);
  } catch (error) {
    throw error instanceof LinkTargetError ? opError(op, error.message) : error;
  }
}

/**
 * Reads every blob of `entries` (`[path, entry]`; and drops it): a missing or
 * corrupt object throws here, before anything is written. A symbolic link's
 * target is checked too, as {@link placeWorktreeFile} will write it
 * ({@link linkTargetOf}), so a link the Workspace cannot make fails here
 * rather than after other files were written.
 * @throws LinkTargetError `cannot check out symbolic link "<path>": …` (the op's `E<OP>FAIL`).
 */
export async function readAll(ctx: GitContext, dir: string, entries: Iterable<readonly [string, FileEntry | undefined]>): Promise<void> {
  for (const [path, entry] of entries) {
    throwIfCancelled(ctx);
    if (!entry || entry.mode === 0o160000) continue;
    const { blob } = await ctx.git.readBlob({ fs: ctx.fs, dir, cache: ctx.cache, oid: entry.oid });
    if (entry.mode === 0o120000) linkTargetOf(dir, path, blob, ctx.linkRoot);
  }
}

/**
 * What {@link linkTargetOf} throws for a link the Workspace cannot make; the
 * op's runner reports it as `E<OP>FAIL` ({@link moveTree} as its own op's,
 * so `branch` with `checkout` fails `ECHECKOUTFAIL` as for local changes).
 */
export class LinkTargetError extends Error {}

/** Refuses a link target that is not UTF-8 (issue 20, run 29, GL). */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The target of symbolic link `path` (relative to `dir`) whose blob is
 * `blob`, as the Workspace stores it — or the refusal: the Workspace's own
 * `symlink` check ({@link checkSymlinkTarget}: not empty, no NUL, at most
 * `MAX_PATH_BYTES` of UTF-8), and valid UTF-8 (a Workspace target is text;
 * real git writes the bytes as they are). Issue 20, twenty-ninth attack run.
 * With `root` (a confined client's, {@link GitContext.linkRoot}) the target
 * must also lead under it as text, as the write's own check (confine.ts)
 * will ask; where existing links lead is left to that check.
 * @throws LinkTargetError `cannot check out symbolic link "<path>": <why>` · `paths must stay under <root>: symlink target <target>`.
 */
export function linkTargetOf(dir: string, path: string, blob: Uint8Array, root?: string): string {
  let target: string;
  try {
    target = strictUtf8.decode(blob);
  } catch {
    const shown = Array.from(blob.subarray(0, MAX_QUOTED_CHARS), (b) =>
      b === 34 || b === 92 ? `\\${String.fromCharCode(b)}` : b < 32 || b >= 127 ? `\\${b.toString(8).padStart(3, "0")}` : String.fromCharCode(b),
    ).join("");
    const more = blob.length > MAX_QUOTED_CHARS ? `…" (${blob.length} bytes)` : '"';
    throw new LinkTargetError(`cannot check out symbolic link ${quoteCut(path)}: its target "${shown}${more} is not valid UTF-8; Workspace link targets are UTF-8 text`);
  }
  try {
    checkSymlinkTarget(target, absPath(dir, path));
  } catch (error) {
    throw new LinkTargetError(`cannot check out symbolic link ${quoteCut(path)}: ${(error as Error).message}`, { cause: error });
  }
  const abs = absPath(dir, path);
  if (root !== undefined && !isUnder(normalizePath(target, dirname(abs)), root)) {
    throw new LinkTargetError(`paths must stay under ${root}: symlink target ${target}`);
  }
  return target;
}

/**
 * Applies `changes`: removals first (pruning emptied directories), then
 * writes; paths already at their target are skipped. Every blob to be
 * written is read once before anything changes, so a missing or corrupt
 * object fails the operation with the working tree untouched.
 */
export async function applyChanges(ctx: GitContext, dir: string, changes: TreeChange[], index: Map<string, FileEntry>): Promise<void> {
  await readAll(ctx, dir, changes.map((c) => [c.path, c.to] as const));
  const updates: IndexUpdate[] = [];
  for (const change of changes) {
    if (change.to) continue;
    throwIfCancelled(ctx);
    await unplaceWorktreeFile(ctx, dir, change.path, (change.from ?? index.get(change.path))?.mode === 0o160000);
    updates.push({ filepath: change.path, remove: true });
  }
  for (const change of changes) {
    if (!change.to) continue;
    throwIfCancelled(ctx);
    const before = await statBeforeHash(ctx, dir, change.path);
    const wt = await worktreeEntry(ctx, dir, change.path);
    if (sameWorktree(wt, change.to) && sameEntry(index.get(change.path), change.to)) continue;
    const stats = sameWorktree(wt, change.to) ? before : await placeWorktreeFile(ctx, dir, change.path, change.to);
    updates.push(placed(change.path, change.to, stats));
  }
  await updateIndex(ctx, dir, updates);
}
