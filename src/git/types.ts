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
import type { SQLiteWorkspaceProvider } from "../fs/provider.js";

/** A person recorded in a commit (spec 04 §2.3). */
export interface GitIdentity {
  /** Display name, e.g. `"Ada Lovelace"`. */
  name: string;
  /** E-mail address, e.g. `"ada@example.com"`. */
  email: string;
}

/**
 * What a git client needs from a Workspace: its filesystem, and its
 * node:fs-style provider for a custom {@link CreateGitClientOptions.adapter}.
 * A `Workspace` satisfies it.
 */
export interface WorkspaceLike {
  /** The Workspace filesystem every git read and write goes through (the built-in bridge reads it directly). */
  readonly fs: WorkspaceFilesystem;
  /** `workspace.provider()`, handed to `adapter`; without it, a provider over `fs` is made. */
  provider?(): SQLiteWorkspaceProvider;
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
   * Replaces the built-in bridge to isomorphic-git's `{ promises }` fs
   * (spec 04 §2.1): called once per client, on its first call, with the
   * Workspace's node:fs-style provider (`workspace.provider()`), e.g.
   * `(provider) => new VirtualFileSystem(provider)` with `@platformatic/vfs`.
   * Default: this package's bridge over `ws.fs` (streaming, paced; no copy
   * of the tree is held in memory; no extra package needed).
   */
  adapter?: (provider: SQLiteWorkspaceProvider) => Promise<GitFsAdapter> | GitFsAdapter;
  /**
   * Largest pack file (`.git/objects/pack/*.pack`, bytes) the client's
   * operations read: past it they fail `E<OP>FAIL` (`pack file too large`)
   * before reading it. isomorphic-git reads a pack whole, and copies it, so
   * the default fits a 128 MB Durable Object; raise it where memory allows
   * (Node) — with `maxResponseBytes`, so the packs such downloads bring can
   * be read by every later operation (a `clone`, `fetch` or `pull` itself
   * reads up to its `maxResponseBytes`). A positive number (`Infinity`
   * disables the bound). Default `GIT_MAX_PACK_FILE_BYTES` (16 MiB).
   */
  maxPackFileBytes?: number;
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
  /** User name for HTTP basic auth. Default: none. */
  username?: string;
  /** Password or token for HTTP basic auth. Default: none. */
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
  /**
   * Stops the operation when it aborts (an addition to spec 04; issue 20,
   * thirteenth attack run): an operation waiting for its turn on the
   * repository does not start, and the ones that write the working tree
   * (`checkout`, `clone`'s checkout, `merge`, `reset`, `pull`, `branch`
   * with `checkout`, `stashPush`, `stashPop`) stop before their next file.
   * They then reject with `GitError` `ECANCELED` (`git <op> cancelled:
   * <reason>; …`): HEAD, the branches and the index are left as they were,
   * files already written stay (a clone removes what it made). Not an
   * `AbortSignal`: `EUSAGE`. Default: none (the operation runs to its end).
   */
  signal?: AbortSignal;
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
  /**
   * Most bytes one HTTP response from the server may bring (the pack
   * included): past it the operation fails with `E<OP>FAIL` (`response too
   * large`) and keeps nothing. The Workspace's git holds a download in memory
   * about 5 times over, so the default fits a 128 MB Durable Object; raise it
   * where memory allows (Node), or clone with `depth: 1`. A positive number
   * (`Infinity` disables the bound). Default `GIT_MAX_PACK_BYTES` (16 MiB).
   */
  maxResponseBytes?: number;
}

/** `clone` (spec 04 §2.3). */
export interface GitCloneOptions extends BaseWorktreeOptions, NetworkOptions {
  /** `https://`, `http://` (or `file://` where supported) URL. */
  url: string;
  /** Branch or tag to check out. Default: the remote's HEAD. */
  ref?: string;
  /** Check out only these paths (files or directory prefixes). Default: all. */
  paths?: string[];
  /** A finite number > 0 makes a shallow clone of that many commits. Default: the full history. */
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
  /** Only these paths (exact or directory prefix). Default: all. A path in directory form (`x/`, `x/.`) matches only below a directory `x`, never a file `x`, as in git. A path holding `*`, `?`, `[` or `\` also matches as a git pathspec glob, `*` crossing `/` (`*.txt` matches `sub/c.txt`; docs/git.md "Glob pathspecs"). */
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
  /** Staged change: `"A" | "M" | "D" | "T" | " "` (`T`: the file's type changed, a symbolic link ↔ a regular file, as git; 0.8.0 gives `M`). */
  index: string;
  /** Unstaged change: `"M" | "D" | "T" | "?" | " "` (`T` as for `index`). */
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
 * `GitError` `EUSAGE`. `ref` and `to` both naming blobs (`HEAD~1:a.txt`,
 * `:a.txt`) compare the two files (`git diff <blob> <blob>`); a blob in any
 * other form, or with `paths`, is `EUSAGE` too.
 */
export interface GitDiffOptions extends BaseWorktreeOptions {
  /** The old side. Default `"HEAD"` (on an unborn branch: the empty tree). */
  ref?: string;
  /** The new side, a ref. Default: the working tree (or the index with `cached`). */
  to?: string;
  /** New side = the index (`git diff --cached`/`--staged [<ref>]`): what `commit` would record against `ref`. Default `false`. */
  cached?: boolean;
  /** Old side = the index, new side = the working tree (plain `git diff`: the unstaged changes). Default `false`. */
  fromIndex?: boolean;
  /** Only these paths (exact or directory prefix). Default: all. A path in directory form (`x/`, `x/.`) matches only below a directory `x`, never a file `x`, as in git. A path holding `*`, `?`, `[` or `\` also matches as a git pathspec glob, `*` crossing `/` (`*.txt` matches `sub/c.txt`; docs/git.md "Glob pathspecs"). */
  paths?: string[];
  /**
   * Pair a deleted and an added file holding the same blob into one rename (git's `diff.renames`, exact renames only:
   * similarity 100%), as the shell's `git diff`/`show`/`status` do: `diffSummary` gives one `R` entry (`from` the old
   * path) in place of `D` + `A`, and the patch `similarity index 100%` / `rename from` / `rename to`. Default `false`.
   */
  renames?: boolean;
}

/** One file of `diffSummary`. */
export interface DiffSummaryEntry {
  /** Path relative to `dir`. */
  path: string;
  /** `A` added, `M` modified, `D` deleted, `T` type changed (a symbolic link ↔ a regular file, as git's `--name-status`; 0.8.0 gives `M`), `R` renamed (only with the option `renames`: an exact rename, `from` → `path`). */
  status: "A" | "M" | "D" | "T" | "R";
  /** For `R`: the old path (relative to `dir`). */
  from?: string;
  /** Added lines. */
  insertions: number;
  /** Removed lines. */
  deletions: number;
  /**
   * Present when either side is binary (a NUL byte in its first 8000
   * bytes; then `insertions` and `deletions` are `0`): the sizes in bytes of
   * the old and new sides (`0` for a missing side; both `0` when the content did not change — a rename or a mode change), what `git diff --stat`
   * prints as `Bin <old> -> <new> bytes` (and `--numstat` as `-\t-`).
   */
  binary?: { oldBytes: number; newBytes: number };
}

/** `add` (spec 04 §2.3). */
export interface GitAddOptions extends BaseWorktreeOptions {
  /**
   * Paths (files or directories) relative to `dir`; `"."` is the whole tree. Default: none (with `all`/`trackedOnly`: the
   * whole tree). A path in directory form (`x/`, `x/.`) matches only below a directory `x`, never a file `x`, as in git.
   * A path holding `*`, `?`, `[` or `\` also matches as a git pathspec glob, `*` crossing `/` (`*.txt` matches `sub/c.txt`; docs/git.md "Glob pathspecs").
   */
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
  /** Paths to remove from the index (files or directories); the files stay. A path holding `*`, `?`, `[` or `\` also matches as a git pathspec glob, `*` crossing `/` (`*.txt` matches `sub/c.txt`; docs/git.md "Glob pathspecs"). */
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
  /**
   * Stage every tracked file's change (modified, deleted) first, as `git
   * commit -a`; `.git/index` is written after the branch moves, so a crash
   * before the commit leaves it unchanged. Default `false`.
   */
  all?: boolean;
  /** `GIT_AUTHOR_NAME`/`EMAIL`, `GIT_COMMITTER_NAME`/`EMAIL` (never `process.env`). Default: none. */
  env?: Record<string, string | undefined>;
}

/** `commit` result. */
export interface CommitResult {
  /** The new commit's 40-hex oid. */
  oid: string;
}

/** A commit person: seconds and minutes as in git objects. */
export interface CommitPerson {
  /** Display name. */
  name: string;
  /** E-mail address. */
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes (isomorphic-git sign: UTC − local, so `+0200` is `-120`). */
  timezoneOffset: number;
}

/** A commit as `log` and `show` return it (spec 04 §2.3). */
export interface CommitView {
  /** The commit's 40-hex oid. */
  oid: string;
  /** The full message, ending in a newline as stored. */
  message: string;
  /** The tree oid. */
  tree: string;
  /** Parent oids, first parent first. */
  parent: string[];
  /** Who wrote the change. */
  author: CommitPerson;
  /** Who made the commit. */
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
  /**
   * A revision: a ref, a full or short oid, with `^`, `~N`, `^N` chains, `^{}`, `^{commit}`, `^{tree}` (a tree
   * stays itself) and `:<path>` in the tree it names (`HEAD^{tree}:d` and `<tree-oid>:d` too, as git); or
   * `:<path>` / `:<n>:<path>` alone, the index's entry at stage `<n>` (default 0), as git; `:/<text>`, the youngest commit
   * reachable from any ref whose message matches the regular expression `<text>` (a JavaScript RegExp).
   */
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
  /** A commit-ish whose tree is listed. Default: none (the index). */
  ref?: string;
}

/** `lsTree`. */
export interface GitLsTreeOptions extends BaseWorktreeOptions {
  /** A commit-ish or tree-ish (`HEAD`, `v1`, an oid). */
  ref: string;
  /** A directory inside the tree. Default: the root. */
  path?: string;
}

/** One tree entry. */
export interface TreeEntryView {
  /** Octal string, e.g. `"100644"`, `"040000"`. */
  mode: string;
  /** Path relative to the tree's root (repository-relative for `lsTree`). */
  path: string;
  /** The entry's object oid. */
  oid: string;
  /** `blob` (file or link), `tree` (directory) or `commit` (submodule). */
  type: "blob" | "tree" | "commit";
}

/** `branch`. */
export interface GitBranchOptions extends BaseWorktreeOptions {
  /** Branch name (`feature`, not `refs/heads/feature`). */
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
  /** Branch name (`main`, not `refs/heads/main`). */
  name: string;
}
/** `branchList`. */
export interface GitBranchListOptions extends BaseWorktreeOptions {
  /** List a remote's branches (`refs/remotes/<remote>`). Default: local. */
  remote?: string;
}
/** `tag` (lightweight). */
export interface GitTagOptions extends BaseWorktreeOptions {
  /** Tag name (`v1.0`, not `refs/tags/v1.0`). */
  name: string;
  /** Default `"HEAD"`. */
  object?: string;
  /** Replace an existing tag. Default `false`. */
  force?: boolean;
}
/** `tagDelete`. */
export interface GitTagDeleteOptions extends BaseWorktreeOptions {
  /** Tag name. */
  name: string;
}
/** `tagList`. */
export type GitTagListOptions = BaseWorktreeOptions;

/** `checkout`: with `paths`, restores them from `ref` (or, without one, from the index) and HEAD stays. */
export interface GitCheckoutOptions extends BaseWorktreeOptions {
  /**
   * Branch, tag or commit to check out. Required without `paths`. With `paths`, optional: omitted, the paths are
   * restored from the index and the index is left as it is (`git checkout -- <paths>`: staged changes kept); given,
   * from that commit into the index and the working tree (`git checkout <ref> -- <paths>`). (0.8.0 always requires `ref`.)
   * Default: none — required without `paths`; with `paths`, the index.
   */
  ref?: string;
  /**
   * Only restore these paths (files or directory prefixes) from `ref` (or the index); HEAD stays. Default: none (switch to `ref`).
   * A path in directory form (`x/`, `x/.`) matches only below a directory `x`, never a file `x`, as in git.
   * A path holding `*`, `?`, `[` or `\` also matches as a git pathspec glob, `*` crossing `/` (`*.txt` matches `sub/c.txt`; docs/git.md "Glob pathspecs"),
   * unless it names an entry of the index (or of `ref`) exactly: then only that entry, as git (`[ab].txt` leaves `a.txt`).
   */
  paths?: string[];
  /** Overwrite local changes. Default `false`. */
  force?: boolean;
}

/** `fetch`. */
export interface GitFetchOptions extends BaseWorktreeOptions, NetworkOptions {
  /** Remote name. Default `"origin"` (ignored when `url` is given). */
  remote?: string;
  /** A URL instead of a remote. Default: none (the remote's URL). */
  url?: string;
  /** Local branch to fetch for. Default: the current branch. */
  ref?: string;
  /** Remote branch to fetch. Default: the one `ref` tracks, else `ref`. */
  remoteRef?: string;
  /** Commits of history to fetch (a shallow fetch). Default: all. */
  depth?: number;
  /** Fetch only one branch. Default `false`. */
  singleBranch?: boolean;
  /** Fetch tags too. Default `false`. */
  tags?: boolean;
  /** Delete remote-tracking refs the remote no longer has. Default `false`. */
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
  /** Remote name. Default `"origin"` (ignored when `url` is given). */
  remote?: string;
  /** A URL to push to instead of a remote. Default: none. */
  url?: string;
  /** Local ref. Default: the current branch. */
  ref?: string;
  /** Remote branch to update. Default: the same name as `ref`. */
  remoteRef?: string;
  /** Overwrite the remote branch even when not a fast-forward. Default `false`. */
  force?: boolean;
  /** Delete `remoteRef` on the remote. Default `false`. */
  delete?: boolean;
  /**
   * Most bytes of objects the push may pack (what it sends; each counted
   * once: a loose object by its stored, compressed size, one from a pack
   * file by its inflated size; trees it only walks do not count): past it the push
   * fails with `EPUSHFAIL` (`pack too large`) before sending the pack. The
   * Workspace's git builds that pack in memory about 2.5 times over, so the
   * default fits a 128 MB Durable Object; raise it where memory allows
   * (Node). A positive number (`Infinity` disables the bound). Default
   * `GIT_MAX_PUSH_BYTES` (32 MiB).
   */
  maxPushBytes?: number;
}
/** Per-ref outcome of a push. */
export interface RefUpdateStatus {
  /** The ref was updated. */
  ok: boolean;
  /** Why not (`""` when it was). */
  error: string;
}
/** `push` result. */
export interface PushResult {
  /** Every ref was updated. */
  ok: boolean;
  /** Why the push was refused; `null` when it was not. */
  error: string | null;
  /** Outcome per remote ref name. */
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
  /** Merge-commit committer; as `author`. Default: the identity chain, else the author. */
  committer?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /**
   * `GIT_AUTHOR_*`/`GIT_COMMITTER_*` for the identity chain (never `process.env`). Default: none.
   */
  env?: Record<string, string | undefined>;
}

/** `merge`. */
export interface GitMergeOptions extends BaseWorktreeOptions {
  /** The branch, tag or commit to merge in. */
  theirs: string;
  /** Default: the current branch. */
  ours?: string;
  /** Merge commit message. Default: real git's (`Merge branch '<b>'`, …). */
  message?: string;
  /** Allow a fast-forward. Default `true`. */
  fastForward?: boolean;
  /** Fail unless a fast-forward is possible. Default `false`. */
  fastForwardOnly?: boolean;
  /** Merge-commit author; may carry `timestamp` (s) and `timezoneOffset` (min) only. Default: the identity chain. */
  author?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /** Merge-commit committer; as `author`. Default: the identity chain, else the author. */
  committer?: Partial<GitIdentity> & { timestamp?: number; timezoneOffset?: number };
  /**
   * `GIT_AUTHOR_*`/`GIT_COMMITTER_*` for the identity chain (never `process.env`). Default: none.
   */
  env?: Record<string, string | undefined>;
}
/** `merge` result. */
export interface MergeResult {
  /** The commit the branch now points at (absent when nothing changed). */
  oid?: string;
  /** `theirs` was already contained in ours. */
  alreadyMerged?: boolean;
  /** The branch was moved forward without a merge commit. */
  fastForward?: boolean;
}

/** `remoteAdd`. */
export interface GitRemoteAddOptions extends BaseWorktreeOptions {
  /** Remote name, e.g. `origin`. */
  name: string;
  /** The remote's URL. */
  url: string;
  /** Replace an existing remote of that name. Default `false`. */
  force?: boolean;
}
/** `remoteRemove`. */
export interface GitRemoteRemoveOptions extends BaseWorktreeOptions {
  /** Remote name. */
  name: string;
}
/** `remoteList`. */
export type GitRemoteListOptions = BaseWorktreeOptions;
/** One remote. */
export interface RemoteView {
  /** Remote name. */
  name: string;
  /** Its fetch URL. */
  url: string;
}

/** `hashObject`: the blob oid of `content`, stored when `write`. */
export interface GitHashObjectOptions extends BaseWorktreeOptions {
  /** The blob's content (a string is written as UTF-8). */
  content: string | Uint8Array;
  /** Store the blob in the repository. Default `false` (only hash; no repository needed). */
  write?: boolean;
}
/** `catFile`. */
export interface GitCatFileOptions extends BaseWorktreeOptions {
  /** A full or short oid, or any revision (`HEAD`, `v1^{}`); `rev:path` is accepted too. */
  oid: string;
  /** A path inside the tree of `oid`. Default: none (the object itself). */
  filepath?: string;
}
/** `catFile` result. */
export interface CatFileResult {
  /** The object's 40-hex oid (for `filepath`, the blob's). */
  oid: string;
  /** The object's content (a blob's bytes; a tree, commit or tag in git's object format). */
  bytes: Uint8Array;
  /** The object type, when known. */
  type?: "blob" | "tree" | "commit" | "tag";
}
/** `updateRef`. */
export interface GitUpdateRefOptions extends BaseWorktreeOptions {
  /** Full ref name, e.g. `refs/heads/main`. */
  ref: string;
  /** A 40-hex oid, or a ref name when `symbolic`. */
  value: string;
  /** Overwrite an existing ref. Default `false` (an existing ref fails). */
  force?: boolean;
  /** Make a symbolic ref pointing at `value`. Default `false`. */
  symbolic?: boolean;
}
/** `configGet`: `.git/config` only. */
export interface GitConfigGetOptions extends BaseWorktreeOptions {
  /** Key, `section[.subsection].name` (e.g. `user.name`, `remote.origin.url`). */
  path: string;
  /** Every value of a multi-valued key, as an array. Default `false` (the last value). */
  all?: boolean;
}
/** `configSet`: `.git/config` only; `value: undefined` unsets. */
export interface GitConfigSetOptions extends BaseWorktreeOptions {
  /** Key, `section[.subsection].name`; invalid keys fail `EUSAGE`. */
  path: string;
  /** The value; `undefined` removes the key. */
  value: string | boolean | number | undefined;
  /** Add a value to a multi-valued key instead of replacing it. Default `false`. */
  append?: boolean;
}
/** `stashPush`. */
export interface StashPushOptions extends BaseWorktreeOptions {
  /** Stash message. Default: `WIP on <branch>: <oid7> <subject>`. */
  message?: string;
}
/** `stashPop`. */
export interface StashPopOptions extends BaseWorktreeOptions {
  /** Default `0` (newest). */
  index?: number;
}
/** `reset`: with `paths`, unstage them; with `hard`, reset index and tree. */
export interface ResetOptions extends BaseWorktreeOptions {
  /** Only reset these index entries to `ref` (the files stay). Default: none. A path in directory form (`x/`, `x/.`) matches only below a directory `x`, never a file `x`, as in git. A path holding `*`, `?`, `[` or `\` also matches as a git pathspec glob, `*` crossing `/` (`*.txt` matches `sub/c.txt`; docs/git.md "Glob pathspecs"). */
  paths?: string[];
  /** Reset the index and the working tree to `ref`. Default `false` (mixed: branch and index). */
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
  /**
   * Passed to every client operation the command line runs (see
   * {@link BaseWorktreeOptions.signal}): once it aborts, the command stops
   * before its next file and exits 1 with `git <sub>: cancelled: <reason>; …`.
   * Default: none.
   */
  signal?: AbortSignal;
}
/** `cli` result: what real git would print and its exit code. */
export interface GitCliResult {
  /**
   * What git printed on standard output: UTF-8 text, each byte that is not UTF-8 (a blob's, a patch line's) as the
   * lone surrogate U+DC00 + byte ("surrogateescape"; U+FFFD before issue 20's twenty-fifth attack run).
   */
  stdout: string;
  /** What git printed on standard error (progress lines, `git <sub>: <message>` errors). */
  stderr: string;
  /** 0 ok · 1 failure · 128 repository/identity/pathspec errors and real git's other `fatal:` cases · 129 usage errors. */
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
  /**
   * Clones `url` into `dir` (spec 04 §2.3). An empty repository (no refs) leaves HEAD on the unborn branch `main`,
   * `remote.origin.*` and `branch.main.*` set and nothing checked out, as git 2.39's clone (fixer GE, run 37).
   * @throws GitError `ECLONEFAIL`, `EALREADYINIT`-style refusal of a `dir` holding a repository; `ECLONEFAIL`
   * `Remote branch <ref> not found in upstream origin` for a `ref` of an empty repository.
   */
  clone(options: GitCloneOptions): Promise<void>;
  /** Creates a repository in `dir`. @throws AlreadyInitializedError `EALREADYINIT`. */
  init(options?: GitInitOptions): Promise<void>;
  /**
   * Changed paths, sorted; clean paths omitted. Untracked paths that `.gitignore` / `.git/info/exclude` ignore are
   * left out as git decides: a directory re-included (`!*\/`, `!src/lib/`) applies to what is in it, `[!x]` / `[^x]`
   * negate a class; a deleted `.git/index` reads as empty (docs/git.md). @throws NotARepositoryError `ENOTAREPO`.
   */
  status(options?: GitStatusOptions): Promise<StatusEntry[]>;
  /**
   * A unified patch in real git's format; a text's byte that is not UTF-8 is U+DC00 + byte ("surrogateescape";
   * U+FFFD before issue 20's twenty-fifth attack run). @throws GitError `EDIFFFAIL`.
   */
  diff(options?: GitDiffOptions): Promise<string>;
  /** Per-file counts of the same comparison as `diff`. */
  diffSummary(options?: GitDiffOptions): Promise<DiffSummaryEntry[]>;
  /**
   * Stages paths. @throws PathspecNotFoundError `EPATHSPEC` · PathOutsideRepoError `EPATHOUTSIDE`.
   */
  add(options: GitAddOptions): Promise<void>;
  /** Removes paths from the index only (the files stay). */
  rm(options: GitRmOptions): Promise<void>;
  /**
   * Commits the index (see Identity above). @throws MissingIdentityError `EIDENTITY` · GitError `EMSG` blank message.
   */
  commit(options: GitCommitOptions): Promise<CommitResult>;
  /** Commits reachable from `ref`, real git's default order. */
  log(options?: GitLogOptions): Promise<CommitView[]>;
  /** One commit. */
  show(options?: GitShowOptions): Promise<CommitView>;
  /** The 40-hex oid a revision names. @throws GitError `EREVPARSEFAIL`. */
  revParse(options: GitRevParseOptions): Promise<string>;
  /** The nearest directory at or above `dir` holding `.git`. @throws NotARepositoryError. */
  repoRoot(options?: GitRepoRootOptions): Promise<string>;
  /** The checked-out branch; `undefined` when HEAD is detached. */
  currentBranch(options?: GitCurrentBranchOptions): Promise<string | undefined>;
  /** Paths in the index (or in `ref`'s tree), sorted. */
  lsFiles(options?: GitLsFilesOptions): Promise<string[]>;
  /** The entries of one tree. */
  lsTree(options: GitLsTreeOptions): Promise<TreeEntryView[]>;
  /** Creates a branch (and switches to it with `checkout`). */
  branch(options: GitBranchOptions): Promise<void>;
  /**
   * Deletes a branch (not the checked-out one), merged or not, as `git branch -D`. (The CLI's `git branch -d`
   * keeps a branch that is not merged into its upstream or HEAD, as git.)
   */
  branchDelete(options: GitBranchDeleteOptions): Promise<void>;
  /** Branch names, sorted. */
  branchList(options?: GitBranchListOptions): Promise<string[]>;
  /** Creates a lightweight tag. */
  tag(options: GitTagOptions): Promise<void>;
  /** Deletes a tag. */
  tagDelete(options: GitTagDeleteOptions): Promise<void>;
  /** Tag names, sorted. */
  tagList(options?: GitTagListOptions): Promise<string[]>;
  /**
   * Switches to `ref`, or restores `paths` from it. Refuses to overwrite local changes without `force`.
   */
  checkout(options: GitCheckoutOptions): Promise<void>;
  /** Fetches from a remote or URL (http(s) only; bounded by `timeoutMs` of silence). */
  fetch(options?: GitFetchOptions): Promise<FetchResult>;
  /** Pushes a branch; a rejection resolves `{ ok: false }` rather than throwing. */
  push(options?: GitPushOptions): Promise<PushResult>;
  /** Fetch, then merge into the current branch. */
  pull(options?: GitPullOptions): Promise<void>;
  /**
   * Merges `theirs` into the current branch and updates the working tree; conflicts fail `EMERGEFAIL` and change nothing.
   */
  merge(options: GitMergeOptions): Promise<MergeResult>;
  /** Adds a remote. */
  remoteAdd(options: GitRemoteAddOptions): Promise<void>;
  /** Removes a remote and its remote-tracking refs. */
  remoteRemove(options: GitRemoteRemoveOptions): Promise<void>;
  /** Remotes, sorted by name. */
  remoteList(options?: GitRemoteListOptions): Promise<RemoteView[]>;
  /** The blob oid of `content` (stored with `write`). */
  hashObject(options: GitHashObjectOptions): Promise<string>;
  /** One object's type and bytes. */
  catFile(options: GitCatFileOptions): Promise<CatFileResult>;
  /** Sets a ref (or a symbolic ref). */
  updateRef(options: GitUpdateRefOptions): Promise<void>;
  /** A value of `.git/config` (strings); `undefined` when unset. */
  configGet(options: GitConfigGetOptions): Promise<string | string[] | undefined>;
  /** Sets or (with `value: undefined`) unsets a key of `.git/config`. */
  configSet(options: GitConfigSetOptions): Promise<void>;
  /**
   * Stashes the local changes (real git's stash commits); nothing to save makes no entry. Refuses before writing
   * (`ESTASHFAIL`) a tracked path beyond a symbolic link, as git, and an untracked file the reset would overwrite
   * (git overwrites it; issue 20, twenty-fourth attack run).
   */
  stashPush(options?: StashPushOptions): Promise<void>;
  /** Newest first, `stash@{0}: <message>` strings. */
  stashList(options?: BaseWorktreeOptions): Promise<string[]>;
  /**
   * Applies and drops a stash entry, merging it with the changes made since as git does (a conflict refuses before
   * writing, `ESTASHFAIL` `CONFLICT (content): …`, and keeps the entry; issue 20, run 31).
   */
  stashPop(options?: StashPopOptions): Promise<void>;
  /** Resets index entries (`paths`), or the branch and index (mixed), or everything (`hard`). */
  reset(options?: ResetOptions): Promise<void>;
  /** Removed (or, with `dryRun`, removable) paths. */
  clean(options?: CleanOptions): Promise<string[]>;
  /**
   * Real-git-style command line (spec 04 §2.5); never throws for user errors. As git: `branch -d` refuses a branch
   * that is not fully merged (exit 1; `-D` deletes it), `show` of a tree prints `tree <ref>`, a blank line and its
   * names, and an invalid branch or tag name exits 128 (issue 20, twenty-third attack run). `fetch <remote>
   * [+]<src>:<dst>` stores the fetched commit at `<dst>` as git (fast-forward or `+`, else rejected, exit 1), `pull`
   * refuses a `<src>:<dst>` (129) and `push` forces with a leading `+` (twenty-fourth attack run). Where real git
   * dies with `fatal:` (a branch or tag that exists, an unknown revision, `switch` to no branch) it exits 128, and a
   * blob's byte that is not UTF-8 comes in `stdout` as U+DC00 + byte (twenty-fifth attack run; 1 and U+FFFD before).
   * Such a byte in an argument or identity variable is read as Latin-1 in a commit's text (`-m`, `--author`,
   * `GIT_AUTHOR_NAME`, …; git's `Warning: commit message did not conform to UTF-8.`), kept in `--format`, and refused
   * (exit 128, EILSEQ) in a ref name, pathspec, revision or config (twenty-sixth attack run; stored as U+FFFD before).
   */
  cli(input: GitCliInput): Promise<GitCliResult>;
}
