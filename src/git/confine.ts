/**
 * Git for a confined run (`ws:git` in a JavaScript run with a `root`): the
 * symbolic links git makes — the link entries (mode 120000) a checkout,
 * clone, merge, reset or stash writes to the working tree — must stay under
 * the run's root, as the run's own `symlink` must (paths.ts
 * `checkLinkTarget`). Without this, code in the sandbox could write a tree
 * whose links lead out of its root, check it out, and then have git (run by
 * the host, which follows links inside `.git`) or the host's own tools read
 * and write through them (issue 20, thirteenth attack run).
 *
 * @module
 */
import { checkLinkTarget } from "../backends/worker-javascript/paths.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import { WorkspaceFsError } from "../fs/errors.js";
import { isUnder, normalizePath } from "../util/path.js";
import type { GitContext } from "./context.js";
import type { GitFsAdapter, WorkspaceLike } from "./types.js";

/**
 * A method of the clients `createGitClient()` makes: `client[CONFINED_TO](root)`
 * is the same client (same queues, lock and cache) with every link it writes
 * to a working tree checked against `root`. `ws:git` calls it for a run with
 * a root; a client without it (your own, a remote stub) is used as it is.
 */
export const CONFINED_TO: unique symbol = Symbol.for("agent-computer.git.confinedTo") as never;

/**
 * `ws` with `fs.symlink(target, path)` checked: the target must lead under
 * `root` (as the filesystem resolves it at the link's place); what is
 * stored is `checkLinkTarget`'s form of it. Every other method is `ws.fs`'s.
 *
 * @throws (from `symlink`) `EACCES` `paths must stay under <root>: symlink target <target>`; `EINVAL` a `..` after a link.
 */
export function linkCheckedWorkspace(ws: WorkspaceLike, root: string): WorkspaceLike {
  const fs = ws.fs;
  const symlink = async (target: string, path: string, ...rest: unknown[]): Promise<unknown> => {
    const at = normalizePath(String(path));
    const stored = await checkLinkTarget(fs as WorkspaceFilesystem, root, at, String(target));
    return (fs.symlink as (...a: unknown[]) => Promise<unknown>).call(fs, stored, path, ...rest);
  };
  const checked = new Proxy(fs, {
    get(target, name) {
      if (name === "symlink") return symlink;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const view: WorkspaceLike = { fs: checked };
  if (typeof ws.provider === "function") (view as { provider?: WorkspaceLike["provider"] }).provider = () => ws.provider!();
  return view;
}

/** An adapter's `{ promises }` fs with `symlink` checked as in {@link linkCheckedWorkspace} (against `ws.fs`). */
export function linkCheckedGitFs<F extends GitFsAdapter>(gitFs: F, ws: WorkspaceLike, root: string): F {
  const promises = gitFs.promises as unknown as Record<string, unknown>;
  const symlink = promises.symlink;
  if (typeof symlink !== "function") return gitFs;
  const checked = async (target: unknown, path: unknown, ...rest: unknown[]): Promise<unknown> => {
    const stored = await checkLinkTarget(ws.fs as WorkspaceFilesystem, root, normalizePath(String(path)), String(target));
    return (symlink as (...a: unknown[]) => unknown).call(promises, stored, path, ...rest);
  };
  return { ...gitFs, promises: new Proxy(promises, { get: (t, name) => (name === "symlink" ? checked : Reflect.get(t, name, t)) }) } as F;
}

/**
 * The arguments that name a path, by method, for `workspace.fs` and a
 * node:fs-style `{ promises }` (any other method: its first argument).
 * A link's target (`symlink`'s first argument) is its content, not a path
 * git reaches; {@link linkCheckedWorkspace} checks it for a confined run.
 */
const PATH_ARGS: Readonly<Record<string, readonly number[]>> = { rename: [0, 1], symlink: [1], grep: [1], link: [0, 1], copyFile: [0, 1], cp: [0, 1] };

/**
 * Throws unless `path`, as the Workspace resolves it (`..` lexically, a
 * relative path from `/`, where the Workspace refuses it anyway), is under
 * each of `within`.
 * @throws WorkspaceFsError `EACCES` `paths must stay under <dir>, <method>: <path>`.
 */
function checkContained(method: string, path: unknown, within: readonly string[]): void {
  if (typeof path !== "string") return; // not a path: the fs itself refuses it
  const at = normalizePath(path);
  for (const dir of within) {
    if (!isUnder(at, dir) || (!path.startsWith("/") && dir !== "/")) {
      throw new WorkspaceFsError("EACCES", method, path, `paths must stay under ${dir}`);
    }
  }
}

/** `fn` (a method named `name`) with its path arguments checked by {@link checkContained} first. */
function containedMethod(name: string, fn: (...a: unknown[]) => unknown, self: unknown, within: readonly string[]): (...a: unknown[]) => unknown {
  const at = PATH_ARGS[name] ?? [0];
  const checked = function (...args: unknown[]) {
    try {
      for (const i of at) checkContained(name, args[i], within);
    } catch (error) {
      return Promise.reject(error);
    }
    return fn.apply(self, args);
  };
  // isomorphic-git reads a method's arity (`rmdir.length > 1` takes it for a recursive rm).
  return Object.defineProperty(checked, "length", { value: fn.length });
}

/**
 * `methods` (an fs object) as a view whose every method checks its path
 * arguments first. The proxy's target is an empty object: an adapter's
 * `promises` may hold read-only, non-configurable methods, which a proxy of
 * it must return unchanged.
 */
function containedMethods<T extends object>(methods: T, within: readonly string[]): T {
  const made = new Map<string | symbol, { of: unknown; checked: unknown }>();
  const get = (key: string | symbol): unknown => {
    const value: unknown = Reflect.get(methods, key);
    if (typeof value !== "function") return value;
    const known = made.get(key);
    if (known?.of === value) return known.checked;
    const checked = typeof key === "string" ? containedMethod(key, value as (...a: unknown[]) => unknown, methods, within) : (value as () => unknown).bind(methods);
    made.set(key, { of: value, checked });
    return checked;
  };
  return new Proxy({} as T, {
    get: (_target, key) => get(key),
    has: (_target, key) => Reflect.has(methods, key),
    ownKeys: () => Reflect.ownKeys(methods),
    getOwnPropertyDescriptor: (_target, key) => {
      const own = Reflect.getOwnPropertyDescriptor(methods, key);
      return own ? { value: get(key), writable: true, enumerable: own.enumerable ?? true, configurable: true } : undefined;
    },
  });
}

/**
 * One git operation's context with every path it reads, writes or removes
 * — through isomorphic-git's `fs` and through `workspace.fs` — checked to be
 * under each of `within` (the repository's directory; in a confined run,
 * the run's root too), as the Workspace resolves it (`..` lexically),
 * before the call. A path outside fails the call with `EACCES` `paths must
 * stay under <dir>`, touching nothing, and the operation fails with its own
 * error (`git <op> failed: …`). Git names paths from the repository's
 * files — tree entries, index entries, working-tree names — so this is the
 * backstop for any way such a name could lead out (issue 20, twenty-first
 * attack run: isomorphic-git took `\` in `..\..\x` for a separator and read
 * and deleted a file two directories above the repository).
 */
export function containedContext(ctx: GitContext, within: readonly string[]): GitContext {
  const promises = ctx.fs.promises as object;
  const fs = { ...ctx.fs, promises: containedMethods(promises, within) } as GitContext["fs"];
  const view: WorkspaceLike = { fs: containedMethods(ctx.workspace.fs, within) };
  if (typeof ctx.workspace.provider === "function") (view as { provider?: WorkspaceLike["provider"] }).provider = () => ctx.workspace.provider!();
  return { ...ctx, fs, workspace: view };
}
