/**
 * Path handling and error reasons of the shell's commands as GNU coreutils
 * 9.1 and bash 5.2 give them (issue 20, twenty-second attack run).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__pathErrors`.
 *
 * @module
 */

import { STRERROR } from "./redirect-failure.js";

/** The POSIX code of a filesystem error (`ENOENT`, `EROFS`, …), if it has one. */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  // just-bash's own errors carry the code only in their message (`ENOENT: no such file or directory, …`).
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
}

/** strerror(3) of `error`'s code (`Read-only file system`, `Too many levels of symbolic links`, …); `fallback` without one. */
export function reason(error: unknown, fallback = "No such file or directory"): string {
  const code = codeOf(error);
  return (code !== undefined && STRERROR[code]) || fallback;
}

/**
 * A glob ending in `/`: bash matches directories only (following links) and
 * keeps one slash — `*` `/` → `e/ k/ le/`, `*` `//` likewise. The pattern
 * before the slashes and the suffix each match gets; `null` for any other
 * pattern.
 */
export function globDirectoryPattern(pattern: string): { prefix: string; suffix: string } | null {
  const m = /^([^]*[^/])\/+$/.exec(pattern);
  if (m === null) return null;
  return { prefix: m[1]!, suffix: "/" };
}

type StatFs = { resolvePath(base: string, path: string): string; stat(path: string): Promise<{ isDirectory: boolean }> };

/**
 * The `matches` of a glob's directory part that are directories (stat,
 * following links), each with `suffix` appended. With `skipDots` (bash 5.2's
 * globskipdots, or a GLOBIGNORE) a match named `.` or `..` is dropped first,
 * as bash drops it (`.*` `/` matches neither `./` nor `../`).
 */
export async function globDirectories(fs: StatFs, cwd: string, found: readonly string[], suffix: string, skipDots: unknown): Promise<string[]> {
  const matches = skipDots ? found.filter((match) => !/(?:^|\/)\.\.?$/.test(match)) : found;
  const isDirectory = await Promise.all(
    matches.map(async (match) => {
      try {
        return (await fs.stat(fs.resolvePath(cwd, match))).isDirectory;
      } catch {
        return false;
      }
    }),
  );
  return matches.filter((_, i) => isDirectory[i]).map((match) => `${match}${suffix}`);
}

/**
 * GNU rm's `-f` ignores only a missing operand (remove.c's
 * nonexistent_file_errno: `ENOENT`, `ENOTDIR`, `EINVAL`, `EILSEQ`); any other
 * failure (`EROFS`, `EPERM`, …) is still reported, with status 1.
 */
export function rmForceIgnores(error: unknown): boolean {
  const code = codeOf(error);
  if (code === undefined) {
    const message = error instanceof Error ? error.message : String(error);
    return /no such file/i.test(message);
  }
  return code === "ENOENT" || code === "ENOTDIR" || code === "EINVAL" || code === "EILSEQ";
}

/**
 * `chmod`'s line for `operand` that failed with `error`, as GNU chmod: a
 * file that cannot be reached is `cannot access '…': <reason>`; one that
 * refused the change (a read-only mount) is `changing permissions of '…':
 * <reason>`.
 */
export function chmodFailure(operand: string, error: unknown): string {
  const code = codeOf(error);
  const cannotReach = code === undefined || code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP" || code === "ENAMETOOLONG";
  return `chmod: ${cannotReach ? "cannot access" : "changing permissions of"} '${operand}': ${reason(error)}\n`;
}

/**
 * grep's pattern list with one more `-e`/`--regexp` pattern: GNU grep 3.8
 * matches a line against every `-e` (and `-f`) pattern, each a list of
 * newline-separated patterns, so they are joined with a newline (just-bash
 * kept only the last `-e`). `list` is `null` before the first.
 */
export function grepPattern(list: string | null, pattern: string): string {
  return list === null ? pattern : `${list}\n${pattern}`;
}

/** GNU grep 3.8's complaint (status 2) when `-e`/`-f` (`option` as given: `e`, `--regexp`, …) has no argument. */
export function grepMissingArgument(option: string): string {
  const head = option.startsWith("--") ? `grep: option '${option}' requires an argument` : `grep: option requires an argument -- '${option}'`;
  return `${head}\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n`;
}
