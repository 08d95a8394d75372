/**
 * Repository operations of the {@link GitClient} (spec 04 §2.3): `init`,
 * `status`, `add`, `rm`, `commit`, the reads (`log`, `show`, `revParse`,
 * `repoRoot`, `currentBranch`, `lsFiles`, `lsTree`) and the plumbing
 * (`hashObject`, `catFile`, `updateRef`, `configGet`, `configSet`).
 *
 * Each takes `(ctx, dir, options)` with `dir` already normalised by the
 * client and `options` an object; each checks its options (`GitError`
 * `EUSAGE`) and, when it needs a repository, calls `requireRepo` first
 * (`NotARepositoryError`). Anything else that fails is turned into
 * `GitError` `E<OP>FAIL` by the client's `runOp`.
 *
 * @module
 */
import { dirname, normalizePath } from "../../util/path.js"; // GE
import type { GitContext, IndexUpdate } from "../context.js";
import { AlreadyInitializedError, GitError, NotARepositoryError, PathspecNotFoundError } from "../errors.js";
import { resolveIdentity, type PersonInput } from "../identity.js";
import type {
  CatFileResult,
  CommitPerson,
  CommitResult,
  CommitView,
  GitAddOptions,
  GitCatFileOptions,
  GitCommitOptions,
  GitConfigGetOptions,
  GitConfigSetOptions,
  GitCurrentBranchOptions,
  GitHashObjectOptions,
  GitInitOptions,
  GitLogOptions,
  GitLsFilesOptions,
  GitLsTreeOptions,
  GitRepoRootOptions,
  GitRevParseOptions,
  GitRmOptions,
  GitShowOptions,
  GitStatusOptions,
  GitUpdateRefOptions,
  StatusEntry,
  TreeEntryView,
} from "../types.js";
import { gitdirOf, isRepository, requireRepo, throwIfReadCancelled } from "../wrap.js";
import { isGlobSpec, literalFirst } from "../wildmatch.js";
import { WorktreeIgnores } from "./ignores.js";
import {
  boolOption,
  compareBytes,
  matchesAny,
  matchesSpec,
  optionalString,
  pathsOption,
  stringOption,
  toRepoPath,
  toRepoPaths,
  usage,
} from "./pathspec.js";
import { isValidRefName } from "../refname.js";
import { resolveCommit, resolveRev, treeEntry } from "./rev.js";
import { writeFlatTree } from "./stash.js";
import { absPath, assertIndexFile, assertTreeReadable, flatIndex, flatTree, hasLeadingLink, pruneEmptyParents, readBytes, updateIndex } from "./tree-state.js"; // run 36, fixer GR
import { fileModeOn, sameBlob, walkWorktree, type BlobSide, type WalkRow } from "./walk.js";

/** `.git/config` as real git 2.x writes it on Linux (`init`). */
function initialConfig(bare: boolean): string {
  return (
    "[core]\n" +
    "\trepositoryformatversion = 0\n" +
    "\tfilemode = true\n" +
    `\tbare = ${bare}\n` +
    (bare ? "" : "\tlogallrefupdates = true\n")
  );
}

async function exists(ctx: GitContext, path: string): Promise<boolean> {
  return ctx.workspace.fs.lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * `init` (spec 04 §2.3): creates `dir` (and its parents) when missing and
 * an empty repository in `<dir>/.git` (or in `dir` itself when `bare`),
 * whose first branch is `defaultBranch` (default `"main"`). The config is
 * real git's (`core.filemode = true`: executable bits are tracked).
 * @throws AlreadyInitializedError `EALREADYINIT` when `<dir>/.git` exists (bare: when `dir` holds `HEAD` or `config`).
 * @throws GitError `EUSAGE` bad options, or `invalid initial branch name: '<name>'` (real git's message
 *   after `fatal: `; the CLI prints `git init: invalid initial branch name: '<name>'` and exits 1, where
 *   real git exits 128) · `EINITFAIL` anything else (e.g. `dir` is a file).
 */
export async function init(ctx: GitContext, dir: string, options: GitInitOptions): Promise<void> {
  const defaultBranch = stringOption("init", options, "defaultBranch", "main");
  const bare = boolOption("init", options, "bare");
  if (/[\s~^:?*[\\]|\.\.|^[./-]|\/$|\.lock$|@\{/.test(defaultBranch)) {
    // No `git init: ` prefix: the CLI adds its own (`git init: invalid initial branch name: 'a..b'`).
    throw new GitError("EUSAGE", `invalid initial branch name: '${defaultBranch}'`);
  }
  const gitdir = bare ? dir : gitdirOf(dir);
  if (bare ? (await exists(ctx, `${gitdir}/HEAD`)) || (await exists(ctx, `${gitdir}/config`)) : await exists(ctx, gitdir)) {
    throw new AlreadyInitializedError(dir);
  }
  if (dir !== "/") await ctx.workspace.fs.mkdir(dir, { recursive: true });
  await ctx.git.init({ fs: ctx.fs, dir, gitdir, bare, defaultBranch });
  await ctx.workspace.fs.writeFile(`${gitdir}/config`, initialConfig(bare));
}

/** `T` when a changed path's file type differs (regular file, symbolic link, submodule: git's typechange), else `M`. */
function changeLetter(a: BlobSide, b: BlobSide): "M" | "T" {
  return a.mode >> 12 === b.mode >> 12 ? "M" : "T";
}

/**
 * The status entries of walk rows: index column from HEAD vs index, worktree
 * column from index vs working tree (oids and modes, as real git compares
 * them). A path deleted from the index while a file of that name exists
 * gives two entries, `D ` and ` ?` (real git's `D ` and `??` lines).
 */
function statusEntries(rows: WalkRow[], filemode: boolean): StatusEntry[] {
  const out: StatusEntry[] = [];
  for (const { path, head, stage, work } of rows) {
    if (!stage && work && !head) {
      out.push({ path, index: " ", worktree: "?" });
      continue;
    }
    const index = !head && stage ? "A" : head && !stage ? "D" : head && stage && !sameBlob(head, stage) ? changeLetter(head, stage) : " ";
    const worktree = stage && !work ? "D" : stage && work && !sameBlob(stage, work, filemode) ? changeLetter(stage, work) : " ";
    if (index !== " " || worktree !== " ") out.push({ path, index, worktree });
    if (head && !stage && work) out.push({ path, index: " ", worktree: "?" });
  }
  return out;
}

/**
 * `status` (spec 04 §2.3): changed paths, sorted by path (UTF-8 byte
 * order), clean ones omitted. `index` is `A`/`D`/`M` for a change staged
 * against HEAD (content or mode), `worktree` is `D`/`M` for a change of the
 * working tree against the index — either `T` where the file's type changed
 * (a symbolic link became a regular file or the reverse) — or `?` for an untracked file (with
 * `index` `" "`); ignored files are left out. Every untracked file is
 * listed (real git's `-uall`). `paths` limits it to paths equal to or below
 * the given ones.
 *
 * Differs from the literal mapping in spec 04 §2.3 where that mapping
 * contradicts real git (it gave `MM` for a staged-only change): the columns
 * here are exactly real git's `git status --porcelain -uall`.
 * @throws NotARepositoryError · PathOutsideRepoError · GitError `EUSAGE` · `ESTATUSFAIL`.
 */
export async function status(ctx: GitContext, dir: string, options: GitStatusOptions): Promise<StatusEntry[]> {
  const paths = pathsOption("status", options);
  await requireRepo(ctx, dir);
  await assertIndexFile(ctx, dir);
  const specs = toRepoPaths(dir, paths);
  const gitlinks: WalkRow[] = [];
  const embedded: WalkRow[] = []; // GE
  const [filemode, rows] = await Promise.all([fileModeOn(ctx, dir), walkWorktree(ctx, dir, { ref: "HEAD", specs, gitlinks, embedded })]);
  // An untracked nested repository is one untracked entry `sub/` (git's `?? sub/`, also with -uall), not its files. // GE
  for (const repo of embedded) gitlinks.push({ path: `${repo.path}/`, work: repo.work! }); // GE
  if (gitlinks.length === 0) return statusEntries(rows, filemode);
  // Submodules (gitlinks) as git lists them: staged A/D/M against HEAD, ` D` where the directory is gone.
  return statusEntries([...rows, ...gitlinks].sort((a, b) => compareBytes(a.path, b.path)), filemode);
}

/**
 * Whether a directory above `spec`'s last component — or, with `self`, the
 * last component too (a pathspec written `link/`) — is a symbolic link:
 * real git's `die_if_path_beyond_symlink` check of
 * `git add` (`fatal: pathspec '<p>' is beyond a symbolic link`). Unlike
 * {@link hasLeadingLink}, a missing component or a file there is not a link
 * (the pathspec then simply matches nothing).
 */
async function beyondLink(ctx: GitContext, dir: string, spec: string, self: boolean): Promise<boolean> {
  const parts = spec.split("/");
  const last = self ? parts.length : parts.length - 1;
  for (let i = 1; i <= last; i++) {
    const stat = await ctx.workspace.fs.lstat(absPath(dir, parts.slice(0, i).join("/"))).catch(() => undefined);
    if (stat?.isSymbolicLink) return true;
    if (!stat?.isDirectory) return false;
  }
  return false;
}

/**
 * `add` (spec 04 §2.3, `git add`): stages what changed under `paths` —
 * new and modified files, and deletions of tracked files (as git 2.x does
 * for a pathspec). `all` (`git add -A`) with no `paths` stages the whole
 * tree; `trackedOnly` (`git add -u`) only updates files already in the
 * index (whole tree when no `paths`). Ignored untracked files are skipped
 * unless `force`. Every pathspec is checked before anything is staged.
 * A path through a symbolic link (`link/file`, or `link/` itself) is
 * refused as real git refuses it, so nothing outside the repository is
 * staged; `link` alone stages the link.
 * @throws NotARepositoryError · PathOutsideRepoError `EPATHOUTSIDE` a path leaves `dir` · PathspecNotFoundError `EPATHSPEC` a path matches nothing · GitError `EPATHSPEC` `pathspec '<p>' is beyond a symbolic link` (CLI exit 128, as real git) · GitError `EUSAGE` bad options or no `paths` without `all`/`trackedOnly` · `EADDFAIL` a named path is ignored (without `force`), or anything else.
 */
export async function add(ctx: GitContext, dir: string, options: GitAddOptions): Promise<void> {
  const paths = pathsOption("add", options);
  const all = boolOption("add", options, "all");
  const trackedOnly = boolOption("add", options, "trackedOnly");
  const force = boolOption("add", options, "force");
  if ((paths === undefined || paths.length === 0) && !all && !trackedOnly) {
    throw usage("add", "paths must name at least one path (or pass all or trackedOnly)");
  }
  await requireRepo(ctx, dir);
  await assertIndexFile(ctx, dir);
  const raw = toRepoPaths(dir, paths);
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== "" && (await beyondLink(ctx, dir, raw[i]!.replace(/\/$/, ""), raw[i]!.endsWith("/")))) {
      throw new GitError("EPATHSPEC", `pathspec '${paths![i]}' is beyond a symbolic link`);
    }
  }
  // git's literal-first rule: a glob naming a file (not a directory) that exists stages only that file.
  const files = new Set<string>();
  for (const spec of raw) {
    if (isGlobSpec(spec) && (await ctx.workspace.fs.lstat(absPath(dir, spec)).catch(() => undefined))?.isDirectory === false) files.add(spec);
  }
  const specs = raw.map((spec) => literalFirst(spec, (p) => files.has(p)));
  const embedded: WalkRow[] = []; // GE
  const [filemode, rows] = await Promise.all([fileModeOn(ctx, dir), walkWorktree(ctx, dir, { specs, ignored: force, embedded })]);
  let ignores: WorktreeIgnores | undefined;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    if (spec === "" || rows.some((row) => matchesSpec(row.path, spec)) || embedded.some((row) => matchesSpec(row.path, spec))) continue; // GE
    const name = raw[i]!.replace(/\/$/, ""); // a directory form (`x/`) names only a directory
    const full = `${dir === "/" ? "" : dir}/${name}`;
    const stat = await ctx.workspace.fs.lstat(full).catch(() => undefined);
    if (!(spec.endsWith("/") ? stat?.isDirectory === true : stat !== undefined)) throw new PathspecNotFoundError(paths![i]!);
    if (!force && (await (ignores ??= new WorktreeIgnores(ctx, dir)).isIgnored(name, stat?.isDirectory === true))) {
      throw new GitError(
        "EADDFAIL",
        `git add failed: the path '${paths![i]}' is ignored by one of your .gitignore files (pass force to add it)`,
      );
    }
  }
  // Nested repositories (run 33, fixer GE): one gitlink each at the commit its HEAD names, as git's add (all checked // GE
  // before anything is staged: one without a commit fails the whole add, git's "does not have a commit checked out"). // GE
  const links: { filepath: string; oid: string; mode: number }[] = []; // GE
  if (!trackedOnly) { // GE
    for (const repo of embedded) links.push({ filepath: repo.path, oid: await nestedHead(ctx, dir, repo.path), mode: 0o160000 }); // GE
  } // GE
  const toRemove: string[] = [];
  const toAdd: string[] = [];
  for (const row of rows) {
    if (trackedOnly && !row.stage) continue;
    if (row.stage && !row.work) toRemove.push(row.path);
    else if (row.work && (!row.stage || !sameBlob(row.stage, row.work, filemode))) toAdd.push(row.path);
  }
  if (toRemove.length > 0) {
    await ctx.git.remove({ fs: ctx.fs, dir, filepath: toRemove as unknown as string, cache: ctx.cache });
  }
  if (toAdd.length > 0) {
    // Ignore rules were applied by the walk (tracked files are always updated), so isomorphic-git need not read .gitignore again.
    // One file after another (parallel: false, made to cover the list by scripts/gen-git.mjs): each is read whole, hashed and
    // deflated, so all at once held every file added (8 new 12 MiB files grew memory by ~190 MiB); the index is written once.
    await ctx.git.add({ fs: ctx.fs, dir, filepath: toAdd, force: true, parallel: false, cache: ctx.cache });
  }
  if (links.length > 0) { // GE
    await updateIndex(ctx, dir, links); // GE
    const told = (options as { [ADD_EMBEDDED]?: unknown })[ADD_EMBEDDED]; // GE
    if (Array.isArray(told)) told.push(...links.map((link) => link.filepath)); // GE
  } // GE
}

/** // GE
 * The key of the command line's `add` option (reached by name, `Symbol.for`): an array the paths of the nested // GE
 * repositories staged as gitlinks are pushed to, for git's `warning: adding embedded git repository: <path>` // GE
 * (run 33, fixer GE). // GE
 */ // GE
export const ADD_EMBEDDED: unique symbol = Symbol.for("agent-computer.git.addEmbedded") as never; // GE

/** // GE
 * The commit a nested repository's HEAD names (its `.git` a directory, or a file `gitdir: <path>` relative to the // GE
 * nested working tree), as git's `resolve_gitlink_ref`. // GE
 * @throws GitError `EADDFAIL` `'<path>/' does not have a commit checked out` (git's error; CLI exit 128) when HEAD // GE
 * names no commit (an unborn branch, or no repository there). // GE
 */ // GE
async function nestedHead(ctx: GitContext, dir: string, path: string): Promise<string> { // GE
  const work = absPath(dir, path); // GE
  let gitdir = `${work}/.git`; // GE
  try { // GE
    const stat = await ctx.workspace.fs.lstat(gitdir); // GE
    if (stat.isFile) { // GE
      const text = new TextDecoder().decode(await readBytes(ctx, gitdir)); // GE
      const target = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim(); // GE
      if (target !== undefined) gitdir = target.startsWith("/") ? target : normalizePath(target, work); // GE
    } // GE
    return await ctx.git.resolveRef({ fs: ctx.fs, dir: work, gitdir, ref: "HEAD" }); // GE
  } catch (error) { // GE
    throw new GitError("EADDFAIL", `'${path}/' does not have a commit checked out`, { cause: error }); // GE
  } // GE
} // GE

/**
 * `rm` (spec 04 §2.3, `git rm --cached`): removes the index entries at or
 * below each of `paths`; the files stay in the working tree.
 *
 * With the command line's {@link RM_WORKTREE} (`git rm` without `--cached`) the files go first, in index order, then
 * the index entries of the files that went (or were already gone), written once — so the index never records the
 * removal of a file the working tree kept (issue 20, run 36, fixer GR). A file that cannot be removed (a read-only
 * mount: `EROFS`; a directory where the index has a file: `EISDIR`) stops there: the files removed before it lose their
 * entries, it and the rest keep theirs, and `ERMFAIL` is thrown with `path` (the repository-relative path) and
 * `reason` (strerror(3) wording, `Read-only file system`): `git rm failed: '<path>': <reason>`. git 2.39.5
 * (builtin/rm.c) dies the same way when the first file fails (`fatal: git rm: '<path>': <reason>`, 128, index
 * untouched); once one file went it drops every matched entry and exits 0 silently — here the entries of the files
 * still there are kept and the failure reported (docs/porting.md).
 * @throws NotARepositoryError · PathOutsideRepoError · PathspecNotFoundError a path matches no index entry · GitError `EUSAGE` no `paths` · `ERMFAIL` (with `path` and `reason` when a working-tree file could not be removed).
 */
export async function rm(ctx: GitContext, dir: string, options: GitRmOptions): Promise<void> {
  const paths = pathsOption("rm", options);
  if (paths === undefined || paths.length === 0) throw usage("rm", "paths must name at least one path");
  await requireRepo(ctx, dir);
  await assertIndexFile(ctx, dir);
  const indexed = await ctx.git.listFiles({ fs: ctx.fs, dir, cache: ctx.cache });
  const names = new Set(indexed);
  // git's literal-first rule: a glob naming an index entry exactly removes only that entry.
  const specs = toRepoPaths(dir, paths).map((spec) => literalFirst(spec, (p) => names.has(p)));
  for (let i = 0; i < specs.length; i++) {
    if (!indexed.some((path) => matchesSpec(path, specs[i]!))) throw new PathspecNotFoundError(paths[i]!);
  }
  const matched = indexed.filter((path) => matchesAny(path, specs));
  if ((options as { [RM_WORKTREE]?: unknown })[RM_WORKTREE] !== true) {
    await ctx.git.remove({ fs: ctx.fs, dir, filepath: matched as unknown as string, cache: ctx.cache });
    return;
  }
  // The command line's `git rm`: the files first, then the entries of those that went (run 36, fixer GR).
  const modes = await flatIndex(ctx, dir);
  const removed: string[] = [];
  let failure: { path: string; error: unknown } | undefined;
  for (const path of matched) {
    try {
      await removeWorktreeFile(ctx, dir, path, modes.get(path)?.mode === 0o160000);
      removed.push(path);
    } catch (error) {
      failure = { path, error };
      break;
    }
  }
  if (removed.length > 0) await ctx.git.remove({ fs: ctx.fs, dir, filepath: removed as unknown as string, cache: ctx.cache });
  if (failure) {
    const reason = strerror(failure.error);
    throw Object.assign(new GitError("ERMFAIL", `git rm failed: '${failure.path}': ${reason}`, { cause: failure.error }), { path: failure.path, reason });
  }
}

/**
 * git's remove_path for `git rm` (run 36, fixer GR): unlinks the file at repository path `path` (a missing one is
 * fine), then removes the directories above it left empty, stopping quietly at the first that cannot go (git's
 * `rmdir` loop). Under a leading link nothing goes (the file behind it is not the repository's); a submodule's
 * directory (`gitlink`) is kept. A directory where the index has a file fails `EISDIR`, as unlink(2) does in git.
 * @throws the Workspace's error (`EROFS` a read-only mount, …) or `EISDIR`; nothing is removed then.
 */
async function removeWorktreeFile(ctx: GitContext, dir: string, path: string, gitlink: boolean): Promise<void> {
  const abs = absPath(dir, path);
  if (path.includes("/") && (await hasLeadingLink(ctx, dir, path))) return;
  const stat = await ctx.workspace.fs.lstat(abs).catch(() => undefined);
  if (stat?.isDirectory && !gitlink) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, unlink '${abs}'`), { code: "EISDIR" });
  if (stat && !stat.isDirectory) await ctx.workspace.fs.rm(abs);
  await pruneEmptyParents(ctx, dir, path).catch(() => undefined);
}

/** strerror(3) wording (glibc) of the Workspace's error codes, as git's die_errno prints them. */
const STRERROR: Readonly<Record<string, string>> = {
  EROFS: "Read-only file system",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  EBUSY: "Device or resource busy",
  ENOTEMPTY: "Directory not empty",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EIO: "Input/output error",
};

/** The strerror(3) text of `error`'s code; its message without one (run 36, fixer GR: `git rm`, `git clean`). */
export function strerror(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && STRERROR[code] !== undefined) return STRERROR[code];
  return error instanceof Error ? error.message : String(error);
}

/**
 * The key of the command line's `rm` option (reached by name, `Symbol.for`, as the CLI works only through the public
 * client): `true` removes the matched files from the working tree too, and the directories left empty, as `git rm`
 * (the typed `rm` unstages only, spec 04). The CLI checks git's local-modification refusals before calling.
 */
export const RM_WORKTREE: unique symbol = Symbol.for("agent-computer.git.rmWorktree") as never;

/**
 * A commit message as `git commit -m` stores it (its default `whitespace`
 * clean-up): trailing whitespace cut from each line, runs of blank lines
 * made one, leading and trailing blank lines dropped, one final `\n`.
 * `""` when nothing is left.
 */
export function cleanMessage(message: string): string {
  const lines = message.split("\n").map((line) => line.replace(/[ \t\r\v\f]+$/, ""));
  const out: string[] = [];
  for (const line of lines) {
    if (line === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.length === 0 ? "" : out.join("\n") + "\n";
}

function personOption(op: string, options: object, key: "author" | "committer"): PersonInput | undefined {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw usage(op, `${key} must be an object { name, email, timestamp?, timezoneOffset? }`);
  }
  const person = value as Record<string, unknown>;
  for (const field of ["name", "email"]) {
    const v = person[field];
    if (v !== undefined && (typeof v !== "string" || /[<>\n\0]/.test(v))) {
      throw usage(op, `${key}.${field} must be a string without '<', '>', NUL or a line break`);
    }
  }
  if (person.timestamp !== undefined && !Number.isSafeInteger(person.timestamp)) {
    throw usage(op, `${key}.timestamp must be an integer number of seconds since the epoch`);
  }
  if (person.timezoneOffset !== undefined && !(Number.isSafeInteger(person.timezoneOffset) && Math.abs(person.timezoneOffset as number) < 24 * 60)) {
    throw usage(op, `${key}.timezoneOffset must be an integer number of minutes (UTC − local), under a day`);
  }
  return person as PersonInput;
}

function envOption(op: string, options: object): Record<string, string | undefined> | undefined {
  const env = (options as { env?: unknown }).env;
  if (env === undefined) return undefined;
  if (env === null || typeof env !== "object" || Array.isArray(env)) throw usage(op, "env must be an object of strings");
  return env as Record<string, string | undefined>;
}

/**
 * `commit` (spec 04 §2.3): records the index as a new commit on the current
 * branch (or HEAD when detached) and returns its oid. The message is
 * cleaned as `git commit -m` does (see {@link cleanMessage}). Identity:
 * the chain of {@link GitClient} (explicit → `env` → local config →
 * `defaultIdentity`); times default to now in the process's time zone.
 * `amend` replaces HEAD: same parents, the old message when `message` is
 * omitted, the old author (name, e-mail and date) unless `author` is given,
 * a new committer date.
 *
 * `all` (`git commit -a`) first stages every tracked file's working-tree
 * change (modified, deleted; untracked files stay out), as `add` with
 * `trackedOnly` would — but the commit is made from that would-be index
 * built in memory, and `.git/index` is written only after the branch
 * moved, as real git does: a crash before the commit leaves the index as
 * it was (the changes unstaged).
 *
 * Empty commits are allowed: when the index holds exactly HEAD's tree the
 * commit is still made (real git's `git commit --allow-empty`). Check
 * {@link status} first to refuse them; the CLI's `git commit` does, printing
 * the status and exiting 1 as real git does without `--allow-empty`.
 * @throws GitError `EMSG` blank message · MissingIdentityError `EIDENTITY` · NotARepositoryError · GitError `EUSAGE` bad options · `ECOMMITFAIL` (e.g. `amend` without a commit).
 */
export async function commit(ctx: GitContext, dir: string, options: GitCommitOptions): Promise<CommitResult> {
  const amend = boolOption("commit", options, "amend");
  const all = boolOption("commit", options, "all");
  const rawMessage = (options as { message?: unknown }).message;
  if (rawMessage !== undefined && typeof rawMessage !== "string") throw usage("commit", "message must be a string");
  if (rawMessage === undefined && !amend) throw usage("commit", "message is required");
  const authorInput = personOption("commit", options, "author");
  const committerInput = personOption("commit", options, "committer");
  const env = envOption("commit", options);
  let message = rawMessage === undefined ? undefined : cleanMessage(rawMessage);
  if (message === "") throw new GitError("EMSG", "aborting commit due to empty commit message");
  await requireRepo(ctx, dir);
  // isomorphic-git reads an index that is a directory or a link as empty: the commit would record the empty tree.
  await assertIndexFile(ctx, dir);

  let author: PersonInput | undefined = authorInput;
  if (amend) {
    let head;
    try {
      head = await ctx.git.readCommit({ fs: ctx.fs, dir, oid: await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: "HEAD" }), cache: ctx.cache });
    } catch (error) {
      if ((error as { code?: string }).code === "NotFoundError") throw new GitError("ECOMMITFAIL", "git commit failed: nothing to amend (no commit yet)");
      throw error;
    }
    message ??= head.commit.message;
    const explicit = typeof authorInput?.name === "string" && authorInput.name !== "" && typeof authorInput.email === "string" && authorInput.email !== "";
    const old = head.commit.author;
    author = explicit
      ? { timestamp: old.timestamp, timezoneOffset: old.timezoneOffset, ...authorInput }
      : { name: old.name, email: old.email, timestamp: old.timestamp, timezoneOffset: old.timezoneOffset };
  }
  const resolved = await resolveIdentity(ctx, dir, { author, committer: committerInput, env }, true);
  const now = Math.floor(Date.now() / 1000);
  const zone = new Date(now * 1000).getTimezoneOffset();
  const committerTimes = committerInput ?? (amend ? undefined : authorInput);
  const authorFull = { ...resolved.author, timestamp: resolved.author.timestamp ?? now, timezoneOffset: resolved.author.timezoneOffset ?? zone };
  const committerFull = {
    name: resolved.committer.name,
    email: resolved.committer.email,
    timestamp: committerTimes?.timestamp ?? now,
    timezoneOffset: committerTimes?.timezoneOffset ?? zone,
  };
  // `all`: the tree is the index with the tracked files' changes staged, built in memory; the index
  // itself is written only after the branch moved (real git commits its index.lock after update_ref),
  // so a crash before leaves it as it was: the changes unstaged, as before the command.
  const staged = all ? await stageTracked(ctx, dir) : undefined;
  const oid = await ctx.git.commit({
    fs: ctx.fs,
    dir,
    message: message!,
    author: authorFull,
    committer: committerFull,
    amend,
    cache: ctx.cache,
    ...(staged ? { tree: staged.tree } : {}),
  });
  if (staged && staged.updates.length > 0) await updateIndex(ctx, dir, staged.updates);
  return { oid };
}

/**
 * What `add` with `trackedOnly` over the whole tree would stage (`git
 * commit -a`), without writing the index: the blobs of changed tracked
 * files are written, and the tree of the would-be index; `updates` are the
 * index changes (removals of deleted files; changed files with zero stats,
 * so status compares their content).
 */
async function stageTracked(ctx: GitContext, dir: string): Promise<{ tree: string; updates: IndexUpdate[] }> {
  const [filemode, rows, index] = await Promise.all([fileModeOn(ctx, dir), walkWorktree(ctx, dir, { specs: [""] }), flatIndex(ctx, dir)]);
  const updates: IndexUpdate[] = [];
  for (const row of rows) {
    if (!row.stage) continue;
    if (!row.work) {
      updates.push({ filepath: row.path, remove: true });
      index.delete(row.path);
      continue;
    }
    if (sameBlob(row.stage, row.work, filemode)) continue;
    const abs = absPath(dir, row.path);
    const bytes = row.work.mode === 0o120000 ? new TextEncoder().encode(await ctx.workspace.fs.readlink(abs)) : await readBytes(ctx, abs);
    const oid = await ctx.git.writeBlob({ fs: ctx.fs, dir, blob: bytes });
    // core.filemode off: a regular file keeps the index's mode (as `git add`).
    const regular = (mode: number) => mode >> 12 === 0b1000;
    const mode = !filemode && regular(row.stage.mode) && regular(row.work.mode) ? row.stage.mode : row.work.mode;
    updates.push({ filepath: row.path, oid, mode });
    index.set(row.path, { oid, mode });
  }
  return { tree: await writeFlatTree(ctx, dir, index), updates };
}

function person(p: CommitPerson): CommitPerson {
  return { name: p.name, email: p.email, timestamp: p.timestamp, timezoneOffset: p.timezoneOffset };
}

function view(oid: string, c: { message: string; tree: string; parent: string[]; author: CommitPerson; committer: CommitPerson }): CommitView {
  return { oid, message: c.message, tree: c.tree, parent: [...c.parent], author: person(c.author), committer: person(c.committer) };
}

/**
 * `log` (spec 04 §2.3): commits reachable from `ref` (default `"HEAD"`, any
 * revision expression), in real git's default order, at most `depth`.
 * `message` is the stored message (with its final `\n`).
 *
 * The order is `git log`'s (no `--topo-order`): a queue ordered by
 * committer timestamp, newest first, where a commit enters behind every
 * queued commit of the same or a newer timestamp (so equal timestamps go in
 * the order they were queued: the start, then each popped commit's parents
 * in parent order); each commit is listed once. A commit listed in
 * `.git/shallow` (the edge of a shallow clone) is walked as having no
 * parents, as real git does. isomorphic-git's own `log`
 * differs from it when timestamps are equal (it can list a parent before
 * its child).
 * @throws NotARepositoryError · GitError `EUSAGE` · `ELOGFAIL` (e.g. `unknown revision 'x'`, or no commit yet).
 */
export async function log(ctx: GitContext, dir: string, options: GitLogOptions): Promise<CommitView[]> {
  const ref = stringOption("log", options, "ref", "HEAD");
  const depth = (options as { depth?: unknown }).depth;
  if (depth !== undefined && !(Number.isSafeInteger(depth) && (depth as number) > 0)) throw usage("log", "depth must be a positive integer");
  await requireRepo(ctx, dir);
  const { oid } = await resolveCommit(ctx, dir, ref);
  const limit = depth === undefined ? Infinity : (depth as number);
  type Queued = { oid: string; commit: Awaited<ReturnType<GitContext["git"]["readCommit"]>>["commit"] };
  const read = async (at: string): Promise<Queued> => ({ oid: at, commit: (await ctx.git.readCommit({ fs: ctx.fs, dir, oid: at, cache: ctx.cache })).commit });
  // A shallow clone's boundary commits are listed in .git/shallow: real git walks them as if they had no parents.
  const shallowText = await ctx.workspace.fs.readFile(`${gitdirOf(dir)}/shallow`, "utf8").catch(() => "");
  const shallow = new Set(shallowText.split("\n").filter((line) => /^[0-9a-f]{40}$/.test(line)));
  const seen = new Set<string>([oid]);
  // git's commit_list_insert_by_date: sorted newest first, a new entry after every entry with a timestamp >= its own.
  const queue: Queued[] = [await read(oid)];
  const out: CommitView[] = [];
  while (queue.length > 0 && out.length < limit) {
    throwIfReadCancelled(ctx);
    const next = queue.shift()!;
    out.push(view(next.oid, next.commit));
    if (out.length >= limit) break;
    const parents = shallow.has(next.oid) ? [] : next.commit.parent.filter((p) => !seen.has(p));
    for (const p of parents) seen.add(p);
    for (const parent of await Promise.all(parents.map(read))) {
      const time = parent.commit.committer.timestamp;
      let at = queue.length;
      while (at > 0 && queue[at - 1]!.commit.committer.timestamp < time) at--;
      queue.splice(at, 0, parent);
    }
  }
  return out;
}

/**
 * `show` (spec 04 §2.3): the commit `ref` names (default `"HEAD"`; a tag is peeled).
 * @throws NotARepositoryError · GitError `EUSAGE` · `ESHOWFAIL`.
 */
export async function show(ctx: GitContext, dir: string, options: GitShowOptions): Promise<CommitView> {
  const ref = stringOption("show", options, "ref", "HEAD");
  await requireRepo(ctx, dir);
  const { oid } = await resolveCommit(ctx, dir, ref);
  const { commit: c } = await ctx.git.readCommit({ fs: ctx.fs, dir, oid, cache: ctx.cache });
  return view(oid, c);
}

/**
 * `revParse` (spec 04 §2.3): the 40-hex object name of a revision —
 * refs, short oids (≥ 4 digits), `^`, `^N`, `~N`, `^{}`/`^{commit}`/`^{tree}`,
 * chains of them, and `<rev>:<path>` (see `ops/rev.ts`). An annotated tag
 * name gives the tag object, as `git rev-parse` does.
 * @throws NotARepositoryError · GitError `EUSAGE` · `EREVPARSEFAIL` `unknown revision '<ref>'`, an ambiguous short oid.
 */
export async function revParse(ctx: GitContext, dir: string, options: GitRevParseOptions): Promise<string> {
  const ref = stringOption("rev-parse", options, "ref");
  await requireRepo(ctx, dir);
  return resolveRev(ctx, dir, ref);
}

/**
 * `repoRoot` (spec 04 §2.3): the nearest directory at or above `dir` that
 * holds a repository — a `.git` directory with a valid `HEAD` (see
 * `isRepository`; one with a `HEAD` such as `ref: ../x` is passed over, as
 * real git does).
 * @throws NotARepositoryError `ENOTAREPO` when there is none up to `/`.
 */
export async function repoRoot(ctx: GitContext, dir: string, _options: GitRepoRootOptions): Promise<string> {
  for (let at = dir; ; at = dirname(at)) {
    if (await isRepository(ctx, at)) return at;
    if (at === "/") throw new NotARepositoryError(dir);
  }
}

/**
 * `currentBranch` (spec 04 §2.3): the branch HEAD points at (`main`, or
 * `refs/heads/main` with `fullname`), also before its first commit;
 * `undefined` when HEAD is detached.
 * @throws NotARepositoryError · GitError `EUSAGE` · `EBRANCHFAIL`.
 */
export async function currentBranch(ctx: GitContext, dir: string, options: GitCurrentBranchOptions): Promise<string | undefined> {
  const fullname = boolOption("branch", options, "fullname");
  await requireRepo(ctx, dir);
  const branch = await ctx.git.currentBranch({ fs: ctx.fs, dir, fullname });
  return branch ?? undefined;
}

/**
 * `lsFiles` (spec 04 §2.3): the paths in the index, or in the tree of the
 * commit `ref` names, sorted as `git ls-files` (UTF-8 byte order). A
 * commit whose tree expands to more than `GIT_MAX_TREE_ENTRIES` paths is
 * refused before it is walked; the `signal` option is checked per path.
 * @throws NotARepositoryError · GitError `EUSAGE` · `ELSFILESFAIL` (`tree too large: …`) · `ECANCELED`.
 */
export async function lsFiles(ctx: GitContext, dir: string, options: GitLsFilesOptions): Promise<string[]> {
  const ref = optionalString("ls-files", options, "ref");
  await requireRepo(ctx, dir);
  if (ref === undefined) await assertIndexFile(ctx, dir);
  if (ref === undefined) return (await ctx.git.listFiles({ fs: ctx.fs, dir, cache: ctx.cache })).sort(compareBytes);
  const { oid } = await resolveCommit(ctx, dir, ref);
  // The tree within GIT_MAX_TREE_ENTRIES first (a "git bomb" costs one read per level), then walked with the signal checked per path.
  await assertTreeReadable(ctx, dir, oid);
  return [...(await flatTree(ctx, dir, oid, true)).keys()].sort(compareBytes);
}

/**
 * `lsTree` (spec 04 §2.3, `git ls-tree <ref> [<path>/]`): the entries of
 * the tree of `ref` (a commit, tag or tree), or of the directory `path`
 * inside it; `path` in each entry is relative to the repository root
 * (`src/a.ts`), `mode` is an octal string (`"100644"`, `"040000"`). A
 * `path` naming a file gives that one entry; a missing `path` gives `[]`.
 * @throws NotARepositoryError · PathOutsideRepoError · GitError `EUSAGE` · `ELSTREEFAIL`.
 */
export async function lsTree(ctx: GitContext, dir: string, options: GitLsTreeOptions): Promise<TreeEntryView[]> {
  const ref = stringOption("ls-tree", options, "ref");
  const rawPath = optionalString("ls-tree", options, "path");
  await requireRepo(ctx, dir);
  const spec = rawPath === undefined ? "" : toRepoPath(dir, rawPath);
  const path = spec.replace(/\/$/, "");
  const root = await ctx.git.readTree({ fs: ctx.fs, dir, oid: await resolveRev(ctx, dir, ref), cache: ctx.cache });
  let tree = root.tree;
  if (path !== "") {
    const entry = await treeEntry(ctx, dir, root.oid, path);
    // A directory form (`x/`) names only a tree, as in git.
    if (entry === undefined || (spec.endsWith("/") && entry.type !== "tree")) return [];
    if (entry.type !== "tree") return [{ mode: entry.mode, path, oid: entry.oid, type: entry.type as TreeEntryView["type"] }];
    ({ tree } = await ctx.git.readTree({ fs: ctx.fs, dir, oid: entry.oid, cache: ctx.cache }));
  }
  return tree.map((e) => ({ mode: e.mode, path: path === "" ? e.path : `${path}/${e.path}`, oid: e.oid, type: e.type }));
}

/**
 * `hashObject` (spec 04 §2.3, `git hash-object [-w]`): the blob oid of
 * `content` (a string is UTF-8); with `write` the blob is stored in the
 * repository at `dir` (without, no repository is needed).
 * @throws NotARepositoryError (with `write`) · GitError `EUSAGE` · `EHASHOBJECTFAIL`.
 */
export async function hashObject(ctx: GitContext, dir: string, options: GitHashObjectOptions): Promise<string> {
  const content = (options as { content?: unknown }).content;
  if (typeof content !== "string" && !(content instanceof Uint8Array)) throw usage("hash-object", "content must be a string or a Uint8Array");
  const write = boolOption("hash-object", options, "write");
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  if (!write) return (await ctx.git.hashBlob({ object: bytes })).oid;
  await requireRepo(ctx, dir);
  return ctx.git.writeBlob({ fs: ctx.fs, dir, blob: bytes });
}

/**
 * `catFile` (spec 04 §2.3, `git cat-file`): the raw content and type of
 * the object `oid` names (any revision expression, e.g. a short oid or
 * `HEAD:src/a.ts`), or of the object at `filepath` inside its tree.
 * @throws NotARepositoryError · GitError `EUSAGE` · `ECATFILEFAIL` (missing object or path).
 */
export async function catFile(ctx: GitContext, dir: string, options: GitCatFileOptions): Promise<CatFileResult> {
  const rev = stringOption("cat-file", options, "oid");
  const filepath = optionalString("cat-file", options, "filepath");
  await requireRepo(ctx, dir);
  const oid = await resolveRev(ctx, dir, rev);
  const path = filepath?.replace(/^\/+|\/+$/g, "");
  const result = await ctx.git.readObject({
    fs: ctx.fs,
    dir,
    oid,
    format: "content",
    cache: ctx.cache,
    ...(path ? { filepath: path } : {}),
  });
  const object = result.object as Uint8Array;
  // A plain Uint8Array (isomorphic-git gives a Buffer), so it survives structured clone and RPC as bytes.
  const bytes = new Uint8Array(object.buffer, object.byteOffset, object.byteLength);
  return { oid: result.oid, bytes, type: result.type as CatFileResult["type"] };
}

/**
 * `updateRef` (spec 04 §2.3, `git update-ref` / `git symbolic-ref`): points
 * `ref` (a full name, e.g. `refs/heads/x`, or `HEAD`) at the object `value`
 * names (any revision expression), or with `symbolic` at the ref `value`.
 * Without `force` an existing ref is not replaced. A `symbolic` target is
 * checked as real git's `symbolic-ref` does, before anything is written:
 * `HEAD` may point only into `refs/`, and the target must be a valid ref
 * name (no `..`, no component starting with `.`, …), so a symbolic ref can
 * never lead a later read out of the gitdir.
 * @throws NotARepositoryError · GitError `EUSAGE` · `EUPDATEREFFAIL` (exists without `force`, bad name, unknown revision,
 *   an object the repository does not have, a non-commit for a branch or `HEAD`,
 *   `Refusing to point HEAD outside of refs/`, `Refusing to set '<ref>' to invalid ref '<value>'`).
 */
export async function updateRef(ctx: GitContext, dir: string, options: GitUpdateRefOptions): Promise<void> {
  const ref = stringOption("update-ref", options, "ref");
  const value = stringOption("update-ref", options, "value");
  const force = boolOption("update-ref", options, "force");
  const symbolic = boolOption("update-ref", options, "symbolic");
  await requireRepo(ctx, dir);
  if (symbolic) {
    if (ref === "HEAD" && !value.startsWith("refs/")) {
      throw new GitError("EUPDATEREFFAIL", "git update-ref failed: Refusing to point HEAD outside of refs/");
    }
    if (!isValidRefName(value)) {
      throw new GitError("EUPDATEREFFAIL", `git update-ref failed: Refusing to set '${ref}' to invalid ref '${value}'`);
    }
  }
  const target = symbolic ? value : await resolveRev(ctx, dir, value);
  if (!symbolic) {
    // As real git: never write a ref naming an object the repository does not have (its history
    // would become unreachable), nor a branch naming anything but a commit.
    const branch = ref === "HEAD" || ref.startsWith("refs/heads/");
    const found = await ctx.git
      .readObject({ fs: ctx.fs, dir, cache: ctx.cache, oid: target, format: branch ? "content" : "deflated" })
      .catch(() => undefined);
    if (found === undefined) {
      throw new GitError("EUPDATEREFFAIL", `git update-ref failed: cannot update ref '${ref}': trying to write ref '${ref}' with nonexistent object ${target}`);
    }
    if (branch && found.type !== "commit") {
      throw new GitError("EUPDATEREFFAIL", `git update-ref failed: cannot update ref '${ref}': trying to write non-commit object ${target} to branch '${ref}'`);
    }
  }
  await ctx.git.writeRef({ fs: ctx.fs, dir, ref, value: target, force, symbolic });
}

/**
 * `configGet` (spec 04 §2.3, `git config [--get-all] <path>`): a value of
 * the repository's `.git/config` as text (`true`, not a boolean), or with
 * `all` every value of a multi-valued key; `undefined` (`[]` with `all`)
 * when unset. Global and system config are never read.
 * @throws NotARepositoryError · GitError `EUSAGE` bad options, or `invalid key: <path>` (see {@link checkConfigKey}) · `ECONFIGFAIL`.
 */
/**
 * Checks a config key as real git's `git_config_parse_key` does:
 * `<section>[.<subsection>].<name>`, split at the first and the last `.`;
 * the section is letters, digits and `-` (non-empty); the name starts with
 * a letter and is letters, digits and `-`; the subsection may hold any
 * character but a line break or NUL (it may be empty: `a..b`).
 * With `write`, a `"` or `\` in the subsection is refused too: real git
 * writes it escaped, isomorphic-git's `setConfig` writes it raw
 * (`[a "b"c"]`), a line every real git command then dies on
 * (`fatal: bad config line`).
 * @throws GitError `EUSAGE` `invalid key: <path>` (real git: `error: invalid key: <path>` or
 *   `error: key does not contain a section: <path>`, exit 1 or 2) — before anything is read or written;
 *   with `write`, `invalid key: <path> ('"' and '\' in a subsection are not supported)`.
 */
export function checkConfigKey(path: string, write = false): void {
  const first = path.indexOf(".");
  const last = path.lastIndexOf(".");
  const section = path.slice(0, first);
  const name = path.slice(last + 1);
  const subsection = first === last ? "" : path.slice(first + 1, last);
  if (first <= 0 || !/^[A-Za-z0-9-]+$/.test(section) || !/^[A-Za-z][A-Za-z0-9-]*$/.test(name) || /[\n\0]/.test(subsection)) {
    throw new GitError("EUSAGE", `invalid key: ${path}`);
  }
  if (write && /["\\]/.test(subsection)) {
    throw new GitError("EUSAGE", `invalid key: ${path} ('"' and '\\' in a subsection are not supported)`);
  }
}

export async function configGet(ctx: GitContext, dir: string, options: GitConfigGetOptions): Promise<string | string[] | undefined> {
  const path = stringOption("config", options, "path");
  const all = boolOption("config", options, "all");
  checkConfigKey(path);
  await requireRepo(ctx, dir);
  if (all) {
    const values = await ctx.git.getConfigAll({ fs: ctx.fs, dir, path });
    return values.filter((v) => v !== undefined && v !== null).map(String);
  }
  const value = await ctx.git.getConfig({ fs: ctx.fs, dir, path });
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * `configSet` (spec 04 §2.3, `git config <path> <value>`): sets a key of
 * `.git/config`; `append` adds another value (`--add`); `value: undefined`
 * removes the key (`--unset`). The key is checked as real git checks it
 * ({@link checkConfigKey}) before `.git/config` is touched.
 * @throws NotARepositoryError · GitError `EUSAGE` bad options, or `invalid key: <path>` · `ECONFIGFAIL`.
 */
export async function configSet(ctx: GitContext, dir: string, options: GitConfigSetOptions): Promise<void> {
  const path = stringOption("config", options, "path");
  const value = (options as { value?: unknown }).value;
  if (value !== undefined && typeof value !== "string" && typeof value !== "boolean" && !(typeof value === "number" && Number.isFinite(value))) {
    throw usage("config", "value must be a string, a boolean, a finite number or undefined");
  }
  const append = boolOption("config", options, "append");
  checkConfigKey(path, true);
  await requireRepo(ctx, dir);
  await ctx.git.setConfig({ fs: ctx.fs, dir, path, value: value as string | boolean | number | undefined, append });
}
