/**
 * Resolving symbolic links in a Workspace path with `lstat` and `readlink`
 * (the Workspace filesystem has no `realpath`): used by the runner (the
 * JavaScript backend refuses links on a path) and by sync (overlap checks).
 * Internal: not exported from the package.
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";

/** The `fs` methods {@link resolveLinks} needs. */
export type LinkReadingFs = Pick<WorkspaceFilesystem, "lstat" | "readlink">;

/** Most links followed while resolving one path (as Linux's `ELOOP` bound). */
const MAX_LINK_HOPS = 40;

function errorCode(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

/**
 * The path `path` (absolute, normalised) names once every symbolic link on
 * it is replaced by its target, `..` after a link applying to the target (as
 * POSIX `realpath`). When a component does not exist, the rest of the path
 * is appended as it is (so a path about to be created resolves through its
 * existing ancestors).
 * @returns the resolved absolute path.
 * @throws Error with code `ELOOP` after more than 40 links; any other
 *   filesystem error but `ENOENT`/`ENOTDIR` propagates.
 */
export async function resolveLinks(fs: LinkReadingFs, path: string): Promise<string> {
  const pending = path.split("/").filter((p) => p !== "" && p !== ".").reverse(); // a stack: next component last
  const done: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === "..") {
      done.pop();
      continue;
    }
    const next = `/${[...done, part].join("/")}`;
    let isLink: boolean;
    try {
      isLink = (await fs.lstat(next)).isSymbolicLink;
    } catch (err) {
      const code = errorCode(err);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
      done.push(part);
      for (let i = pending.length - 1; i >= 0; i--) {
        if (pending[i] === "..") done.pop();
        else done.push(pending[i]);
      }
      break;
    }
    if (!isLink) {
      done.push(part);
      continue;
    }
    if (++hops > MAX_LINK_HOPS) {
      throw Object.assign(new Error(`ELOOP: too many levels of symbolic links, resolving ${path}`), { code: "ELOOP" });
    }
    const target = await fs.readlink(next);
    if (target.startsWith("/")) done.length = 0;
    const parts = target.split("/").filter((p) => p !== "" && p !== ".");
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]);
  }
  return `/${done.join("/")}`;
}
