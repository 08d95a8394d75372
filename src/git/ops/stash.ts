/**
 * The stash (spec 04 §2.3): `stashPush`, `stashList`, `stashPop`, stored
 * the way real git stores it, so `git stash list/show/pop` by the real git
 * read a Workspace's stash and the other way round:
 *
 * - an index commit `I` (tree = the index, parent HEAD, message
 *   `index on <branch>: <oid7> <subject>`);
 * - a working-tree commit `W` (tree = tracked files as in the working tree,
 *   parents `[HEAD, I]`, message `On <branch>: <message>` or
 *   `WIP on <branch>: <oid7> <subject>`), at `refs/stash`;
 * - one line per entry in `.git/logs/refs/stash` (newest last), whose
 *   message is `W`'s.
 *
 * Untracked files are neither stashed nor touched (a push that would
 * overwrite one refuses).
 *
 * @module
 */
import type { GitContext, IndexUpdate } from "../context.js";
import { GitError } from "../errors.js";
import { resolveIdentity } from "../identity.js";
import { compareBytes, usage } from "./pathspec.js";
import { boundedMergeDriver } from "./worktree.js";
import type { BaseWorktreeOptions, StashPopOptions, StashPushOptions } from "../types.js";
import { gitdirOf, requireRepo, throwIfCancelled } from "../wrap.js";
import {
  type FileEntry,
  absPath,
  currentBranchRef,
  diffFlat,
  findOverwrites,
  flatIndex,
  flatTree,
  headOid,
  applyChanges,
  type TreeChange,
  opError,
  pruneEmptyParents,
  readAll,
  readBytes,
  refuseOverwrites,
  sameEntry,
  placeWorktreeFile,
  placed,
  updateIndex,
  worktreeEntry,
} from "./tree-state.js";

const ZERO = "0".repeat(40);

interface ReflogLine {
  old: string;
  oid: string;
  who: string;
  message: string;
}

function reflogPath(dir: string): string {
  return `${gitdirOf(dir)}/logs/refs/stash`;
}

/**
 * The stash entries, oldest first: the lines of `.git/logs/refs/stash`, made
 * to agree with `refs/stash` (the newest entry). The two are separate
 * writes, the ref first ({@link writeReflog}), so after a crash between
 * them the ref is the truth, as for real git (`git stash list` shows nothing
 * without `refs/stash`): no ref → no entries; a ref naming an older line →
 * the lines after it are gone (a pop or drop of the newest that wrote the
 * ref only); a ref naming no line → its commit is the newest entry (a push
 * that wrote the ref only).
 */
async function readReflog(ctx: GitContext, dir: string): Promise<ReflogLine[]> {
  const text = await ctx.workspace.fs.readFile(reflogPath(dir), "utf8").catch(() => "");
  const out: ReflogLine[] = [];
  for (const line of text.split("\n")) {
    const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) ([^\t]*)\t?(.*)$/.exec(line);
    if (match) out.push({ old: match[1]!, oid: match[2]!, who: match[3]!, message: match[4]! });
  }
  const ref = await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: "refs/stash" }).catch(() => undefined);
  if (ref === undefined) return [];
  if (out.length > 0 && out[out.length - 1]!.oid === ref) return out;
  const at = out.map((line) => line.oid).lastIndexOf(ref);
  if (at >= 0) return out.slice(0, at + 1);
  const { commit } = await ctx.git.readCommit({ fs: ctx.fs, dir, cache: ctx.cache, oid: ref }).catch(() => ({ commit: undefined }));
  if (!commit) return out;
  const { name, email, timestamp, timezoneOffset } = commit.committer;
  out.push({ old: out[out.length - 1]?.oid ?? ZERO, oid: ref, who: `${name} <${email}> ${timestamp} ${formatOffset(timezoneOffset)}`, message: reflogMessage(commit.message) });
  return out;
}

/**
 * Stores the stash entries `lines` (oldest first): `refs/stash` (the newest)
 * FIRST, then `.git/logs/refs/stash` — two writes, so a crash between them
 * leaves the ref new and the log old, which {@link readReflog} reads as the
 * ref says (`stash list`, `stash pop` and the `stash` revision agree).
 */
async function writeReflog(ctx: GitContext, dir: string, lines: ReflogLine[]): Promise<void> {
  const path = reflogPath(dir);
  if (lines.length === 0) {
    await ctx.git.deleteRef({ fs: ctx.fs, dir, ref: "refs/stash" }).catch(() => undefined);
    await ctx.workspace.fs.rm(path, { force: true });
    return;
  }
  let previous = ZERO;
  const text = lines
    .map((line) => {
      const out = `${previous} ${line.oid} ${line.who}\t${line.message}\n`;
      previous = line.oid;
      return out;
    })
    .join("");
  await ctx.git.writeRef({ fs: ctx.fs, dir, ref: "refs/stash", value: lines[lines.length - 1]!.oid, force: true });
  await ctx.workspace.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await ctx.workspace.fs.writeFile(path, text);
}

/** `+HHMM`/`-HHMM` of an isomorphic-git timezone offset (minutes, UTC − local). */
function formatOffset(offset: number): string {
  const minutes = -offset;
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

const MODE_STRINGS: Record<number, string> = { 0o100644: "100644", 0o100755: "100755", 0o120000: "120000", 0o160000: "160000" };

/** Writes the nested trees of a flat path → file map; returns the root tree oid. */
export async function writeFlatTree(ctx: GitContext, dir: string, files: Map<string, FileEntry>): Promise<string> {
  interface Node {
    files: Map<string, FileEntry>;
    dirs: Map<string, Node>;
  }
  const root: Node = { files: new Map(), dirs: new Map() };
  for (const [path, entry] of files) {
    const parts = path.split("/");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let next = node.dirs.get(part);
      if (!next) node.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
      node = next;
    }
    node.files.set(parts[parts.length - 1]!, entry);
  }
  const write = async (node: Node): Promise<string> => {
    const tree: { mode: string; path: string; oid: string; type: "blob" | "tree" | "commit" }[] = [];
    for (const [name, child] of node.dirs) tree.push({ mode: "040000", path: name, oid: await write(child), type: "tree" });
    for (const [name, entry] of node.files) {
      tree.push({ mode: MODE_STRINGS[entry.mode] ?? "100644", path: name, oid: entry.oid, type: entry.mode === 0o160000 ? "commit" : "blob" });
    }
    return ctx.git.writeTree({ fs: ctx.fs, dir, tree });
  };
  return write(root);
}

/**
 * A reflog message as git stores it (`copy_reflog_msg`): each run of
 * whitespace (line breaks included) made one space, leading and trailing
 * whitespace dropped — so a multi-line `-m` stays on its reflog line.
 */
export function reflogMessage(message: string): string {
  return message.replace(/[ \t\n\v\f\r]+/g, " ").replace(/^ | $/g, "");
}

/**
 * A commit's subject as `git stash` puts it in its messages (git's
 * one-line pretty format): the first paragraph of the message (after any
 * leading blank lines), each line with its trailing whitespace cut, joined
 * by single spaces — `"line one\nline two\n\nbody"` → `"line one line two"`.
 */
export function onelineSubject(message: string): string {
  const lines = message.split("\n").map((line) => line.replace(/[ \t\n\v\f\r]+$/, ""));
  let i = 0;
  while (i < lines.length && lines[i] === "") i++;
  const out: string[] = [];
  while (i < lines.length && lines[i] !== "") out.push(lines[i++]!);
  return out.join(" ");
}

/**
 * Saves the index and the tracked files' working-tree changes as a stash
 * entry, then resets the index and tracked files to HEAD (`git stash push
 * [-m <message>]`): the stash commit's message is `On <branch>: <message>`
 * with `message` as given (an empty one: `WIP on <branch>: <oid7>
 * <subject>`), its reflog line (what {@link stashList} shows) the same with
 * whitespace runs made one space. With nothing to save, nothing happens (the CLI prints
 * `No local changes to save`). The stash commits' author and committer come
 * from the identity chain (`user.name`/`user.email` in the local config →
 * `defaultIdentity`), with the current time. A file of HEAD taken out of the
 * index but still in the working tree is saved with the working-tree changes
 * (as git). It refuses, before anything is written, what git 2.39 would lose:
 * a tracked path under a directory replaced by a symbolic link (git refuses
 * it too), and an untracked file or directory contents the reset to HEAD would
 * overwrite (a file `d` where the tracked `d/one` goes; git overwrites them).
 * @throws GitError `ESTASHFAIL` `you do not have the initial commit yet`, `'<path>' is beyond a symbolic link`,
 *   `the following untracked working tree files would be overwritten by stash: <paths>`; `EIDENTITY`;
 *   `EUSAGE` a message that is not a string or holds a NUL byte.
 */
export async function stashPush(ctx: GitContext, dir: string, options: StashPushOptions): Promise<void> {
  const given = options.message;
  if (given !== undefined && typeof given !== "string") throw usage("stash", "message must be a string");
  if (given?.includes("\0")) throw usage("stash", "message must not contain a NUL byte");
  await requireRepo(ctx, dir);
  const head = await headOid(ctx, dir);
  if (!head) throw opError("stash", "you do not have the initial commit yet");
  const [headTree, index] = await Promise.all([flatTree(ctx, dir, head), flatIndex(ctx, dir)]);
  const worktree = new Map<string, FileEntry>();
  let changed = diffFlat(headTree, index).length > 0;
  // As git's stash_working_tree: the working-tree commit holds every path of the index and of HEAD as the working
  // tree has it — a HEAD file taken out of the index (`git rm --cached`) but still on disk is saved too, as the reset
  // below writes HEAD's over it.
  const tracked = new Map(index);
  for (const [path, entry] of headTree) if (!index.has(path)) tracked.set(path, entry);
  for (const [path, entry] of tracked) {
    throwIfCancelled(ctx);
    const wt = await worktreeEntry(ctx, dir, path);
    if (wt?.kind === "dir" && entry.mode === 0o160000) {
      // A submodule's checkout: git's stash neither saves nor resets it (`--no-recurse-submodules`).
      worktree.set(path, entry);
      continue;
    }
    if (wt === null || wt.kind === "dir") {
      // A path under a directory the user replaced by a link: git refuses (`'d/one' is beyond a symbolic link`), as
      // the reset would remove the link to make the directory again — the link saved nowhere.
      if (wt === null && (await leadingSymlink(ctx, dir, path))) throw opError("stash", `'${path}' is beyond a symbolic link`);
      changed = true;
      continue;
    }
    if (wt.oid === entry.oid && wt.mode === entry.mode) {
      worktree.set(path, entry);
      continue;
    }
    changed = true;
    const abs = absPath(dir, path);
    const bytes = wt.mode === 0o120000 ? new TextEncoder().encode(await ctx.workspace.fs.readlink(abs)) : await readBytes(ctx, abs);
    const oid = await ctx.git.writeBlob({ fs: ctx.fs, dir, blob: bytes });
    worktree.set(path, { oid, mode: wt.mode });
  }
  if (!changed) return;
  // Back to HEAD for every tracked path (as `git reset --hard`), from what was just read: nothing is hashed twice.
  const back: TreeChange[] = [];
  for (const path of tracked.keys()) {
    const target = headTree.get(path);
    if (sameEntry(index.get(path), target) && sameEntry(worktree.get(path), target)) continue;
    back.push(target ? { path, to: target } : { path, from: index.get(path)! });
  }
  back.sort((a, b) => compareBytes(a.path, b.path));
  // What the reset would destroy that the stash does not hold — an untracked file where a tracked directory goes
  // (`d` for `d/one`), the untracked contents of a directory where a tracked file goes — is refused here, before
  // the stash is written (git 2.39 overwrites it; a reset failing half way left a stash entry and half the edits).
  refuseOverwrites("stash", { local: [], untracked: await unsaved(ctx, dir, back, worktree) });

  const { committer } = await resolveIdentity(ctx, dir, {}, true);
  const timestamp = Math.floor(Date.now() / 1000);
  const person = { name: committer.name, email: committer.email, timestamp, timezoneOffset: 0 };
  const branchRef = await currentBranchRef(ctx, dir);
  const branch = branchRef ? branchRef.replace(/^refs\/heads\//, "") : "(no branch)";
  const { commit: headCommit } = await ctx.git.readCommit({ fs: ctx.fs, dir, cache: ctx.cache, oid: head });
  const subject = onelineSubject(headCommit.message);
  const description = `${head.slice(0, 7)} ${subject}`;
  // As real git: the commit keeps `-m`'s text as given; the reflog line (what `stash list` prints) has its whitespace collapsed.
  const message = given !== undefined && given !== "" ? `On ${branch}: ${given}` : `WIP on ${branch}: ${description}`;

  const indexCommit = await ctx.git.writeCommit({
    fs: ctx.fs,
    dir,
    commit: {
      tree: await writeFlatTree(ctx, dir, index),
      parent: [head],
      author: person,
      committer: person,
      message: `index on ${branch}: ${description}\n`,
    },
  });
  // Real git writes the stash commit's message without a final newline (the index commit's has one);
  // isomorphic-git's writeCommit always adds one, so this commit is written as raw bytes.
  const who = `${person.name} <${person.email}> ${timestamp} ${formatOffset(0)}`;
  const raw =
    `tree ${await writeFlatTree(ctx, dir, worktree)}\nparent ${head}\nparent ${indexCommit}\n` +
    `author ${who}\ncommitter ${who}\n\n${message}`;
  const stashCommit = await ctx.git.writeObject({ fs: ctx.fs, dir, type: "commit", format: "content", object: new TextEncoder().encode(raw) });
  const lines = await readReflog(ctx, dir);
  lines.push({ old: ZERO, oid: stashCommit, who, message: reflogMessage(message) });
  await writeReflog(ctx, dir, lines);
  await applyChanges(ctx, dir, back, index);
}

/**
 * What writing `back` (HEAD's files) would remove that the stash's working-tree commit (`saved`) does not hold,
 * sorted: the files below a directory where a file goes (`x/y` for HEAD's `x`), and a file or link where a
 * directory goes (`d` for HEAD's `d/one`).
 */
async function unsaved(ctx: GitContext, dir: string, back: TreeChange[], saved: Map<string, FileEntry>): Promise<string[]> {
  const out = new Set<string>();
  const root = absPath(dir, "");
  for (const change of back) {
    if (!change.to) continue;
    throwIfCancelled(ctx);
    const parts = change.path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const path = parts.slice(0, i).join("/");
      const stat = await ctx.workspace.fs.lstat(absPath(dir, path)).catch(() => undefined);
      if (!stat) break;
      if (stat.isDirectory) {
        if (i < parts.length) continue;
        for (const item of await ctx.workspace.fs.find(absPath(dir, path))) {
          const rel = item.path.slice(root.length);
          if (item.type !== "dir" && !saved.has(rel)) out.add(rel);
        }
      } else if (i < parts.length && !saved.has(path)) out.add(path);
      break;
    }
  }
  return [...out].sort(compareBytes);
}

/**
 * Whether a directory above `path`'s last component is a symbolic link (git's
 * `has_symlink_leading_path`; a file there is not: `d/one` under a file `d` is
 * just missing).
 */
async function leadingSymlink(ctx: GitContext, dir: string, path: string): Promise<boolean> {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const stat = await ctx.workspace.fs.lstat(absPath(dir, parts.slice(0, i).join("/"))).catch(() => undefined);
    if (!stat || stat.isSymbolicLink) return stat !== undefined;
    if (!stat.isDirectory) return false;
  }
  return false;
}

/**
 * The stash entries, newest first, as real `git stash list` prints them:
 * `stash@{0}: On main: <message>` or `stash@{0}: WIP on main: <oid7> <subject>`.
 */
export async function stashList(ctx: GitContext, dir: string, _options: BaseWorktreeOptions): Promise<string[]> {
  await requireRepo(ctx, dir);
  const lines = await readReflog(ctx, dir);
  return lines.reverse().map((line, i) => `stash@{${i}}: ${line.message}`);
}

/**
 * The file/directory conflicts of writing `changes` over HEAD and the index:
 * a path written where a leading directory is a file in HEAD or the index
 * (the stash adds `n/y`, HEAD has a file `n`), or where HEAD or the index
 * has files below it (the stash adds `q`, HEAD has `q/x`) — unless the
 * changes remove that file. `committed` names the paths in HEAD (the
 * conflicting file, or the directory), `staged` those only in the index.
 */
function fileDirConflicts(
  changes: TreeChange[],
  headTree: Map<string, FileEntry>,
  index: Map<string, FileEntry>,
): { committed: string[]; staged: string[] } {
  const removed = new Set(changes.filter((c) => !c.to).map((c) => c.path));
  const committed = new Set<string>();
  const staged = new Set<string>();
  const note = (path: string, inHead: boolean) => (inHead ? committed : staged).add(path);
  const below = (tree: Map<string, FileEntry>) => {
    const dirs = new Set<string>();
    for (const path of tree.keys()) {
      if (removed.has(path)) continue;
      for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) dirs.add(path.slice(0, at));
    }
    return dirs;
  };
  const [headDirs, indexDirs] = [below(headTree), below(index)];
  for (const change of changes) {
    if (!change.to) continue;
    const parts = change.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      if (removed.has(prefix)) continue;
      if (headTree.has(prefix)) note(prefix, true);
      else if (index.has(prefix)) note(prefix, false);
    }
    if (headDirs.has(change.path)) note(change.path, true);
    else if (indexDirs.has(change.path)) note(change.path, false);
  }
  return { committed: [...committed].sort(compareBytes), staged: [...staged].sort(compareBytes) };
}

/** A path both the stash and the index changed since the stash's base, that does not merge: git's `CONFLICT` line. */
interface StashConflict {
  /** The write it would have been (ours → theirs), for the local-changes check. */
  change: TreeChange;
  line: string;
}

/** git's `buffer_is_binary`: a NUL byte in the first 8,000 bytes. */
function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Bytes as a string of one code unit per byte (0–255), so a line merge of it is byte-exact whatever the encoding;
 * a CR byte becomes U+E000 (never a byte's code unit), as isomorphic-git's `mergeFile` splits lines at a lone CR and
 * drops it, where git's xdiff keeps it as an ordinary byte of its line.
 */
function byteString(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return out.replaceAll("\r", "\ue000");
}

/** The inverse of {@link byteString}. */
function stringBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[i] = code === 0xe000 ? 0x0d : code;
  }
  return out;
}

/**
 * git's merge of a stash (`do_apply_stash`: `merge_ort_nonrecursive` with base = the stash's parent commit, ours =
 * the index, theirs = the stash's working-tree commit), per path: changed by the stash only → the stash's entry;
 * by both the same way → nothing; by both, as regular files (no NUL in the first 8,000 bytes) → the project's merge
 * driver ({@link boundedMergeDriver}, as {@link merge}) on the bytes, the executable bit from the side that changed
 * it; anything else both changed (modify/delete, add/add that does not merge, links, binary files, types) is a
 * conflict. Merged blobs are returned to write, not written.
 */
async function mergeStash(
  ctx: GitContext,
  dir: string,
  base: Map<string, FileEntry>,
  ours: Map<string, FileEntry>,
  theirs: Map<string, FileEntry>,
): Promise<{ changes: TreeChange[]; conflicts: StashConflict[]; blobs: Map<string, Uint8Array> }> {
  const changes: TreeChange[] = [];
  const conflicts: StashConflict[] = [];
  const blobs = new Map<string, Uint8Array>();
  const driver = boundedMergeDriver(ctx);
  const read = async (entry: FileEntry | undefined) =>
    entry ? (await ctx.git.readBlob({ fs: ctx.fs, dir, cache: ctx.cache, oid: entry.oid })).blob : new Uint8Array(0);
  const regular = (entry: FileEntry | undefined) => entry === undefined || entry.mode === 0o100644 || entry.mode === 0o100755;
  for (const { path, from: b, to: t } of diffFlat(base, theirs)) {
    throwIfCancelled(ctx);
    const o = ours.get(path);
    if (sameEntry(o, t)) continue;
    const write: TreeChange = o ? (t ? { path, from: o, to: t } : { path, from: o }) : { path, to: t! };
    if (sameEntry(o, b)) {
      changes.push(write);
      continue;
    }
    const conflict = (line: string) => conflicts.push({ change: write, line });
    if (!o || !t) {
      const [gone, kept] = o ? ["Stashed changes", "Updated upstream"] : ["Updated upstream", "Stashed changes"];
      conflict(`CONFLICT (modify/delete): ${path} deleted in ${gone} and modified in ${kept}`);
      continue;
    }
    const kind = b ? "content" : "add/add";
    if (!regular(b) || !regular(o) || !regular(t)) {
      conflict(`CONFLICT (${(o.mode === 0o120000) === (t.mode === 0o120000) ? kind : "distinct types"}): Merge conflict in ${path}`);
      continue;
    }
    const mode = b && o.mode === b.mode ? t.mode : b && t.mode === b.mode ? o.mode : o.mode === t.mode ? o.mode : undefined;
    const [baseBytes, ourBytes, theirBytes] = await Promise.all([read(b), read(o), read(t)]);
    let bytes: Uint8Array | undefined;
    if (o.oid === t.oid) bytes = ourBytes;
    else if (![baseBytes, ourBytes, theirBytes].some(isBinary)) {
      const result = await driver({
        branches: ["Stash base", "Updated upstream", "Stashed changes"],
        contents: [byteString(baseBytes), byteString(ourBytes), byteString(theirBytes)],
        path,
      });
      if (result.cleanMerge) bytes = stringBytes(result.mergedText);
    }
    if (bytes === undefined || mode === undefined) {
      conflict(`CONFLICT (${kind}): Merge conflict in ${path}`);
      continue;
    }
    const { oid } = await ctx.git.hashBlob({ object: bytes });
    if (oid === o.oid && mode === o.mode) continue;
    blobs.set(oid, bytes);
    changes.push({ path, from: o, to: { oid, mode } });
  }
  return { changes, conflicts, blobs };
}

/**
 * Applies stash entry `index` (default `0`, the newest) to the working tree
 * and drops it (`git stash pop`), merging as git 2.39 does: a three-way
 * merge from the stash's parent commit (the base) of the index (ours) and
 * the stash's working-tree commit (theirs). A file only the stash changed
 * gets its stashed bytes and mode (deleted if it deleted it); a file both
 * changed — HEAD moved since (`git stash; git pull; git stash pop`) or the
 * index did — is merged line by line with {@link merge}'s driver (on the
 * bytes; the executable bit from the side that changed it). Files new in
 * the stash are staged; the other changes are left unstaged, the index
 * kept as it was (as real git without `--index`). Untracked files saved by
 * real git's `stash push -u` (a third parent) are restored unstaged.
 * Local changes elsewhere and untracked files are kept.
 *
 * It refuses, changing nothing and keeping the entry, where git would stop
 * or leave a conflict: a path both changed that does not merge (overlapping
 * or adjacent line changes, a binary file, a link, modify/delete, add/add:
 * `CONFLICT (content): Merge conflict in a.txt; the stash was not applied
 * and is kept` — git 2.39 writes conflict markers and unmerged index
 * entries and keeps the entry; the Workspace's merge never leaves a
 * conflicted index); a path the merge writes that has local changes; an
 * untracked file in the way (for a file the stash restores from `-u`:
 * `could not restore untracked files from stash`); a file it writes that
 * meets a file where its directory goes, or a directory where it goes (the
 * stash adds `n/y` and HEAD now has a file `n`: `stash conflicts with
 * changes committed since in n`; only the index has it: `your local changes
 * … would be overwritten by stash: n`).
 * @throws GitError `ESTASHFAIL`: `no stash entries found`,
 * `stash@{<n>} is not a valid reference`, `CONFLICT (<kind>): …; the stash was not applied and is kept`,
 * `stash conflicts with changes committed since in <paths>`,
 * `your local changes to the following files would be overwritten by stash: <paths>`,
 * `could not restore untracked files from stash: <paths> already exist`.
 */
export async function stashPop(ctx: GitContext, dir: string, options: StashPopOptions): Promise<void> {
  const n = options.index ?? 0;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new GitError("EUSAGE", `git stash: index must be a non-negative integer, got ${JSON.stringify(n)}`);
  }
  await requireRepo(ctx, dir);
  const lines = await readReflog(ctx, dir);
  if (lines.length === 0) throw opError("stash", "no stash entries found");
  if (n >= lines.length) throw opError("stash", `stash@{${n}} is not a valid reference`);
  const position = lines.length - 1 - n;
  const stashOid = lines[position]!.oid;
  const { commit } = await ctx.git.readCommit({ fs: ctx.fs, dir, cache: ctx.cache, oid: stashOid });
  const base = commit.parent[0];
  if (!base) throw opError("stash", `stash@{${n}} is not a stash commit`);
  const head = await headOid(ctx, dir);
  const [baseTree, stashTree, headTree, index] = await Promise.all([
    flatTree(ctx, dir, base),
    flatTree(ctx, dir, stashOid),
    flatTree(ctx, dir, head),
    flatIndex(ctx, dir),
  ]);
  // As git's do_apply_stash: a three-way merge of the stash's working-tree commit (theirs) into the index (ours), from
  // the stash's parent (the base); what merges cleanly is written, a conflict refuses before anything is written.
  const merged = await mergeStash(ctx, dir, baseTree, index, stashTree);
  const changes = merged.changes;
  // A file the stash writes whose directory is now a file (or whose path is now a directory) in HEAD
  // or the index: refused here, before anything is written (the write would fail half-way).
  const blocked = fileDirConflicts(changes, headTree, index);
  if (blocked.committed.length > 0) throw opError("stash", `stash conflicts with changes committed since in ${blocked.committed.join(", ")}`);
  refuseOverwrites("stash", { local: blocked.staged, untracked: [] });
  // Local changes the merge would overwrite (a conflicted path counts, as for git): refused before the conflicts.
  refuseOverwrites("stash", await findOverwrites(ctx, dir, [...changes, ...merged.conflicts.map((c) => c.change)], index));
  if (merged.conflicts.length > 0) {
    throw opError("stash", `${merged.conflicts.map((c) => c.line).join("; ")}; the stash was not applied and is kept`);
  }
  for (const [oid, bytes] of merged.blobs) {
    throwIfCancelled(ctx);
    if ((await ctx.git.writeBlob({ fs: ctx.fs, dir, blob: bytes })) !== oid) throw opError("stash", `could not write the merged blob ${oid}`);
  }
  // A third parent (real git's `stash push -u`) holds untracked files: restored unstaged, never over an existing path
  // (nor under a path that is now a file).
  const untracked = commit.parent[2] ? await flatTree(ctx, dir, commit.parent[2]) : new Map<string, FileEntry>();
  const existing: string[] = [];
  for (const path of untracked.keys()) {
    throwIfCancelled(ctx);
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const stat = await ctx.workspace.fs.lstat(absPath(dir, parts.slice(0, i).join("/"))).catch(() => undefined);
      if (!stat) break;
      if (i === parts.length || !stat.isDirectory) {
        existing.push(path);
        break;
      }
    }
  }
  if (existing.length > 0) throw opError("stash", `could not restore untracked files from stash: ${existing.join(", ")} already exist`);

  await readAll(ctx, dir, [...changes.map((c) => [c.path, c.to] as const), ...untracked]);
  for (const change of changes) {
    if (change.to) continue;
    throwIfCancelled(ctx);
    const abs = absPath(dir, change.path);
    await ctx.workspace.fs.rm(abs, { force: true });
    await pruneEmptyParents(ctx, dir, change.path);
  }
  // The index is written once, after the working tree (updateIndex): staged as the stash had it, or as HEAD has it.
  const updates: IndexUpdate[] = [];
  for (const change of changes) {
    if (!change.to) continue;
    throwIfCancelled(ctx);
    const stats = await placeWorktreeFile(ctx, dir, change.path, change.to);
    // As git's unstage_changes_unless_new: a path the index had keeps its index entry (the change is left unstaged);
    // a new file is staged.
    const before = index.get(change.path);
    updates.push(before ? { filepath: change.path, oid: before.oid, mode: before.mode } : placed(change.path, change.to, stats));
  }
  for (const [path, entry] of untracked) {
    throwIfCancelled(ctx);
    await placeWorktreeFile(ctx, dir, path, entry);
  }
  await updateIndex(ctx, dir, updates);
  lines.splice(position, 1);
  await writeReflog(ctx, dir, lines);
}
