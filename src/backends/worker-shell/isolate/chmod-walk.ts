/**
 * `chmod -R` and `chmod -v` as GNU chmod 9.1 (issue 20, run 34, fixer CP). scripts/gen-shell.mjs patches
 * just-bash's chmod (namespace `__chmodWalk`) to call these.
 *
 * - Links: an operand that is a symbolic link is followed — its target's mode changes and, with -R, a link to a
 *   directory is recursed into (`chmod -R 700 lu` with `lu -> u` changes `u` and everything below it). A link met
 *   during the walk is left alone with its target, wherever that is (GNU chmod 9.1 walks with `FTS_PHYSICAL` and
 *   `FTS_COMFOLLOW`; it has no -H/-L/-P): with -v it says `neither symbolic link 'd/run' nor referent has been
 *   changed`. just-bash changed the target of every link in the tree (`chmod -R 644 d` made `../s/run.sh` 0644)
 *   and did not descend through a link operand.
 * - `-v` names each file as GNU does — the operand, then each entry below it as `OPERAND/relative` (trailing
 *   slashes of the operand dropped) — and says `mode of 'f' changed from 0755 (rwxr-xr-x) to 0644 (rw-r--r--)`,
 *   or `mode of 'f' retained as 0644 (rw-r--r--)` when the mode stays (modes in 4 octal digits, the 9-letter
 *   string with GNU's s/S/t/T). just-bash printed `mode of '/abs/path' changed to 0644` for every file.
 *
 * @module
 */

/** `rwxr-xr-x` of a mode's permission and set-ID/sticky bits (GNU's `strmode` without the type letter). */
export function permissionString(mode: number): string {
  const bit = (mask: number, letter: string) => (mode & mask ? letter : "-");
  const special = (exec: number, set: number, on: string, off: string, plain: string) =>
    mode & set ? (mode & exec ? on : off) : mode & exec ? plain : "-";
  return (
    bit(0o400, "r") + bit(0o200, "w") + special(0o100, 0o4000, "s", "S", "x") +
    bit(0o040, "r") + bit(0o020, "w") + special(0o010, 0o2000, "s", "S", "x") +
    bit(0o004, "r") + bit(0o002, "w") + special(0o001, 0o1000, "t", "T", "x")
  );
}

/** `0755 (rwxr-xr-x)`: a mode as GNU chmod -v shows it. */
function shown(mode: number): string {
  const bits = mode & 0o7777;
  return `${bits.toString(8).padStart(4, "0")} (${permissionString(bits)})`;
}

/**
 * GNU chmod 9.1's `-v` line (with its newline) for `name`, whose mode was `before` and is now `after`:
 * `mode of 'NAME' changed from 0755 (rwxr-xr-x) to 0644 (rw-r--r--)`, or `… retained as 0644 (rw-r--r--)`.
 */
export function verboseLine(name: string, before: number, after: number): string {
  if ((before & 0o7777) === (after & 0o7777)) return `mode of '${name}' retained as ${shown(after)}\n`;
  return `mode of '${name}' changed from ${shown(before)} to ${shown(after)}\n`;
}

/** GNU chmod 9.1's `-v` line for a symbolic link met during `-R`'s walk, which it leaves alone. */
export function linkLine(name: string): string {
  return `neither symbolic link '${name}' nor referent has been changed\n`;
}

/**
 * The name GNU chmod -R gives the entry at absolute `path` below the operand `operand` (resolved to `root`):
 * `operand` without its trailing slashes, then the part of `path` below `root` (`d/` and `/w/d/e/f` → `d/e/f`).
 * `path` itself when `operand` is not given.
 */
export function walkName(operand: string | undefined, root: string, path: string): string {
  if (operand === undefined) return path;
  const top = root.replace(/\/+$/, "");
  const below = top === "" ? path.replace(/^\/+/, "") : path.slice(top.length).replace(/^\/+/, "");
  const head = operand.replace(/\/+$/, "");
  return head === "" ? `/${below}` : `${head}/${below}`;
}

/** The part of the shell's filesystem {@link operandFailure} uses. */
interface LinkFs {
  lstat(path: string): Promise<{ isSymbolicLink: boolean }>;
}

/**
 * chmod's line for the operand `operand` (at `path`) it could not change, given `worded`, chmod's own line for the
 * failure (path-errors' `chmodFailure`): a dangling symbolic link is `chmod: cannot operate on dangling symlink
 * 'd/dang'`, as GNU chmod 9.1 (status 1); anything else is `worded`.
 */
export async function operandFailure(fs: LinkFs, path: string, operand: string, worded: string): Promise<string> {
  if (!worded.startsWith("chmod: cannot access ") || !worded.endsWith(": No such file or directory\n")) return worded;
  try {
    if ((await fs.lstat(path)).isSymbolicLink) return `chmod: cannot operate on dangling symlink '${operand}'\n`;
  } catch {
    // Missing itself: GNU's `cannot access`.
  }
  return worded;
}
