/**
 * Symbolic-link operands in the shell's `ln`, `mv`, `cp -r`, `find -type`
 * and `stat`, as GNU coreutils/findutils treat them (issue 20, twenty-first
 * attack run). just-bash 3.4.2 looked at every operand through `stat`, which
 * follows a link, so `ln -sf a.txt a.txt` replaced the file by a link to
 * itself, `ln -s T DIR` replaced or refused DIR instead of making DIR/T, `mv
 * a.txt la` (la -> a.txt) did nothing, `mv ld d` (ld -> d) was "into itself",
 * `find -type l` was refused and `stat -c %F` said "regular file" of a link.
 * scripts/gen-shell.mjs patches those commands to call these functions.
 *
 * @module
 */

import { modeColumn } from "./text-output.js";
import { STRERROR as REDIRECT_STRERROR } from "./redirect-failure.js";
import { umaskOf } from "./umask.js";

/** The part of just-bash's `IFileSystem` these functions use (the Workspace fs adapter in the shell). */
export interface LinkFs {
  stat(path: string): Promise<LinkStat>;
  lstat(path: string): Promise<LinkStat>;
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  symlink(target: string, linkPath: string): Promise<void>;
  link(existingPath: string, newPath: string): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  resolvePath(base: string, path: string): string;
}

/** What the adapter's `stat`/`lstat` report (`identity` is `"workspace:<inode>"`). */
export interface LinkStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  mode: number;
  size: number;
  identity?: string;
  ino?: number;
  /** Set by {@link statOperand} for a link: the target it holds. */
  linkTarget?: string;
}

interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** strerror(3) wording (glibc) of the codes the Workspace fs adapter throws: the redirect table and a few more. */
const STRERROR: Readonly<Record<string, string>> = {
  ...REDIRECT_STRERROR,
  EEXIST: "File exists",
  EBUSY: "Device or resource busy",
  ENOTEMPTY: "Directory not empty",
  ENOSYS: "Function not implemented",
};

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** The strerror text of `error`'s code; errors without a POSIX code (just-bash's limits, a kill) are rethrown. */
function reasonOf(error: unknown): string {
  const code = codeOf(error);
  if (code === undefined || !/^E[A-Z0-9]+$/.test(code) || code === "ECANCELED" || code === "ETIMEDOUT") throw error;
  return STRERROR[code] ?? code;
}

/** Whether two stats are one Workspace node (same inode). */
function sameNode(a: LinkStat, b: LinkStat): boolean {
  if (a.identity !== undefined && b.identity !== undefined) return a.identity === b.identity;
  return a.ino !== undefined && a.ino === b.ino;
}

/** `dir/name` as GNU's file_name_concat writes it: no second `/` when `dir` already ends in one. */
function concat(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/** The last segment of `operand`, trailing slashes ignored (`""` for `/`). */
function lastSegment(operand: string): string {
  const trimmed = operand.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** The directory part of an absolute path (`/` for `/x`). */
function dirnameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const at = trimmed.lastIndexOf("/");
  return at <= 0 ? "/" : trimmed.slice(0, at);
}

async function orUndefined<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    reasonOf(error);
    return undefined;
  }
}

/**
 * GNU `ln` over the operands after its options: `ln TARGET LINK_NAME`, `ln
 * TARGET... DIRECTORY` (the last operand a directory, or a link to one
 * unless `-n`: each link is made as `DIRECTORY/<last segment of TARGET>`),
 * `ln TARGET` (in the working directory). With `-f`, an existing name is
 * replaced — but never a directory (`cannot overwrite directory`), and never
 * the node TARGET names as seen from the link's directory (`'T' and 'N' are
 * the same file`, `$?` 1, nothing changed). GNU ln 9.1 reads a relative
 * TARGET from the working directory for that check, so `ln -sf f.txt
 * d/f.txt` replaced d/f.txt by a link to itself there; here it is refused.
 * Hard links do not exist in the Workspace (`Function not implemented`).
 *
 * @param optionArgs the arguments before the operands (for `-n`/`--no-dereference`).
 */
export async function lnCommand(
  optionArgs: readonly string[],
  operands: readonly string[],
  flags: { symbolic: boolean; force: boolean; verbose: boolean },
  ctx: { fs: LinkFs; cwd: string },
): Promise<CommandResult> {
  const noDereference = optionArgs.some((arg) => arg === "--no-dereference" || /^-[sfvn]*n[sfvn]*$/.test(arg));
  if (operands.length === 0) return { stdout: "", stderr: "ln: missing file operand\n", exitCode: 1 };
  const { fs, cwd } = ctx;
  let targets: readonly string[];
  let directory: string | null = null;
  let name = "";
  if (operands.length === 1) {
    targets = operands;
    directory = ".";
  } else {
    name = operands[operands.length - 1]!;
    targets = operands.slice(0, -1);
    const resolved = fs.resolvePath(cwd, name);
    let failure: unknown;
    let isDirectory = false;
    try {
      const stat = await fs.stat(resolved);
      isDirectory = stat.isDirectory && !(noDereference && (await fs.lstat(resolved)).isSymbolicLink);
    } catch (error) {
      reasonOf(error);
      failure = error;
    }
    if (isDirectory) directory = name;
    else if (targets.length > 1) {
      const reason = failure === undefined ? "Not a directory" : reasonOf(failure);
      return { stdout: "", stderr: `ln: target '${name}': ${reason}\n`, exitCode: 1 };
    }
  }
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  for (const target of targets) {
    const base = lastSegment(target);
    const linkName = directory === null ? name : base === "" ? directory : concat(directory, base);
    const error = await linkOne(fs, cwd, target, linkName, flags);
    if (error !== null) {
      stderr += error;
      exitCode = 1;
    } else if (flags.verbose) {
      stdout += `'${linkName}' ${flags.symbolic ? "->" : "=>"} '${target}'\n`;
    }
  }
  return { stdout, stderr, exitCode };
}

/** Makes one link; the stderr text of its failure, or `null`. */
async function linkOne(fs: LinkFs, cwd: string, target: string, linkName: string, flags: { symbolic: boolean; force: boolean }): Promise<string | null> {
  const kind = flags.symbolic ? "symbolic link" : "hard link";
  const path = fs.resolvePath(cwd, linkName);
  let existing: LinkStat | undefined;
  try {
    existing = await fs.lstat(path);
  } catch (error) {
    // GNU ln looks at the name first only with -f: without it the link call's own failure is the message (fixer SL, run 35).
    if (codeOf(error) !== "ENOENT" && flags.force) return `ln: failed to access '${linkName}': ${reasonOf(error)}\n`;
    reasonOf(error);
  }
  // What TARGET names: for a symbolic link, as seen from the link's directory (a relative target is read there).
  let source: LinkStat | undefined;
  if (flags.symbolic) {
    if (existing !== undefined && flags.force && target !== "") {
      source = await orUndefined(fs.stat(target.startsWith("/") ? target : fs.resolvePath(dirnameOf(path), target)));
    }
  } else {
    try {
      source = await fs.lstat(fs.resolvePath(cwd, target));
    } catch (error) {
      return `ln: failed to access '${target}': ${reasonOf(error)}\n`;
    }
    if (source.isDirectory) return `ln: ${target}: hard link not allowed for directory\n`;
  }
  if (existing !== undefined) {
    if (!flags.force) return `ln: failed to create ${kind} '${linkName}': File exists\n`;
    if (existing.isDirectory) return `ln: ${linkName}: cannot overwrite directory\n`;
    if (source !== undefined && sameNode(source, existing)) return `ln: '${target}' and '${linkName}' are the same file\n`;
    try {
      await fs.rm(path, { force: true });
    } catch (error) {
      return `ln: cannot remove '${linkName}': ${reasonOf(error)}\n`;
    }
  }
  try {
    // The adapter's symlink follows links among the link's parents, as symlink(2) (issue 20, run 35, fixer SL).
    if (flags.symbolic) await fs.symlink(target, path);
    else await fs.link(fs.resolvePath(cwd, target), path);
  } catch (error) {
    const reason = reasonOf(error);
    return flags.symbolic
      ? `ln: failed to create symbolic link '${linkName}': ${reason}\n`
      : `ln: failed to create hard link '${linkName}' => '${target}': ${reason}\n`;
  }
  return null;
}

/**
 * Whether `mv SOURCE DEST` (both resolved) would lose SOURCE's data, as GNU
 * mv's same-file check: `"same"` when both name one node (the entries
 * themselves, lstat: `mv d/f.txt ld/f.txt`) or SOURCE is a link to DEST
 * (`mv la a.txt`); `"different"` otherwise — a DEST that is a link to SOURCE
 * is replaced by SOURCE (`mv a.txt la`), as rename(2) does.
 */
export async function mvSameFile(fs: LinkFs, source: string, dest: string): Promise<"same" | "different"> {
  const destStat = await orUndefined(fs.lstat(dest));
  if (destStat === undefined) return "different";
  const sourceStat = await fs.lstat(source);
  if (sameNode(sourceStat, destStat)) return "same";
  if (sourceStat.isSymbolicLink) {
    const followed = await orUndefined(fs.stat(source));
    if (followed !== undefined && sameNode(followed, destStat)) return "same";
  }
  return "different";
}

/** The destination as the user wrote it: `DEST`, or `DEST/<last segment of SOURCE>` when DEST is a directory. */
export function destOperand(source: string, dest: string, destIsDirectory: unknown): string {
  if (destIsDirectory !== true) return dest;
  return concat(dest, lastSegment(source) || source);
}

/**
 * `stat` of an operand as GNU stat reads it: the entry itself (lstat) unless
 * `dereference` (`-L`); a link's `size` is the length of its target and its
 * `linkTarget` the target.
 */
export async function statOperand(fs: LinkFs, path: string, dereference: unknown): Promise<LinkStat> {
  if (dereference === true) return fs.stat(path);
  const stat = await fs.lstat(path);
  if (!stat.isSymbolicLink) return stat;
  const linkTarget = await fs.readlink(path);
  return { ...stat, isFile: false, isDirectory: false, size: new TextEncoder().encode(linkTarget).length, linkTarget };
}

/** GNU stat's `%F`: `symbolic link`, `directory`, `regular empty file`/`regular file`, else `weird file`. */
export function fileTypeName(stat: LinkStat): string {
  if (stat.isSymbolicLink) return "symbolic link";
  if (stat.isDirectory) return "directory";
  if (stat.isFile) return stat.size === 0 ? "regular empty file" : "regular file";
  return "character special file";
}

/** GNU stat's `%N`: `'name'`, and ` -> 'target'` for a link. */
export function quotedName(operand: string, stat: LinkStat): string {
  return stat.linkTarget === undefined ? `'${operand}'` : `'${operand}' -> '${stat.linkTarget}'`;
}

/**
 * GNU stat's `%A`: the type letter (`l` for a link) and rwx with the
 * setuid/setgid/sticky letters (`-rwsr-xr-x`), as {@link modeColumn};
 * `format` (just-bash's, which drops those bits) is no longer used.
 */
export function modeString(format: (mode: number, isDirectory: boolean) => string, stat: LinkStat): string {
  void format;
  return lsModeColumn(stat);
}

/** The `-type` letters GNU find accepts (`b c d p f l s D`, or a comma-separated list of them). */
export function isFindType(argument: unknown): boolean {
  return typeof argument === "string" && /^[bcdpflsD](,[bcdpflsD])*$/.test(argument);
}

/**
 * Whether an entry matches `-type <letters>`, as GNU find without `-L` (the
 * entry itself): `f` a regular file, `d` a directory, `l` a symbolic link —
 * the Workspace's one other kind of entry; `b c p s D` match nothing there.
 */
export function findTypeMatches(letters: string, isFile: unknown, isDirectory: unknown): boolean {
  return letters.split(",").some((letter) => (letter === "f" ? isFile === true : letter === "d" ? isDirectory === true : letter === "l" ? isFile !== true && isDirectory !== true : false));
}

/**
 * What `ls` shows for `path`: the entry itself (lstat) unless `follow` — GNU
 * ls follows a command-line link only without `-l`, `-d` and `-F`, and a
 * dangling one is still listed (as the link). A link carries `linkTarget`.
 */
export async function lsStat(fs: LinkFs, path: string, follow: unknown): Promise<LinkStat> {
  if (follow === true) {
    try {
      return await fs.stat(path);
    } catch (error) {
      if (codeOf(error) !== "ENOENT" && codeOf(error) !== "ELOOP") throw error;
      const stat = await fs.lstat(path);
      if (!stat.isSymbolicLink) throw error;
    }
  }
  return statOperand(fs, path, false);
}

/** The mode column of an `ls -l` line, from the entry's mode as GNU ls shows it (`-rwxr-x---`, `drwx------`, `lrwxrwxrwx`). */
export function lsModeColumn(stat: LinkStat): string {
  return modeColumn(stat.mode, stat.isSymbolicLink ? "l" : stat.isDirectory ? "d" : "-");
}

/** What follows the name in an `ls -l` line: ` -> <target>` for a link, else `suffix` (just-bash's indicator). */
export function lsNameSuffix(stat: LinkStat, suffix: string): string {
  return stat.linkTarget === undefined ? suffix : ` -> ${stat.linkTarget}`;
}

/**
 * The path `cp` (without `-r`) copies from: a link's final target (its
 * realpath), as GNU cp follows a source link unless recursive; any other
 * path as given (a dangling link then fails as the copy reads it).
 */
export async function followedSource(fs: LinkFs, path: string): Promise<string> {
  const stat = await orUndefined(fs.lstat(path));
  if (stat === undefined || !stat.isSymbolicLink) return path;
  return (await orUndefined(fs.realpath(path))) ?? path;
}

// ---------------------------------------------------------------------------
// readlink (issue 20, twenty-third attack run).

/** What `readlink -e`/`-f`/`-m` require to exist (gnulib's canonicalize_mode_t): every component, all but the last, none. */
export type CanonicalizeMode = "existing" | "all-but-last" | "missing";

/** Links followed before canonicalizing gives up with `ELOOP` (as Linux and the Workspace do). */
const MAX_LINK_HOPS = 40;

/** An error carrying only a POSIX code (what {@link canonicalize} throws). */
function codedError(code: string): Error & { code: string } {
  return Object.assign(new Error(`${code}: ${STRERROR[code] ?? code}`), { code });
}

/** Pushes `path`'s segments onto `stack` (its first segment on top), below them `""` for a trailing `/` when `marker`. */
function pushSegments(stack: string[], path: string, marker: boolean): void {
  const segments = path.split("/");
  if (marker && path.endsWith("/") && segments.some((s) => s !== "")) stack.push("");
  for (let i = segments.length - 1; i >= 0; i--) if (segments[i] !== "") stack.push(segments[i]!);
}

/**
 * Whether what follows the next component (`todo`, next on top; `""` a
 * trailing `/`) makes it a directory by name — a trailing `/`, a `/.` at the
 * end or a `/..` — as gnulib's suffix_requires_dir_check.
 */
function requiresDirectory(todo: readonly string[]): boolean {
  for (let i = todo.length - 1; i >= 0; i--) {
    const s = todo[i];
    if (s === "" || s === "..") return true;
    if (s !== ".") return false;
    if (i === 0) return true;
  }
  return false;
}

/**
 * The canonical form of absolute `path` (not normalized first: `ld/..` goes
 * up from where ld points), as GNU readlink 9.1 (gnulib
 * canonicalize_filename_mode) computes it: every link resolved, `.`/`..`
 * removed. `mode` says which components must exist: `"existing"` (`-e`)
 * every one; `"all-but-last"` (`-f`) every one but the last, which may be
 * missing (`ENOENT` only); `"missing"` (`-m`) none — a missing component and
 * what follows are taken as written, and a link loop is kept as the link.
 * @throws `{ code }` `ENOENT` · `ENOTDIR` (a file used as a directory) · `ELOOP` (more than 40 links).
 */
export async function canonicalize(fs: Pick<LinkFs, "lstat" | "readlink">, path: string, mode: CanonicalizeMode): Promise<string> {
  if (path === "") throw codedError("ENOENT");
  const todo: string[] = [];
  pushSegments(todo, path, true);
  let resolved = "";
  const starts: number[] = [];
  let hops = 0;
  // `resolved` names something that exists and is not a directory: a name below it is ENOTDIR.
  let notDirectory = false;
  while (todo.length > 0) {
    const segment = todo.pop()!;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      const start = starts.pop();
      if (start !== undefined) resolved = resolved.slice(0, start);
      notDirectory = false;
      continue;
    }
    const candidate = `${resolved}/${segment}`;
    const more = todo.some((s) => s !== "");
    let failure: string | undefined;
    let stat: LinkStat | undefined;
    if (notDirectory) failure = "ENOTDIR";
    else {
      try {
        stat = await fs.lstat(candidate);
      } catch (error) {
        reasonOf(error);
        failure = codeOf(error);
      }
    }
    if (stat?.isSymbolicLink) {
      if (++hops <= MAX_LINK_HOPS) {
        const target = await fs.readlink(candidate);
        if (target.startsWith("/")) {
          resolved = "";
          starts.length = 0;
        }
        pushSegments(todo, target, !more);
        continue;
      }
      failure = "ELOOP";
      stat = undefined;
    }
    if (stat !== undefined && !stat.isDirectory && requiresDirectory(todo)) failure = "ENOTDIR";
    if (failure !== undefined && (mode === "existing" || (mode === "all-but-last" && (more || failure !== "ENOENT")))) throw codedError(failure);
    starts.push(resolved.length);
    resolved = candidate;
    notDirectory = stat !== undefined && !stat.isDirectory;
  }
  return resolved === "" ? "/" : resolved;
}

/** `name` as GNU's quotef shows it in a message: as is, or in single quotes when empty or holding shell-special characters. */
function quoteName(name: string): string {
  return name !== "" && /^[A-Za-z0-9_./+,:%@=^-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}

const READLINK_LONG: Readonly<Record<string, string>> = {
  canonicalize: "f",
  "canonicalize-existing": "e",
  "canonicalize-missing": "m",
  "no-newline": "n",
  quiet: "q",
  silent: "s",
  verbose: "v",
  zero: "z",
};

/** GNU readlink's usage complaint: `line`, then the `Try` line, status 1. */
function readlinkUsage(line: string): CommandResult {
  return { stdout: "", stderr: `readlink: ${line}\nTry 'readlink --help' for more information.\n`, exitCode: 1 };
}

/**
 * GNU readlink 9.1 (after `--help`, which just-bash answers): `readlink
 * FILE…` prints each link's target; `-f` (`--canonicalize`), `-e`
 * (`--canonicalize-existing`) and `-m` (`--canonicalize-missing`) print the
 * canonical path ({@link canonicalize}); an operand that cannot be read or
 * canonicalized prints nothing and makes the status 1 (`-v` says why,
 * `-q`/`-s` keep quiet, the default). `-n` drops the newline (ignored, with
 * a warning, for several operands), `-z` ends each with NUL. Options may
 * follow operands; `--` ends them. just-bash's `-f` printed a path and
 * exited 0 for a link loop or a missing directory (`nope/x`), and resolved
 * no link before the last component.
 */
export async function readlinkCommand(args: readonly string[], ctx: { fs: LinkFs; cwd: string }): Promise<CommandResult> {
  let mode: CanonicalizeMode | null = null;
  let noNewline = false;
  let zero = false;
  let verbose = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    let letters: string;
    if (arg.startsWith("--")) {
      const name = arg.slice(2);
      const matches = Object.keys(READLINK_LONG).filter((long) => long.startsWith(name));
      const exact = READLINK_LONG[name];
      if (exact !== undefined) letters = exact;
      else if (matches.length === 1) letters = READLINK_LONG[matches[0]!]!;
      else if (matches.length === 0) return readlinkUsage(`unrecognized option '${arg}'`);
      else return readlinkUsage(`option '${arg}' is ambiguous; possibilities:${matches.map((m) => ` '--${m}'`).join("")}`);
    } else if (arg.startsWith("-") && arg !== "-") letters = arg.slice(1);
    else {
      operands.push(arg);
      continue;
    }
    for (const letter of letters) {
      if (letter === "f") mode = "all-but-last";
      else if (letter === "e") mode = "existing";
      else if (letter === "m") mode = "missing";
      else if (letter === "n") noNewline = true;
      else if (letter === "q" || letter === "s") verbose = false;
      else if (letter === "v") verbose = true;
      else if (letter === "z") zero = true;
      else return readlinkUsage(`invalid option -- '${letter}'`);
    }
  }
  if (operands.length === 0) return readlinkUsage("missing operand");
  let stderr = "";
  if (noNewline && operands.length > 1) {
    noNewline = false;
    stderr += "readlink: ignoring --no-newline with multiple arguments\n";
  }
  const end = noNewline ? "" : zero ? "\0" : "\n";
  let stdout = "";
  let exitCode = 0;
  for (const operand of operands) {
    try {
      const value =
        mode === null
          ? await ctx.fs.readlink(ctx.fs.resolvePath(ctx.cwd, operand))
          : await canonicalize(ctx.fs, operand === "" ? "" : operand.startsWith("/") ? operand : `${ctx.cwd}/${operand}`, mode);
      stdout += value + end;
    } catch (error) {
      const reason = reasonOf(error);
      exitCode = 1;
      if (verbose) stderr += `readlink: ${quoteName(operand)}: ${reason}\n`;
    }
  }
  return { stdout, stderr, exitCode };
}

// ---------------------------------------------------------------------------
// cp modes (issue 20, twenty-third attack run).


/** The part of the adapter {@link cpWithModes} uses. */
export interface CopyFs extends LinkFs {
  chmod(path: string, mode: number): Promise<void>;
  readdirWithFileTypes(path: string): Promise<{ name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean }[]>;
}

/** Sets `path`'s permission bits to `mode` unless they are that already (`current`). */
async function setMode(fs: CopyFs, path: string, current: number, mode: number): Promise<void> {
  if ((current & 0o7777) !== mode) await fs.chmod(path, mode);
}

/**
 * Runs `copy` (the adapter's `cp` of `source` to `dest`, both resolved) and
 * gives what it made GNU cp 9.1's modes: a file that was already there keeps
 * its own (cp writes into it), a new file gets the source's `& ~umask` (the shell's, {@link umaskOf};
 * setuid, setgid and sticky dropped), a new directory the source's `&
 * ~umask` (sticky kept), a directory already there keeps its own; with
 * `preserve` (`-p`) each gets the source's whole mode. The adapter alone
 * gave every file the source's mode and every directory 0755.
 */
export async function cpWithModes(fs: CopyFs, source: string, dest: string, flags: { recursive: unknown; preserve: unknown }, copy: () => Promise<void>): Promise<void> {
  const preserve = flags.preserve === true;
  const from = await orUndefined(flags.recursive === true ? fs.lstat(source) : fs.stat(source));
  if (from === undefined || from.isSymbolicLink) return copy();
  if (!from.isDirectory) {
    const before = preserve ? undefined : await orUndefined(fs.stat(dest));
    await copy();
    const mode = preserve ? from.mode & 0o7777 : before?.isFile === true ? before.mode & 0o7777 : from.mode & 0o777 & ~umaskOf(fs);
    const after = await fs.stat(dest);
    await setMode(fs, dest, after.mode, mode);
    return;
  }
  // Entries of the destination tree that were there before the copy keep their mode (unless -p).
  const kept = new Map<string, number>();
  if (!preserve) await existingModes(fs, source, dest, kept);
  await copy();
  await copiedModes(fs, source, dest, preserve, kept);
}

/** Records in `kept` the modes of what is already at `dest` (a directory or file) and, for a directory, below it where `source` has the same names. */
async function existingModes(fs: CopyFs, source: string, dest: string, kept: Map<string, number>): Promise<void> {
  const there = await orUndefined(fs.stat(dest));
  if (there === undefined) return;
  kept.set(dest, there.mode & 0o7777);
  if (!there.isDirectory) return;
  const entries = await orUndefined(fs.readdirWithFileTypes(source));
  for (const entry of entries ?? []) {
    if (entry.isSymbolicLink) continue;
    await existingModes(fs, concat(source, entry.name), concat(dest, entry.name), kept);
  }
}

/** Gives the copy of directory `source` at `dest`, and what it holds, the modes {@link cpWithModes} describes. */
async function copiedModes(fs: CopyFs, source: string, dest: string, preserve: boolean, kept: ReadonlyMap<string, number>): Promise<void> {
  const from = await fs.lstat(source);
  const to = await fs.stat(dest);
  await setMode(fs, dest, to.mode, preserve ? from.mode & 0o7777 : (kept.get(dest) ?? from.mode & 0o1777 & ~umaskOf(fs)));
  for (const entry of await fs.readdirWithFileTypes(source)) {
    if (entry.isSymbolicLink) continue;
    const child = concat(source, entry.name);
    const target = concat(dest, entry.name);
    if (entry.isDirectory) await copiedModes(fs, child, target, preserve, kept);
    else if (!preserve) {
      // The adapter gave the copy the source's mode: a new file drops the umask and special bits, an old one keeps its own.
      const copied = await fs.stat(target);
      await setMode(fs, target, copied.mode, kept.get(target) ?? copied.mode & 0o777 & ~umaskOf(fs));
    }
  }
}
