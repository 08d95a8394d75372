/**
 * Working-tree operations (spec 04 §2.3): `checkout`, `merge`, `reset`,
 * `clean`, and the stash (`stashPush`, `stashList`, `stashPop`, in
 * `stash.ts`).
 *
 * Each keeps the working tree intact when it fails: checks come first,
 * writes after. Failures are `GitError`s: `EUSAGE` for a missing or
 * mistyped option, `ENOTAREPO`, `EPATHSPEC`, `EPATHOUTSIDE`, and
 * `E<OP>FAIL` (`ECHECKOUTFAIL`, `EMERGEFAIL`, `ERESETFAIL`, `ECLEANFAIL`)
 * with the message `git <op> failed: <detail>`.
 *
 * @module
 */
import { diffLines } from "diff";
import type { MergeDriverCallback } from "isomorphic-git";
import type { GitContext, IndexUpdate } from "../context.js";
import { GitError, PathspecNotFoundError } from "../errors.js";
import { resolveIdentity } from "../identity.js";
import { GIT_DIFF_MAX_EDIT_LENGTH, GIT_DIFF_MAX_SEARCH_LINES } from "../limits.js";
import type { CleanOptions, GitCheckoutOptions, GitMergeOptions, MergeResult, ResetOptions } from "../types.js";
import { requireRepo, throwIfCancelled } from "../wrap.js";
import { literalFirst } from "../wildmatch.js";
import { WorktreeIgnores } from "./ignores.js";
import { boolOption, compareBytes, matchesSpec, optionalString, pathsOption, stringOption, toRepoPath, usage } from "./pathspec.js";
import { cleanMessage, strerror } from "./repo.js"; // run 36, fixer GR
import { resolveCommit } from "./rev.js";
import {
  absPath,
  assertTreeDepth,
  currentBranchRef,
  flatIndex,
  flatTree,
  headOid,
  moveTree,
  readAll,
  opError,
  sameEntry,
  sameWorktree,
  TreeLimitError,
  placeWorktreeFile,
  placed,
  statBeforeHash,
  unplaceWorktreeFile,
  updateIndex,
  worktreeEntry,
} from "./tree-state.js";

export { stashList, stashPop, stashPush } from "./stash.js";

async function refOid(ctx: GitContext, dir: string, ref: string): Promise<string | undefined> {
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir, ref });
  } catch {
    return undefined;
  }
}

/** Points HEAD at `branchRef` (symbolic) or, without one, at `oid` (detached). */
async function setHead(ctx: GitContext, dir: string, branchRef: string | undefined, oid: string): Promise<void> {
  if (branchRef) await ctx.git.writeRef({ fs: ctx.fs, dir, ref: "HEAD", value: branchRef, symbolic: true, force: true });
  else await ctx.git.writeRef({ fs: ctx.fs, dir, ref: "HEAD", value: oid, force: true });
}

/**
 * Without `paths`: switches to `ref` — a branch (HEAD attached to it), a
 * branch of exactly one remote (`origin/<ref>`: a local branch tracking it
 * is made, as `git checkout <ref>` does), or any other commit-ish (HEAD
 * detached). Only the paths that differ between HEAD and `ref` are written;
 * local changes to other paths are carried over. Without `force`, a local
 * change or untracked file that would be overwritten stops it before
 * anything is written; `force` discards local changes to tracked files
 * (untracked files are kept).
 *
 * With `paths` (files or directories, relative to `dir`; `"."` for all):
 * writes those files from `ref` into the working tree and the index, local
 * changes there are overwritten, and HEAD stays (`git checkout <ref> -- <paths>`);
 * without `ref`, from the index into the working tree only, the index (staged
 * changes) left as it is (`git checkout -- <paths>`).
 *
 * @throws GitError `ECHECKOUTFAIL`: `pathspec '<ref>' did not match any file(s) known to git` (unknown ref),
 * `your local changes to the following files would be overwritten by checkout: <paths>`,
 * `the following untracked working tree files would be overwritten by checkout: <paths>`;
 * `EPATHSPEC` a path matching nothing in `ref`; `EPATHOUTSIDE`.
 */
export async function checkout(ctx: GitContext, dir: string, options: GitCheckoutOptions): Promise<void> {
  const paths = pathsOption("checkout", options);
  if (paths) {
    const from = optionalString("checkout", options, "ref"); // none: from the index
    boolOption("checkout", options, "force");
    await requireRepo(ctx, dir);
    return checkoutPaths(ctx, dir, from, paths);
  }
  const ref = stringOption("checkout", options, "ref");
  const force = boolOption("checkout", options, "force");
  await requireRepo(ctx, dir);

  let branchRef: string | undefined;
  let target: string | undefined;
  if (ref !== "HEAD") {
    for (const candidate of ref.startsWith("refs/heads/") ? [ref] : [`refs/heads/${ref}`]) {
      target = await refOid(ctx, dir, candidate);
      if (target) branchRef = candidate;
    }
  }
  if (ref === "HEAD") branchRef = await currentBranchRef(ctx, dir);
  if (!target) target = await resolveCommit(ctx, dir, ref).then((c) => c.oid, () => undefined);
  if (!target) {
    const remotes = await ctx.git.listRemotes({ fs: ctx.fs, dir });
    const tracking: { remote: string; oid: string }[] = [];
    for (const { remote } of remotes) {
      const oid = await refOid(ctx, dir, `refs/remotes/${remote}/${ref}`);
      if (oid) tracking.push({ remote, oid });
    }
    if (tracking.length === 1) {
      const { remote, oid } = tracking[0]!;
      const from = await headOid(ctx, dir);
      await moveTree(ctx, dir, "checkout", from, oid, force);
      branchRef = `refs/heads/${ref}`;
      await ctx.git.writeRef({ fs: ctx.fs, dir, ref: branchRef, value: oid });
      await ctx.git.setConfig({ fs: ctx.fs, dir, path: `branch.${ref}.remote`, value: remote });
      await ctx.git.setConfig({ fs: ctx.fs, dir, path: `branch.${ref}.merge`, value: branchRef });
      await setHead(ctx, dir, branchRef, oid);
      return;
    }
    throw opError("checkout", `pathspec '${ref}' did not match any file(s) known to git`);
  }
  const from = await headOid(ctx, dir);
  await moveTree(ctx, dir, "checkout", from, target, force);
  await setHead(ctx, dir, branchRef, target);
}

async function checkoutPaths(ctx: GitContext, dir: string, ref: string | undefined, paths: string[]): Promise<void> {
  const index = await flatIndex(ctx, dir);
  let source = index;
  if (ref !== undefined) {
    let commit: string;
    try {
      commit = (await resolveCommit(ctx, dir, ref)).oid;
    } catch (error) {
      throw opError("checkout", (error as Error).message);
    }
    try {
      await assertTreeDepth(ctx, dir, commit);
      source = await flatTree(ctx, dir, commit);
    } catch (error) {
      throw error instanceof TreeLimitError ? opError("checkout", error.message) : error;
    }
  }
  const wanted = new Set<string>();
  for (const path of paths) {
    // git's literal-first rule: a glob naming an entry (of the index, or of the tree read into it) exactly is that entry only.
    const base = literalFirst(toRepoPath(dir, path), (p) => source.has(p) || index.has(p));
    let matched = false;
    for (const file of source.keys()) {
      if (matchesSpec(file, base)) {
        wanted.add(file);
        matched = true;
      }
    }
    if (!matched) throw new PathspecNotFoundError(path);
  }
  await readAll(ctx, dir, [...wanted].map((file) => [file, source.get(file)] as const));
  const updates: IndexUpdate[] = [];
  for (const file of [...wanted].sort(compareBytes)) {
    throwIfCancelled(ctx);
    const entry = source.get(file)!;
    const before = await statBeforeHash(ctx, dir, file);
    const wt = await worktreeEntry(ctx, dir, file);
    const there = sameWorktree(wt, entry);
    if (there && sameEntry(index.get(file), entry)) continue;
    // From the index, the entry stays as it is (its stat data refreshed, as git's checkout-index).
    updates.push(placed(file, entry, there ? before : await placeWorktreeFile(ctx, dir, file, entry)));
  }
  await updateIndex(ctx, dir, updates);
}

/** Real git's default merge message for `theirs` merged into branch `ours` (`refs/heads/…`). */
async function mergeMessage(ctx: GitContext, dir: string, theirs: string, ours: string): Promise<string> {
  let what: string;
  if (await refOid(ctx, dir, `refs/heads/${theirs}`)) what = `branch '${theirs}'`;
  else if (theirs.startsWith("refs/heads/")) what = `branch '${theirs.slice(11)}'`;
  else if (await refOid(ctx, dir, `refs/tags/${theirs}`)) what = `tag '${theirs}'`;
  else if (await refOid(ctx, dir, `refs/remotes/${theirs}`)) what = `remote-tracking branch '${theirs}'`;
  else what = `commit '${theirs}'`;
  const branch = ours.replace(/^refs\/heads\//, "");
  return `Merge ${what}${branch === "main" || branch === "master" ? "" : ` into ${branch}`}`;
}

/** Code units of the complete lines `x` and `y` share at the start (a line start in both). */
function sharedHead(x: string, y: string): number {
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x.charCodeAt(i) === y.charCodeAt(i)) i++;
  if (i === x.length && i === y.length) return i;
  return i === 0 ? 0 : x.lastIndexOf("\n", i - 1) + 1;
}

/** Code units of the complete lines `x` and `y` share at the end, none before `from` (a line start in both). */
function sharedTail(x: string, y: string, from: number): number {
  let ex = x.length;
  let ey = y.length;
  while (ex > from && ey > from) {
    const sx = ex < 2 ? 0 : x.lastIndexOf("\n", ex - 2) + 1;
    const sy = ey < 2 ? 0 : y.lastIndexOf("\n", ey - 2) + 1;
    const length = ex - sx;
    if (sx < from || sy < from || ey - sy !== length) break;
    let k = 0;
    while (k < length && x.charCodeAt(sx + k) === y.charCodeAt(sy + k)) k++;
    if (k < length) break;
    ex = sx;
    ey = sy;
  }
  return x.length - ex;
}

/** Lines of `text` (a last line without LF counts). */
function linesIn(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return text.length > 0 && !text.endsWith("\n") ? n + 1 : n;
}

/**
 * The merge driver of {@link merge}. Each side's change from the base is
 * trimmed to the lines between what it shares with the base at the start
 * and the end (as git's xdiff does). Changes separated by at least one
 * unchanged base line merge cleanly with no search (git's rule; adjacent
 * changes conflict). Otherwise isomorphic-git's `mergeFile` (diff3) runs
 * only on the lines from the first to the last line either side changed,
 * the rest kept as is — when each side has at most
 * {@link GIT_DIFF_MAX_SEARCH_LINES} lines there and each side's change is
 * within {@link GIT_DIFF_MAX_EDIT_LENGTH} line edits (checked with the
 * `diff` package's bounded search), which bounds diff3's search too (it is
 * O(N·D) in the same edits, unbounded: 4,000 rewritten lines took 15.6 s,
 * and it costs ~0.7 KiB a line searched). A bigger change is a conflict of
 * the whole file: ours and theirs, whole, between conflict markers (the
 * merge then fails with `merge conflict in <path>`).
 */
export function boundedMergeDriver(ctx: GitContext): MergeDriverCallback { // ST: stash pop merges with it too
  return (args) => {
    const [base = "", ours = "", theirs = ""] = args.contents;
    if (ours === base || ours === theirs) return { cleanMerge: true, mergedText: theirs };
    if (theirs === base) return { cleanMerge: true, mergedText: ours };
    // Each side's change as a range of base code units: [head, base.length - tail).
    const oursHead = sharedHead(base, ours);
    const oursTail = sharedTail(base, ours, oursHead);
    const theirsHead = sharedHead(base, theirs);
    const theirsTail = sharedTail(base, theirs, theirsHead);
    const oursEnd = base.length - oursTail;
    const theirsEnd = base.length - theirsTail;
    // Separated by a line: each side's text up to and after the gap (both equal the base there).
    if (oursEnd < theirsHead) return { cleanMerge: true, mergedText: ours.slice(0, ours.length - oursTail) + theirs.slice(oursEnd) };
    if (theirsEnd < oursHead) return { cleanMerge: true, mergedText: theirs.slice(0, theirs.length - theirsTail) + ours.slice(theirsEnd) };
    const start = Math.min(oursHead, theirsHead);
    const after = base.length - Math.max(oursEnd, theirsEnd);
    const middle = [base, ours, theirs].map((text) => text.slice(start, text.length - after));
    const within = (a: string, b: string) => diffLines(a, b, { maxEditLength: GIT_DIFF_MAX_EDIT_LENGTH }) !== undefined;
    if (middle.every((text) => linesIn(text) <= GIT_DIFF_MAX_SEARCH_LINES) && within(middle[0]!, middle[1]!) && within(middle[0]!, middle[2]!)) {
      const merged = ctx.git.mergeFile({ ...args, contents: middle });
      const join = (m: { cleanMerge: boolean; mergedText: string }) => ({
        cleanMerge: m.cleanMerge,
        mergedText: base.slice(0, start) + m.mergedText + base.slice(base.length - after),
      });
      return merged instanceof Promise ? merged.then(join) : join(merged);
    }
    const side = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);
    const mergedText = `<<<<<<< ${args.branches[1]}\n${side(ours)}=======\n${side(theirs)}>>>>>>> ${args.branches[2]}\n`;
    return { cleanMerge: false, mergedText };
  };
}

/**
 * Merges `theirs` (any commit-ish) into `ours` (a branch; default the
 * current one) as `git merge` does: already merged → `{ oid, alreadyMerged:
 * true }` and nothing changes; a fast-forward (unless `fastForward: false`)
 * → `{ oid, fastForward: true }`; otherwise a merge commit with parents
 * `[ours, theirs]` (with HEAD detached and no `ours`, into HEAD itself), message `message` or real git's default (`Merge branch
 * 'x'`, `… into <branch>` unless the branch is `main`/`master`, `Merge tag
 * 'v'`, `Merge remote-tracking branch 'o/x'`, `Merge commit '<rev>'`), and
 * author/committer from the identity chain without the config step
 * (explicit → `env` → `defaultIdentity`) → `{ oid }`. When `ours` is the
 * checked-out branch the working tree and index move to the result (local
 * changes to other paths are kept).
 *
 * @throws GitError `EMERGEFAIL`: `merge conflict in <paths>` (nothing is
 * written; also for a file both sides changed where either side's change
 * from the base passes {@link GIT_DIFF_MAX_EDIT_LENGTH} line edits), `not possible to fast-forward` (`fastForwardOnly`),
 * `refusing to merge unrelated histories`, `unknown revision '<ref>'`,
 * `your local changes to the following files would be overwritten by merge: <paths>`;
 * `EIDENTITY` when a merge commit has no author.
 */
export async function merge(ctx: GitContext, dir: string, options: GitMergeOptions): Promise<MergeResult> {
  const theirs = stringOption("merge", options, "theirs");
  const fastForward = options.fastForward === undefined ? true : boolOption("merge", options, "fastForward");
  const fastForwardOnly = boolOption("merge", options, "fastForwardOnly");
  if (options.message !== undefined && typeof options.message !== "string") throw usage("merge", "message must be a string");
  if (fastForwardOnly && options.fastForward === false) throw new GitError("EUSAGE", "git merge: fastForward: false and fastForwardOnly cannot be combined");
  await requireRepo(ctx, dir);

  const current = await currentBranchRef(ctx, dir);
  let oursRef: string;
  if (options.ours === undefined) {
    oursRef = current ?? "HEAD";
  } else {
    const ours = stringOption("merge", options, "ours");
    oursRef = ours.startsWith("refs/heads/") ? ours : `refs/heads/${ours}`;
  }
  const ourOid = await refOid(ctx, dir, oursRef);
  if (!ourOid) throw opError("merge", `branch '${oursRef.replace(/^refs\/heads\//, "")}' has no commits`);
  let theirOid: string;
  try {
    theirOid = (await resolveCommit(ctx, dir, theirs)).oid;
  } catch (error) {
    throw opError("merge", (error as Error).message);
  }
  const checkedOut = oursRef === (current ?? "HEAD");

  const bases = await ctx.git.findMergeBase({ fs: ctx.fs, dir, cache: ctx.cache, oids: [ourOid, theirOid] });
  if (bases.length === 0) throw opError("merge", "refusing to merge unrelated histories");
  if (bases.includes(theirOid)) return { oid: ourOid, alreadyMerged: true };
  if (bases.includes(ourOid) && fastForward) {
    if (checkedOut) await moveTree(ctx, dir, "merge", ourOid, theirOid, false);
    await ctx.git.writeRef({ fs: ctx.fs, dir, ref: oursRef, value: theirOid, force: true });
    return { oid: theirOid, fastForward: true };
  }
  if (fastForwardOnly) throw opError("merge", "not possible to fast-forward");
  // isomorphic-git's merge walks both trees whole: a tree past the limits is refused before it.
  for (const oid of [ourOid, theirOid]) {
    try {
      await assertTreeDepth(ctx, dir, oid);
    } catch (error) {
      throw error instanceof TreeLimitError ? opError("merge", error.message) : error;
    }
  }

  const { author, committer } = await resolveIdentity(ctx, dir, options, false);
  const message = cleanMessage(options.message ?? (await mergeMessage(ctx, dir, theirs, oursRef)));
  if (message === "") throw new GitError("EMSG", "git merge: aborting merge due to empty commit message");
  let oid: string;
  try {
    const result = await ctx.git.merge({
      fs: ctx.fs,
      dir,
      cache: ctx.cache,
      ours: oursRef,
      theirs: theirOid,
      fastForward: false,
      noUpdateBranch: true,
      abortOnConflict: true,
      mergeDriver: boundedMergeDriver(ctx),
      message,
      author,
      committer,
    });
    oid = result.oid!;
  } catch (error) {
    const e = error as { code?: string; data?: { filepaths?: string[] }; message?: string };
    if (e.code === "MergeConflictError") throw opError("merge", `merge conflict in ${[...(e.data?.filepaths ?? [])].sort(compareBytes).join(", ")}`);
    if (e.code === "MergeNotSupportedError") throw opError("merge", "criss-cross merges (several merge bases) are not supported");
    throw error;
  }
  if (checkedOut) await moveTree(ctx, dir, "merge", ourOid, oid, false);
  await ctx.git.writeRef({ fs: ctx.fs, dir, ref: oursRef, value: oid, force: true });
  return { oid };
}

/**
 * `git reset`:
 * - `paths` (files or directories relative to `dir`): their index entries
 *   become `ref`'s (removed where `ref` lacks them); HEAD and the working
 *   tree stay (`git reset <ref> -- <paths>`).
 * - `hard`: the current branch (or detached HEAD) moves to `ref`, and the
 *   index and working tree become exactly `ref`'s tree for tracked paths —
 *   tracked files not in `ref` are removed, untracked files kept.
 * - neither (mixed): the branch moves to `ref` and the index becomes `ref`'s
 *   tree; the working tree stays.
 *
 * `ref` defaults to `"HEAD"`.
 * @throws GitError `EUSAGE` `paths` with `hard`; `ERESETFAIL` `unknown revision '<ref>'`; `EPATHSPEC`; `EPATHOUTSIDE`.
 */
export async function reset(ctx: GitContext, dir: string, options: ResetOptions): Promise<void> {
  const paths = pathsOption("reset", options);
  const hard = boolOption("reset", options, "hard");
  const ref = stringOption("reset", options, "ref", "HEAD");
  if (paths && hard) throw new GitError("EUSAGE", "git reset: cannot do a hard reset with paths");
  await requireRepo(ctx, dir);
  const head = await headOid(ctx, dir);
  let target: string | undefined;
  if (ref === "HEAD" && head === undefined) target = undefined;
  else {
    try {
      target = (await resolveCommit(ctx, dir, ref)).oid;
    } catch (error) {
      throw opError("reset", (error as Error).message);
    }
  }
  let tree: Map<string, { oid: string; mode: number }>;
  try {
    if (target !== undefined) await assertTreeDepth(ctx, dir, target);
    tree = await flatTree(ctx, dir, target);
  } catch (error) {
    throw error instanceof TreeLimitError ? opError("reset", error.message) : error;
  }
  const index = await flatIndex(ctx, dir);

  if (paths) {
    const selected = new Set<string>();
    for (const path of paths) {
      const base = toRepoPath(dir, path);
      let matched = false;
      for (const file of [...tree.keys(), ...index.keys()]) {
        if (matchesSpec(file, base)) {
          selected.add(file);
          matched = true;
        }
      }
      if (!matched) throw new PathspecNotFoundError(path);
    }
    await resetIndexEntries(ctx, dir, [...selected], tree, index);
    return;
  }

  if (hard) {
    if (target) await moveTree(ctx, dir, "reset", head, target, true);
    else {
      for (const path of index.keys()) {
        throwIfCancelled(ctx);
        await unplaceWorktreeFile(ctx, dir, path, index.get(path)!.mode === 0o160000);
      }
      await updateIndex(ctx, dir, [...index.keys()].map((filepath) => ({ filepath, remove: true as const })));
    }
  } else {
    await resetIndexEntries(ctx, dir, [...new Set([...tree.keys(), ...index.keys()])], tree, index);
  }
  if (target && target !== head) {
    const branchRef = await currentBranchRef(ctx, dir);
    await ctx.git.writeRef({ fs: ctx.fs, dir, ref: branchRef ?? "HEAD", value: target, force: true });
  }
}

async function resetIndexEntries(
  ctx: GitContext,
  dir: string,
  paths: string[],
  tree: Map<string, { oid: string; mode: number }>,
  index: Map<string, { oid: string; mode: number }>,
): Promise<void> {
  const updates: IndexUpdate[] = [];
  for (const filepath of paths.sort(compareBytes)) {
    throwIfCancelled(ctx);
    const entry = tree.get(filepath);
    if (sameEntry(entry, index.get(filepath))) continue;
    if (!entry) {
      updates.push({ filepath, remove: true });
      continue;
    }
    const before = await statBeforeHash(ctx, dir, filepath);
    const wt = await worktreeEntry(ctx, dir, filepath);
    // Same bytes on disk: the index takes the file's stat data (taken before hashing); otherwise none, so status compares the content.
    const there = wt?.kind === "file" && wt.oid === entry.oid && wt.mode === entry.mode;
    updates.push(placed(filepath, entry, there ? before : undefined));
  }
  await updateIndex(ctx, dir, updates);
}

/**
 * Removes untracked files that are not ignored (`git clean -f`), and with
 * `directories` untracked directories as well (`-d`; without it, files
 * inside wholly untracked directories are left alone, as git does).
 * Directories holding a `.git` (nested repositories) and the directory of a
 * gitlink (a submodule's, an index entry) are never touched.
 * `dryRun` lists without removing (`-n`).
 *
 * @returns the removed (or removable) paths relative to `dir`, directories
 * with a trailing `/`, sorted in byte order. The CLI prints each as
 * `Removing <p>` (or `Would remove <p>` with `-n`).
 *
 * A path the Workspace refuses to remove (a read-only mount: `EROFS`) does
 * not stop the others, as git 2.39's clean.c: an untracked directory that
 * cannot go whole is walked and what can go inside it goes (then listed one
 * by one, the directory not). The paths left go to the command line's
 * {@link CLEAN_FAILURES} array, which `git clean` prints as git's `warning:
 * failed to remove <p>: <strerror>` lines, exit 1 (issue 20, run 36, fixer GR).
 * @throws GitError `ECLEANFAIL` `failed to remove <p>: <strerror>` (`(and <n> more)`), after removing the rest, when a
 * path could not be removed and no {@link CLEAN_FAILURES} array was given.
 */
export async function clean(ctx: GitContext, dir: string, options: CleanOptions): Promise<string[]> {
  const directories = boolOption("clean", options, "directories");
  const dryRun = boolOption("clean", options, "dryRun");
  await requireRepo(ctx, dir);
  const index = await flatIndex(ctx, dir);
  const trackedDirs = new Set<string>();
  for (const path of index.keys()) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) trackedDirs.add(parts.slice(0, i).join("/"));
  }
  const ignores = new WorktreeIgnores(ctx, dir);
  const ignored = (filepath: string, directory: boolean) => ignores.isIgnored(filepath, directory);
  const found: string[] = [];

  const visit = async (rel: string): Promise<void> => {
    const entries = await ctx.workspace.fs.readdir(rel === "" ? dir : absPath(dir, rel));
    for (const entry of entries) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory) {
        if (entry.name === ".git") continue;
        if (index.has(path)) continue; // a gitlink's (submodule's) directory: tracked, its contents git's to leave alone
        if (trackedDirs.has(path)) {
          await visit(path);
          continue;
        }
        if (!directories || (await ignored(path, true))) continue;
        if (await isNestedRepo(ctx, absPath(dir, path))) continue;
        const inside = await untrackedDirContents(ctx, dir, path, ignored);
        if (inside === "whole") found.push(`${path}/`);
        else for (const p of inside) found.push(p); // not spread: a directory may hold more paths than a call takes arguments
        continue;
      }
      if (index.has(path) || (await ignored(path, false))) continue;
      found.push(path);
    }
  };
  await visit("");
  found.sort(compareBytes);
  if (dryRun) return found;
  // As git 2.39's clean.c (run 36, fixer GR): a path that cannot go is warned about and the rest are still removed;
  // an untracked directory that cannot go whole is walked (remove_dirs), its removable contents removed one by one.
  const removed: string[] = [];
  const failures: CleanFailure[] = [];
  for (const path of found) {
    const abs = absPath(dir, path.replace(/\/$/, ""));
    try {
      await ctx.workspace.fs.rm(abs, { recursive: path.endsWith("/") });
      removed.push(path);
    } catch (error) {
      if (!path.endsWith("/")) failures.push({ path, reason: strerror(error) });
      else if (await removeDirs(ctx, dir, path.slice(0, -1), removed, failures)) removed.push(path);
    }
  }
  const sink = (options as { [CLEAN_FAILURES]?: unknown })[CLEAN_FAILURES];
  if (Array.isArray(sink)) sink.push(...failures);
  else if (failures.length > 0) {
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : "";
    throw new GitError("ECLEANFAIL", `git clean failed: failed to remove ${failures[0]!.path}: ${failures[0]!.reason}${more}`);
  }
  return removed;
}

/** A path `clean` could not remove (run 36, fixer GR): repository-relative (a directory with `/`), and strerror(3) wording. */
export interface CleanFailure {
  path: string;
  reason: string;
}

/**
 * The key of the command line's `clean` option (reached by name, `Symbol.for`, as {@link RM_WORKTREE}): an array the
 * paths that could not be removed are pushed to ({@link CleanFailure}), instead of the `ECLEANFAIL` thrown without it
 * (run 36, fixer GR).
 */
export const CLEAN_FAILURES: unique symbol = Symbol.for("agent-computer.git.cleanFailures") as never;

/**
 * git 2.39's clean.c remove_dirs for a directory `rel` (repository-relative) that could not be removed whole: each
 * file is unlinked (a failure pushed to `failures`), each directory walked the same way, then `rel` itself removed if
 * it is empty. Returns whether `rel` went (the caller then lists `rel/`); when it stays, the paths inside that went
 * are pushed to `removed` (a directory with `/`), as git prints `Removing <child>` for them then.
 */
async function removeDirs(ctx: GitContext, dir: string, rel: string, removed: string[], failures: CleanFailure[]): Promise<boolean> {
  const fs = ctx.workspace.fs;
  const gone: string[] = [];
  let whole = true;
  let entries;
  try {
    entries = await fs.readdir(absPath(dir, rel));
  } catch (error) {
    failures.push({ path: `${rel}/`, reason: strerror(error) });
    return false;
  }
  for (const entry of entries) {
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory) {
      const inner: string[] = [];
      if (await removeDirs(ctx, dir, path, inner, failures)) gone.push(`${path}/`);
      else {
        whole = false;
        gone.push(...inner);
      }
      continue;
    }
    try {
      await fs.rm(absPath(dir, path));
      gone.push(path);
    } catch (error) {
      failures.push({ path, reason: strerror(error) });
      whole = false;
    }
  }
  if (whole) {
    try {
      await fs.rm(absPath(dir, rel));
      return true;
    } catch (error) {
      failures.push({ path: `${rel}/`, reason: strerror(error) });
    }
  }
  removed.push(...gone);
  return false;
}

async function isNestedRepo(ctx: GitContext, abs: string): Promise<boolean> {
  const stat = await ctx.workspace.fs.lstat(`${abs}/.git`).catch(() => undefined);
  return stat !== undefined;
}

/**
 * An untracked directory for `clean -d`: `"whole"` when nothing inside is
 * ignored or a nested repository (it is removed as one), else the
 * removable paths inside it.
 */
async function untrackedDirContents(
  ctx: GitContext,
  dir: string,
  rel: string,
  ignored: (path: string, directory: boolean) => Promise<boolean>,
): Promise<"whole" | string[]> {
  const out: string[] = [];
  let whole = true;
  const entries = await ctx.workspace.fs.readdir(absPath(dir, rel));
  for (const entry of entries) {
    const path = `${rel}/${entry.name}`;
    if (await ignored(path, entry.isDirectory)) {
      whole = false;
      continue;
    }
    if (entry.isDirectory) {
      if (entry.name === ".git" || (await isNestedRepo(ctx, absPath(dir, path)))) {
        whole = false;
        continue;
      }
      const inside = await untrackedDirContents(ctx, dir, path, ignored);
      if (inside === "whole") out.push(`${path}/`);
      else {
        whole = false;
        for (const p of inside) out.push(p);
      }
    } else out.push(path);
  }
  return whole ? "whole" : out;
}
