/**
 * What makes the operations on one repository run one at a time: the
 * repository's canonical path (the queue key of a client) and a lock file in
 * its gitdir, shared by every Workspace on the same storage, with the fence
 * that keeps a holder that lost the lock from writing repository metadata.
 *
 * @module
 */
import type { WriteFileOptions } from "../fs/types.js";
import { readStreamBytes, sha256Hex } from "../util/bytes.js";
import { GitError } from "./errors.js";
import type { GitFsAdapter, WorkspaceLike } from "./types.js";
import { gitdirOf } from "./wrap.js";
import { headCut } from "../util/cut.js";

/**
 * The key of a client's own `(dir) => Promise<string>` giving {@link canonicalDir} on its Workspace: what the
 * command line relates its cwd and pathspecs with (a client without it is taken as link-free).
 * @internal
 */
export const CANONICAL_DIR: unique symbol = Symbol.for("agent-computer.git.canonicalDir") as never;

/** The most symbolic links followed while finding a canonical path (as the filesystem's `ELOOP` limit). */
const MAX_LINKS = 40;

/**
 * `dir` (absolute, normalised) with every symbolic link in it resolved, as
 * the filesystem resolves it: `/alias` for a link to `/repo` is `/repo`, so
 * the operations through either spelling share one queue (issue 20, seventh
 * attack run). A missing component ends the walk (the rest is kept as
 * given); more than 40 links give `dir` back unchanged. Never throws: a
 * link's target of any length is walked in a loop (not spread into a call).
 */
export async function canonicalDir(ws: WorkspaceLike, dir: string): Promise<string> {
  // The components still to walk, the next one last (a stack): a link's target is pushed in a loop,
  // never spread into one call (a target of 131,000 components overflowed it; attack16b).
  const rest: string[] = [];
  const push = (path: string): void => {
    const parts = path.split("/");
    for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== "") rest.push(parts[i] as string);
  };
  push(dir);
  // The path walked so far ("" for /), and where each of its components starts (for `..`).
  let done = "";
  const starts: number[] = [];
  let links = 0;
  while (rest.length > 0) {
    const name = rest.pop() as string;
    if (name === ".") continue;
    if (name === "..") {
      const start = starts.pop();
      if (start !== undefined) done = done.slice(0, start);
      continue;
    }
    const path = `${done}/${name}`;
    const stat = await ws.fs.lstat(path).catch(() => undefined);
    if (!stat) return rest.length === 0 ? path : `${path}/${rest.reverse().join("/")}`;
    if (!stat.isSymbolicLink) {
      starts.push(done.length);
      done = path;
      continue;
    }
    if (++links > MAX_LINKS) return dir;
    const target = await ws.fs.readlink(path).catch(() => undefined);
    if (target === undefined) return dir;
    if (target.startsWith("/")) {
      done = "";
      starts.length = 0;
    }
    push(target);
  }
  return done === "" ? "/" : done;
}

/** The lock file's name in the gitdir. */
export const REPO_LOCK_NAME = "agent-computer.lock";
/**
 * How long a lock is held without renewal before another Workspace may
 * take it over, in ms (3 s). The holder writes `Date.now()` plus this into
 * the file when it takes the lock and at every renewal, so no honest lease
 * lies further ahead.
 */
export const REPO_LOCK_LEASE_MS = 3_000;
/**
 * How far beyond {@link REPO_LOCK_LEASE_MS} a recorded expiry may lie ahead
 * of this clock and still be honoured, in ms (10 s): the clock skew allowed
 * between two writers on one storage. A lock claiming a later expiry (such
 * as `someone 99999999999999`, written by hand, by a restored backup or by a
 * writer whose clock runs far ahead) is corrupt and is taken over at once,
 * as one whose lease ran out; so is one that is not `<owner> <expires-ms>`.
 */
export const REPO_LOCK_MAX_SKEW_MS = 10_000;
/**
 * The longest a writing operation waits for a lock another writer holds, in
 * ms (30 s), before it fails `ELOCKED` (real git fails at once on an
 * existing `index.lock`). Longer than a lease plus the skew, so a lock left
 * by a holder that died is always taken over first.
 */
export const REPO_LOCK_MAX_WAIT_MS = 30_000;
/** How often a holder renews its lease while its operation runs, in ms. */
const RENEW_MS = 1_000;
/** The longest pause between two attempts to take a held lock, in ms. */
const MAX_BACKOFF_MS = 100;
/** Errors of the exclusive create that mean no lock can be made here (no `.git` yet, a read-only mount): the operation runs without it. */
const LOCKLESS = new Set(["ENOENT", "ENOTDIR", "EROFS", "EACCES", "EPERM"]);

/**
 * The lock an operation holds, handed to the function {@link withRepoLock}
 * runs (see {@link fenceWorkspace}).
 */
export interface RepoLease {
  /** The lock file (`<gitdir>/agent-computer.lock`). */
  readonly path: string;
  /**
   * Resolves while the lock file still holds this holder's token (one read
   * of it); once another writer has taken the lock over, rejects — now and
   * for good — with {@link GitError} `ELOCKLOST`.
   */
  check(): Promise<void>;
}

/**
 * Runs `fn` holding the repository lock `<dir>/.git/agent-computer.lock`:
 * a file made with an exclusive create (as real git's `index.lock`), so two
 * Workspaces over one storage (two isolates, two processes) never write
 * the same index or ref at once — without it, concurrent `add`s and
 * `commit`s all "succeeded" while the index and the branch kept one side
 * (issue 20, seventh attack run). A waiting operation retries with a short
 * backoff (2 ms doubling to 100 ms). The file holds `<owner> <expires-ms>`
 * (`owner` a random token of this holder); the holder renews it every
 * second on a timer, and a lock whose lease ran out (a holder that crashed
 * or was aborted) is taken over with a compare-and-swap after 3 s
 * ({@link REPO_LOCK_LEASE_MS}), so nothing stays stuck. A lock claiming an
 * expiry more than {@link REPO_LOCK_LEASE_MS} + {@link REPO_LOCK_MAX_SKEW_MS}
 * ahead, or holding no `<owner> <expires-ms>`, is corrupt and taken over at
 * once.
 *
 * `fn` gets the {@link RepoLease}; a holder that stalled past its lease can
 * lose the lock to another writer, and learns it from `lease.check()` (the
 * client checks before every write of repository metadata, see
 * {@link fenceWorkspace}) and at the end: an `fn` that settles after the
 * lock was taken over rejects `ELOCKLOST`. When the lock cannot be made at
 * all — no `.git` yet (`init`, `clone`), a read-only mount (`ENOENT`,
 * `ENOTDIR`, `EROFS`, `EACCES`, `EPERM`) — `fn` runs without it and gets
 * `undefined`.
 *
 * @throws GitError `ELOCKED` when another writer holds the lock for more
 *   than {@link REPO_LOCK_MAX_WAIT_MS} (30 s), or when the lock path is
 *   unusable (a directory, a dangling link, unreadable); the message names
 *   the file and how to remove it.
 * @throws GitError `ELOCKLOST` when the lock was taken over while `fn` ran
 *   (see {@link RepoLease.check}).
 */
export async function withRepoLock<T>(ws: WorkspaceLike, dir: string, fn: (lease: RepoLease | undefined) => Promise<T>): Promise<T> {
  const path = `${gitdirOf(dir)}/${REPO_LOCK_NAME}`;
  const owner = crypto.randomUUID();
  const body = () => `${owner} ${Date.now() + REPO_LOCK_LEASE_MS}\n`;
  const deadline = Date.now() + REPO_LOCK_MAX_WAIT_MS;
  let held: string | undefined;
  let other = "";
  for (let backoff = 2; held === undefined; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
    const mine = body();
    try {
      await ws.fs.writeFile(path, mine, { exclusive: true });
      held = mine;
      break;
    } catch (error) {
      const code = codeOf(error);
      if (LOCKLESS.has(code)) return fn(undefined);
      if (code !== "EEXIST") throw unusableLock(path, error);
    }
    // A link where the lock should be is never read or written through (real
    // git's O_CREAT|O_EXCL fails on any existing link): taking it over would
    // overwrite the file it points to.
    const entry = await ws.fs.lstat(path).catch(() => undefined);
    if (entry?.isSymbolicLink) throw unusableLock(path, new Error("it is a symbolic link"));
    let current: string | undefined;
    try {
      current = await ws.fs.readFile(path, "utf8");
    } catch (error) {
      if (codeOf(error) !== "ENOENT") throw unusableLock(path, error);
      // Released meanwhile — or a link to nowhere, which no create gets past.
      const link = await ws.fs.lstat(path).catch(() => undefined);
      if (link?.isSymbolicLink) throw unusableLock(path, new Error("it is a symbolic link"));
    }
    if (current !== undefined) {
      const [who, stamp] = current.trim().split(" ");
      const expires = Number(stamp);
      const now = Date.now();
      other = who ?? "";
      if (!(expires > now) || expires > now + REPO_LOCK_LEASE_MS + REPO_LOCK_MAX_SKEW_MS) {
        try {
          // ifInode: a link swapped in since the lstat above leads to another inode and fails the write.
          await ws.fs.writeFile(path, mine, { ifMatch: await contentHash(current), ...(entry ? { ifInode: entry.inode } : {}) });
          held = mine;
          break;
        } catch {
          // Someone else took it over, or it was released: try again.
        }
      }
    }
    if (Date.now() >= deadline) throw lockTimeout(path, other);
    await new Promise((resolve) => setTimeout(resolve, backoff));
  }
  let lost = false;
  const isOurs = async (): Promise<boolean> => {
    const text = await ws.fs.readFile(path, "utf8").catch(() => undefined);
    return text?.split(" ")[0] === owner;
  };
  const lease: RepoLease = {
    path,
    async check() {
      if (!lost && !(await isOurs())) lost = true;
      if (lost) throw lockLost(path);
    },
  };
  // The renewal runs on its own timer, not inside the operation's work; a
  // renewal that finds the lock taken over marks the lease lost.
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      if (lost) return;
      const next = body();
      try {
        await ws.fs.writeFile(path, next, { ifMatch: await contentHash(held!) });
        held = next;
      } catch {
        if (!(await isOurs())) lost = true;
      }
    });
  }, RENEW_MS);
  try {
    let result: T;
    try {
      result = await fn(lease);
    } catch (error) {
      if (lost && !(error instanceof GitError && error.code === "ELOCKLOST")) throw lockLost(path, error);
      throw error;
    }
    await lease.check();
    return result;
  } finally {
    clearInterval(timer);
    await renewing;
    const current = await ws.fs.readFile(path, "utf8").catch(() => undefined);
    if (current === held) await ws.fs.rm(path).catch(() => {});
  }
}

/** The `ws.fs` methods that change the tree, fenced under the gitdir (all but `writeFile`, which is fenced with a compare-and-swap). */
const CHANGES = new Set(["mkdir", "rm", "rename", "symlink", "chmod", "unlink", "rmdir", "appendFile", "truncate", "utimes", "copyFile"]);

/**
 * Whether `path` is repository metadata under one of `gitdirs`: anything in
 * the gitdir (`HEAD`, `index`, `config`, `packed-refs`, `refs/…`, `logs/…`,
 * `MERGE_HEAD`, `shallow`, …) except `objects/` (content-addressed: writing
 * an object never changes what another writer wrote) and the lock file.
 */
function isMetadata(path: unknown, gitdirs: readonly string[]): boolean {
  if (typeof path !== "string") return false;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const normal = `/${parts.join("/")}`;
  for (const gitdir of gitdirs) {
    if (!normal.startsWith(`${gitdir}/`)) continue;
    const first = normal.slice(gitdir.length + 1).split("/")[0];
    if (first !== "objects" && first !== REPO_LOCK_NAME) return true;
  }
  return false;
}

/**
 * A view of `ws` for an operation holding `lease`, whose writes of
 * repository metadata under `gitdirs` (see {@link isMetadata}) are fenced:
 * - `fs.writeFile` reads the file's current content, checks the lease
 *   ({@link RepoLease.check}: the lock file still holds our token), then
 *   writes with a compare-and-swap on what it read (`ifMatch`, or
 *   `exclusive` for a missing file), so a write that stalled past the lease
 *   never lands over what the writer that took the lock over wrote
 *   meanwhile (it fails `ESTALE`/`EEXIST` in the storage, and then
 *   `ELOCKLOST` here);
 * - `mkdir`, `rm`, `rename`, `symlink`, `chmod` check the lease first.
 * Everything else (reads, the working tree, `objects/`) goes straight to
 * `ws.fs`. A method is looked up on `ws.fs` at each call.
 */
export function fenceWorkspace(ws: WorkspaceLike, lease: RepoLease, gitdirs: readonly string[]): WorkspaceLike {
  const fs = ws.fs;
  const call = (name: string, args: unknown[]): Promise<unknown> => (Reflect.get(fs, name, fs) as (...a: unknown[]) => Promise<unknown>).apply(fs, args);
  const writeFile = async (path: unknown, data: unknown, options?: WriteFileOptions): Promise<unknown> => {
    if (!isMetadata(path, gitdirs)) return call("writeFile", [path, data, options]);
    if (options?.ifMatch !== undefined || options?.exclusive === true) {
      await lease.check();
      return call("writeFile", [path, data, options]);
    }
    let before: Uint8Array | null | undefined;
    try {
      before = await readStreamBytes(await fs.readFile(path as string));
    } catch (error) {
      before = codeOf(error) === "ENOENT" ? null : undefined; // anything else: let the write report it
    }
    await lease.check();
    const guard: WriteFileOptions = before === null ? { exclusive: true } : before === undefined ? {} : { ifMatch: await sha256Hex(before) };
    try {
      return await call("writeFile", [path, data, { ...options, ...guard }]);
    } catch (error) {
      if (["ESTALE", "EEXIST", "ENOENT"].includes(codeOf(error))) await lease.check();
      throw error;
    }
  };
  const fenced = new Proxy(fs, {
    get(target, name) {
      if (name === "writeFile") return writeFile;
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== "function") return value;
      if (typeof name === "string" && CHANGES.has(name)) {
        return async (...args: unknown[]) => {
          if (args.some((arg) => isMetadata(arg, gitdirs))) await lease.check();
          return call(name, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  const view: WorkspaceLike = { fs: fenced };
  if (typeof ws.provider === "function") (view as { provider?: WorkspaceLike["provider"] }).provider = () => ws.provider!();
  return view;
}

/**
 * isomorphic-git's `{ promises }` fs from a `createGitClient({ adapter })`,
 * with the lease checked ({@link RepoLease.check}) before every call that
 * changes repository metadata under `gitdirs`. (The built-in bridge is
 * made over {@link fenceWorkspace} instead, which also makes each write a
 * compare-and-swap; an adapter's fs takes no such condition.)
 */
export function fenceGitFs<F extends GitFsAdapter>(fs: F, lease: RepoLease, gitdirs: readonly string[]): F {
  const promises = fs.promises as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of ["readFile", "writeFile", "unlink", "readdir", "mkdir", "rmdir", "rm", "stat", "lstat", "readlink", "symlink", "chmod", "rename"]) {
    const method = promises[name];
    if (typeof method !== "function") continue;
    const changes = !["readFile", "readdir", "stat", "lstat", "readlink"].includes(name);
    out[name] = changes
      ? async (...args: unknown[]) => {
          if (args.some((arg) => isMetadata(arg, gitdirs))) await lease.check();
          return (promises[name] as (...a: unknown[]) => unknown).apply(promises, args);
        }
      : (method as (...a: unknown[]) => unknown).bind(promises);
  }
  return { ...fs, promises: out };
}

/** `ELOCKLOST`: the lock was taken over while the operation ran. */
function lockLost(path: string, cause?: unknown): GitError {
  return new GitError(
    "ELOCKLOST",
    `another writer took the repository lock ${path} after this operation stalled past its ${REPO_LOCK_LEASE_MS / 1000} s lease; ` +
      "the operation stopped before writing further repository metadata (what it wrote before may remain: check `git status` and `git log`); retry it",
    cause === undefined ? undefined : { cause },
  );
}

/** `ELOCKED`: the lock stayed held by another writer for {@link REPO_LOCK_MAX_WAIT_MS}. */
function lockTimeout(path: string, owner: string): GitError {
  return new GitError(
    "ELOCKED",
    `the repository lock ${path} is held by another writer${owner ? ` (${headCut(owner, 64)})` : ""} and was not released within ` +
      `${REPO_LOCK_MAX_WAIT_MS / 1000} s; retry later, or, if no git operation on this repository is running in any Workspace, remove the file (rm ${path})`,
  );
}

/** `ELOCKED`: the lock path holds something no lock can be made over. */
function unusableLock(path: string, error: unknown): GitError {
  const code = codeOf(error);
  const what = code === "EISDIR" ? "it is a directory" : error instanceof Error ? error.message : String(error);
  return new GitError(
    "ELOCKED",
    `cannot take the repository lock ${path}: ${what}${code && code !== "EISDIR" ? ` (${code})` : ""}; ` +
      `git never makes it anything but a file: remove it (rm -r ${path}) and retry`,
    { cause: error },
  );
}

/** `error.code` as a string, or `""`. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/** The `ifMatch` of a lock file holding `text`. */
function contentHash(text: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(text));
}
