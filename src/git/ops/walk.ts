/**
 * One walk over a commit's tree, the working tree and the index — what
 * `status`, `add` and `diff` are computed from (spec 04 §2.3).
 *
 * isomorphic-git's `statusMatrix` compares object names only; this walk
 * keeps each side's oid and mode, so a mode change (`chmod +x`) shows as a
 * change as in real git. Working-tree files are hashed only when their
 * stat data differs from the index entry (isomorphic-git's stat cache), and
 * untracked files are not hashed unless asked. Directories outside the
 * pathspecs, `.git` and ignored untracked directories are not entered.
 * A directory's children are walked one after another, as real git does
 * (isomorphic-git's default maps them all at once, so every changed file of
 * a directory was read whole and hashed at the same time).
 *
 * @module
 */
import type { GitContext } from "../context.js";
import { WorktreeIgnores } from "./ignores.js";
import { compareBytes, matchesAny, worthEntering } from "./pathspec.js";
import { assertTreeReadable } from "./tree-state.js";
import { throwIfReadCancelled } from "../wrap.js";

/** One side of a {@link WalkRow}: a blob's oid and its mode (`0o100644`, `0o100755`, `0o120000`). */
export interface BlobSide {
  oid: string;
  mode: number;
}

/** A path with a blob on at least one side. */
export interface WalkRow {
  /** Path relative to the working tree, `/`-separated. */
  path: string;
  /** The blob in the commit's tree. */
  head?: BlobSide;
  /** The blob in the index. */
  stage?: BlobSide;
  /** The working-tree file; `oid` is `""` for an untracked file unless `hashUntracked`. */
  work?: BlobSide;
}

/** Options of {@link walkWorktree}. */
export interface WalkOptions {
  /**
   * The commit (or tree) to compare with, as an oid or a ref; `"HEAD"` on an
   * unborn branch is the empty tree. Omitted: no tree is read (rows have no
   * `head`, and an untracked file is one absent from the index).
   */
  ref?: string;
  /** Repository paths (`""` = all) the rows are limited to, exactly or as directory prefixes. */
  specs: string[];
  /** Include untracked files that `.gitignore` ignores. Default `false`. */
  ignored?: boolean;
  /** Hash untracked files too (their `work.oid`). Default `false`. */
  hashUntracked?: boolean;
  /**
   * Where to put the gitlinks (submodules, mode 160000) of the tree and the index under `specs`: a row per path
   * with `head`/`stage` where it is a gitlink there, and `work` (the index's gitlink) where its directory exists —
   * git takes a submodule directory that holds no repository as unchanged. Not given: they are left out.
   */
  gitlinks?: WalkRow[];
  /**
   * Where to put the embedded repositories (run 33, fixer GE): an untracked working-tree directory below the root
   * that holds a `.git` (directory, or file `gitdir: <path>`) and has nothing in the index below it, as git's dir.c
   * (`treat_directory`) sees a nested repository — one row per directory, `path` without the trailing `/`, `work`
   * `{ oid: "", mode: 0o160000 }` (the caller resolves its HEAD). The walk never enters such a directory, given or
   * not (git lists it `?? sub/`, `add` stages one gitlink, `clean -d` leaves it).
   */
  embedded?: WalkRow[];
}

/** Whether the working-tree directory `path` of the repository at `dir` holds a `.git` (a nested repository). */ // GE
async function holdsRepository(ctx: GitContext, dir: string, path: string): Promise<boolean> { // GE
  const full = dir === "/" ? `/${path}/.git` : `${dir}/${path}/.git`; // GE
  const stat = await ctx.workspace.fs.lstat(full).catch(() => undefined); // GE
  return stat !== undefined && (stat.isDirectory || stat.isFile); // GE
} // GE

type Entry = import("isomorphic-git").WalkerEntry | null;

async function blobType(entry: Entry): Promise<"blob" | "tree" | "other" | undefined> {
  if (!entry) return undefined;
  const type = await entry.type();
  return type === "blob" || type === "tree" ? type : "other";
}

/**
 * `ctx.fs` with each directory listing told to `ignores` (which then reads
 * no `.gitignore` where the listing has none).
 */
function listingFs(ctx: GitContext, ignores: WorktreeIgnores): GitContext["fs"] {
  const base = ctx.fs.promises as unknown as Record<string, unknown>;
  const promises: Record<string, unknown> = {};
  for (const key of Object.keys(base)) {
    const value = base[key];
    promises[key] = typeof value === "function" ? value.bind(base) : value;
  }
  const readdir = promises.readdir as (path: string, ...rest: unknown[]) => Promise<unknown>;
  promises.readdir = async (path: string, ...rest: unknown[]) => {
    const names = await readdir(path, ...rest);
    if (typeof path === "string" && Array.isArray(names) && names.every((name) => typeof name === "string")) ignores.noteListing(path, names);
    return names;
  };
  return { promises } as unknown as GitContext["fs"];
}

/** Whether `core.filemode` is on (git's default is `true`). */
export async function fileModeOn(ctx: GitContext, dir: string): Promise<boolean> {
  const value = await ctx.git.getConfig({ fs: ctx.fs, dir, path: "core.filemode" });
  return value !== false && value !== "false";
}

/**
 * Rows for every path under `specs` with a blob in the tree of `ref`, the
 * index or the working tree, sorted by path (UTF-8 byte order). The tree of
 * `ref` is first checked against `GIT_MAX_TREE_ENTRIES` (see
 * `assertTreeReadable`), and the operation's signal before each path.
 * @throws TreeTooLargeError; OperationCancelledError (`ECANCELED`, nothing changed) when the signal aborted.
 */
export async function walkWorktree(ctx: GitContext, dir: string, options: WalkOptions): Promise<WalkRow[]> {
  const { git } = ctx;
  const { specs } = options;
  const rows: WalkRow[] = [];
  const ignores = new WorktreeIgnores(ctx, dir);
  if (options.ref !== undefined) await assertTreeReadable(ctx, dir, options.ref);
  const filemode = await fileModeOn(ctx, dir);
  await git.walk({
    fs: listingFs(ctx, ignores),
    dir,
    cache: ctx.cache,
    iterate: walkInSequence,
    trees: options.ref === undefined ? [git.WORKDIR(), git.STAGE()] : [git.WORKDIR(), git.STAGE(), git.TREE({ ref: options.ref })],
    map: async (filepath: string, [work, stage, head]: Entry[]) => {
      if (filepath === ".") return undefined;
      throwIfReadCancelled(ctx);
      if (filepath === ".git" || filepath.endsWith("/.git")) return null;
      if (!worthEntering(filepath, specs)) return null;
      const [headType, workSeen, stageType] = await Promise.all([blobType(head), blobType(work), blobType(stage)]);
      let workType = workSeen;
      if ((headType === "other" || stageType === "other") && options.gitlinks && matchesAny(filepath, specs)) {
        const link: WalkRow = { path: filepath };
        if (headType === "other") link.head = { oid: await head!.oid(), mode: await head!.mode() };
        if (stageType === "other") link.stage = { oid: await stage!.oid(), mode: await stage!.mode() };
        if (link.stage && workType === "tree") link.work = link.stage;
        options.gitlinks.push(link);
      }
      if (headType === "other" && !stage && !work) return null;
      // A gitlink (submodule) in the index: git does not manage what its directory holds — nothing in it is listed.
      if (stageType === "other") return null;
      // A path absent from the index is untracked in the working tree whatever HEAD holds (git's dir.c asks the ignore
      // rules of every path the index lacks): an ignored one is left out — only HEAD's side stays (a staged deletion
      // after `git rm --cached`), and the walk still enters a directory HEAD has, for its deletions.
      if (!stage && work && !options.ignored && (await ignores.isIgnored(filepath, workType === "tree"))) {
        if (!head) return null;
        work = null;
        workType = undefined;
      }
      // An untracked directory holding a repository (git's nested repository): one entry, never entered. // GE
      if (workType === "tree" && stageType === undefined && headType !== "tree" && (await holdsRepository(ctx, dir, filepath))) { // GE
        if (options.embedded && matchesAny(filepath, specs)) options.embedded.push({ path: filepath, work: { oid: "", mode: 0o160000 } }); // GE
        return null; // GE
      } // GE
      const anyBlob = headType === "blob" || workType === "blob" || stageType === "blob";
      if (!anyBlob || !matchesAny(filepath, specs)) return undefined;
      const row: WalkRow = { path: filepath };
      if (headType === "blob") row.head = { oid: await head!.oid(), mode: await head!.mode() };
      if (stageType === "blob") row.stage = { oid: await stage!.oid(), mode: await stage!.mode() };
      if (workType === "blob") {
        const tracked = row.head !== undefined || row.stage !== undefined;
        const mode = await work!.mode();
        // The index entry's stat data matches: the file is the staged blob (what isomorphic-git's
        // WORKDIR oid() decides too, without taking the index lock once per file).
        if (row.stage && statsMatch(await work!.stat(), await stage!.stat(), filemode)) row.work = { oid: row.stage.oid, mode };
        else row.work = { oid: tracked || options.hashUntracked ? await work!.oid() : "", mode };
      }
      rows.push(row);
      return undefined;
    },
  });
  return rows.sort((a, b) => compareBytes(a.path, b.path));
}

/**
 * `walk`'s `iterate`: the children of a directory one at a time, so at most one
 * working-tree file is read and hashed at once (memory bounded by the largest
 * file, not the directory's total size).
 */
const walkInSequence: import("isomorphic-git").WalkerIterate = async (walk, children) => {
  const results: unknown[] = [];
  for (const child of children) results.push(await walk(child));
  return results;
};

type Stat = import("isomorphic-git").Stat;

/** isomorphic-git's `compareStats` turned around: the stat data of the file equals the index entry's. */
function statsMatch(work: Stat, stage: Stat, filemode: boolean): boolean {
  return (
    (!filemode || work.mode === stage.mode) &&
    work.mtimeSeconds === stage.mtimeSeconds &&
    work.mtimeNanoseconds === stage.mtimeNanoseconds &&
    work.ctimeSeconds === stage.ctimeSeconds &&
    work.ctimeNanoseconds === stage.ctimeNanoseconds &&
    work.uid === stage.uid &&
    work.gid === stage.gid &&
    work.ino === stage.ino &&
    work.size === stage.size
  );
}

/** True when two sides hold the same blob with the same mode (`filemode` off: executable bits ignored). */
export function sameBlob(a: BlobSide | undefined, b: BlobSide | undefined, filemode = true): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.oid !== b.oid) return false;
  if (a.mode === b.mode) return true;
  return !filemode && a.mode >> 12 === 0b1000 && b.mode >> 12 === 0b1000;
}
