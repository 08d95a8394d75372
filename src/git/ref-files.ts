/**
 * Loose ref files kept as git's files backend keeps them (refs/files-backend.c, git 2.39.5) — issue 20, run 37,
 * fixer GE. Every ref write and delete of an operation (local `branch`/`tag`/`update-ref`, the tracking refs `fetch`,
 * `fetch --prune`, `push` and `clone` write or delete, the stash, reflogs) reaches the repository as a `writeFile` or
 * `unlink` of `<gitdir>/refs/…` or `<gitdir>/logs/refs/…` through the operation's fs; {@link refFilesContext} puts
 * git's two rules in front of those two calls:
 *
 * - **After deleting a loose ref** (`unlink`), its parent directories left empty are removed, up to but not including
 *   `refs/<kind>` (`refs/heads`, `refs/tags`, `refs/remotes`, …): deleting `refs/remotes/origin/feat/x` removes an
 *   empty `refs/remotes/origin/feat` and an empty `refs/remotes/origin` — git's `try_remove_empty_parents`
 *   ("spare refs/ and immediate subdirs").
 * - **Before writing a ref** whose path is a directory, the directory is removed when it holds nothing but empty
 *   directories (git's `remove_empty_directories` in `lock_raw_ref`), so a repository an older version left with
 *   such a directory recovers. A directory holding a ref stays, and the write fails with git's message
 *   `cannot lock ref 'refs/heads/n': 'refs/heads/n/x' exists; cannot create 'refs/heads/n'`; a ref file where a
 *   directory of the new ref's path must go fails `cannot lock ref 'refs/heads/z/x': 'refs/heads/z' exists; cannot
 *   create 'refs/heads/z/x'` (instead of the fs's `EISDIR`/`ENOTDIR`). Operations wrap the message in their
 *   `GitError` `E<OP>FAIL` (`git branch failed: cannot lock ref …`).
 *
 * Work: nothing extra on a write that succeeds; one `readdir` per parent directory on a delete (at most the ref
 * name's depth).
 *
 * @module
 */
import type { GitContext } from "./context.js";
import { gitdirOf } from "./wrap.js";

type Promises = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** A Workspace-fs stat as the bridge returns it (Node-style methods) or the adapter's. */
function isDir(stat: unknown): boolean {
  const s = stat as { isDirectory?: unknown } | undefined;
  return typeof s?.isDirectory === "function" ? Boolean((s.isDirectory as () => boolean).call(s)) : s?.isDirectory === true;
}

/**
 * The ref name of `path` when it is a loose ref file or reflog of the repository whose gitdir is `gitdir`:
 * `{ ref: "refs/heads/x", base: "<gitdir>" }` (or base `<gitdir>/logs` for a reflog); otherwise `undefined`.
 */
function refOf(gitdir: string, path: unknown): { ref: string; base: string } | undefined {
  if (typeof path !== "string") return undefined;
  for (const base of [gitdir, `${gitdir}/logs`]) {
    if (path.startsWith(`${base}/refs/`)) return { ref: path.slice(base.length + 1), base };
  }
  return undefined;
}

/**
 * The first file (by name, depth first) under directory `dir`, relative to `base`, or `undefined` when it holds
 * only directories.
 */
async function firstFile(fs: Promises, dir: string, base: string): Promise<string | undefined> {
  const names = ((await fs.readdir!(dir)) as string[]).slice().sort();
  for (const name of names) {
    const path = `${dir}/${name}`;
    if (isDir(await fs.lstat!(path))) {
      const found = await firstFile(fs, path, base);
      if (found !== undefined) return found;
    } else return path.slice(base.length + 1);
  }
  return undefined;
}

/** Removes directory `dir`, which holds only (empty) directories, bottom up with `rmdir`. */
async function removeEmptyTree(fs: Promises, dir: string): Promise<void> {
  for (const name of (await fs.readdir!(dir)) as string[]) await removeEmptyTree(fs, `${dir}/${name}`);
  await fs.rmdir!(dir);
}

/**
 * `ctx` whose fs applies git's loose-ref directory rules (see the module comment) to the refs and reflogs of the
 * repository at `dir` (its gitdir `<dir>/.git`). Other paths pass through unchanged.
 */
export function refFilesContext(ctx: GitContext, dir: string): GitContext {
  const gitdir = gitdirOf(dir);
  const base = ctx.fs.promises as unknown as Promises;
  const call = (name: string, args: unknown[]) => base[name]!.apply(base, args);
  const own: Promises = {
    async writeFile(path: unknown, ...rest: unknown[]) {
      try {
        return await call("writeFile", [path, ...rest]);
      } catch (error) {
        const at = refOf(gitdir, path);
        if (!at) throw error;
        const stat = await call("lstat", [path]).catch(() => undefined);
        if (stat !== undefined && isDir(stat)) {
          const blocking = await firstFile(base, path as string, at.base);
          if (blocking !== undefined) throw new Error(`cannot lock ref '${at.ref}': '${blocking}' exists; cannot create '${at.ref}'`);
          await removeEmptyTree(base, path as string);
          return await call("writeFile", [path, ...rest]);
        }
        // A ref file where the new ref needs a directory (`refs/heads/z` for `refs/heads/z/x`).
        const parts = at.ref.split("/");
        for (let n = 2; n < parts.length; n++) {
          const prefix = parts.slice(0, n).join("/");
          const above = await call("lstat", [`${at.base}/${prefix}`]).catch(() => undefined);
          if (above === undefined) break;
          if (!isDir(above)) throw new Error(`cannot lock ref '${at.ref}': '${prefix}' exists; cannot create '${at.ref}'`);
        }
        throw error;
      }
    },
    async unlink(path: unknown, ...rest: unknown[]) {
      const done = await call("unlink", [path, ...rest]);
      const at = refOf(gitdir, path);
      if (at) {
        // Parents left empty go, down to refs/<kind> (kept, as git keeps it).
        const parts = at.ref.split("/");
        for (let n = parts.length - 1; n > 2; n--) {
          const parent = `${at.base}/${parts.slice(0, n).join("/")}`;
          const left = (await call("readdir", [parent]).catch(() => undefined)) as unknown[] | undefined;
          if (left === undefined || left.length !== 0) break;
          if ((await call("rmdir", [parent]).then(
            () => true,
            () => false,
          )) === false) break;
        }
      }
      return done;
    },
  };
  const get = (key: string | symbol): unknown => {
    if (typeof key === "string" && Object.hasOwn(own, key) && typeof base[key] === "function") return own[key];
    const value: unknown = Reflect.get(base, key);
    return typeof value === "function" ? value.bind(base) : value;
  };
  // An empty target (as operation.ts's withReadFile): an adapter's methods may be read-only and non-configurable.
  const promises = new Proxy({} as Promises, {
    get: (_target, key) => get(key),
    has: (_target, key) => Reflect.has(base, key),
    ownKeys: () => Reflect.ownKeys(base),
    getOwnPropertyDescriptor: (_target, key) => {
      const found = Reflect.getOwnPropertyDescriptor(base, key);
      return found ? { value: get(key), writable: true, enumerable: found.enumerable ?? true, configurable: true } : undefined;
    },
  });
  return { ...ctx, fs: { ...ctx.fs, promises } as unknown as GitContext["fs"] };
}
