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
import { normalizePath } from "../util/path.js";
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
