/**
 * Public shapes of `agent-computer/git` (spec 04 §2).
 *
 * Type-only module: the root entry imports {@link GitClientFactory} from
 * here without loading any git code (isomorphic-git is imported lazily on
 * the first call of a client).
 *
 * Paths: every method takes `dir` (default `"/"`), an absolute Workspace
 * path of the repository's working tree; `paths`/`filepath` options are
 * relative to it (POSIX separators). Times in commit persons are **seconds**
 * since the epoch and timezone offsets are **minutes** (as in git objects
 * and isomorphic-git).
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";

/** A person recorded in a commit (spec 04 §2.3). */
export interface GitIdentity {
  /** Display name, e.g. `"Ada Lovelace"`. */
  name: string;
  /** E-mail address, e.g. `"ada@example.com"`. */
  email: string;
}

/**
 * What a git client needs from a Workspace: its filesystem. A `Workspace`
 * satisfies it (0.8.0 passed a node:fs-style `SQLiteWorkspaceProvider`;
 * this package bridges `workspace.fs` directly, see docs/porting.md).
 */
export interface WorkspaceLike {
  /** The Workspace filesystem every git read and write goes through. */
  readonly fs: WorkspaceFilesystem;
}

/**
 * An fs object with the `{ promises }` interface isomorphic-git calls
 * (`readFile`, `writeFile`, `unlink`, `readdir`, `mkdir`, `rmdir`, `stat`,
 * `lstat`, `readlink`, `symlink`, `chmod`), node:fs style.
 */
export interface GitFsAdapter {
  /** node:fs/promises-style methods. */
  promises: object;
}

/** Options of {@link createGitClient} (spec 04 §2.1). */
export interface CreateGitClientOptions {
  /**
   * Replaces the built-in bridge from `workspace.fs` to isomorphic-git's
   * `{ promises }` fs (for tests). Called once per client, on its first
   * call. Default: the bridge over `ws.fs` (streaming; no copy of the tree
   * is held in memory).
   */
  adapter?: (ws: WorkspaceLike) => Promise<GitFsAdapter> | GitFsAdapter;
}

/** What a {@link GitClientFactory} is called with (spec 04 §2.2). */
export interface WorkspaceGitClientOptions {
  /** The Workspace (its `fs`). */
  ws: WorkspaceLike;
  /** Fallback author/committer (`WorkspaceOptions.defaultGitIdentity`). Default: none. */
  defaultIdentity?: GitIdentity;
}

/**
 * Makes the git client of one Workspace; `WorkspaceOptions.git` takes one
 * (`createGitClient()`), and the Workspace calls it once, on first access of
 * `workspace.git` (spec 04 §2.2).
 */
export type GitClientFactory = (options: WorkspaceGitClientOptions) => GitClient;

/** Called with transfer progress (isomorphic-git's `onProgress`). */
export type ProgressCallback = (progress: { phase: string; loaded: number; total?: number }) => void | Promise<void>;
/** Called with each side-band message line from the server (isomorphic-git's `onMessage`). */
export type MessageCallback = (message: string) => void | Promise<void>;
/** Credentials for one HTTP request (isomorphic-git's `GitAuth`). */
export interface GitAuth {
  username?: string;
  password?: string;
  /** Extra headers for the request. */
  headers?: Record<string, string>;
  /** `true` cancels the operation. */
  cancel?: boolean;
}
/** Asked for credentials for `url` (isomorphic-git's `onAuth`). */
export type AuthCallback = (url: string, auth: GitAuth) => GitAuth | void | Promise<GitAuth | void>;

/** `dir` of every method. */
export interface BaseWorktreeOptions {
  /** Absolute Workspace path of the working tree. Default `"/"`. */
  dir?: string;
}

/** Options shared by the network methods. */
interface NetworkOptions {
  /** Extra HTTP headers sent with every request. Default: none. */
  headers?: Record<string, string>;
  /** A CORS proxy prefix (browsers only; unused in a Worker). Default: none. */
  corsProxy?: string;
  /** Progress callback. Default: none. */
  onProgress?: ProgressCallback;
  /** Server message callback. Default: none. */
  onMessage?: MessageCallback;
  /** Credentials callback. Default: none. */
  onAuth?: AuthCallback;
  /**
   * Longest silence allowed on one HTTP request, in milliseconds: waiting
   * this long for the response headers or for the next chunk of a body
   * aborts the operation with `E<OP>FAIL` (`git <op> failed: no response
   * from <url> for <n> ms (timed out)`). A transfer that keeps receiving
   * data is never cut. Default `60000`; `Infinity` (or anything past
   * 2^31 − 1) disables the bound.
   */
  timeoutMs?: number;
}

/** `clone` (spec 04 §2.3). */
export interface GitCloneOptions extends BaseWorktreeOptions, NetworkOptions {
  /** `https://`, `http://` (or `file://` where supported) URL. */
  url: string;
  /** Branch or tag to check out. Default: the remote's HEAD. */
  ref?: string;
  /** Check out only these paths (files or directory prefixes). Default: all. */
  paths?: string[];
  /** A finite number > 0 makes a shallow clone of that many commits; otherwise full. */
  depth?: number;
  /** Fetch only `ref`'s branch. Default `true`. */
  singleBranch?: boolean;
  /** Do not fetch tags. Default `true`. */
  noTags?: boolean;
}

/** `init` (spec 04 §2.3). */
export interface GitInitOptions extends BaseWorktreeOptions {
  /** Name of the first branch. Default `"main"`. */
  defaultBranch?: string;
  /** A bare repository (`dir` is the git directory). Default `false`. */
  bare?: boolean;
}

/** `status` (spec 04 §2.3). */
export interface GitStatusOptions extends BaseWorktreeOptions {
  /** Only these paths (exact or directory prefix). Default: all. */
  paths?: string[];
}

/**
 * One changed path (spec 04 §2.3): `index` is `A` added, `D` deleted, `M`
 * modified or `" "`; `worktree` is `D` deleted, `?` untracked, `M`
 * modified or `" "`. Clean paths are omitted; sorted by path.
 */
export interface StatusEntry {
  /** Path relative to `dir`. */
  path: string;
  /** Staged change: `"A" | "M" | "D" | " "`. */
  index: string;
  /** Unstaged change: `"M" | "D" | "?" | " "`. */
  worktree: string;
}

/** isomorphic-git's status row `[path, head, workdir, stage]`. */
export type StatusRow = [path: string, head: 0 | 1, workdir: 0 | 1 | 2, stage: 0 | 1 | 2 | 3];

/**
 * `diff` and `diffSummary` (spec 04 §2.3). The two sides, as real git's
 * forms:
 *
 * | options | old side | new side | real git |
 * |---|---|---|---|
 * | `{}` / `{ ref }` | `ref` (default `HEAD`) | working tree | `git diff HEAD` / `git diff <ref>` |
 * | `{ ref, to }` | `ref` | `to` | `git diff <ref> <to>` |
 * | `{ cached: true }` / `{ cached: true, ref }` | `ref` (default `HEAD`) | index | `git diff --cached [<ref>]` |
 * | `{ fromIndex: true }` | index | working tree | `git diff` |
 *
 * `to` with `cached`, and `fromIndex` with `ref`, `to` or `cached`, are
 * `GitError` `EUSAGE`.
 */
export interface GitDiffOptions extends BaseWorktreeOptions {
  /** The old side. Default `"HEAD"` (on an unborn branch: the empty tree). */
  ref?: string;
  /** The new side, a ref; omitted: the working tree (or the index with `cached`). */
  to?: string;
  /** New side = the index (`git diff --cached`/`--staged [<ref>]`): what `commit` would record against `ref`. Default `false`. */
  cached?: boolean;
  /** Old side = the index, new side = the working tree (plain `git diff`: the unstaged changes). Default `false`. */
  fromIndex?: boolean;
  /** Only these paths (exact or directory prefix). Default: all. */
  paths?: string[];
}

/** One file of `diffSummary`. */
export interface DiffSummaryEntry {
  path: string;
  /** `A` added, `M` modified, `D` deleted. */
  status: "A" | "M" | "D";
  /** Added lines. */
  insertions: number;
  /** Removed lines. */
  deletions: number;
  /**
   * Present when either side is binary (a NUL byte in its first 8000
   * bytes; then `insertions` and `deletions` are `0`): the sizes in bytes of
   * the old and new sides (`0` for a missing side), what `git diff --stat`
   * prints as `Bin <old> -> <new> bytes` (and `--numstat` as `-\t-`).
   */
  binary?: { oldBytes: number; newBytes: number };
}

/** `add` (spec 04 §2.3). */
export interface GitAddOptions extends BaseWorktreeOptions {
  /** Paths (files or directories) relative to `dir`; `"."` is the whole tree. */
  paths?: string[];
  /** Add ignored files too. Default `false`. */
  force?: boolean;
  /** Stage every change, deletions included (`git add -A`). Default `false`. */
  all?: boolean;
  /** Only already-tracked files (`git add -u`). Default `false`. */
  trackedOnly?: boolean;
}

/** `rm`: unstage (remove from the index only; the file stays). */
export interface GitRmOptions extends BaseWorktreeOptions {
  paths: string[];
}

/** `commit` (spec 04 §2.3). */
export interface GitCommitOptions extends BaseWorktreeOptions {
  /** Commit message; blank → `GitError` `EMSG`. */
  message: string;
  /** Author; default from the identity chain (see {@link GitClient.commit}). */
  author?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /** Committer; default from the identity chain, else the author. */
  committer?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /** Replace the HEAD commit. Default `false`. */
  amend?: boolean;
  /** `GIT_AUTHOR_NAME`/`EMAIL`, `GIT_COMMITTER_NAME`/`EMAIL` (never `process.env`). */
  env?: Record<string, string | undefined>;
}

/** `commit` result. */
export interface CommitResult {
  /** The new commit's 40-hex oid. */
  oid: string;
}

/** A commit person: seconds and minutes as in git objects. */
export interface CommitPerson {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes (isomorphic-git sign: UTC − local, so `+0200` is `-120`). */
  timezoneOffset: number;
}

/** A commit as `log` and `show` return it (spec 04 §2.3). */
export interface CommitView {
  oid: string;
  message: string;
  /** The tree oid. */
  tree: string;
  /** Parent oids, first parent first. */
  parent: string[];
  author: CommitPerson;
  committer: CommitPerson;
}

/** `log`. */
export interface GitLogOptions extends BaseWorktreeOptions {
  /** Default `"HEAD"`. */
  ref?: string;
  /** At most this many commits. Default: all. */
  depth?: number;
}

/** `show`. */
export interface GitShowOptions extends BaseWorktreeOptions {
  /** Default `"HEAD"`. */
  ref?: string;
}

/** `revParse`: `^`, `~N`, `^N`, chains and short oids. */
export interface GitRevParseOptions extends BaseWorktreeOptions {
  ref: string;
}

/** `repoRoot`: the nearest directory at or above `dir` holding `.git`. */
export type GitRepoRootOptions = BaseWorktreeOptions;

/** `currentBranch`. */
export interface GitCurrentBranchOptions extends BaseWorktreeOptions {
  /** `refs/heads/main` rather than `main`. Default `false`. */
  fullname?: boolean;
}

/** `lsFiles`: paths in the index, or in `ref`'s tree. */
export interface GitLsFilesOptions extends BaseWorktreeOptions {
  /** A commit-ish; omitted: the index. */
  ref?: string;
}

/** `lsTree`. */
export interface GitLsTreeOptions extends BaseWorktreeOptions {
  ref: string;
  /** A directory inside the tree. Default: the root. */
  path?: string;
}

/** One tree entry. */
export interface TreeEntryView {
  /** Octal string, e.g. `"100644"`, `"040000"`. */
  mode: string;
  path: string;
  oid: string;
  type: "blob" | "tree" | "commit";
}

/** `branch`. */
export interface GitBranchOptions extends BaseWorktreeOptions {
  name: string;
  /** Default `"HEAD"`. */
  startPoint?: string;
  /** Switch to it. Default `false`. */
  checkout?: boolean;
  /** Replace an existing branch. Default `false`. */
  force?: boolean;
}
/** `branchDelete`. */
export interface GitBranchDeleteOptions extends BaseWorktreeOptions {
  name: string;
}
/** `branchList`. */
export interface GitBranchListOptions extends BaseWorktreeOptions {
  /** List a remote's branches (`refs/remotes/<remote>`). Default: local. */
  remote?: string;
}
/** `tag` (lightweight). */
export interface GitTagOptions extends BaseWorktreeOptions {
  name: string;
  /** Default `"HEAD"`. */
  object?: string;
  force?: boolean;
}
/** `tagDelete`. */
export interface GitTagDeleteOptions extends BaseWorktreeOptions {
  name: string;
}
/** `tagList`. */
export type GitTagListOptions = BaseWorktreeOptions;

/** `checkout`: with `paths`, restores them from `ref` and HEAD stays. */
export interface GitCheckoutOptions extends BaseWorktreeOptions {
  ref: string;
  paths?: string[];
  /** Overwrite local changes. Default `false`. */
  force?: boolean;
}

/** `fetch`. */
export interface GitFetchOptions extends BaseWorktreeOptions, NetworkOptions {
  /** Remote name. Default `"origin"` (ignored when `url` is given). */
  remote?: string;
  /** A URL instead of a remote. */
  url?: string;
  /** Local ref to fetch into. */
  ref?: string;
  /** Remote ref to fetch. */
  remoteRef?: string;
  depth?: number;
  singleBranch?: boolean;
  tags?: boolean;
  prune?: boolean;
}
/** `fetch` result. */
export interface FetchResult {
  /** The remote's default branch, e.g. `"refs/heads/main"`; `null` when unknown. */
  defaultBranch: string | null;
  /** The fetched commit; `null` when nothing was fetched. */
  fetchHead: string | null;
}

/** `push`. */
export interface GitPushOptions extends BaseWorktreeOptions, NetworkOptions {
  remote?: string;
  url?: string;
  /** Local ref. Default: the current branch. */
  ref?: string;
  remoteRef?: string;
  force?: boolean;
  /** Delete `remoteRef` on the remote. */
  delete?: boolean;
}
/** Per-ref outcome of a push. */
export interface RefUpdateStatus {
  ok: boolean;
  error: string;
}
/** `push` result. */
export interface PushResult {
  ok: boolean;
  error: string | null;
  refs: Record<string, RefUpdateStatus>;
}

/** `pull`: fetch then merge into the current branch. */
export interface GitPullOptions extends GitFetchOptions {
  /** Allow fast-forward. Default `true`. */
  fastForward?: boolean;
  /** Only fast-forward. Default `false`. */
  fastForwardOnly?: boolean;
  /** Merge-commit author; may carry `timestamp` (s) and `timezoneOffset` (min) only. Default: the identity chain. */
  author?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /** Merge-commit committer; as `author`. */
  committer?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  env?: Record<string, string | undefined>;
}

/** `merge`. */
export interface GitMergeOptions extends BaseWorktreeOptions {
  theirs: string;
  /** Default: the current branch. */
  ours?: string;
  message?: string;
  fastForward?: boolean;
  fastForwardOnly?: boolean;
  /** Merge-commit author; may carry `timestamp` (s) and `timezoneOffset` (min) only. Default: the identity chain. */
  author?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /** Merge-commit committer; as `author`. */
  committer?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  env?: Record<string, string | undefined>;
}
/** `merge` result. */
export interface MergeResult {
  oid?: string;
  alreadyMerged?: boolean;
  fastForward?: boolean;
}

/** `remoteAdd`. */
export interface GitRemoteAddOptions extends BaseWorktreeOptions {
  name: string;
  url: string;
  force?: boolean;
}
/** `remoteRemove`. */
export interface GitRemoteRemoveOptions extends BaseWorktreeOptions {
  name: string;
}
/** `remoteList`. */
export type GitRemoteListOptions = BaseWorktreeOptions;
/** One remote. */
export interface RemoteView {
  name: string;
  url: string;
}

/** `hashObject`: the blob oid of `content`, stored when `write`. */
export interface GitHashObjectOptions extends BaseWorktreeOptions {
  content: string | Uint8Array;
  write?: boolean;
}
/** `catFile`. */
export interface GitCatFileOptions extends BaseWorktreeOptions {
  oid: string;
  /** A path inside the tree of `oid`. */
  filepath?: string;
}
/** `catFile` result. */
export interface CatFileResult {
  oid: string;
  bytes: Uint8Array;
  type?: "blob" | "tree" | "commit" | "tag";
}
/** `updateRef`. */
export interface GitUpdateRefOptions extends BaseWorktreeOptions {
  ref: string;
  value: string;
  force?: boolean;
  symbolic?: boolean;
}
/** `configGet`: `.git/config` only. */
export interface GitConfigGetOptions extends BaseWorktreeOptions {
  path: string;
  all?: boolean;
}
/** `configSet`: `.git/config` only; `value: undefined` unsets. */
export interface GitConfigSetOptions extends BaseWorktreeOptions {
  path: string;
  value: string | boolean | number | undefined;
  append?: boolean;
}
/** `stashPush`. */
export interface StashPushOptions extends BaseWorktreeOptions {
  message?: string;
}
/** `stashPop`. */
export interface StashPopOptions extends BaseWorktreeOptions {
  /** Default `0` (newest). */
  index?: number;
}
/** `reset`: with `paths`, unstage them; with `hard`, reset index and tree. */
export interface ResetOptions extends BaseWorktreeOptions {
  paths?: string[];
  hard?: boolean;
  /** Default `"HEAD"`. */
  ref?: string;
}
/** `clean`: remove untracked files. */
export interface CleanOptions extends BaseWorktreeOptions {
  /** Untracked directories too. Default `false`. */
  directories?: boolean;
  /** List without removing. Default `false`. */
  dryRun?: boolean;
}

/** `cli` input (spec 04 §2.5). */
export interface GitCliInput {
  /** Arguments after `git`, e.g. `["status", "-s"]`. */
  argv: string[];
  /** Working directory, the default `dir`. Default `"/"`. */
  cwd?: string;
  /** Identity variables (`GIT_AUTHOR_NAME`, …). Never `process.env`. */
  env?: Record<string, string | undefined>;
  /** Standard input (`hash-object --stdin`). */
  stdin?: string | Uint8Array;
}
/** `cli` result: what real git would print and its exit code. */
export interface GitCliResult {
  stdout: string;
  stderr: string;
  /** 0 ok · 1 failure · 128 repository/identity/pathspec errors · 129 usage errors. */
  exitCode: number;
}

/**
 * Git on one Workspace (spec 04 §2.3). Every method takes `dir` (default
 * `"/"`). Errors are {@link GitError}s with a `code` (spec 04 §2.4).
 *
 * **Identity** (`commit`): author = explicit `author` → `GIT_AUTHOR_NAME`/
 * `EMAIL` in `env` → local `user.name`/`user.email` → `defaultIdentity`;
 * committer = explicit → `GIT_COMMITTER_*` (each falling back to
 * `GIT_AUTHOR_*`) → config → default → author. `pull`/`merge` skip the
 * config step. None → `MissingIdentityError`. `process.env` and global
 * config are never read.
 */
export interface GitClient {
  clone(options: GitCloneOptions): Promise<void>;
  init(options?: GitInitOptions): Promise<void>;
  status(options?: GitStatusOptions): Promise<StatusEntry[]>;
  diff(options?: GitDiffOptions): Promise<string>;
  diffSummary(options?: GitDiffOptions): Promise<DiffSummaryEntry[]>;
  add(options: GitAddOptions): Promise<void>;
  rm(options: GitRmOptions): Promise<void>;
  commit(options: GitCommitOptions): Promise<CommitResult>;
  log(options?: GitLogOptions): Promise<CommitView[]>;
  show(options?: GitShowOptions): Promise<CommitView>;
  revParse(options: GitRevParseOptions): Promise<string>;
  repoRoot(options?: GitRepoRootOptions): Promise<string>;
  currentBranch(options?: GitCurrentBranchOptions): Promise<string | undefined>;
  lsFiles(options?: GitLsFilesOptions): Promise<string[]>;
  lsTree(options: GitLsTreeOptions): Promise<TreeEntryView[]>;
  branch(options: GitBranchOptions): Promise<void>;
  branchDelete(options: GitBranchDeleteOptions): Promise<void>;
  branchList(options?: GitBranchListOptions): Promise<string[]>;
  tag(options: GitTagOptions): Promise<void>;
  tagDelete(options: GitTagDeleteOptions): Promise<void>;
  tagList(options?: GitTagListOptions): Promise<string[]>;
  checkout(options: GitCheckoutOptions): Promise<void>;
  fetch(options?: GitFetchOptions): Promise<FetchResult>;
  push(options?: GitPushOptions): Promise<PushResult>;
  pull(options?: GitPullOptions): Promise<void>;
  merge(options: GitMergeOptions): Promise<MergeResult>;
  remoteAdd(options: GitRemoteAddOptions): Promise<void>;
  remoteRemove(options: GitRemoteRemoveOptions): Promise<void>;
  remoteList(options?: GitRemoteListOptions): Promise<RemoteView[]>;
  hashObject(options: GitHashObjectOptions): Promise<string>;
  catFile(options: GitCatFileOptions): Promise<CatFileResult>;
  updateRef(options: GitUpdateRefOptions): Promise<void>;
  configGet(options: GitConfigGetOptions): Promise<string | string[] | undefined>;
  configSet(options: GitConfigSetOptions): Promise<void>;
  stashPush(options?: StashPushOptions): Promise<void>;
  /** Newest first, `stash@{0}: <message>` strings. */
  stashList(options?: BaseWorktreeOptions): Promise<string[]>;
  stashPop(options?: StashPopOptions): Promise<void>;
  reset(options?: ResetOptions): Promise<void>;
  /** Removed (or, with `dryRun`, removable) paths. */
  clean(options?: CleanOptions): Promise<string[]>;
  /** Real-git-style command line (spec 04 §2.5); never throws for user errors. */
  cli(input: GitCliInput): Promise<GitCliResult>;
}
