/**
 * Revision expressions (spec 04 §2.3 `revParse`), as git's
 * `gitrevisions(7)` spells them, for every operation that takes a `ref`:
 *
 * - a base: a full or short (≥ 4 hex digits) object name, `HEAD`/`@`, or a
 *   ref name resolved as git does (`<name>`, `refs/<name>`,
 *   `refs/tags/<name>`, `refs/heads/<name>`, `refs/remotes/<name>`,
 *   `refs/remotes/<name>/HEAD`);
 * - followed by any chain of `^` (first parent), `^N` (N-th parent, `^0`
 *   the commit itself), `~` / `~N` (N-th first-parent ancestor), `^{}`
 *   (peel tags), `^{commit}`, `^{tree}` (a tree stays itself);
 * - optionally `:<path>`, the object at that path in the tree the revision
 *   names (a commit's, or a tree itself: `HEAD^{tree}:d`, `<tree-oid>:d`);
 * - or `:<path>` / `:<n>:<path>` alone: the index's entry for `<path>` at
 *   stage `<n>` (0 when left out; this library never writes the unmerged
 *   stages 1–3); `:/<text>`, the youngest commit reachable from any ref
 *   whose message matches `<text>` (issue 20, run 40, fixer f40g1; before,
 *   `:<path>` read HEAD's tree and `:/<text>` failed).
 *
 * Failures are plain `Error`s (`unknown revision '<rev>'`) that the
 * operation wrapper turns into `GitError` `E<OP>FAIL`.
 *
 * @module
 */
import type { GitContext } from "../context.js";
import { absPath, flatIndex } from "./tree-state.js";

const FULL_OID = /^[0-9a-f]{40}$/;
const SHORT_OID = /^[0-9a-f]{4,39}$/i;

/** A parsed revision: base name, navigation steps, optional `:path`. */
interface ParsedRev {
  base: string;
  steps: Array<{ kind: "parent"; n: number } | { kind: "ancestor"; n: number } | { kind: "peel"; to: "" | "commit" | "tree" }>;
  path?: string;
}

function unknown(rev: string): Error {
  return new Error(`unknown revision '${rev}'`);
}

function parse(rev: string): ParsedRev {
  let expr = rev;
  let path: string | undefined;
  const colon = expr.indexOf(":");
  if (colon >= 0) {
    path = expr.slice(colon + 1).replace(/^\/+|\/+$/g, "");
    expr = expr.slice(0, colon) || "HEAD";
  }
  const m = /^([^~^]*)(.*)$/s.exec(expr)!;
  const base = m[1] === "" || m[1] === "@" ? "HEAD" : m[1]!;
  const steps: ParsedRev["steps"] = [];
  let rest = m[2]!;
  while (rest !== "") {
    const step = /^(\^\{(commit|tree|)\}|\^(\d*)|~(\d*))/.exec(rest);
    if (!step) throw unknown(rev);
    if (step[1]!.startsWith("^{")) steps.push({ kind: "peel", to: step[2] as "" | "commit" | "tree" });
    else if (step[1]!.startsWith("^")) steps.push({ kind: "parent", n: step[3] === "" ? 1 : Number(step[3]) });
    else steps.push({ kind: "ancestor", n: step[4] === "" ? 1 : Number(step[4]) });
    rest = rest.slice(step[1]!.length);
  }
  return path === undefined ? { base, steps } : { base, steps, path };
}

async function resolveBase(ctx: GitContext, dir: string, base: string, rev: string): Promise<string> {
  if (FULL_OID.test(base)) return base;
  try {
    return await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: base });
  } catch (error) {
    if ((error as { code?: string }).code !== "NotFoundError") throw error;
  }
  if (SHORT_OID.test(base)) {
    try {
      return await ctx.git.expandOid({ fs: ctx.fs, dir, oid: base.toLowerCase(), cache: ctx.cache });
    } catch (error) {
      if ((error as { code?: string }).code === "AmbiguousError") throw new Error(`short object ID ${base} is ambiguous`);
      if ((error as { code?: string }).code !== "NotFoundError") throw error;
    }
  }
  throw unknown(rev);
}

/** The commit `oid` names, through annotated tags. */
export async function peelToCommit(ctx: GitContext, dir: string, oid: string, rev: string): Promise<{ oid: string; parent: string[]; tree: string }> {
  try {
    const { oid: commitOid, commit } = await ctx.git.readCommit({ fs: ctx.fs, dir, oid, cache: ctx.cache });
    return { oid: commitOid, parent: commit.parent, tree: commit.tree };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "NotFoundError" || code === "ObjectTypeError") throw new Error(`revision '${rev}' does not name a commit`);
    throw error;
  }
}

/** The tree `oid` names, as git's `^{tree}` peels: a tree itself, or a commit's tree (through annotated tags). */
async function peelToTree(ctx: GitContext, dir: string, oid: string, rev: string): Promise<string> {
  try {
    return (await ctx.git.readTree({ fs: ctx.fs, dir, oid, cache: ctx.cache })).oid;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "NotFoundError" || code === "ObjectTypeError") throw new Error(`revision '${rev}' does not name a tree`);
    throw error;
  }
}

async function peelTags(ctx: GitContext, dir: string, oid: string): Promise<string> {
  for (;;) {
    const { type, object } = await ctx.git.readObject({ fs: ctx.fs, dir, oid, cache: ctx.cache, format: "parsed" });
    if (type !== "tag") return oid;
    oid = (object as { object: string }).object;
  }
}

/**
 * The 40-hex object name of the revision `rev` in the repository at `dir`.
 * @throws Error `unknown revision '<rev>'` when a name, parent or path does not exist.
 */
export async function resolveRev(ctx: GitContext, dir: string, rev: string): Promise<string> {
  if (rev.startsWith(":")) return resolveIndexPath(ctx, dir, rev);
  const parsed = parse(rev);
  let oid = await resolveBase(ctx, dir, parsed.base, rev);
  for (const step of parsed.steps) {
    if (step.kind === "peel") {
      if (step.to === "") oid = await peelTags(ctx, dir, oid);
      else if (step.to === "commit") oid = (await peelToCommit(ctx, dir, oid, rev)).oid;
      else oid = await peelToTree(ctx, dir, oid, rev);
    } else if (step.kind === "parent") {
      const commit = await peelToCommit(ctx, dir, oid, rev);
      if (step.n === 0) oid = commit.oid;
      else {
        const parent = commit.parent[step.n - 1];
        if (parent === undefined) throw unknown(rev);
        oid = parent;
      }
    } else {
      if (step.n === 0) oid = (await peelToCommit(ctx, dir, oid, rev)).oid; // `~0` names the commit, a tag peeled (as `^0`)
      for (let i = 0; i < step.n; i++) {
        const commit = await peelToCommit(ctx, dir, oid, rev);
        const parent = commit.parent[0];
        if (parent === undefined) throw unknown(rev);
        oid = parent;
      }
    }
  }
  if (parsed.path !== undefined) {
    const tree = await peelToTree(ctx, dir, oid, rev);
    if (parsed.path === "") return tree;
    const found = await treeEntry(ctx, dir, tree, parsed.path);
    if (found === undefined) throw new Error(`path '${parsed.path}' does not exist in '${rev.slice(0, rev.indexOf(":")) || "HEAD"}'`);
    return found.oid;
  }
  return oid;
}

/**
 * `:<path>` / `:<n>:<path>` (gitrevisions(7)): the oid of the index's entry for `<path>` (relative to the working
 * tree's root) at stage `<n>` (default 0), with git 2.39.5's messages when there is none.
 * @throws Error `path '<p>' does not exist (neither on disk nor in the index)`, `path '<p>' exists on disk, but not in
 *   the index`, `path '<p>' is in the index, but not at stage <n>`; `unknown revision` for `:` and a `:/<text>` matching nothing.
 */
async function resolveIndexPath(ctx: GitContext, dir: string, rev: string): Promise<string> {
  if (rev === ":") throw unknown(rev);
  if (rev.startsWith(":/")) return searchMessages(ctx, dir, rev);
  const staged = /^:([0-3]):(.*)$/s.exec(rev);
  const stage = staged ? Number(staged[1]) : 0;
  const path = (staged ? staged[2]! : rev.slice(1)).replace(/^\/+|\/+$/g, "");
  const entry = path === "" ? undefined : (await flatIndex(ctx, dir)).get(path);
  if (entry !== undefined && stage === 0) return entry.oid;
  if (entry !== undefined) throw new Error(`path '${path}' is in the index, but not at stage ${stage}`);
  const onDisk = path !== "" && (await ctx.workspace.fs.lstat(absPath(dir, path)).catch(() => undefined)) !== undefined;
  throw new Error(onDisk ? `path '${path}' exists on disk, but not in the index` : `path '${path}' does not exist (neither on disk nor in the index)`);
}

/**
 * `:/<text>` (gitrevisions(7)): the youngest commit reachable from HEAD or any ref whose message matches the regular
 * expression `<text>` (a JavaScript RegExp here, git's is POSIX extended); `:/!-<text>` one whose message does not
 * match, `:/!!…` a literal leading `!`. The walk is git's: the newest commit by committer date first, each read once.
 * @throws Error `unknown revision ':/<text>'` when none matches, or the expression does not compile.
 */
async function searchMessages(ctx: GitContext, dir: string, rev: string): Promise<string> {
  let text = rev.slice(2);
  let negate = false;
  if (text.startsWith("!-")) [text, negate] = [text.slice(2), true];
  else if (text.startsWith("!!")) text = text.slice(1);
  else if (text.startsWith("!")) throw unknown(rev);
  let pattern: RegExp;
  try {
    pattern = new RegExp(text);
  } catch {
    throw unknown(rev);
  }
  type Queued = { oid: string; time: number; parent: string[]; message: string };
  const seen = new Set<string>();
  const queue: Queued[] = [];
  const enqueue = async (oid: string | undefined): Promise<void> => {
    if (oid === undefined) return;
    const read = await ctx.git.readCommit({ fs: ctx.fs, dir, oid, cache: ctx.cache }).catch(() => undefined);
    if (read === undefined || seen.has(read.oid)) return;
    seen.add(read.oid);
    const entry = { oid: read.oid, time: read.commit.committer.timestamp, parent: read.commit.parent, message: read.commit.message };
    let at = queue.length;
    while (at > 0 && queue[at - 1]!.time < entry.time) at--;
    queue.splice(at, 0, entry);
  };
  await enqueue(await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: "HEAD" }).catch(() => undefined));
  for (const name of await ctx.git.listRefs({ fs: ctx.fs, dir, filepath: "refs" }).catch(() => [] as string[])) {
    await enqueue(await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: `refs/${name}` }).catch(() => undefined));
  }
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (pattern.test(next.message) !== negate) return next.oid;
    for (const parent of next.parent) await enqueue(parent);
  }
  throw unknown(rev);
}

/**
 * The entry at `path` (no leading or trailing `/`) in the tree `tree`, or
 * `undefined` when a segment is missing or a file stands where a directory
 * was expected.
 */
export async function treeEntry(
  ctx: GitContext,
  dir: string,
  tree: string,
  path: string,
): Promise<{ oid: string; mode: string; type: string } | undefined> {
  const slash = path.lastIndexOf("/");
  let entries;
  try {
    ({ tree: entries } = await ctx.git.readTree({
      fs: ctx.fs,
      dir,
      oid: tree,
      cache: ctx.cache,
      ...(slash >= 0 ? { filepath: path.slice(0, slash) } : {}),
    }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "NotFoundError" || code === "ObjectTypeError") return undefined;
    throw error;
  }
  const name = path.slice(slash + 1);
  return entries.find((entry) => entry.path === name);
}

/**
 * When `rev` (resolved to `oid`) names a blob — `git diff <blob> <blob>` (issue 20, run 40, fixer f40g1) — its mode
 * and the name git gives it: the path of `<rev>:<path>` / `:<path>` / `:<n>:<path>` with the mode of its tree or index
 * entry, else `rev` as typed with mode 100644; `undefined` when it names anything else.
 */
export async function blobOf(ctx: GitContext, dir: string, rev: string, oid: string): Promise<{ oid: string; mode: number; name: string } | undefined> {
  const { type } = await ctx.git.readObject({ fs: ctx.fs, dir, oid, cache: ctx.cache, format: "content" });
  if (type !== "blob") return undefined;
  const colon = /^:[0-3]:/.test(rev) ? 2 : rev.indexOf(":");
  if (colon < 0) return { oid, mode: 0o100644, name: rev };
  const name = rev.slice(colon + 1).replace(/^\/+|\/+$/g, "");
  const entry = rev.startsWith(":")
    ? (await flatIndex(ctx, dir)).get(name)
    : await treeEntry(ctx, dir, await peelToTree(ctx, dir, await resolveRev(ctx, dir, rev.slice(0, colon) || "HEAD"), rev), name);
  const mode = entry === undefined ? 0o100644 : typeof entry.mode === "number" ? entry.mode : parseInt(entry.mode, 8);
  return { oid, mode, name };
}

/** The commit a revision names (annotated tags peeled): its oid, parents and tree. */
export async function resolveCommit(ctx: GitContext, dir: string, rev: string): Promise<{ oid: string; parent: string[]; tree: string }> {
  return peelToCommit(ctx, dir, await resolveRev(ctx, dir, rev), rev);
}
