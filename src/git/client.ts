/**
 * `createGitClient` (spec 04 §2.1): a factory of {@link GitClient}s, one per
 * Workspace. A client loads isomorphic-git and opens its fs bridge on its
 * first call; every call then shares them. Each call has its own pack
 * cache ({@link operationContext}) over the packs the client keeps between
 * calls (GIT_PACK_CACHE_BYTES, {@link PackCache}), and the network
 * operations of one client run one at a time.
 *
 * @module
 */
import type { GitContext } from "./context.js";
import { GitError } from "./errors.js";
import { createWorkspaceFsBridge } from "./fs-bridge.js";
import { loadIsomorphicGit } from "./load.js";
import { SQLiteWorkspaceProvider } from "../fs/provider.js";
import * as network from "./ops/network.js";
import * as diffs from "./ops/diff.js";
import * as refs from "./ops/refs.js";
import * as repo from "./ops/repo.js";
import * as worktree from "./ops/worktree.js";
import type {
  BaseWorktreeOptions,
  CreateGitClientOptions,
  GitClient,
  GitClientFactory,
  GitCliInput,
  GitCliResult,
  GitFsAdapter,
  GitIdentity,
  WorkspaceGitClientOptions,
  WorkspaceLike,
} from "./types.js";
import { CANONICAL_DIR, canonicalDir, fenceGitFs, fenceWorkspace, withRepoLock, type RepoLease } from "./repo-lock.js";
import { gitdirOf, OperationCancelledError, resolveDir, runOp } from "./wrap.js";
import { CONFINED_TO, containedContext, linkCheckedGitFs, linkCheckedWorkspace } from "./confine.js";
import { filteredContext } from "./ops/attributes.js"; // fixer GA
import { refFilesContext } from "./ref-files.js"; // fixer GE
import { keepPacks, operationContext, PackCache, packFileBoundedFs, packFileLimitOf } from "./operation.js";
import { GIT_MAX_PACK_FILE_BYTES } from "./limits.js";

/**
 * Makes a {@link GitClientFactory} for `WorkspaceOptions.git` (spec 04 §2.1).
 *
 * File names are POSIX names, as in git on Linux: `\` is an ordinary
 * character (`x\y.txt` is one file, `..\..\x` never a path above the
 * repository; before issue 20's twenty-first attack run isomorphic-git took
 * it for a separator). Every path an operation reads, writes or removes
 * stays under its `dir` (and, for `ws:git` in a run with a root, under that
 * root): any other fails that call with `EACCES` `paths must stay under
 * <dir>` and the operation with `E<OP>FAIL`, touching nothing outside.
 * `repoRoot` alone looks at the `.git` of directories above `dir`.
 *
 * @example
 * ```ts
 * import { Workspace } from "agent-computer";
 * import { createGitClient } from "agent-computer/git";
 *
 * const workspace = new Workspace({ storage: ctx.storage, git: createGitClient() });
 * await workspace.git.clone({ url: "https://github.com/octocat/Hello-World", dir: "/repo", depth: 1 });
 * ```
 */
export function createGitClient(options: CreateGitClientOptions = {}): GitClientFactory {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`createGitClient(options): options must be an object, got ${options === null ? "null" : typeof options}`);
  }
  const adapter = options.adapter;
  if (adapter !== undefined && typeof adapter !== "function") {
    throw new TypeError(`createGitClient(options): adapter must be a function, got ${typeof adapter}`);
  }
  const maxPackFileBytes = options.maxPackFileBytes ?? GIT_MAX_PACK_FILE_BYTES;
  if (typeof maxPackFileBytes !== "number" || !(maxPackFileBytes > 0)) {
    throw new TypeError(`createGitClient(options): maxPackFileBytes must be a number > 0, got ${typeof maxPackFileBytes === "number" ? maxPackFileBytes : typeof maxPackFileBytes}`);
  }
  return ({ ws, defaultIdentity }: WorkspaceGitClientOptions) => new WorkspaceGitClient(ws, defaultIdentity, adapter, undefined, maxPackFileBytes);
}

type Op<O, R> = (ctx: GitContext, dir: string, options: O) => Promise<R>;

/** The operations that talk to a server: one at a time per client (see `WorkspaceGitClient.#networkTurn`). */
const NETWORK_OPS = new Set(["clone", "fetch", "pull", "push"]);

/** The Workspace's node:fs-style provider (`ws.provider()`), or one over `ws.fs` for an object without it. */
function providerOf(ws: WorkspaceLike): SQLiteWorkspaceProvider {
  return typeof ws.provider === "function" ? ws.provider() : new SQLiteWorkspaceProvider(ws);
}

class WorkspaceGitClient implements GitClient {
  readonly #ws: WorkspaceLike;
  readonly #defaultIdentity: GitIdentity | undefined;
  readonly #adapter: CreateGitClientOptions["adapter"];
  #context: Promise<GitContext> | undefined;
  /** The client whose queues, lock and context this one shares: itself, or the one it was confined from. */
  readonly #base: WorkspaceGitClient;
  /** Set on a confined client ({@link CONFINED_TO}): links it writes must lead under this root. */
  readonly #linkRoot: string | undefined;
  /** The confined clients made from this one, by root. */
  readonly #confined = new Map<string, WorkspaceGitClient>();

  /** `CreateGitClientOptions.maxPackFileBytes` (see {@link packFileLimitOf}). */
  readonly #maxPackFileBytes: number;
  /** The pack files kept between operations (the base client's; see {@link PackCache}). */
  readonly #packs = new PackCache();

  constructor(
    ws: WorkspaceLike,
    defaultIdentity: GitIdentity | undefined,
    adapter: CreateGitClientOptions["adapter"],
    confine?: { base: WorkspaceGitClient; root: string },
    maxPackFileBytes: number = GIT_MAX_PACK_FILE_BYTES,
  ) {
    this.#base = confine?.base ?? this;
    this.#maxPackFileBytes = confine ? confine.base.#maxPackFileBytes : maxPackFileBytes;
    this.#linkRoot = confine?.root;
    this.#ws = confine ? linkCheckedWorkspace(ws, confine.root) : ws;
    this.#defaultIdentity = defaultIdentity;
    this.#adapter = adapter;
  }

  /** This client with working-tree links confined to `root` (see {@link CONFINED_TO}). */
  [CONFINED_TO](root: string): WorkspaceGitClient {
    const base = this.#base;
    let client = base.#confined.get(root);
    if (!client) {
      client = new WorkspaceGitClient(base.#ws, base.#defaultIdentity, base.#adapter, { base, root });
      base.#confined.set(root, client);
    }
    return client;
  }

  /** The operation context: the shared one, or (confined) one whose Workspace view and fs bridge check link targets. */
  async #contextFor(shared: GitContext): Promise<GitContext> {
    if (this.#linkRoot === undefined) return shared;
    const fs = this.#adapter ? linkCheckedGitFs(shared.fs as GitFsAdapter, this.#ws, this.#linkRoot) : await createWorkspaceFsBridge(this.#ws);
    return { ...shared, workspace: this.#ws, fs: fs as GitContext["fs"], linkRoot: this.#linkRoot };
  }

  #getContext(): Promise<GitContext> {
    this.#context ??= (async () => {
      const [{ git, http }, fs] = await Promise.all([
        loadIsomorphicGit(),
        this.#adapter ? this.#adapter(providerOf(this.#ws)) : createWorkspaceFsBridge(this.#ws),
      ]);
      return { git, http, fs: fs as GitContext["fs"], cache: {}, workspace: this.#ws, defaultIdentity: this.#defaultIdentity };
    })();
    this.#context.catch(() => (this.#context = undefined));
    return this.#context;
  }

  /**
   * Runs one operation. The operations on one repository (`dir`) run one at
   * a time, in call order: isomorphic-git's own lock is removed from the
   * bundle (it was one module-level lock keyed by ref name, shared by every
   * object in the isolate, and a `ctx.abort()` while it was held left it held
   * forever — issue 20, fifth attack run), and without a lock five commits
   * started at once all "succeeded" while the branch kept only the last
   * (issue 15 attack run). Reads wait too: they share the parsed index with
   * the writes through the client's object cache.
   *
   * The queue is keyed by the repository's canonical path (links resolved,
   * {@link canonicalDir}), so `/alias` for a link to `/repo` shares `/repo`'s
   * queue; and an operation that writes the index, refs, config or working
   * tree (`locking`) also holds the repository's lock file
   * ({@link withRepoLock}), which other Workspaces on the same storage see
   * (issue 20, seventh attack run: commits through a link, and adds and
   * commits from two Workspaces on one database, were lost while each
   * resolved as done). Its writes of repository metadata (refs, HEAD,
   * index, config, packed-refs, logs — anything in `.git` but objects) are
   * fenced ({@link fenceWorkspace}): each checks that the lock is still
   * this operation's and lands only over the content it found, so an
   * operation that stalled past its lease while another Workspace took the
   * lock over fails `ELOCKLOST` instead of overwriting that writer's commit
   * (issue 20, ninth attack run).
   */
  async #run<O extends BaseWorktreeOptions | undefined, R>(op: string, options: O, fn: Op<NonNullable<O>, R>, locking = false, contained = true): Promise<R> {
    const given = (options ?? {}) as NonNullable<O>;
    if (given === null || typeof given !== "object") {
      throw new GitError("EUSAGE", `git ${op}: options must be an object, got ${given === null ? "null" : typeof given}`);
    }
    const dir = resolveDir(given.dir);
    const signal = signalOption(op, given.signal);
    // Keys are found one call at a time, so the operations enter their queues in call order.
    const base = this.#base;
    const keyed = base.#admission.then(() => canonicalDir(this.#ws, dir));
    base.#admission = keyed.then(
      () => {},
      () => {},
    );
    const [shared, key] = await Promise.all([base.#getContext(), keyed]);
    const opened = await this.#contextFor(shared);
    const packFileLimit = packFileLimitOf(op, given, base.#maxPackFileBytes);
    const ctx: GitContext = operationContext(signal ? { ...opened, signal } : opened, packFileLimit, base.#packs);
    const previous = base.#writes.get(key) ?? Promise.resolve();
    // An operation whose signal aborted while it waited for its turn does not start.
    const unstarted = () => {
      if (signal?.aborted) throw new OperationCancelledError(signal.reason, "it did not start, so nothing changed");
    };
    // The operation runs on the canonical path: isomorphic-git and our walks take `dir` as the working tree's
    // own path, and through a link (`/alias` → `/repo`) status listed nothing and add staged nothing.
    // Absolute paths under `dir` as written are the same files under `key` (`/alias/a.txt` is `/repo/a.txt`).
    const rebased = key === dir ? given : rebasePaths(given, dir, key);
    // Every path the operation reads, writes or removes stays under its repository (and a confined run's root):
    // a backstop for any name that could lead out (see containedContext). repoRoot alone looks above `dir`.
    const within = this.#linkRoot === undefined ? [key] : [this.#linkRoot, key];
    // …and reads and writes working-tree files through the .gitattributes line-end conversion (fixer GA, run 36).
    // …and deletes and writes loose refs as git's files backend does: no empty directories left or in the way (run 37, fixer GE).
    const contain = (c: GitContext): GitContext => refFilesContext(filteredContext(contained ? containedContext(c, within) : c, key), key); // fixer GA, fixer GE
    const body = () => (unstarted(), fn(contain(ctx), key, rebased));
    const fenced = async (lease: RepoLease | undefined) => {
      unstarted();
      return fn(contain(lease ? await this.#fenced(ctx, lease, [...new Set([gitdirOf(dir), gitdirOf(key)])], packFileLimit) : ctx), key, rebased);
    };
    const run = locking ? () => withRepoLock(this.#ws, key, fenced) : body;
    const current = previous.then(() => runOp(op, dir, NETWORK_OPS.has(op) ? () => base.#networkTurn(signal, run) : run)).finally(() => keepPacks(ctx.cache));
    const settled = current.then(
      () => {},
      () => {},
    );
    base.#writes.set(key, settled);
    void settled.then(() => {
      if (base.#writes.get(key) === settled) base.#writes.delete(key);
    });
    return current;
  }

  /**
   * The context of one operation holding `lease`: its Workspace view and
   * its fs bridge fence the writes of repository metadata under `gitdirs`
   * (a bridge of its own over the fenced view; an `adapter`'s fs with the
   * lease checked before each change).
   */
  async #fenced(ctx: GitContext, lease: RepoLease, gitdirs: string[], packFileLimit: number): Promise<GitContext> {
    const workspace = fenceWorkspace(this.#ws, lease, gitdirs);
    const fs = this.#adapter
      ? fenceGitFs(ctx.fs as GitFsAdapter, lease, gitdirs)
      : packFileBoundedFs((await createWorkspaceFsBridge(workspace)) as GitContext["fs"], packFileLimit, ctx.cache);
    return { ...ctx, workspace, fs: fs as GitContext["fs"] };
  }

  /** The end of the last network operation queued (see {@link WorkspaceGitClient.#networkTurn}). */
  #network: Promise<void> = Promise.resolve();

  /**
   * Runs `fn` when the client's network operations queued before it have
   * ended: `clone`, `fetch`, `pull` and `push` of one client run one at a
   * time, in call order, whatever their repositories. A download is bounded
   * by `maxResponseBytes` (GIT_MAX_PACK_BYTES) and held in memory about 5×
   * over; ten clones at once held 150 MiB of responses and grew the heap by
   * 233 MiB (issue 20, sixteenth attack run). An operation whose `signal`
   * aborts while it waits stops waiting at once (`ECANCELED`, nothing
   * changed).
   */
  async #networkTurn<R>(signal: AbortSignal | undefined, fn: () => Promise<R>): Promise<R> {
    const previous = this.#network;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.#network = previous.then(() => mine);
    try {
      if (signal) {
        let onAbort: (() => void) | undefined;
        const aborted = new Promise<never>((_, reject) => {
          onAbort = () => reject(new OperationCancelledError(signal.reason, "it did not start, so nothing changed"));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        });
        try {
          await Promise.race([previous, aborted]);
        } finally {
          signal.removeEventListener("abort", onAbort!);
        }
      } else {
        await previous;
      }
      return await fn();
    } finally {
      release();
    }
  }

  /** The last queued operation per repository, keyed by its canonical path (see `#run`). */
  readonly #writes = new Map<string, Promise<void>>();
  /** The last key lookup (see `#run`). */
  #admission: Promise<void> = Promise.resolve();

  clone: GitClient["clone"] = (o) => this.#run("clone", o, network.clone);
  init: GitClient["init"] = (o) => this.#run("init", o, repo.init);
  status: GitClient["status"] = (o) => this.#run("status", o, repo.status);
  diff: GitClient["diff"] = (o) => this.#run("diff", o, diffs.diff);
  diffSummary: GitClient["diffSummary"] = (o) => this.#run("diff", o, diffs.diffSummary);
  add: GitClient["add"] = (o) => this.#run("add", o, repo.add, true);
  rm: GitClient["rm"] = (o) => this.#run("rm", o, repo.rm, true);
  commit: GitClient["commit"] = (o) => this.#run("commit", o, repo.commit, true);
  log: GitClient["log"] = (o) => this.#run("log", o, repo.log);
  show: GitClient["show"] = (o) => this.#run("show", o, repo.show);
  revParse: GitClient["revParse"] = (o) => this.#run("rev-parse", o, repo.revParse);
  repoRoot: GitClient["repoRoot"] = (o) => this.#run("rev-parse", o, repo.repoRoot, false, false);
  currentBranch: GitClient["currentBranch"] = (o) => this.#run("branch", o, repo.currentBranch);
  lsFiles: GitClient["lsFiles"] = (o) => this.#run("ls-files", o, repo.lsFiles);
  lsTree: GitClient["lsTree"] = (o) => this.#run("ls-tree", o, repo.lsTree);
  branch: GitClient["branch"] = (o) => this.#run("branch", o, refs.branch, true);
  branchDelete: GitClient["branchDelete"] = (o) => this.#run("branch", o, refs.branchDelete, true);
  branchList: GitClient["branchList"] = (o) => this.#run("branch", o, refs.branchList);
  tag: GitClient["tag"] = (o) => this.#run("tag", o, refs.tag, true);
  tagDelete: GitClient["tagDelete"] = (o) => this.#run("tag", o, refs.tagDelete, true);
  tagList: GitClient["tagList"] = (o) => this.#run("tag", o, refs.tagList);
  checkout: GitClient["checkout"] = (o) => this.#run("checkout", o, worktree.checkout, true);
  fetch: GitClient["fetch"] = (o) => this.#run("fetch", o, network.fetch, true);
  push: GitClient["push"] = (o) => this.#run("push", o, network.push, true);
  pull: GitClient["pull"] = (o) => this.#run("pull", o, network.pull, true);
  merge: GitClient["merge"] = (o) => this.#run("merge", o, worktree.merge, true);
  remoteAdd: GitClient["remoteAdd"] = (o) => this.#run("remote", o, network.remoteAdd, true);
  remoteRemove: GitClient["remoteRemove"] = (o) => this.#run("remote", o, network.remoteRemove, true);
  remoteList: GitClient["remoteList"] = (o) => this.#run("remote", o, network.remoteList);
  hashObject: GitClient["hashObject"] = (o) => this.#run("hash-object", o, repo.hashObject);
  catFile: GitClient["catFile"] = (o) => this.#run("cat-file", o, repo.catFile);
  updateRef: GitClient["updateRef"] = (o) => this.#run("update-ref", o, repo.updateRef, true);
  configGet: GitClient["configGet"] = (o) => this.#run("config", o, repo.configGet);
  configSet: GitClient["configSet"] = (o) => this.#run("config", o, repo.configSet, true);
  stashPush: GitClient["stashPush"] = (o) => this.#run("stash", o, worktree.stashPush, true);
  stashList: GitClient["stashList"] = (o) => this.#run("stash", o, worktree.stashList);
  stashPop: GitClient["stashPop"] = (o) => this.#run("stash", o, worktree.stashPop, true);
  reset: GitClient["reset"] = (o) => this.#run("reset", o, worktree.reset, true);
  clean: GitClient["clean"] = (o) => this.#run("clean", o, worktree.clean, true);

  /** {@link canonicalDir} on this client's Workspace (for the command line; an arrow, so a proxy of the client can call it). */
  readonly [CANONICAL_DIR] = (dir: string): Promise<string> => canonicalDir(this.#ws, dir);

  async cli(input: GitCliInput): Promise<GitCliResult> {
    const { runGitCli } = await import("./cli.js");
    const signal = (input as Partial<GitCliInput> | null | undefined)?.signal;
    if (signal === undefined) return runGitCli(this, input);
    if (!isAbortSignal(signal)) return { stdout: "", stderr: "git: signal must be an AbortSignal\n", exitCode: 129 };
    return runGitCli(withSignal(this, signal), input);
  }
}

/** Whether `value` is an `AbortSignal` (or has its shape: `aborted`, `reason`, `addEventListener`). */
function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof AbortSignal === "function" && value instanceof AbortSignal) return true;
  const v = value as { aborted?: unknown; addEventListener?: unknown } | null;
  return typeof v === "object" && v !== null && typeof v.aborted === "boolean" && typeof v.addEventListener === "function";
}

/**
 * An operation's `signal` option, checked (see `BaseWorktreeOptions.signal`).
 * @throws GitError `EUSAGE` when it is given and is not an `AbortSignal`.
 */
function signalOption(op: string, value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!isAbortSignal(value)) throw new GitError("EUSAGE", `git ${op}: signal must be an AbortSignal, got ${value === null ? "null" : typeof value}`);
  return value;
}

/** `client` with `signal` added to the options of every operation (what `cli` runs with a `signal`). */
function withSignal(client: GitClient, signal: AbortSignal): GitClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function" || typeof key !== "string" || key === "cli") return value;
      return (options?: object) => (value as (o: object) => unknown).call(target, { ...(options ?? {}), signal });
    },
  });
}

/**
 * `options` with each absolute path under `dir` (its `paths`, `path` and
 * `filepath`) moved under `key`, the canonical path `dir` leads to; other
 * values as they are.
 */
function rebasePaths<O extends object>(options: O, dir: string, key: string): O {
  const move = (value: unknown): unknown =>
    typeof value === "string" && (value === dir || value.startsWith(`${dir}/`)) ? key + value.slice(dir.length) : value;
  const out: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  if (Array.isArray(out.paths)) out.paths = out.paths.map(move);
  if ("path" in out) out.path = move(out.path);
  if ("filepath" in out) out.filepath = move(out.filepath);
  return out as O;
}
