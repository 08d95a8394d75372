/**
 * Operands whose last segment, as written, is `.` or `..` (`.`, `./`, `d/.`,
 * `d/..`, `/w/d/sub/..`): the shell's resolvePath turns them into the
 * directory they name, so just-bash 3.4.2's `rm -r`, `rmdir`, `mv`, `find
 * -delete` and `ln` acted on that directory (`rm -rf .` removed the working
 * directory) where Linux and GNU coreutils refuse them. scripts/gen-shell.mjs
 * patches those commands to ask these functions first, on the operand as the
 * command was given it (issue 20, twentieth attack run).
 *
 * @module
 */

/** True when `operand`'s last segment (trailing slashes ignored) is `.` or `..`, as GNU's `dot_or_dotdot(last_component(…))`. */
export function isDotOperand(operand: string): boolean {
  if (typeof operand !== "string") return false;
  const trimmed = operand.replace(/\/+$/, "");
  const last = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  return last === "." || last === "..";
}

/**
 * `rm -r <operand>` (GNU rm, POSIX): an operand ending in `.` or `..` is
 * refused — `rm: refusing to remove '.' or '..' directory: skipping '<operand>'\n`
 * — and nothing is removed; `/` (`//`, …) is refused as GNU's `--preserve-root`
 * does (`rm: it is dangerous to operate recursively on '/'`); `null` for any
 * other operand. Only with `-r`/`-R`: without it a directory is `Is a
 * directory` as before.
 */
export function rmDotRefusal(operand: string, recursive: unknown): string | null {
  if (recursive !== true || typeof operand !== "string") return null;
  // GNU rm's --preserve-root (its default): `/` itself is refused, with or without -f (the Workspace refuses to
  // remove `/` too, but `-f` hid that and `rm -rf /` exited 0).
  if (/^\/+$/.test(operand)) {
    return `rm: it is dangerous to operate recursively on '${operand}'${operand === "/" ? "" : " (same as '/')"}\nrm: use --no-preserve-root to override this failsafe\n`;
  }
  if (!isDotOperand(operand)) return null;
  return `rm: refusing to remove '.' or '..' directory: skipping '${operand}'\n`;
}

/**
 * `rmdir <operand>` as rmdir(2) answers a last `.` (`EINVAL`, `Invalid
 * argument`) or `..` (`ENOTEMPTY`, `Directory not empty`): the stderr line,
 * or `null` for any other operand.
 */
export function rmdirDotRefusal(operand: string): string | null {
  if (!isDotOperand(operand)) return null;
  const last = operand.replace(/\/+$/, "").split("/").pop();
  return `rmdir: failed to remove '${operand}': ${last === "." ? "Invalid argument" : "Directory not empty"}\n`;
}

/**
 * `mv <source> <dest>` with a source ending in `.` or `..`: rename(2) is
 * `EBUSY` — `mv: cannot move '<source>' to '<dest>': Device or resource busy\n`
 * (`<dest>/<last segment of source>` when `dest` is a directory, as GNU mv
 * names it); `null` for any other source.
 */
export function mvDotRefusal(source: string, dest: string, destIsDirectory: unknown): string | null {
  if (!isDotOperand(source)) return null;
  const last = source.replace(/\/+$/, "").split("/").pop();
  const to = destIsDirectory === true ? `${dest.replace(/\/+$/, "")}/${last}` : dest;
  return `mv: cannot move '${source}' to '${to}': Device or resource busy\n`;
}

/**
 * `find … -delete` of a path ending in `.` or `..`: GNU find never deletes
 * its starting point `.` (`""`: skip it silently); any other such path is
 * refused as rmdir(2) refuses it (`find: cannot delete '<path>': Invalid
 * argument` / `Directory not empty`). `null`: delete as usual.
 */
export function findDeleteDotRefusal(path: string): string | null {
  if (!isDotOperand(path)) return null;
  if (path.replace(/\/+$/, "") === ".") return "";
  const last = path.replace(/\/+$/, "").split("/").pop();
  return `find: cannot delete '${path}': ${last === "." ? "Invalid argument" : "Directory not empty"}\n`;
}

/**
 * The link name `ln` creates for `linkName`: a name that can only be a
 * directory — ending in `/`, or in a last `.` or `..` — names the directory
 * to make the link in, as GNU ln does: `<linkName>/<last segment of target>`
 * (`ln -sf /w/keep e/.` makes `e/./keep`). Any other name is returned as
 * given (as is one whose target has no last segment, such as `/`).
 */
export function linkNameInDirectory(linkName: string, target: string): string {
  if (typeof linkName !== "string" || typeof target !== "string") return linkName;
  if (!linkName.endsWith("/") && !isDotOperand(linkName)) return linkName;
  const base = target.replace(/\/+$/, "").split("/").pop();
  if (base === undefined || base === "") return linkName;
  return `${linkName.replace(/\/+$/, "")}/${base}`;
}
