/**
 * A command's path operands with a `..` after a symbolic link, resolved as the kernel does before the command starts
 * (issue 20, run 36, fixer DD2; wired into just-bash's command runner by scripts/gen-shell.mjs, entry marked
 * `// DD2`, imported as the namespace `__dotDots`).
 *
 * On Linux a `..` goes up from where the path before it leads (path_resolution(7)): with `lnk -> a/b`, `lnk/../f` is
 * `a/f`, and from a cwd entered as `cd lnk` (bash's logical `cd`), `../f` is `a/f` too. The shell's file system
 * adapter keeps such a `..` in what `resolvePath` gives and walks it physically in every method that takes a path
 * ({@link WorkspaceFsAdapter.physicalPath}) — which covers redirections, `test`, `cd -P` and each single-file call.
 * just-bash's tree walkers (find, du, ls -R, grep -r, rg, cp -r, chmod -R, tar, rm -r) normalise the root they are
 * given and the paths they join lexically, and name what they meet by slicing the root off: a root that still held a
 * `..` was walked lexically (the wrong tree) and printed with wrong names (`du -a d/..` named `d/../t`). So each
 * command gets its own view of the file system ({@link physicalOperands}) in which `resolvePath` gives, for each of
 * the command's arguments (and the value of a `--name=value` argument) that holds a `..` after a name, the physical
 * path it names — computed once, before the command runs, one `lstat` per segment of the part up to the last `..`
 * and one `readlink` per link. The walkers then start from a real directory and print names from the operand's text,
 * as GNU does (`du -a lnk/..` prints `lnk/../f`). Arguments without such a `..` cost nothing. An operand whose part
 * before the `..` cannot be walked (missing, a file, a loop) is left to the adapter, whose methods fail as the kernel
 * does (`ENOENT`, `ENOTDIR`, `ELOOP`).
 *
 * @module
 */
import { routePaths } from "./dev-stdin.js";

/** The adapter's part this module uses. */
interface DotDotFs {
  resolvePath(base: string, path: string): string;
  physicalPath(path: string, syscall: string): Promise<string>;
}

/** Whether absolute `path` holds a `..` segment after a name (one at `/` names `/`). Linear. */
export function hasDotDotAfterName(path: string): boolean {
  let depth = 0;
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (depth > 0) return true;
    } else depth++;
  }
  return false;
}

/** The most operands of one command resolved ahead (the rest are left to the adapter's own walk). */
export const MAX_RESOLVED_OPERANDS = 4096;

/**
 * `fs` as the command with arguments `args`, run in `cwd`, sees it: `resolvePath` gives the physical path for each
 * argument holding a `..` after a name (see the module comment); everything else is `fs` itself. `fs` is returned
 * unchanged when no argument needs it (or it is not the shell's adapter).
 */
export async function physicalOperands<T extends object>(fs: T, cwd: string, args: readonly unknown[]): Promise<T> {
  const adapter = fs as unknown as Partial<DotDotFs>;
  if (typeof adapter.physicalPath !== "function" || typeof adapter.resolvePath !== "function" || typeof cwd !== "string" || !Array.isArray(args)) return fs;
  const resolved = new Map<string, string>();
  for (const arg of args) {
    if (resolved.size >= MAX_RESOLVED_OPERANDS) break;
    if (typeof arg !== "string" || !arg.includes("..")) continue;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    for (const path of eq > 0 ? [arg, arg.slice(eq + 1)] : [arg]) {
      if (path === "" || !hasDotDotAfterName(path.startsWith("/") ? path : `${cwd}/${path}`)) continue;
      const kept = adapter.resolvePath(cwd, path);
      if (resolved.has(kept)) continue;
      // A part before the `..` that cannot be walked: the adapter's methods fail on the kept path as the kernel does.
      const physical = await adapter.physicalPath(kept, "stat").catch(() => undefined);
      if (physical !== undefined) resolved.set(kept, physical);
    }
  }
  if (resolved.size === 0) return fs;
  return routePaths(fs, () => false, {}, (key, call) => {
    if (key !== "resolvePath") return undefined;
    return (base: unknown, path: unknown) => {
      const kept = call(base, path) as string;
      return resolved.get(kept) ?? kept;
    };
  });
}

/**
 * The lexical parent of absolute `dir` (`/a/b` → `/a`, `/` → `/`): what ripgrep's ignore-file loader walks up by
 * (ripgrep takes the parents of the search path as written). just-bash's rg went up with `resolvePath(dir, "..")`,
 * which now keeps the `..` for the adapter to walk and so never reached `/` (a loop that ran the isolate out of heap,
 * run 35); scripts/gen-shell.mjs (`// DD2`) calls this instead.
 */
export function lexicalParent(dir: string): string {
  const trimmed = dir.replace(/\/+$/, "");
  const at = trimmed.lastIndexOf("/");
  return at <= 0 ? "/" : trimmed.slice(0, at);
}
