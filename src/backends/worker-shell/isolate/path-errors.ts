/**
 * Path handling and error reasons of the shell's commands as GNU coreutils
 * 9.1 and bash 5.2 give them (issue 20, twenty-second attack run).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__pathErrors`.
 *
 * @module
 */

import { isFsFailure, STRERROR } from "./redirect-failure.js";
import { modeColumn } from "./text-output.js";

/** The POSIX code of a filesystem error (`ENOENT`, `EROFS`, …), if it has one. */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  // just-bash's own errors carry the code only in their message (`ENOENT: no such file or directory, …`).
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
}

/** strerror(3) wording of the codes beyond redirect-failure.ts's that a `cp`, `mv` or `touch` meets. */
const MORE_STRERROR: Readonly<Record<string, string>> = {
  EEXIST: "File exists",
  ENOTEMPTY: "Directory not empty",
  EBUSY: "Device or resource busy",
  ENOSYS: "Function not implemented",
  EXDEV: "Invalid cross-device link",
};

/** strerror(3) of `error`'s code (`Read-only file system`, `Too many levels of symbolic links`, …); `fallback` without one. */
export function reason(error: unknown, fallback = "No such file or directory"): string {
  const code = codeOf(error);
  return (code !== undefined && (STRERROR[code] ?? MORE_STRERROR[code])) || fallback;
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

// ---------------------------------------------------------------------------
// Issue 20, twenty-third attack run (fixer SB3): more failures with their real reason, `find -printf` and `stat -c`
// directives, readlink -f/-e/-m and cp's modes (link-operands.ts).

export { cpWithModes, destOperand, readlinkCommand } from "./link-operands.js";

/** `error` again unless it is a filesystem failure (a POSIX code): just-bash's limit errors and a kill end the command. */
function fsFailureOnly(error: unknown): void {
  if (!isFsFailure(error)) throw error;
}

/** `tee`'s line for an output it could not open, as GNU tee: `tee: d: Is a directory`. */
export function teeFailure(operand: string, error: unknown): string {
  return `tee: ${operand}: ${reason(error)}\n`;
}

/** `nl`'s line for an input it could not read, as GNU nl (`nl: loop: Too many levels of symbolic links`); other errors are rethrown. */
export function nlFailure(operand: string, error: unknown): string {
  fsFailureOnly(error);
  return `nl: ${operand}: ${reason(error)}\n`;
}

/** util-linux rev's line: `rev: cannot open f: <reason>`, and for a directory its read error `rev: d: 0: Is a directory`. */
export function revFailure(operand: string, error: unknown): string {
  fsFailureOnly(error);
  return codeOf(error) === "EISDIR" ? `rev: ${operand}: 0: Is a directory\n` : `rev: cannot open ${operand}: ${reason(error)}\n`;
}

/** GNU base64's line: `base64: f: <reason>`, and `base64: read error: Is a directory` for a directory. */
export function base64Failure(command: string, operand: string, error: unknown): string {
  return codeOf(error) === "EISDIR" ? `${command}: read error: Is a directory\n` : `${command}: ${operand}: ${reason(error)}\n`;
}

/**
 * `sort`'s result when an input could not be read (the shared reader's
 * `sort: NAME: REASON` line): GNU sort 9.1's `sort: cannot read: NAME:
 * REASON` (`sort: read failed: d: Is a directory`), status 2.
 */
export function sortReadFailure(result: { stdout: string; stderr: string; exitCode: number }): { stdout: string; stderr: string; exitCode: number } {
  const reasons = Object.values(STRERROR).map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const m = new RegExp(`^sort: ([^]*): (${reasons.join("|")})\\n$`).exec(result.stderr);
  if (m === null) return { ...result, exitCode: 2 };
  const head = m[2] === STRERROR.EISDIR ? "read failed" : "cannot read";
  return { stdout: result.stdout, stderr: `sort: ${head}: ${m[1]}: ${m[2]}\n`, exitCode: 2 };
}

type OperandStat = { isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean };
type OperandFs = {
  resolvePath(base: string, path: string): string;
  stat(path: string): Promise<OperandStat>;
  lstat(path: string): Promise<OperandStat>;
};

/** The directory part of an absolute path, trailing slashes ignored (`/` for `/x`). */
function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const at = trimmed.lastIndexOf("/");
  return at <= 0 ? "/" : trimmed.slice(0, at);
}

/**
 * The code stat(2) would give for `path` where the adapter failed with
 * `error`: its own, but `ENOTDIR` for a missing name below a file (the
 * Workspace says `ENOENT` there; the kernel's path walk `ENOTDIR`).
 */
export async function failureCode(fs: OperandFs, path: string, error: unknown): Promise<string | undefined> {
  const code = codeOf(error);
  if (code !== "ENOENT") return code;
  for (let dir = parentOf(path); dir !== "/"; dir = parentOf(dir)) {
    try {
      return (await fs.stat(dir)).isDirectory ? "ENOENT" : "ENOTDIR";
    } catch (inner) {
      if (codeOf(inner) !== "ENOENT") return codeOf(inner) === "ENOTDIR" ? "ENOTDIR" : "ENOENT";
    }
  }
  return "ENOENT";
}

/** strerror of `code`. */
function strerror(code: string | undefined): string {
  return (code !== undefined && (STRERROR[code] ?? MORE_STRERROR[code])) || "No such file or directory";
}

/**
 * What GNU cp / mv 9.1 say of the destination `destName` (at `dest`) before
 * copying or moving `sourceName` there (`source` as they read it), or
 * `null` to go on: one that cannot be looked up is `cannot stat 'f/x': Not a
 * directory` (cp follows a link there, mv does not); a directory over a
 * non-directory, or the reverse, is `cannot overwrite …`; cp will not write
 * through a dangling link (`not writing through dangling symlink`).
 */
export async function destinationFailure(command: "cp" | "mv", fs: OperandFs, dest: string, destName: string, sourceName: string, source: OperandStat): Promise<string | null> {
  let there: OperandStat;
  try {
    there = await (command === "mv" ? fs.lstat(dest) : fs.stat(dest));
  } catch (error) {
    fsFailureOnly(error);
    const code = await failureCode(fs, dest, error);
    if (code !== "ENOENT") return `${command}: cannot stat '${destName}': ${strerror(code)}\n`;
    // L1: a missing `name/` can only be a directory: cp of a file there fails as GNU cp 9.1 (the copy said EISDIR).
    if (command === "cp" && destName.endsWith("/") && !source.isDirectory) return `cp: cannot create ${source.isSymbolicLink ? "symbolic link" : "regular file"} '${destName}': Not a directory\n`;
    if (command === "cp" && !/\/\.?$/.test(dest)) {
      const entry = await fs.lstat(dest).catch(() => undefined);
      if (entry?.isSymbolicLink) return `cp: not writing through dangling symlink '${destName}'\n`;
    }
    return null;
  }
  if (source.isDirectory && !there.isDirectory) return `${command}: cannot overwrite non-directory '${destName}' with directory '${sourceName}'\n`;
  if (!source.isDirectory && there.isDirectory) return `${command}: cannot overwrite directory '${destName}' with non-directory\n`;
  return null;
}

/**
 * The line for a `cp`/`mv` of `sourceName` to `destName` that failed with
 * `error`, naming the operand that failed as GNU coreutils 9.1: a source that
 * cannot be looked up is `cannot stat 'f': <reason>`; else mv's `cannot move
 * 'f' to 'd/nope/x': <reason>` and cp's `cannot create regular file
 * 'd/nope/x': <reason>` (`directory`, `symbolic link` for those). just-bash
 * blamed the source for every `ENOENT` and printed the adapter's raw text
 * otherwise.
 */
export async function moveFailure(command: "cp" | "mv", fs: OperandFs, cwd: string, sourceName: string, destName: string, error: unknown, recursive: unknown): Promise<string> {
  const verb = command === "cp" ? "copy" : "move";
  if (!isFsFailure(error)) return `${command}: cannot ${verb} '${sourceName}': ${error instanceof Error ? error.message : String(error)}\n`;
  const sourcePath = fs.resolvePath(cwd, sourceName);
  let source: OperandStat;
  try {
    source = await (command === "cp" && recursive !== true ? fs.stat(sourcePath) : fs.lstat(sourcePath));
  } catch (inner) {
    fsFailureOnly(inner);
    return `${command}: cannot stat '${sourceName}': ${strerror(await failureCode(fs, sourcePath, inner))}\n`;
  }
  if (command === "mv") return `mv: cannot move '${sourceName}' to '${destName}': ${reason(error)}\n`;
  const kind = source.isDirectory ? "directory" : source.isSymbolicLink ? "symbolic link" : "regular file";
  return `cp: cannot create ${kind} '${destName}': ${reason(error)}\n`;
}

// find -printf: the directives just-bash printed literally (%y %Y %l %n %H %u %g %U %G) and %M of a link.

/** just-bash's -printf data of one entry (with `isFile`, which gen-shell adds), and what {@link findPrintfData} adds. */
export interface FindPrintfData {
  path: string;
  mode: number;
  isDirectory: boolean;
  isFile?: boolean;
  startingPoint: string;
  /** The entry's own type letter (`f`, `d`, `l`), when it had to be looked up. */
  type?: string;
  /** The type of what it leads to (`N` a dangling link, `L` a loop). */
  followedType?: string;
  /** A link's target. */
  linkTarget?: string;
}

/** The entry's own type letter from the walk's answer (neither a file nor a directory: a link), if known. */
function ownType(data: FindPrintfData): string | undefined {
  if (data.type !== undefined) return data.type;
  if (data.isDirectory) return "d";
  return data.isFile === undefined ? undefined : data.isFile ? "f" : "l";
}

/**
 * `data` with what `format` asks for that the walk did not keep: a link's
 * target (`%l`, readlink) and the type of what it leads to (`%Y`, stat) —
 * for links only, and the entry's own type (lstat) if the walk did not say.
 */
export async function findPrintfData(fs: OperandFs & { readlink(path: string): Promise<string> }, cwd: string, format: string, data: FindPrintfData): Promise<FindPrintfData> {
  const wants = (letter: string) => new RegExp(`%[-+ #0-9.]*${letter}`).test(format);
  if (!wants("[yYlM]")) return data;
  const path = fs.resolvePath(cwd, data.path);
  let type = ownType(data);
  if (type === undefined) {
    try {
      const entry = await fs.lstat(path);
      type = entry.isSymbolicLink ? "l" : entry.isDirectory ? "d" : "f";
    } catch (error) {
      fsFailureOnly(error);
      return data;
    }
  }
  const out: FindPrintfData = { ...data, type, followedType: type };
  if (type !== "l") return out;
  if (wants("l")) out.linkTarget = await fs.readlink(path).catch((error: unknown) => (fsFailureOnly(error), ""));
  if (wants("Y")) {
    try {
      const followed = await fs.stat(path);
      out.followedType = followed.isDirectory ? "d" : "f";
    } catch (error) {
      fsFailureOnly(error);
      const code = codeOf(error);
      out.followedType = code === "ELOOP" ? "L" : code === "ENOENT" ? "N" : "?";
    }
  }
  return out;
}

/**
 * The text of -printf directive `letter` that just-bash lacks, as GNU find
 * 4.9 prints it: `y`/`Y` the type letters, `l` a link's target (empty for
 * others), `n` the link count (1: the Workspace has no hard links), `H` the
 * start point, `u`/`g` the owner and group `ls -l` shows (`user`), `U`/`G`
 * their ids (`stat -c %u`'s 1000); `undefined` for any other letter.
 */
export function findDirective(letter: string, data: FindPrintfData): string | undefined {
  const own = ownType(data) ?? "f";
  switch (letter) {
    case "y":
      return own;
    case "Y":
      return data.followedType ?? own;
    case "l":
      return data.linkTarget ?? "";
    case "n":
      return "1";
    case "H":
      return data.startingPoint;
    case "u":
    case "g":
      return "user";
    case "U":
    case "G":
      return "1000";
    default:
      return undefined;
  }
}

/** -printf `%M`: the mode column as `ls -l` shows it, a link as `lrwxrwxrwx`. */
export function findMode(data: FindPrintfData): string {
  const type = ownType(data) ?? "f";
  return modeColumn(data.mode, type === "l" ? "l" : type === "d" ? "d" : "-");
}

// stat -c.

type FormatStat = { mode: number; size: number; isDirectory: boolean; isSymbolicLink?: boolean; ino?: number; mtime?: Date };

/** `date` as GNU stat's `%y`: `2024-01-02 03:04:05.678000000 +0000` (the shell's clock is UTC). */
function statTime(date: Date | undefined): string {
  if (date === undefined) return "-";
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}000000 +0000`;
}

/**
 * `stat -c FORMAT` as GNU stat 9.1 expands it: each `%[flags][width][.precision]X`
 * (`%5n`, `%-8s`, `%05s`), `%%` is `%` and a `%` at the end is `%`, a
 * directive it does not know is `?`. `values` holds just-bash's
 * (`%n %N %s %F %a %A %u %U %g %G`); besides them `%h` (links: 1), `%i`
 * (inode), `%b`/`%B` (512-byte blocks), `%f` (raw mode, hex), `%t`/`%T`
 * (device type: 0), `%d`/`%D` (device: 0), `%o` (I/O size: 4096), `%x %y %z`
 * / `%X %Y %Z` (the Workspace's mtime, as text / seconds), `%w`/`%W` (birth:
 * unknown, `-` / 0). just-bash printed `%%`, `%h` and the rest as written.
 */
export function statFormat(format: string, values: ReadonlyMap<string, string>, stat: FormatStat): string {
  const seconds = stat.mtime === undefined ? "0" : String(Math.floor(stat.mtime.getTime() / 1000));
  const typeBits = stat.isSymbolicLink === true ? 0o120000 : stat.isDirectory ? 0o040000 : 0o100000;
  const extra: Record<string, string> = {
    h: "1",
    i: String(stat.ino ?? 0),
    b: String(Math.ceil(stat.size / 512)),
    B: "512",
    f: (typeBits | (stat.mode & 0o7777)).toString(16),
    t: "0",
    T: "0",
    d: "0",
    D: "0",
    o: "4096",
    x: statTime(stat.mtime),
    y: statTime(stat.mtime),
    z: statTime(stat.mtime),
    X: seconds,
    Y: seconds,
    Z: seconds,
    w: "-",
    W: "0",
  };
  return format.replace(/%([-#+ 0']*)(\d*)(?:\.(\d*))?([^]?)/g, (all, flags: string, width: string, precision: string | undefined, letter: string) => {
    if (letter === "" || letter === "%") return "%";
    let value = values.get(`%${letter}`) ?? extra[letter] ?? "?";
    const numeric = /^-?\d+$/.test(value);
    if (precision !== undefined && !numeric) value = value.slice(0, Number(precision || "0"));
    const size = Number(width || "0");
    if (value.length >= size) return value;
    if (flags.includes("-")) return value.padEnd(size);
    if (flags.includes("0") && numeric) return value.startsWith("-") ? `-${value.slice(1).padStart(size - 1, "0")}` : value.padStart(size, "0");
    return value.padStart(size);
  });
}
