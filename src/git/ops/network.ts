/**
 * Network operations (spec 04 §2.3 "Network"): `clone`, `fetch`, `push`,
 * `pull`, and the remotes (`remoteAdd`, `remoteRemove`, `remoteList`).
 *
 * Transport: isomorphic-git's smart-HTTP client over `fetch`, so only
 * `http://` and `https://` URLs work; any other scheme (`file://`, `ssh://`,
 * `git@host:path`) is refused with `E<OP>FAIL` and the message
 * `git <op> failed: unsupported transport '<scheme>' for <url>: only
 * http:// and https:// URLs work in the Workspace`.
 *
 * Timeouts: every HTTP request is bounded by `timeoutMs` (default
 * {@link DEFAULT_NETWORK_TIMEOUT_MS}, 60 s) of **silence** — waiting that
 * long for the response headers or for the next chunk of a body aborts the
 * request and fails the operation with `E<OP>FAIL` (`ECLONEFAIL`,
 * `EFETCHFAIL`, `EPUSHFAIL`, `EPULLFAIL`) and the message
 * `git <op> failed: no response from <url> for <n> ms (timed out)`. A
 * transfer that keeps receiving data is never cut by time, however long it
 * takes; it is cut by size: one response may hold at most
 * {@link GIT_MAX_PACK_BYTES} (16 MiB), past which the operation fails
 * `E<OP>FAIL` `response too large: …`.
 *
 * Cancelling: the operation's `signal` aborts the request in progress at
 * once; the operation rejects `ECANCELED` (a clone removes what it made, a
 * fetch or pull puts back the refs).
 *
 * Failures: `EUSAGE` for a missing or mistyped option, `ENOTAREPO` (every
 * operation but `clone`), `E<OP>FAIL` for the rest (`EREMOTEFAIL` for the
 * remote operations). A rejected push is not a failure: `push` resolves
 * `{ ok: false, error, refs }`.
 *
 * @module
 */
import type { GitContext, GitHttpClient, IndexUpdate } from "../context.js";
import { GitError, PUSH_NON_FAST_FORWARD, PUSH_TAG_EXISTS } from "../errors.js";
import type {
  FetchResult,
  GitCloneOptions,
  GitFetchOptions,
  GitPullOptions,
  GitPushOptions,
  GitRemoteAddOptions,
  GitRemoteListOptions,
  GitRemoteRemoveOptions,
  PushResult,
  RefUpdateStatus,
  RemoteView,
} from "../types.js";
import { GIT_MAX_PACK_BYTES, GIT_MAX_PUSH_BYTES } from "../limits.js";
import { pushBoundedFs } from "../operation.js";
import { anonymizeUrl, displayFetchUrl } from "../url.js"; // GC
import { pushDefaultDestination } from "../push-default.js"; // fixer GN
import { gitdirOf, OperationCancelledError, requireRepo, throwIfCancelled } from "../wrap.js";
import { assertTreeDepth, cancellableFs, flatTree, readAll, updateIndex } from "./tree-state.js";
import { merge } from "./worktree.js";

/** Default silence allowed on one HTTP request before it is aborted: 60,000 ms. */
export const DEFAULT_NETWORK_TIMEOUT_MS = 60_000;

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days); a larger `timeoutMs` disables the bound. */
const MAX_TIMER_MS = 2_147_483_647;

type Op = "clone" | "fetch" | "push" | "pull" | "remote";

function fail(op: Op, message: string, cause?: unknown): GitError {
  return new GitError(`E${op.toUpperCase()}FAIL`, `git ${op} failed: ${message}`, cause === undefined ? undefined : { cause });
}

function usage(op: Op, message: string): GitError {
  return new GitError("EUSAGE", `git ${op}: ${message}`);
}

function kind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function optString(op: Op, options: object, key: string): string | undefined {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw usage(op, `${key} must be a non-empty string, got ${kind(value)}`);
  return value;
}

function optBool(op: Op, options: object, key: string): boolean | undefined {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw usage(op, `${key} must be a boolean, got ${kind(value)}`);
  return value;
}

/** `depth`: a finite number > 0 (floored) → shallow; anything else (undefined, 0, Infinity) → full. */
function optDepth(op: Op, options: object): number | undefined {
  const value = (options as Record<string, unknown>).depth;
  if (value === undefined) return undefined;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) throw usage(op, `depth must be a number >= 0, got ${kind(value)}`);
  return Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

function optCallback<T>(op: Op, options: object, key: string): T | undefined {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw usage(op, `${key} must be a function, got ${kind(value)}`);
  return value as T;
}

function optHeaders(op: Op, options: object): Record<string, string> | undefined {
  const value = (options as Record<string, unknown>).headers;
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.values(value).every((v) => typeof v === "string")) {
    throw usage(op, "headers must be an object of strings");
  }
  return { ...(value as Record<string, string>) };
}

/** The operation's `maxResponseBytes` ({@link GIT_MAX_PACK_BYTES} by default). @throws GitError `EUSAGE` unless a number > 0. */
function maxResponseBytesOf(op: Op, options: object): number {
  const value = (options as Record<string, unknown>).maxResponseBytes;
  if (value === undefined) return GIT_MAX_PACK_BYTES;
  if (typeof value !== "number" || !(value > 0)) throw usage(op, `maxResponseBytes must be a number > 0, got ${kind(value)}`);
  return value;
}

/** `push`'s `maxPushBytes` ({@link GIT_MAX_PUSH_BYTES} by default). @throws GitError `EUSAGE` unless a number > 0. */
function maxPushBytesOf(options: object): number {
  const value = (options as Record<string, unknown>).maxPushBytes;
  if (value === undefined) return GIT_MAX_PUSH_BYTES;
  if (typeof value !== "number" || !(value > 0)) throw usage("push", `maxPushBytes must be a number > 0, got ${kind(value)}`);
  return value;
}

function timeoutOf(op: Op, options: object): number {
  const value = (options as Record<string, unknown>).timeoutMs;
  if (value === undefined) return DEFAULT_NETWORK_TIMEOUT_MS;
  if (typeof value !== "number" || !(value > 0)) throw usage(op, `timeoutMs must be a number > 0, got ${kind(value)}`);
  return value;
}

/**
 * @throws GitError `E<OP>FAIL` "unsupported transport" unless `url` is
 * `http://` or `https://`.
 */
export function checkTransport(op: Op, url: string): void {
  if (/^https?:\/\//i.test(url)) return;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1] ?? (/^[^/:]+@[^/:]+:/.test(url) ? "ssh" : "");
  throw fail(
    op,
    scheme
      ? `unsupported transport '${scheme}' for ${url}: only http:// and https:// URLs work in the Workspace`
      : `unsupported transport for '${url}': not a URL; only http:// and https:// URLs work in the Workspace`,
  );
}

/** The options every isomorphic-git network call takes, from ours. */
function networkArgs(op: Op, options: object) {
  const args: Record<string, unknown> = {};
  const headers = optHeaders(op, options);
  if (headers) args.headers = headers;
  const corsProxy = optString(op, options, "corsProxy");
  if (corsProxy) args.corsProxy = corsProxy;
  for (const key of ["onProgress", "onMessage", "onAuth"]) {
    const fn = optCallback(op, options, key);
    if (fn) args[key] = fn;
  }
  return args;
}

/** Thrown inside a request when the server stays silent too long. */
class NetworkTimeout extends Error {
  constructor(url: string, ms: number) {
    super(`no response from ${anonymizeUrl(url)} for ${ms} ms (timed out)`);
    this.name = "NetworkTimeout";
  }
}

/** Thrown inside a request when the server's response passes {@link GIT_MAX_PACK_BYTES}. */
class ResponseTooLarge extends Error {
  constructor(url: string, limit: number) {
    super(
      `response too large: ${anonymizeUrl(url)} sent more than ${limit} bytes (the limit: maxResponseBytes, default GIT_MAX_PACK_BYTES); ` +
        "the Workspace's git holds a download in memory several times over and does not take one this large: " +
        "clone with depth: 1, or a smaller repository (or raise maxResponseBytes where memory allows)",
    );
    this.name = "ResponseTooLarge";
  }
}

/**
 * A {@link boundedHttp} client: also tells whether one of its bounds refused
 * a response.
 */
export interface BoundedHttpClient extends GitHttpClient {
  /**
   * The first {@link NetworkTimeout} or {@link ResponseTooLarge} a request
   * failed with, else `undefined`. isomorphic-git reads a ref advertisement
   * through a pkt-line reader that takes a body's error for its end, so a cut
   * `info/refs` comes back as "Empty response from git server." or as the part
   * of the ref list that arrived (and the operation goes on with it): the
   * operation fails with this instead, whatever isomorphic-git made of it.
   */
  readonly refused: Error | undefined;
}

/**
 * `http` with every wait bounded:
 *
 * - time: the response headers and each body chunk must arrive within `ms`
 *   of being asked for, else the request is aborted and the wait rejects
 *   with {@link NetworkTimeout};
 * - size: a response declaring a `content-length` over `maxBytes`, or whose
 *   body passes it, is aborted and rejects with {@link ResponseTooLarge}
 *   ({@link GIT_MAX_PACK_BYTES} by default);
 * - the operation's `signal`: its abort aborts the request at once and the
 *   wait in progress (and any later one) rejects with
 *   {@link OperationCancelledError}.
 *
 * Each wait is raced against the timer and the signal, so a transport that
 * ignores the abort still cannot hang the operation. The first refusal by
 * time or size is kept ({@link BoundedHttpClient.refused}), and every later
 * request of the client fails with it without being sent.
 */
export function boundedHttp(http: GitHttpClient, ms: number, signal?: AbortSignal, maxBytes: number = GIT_MAX_PACK_BYTES): BoundedHttpClient {
  let refused: Error | undefined;
  return {
    get refused() {
      return refused;
    },
    async request(request) {
      if (signal?.aborted) throw new OperationCancelledError(signal.reason);
      // Nothing more is asked once a response was refused (not a pack for a ref list cut short).
      if (refused !== undefined) throw refused;
      const controller = new AbortController();
      const unlinks: Array<() => void> = [];
      const link = (source: AbortSignal | undefined, reason: () => unknown) => {
        if (!source) return;
        if (source.aborted) return controller.abort(reason());
        const onAbort = () => controller.abort(reason());
        source.addEventListener("abort", onAbort, { once: true });
        unlinks.push(() => source.removeEventListener("abort", onAbort));
      };
      link((request as { signal?: AbortSignal }).signal, () => (request as { signal?: AbortSignal }).signal?.reason);
      link(signal, () => new OperationCancelledError(signal?.reason));
      /** The request is over (body read, failed or dropped): let go of the signals. */
      const finish = () => {
        for (const unlink of unlinks.splice(0)) unlink();
      };
      const abandon = (error: unknown): never => {
        if (refused === undefined && (error instanceof NetworkTimeout || error instanceof ResponseTooLarge)) refused = error;
        controller.abort(error);
        finish();
        throw error;
      };
      const bounded = <T>(promise: Promise<T>): Promise<T> => {
        if (signal?.aborted) {
          promise.catch(() => undefined);
          return Promise.reject(new OperationCancelledError(signal.reason));
        }
        const races: Promise<T>[] = [promise];
        let timer: ReturnType<typeof setTimeout> | undefined;
        // setTimeout fires at once past 2^31 − 1 ms: such bounds (and Infinity) mean "no bound".
        if (ms <= MAX_TIMER_MS) {
          races.push(
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                const error = new NetworkTimeout(request.url, ms);
                controller.abort(error);
                reject(error);
              }, ms);
            }),
          );
        }
        let onAbort: (() => void) | undefined;
        if (signal) {
          races.push(
            new Promise<never>((_, reject) => {
              onAbort = () => reject(new OperationCancelledError(signal.reason));
              signal.addEventListener("abort", onAbort, { once: true });
            }),
          );
        }
        return Promise.race(races).finally(() => {
          clearTimeout(timer);
          if (onAbort) signal?.removeEventListener("abort", onAbort);
        });
      };
      let response: Awaited<ReturnType<GitHttpClient["request"]>>;
      try {
        response = await bounded(http.request({ ...request, signal: controller.signal } as typeof request));
      } catch (error) {
        return abandon(error);
      }
      const declared = Number(headerValue(response.headers, "content-length"));
      if (declared > maxBytes) abandon(new ResponseTooLarge(request.url, maxBytes));
      const body = response.body;
      if (!body) {
        finish();
        return response;
      }
      const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]
        ? (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
        : (body as unknown as AsyncIterator<Uint8Array>);
      let received = 0;
      const wrapped: AsyncIterableIterator<Uint8Array> = {
        next: async () => {
          let result: IteratorResult<Uint8Array>;
          try {
            result = await bounded(iterator.next());
          } catch (error) {
            return abandon(error);
          }
          if (result.done) finish();
          else if (result.value) {
            received += result.value.byteLength;
            if (received > maxBytes) abandon(new ResponseTooLarge(request.url, maxBytes));
          }
          return result;
        },
        return: async (value?: unknown) => {
          controller.abort();
          finish();
          return (await iterator.return?.(value)) ?? { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      return { ...response, body: wrapped };
    },
  };
}

/** A response header's value, whatever the case of its name. */
function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** isomorphic-git's error code (`NotFoundError`, `PushRejectedError`, …), if any. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

async function configValue(ctx: GitContext, dir: string, path: string): Promise<string | undefined> {
  const value = (await ctx.git.getConfig({ fs: ctx.fs, dir, path })) as unknown;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** `url` when given, else `remote.<remote>.url` (or `pushurl` for push). @throws E<OP>FAIL when neither exists. */
async function remoteUrl(op: Op, ctx: GitContext, dir: string, remote: string, url: string | undefined, push = false): Promise<string> {
  const resolved =
    url ?? (push ? await configValue(ctx, dir, `remote.${remote}.pushurl`) : undefined) ?? (await configValue(ctx, dir, `remote.${remote}.url`));
  if (resolved === undefined) throw fail(op, `no such remote '${remote}' (add it with remoteAdd, or pass url)`);
  checkTransport(op, resolved);
  return resolved;
}

/**
 * The key of `clone`'s command-line option (a registered symbol, not part of `GitCloneOptions`): the
 * destination as the user typed it. With it, a `dir` that is a directory holding anything (and no `.git`,
 * refused anyway) is refused before anything is written — `git clone` on the command line refuses it as real git does
 * (`destination path '<typed>' already exists and is not an empty directory.`), where the API's `clone`
 * checks out over the files there (issue 20, twentieth attack run).
 * @internal
 */
export const CLONE_INTO_EMPTY: unique symbol = Symbol.for("agent-computer.git.cloneIntoEmpty") as never;

/**
 * The key of `push`'s command-line option (a registered symbol, not part of `GitPushOptions`): a function told the
 * remote's old oid of the ref being pushed (all zeros when the remote has none) and the local oid, once the server
 * has advertised its refs; when the two are equal nothing is sent and the push resolves `{ ok: true, refs: {} }` —
 * `git push` prints such a ref as up to date (`--tags`, `HEAD`) (issue 20, run 32, fixer GC).
 * @internal
 */
export const PUSH_REMOTE_OLD: unique symbol = Symbol.for("agent-computer.git.pushRemoteOld") as never; // GC

async function exists(ctx: GitContext, path: string): Promise<boolean> {
  return ctx.workspace.fs.lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * `clone` (spec 04 §2.3): `git init` in `dir`, remote `origin` = `url`,
 * fetch (no checkout) — shallow when `depth` is a finite number ≥ 1 —
 * then a forced checkout of `ref ?? the remote's HEAD`, limited to `paths`.
 * `singleBranch` and `noTags` default to `true`.
 *
 * With `paths`, only those paths (files or directory prefixes) are written
 * to the working tree; the commit's other files stay in the index, so
 * `status` reports them as unstaged deletions (` D`) and a `commit` keeps
 * them (`add` with `all` would delete them).
 *
 * `dir` may exist and hold files (a forced checkout overwrites those the
 * commit also has), but not a `.git` (`ECLONEFAIL` "destination already
 * holds a repository"); the command line's `git clone` refuses any
 * non-empty `dir`, as real git (see {@link CLONE_INTO_EMPTY}). A failed clone removes what it made: the whole
 * `dir` when the clone created it, else `dir/.git` (files that were
 * already there stay).
 */
export async function clone(ctx: GitContext, dir: string, options: GitCloneOptions): Promise<void> {
  const url = (options as { url?: unknown }).url;
  if (typeof url !== "string" || url === "") throw usage("clone", `url must be a non-empty string, got ${kind(url)}`);
  checkTransport("clone", url);
  const ref = optString("clone", options, "ref");
  const depth = optDepth("clone", options);
  const singleBranch = optBool("clone", options, "singleBranch") ?? true;
  const noTags = optBool("clone", options, "noTags") ?? true;
  const paths = (options as { paths?: unknown }).paths;
  if (paths !== undefined && (!Array.isArray(paths) || !paths.every((p) => typeof p === "string" && p !== ""))) {
    throw usage("clone", "paths must be an array of non-empty strings");
  }
  const filepaths = (paths as string[] | undefined)?.map((p) => p.replace(/^\.\/+/, "").replace(/\/+$/, "") || ".");
  if (filepaths?.some((p) => p.startsWith("/") || p.split("/").includes(".."))) {
    throw usage("clone", "paths must be relative to dir and stay inside it");
  }
  const http = boundedHttp(ctx.http, timeoutOf("clone", options), ctx.signal, maxResponseBytesOf("clone", options));
  const extra = networkArgs("clone", options);

  const gitdir = gitdirOf(dir);
  const dirExisted = await exists(ctx, dir);
  if (dirExisted) {
    const stat = await ctx.workspace.fs.stat(dir).catch(() => undefined);
    if (!stat?.isDirectory) throw fail("clone", `destination '${dir}' exists and is not a directory`);
    if (await exists(ctx, gitdir)) throw fail("clone", `destination '${dir}' already holds a repository (${gitdir})`);
    const typed = (options as { [CLONE_INTO_EMPTY]?: unknown })[CLONE_INTO_EMPTY];
    if (typeof typed === "string" && (await ctx.workspace.fs.readdir(dir, { limit: 1 }).catch(() => undefined))?.length !== 0) {
      throw fail("clone", `destination path '${typed}' already exists and is not an empty directory.`);
    }
  }
  try {
    await ctx.git.clone({
      fs: ctx.fs,
      http,
      dir,
      cache: ctx.cache,
      url,
      ...(ref ? { ref } : {}),
      ...(depth ? { depth } : {}),
      singleBranch,
      noTags,
      noCheckout: true,
      ...extra,
    });
    if (http.refused) throw http.refused;
    // isomorphic-git's init writes filemode/symlinks false and ignorecase true; the Workspace keeps
    // modes and links and is case-sensitive, so the repository says so (as the real git's would).
    for (const [path, value] of [["core.filemode", true], ["core.symlinks", true], ["core.ignorecase", false]] as const) {
      await ctx.git.setConfig({ fs: ctx.fs, dir, path, value });
    }
    // An empty remote (no refs advertised): nothing to check out (issue 20, run 37, fixer GE).
    if (await clonedEmpty(ctx, dir, ref)) return;
    const branch = await ctx.git.currentBranch({ fs: ctx.fs, dir, fullname: false });
    const target = ref ?? branch;
    if (target !== undefined) {
      // A tree nested deeper than GIT_MAX_TREE_DEPTH, or expanding past GIT_MAX_TREE_ENTRIES, is refused before the checkout writes anything.
      const commit = await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: target }).catch(() => undefined);
      const limited = filepaths && !filepaths.includes(".") ? filepaths : undefined;
      if (commit !== undefined) {
        await assertTreeDepth(ctx, dir, commit);
        // So is a symbolic link the Workspace cannot make (an empty, NUL, over-long or non-UTF-8 target; run 29, GL).
        const links = [...(await flatTree(ctx, dir, commit))].filter(
          ([path, entry]) => entry.mode === 0o120000 && (!limited || limited.some((p) => path === p || path.startsWith(`${p}/`))),
        );
        await readAll(ctx, dir, links);
      }
      throwIfCancelled(ctx);
      // Its writes check the signal: a cancelled clone stops writing within one file.
      await ctx.git.checkout({ fs: cancellableFs(ctx), dir, cache: ctx.cache, ref: target, force: true, ...(limited ? { filepaths: limited } : {}) });
      if (limited) {
        // The paths left out stay in the index (at the commit's blob), so they read as unstaged
        // deletions and a later commit keeps them.
        const head = await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: "HEAD" });
        const updates: IndexUpdate[] = [];
        for (const [path, entry] of await flatTree(ctx, dir, head)) {
          if (limited.some((p) => path === p || path.startsWith(`${p}/`))) continue;
          updates.push({ filepath: path, oid: entry.oid, mode: entry.mode });
        }
        await updateIndex(ctx, dir, updates);
      }
    }
  } catch (error) {
    await (dirExisted ? ctx.workspace.fs.rm(gitdir, { recursive: true, force: true }) : ctx.workspace.fs.rm(dir, { recursive: true, force: true })).catch(
      () => undefined,
    );
    if (ctx.signal?.aborted) {
      throw new OperationCancelledError(
        ctx.signal.reason,
        dirExisted ? `it removed ${gitdir}; files its checkout had written in ${dir} stay` : `it removed ${dir}, which it had made`,
      );
    }
    throw fail("clone", reason(error, http), error);
  }
}

/**
 * The branch a clone of an empty repository is left on (fixer GE): this library's `init` default. git 2.39.5 takes
 * the remote's unborn HEAD over protocol v2 (`ls-refs unborn`) and `init.defaultBranch` (`master`) over v0/v1;
 * isomorphic-git speaks v1, where an empty repository advertises no HEAD symref.
 */
export const GIT_EMPTY_CLONE_BRANCH = "main";

/**
 * Whether the clone just fetched into `dir` found an empty remote (no branch and no tag fetched, HEAD unborn), and
 * if so leaves the repository as git 2.39.5's `clone` leaves one (builtin/clone.c, "You appear to have cloned an
 * empty repository."): HEAD → `refs/heads/<GIT_EMPTY_CLONE_BRANCH>` (unborn), `remote.origin.*` as written, and
 * `branch.<name>.remote = origin` / `branch.<name>.merge = refs/heads/<name>`, so a first commit and
 * `push -u origin <name>` create the remote's branch and track it (issue 20, run 37, fixer GE).
 * @throws Error `Remote branch <ref> not found in upstream origin` when `ref` was asked for (as git, which exits 128).
 */
async function clonedEmpty(ctx: GitContext, dir: string, ref: string | undefined): Promise<boolean> {
  if ((await ctx.git.resolveRef({ fs: ctx.fs, dir, ref: "HEAD" }).catch(() => undefined)) !== undefined) return false;
  if ((await ctx.git.listBranches({ fs: ctx.fs, dir, remote: "origin" })).length > 0) return false;
  if ((await ctx.git.listTags({ fs: ctx.fs, dir })).length > 0) return false;
  if (ref !== undefined) throw new Error(`Remote branch ${ref} not found in upstream origin`);
  const name = GIT_EMPTY_CLONE_BRANCH;
  await ctx.git.writeRef({ fs: ctx.fs, dir, ref: "HEAD", value: `refs/heads/${name}`, symbolic: true, force: true });
  await ctx.git.setConfig({ fs: ctx.fs, dir, path: `branch.${name}.remote`, value: "origin" });
  await ctx.git.setConfig({ fs: ctx.fs, dir, path: `branch.${name}.merge`, value: `refs/heads/${name}` });
  return true;
}

/** The cause's message — `http`'s refusal's when it refused a response (whatever isomorphic-git made of that) — with isomorphic-git's error names made readable. */
function reason(error: unknown, http: BoundedHttpClient): string {
  if (http.refused) return http.refused.message;
  if (error instanceof NetworkTimeout || error instanceof ResponseTooLarge) return error.message;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof NetworkTimeout || cause instanceof ResponseTooLarge) return cause.message;
  const message = error instanceof Error ? error.message : String(error);
  return message;
}

/** The fetch options shared by `fetch` and `pull`, validated. */
function fetchArgs(op: Op, options: GitFetchOptions) {
  const remote = optString(op, options, "remote") ?? "origin";
  const url = optString(op, options, "url");
  const ref = optString(op, options, "ref");
  const remoteRef = optString(op, options, "remoteRef");
  const depth = optDepth(op, options);
  const singleBranch = optBool(op, options, "singleBranch");
  const tags = optBool(op, options, "tags");
  const prune = optBool(op, options, "prune");
  return {
    remote,
    url,
    args: {
      ...(url ? { url } : { remote }),
      ...(ref ? { ref } : {}),
      ...(remoteRef ? { remoteRef } : {}),
      ...(depth ? { depth } : {}),
      ...(singleBranch !== undefined ? { singleBranch } : {}),
      ...(tags !== undefined ? { tags } : {}),
      ...(prune !== undefined ? { prune } : {}),
      ...networkArgs(op, options),
    },
  };
}

/**
 * Largest loose ref file (bytes) a fetch's snapshot keeps: a ref is 41 bytes (an oid and a newline), a symbolic ref
 * `ref: <name>` a few hundred at most.
 */
const SNAPSHOT_MAX_REF_BYTES = 4096;

/**
 * The ref files a fetch may change (`refs/**`, `packed-refs`, `shallow`,
 * `FETCH_HEAD`), path → content. isomorphic-git writes the remote-tracking
 * refs before it has read the pack, so a fetch that fails mid-pack would
 * leave refs pointing at missing objects; `runFetch` puts these back.
 */
async function snapshotRefs(ctx: GitContext, gitdir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const fs = ctx.workspace.fs;
  const walk = async (path: string): Promise<void> => {
    const entries = await fs.readdir(path).catch(() => []);
    for (const entry of entries) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(child);
      else if (entry.isFile || entry.isSymbolicLink) {
        // What a ref can be: a regular file of at most SNAPSHOT_MAX_REF_BYTES, or a link to one (git's legacy symlink
        // refs: a fetch writes through it, so its target's content is kept and put back through it). A link to a
        // directory (it made every fetch fail EISDIR) and a file larger than any ref (it was read whole, twice) are
        // left alone.
        const target = entry.isFile ? entry : await fs.stat(child).catch(() => undefined);
        if (target === undefined || !target.isFile || target.size > SNAPSHOT_MAX_REF_BYTES) continue;
        const content = await fs.readFile(child, "utf8").catch(() => undefined);
        if (content !== undefined) out.set(child, content);
      }
    }
  };
  await walk(`${gitdir}/refs`);
  for (const name of ["packed-refs", "shallow", "FETCH_HEAD"]) {
    const content = await fs.readFile(`${gitdir}/${name}`, "utf8").catch(() => undefined);
    if (content !== undefined) out.set(`${gitdir}/${name}`, content);
  }
  return out;
}

async function restoreRefs(ctx: GitContext, gitdir: string, saved: Map<string, string>): Promise<void> {
  const now = await snapshotRefs(ctx, gitdir);
  for (const [path, content] of now) {
    if (!saved.has(path)) await ctx.workspace.fs.rm(path, { force: true });
    else if (saved.get(path) !== content) await ctx.workspace.fs.writeFile(path, saved.get(path)!);
  }
  for (const [path, content] of saved) {
    if (!now.has(path)) await ctx.workspace.fs.writeFile(path, content);
  }
}

async function runFetch(op: Op, ctx: GitContext, dir: string, options: GitFetchOptions): Promise<FetchResult & { url: string }> {
  const { remote, url, args } = fetchArgs(op, options);
  const http = boundedHttp(ctx.http, timeoutOf(op, options), ctx.signal, maxResponseBytesOf(op, options));
  await requireRepo(ctx, dir);
  const resolved = await remoteUrl(op, ctx, dir, remote, url);
  const gitdir = gitdirOf(dir);
  const saved = await snapshotRefs(ctx, gitdir);
  try {
    let result: Awaited<ReturnType<typeof ctx.git.fetch>>;
    try {
      result = await ctx.git.fetch({ fs: ctx.fs, http, dir, cache: ctx.cache, ...args });
    } catch (error) {
      // fixer GN (issue 20, run 34): with no `ref`/`remoteRef`, isomorphic-git asks for the current branch's upstream
      // (`branch.<b>.merge`) and fails "Could not find refs/heads/<x>" once the remote deleted it. git's fetch takes
      // the remote's refspec whatever the current branch: fetch again without it (the remote's HEAD; nothing merged).
      const plain = options.ref === undefined && options.remoteRef === undefined && !options.singleBranch;
      if (!plain || codeOf(error) !== "NotFoundError" || http.refused || ctx.signal?.aborted) throw error;
      const branch = await ctx.git.currentBranch({ fs: ctx.fs, dir, fullname: false }).catch(() => undefined);
      const upstream = branch === undefined ? undefined : await configValue(ctx, dir, `branch.${branch}.merge`);
      if (upstream === undefined) throw error;
      await restoreRefs(ctx, gitdir, saved);
      const again = await ctx.git.fetch({ fs: ctx.fs, http, dir, cache: ctx.cache, ...args, remoteRef: "HEAD" });
      result = { ...again, fetchHead: null };
    }
    if (http.refused) throw http.refused;
    return { defaultBranch: result.defaultBranch ?? null, fetchHead: result.fetchHead ?? null, url: resolved };
  } catch (error) {
    await restoreRefs(ctx, gitdir, saved).catch(() => undefined);
    if (ctx.signal?.aborted) {
      throw new OperationCancelledError(ctx.signal.reason, `it stopped while talking to ${anonymizeUrl(resolved)}; the refs, shallow and FETCH_HEAD are as they were`);
    }
    throw fail(op, reason(error, http), error);
  }
}

/**
 * `fetch` (spec 04 §2.3): from `url`, or from `remote` (default `origin`),
 * into `refs/remotes/<remote>/*`; the working tree is untouched. Without
 * `ref`/`remoteRef`, `fetchHead` is the current branch's upstream; an upstream
 * the remote no longer has is no error (every branch is fetched, `prune`
 * drops it, `fetchHead` is `null`), as git's fetch (issue 20, run 34, fixer GN). A failed
 * fetch (timeout, truncated pack, …) puts back every ref, `shallow` and
 * `FETCH_HEAD` as they were.
 * @returns `{ defaultBranch, fetchHead }` (`null` when unknown / nothing fetched).
 */
export async function fetch(ctx: GitContext, dir: string, options: GitFetchOptions): Promise<FetchResult> {
  const { defaultBranch, fetchHead } = await runFetch("fetch", ctx, dir, options);
  return { defaultBranch, fetchHead };
}

/**
 * `pull` (spec 04 §2.3): `fetch`, then merge the fetched commit into the
 * current branch and update the working tree — a fast-forward when
 * possible (unless `fastForward: false`), else a merge commit with the
 * message `Merge branch '<branch>' of <url>`; `fastForwardOnly` refuses a
 * merge commit. Identity as `merge` (explicit → `env` → `defaultIdentity`,
 * no config step); a fast-forward needs none. Merge failures (conflicts,
 * detached HEAD, not fast-forward) are `EPULLFAIL`, with the working tree
 * left as it was.
 */
export async function pull(ctx: GitContext, dir: string, options: GitPullOptions): Promise<void> {
  const fastForward = optBool("pull", options, "fastForward");
  const fastForwardOnly = optBool("pull", options, "fastForwardOnly");
  const remoteOption = optString("pull", options, "remote");
  const remoteRefOption = optString("pull", options, "remoteRef");
  const urlOption = optString("pull", options, "url");
  await requireRepo(ctx, dir);
  const branch = await ctx.git.currentBranch({ fs: ctx.fs, dir, fullname: false });
  if (branch === undefined) throw fail("pull", "HEAD is detached; check out a branch to pull into");
  // Default remote ref: the branch's upstream (`branch.<b>.merge`), else the same name.
  const upstream = urlOption === undefined ? await configValue(ctx, dir, `branch.${branch}.merge`) : undefined;
  const remote = remoteOption ?? (await configValue(ctx, dir, `branch.${branch}.remote`)) ?? "origin";
  const remoteRef = remoteRefOption ?? upstream ?? branch;
  const { fetchHead, url } = await runFetch("pull", ctx, dir, { singleBranch: true, ...options, remote, remoteRef });
  if (fetchHead === null) return;
  const shortRef = remoteRef.replace(/^refs\/heads\//, "");
  try {
    await merge(ctx, dir, {
      dir,
      theirs: fetchHead,
      ...(fastForward !== undefined ? { fastForward } : {}),
      ...(fastForwardOnly !== undefined ? { fastForwardOnly } : {}),
      message: `Merge branch '${shortRef}' of ${displayFetchUrl(url)}`, // GC: as git, no user:password nor `.git`
      ...(options.author ? { author: options.author } : {}),
      ...(options.committer ? { committer: options.committer } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
  } catch (error) {
    if (error instanceof GitError && error.code === "EMERGEFAIL") {
      throw new GitError("EPULLFAIL", error.message.replace(/^git merge failed: /, "git pull failed: "), { cause: error });
    }
    throw error;
  }
}

/**
 * `push` (spec 04 §2.3): `ref` (default: the current branch) to `remoteRef`
 * on `url` or `remote` (default `origin`). `remoteRef`'s default (issue 20,
 * run 34, fixer GN): with `ref`, the ref of the same name (git's refspec
 * `<ref>`); without, git 2.39's `push.default` from `.git/config`
 * (src/git/push-default.ts): `simple` (unset) — the upstream when it has the
 * branch's name, else `EPUSHFAIL` "The upstream branch of your current branch
 * does not match the name of your current branch…" (pushing to the branch's
 * own remote; to another, the same name); `current` — the same name;
 * `upstream` — `branch.<b>.merge`; `nothing` — `EPUSHFAIL`; `matching` —
 * `EUNSUPPORTED`. A branch with no upstream goes to its own name (the `git push`
 * command refuses it, as git). `force` allows a non-fast-forward, `delete` deletes
 * `remoteRef` (or `ref`'s name); `delete` with neither is `EUSAGE`, as git's
 * "--delete doesn't make sense without any refs" (nothing is sent). A rejection — by the server, or before sending because the
 * remote's tip is not an ancestor (non-fast-forward) or the tag exists —
 * resolves `{ ok: false, error, refs }` rather than throwing; transport
 * failures throw `EPUSHFAIL`. A push whose objects take more than
 * `maxPushBytes` ({@link GIT_MAX_PUSH_BYTES}, 32 MiB) fails `EPUSHFAIL`
 * `pack too large: …` before the pack is sent (see the constant).
 */
export async function push(ctx: GitContext, dir: string, options: GitPushOptions): Promise<PushResult> {
  const remote = optString("push", options, "remote") ?? "origin";
  const url = optString("push", options, "url");
  const ref = optString("push", options, "ref");
  const remoteRef = optString("push", options, "remoteRef");
  const force = optBool("push", options, "force") ?? false;
  const del = optBool("push", options, "delete") ?? false;
  const http = boundedHttp(ctx.http, timeoutOf("push", options), ctx.signal, maxResponseBytesOf("push", options));
  const bounded = pushBoundedFs(ctx.fs, maxPushBytesOf(options), ctx.cache);
  const extra = networkArgs("push", options);
  // Lead, run 34: a delete names what it deletes (git: "--delete doesn't make sense without any refs"); left to
  // isomorphic-git it took `branch.<b>.merge` — a branch made from origin/main would delete the remote's main.
  if (del && ref === undefined && remoteRef === undefined) throw usage("push", "delete needs remoteRef (or ref): the remote branch to delete");
  await requireRepo(ctx, dir);
  const pushUrl = await remoteUrl("push", ctx, dir, remote, url, true);
  const local = ref ?? (await ctx.git.currentBranch({ fs: ctx.fs, dir, fullname: false }));
  if (local === undefined) throw fail("push", "HEAD is detached; pass ref");
  // fixer GN (issue 20, run 34): the remote ref is never left to isomorphic-git, which took `branch.<ref>.merge`
  // whatever its name (a branch made from origin/main was pushed onto the remote's main). A `ref` given goes to the
  // same name (git's refspec `<ref>`); none, git's push.default (src/git/push-default.ts) decides.
  let remoteTarget = remoteRef; // fixer GN
  if (remoteTarget === undefined && ref !== undefined) { // fixer GN
    remoteTarget = ref.startsWith("refs/") ? ref : await ctx.git.expandRef({ fs: ctx.fs, dir, ref }).catch(() => `refs/heads/${ref}`); // fixer GN
  } else if (remoteTarget === undefined && !del) { // fixer GN
    const destination = pushDefaultDestination({ // fixer GN
      setting: await configValue(ctx, dir, "push.default"), // fixer GN
      branch: local, // fixer GN
      remote: url ?? remote, // fixer GN
      branchRemote: await configValue(ctx, dir, `branch.${local}.remote`), // fixer GN
      merge: await configValue(ctx, dir, `branch.${local}.merge`), // fixer GN
      autoSetupRemote: true, // fixer GN: the API pushes a branch with no upstream to its own name (documented)
      autoSetupMergeSimple: (await configValue(ctx, dir, "branch.autoSetupMerge"))?.toLowerCase() === "simple", // fixer GN
    }); // fixer GN
    if (!destination.ok) throw destination.code === "EUNSUPPORTED" ? new GitError("EUNSUPPORTED", `git push: ${destination.message}`) : fail("push", destination.message); // fixer GN
    remoteTarget = destination.dst; // fixer GN
  } // fixer GN
  const target = remoteTarget ?? local; // fixer GN
  const tell = (options as { [PUSH_REMOTE_OLD]?: unknown })[PUSH_REMOTE_OLD]; // GC
  let upToDate = false; // GC
  const onPrePush = // GC
    typeof tell === "function" // GC
      ? ({ localRef, remoteRef: theirs }: { localRef: { oid: string }; remoteRef: { oid: string } }) => { // GC
          (tell as (old: string, oid: string) => void)(theirs.oid, localRef.oid); // GC
          upToDate = !del && theirs.oid === localRef.oid; // GC
          return !upToDate; // GC: isomorphic-git cancels (UserCanceledError) and sends nothing
        } // GC
      : undefined; // GC
  const fullTarget = target.startsWith("refs/") ? target : local.startsWith("refs/tags/") ? `refs/tags/${target}` : `refs/heads/${target}`;
  try {
    const result = await ctx.git.push({
      fs: bounded.fs,
      http,
      dir,
      cache: ctx.cache,
      ...(url ? { url } : { remote }),
      ref: local,
      ...(remoteTarget ? { remoteRef: remoteTarget } : {}), // fixer GN
      force,
      delete: del,
      ...extra,
      ...(onPrePush ? { onPrePush } : {}), // GC
    });
    if (http.refused) throw http.refused;
    return { ok: result.ok !== false, error: result.error ?? null, refs: normalizeRefs(result.refs) };
  } catch (error) {
    if (ctx.signal?.aborted) {
      throw new OperationCancelledError(
        ctx.signal.reason,
        `it stopped while talking to ${anonymizeUrl(pushUrl)}; the local repository is unchanged, and the remote may or may not have taken the push (fetch to see)`,
      );
    }
    // A rejection worked out from a cut ref advertisement is no answer of the server's.
    if (http.refused) throw fail("push", reason(error, http), error);
    if (upToDate && codeOf(error) === "UserCanceledError") return { ok: true, error: null, refs: {} }; // GC
    // Refused by size before the pack was sent (whatever isomorphic-git made of it).
    if (bounded.refused) throw fail("push", bounded.refused.message, error);
    const code = codeOf(error);
    if (code === "PushRejectedError") {
      const why = (error as { data?: { reason?: string } }).data?.reason ?? "rejected";
      const detail = why === "not-fast-forward" ? PUSH_NON_FAST_FORWARD : why === "tag-exists" ? PUSH_TAG_EXISTS : why;
      return { ok: false, error: `rejected: ${fullTarget} ${detail}`, refs: { [fullTarget]: { ok: false, error: detail } } };
    }
    if (code === "GitPushError") {
      const result = (error as { data?: { result?: { error?: string; refs?: Record<string, { ok: boolean; error?: string }> } } }).data?.result;
      const refs = normalizeRefs(result?.refs);
      const failed = Object.entries(refs)
        .filter(([, s]) => !s.ok)
        .map(([name, s]) => `${name} ${s.error}`);
      // `unpack <error>`: git's "remote unpack failed: <error>"; each ref then failed "unpacker error".
      return { ok: false, error: result?.error ? `remote unpack failed: ${result.error}` : `rejected: ${failed.join("; ")}`, refs };
    }
    throw fail("push", reason(error, http), error);
  }
}

function normalizeRefs(refs: Record<string, { ok: boolean; error?: string }> | undefined): Record<string, RefUpdateStatus> {
  const out: Record<string, RefUpdateStatus> = {};
  for (const [name, status] of Object.entries(refs ?? {})) out[name] = { ok: status.ok === true, error: status.ok ? "" : (status.error ?? "rejected") };
  return out;
}

/** Remote names git accepts (no whitespace, `..`, control characters, `~^:?*[\`, leading `-` or `/`). */
function checkRemoteName(name: unknown): string {
  if (typeof name !== "string" || name === "") throw usage("remote", `name must be a non-empty string, got ${kind(name)}`);
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|^[-/.]|[/.]$|\/\/|@\{|\.lock$/.test(name)) throw fail("remote", `'${name}' is not a valid remote name`);
  return name;
}

/**
 * `remoteAdd`: `remote.<name>.url = url` and the default fetch refspec.
 * An existing `name` fails (`EREMOTEFAIL` "remote <name> already exists")
 * unless `force`. Any URL is recorded; `fetch`/`push`/`pull` refuse non-HTTP ones.
 */
export async function remoteAdd(ctx: GitContext, dir: string, options: GitRemoteAddOptions): Promise<void> {
  const name = checkRemoteName((options as { name?: unknown }).name);
  const url = (options as { url?: unknown }).url;
  if (typeof url !== "string" || url === "") throw usage("remote", `url must be a non-empty string, got ${kind(url)}`);
  const force = optBool("remote", options, "force") ?? false;
  await requireRepo(ctx, dir);
  try {
    await ctx.git.addRemote({ fs: ctx.fs, dir, remote: name, url, force });
  } catch (error) {
    if (codeOf(error) === "AlreadyExistsError") throw fail("remote", `remote ${name} already exists`, error);
    throw error;
  }
}

/** `remoteRemove`: drops `remote.<name>` and its `refs/remotes/<name>/*`. A missing remote → `EREMOTEFAIL` "no such remote: '<name>'". */
export async function remoteRemove(ctx: GitContext, dir: string, options: GitRemoteRemoveOptions): Promise<void> {
  const name = checkRemoteName((options as { name?: unknown }).name);
  await requireRepo(ctx, dir);
  const remotes = await ctx.git.listRemotes({ fs: ctx.fs, dir });
  if (!remotes.some((r) => r.remote === name)) throw fail("remote", `no such remote: '${name}'`);
  await ctx.git.deleteRemote({ fs: ctx.fs, dir, remote: name });
  const tracking = `${gitdirOf(dir)}/refs/remotes/${name}`;
  await ctx.workspace.fs.rm(tracking, { recursive: true, force: true });
  // Packed remote-tracking refs too.
  const refs = await ctx.git.listRefs({ fs: ctx.fs, dir, filepath: `refs/remotes/${name}` }).catch(() => [] as string[]);
  for (const ref of refs) await ctx.git.deleteRef({ fs: ctx.fs, dir, ref: `refs/remotes/${name}/${ref}` }).catch(() => undefined);
}

/** `remoteList` → `{ name, url }[]`, sorted by name (as `git remote -v`). */
export async function remoteList(ctx: GitContext, dir: string, _options: GitRemoteListOptions): Promise<RemoteView[]> {
  await requireRepo(ctx, dir);
  const remotes = await ctx.git.listRemotes({ fs: ctx.fs, dir });
  return remotes.map((r) => ({ name: r.remote, url: r.url })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
