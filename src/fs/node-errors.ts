/**
 * Errors in node:fs's form — `"<CODE>: <description>, <syscall> '<path>'"`
 * with `code`, `errno`, `syscall` and `path` — for the layers that present
 * the Workspace to node:fs-style code: the shell's file system adapter
 * (just-bash) and {@link SQLiteWorkspaceProvider}.
 *
 * @module
 */

/** Node/libuv wording of each code, as node:fs (and just-bash's own file systems) print them. */
export const NODE_ERROR_DESCRIPTIONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EISDIR: "illegal operation on a directory",
  ENOTDIR: "not a directory",
  EEXIST: "file already exists",
  ENOTEMPTY: "directory not empty",
  EROFS: "read-only file system",
  EINVAL: "invalid argument",
  ENOSYS: "function not implemented",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "name too long",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EFBIG: "file too large",
  EIO: "i/o error",
  EBADF: "bad file descriptor",
  ESTALE: "stale file handle",
  EBUSY: "resource busy or locked",
};

/** Linux `errno` of each code; node:fs reports it negated (`ENOENT` → `-2`). */
const LINUX_ERRNO: Readonly<Record<string, number>> = {
  EPERM: 1,
  ENOENT: 2,
  EIO: 5,
  EBADF: 9,
  EACCES: 13,
  EBUSY: 16,
  EEXIST: 17,
  ENOTDIR: 20,
  EISDIR: 21,
  EINVAL: 22,
  EFBIG: 27,
  EROFS: 30,
  ENAMETOOLONG: 36,
  ENOSYS: 38,
  ENOTEMPTY: 39,
  ELOOP: 40,
  ESTALE: 116,
};

/** An `Error` as node:fs throws it. */
export interface NodeFsError extends Error {
  /** POSIX code, e.g. `"ENOENT"`. */
  code: string;
  /** Negated Linux errno, e.g. `-2` for `ENOENT`; absent for a code without one. */
  errno?: number;
  /** The operation in node:fs's words (`open`, `scandir`, `unlink`, …). */
  syscall: string;
  /** The path as the caller gave it. */
  path: string;
  /** The second path of a two-path operation (`rename`, `symlink`, `copyfile`), as node:fs. */
  dest?: string;
}

/**
 * A node:fs-style error. `detail` replaces the code's usual description;
 * `cause` (the Workspace's own error, when there was one) is kept as the
 * standard `cause`. `Ctor` picks the class (`Error` by default; the shell
 * adapter needs `RangeError`, see its docs).
 */
export function nodeFsError(code: string, syscall: string, path: string, detail?: string, cause?: unknown, Ctor: ErrorConstructor | RangeErrorConstructor = Error): NodeFsError {
  const description = detail ?? NODE_ERROR_DESCRIPTIONS[code] ?? code.toLowerCase();
  const error = new Ctor(`${code}: ${description}, ${syscall} '${path}'`, cause === undefined ? undefined : { cause }) as NodeFsError;
  error.code = code;
  const errno = LINUX_ERRNO[code];
  if (errno !== undefined) error.errno = -errno;
  error.syscall = syscall;
  error.path = path;
  return error;
}

/** The POSIX code of a Workspace failure (local or across RPC), if it has one. */
export function posixCodeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^E[A-Z0-9_]+$/.test(code) ? code : undefined;
}

/** Links followed by {@link realpathOf} before it gives up with `ELOOP` (as Linux and the Workspace do). */
export const MAX_LINK_HOPS = 40;

/** What {@link realpathOf} reads. */
export interface LinkReader {
  lstat(path: string): Promise<{ isSymbolicLink: boolean; isDirectory: boolean }>;
  readlink(path: string): Promise<string>;
}

/**
 * The canonical path of `path` (absolute): every link resolved (a relative
 * target against the link's directory), `.` and `..` removed, walking the
 * segments with `lstat`/`readlink` as realpath(3) does (`..` after a link
 * goes up from where the link points). Linear in the segments walked: a
 * link's target of any length (e.g. 131,000 `./` segments) is pushed onto the
 * walk in a loop, never spread into one call, and the path walked so far is
 * extended or cut back, not joined again for every segment.
 * @throws the reader's error for a missing segment or dangling link (`ENOENT`) · `{ code: "ENOTDIR" }` a file mid-path · `{ code: "ELOOP" }` more than {@link MAX_LINK_HOPS} links.
 */
export async function realpathOf(fs: LinkReader, path: string, fail: (code: "ENOTDIR" | "ELOOP") => Error): Promise<string> {
  // The segments still to walk, the next one last (a stack).
  const todo: string[] = [];
  pushSegments(todo, path);
  // The canonical path walked so far ("" for /), and where each of its segments starts (for `..`).
  let resolved = "";
  const starts: number[] = [];
  let hops = 0;
  while (todo.length > 0) {
    const segment = todo.pop() as string;
    if (segment === ".") continue;
    if (segment === "..") {
      const start = starts.pop();
      if (start !== undefined) resolved = resolved.slice(0, start);
      continue;
    }
    const candidate = `${resolved}/${segment}`;
    const stat = await fs.lstat(candidate);
    if (stat.isSymbolicLink) {
      if (++hops > MAX_LINK_HOPS) throw fail("ELOOP");
      const target = await fs.readlink(candidate);
      if (target.startsWith("/")) {
        resolved = "";
        starts.length = 0;
      }
      pushSegments(todo, target);
      continue;
    }
    if (!stat.isDirectory && todo.some((s) => s !== ".")) throw fail("ENOTDIR");
    starts.push(resolved.length);
    resolved = candidate;
  }
  return resolved === "" ? "/" : resolved;
}

/** Pushes the non-empty segments of `path` onto `stack` so that its first segment is popped first (a loop: no spread of a long target). */
function pushSegments(stack: string[], path: string): void {
  const segments = path.split("/");
  for (let i = segments.length - 1; i >= 0; i--) if (segments[i] !== "") stack.push(segments[i] as string);
}

/**
 * Makes a symbolic link at absolute `path` with `make`, as symlink(2) does
 * when links lead to its directory: path_resolution(7) follows every segment
 * before the last, so with `lnk -> real` the link `/w/lnk/x` is made as
 * `/w/real/x`. The Workspace's `symlink` needs the parent chain to be real
 * directories (spec 01: a link on it is `ENOTDIR`); on that `ENOTDIR` the
 * parent is resolved with `realpath` (links relative to their own directory,
 * `..` after a link physical) and the link made there once more. The
 * parent's own failure is then the answer, as symlink(2)'s: `ENOENT` a
 * dangling link or a missing directory, `ENOTDIR` a file, `ELOOP` more than
 * 40 links. A relative `path`, one in directory form (`x/`, `x/.`, `x/..`),
 * or one whose parent has no link is made once, as given. Costs nothing more
 * when the parent chain is real directories; otherwise one `realpath` walk
 * (one `lstat` per segment, one `readlink` per link) and a second `make`.
 * Used by the node:fs-style provider and the shell's file adapter (issue 20,
 * run 35, fixer SL).
 * @param make creates the link at the path it is given (the Workspace's `symlink` with the target bound).
 * @param realpath the canonical path of a directory path (e.g. {@link realpathOf} over the same filesystem).
 * @throws `make`'s error for the path as given (no link among its parents) or as resolved; `realpath`'s error.
 */
export async function symlinkThroughParentLinks(make: (linkPath: string) => Promise<void>, realpath: (directory: string) => Promise<string>, path: string): Promise<void> {
  try {
    await make(path);
    return;
  } catch (error) {
    if (posixCodeOf(error) !== "ENOTDIR" || !path.startsWith("/") || /\/(?:\.{1,2})?$/.test(path)) throw error;
    const at = path.lastIndexOf("/");
    const parent = at === 0 ? "/" : path.slice(0, at);
    const real = await realpath(parent);
    if (real === parent) throw error;
    await make(`${real === "/" ? "" : real}/${path.slice(at + 1)}`);
  }
}
