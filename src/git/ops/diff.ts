/**
 * `diff` and `diffSummary` (spec 04 §2.3): what changed from a commit to
 * the working tree, between two commits, from a commit to the index
 * (`cached`), or from the index to the working tree (`fromIndex`), as real
 * git prints it.
 *
 * The patch is `git diff`'s: per file a `diff --git a/p b/p`
 * header, `new file mode` / `deleted file mode` / `old mode` + `new mode`
 * lines, `index <old7>..<new7>[ <mode>]`, then `--- a/p` / `+++ b/p`
 * (`/dev/null` for a missing side; a tab after a name holding a space) and the hunks (3 lines of context, git's
 * `@@ -l[,n] +l[,n] @@ <function line>` headers), or `Binary files a/p and
 * b/p differ` when either side has a NUL byte in its first 8000 bytes.
 * A gitlink (mode 160000: a submodule, or a nested repository `git add` staged) is the one line // fixer GD
 * `Subproject commit <oid>` (git's diff.c without `--submodule`): `new file mode 160000`, `index <a>..<b> 160000`, // fixer GD
 * a 1-line hunk, ` sub | 1 +` in a stat; its working-tree side is the index's gitlink while its directory exists // fixer GD
 * (as `status` takes it; the nested repository's HEAD is not read) (issue 20, run 33, fixer GD). // fixer GD
 * Paths with control characters, `"`, `\` or non-ASCII bytes are quoted as
 * git quotes them (`"a/\303\244.txt"`). Hunks come from `diff`'s
 * `structuredPatch` (Myers); where several alignments are equally short,
 * git's indent heuristic may place a hunk differently. As in git, the lines
 * both sides share at the start and the end are trimmed first: only the
 * middle (with 3 lines of context either side) is searched. The search stops
 * at {@link GIT_DIFF_MAX_EDIT_LENGTH} line edits, and is not run on a middle
 * of more than {@link GIT_DIFF_MAX_SEARCH_LINES} lines on either side: such a
 * change is one hunk replacing everything from the first to the last changed
 * line.
 *
 * One diff's patch text is at most {@link GIT_DIFF_MAX_PATCH_CHARS}
 * characters, header lines included: a file whose hunks would pass what is
 * left keeps its header lines and gets one line in their place, `Patch left
 * out: …` with its added and removed line counts; once a file's header lines
 * would pass it too, one `Diff cut: N more files changed; …` line ends the
 * patch.
 *
 * @module
 */
import { structuredPatch, type StructuredPatchHunk } from "diff";
import { readStreamBytes } from "../../util/bytes.js";
import { utf8EscapeDecode, utf8EscapeEncode } from "../../util/utf8-escape.js";
import type { GitContext } from "../context.js";
import { GitError } from "../errors.js";
import { gitConfigBool, quotePath } from "../quote.js";
import { GIT_DIFF_MAX_EDIT_LENGTH, GIT_DIFF_MAX_PATCH_CHARS, GIT_DIFF_MAX_SEARCH_LINES } from "../limits.js";
import type { DiffSummaryEntry, GitDiffOptions } from "../types.js";
import { requireRepo, throwIfReadCancelled } from "../wrap.js";
import { boolOption, compareBytes, matchesAny, optionalString, pathsOption, toRepoPaths, usage, worthEntering } from "./pathspec.js";
import { blobOf, resolveRev } from "./rev.js";
import { assertIndexFile, assertTreeReadable } from "./tree-state.js";
import { fileModeOn, sameBlob, walkWorktree, type BlobSide, type WalkRow } from "./walk.js"; // fixer GD

/** One changed file: `old` missing = added, `new` missing = deleted. */
interface FileChange {
  path: string;
  old?: BlobSide;
  new?: BlobSide;
  /** Where the new side's bytes are: the object store, or the working tree. */
  newFrom: "odb" | "work";
  /** An exact rename (option `renames`): the old side's path (`path` is the new side's). */
  from?: string;
  /** `git diff <blob> <blob>`: the old side's name where it differs from `path` (no rename lines; fixer f40g1). */
  oldName?: string;
}

const REGULAR = 0o100000;
/** A gitlink's mode (a submodule or a nested repository staged by `git add`). */ // fixer GD
const GITLINK = 0o160000; // fixer GD

/**
 * git's exact rename detection (diffcore-rename.c find_exact_renames, `diff.renames` on): each added file (in path
 * order) is paired with a deleted file holding the same blob — the first in path order not paired yet, one with the
 * same base name preferred; a symbolic link (or anything not a regular file) only with the same mode. A pair becomes
 * one entry at the added file's place; the deleted file's entry goes. The halves of a type change are never paired
 * (git pairs only a file missing on one side). Renames with changed content (similarity below 100%) are not looked for.
 */
function pairRenames(list: FileChange[]): FileChange[] {
  const count = new Map<string, number>();
  for (const c of list) count.set(c.path, (count.get(c.path) ?? 0) + 1);
  const single = (c: FileChange) => count.get(c.path) === 1;
  const sources = new Map<string, FileChange[]>();
  for (const c of list) {
    if (c.old && !c.new && single(c)) {
      const same = sources.get(c.old.oid);
      if (same) same.push(c);
      else sources.set(c.old.oid, [c]);
    }
  }
  if (sources.size === 0) return list;
  const used = new Set<FileChange>();
  const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  const out: FileChange[] = [];
  for (const c of list) {
    if (!(c.new && !c.old && single(c))) {
      out.push(c);
      continue;
    }
    const target = c.new;
    let best: FileChange | undefined;
    let bestScore = 0;
    for (const s of sources.get(target.oid) ?? []) {
      if (used.has(s)) continue;
      const src = s.old!;
      if (((src.mode & TYPE_MASK) !== REGULAR || (target.mode & TYPE_MASK) !== REGULAR) && src.mode !== target.mode) continue;
      const score = 1 + (base(s.path) === base(c.path) ? 1 : 0);
      if (score > bestScore) {
        best = s;
        bestScore = score;
        if (score === 2) break;
      }
    }
    if (!best) {
      out.push(c);
      continue;
    }
    used.add(best);
    out.push({ ...c, old: best.old!, from: best.path });
  }
  return used.size === 0 ? list : out.filter((c) => !used.has(c));
}

const ZERO = "0000000";
const TYPE_MASK = 0o170000;

/** Checks options and lists the changed files (sorted by path). */
async function changes(ctx: GitContext, dir: string, op: string, options: GitDiffOptions): Promise<FileChange[]> {
  const renames = boolOption(op, options, "renames");
  const list = await changedFiles(ctx, dir, op, options);
  return renames ? pairRenames(list) : list;
}

async function changedFiles(ctx: GitContext, dir: string, op: string, options: GitDiffOptions): Promise<FileChange[]> {
  const givenRef = optionalString(op, options, "ref");
  const ref = givenRef ?? "HEAD";
  const to = optionalString(op, options, "to");
  const cached = boolOption(op, options, "cached");
  const fromIndex = boolOption(op, options, "fromIndex");
  const paths = pathsOption(op, options);
  if (cached && to !== undefined) throw usage(op, "cached compares ref with the index: it cannot be combined with to");
  if (fromIndex && (givenRef !== undefined || to !== undefined || cached)) {
    throw usage(op, "fromIndex compares the index with the working tree: it cannot be combined with ref, to or cached");
  }
  await requireRepo(ctx, dir);
  // Every form but ref..to reads the index: refuse one that is not a regular file (isomorphic-git would read it as empty).
  if (to === undefined) await assertIndexFile(ctx, dir);
  const specs = toRepoPaths(dir, paths);
  // "HEAD" goes to the walk as is: on an unborn branch it is the empty tree.
  const from = ref === "HEAD" && to === undefined ? "HEAD" : await resolveRev(ctx, dir, ref);
  if (to === undefined && from !== "HEAD" && (await blobOf(ctx, dir, ref, from)) !== undefined) {
    throw usage(op, "a blob is compared only with another blob, with no paths (git diff <blob> <blob>)"); // fixer f40g1
  }
  const out: FileChange[] = [];
  const push = (path: string, a: BlobSide | undefined, b: BlobSide | undefined, newFrom: "odb" | "work") => {
    if (a && b && (a.mode & TYPE_MASK) !== (b.mode & TYPE_MASK)) {
      out.push({ path, old: a, newFrom }, { path, new: b, newFrom });
    } else {
      out.push({ path, ...(a ? { old: a } : {}), ...(b ? { new: b } : {}), newFrom });
    }
  };
  /** The working-tree side as git compares it: with `core.filemode` off a regular file keeps the mode of `base`. */
  const workSide = (work: BlobSide | undefined, base: BlobSide, filemode: boolean): BlobSide | undefined =>
    work && !filemode && (work.mode & TYPE_MASK) === 0o100000 && (base.mode & TYPE_MASK) === 0o100000 ? { oid: work.oid, mode: base.mode } : work;
  // Gitlinks (mode 160000) ride along: the working tree's side is the index's gitlink where its directory exists, as status takes it. // fixer GD
  const gitlinks: WalkRow[] = []; // fixer GD
  const withLinks = (rows: WalkRow[]) => (gitlinks.length === 0 ? rows : [...rows, ...gitlinks].sort((p, q) => compareBytes(p.path, q.path))); // fixer GD
  if (fromIndex) {
    const [filemode, walked] = await Promise.all([fileModeOn(ctx, dir), walkWorktree(ctx, dir, { specs, gitlinks })]); // fixer GD
    const rows = withLinks(walked); // fixer GD
    for (const { path, stage, work } of rows) {
      if (!stage) continue;
      const now = workSide(work, stage, filemode);
      if (!sameBlob(stage, now)) push(path, stage, now, "work");
    }
    return out;
  }
  if (to === undefined && !cached) {
    const [filemode, walked] = await Promise.all([fileModeOn(ctx, dir), walkWorktree(ctx, dir, { ref: from, specs, gitlinks })]); // fixer GD
    const rows = withLinks(walked); // fixer GD
    for (const { path, head, stage, work } of rows) {
      if (head && !stage) push(path, head, undefined, "work");
      else if (head && stage) {
        const now = workSide(work, stage, filemode);
        if (!sameBlob(head, now)) push(path, head, now, "work");
      } else if (!head && stage && work) push(path, undefined, work, "work");
    }
    return out;
  }
  const { git } = ctx;
  const toOid = to === undefined ? undefined : await resolveRev(ctx, dir, to);
  // `git diff <blob> <blob>` (`HEAD~1:a.txt HEAD:b.txt`): the two blobs, named by their paths (fixer f40g1, run 40).
  const blobs = toOid === undefined ? [] : await Promise.all([blobOf(ctx, dir, ref, from), blobOf(ctx, dir, to!, toOid)]);
  if (blobs[0] !== undefined || blobs[1] !== undefined) {
    const [a, b] = blobs;
    if (a === undefined || b === undefined || specs.some((p) => p !== "")) throw usage(op, "a blob is compared only with another blob, with no paths (git diff <blob> <blob>)");
    if (sameBlob(a, b)) return [];
    const side = (blob: typeof a): BlobSide => ({ oid: blob.oid, mode: blob.mode });
    if ((a.mode & TYPE_MASK) !== (b.mode & TYPE_MASK)) return [{ path: a.name, old: side(a), newFrom: "odb" }, { path: b.name, new: side(b), newFrom: "odb" }];
    return [{ path: b.name, ...(a.name !== b.name ? { oldName: a.name } : {}), old: side(a), new: side(b), newFrom: "odb" }];
  }
  // Both trees within GIT_MAX_TREE_ENTRIES before the walk (a "git bomb" costs one read per level here).
  await assertTreeReadable(ctx, dir, from);
  if (toOid !== undefined) await assertTreeReadable(ctx, dir, toOid);
  const newTree = toOid === undefined ? git.STAGE() : git.TREE({ ref: toOid });
  type Entry = import("isomorphic-git").WalkerEntry | null;
  const side = async (entry: Entry): Promise<{ type: string; oid: string; mode: number } | undefined> => {
    if (!entry) return undefined;
    const type = await entry.type();
    return { type, oid: await entry.oid(), mode: await entry.mode() };
  };
  await git.walk({
    fs: ctx.fs,
    dir,
    cache: ctx.cache,
    trees: [git.TREE({ ref: from }), newTree],
    map: async (filepath: string, [a, b]: Entry[]) => {
      if (filepath === ".") return undefined;
      throwIfReadCancelled(ctx);
      if (!worthEntering(filepath, specs)) return null;
      const [x, y] = await Promise.all([side(a), side(b)]);
      if (x?.type === "tree" && y?.type === "tree" && x.oid === y.oid) return null;
      if (!matchesAny(filepath, specs)) return undefined;
      // A gitlink (tree entry of type commit, mode 160000) is one side too, as a blob is (fixer GD). // fixer GD
      const oldBlob = x?.type === "blob" || x?.type === "commit" ? { oid: x.oid, mode: x.mode } : undefined; // fixer GD
      const newBlob = y?.type === "blob" || y?.type === "commit" ? { oid: y.oid, mode: y.mode } : undefined; // fixer GD
      if ((oldBlob || newBlob) && !sameBlob(oldBlob, newBlob)) push(filepath, oldBlob, newBlob, "odb");
      return undefined;
    },
  });
  return out.sort((p, q) => compareBytes(p.path, q.path));
}

async function readSide(ctx: GitContext, dir: string, change: FileChange, which: "old" | "new"): Promise<Uint8Array> {
  const blob = change[which];
  if (!blob) return new Uint8Array(0);
  // git's diff of a gitlink (diff.c, no --submodule): its text is the one line `Subproject commit <oid>`. // fixer GD
  if ((blob.mode & TYPE_MASK) === GITLINK) return new TextEncoder().encode(`Subproject commit ${blob.oid}\n`); // fixer GD
  if (which === "new" && change.newFrom === "work") {
    const full = `${dir === "/" ? "" : dir}/${change.path}`;
    if ((blob.mode & TYPE_MASK) === 0o120000) return new TextEncoder().encode(await ctx.workspace.fs.readlink(full));
    const bytes = await readStreamBytes(await ctx.workspace.fs.readFile(full)); // fixer GA
    return ctx.filters ? ctx.filters.toGit(full, bytes) : bytes; // fixer GA: compared as `add` would store it
  }
  // readObject's content is a view of the inflated object; readBlob copies it once more (12 MiB a 12 MiB blob).
  const { type, object } = await ctx.git.readObject({ fs: ctx.fs, dir, oid: blob.oid, format: "content", cache: ctx.cache });
  if (type !== "blob" || !(object instanceof Uint8Array)) throw new Error(`object ${blob.oid} is a ${type}, not a blob`);
  return object;
}

/**
 * Whether git diffs the side of `path` holding `bytes` as binary (diff.c's `diff_filespec_is_binary`): as the
 * working tree's `.gitattributes` say — `-diff` or `binary` binary, `diff` text (fixer GA, run 36) — else by
 * {@link isBinary}.
 */
async function sideIsBinary(ctx: GitContext, path: string, bytes: Uint8Array): Promise<boolean> { // fixer GA
  const attr = ctx.filters ? await ctx.filters.diffAttribute(path) : undefined; // fixer GA
  return attr === undefined ? isBinary(bytes) : !attr; // fixer GA
} // fixer GA

/** git's `buffer_is_binary`: a NUL byte in the first 8000 bytes. */
function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * git's `core.quotePath` of the repository at `dir` (default on), read as git reads a boolean: `false`/`no`/`off`/`0`
 * and an empty value are off, `true`/`yes`/`on`/a bare key/any other integer are on (any case).
 * @throws GitError `ECONFIG` `bad boolean config value '<v>' for 'core.quotepath'` (git: fatal, exit 128).
 */
export async function quotePathOn(ctx: GitContext, dir: string): Promise<boolean> {
  const value: unknown = await ctx.git.getConfig({ fs: ctx.fs, dir, path: "core.quotepath" }).catch(() => undefined);
  return gitConfigBool(value, "core.quotepath", true);
}

/** xdiff's default function-line rule: a line starting with a letter, `_` or `$`, cut to 80 bytes, trailing blanks dropped. */
function functionLine(line: string): string | undefined {
  if (!/^[A-Za-z_$]/.test(line)) return undefined;
  const bytes = utf8EscapeEncode(line);
  const cut = bytes.length > 80 ? utf8EscapeDecode(bytes.subarray(0, 80)) : line;
  return cut.replace(/[ \t\n\v\f\r]+$/, "");
}

/**
 * The lines of a text as the `diff` package's line diff cuts them (each line
 * with its LF; a last line without one as it is), kept as offsets and hashes
 * rather than strings: line `i` is `text.slice(starts[i], starts[i + 1])`.
 * 8 bytes a line where an array of strings takes about 100.
 */
interface LineIndex {
  text: string;
  /** Line count. */
  n: number;
  /** `n + 1` offsets (UTF-16 code units): where each line starts, then `text.length`. */
  starts: Uint32Array;
  /** FNV-1a of each line's code units (LF included). Equal lines have equal hashes; the converse is checked. */
  hashes: Int32Array;
}

function lineIndex(text: string): LineIndex {
  const n = lineCount(text);
  const starts = new Uint32Array(n + 1);
  const hashes = new Int32Array(n);
  let line = 0;
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    hash = Math.imul(hash ^ c, 0x01000193);
    if (c === 10) {
      hashes[line] = hash;
      starts[++line] = i + 1;
      hash = 0x811c9dc5 | 0;
    }
  }
  if (line < n) hashes[line] = hash;
  starts[n] = text.length;
  return { text, n, starts, hashes };
}

/** Whether line `i` of `a` and line `j` of `b` are the same text (no copy made). */
function sameLine(a: LineIndex, i: number, b: LineIndex, j: number): boolean {
  if (a.hashes[i] !== b.hashes[j]) return false;
  const s = a.starts[i]!;
  const t = b.starts[j]!;
  const length = a.starts[i + 1]! - s;
  if (b.starts[j + 1]! - t !== length) return false;
  for (let k = 0; k < length; k++) if (a.text.charCodeAt(s + k) !== b.text.charCodeAt(t + k)) return false;
  return true;
}

function lineText(index: LineIndex, i: number): string {
  return index.text.slice(index.starts[i], index.starts[i + 1]);
}

/**
 * A lower bound on the line edits (insertions + deletions) between lines
 * `[head, a.n - tail)` of `a` and `[head, b.n - tail)` of `b`: `N + M - 2I`,
 * `I` the number of lines both sides share as multisets of hashes — at
 * least the longest common subsequence, so the bound never passes the edit
 * distance the Myers search finds. Sorts a copy of each side's hashes.
 */
function editLowerBound(a: LineIndex, b: LineIndex, head: number, tail: number): number {
  const x = a.hashes.slice(head, a.n - tail).sort();
  const y = b.hashes.slice(head, b.n - tail).sort();
  let shared = 0;
  for (let i = 0, j = 0; i < x.length && j < y.length; ) {
    if (x[i] === y[j]) {
      shared++;
      i++;
      j++;
    } else if (x[i]! < y[j]!) i++;
    else j++;
  }
  return x.length + y.length - 2 * shared;
}

/**
 * The hunk of a change past {@link GIT_DIFF_MAX_EDIT_LENGTH} line edits (where
 * the Myers search gives up): one hunk (linear time) that removes every old
 * line and adds every new one between the common leading and trailing lines
 * (`head`, `tail`), with 3 lines of context, in `structuredPatch`'s shape (no
 * LF ending a line; `\ No newline at end of file` after a last line without
 * one). Applying it gives the new text.
 *
 * Its lines are built only when their text fits `room` (`undefined` back
 * otherwise; `null`: never), so a rewritten file past the room costs its two
 * line indexes, not a prefixed copy of every line.
 */
function replacementHunk(a: LineIndex, b: LineIndex, head: number, tail: number, room: number | null): StructuredPatchHunk | undefined {
  if (room === null) return undefined;
  const from = Math.max(0, head - 3);
  const to = Math.min(a.n, a.n - tail + 3);
  // Each line: its sign, its text and an LF (HUNK_OVERHEAD per side covers the `@@` line and a `\ No newline…` line).
  const size =
    HUNK_OVERHEAD * 2 + (a.starts[to]! - a.starts[from]!) + (to - from) + (b.starts[b.n - tail]! - b.starts[head]!) + (b.n - tail - head);
  if (size > room) return undefined;
  const lines: string[] = [];
  const push = (sign: string, line: string) => {
    if (line.endsWith("\n")) lines.push(sign + line.slice(0, -1));
    else lines.push(sign + line, "\\ No newline at end of file");
  };
  for (let i = from; i < head; i++) push(" ", lineText(a, i));
  for (let i = head; i < a.n - tail; i++) push("-", lineText(a, i));
  for (let i = head; i < b.n - tail; i++) push("+", lineText(b, i));
  for (let i = a.n - tail; i < to; i++) push(" ", lineText(a, i));
  const context = head - from + (to - (a.n - tail));
  return { oldStart: from + 1, oldLines: context + a.n - tail - head, newStart: from + 1, newLines: context + b.n - tail - head, lines };
}

/** Room a whole-file hunk takes beyond its lines and their signs: the `@@` line and a `\ No newline at end of file`. */
const HUNK_OVERHEAD = 64;

/** The lines of `text` as the `diff` package's line diff cuts them (each with its LF; a last line without one), counted. */
function lineCount(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return text.length > 0 && !text.endsWith("\n") ? n + 1 : n;
}

/**
 * The hunks of a text change in git's format, and the counts of added and
 * removed lines. `room` bounds the text built (UTF-16 code units): past it
 * the text is dropped (`cut`) and only the counts go on; `null` counts only.
 */
function hunks(oldText: string, newText: string, room: number | null): { text: string; insertions: number; deletions: number; cut: boolean } {
  if ((oldText === "") !== (newText === "")) {
    // A whole file added or removed: counted without the line search (which holds every line several times over).
    const lines = lineCount(oldText || newText);
    const size = (oldText || newText).length + lines + HUNK_OVERHEAD;
    if (room === null || size > room) return { text: "", insertions: oldText ? 0 : lines, deletions: oldText ? lines : 0, cut: true };
  }
  const a = lineIndex(oldText);
  const b = lineIndex(newText);
  let head = 0;
  while (head < a.n && head < b.n && sameLine(a, head, b, head)) head++;
  let tail = 0;
  while (tail < a.n - head && tail < b.n - head && sameLine(a, a.n - 1 - tail, b, b.n - 1 - tail)) tail++;
  if (head === a.n && head === b.n) return { text: "", insertions: 0, deletions: 0, cut: false };
  let patch: { hunks: StructuredPatchHunk[] } | undefined;
  // The Myers search is bounded (GIT_DIFF_MAX_EDIT_LENGTH: unbounded it costs N² line comparisons for a rewritten
  // file) and costs about 200 bytes a line even when it gives up: skipped when the lower bound shows it would.
  // Only the lines between the common head and tail are searched, as git's xdiff trims them first (searching them
  // too costs ~200 bytes a line and may align equal lines unlike git); a middle past GIT_DIFF_MAX_SEARCH_LINES on
  // either side is not searched at all. The hunks then get their line numbers and up to 3 context lines back.
  const aEnd = a.n - tail;
  const bEnd = b.n - tail;
  if (aEnd - head <= GIT_DIFF_MAX_SEARCH_LINES && bEnd - head <= GIT_DIFF_MAX_SEARCH_LINES && editLowerBound(a, b, head, tail) <= GIT_DIFF_MAX_EDIT_LENGTH) {
    const oldMiddle = oldText.slice(a.starts[head], a.starts[aEnd]);
    const newMiddle = newText.slice(b.starts[head], b.starts[bEnd]);
    patch = structuredPatch("a", "b", oldMiddle, newMiddle, "", "", { context: 3, maxEditLength: GIT_DIFF_MAX_EDIT_LENGTH });
    const list = patch?.hunks ?? [];
    for (const hunk of list) {
      hunk.oldStart += head;
      hunk.newStart += head;
    }
    // The middle starts and ends with a changed line, so its first hunk has no context before and its last none after.
    const first = list[0];
    const last = list[list.length - 1];
    if (first && last) {
      const before: string[] = [];
      for (let i = Math.max(0, head - 3); i < head; i++) before.push(" " + lineText(a, i).slice(0, -1));
      first.lines.unshift(...before);
      first.oldStart -= before.length;
      first.newStart -= before.length;
      first.oldLines += before.length;
      first.newLines += before.length;
      const after = Math.min(3, tail);
      for (let i = aEnd; i < aEnd + after; i++) {
        const line = lineText(a, i);
        if (line.endsWith("\n")) last.lines.push(" " + line.slice(0, -1));
        else last.lines.push(" " + line, "\\ No newline at end of file");
      }
      last.oldLines += after;
      last.newLines += after;
    }
  }
  if (!patch) {
    const hunk = replacementHunk(a, b, head, tail, room);
    if (!hunk) return { text: "", insertions: b.n - tail - head, deletions: a.n - tail - head, cut: true };
    patch = { hunks: [hunk] };
  }
  let text = "";
  let insertions = 0;
  let deletions = 0;
  let func = "";
  let limit = -1;
  let cut = room === null || room <= 0;
  for (const hunk of patch.hunks) {
    if (cut) {
      for (const line of hunk.lines) {
        if (line[0] === "+") insertions++;
        else if (line[0] === "-") deletions++;
      }
      continue;
    }
    const s1 = hunk.oldStart - 1;
    for (let l = s1 - 1; l !== limit && l >= 0; l--) {
      const found = functionLine(lineText(a, l).replace(/\n$/, ""));
      if (found !== undefined) {
        func = found;
        break;
      }
    }
    limit = s1 - 1;
    const range = (start: number, count: number) => `${count === 0 ? start - 1 : start}${count === 1 ? "" : `,${count}`}`;
    text += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${func ? ` ${func}` : ""}\n`;
    for (const line of hunk.lines) {
      if (line[0] === "+") insertions++;
      else if (line[0] === "-") deletions++;
      if (cut) continue;
      text += line + "\n";
      if (text.length > room!) {
        cut = true;
        text = "";
      }
    }
  }
  return { text: cut ? "" : text, insertions, deletions, cut };
}

function abbrev(blob: BlobSide | undefined): string {
  return blob ? blob.oid.slice(0, 7) : ZERO;
}

function modeText(mode: number): string {
  return mode.toString(8).padStart(6, "0");
}

/**
 * One file's patch and its counts; its hunks take at most `room` characters
 * (else `Patch left out: …` in their place; `null`: counts only, no hunks).
 */
async function filePatch(ctx: GitContext, dir: string, change: FileChange, room: number | null, fully = true): Promise<PatchPart> {
  const { path, old, new: now, from, oldName } = change;
  const a = quotePath(`a/${from ?? oldName ?? path}`, { fully });
  const b = quotePath(`b/${path}`, { fully });
  let text = `diff --git ${a} ${b}\n`;
  if (!old) text += `new file mode ${modeText(now!.mode)}\nindex ${ZERO}..${abbrev(now)}\n`;
  else if (!now) text += `deleted file mode ${modeText(old.mode)}\nindex ${abbrev(old)}..${ZERO}\n`;
  else {
    if (old.mode !== now.mode) text += `old mode ${modeText(old.mode)}\nnew mode ${modeText(now.mode)}\n`;
    // An exact rename (the only kind detected): git's extended header lines, and no hunks.
    if (from !== undefined) text += `similarity index 100%\nrename from ${quotePath(from, { fully })}\nrename to ${quotePath(path, { fully })}\n`;
    if (old.oid !== now.oid) text += `index ${abbrev(old)}..${abbrev(now)}${old.mode === now.mode ? ` ${modeText(now.mode)}` : ""}\n`;
  }
  if (old && now && old.oid === now.oid) {
    // git's diffstat still says `Bin` for a binary file whose content did not change (renamed, or its mode changed).
    if (room === null && (await sideIsBinary(ctx, from ?? path, await readSide(ctx, dir, change, "old")))) return { text, insertions: 0, deletions: 0, binary: { oldBytes: 0, newBytes: 0 } }; // fixer GA
    return { text, insertions: 0, deletions: 0 };
  }
  const [before, after] = await Promise.all([readSide(ctx, dir, change, "old"), readSide(ctx, dir, change, "new")]);
  if ((await sideIsBinary(ctx, from ?? path, before)) || (await sideIsBinary(ctx, path, after))) { // fixer GA
    return {
      text: text + `Binary files ${old ? a : "/dev/null"} and ${now ? b : "/dev/null"} differ\n`,
      insertions: 0,
      deletions: 0,
      binary: { oldBytes: before.length, newBytes: after.length },
    };
  }
  // The room left for hunks: past the header lines so far and the `---`/`+++` lines still to come.
  // A text that is not UTF-8 throughout keeps its bytes, as real git prints them: each byte that is not UTF-8 as
  // U+DC00 + byte (surrogateescape), which the shell writes back as that byte.
  const body = hunks(utf8EscapeDecode(before), utf8EscapeDecode(after), room === null ? null : room - text.length - (a.length + b.length + 16));
  if (body.cut) {
    if (body.insertions === 0 && body.deletions === 0) return { text, insertions: 0, deletions: 0 };
    const note =
      room !== null
        ? `Patch left out: +${body.insertions} -${body.deletions} lines; the diff's patch text would pass ${GIT_DIFF_MAX_PATCH_CHARS} characters (GIT_DIFF_MAX_PATCH_CHARS): diff fewer paths at a time\n`
        : "";
    return { text: text + note, insertions: body.insertions, deletions: body.deletions };
  }
  if (body.text === "") return { text, insertions: 0, deletions: 0 };
  // git ends a `---`/`+++` name holding a space with a tab (for GNU patch).
  const label = (name: string) => (name.includes(" ") ? `${name}\t` : name);
  text += `--- ${label(old ? a : "/dev/null")}\n+++ ${label(now ? b : "/dev/null")}\n` + body.text;
  return { text, insertions: body.insertions, deletions: body.deletions };
}

/** One file's patch text and counts (`binary`: sizes when either side is binary). */
interface PatchPart {
  text: string;
  insertions: number;
  deletions: number;
  binary?: { oldBytes: number; newBytes: number };
}

/**
 * The counts of `list`'s changes, no patch text (`diffSummary`): one file
 * after another, as {@link patchText} reads them. Each file's two sides are
 * held whole while it is counted, so 8 files at a time (as before) held up to
 * 16 sides (8 rewritten 12 MiB files grew memory by ~250–340 MiB).
 */
async function counts(ctx: GitContext, dir: string, list: FileChange[]): Promise<PatchPart[]> {
  const out: PatchPart[] = [];
  for (const change of list) {
    throwIfReadCancelled(ctx);
    out.push(await filePatch(ctx, dir, change, null));
  }
  return out;
}

/**
 * The patch of `list`, one file after another, at most
 * {@link GIT_DIFF_MAX_PATCH_CHARS} characters in all, header lines and the
 * closing `Diff cut` line included
 * (files in order: one whose hunks do not fit what is left gets `Patch left
 * out: …`; once a file's header lines do not fit either, the patch ends with
 * one `Diff cut: …` line counting the files not shown).
 */
async function patchText(ctx: GitContext, dir: string, list: FileChange[]): Promise<string> {
  let text = "";
  // The files get the bound less the longest cut line this list can end with, so text and cut line never pass it.
  const room = GIT_DIFF_MAX_PATCH_CHARS - diffCut(list.length).length;
  const fully = await quotePathOn(ctx, dir);
  for (let i = 0; i < list.length; i++) {
    throwIfReadCancelled(ctx);
    const part = await filePatch(ctx, dir, list[i]!, room - text.length, fully);
    if (text.length + part.text.length > room) return text + diffCut(list.length - i);
    text += part.text;
  }
  return text;
}

/** The line ending a patch cut by {@link GIT_DIFF_MAX_PATCH_CHARS} with `rest` files not shown. */
export function diffCut(rest: number): string {
  return (
    `Diff cut: ${rest} more ${rest === 1 ? "file" : "files"} changed; the diff's patch text would pass ${GIT_DIFF_MAX_PATCH_CHARS} characters ` +
    "(GIT_DIFF_MAX_PATCH_CHARS): diff fewer paths at a time, or list the changes with diffSummary (git diff --stat)\n"
  );
}

/**
 * `diff` (spec 04 §2.3): the unified patch, limited to `paths` (exact or
 * directory prefix), `""` when nothing changed:
 *
 * - default: from `ref` (default `"HEAD"`, any revision expression) to the
 *   working tree (`git diff <ref>`: tracked files and files added to the
 *   index; untracked files are not shown);
 * - `to`: from `ref` to the commit `to` (`git diff <ref> <to>`);
 * - `cached`: from `ref` (default `"HEAD"`; the empty tree before the first
 *   commit) to the index (`git diff --cached [<ref>]`);
 * - `fromIndex`: from the index to the working tree (plain `git diff`: only
 *   the unstaged changes).
 *
 * Format: see the module description.
 *
 * A tree compared (`ref`, `to`) that expands to more than
 * `GIT_MAX_TREE_ENTRIES` paths is refused before the walk; the `signal`
 * option is checked before each path and file read (issue 20).
 * @throws NotARepositoryError · PathOutsideRepoError · GitError `EUSAGE` (bad options; `cached` with `to`; `fromIndex` with `ref`, `to` or `cached`) · `EDIFFFAIL` (e.g. `unknown revision 'x'`; `tree too large: commit <oid> expands to more than 100000 files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not read a tree this large`) · `ECANCELED` (the signal aborted; nothing changed).
 */
export async function diff(ctx: GitContext, dir: string, options: GitDiffOptions): Promise<string> {
  const list = await changes(ctx, dir, "diff", options);
  return patchText(ctx, dir, list);
}

/**
 * `diffSummary` (spec 04 §2.3, `git diff --numstat` with a status): per
 * changed file of {@link diff} (same options and sides), `A`/`M`/`D`/`T` and
 * the added and removed line counts (`0`/`0` for a binary file — which also
 * gets `binary` with both sides' sizes — or a mode-only change). A file whose
 * type changed (file ↔ symbolic link) is one `T` entry (git's `--name-status`)
 * counting both sides, as `git diff --numstat` counts it. With `renames`, an
 * exact rename (see `pairRenames`) is one `R` entry with `from` the old path
 * and `0`/`0` (`binary` `0`/`0` for a binary file), as `git diff --numstat`.
 * @throws as {@link diff}.
 */
export async function diffSummary(ctx: GitContext, dir: string, options: GitDiffOptions): Promise<DiffSummaryEntry[]> {
  const list = await changes(ctx, dir, "diff", options);
  const parts = await counts(ctx, dir, list);
  const out: DiffSummaryEntry[] = [];
  list.forEach((change, i) => {
    const part = parts[i]!;
    const entry: DiffSummaryEntry = {
      path: change.path,
      ...(change.from !== undefined ? { from: change.from } : {}),
      status: !change.old ? "A" : !change.new ? "D" : change.from !== undefined ? "R" : "M",
      insertions: part.insertions,
      deletions: part.deletions,
      ...(part.binary ? { binary: part.binary } : {}),
    };
    const last = out[out.length - 1];
    if (last?.path === entry.path) {
      const binary = last.binary || entry.binary ? { oldBytes: last.binary?.oldBytes ?? 0, newBytes: entry.binary?.newBytes ?? 0 } : undefined;
      out[out.length - 1] = {
        path: entry.path,
        status: "T",
        insertions: last.insertions + entry.insertions,
        deletions: last.deletions + entry.deletions,
        ...(binary ? { binary } : {}),
      };
    } else out.push(entry);
  });
  return out;
}
