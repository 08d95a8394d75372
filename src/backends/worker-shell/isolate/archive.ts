/**
 * `tar -x`, `tar -tv` and `gzip` / `gunzip` writing their output as GNU tar
 * 1.34 and gzip 1.12 do (issue 20, twenty-third attack run).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__archive`.
 *
 * What is at an output name is replaced, never written through: tar -x
 * removes a file or link (or an empty directory) at a member's path before
 * it makes the member, and gzip -f does the same at its output name, so a
 * link there cannot carry the write to the file it points to. The Workspace
 * has no hard links: a hard-link member is extracted as a copy of the file
 * it names (bytes and mode). Modes are the archive's (tar) or the input's
 * (gzip); without `-p` tar masks them with the shell's umask (022 unless
 * `umask` changed it, see umask.ts), as GNU tar does for a user who is not
 * root.
 *
 * @module
 */

import { reason } from "./path-errors.js";
import { modeColumn } from "./text-output.js";
import { umaskOf } from "./umask.js";

/** The umask of the shell's user (not root): what `tar -x` without `-p` takes from a member's mode. */
export const UMASK = 0o022;

interface Stat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  mode: number;
}

/** The part of just-bash's filesystem (the Workspace adapter) these helpers use. */
export interface ArchiveFs {
  resolvePath(base: string, path: string): string;
  lstat(path: string): Promise<Stat>;
  stat(path: string): Promise<Stat>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  writeFile(path: string, content: Uint8Array): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  cp(src: string, dest: string, options?: { recursive?: boolean }): Promise<void>;
}

/** A command's result as just-bash returns it. */
export interface Result {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The POSIX code of a filesystem error, if it has one (also from just-bash's `ENOENT: …` messages). */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : "";
  return /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
}

/** strerror(3) of `error`'s code (`File exists`, `Not a directory`, …). */
function strerror(error: unknown): string {
  const code = codeOf(error);
  if (code === "EEXIST") return "File exists";
  if (code === "ENOTEMPTY") return "Directory not empty";
  return reason(error);
}

/** A filesystem error with `code`, as the adapter throws them. */
function fsError(code: string): Error & { code: string } {
  return Object.assign(new Error(code), { code });
}

/** `path` without the trailing `/` or `/.` the adapter's resolvePath keeps (`/w/o/d/` → `/w/o/d`); `/` stays. */
function plainPath(path: string): string {
  let out = path;
  for (;;) {
    const next = out.replace(/\/\.$/, "").replace(/(.)\/+$/, "$1");
    if (next === out) return out;
    out = next;
  }
}

/** lstat of `path`, or `null` when nothing is there. */
async function lstatOrNull(fs: ArchiveFs, path: string): Promise<Stat | null> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Removes what is at `path` so a new entry can be made there (GNU tar's and
 * gzip's unlink): a file or link, or a directory only when it is empty
 * (`EEXIST` otherwise, as open(2) with `O_EXCL` after a failed rmdir).
 */
async function clear(fs: ArchiveFs, path: string, found: Stat): Promise<void> {
  try {
    await fs.rm(path);
  } catch (error) {
    if (found.isDirectory && !found.isSymbolicLink && (codeOf(error) === "ENOTEMPTY" || codeOf(error) === "EEXIST")) throw fsError("EEXIST");
    throw error;
  }
}

/** Gives `path` (a file just written: 0666 less the shell's umask, 0644) `mode`'s permission bits when they differ. */
async function setMode(fs: ArchiveFs, path: string, mode: number, current = 0o666 & ~umaskOf(fs)): Promise<void> {
  if ((mode & 0o7777) !== (current & 0o7777)) await fs.chmod(path, mode & 0o7777);
}

// ---------------------------------------------------------------------------
// tar -x

/** One member as just-bash's tar parser gives it. */
export interface TarMember {
  name: string;
  mode: number;
  type: string;
  linkTarget?: string;
  content: Uint8Array;
}

/** The options of just-bash's tar this module reads. */
export interface TarOptions {
  toStdout: boolean;
  keepOldFiles: boolean;
  preserve: boolean;
  verbose: boolean;
  absoluteNames: boolean;
  strip: number;
}

/** What one extraction keeps across its members. */
export interface TarState {
  /** Directories made or met, by path → the mode to give them at the end (GNU sets directory modes last). */
  directories: Map<string, number>;
  /** Prefixes already reported as removed from hard-link targets (GNU says so once each). */
  warned: Set<string>;
}

/** A fresh {@link TarState} for one `tar -x`. */
export function tarState(): TarState {
  return { directories: new Map(), warned: new Set() };
}

/** The mode a member is extracted with: the archive's, masked by `umask` (the shell's; 022) unless `-p`, setuid/setgid/sticky only with `-p`. */
export function tarMode(mode: number, preserve: boolean, umask = UMASK): number {
  return preserve ? mode & 0o7777 : mode & 0o777 & ~umask;
}

/**
 * A hard link's target as GNU tar reads it (safer_name_suffix): without
 * `-P`, everything up to the last `..` component and any leading `/` is
 * removed (`../outside/secret` → `outside/secret`); `--strip-components`
 * applies to it as to member names. `removed` is the prefix dropped, if any.
 */
export function hardLinkTarget(target: string, strip: number, absoluteNames: boolean): { name: string; removed: string } {
  let name = target;
  let removed = "";
  if (!absoluteNames) {
    let cut = 0;
    let at = 0;
    while (at < name.length) {
      if (name.startsWith("..", at) && (at + 2 === name.length || name[at + 2] === "/")) cut = at + 2;
      const slash = name.indexOf("/", at);
      if (slash === -1) break;
      at = slash + 1;
    }
    while (name[cut] === "/") cut++;
    removed = name.slice(0, cut);
    name = name.slice(cut);
  }
  if (strip > 0) {
    const parts = name.split("/").filter((part) => part !== "");
    name = parts.length <= strip ? "" : parts.slice(strip).join("/");
  }
  return { name, removed };
}

/**
 * Whether a link member's target may lead out of the extraction directory
 * `root` (issue 20, run 28, fixer DT; every target with a `..` was refused,
 * npm's `node_modules/.bin/x -> ../pkg/cli.js` too, which GNU tar extracts).
 * Allowed: `..` only at the start, no more of them than the link's directory
 * (`path`'s, with every link on it resolved) lies below `root` (resolved the
 * same way), then names. Refused: a `..` after a name (`a/../../b`, and
 * `p/..` where `p` is a link the archive made to its own directory, which
 * leads one directory further up than it reads), and an error resolving.
 * Names only descend, and every link the archive makes is held to this rule,
 * so none leads out of `root` (a link that was there before is followed, as
 * GNU tar follows it for members too).
 */
export async function symlinkLeaves(fs: ArchiveFs, root: string, path: string, target: string): Promise<boolean> {
  const parts = target.split("/").filter((part) => part !== "" && part !== ".");
  let up = 0;
  while (up < parts.length && parts[up] === "..") up++;
  if (parts.slice(up).includes("..")) return true;
  if (up === 0) return false;
  // The canonical path of `p`: its deepest existing ancestor's, then the names not there yet (mkdir -p makes them).
  const real = async (p: string): Promise<string> => {
    let head = plainPath(p);
    let rest = "";
    for (;;) {
      try {
        const found = plainPath(await fs.realpath(head));
        return rest === "" ? found : `${found === "/" ? "" : found}/${rest}`;
      } catch (error) {
        if (codeOf(error) !== "ENOENT" || head === "/" || (await lstatOrNull(fs, head)) !== null) throw error;
        const cut = head.lastIndexOf("/");
        rest = rest === "" ? head.slice(cut + 1) : `${head.slice(cut + 1)}/${rest}`;
        head = head.slice(0, cut) || "/";
      }
    }
  };
  try {
    const top = await real(root);
    const dir = await real(path.slice(0, path.lastIndexOf("/")) || "/");
    if (dir === top) return true;
    const prefix = top === "/" ? "/" : `${top}/`;
    if (!dir.startsWith(prefix)) return true;
    return dir.slice(prefix.length).split("/").filter((part) => part !== "").length < up;
  } catch {
    return true;
  }
}

/**
 * Extracts one member at `path` (`name` as the archive gives it, after
 * `--strip-components`; `root` the `-C` directory) as GNU tar 1.34:
 *
 * - a file, link or hard link replaces a file or link at its path (and an
 *   empty directory); a directory there that is not empty is
 *   `Cannot open: File exists`. A link at the path is never written
 *   through. With `-k` anything there is kept and reported (`Cannot open:
 *   File exists`, `Cannot create symlink to 'b': File exists`, status 2).
 * - a directory replaces a file or link at its path (with `-k` it is kept);
 *   its mode is set after the last member ({@link tarExtractEnd}).
 * - a hard link is a copy of the file it names, which must exist by then
 *   (`Cannot hard link to 'x': No such file or directory`); a hard link to
 *   a link copies the link.
 * - modes: see {@link tarMode}.
 *
 * Returns what the member adds to tar's stdout (`-O`), its verbose listing
 * and its error lines; `null` when `aborted()` says the run was stopped.
 */
export async function tarExtractMember(
  ctx: { fs: ArchiveFs },
  options: TarOptions,
  member: TarMember,
  resolved: string,
  name: string,
  root: string,
  state: TarState,
  aborted: () => boolean,
): Promise<{ stdout: string; log: string; errors: string[] } | null> {
  const fs = ctx.fs;
  const out = { stdout: "", log: "", errors: [] as string[] };
  const done = () => {
    if (options.verbose) out.log += `${name}\n`;
    return out;
  };
  const path = plainPath(resolved);
  const makeParent = async () => {
    const parent = path.substring(0, path.lastIndexOf("/"));
    if (parent) await fs.mkdir(parent, { recursive: true }).catch(() => undefined);
  };
  let failure = "Cannot open";
  try {
    switch (member.type) {
      case "directory": {
        if (options.toStdout) return out;
        if (aborted()) return null;
        const found = await lstatOrNull(fs, path);
        if (found?.isDirectory) {
          if (!options.keepOldFiles) state.directories.set(path, tarMode(member.mode, options.preserve, umaskOf(fs)));
          return done();
        }
        // A file or link there is replaced (GNU: a link to a directory too); -k keeps it, and members below it then fail.
        if (found !== null && options.keepOldFiles) return done();
        failure = "Cannot mkdir";
        if (found !== null) await clear(fs, path, found);
        await fs.mkdir(path, { recursive: true });
        state.directories.set(path, tarMode(member.mode, options.preserve, umaskOf(fs)));
        return done();
      }
      case "file": {
        if (options.toStdout) {
          out.stdout += new TextDecoder().decode(member.content);
          return done();
        }
        const found = await lstatOrNull(fs, path);
        if (found !== null && options.keepOldFiles) throw fsError("EEXIST");
        await makeParent();
        if (aborted()) return null;
        if (found !== null) await clear(fs, path, found);
        await fs.writeFile(path, member.content);
        await setMode(fs, path, tarMode(member.mode, options.preserve, umaskOf(fs)));
        return done();
      }
      case "symlink": {
        const target = member.linkTarget;
        if (options.toStdout || !target) return out;
        if (!options.absoluteNames && (target.startsWith("/") || (await symlinkLeaves(fs, root, path, target)))) {
          out.errors.push(`tar: ${name}: unsafe symlink target`);
          return out;
        }
        failure = `Cannot create symlink to '${target}'`;
        const found = await lstatOrNull(fs, path);
        if (found !== null && options.keepOldFiles) throw fsError("EEXIST");
        await makeParent();
        if (aborted()) return null;
        if (found !== null) await clear(fs, path, found);
        await fs.symlink(target, path);
        return done();
      }
      case "hardlink": {
        if (options.toStdout || !member.linkTarget) return out;
        const { name: target, removed } = hardLinkTarget(member.linkTarget, options.strip, options.absoluteNames);
        if (removed !== "" && !state.warned.has(removed)) {
          state.warned.add(removed);
          out.log += `tar: Removing leading \`${removed}' from hard link targets\n`;
        }
        failure = `Cannot hard link to '${target}'`;
        if (target === "") throw fsError("ENOENT");
        const source = plainPath(fs.resolvePath(root, target));
        const linked = await lstatOrNull(fs, source);
        if (linked === null) throw fsError("ENOENT");
        if (linked.isDirectory) throw fsError("EPERM");
        if (source === path) return done();
        const found = await lstatOrNull(fs, path);
        if (found !== null && options.keepOldFiles) throw fsError("EEXIST");
        await makeParent();
        if (aborted()) return null;
        if (found !== null) await clear(fs, path, found);
        // No hard links in the Workspace: a copy of the file (bytes and mode) or of the link stands for one.
        if (linked.isSymbolicLink) await fs.symlink(await fs.readlink(source), path);
        else await fs.cp(source, path);
        return done();
      }
      default:
        return out;
    }
  } catch (error) {
    if (aborted()) return null;
    out.errors.push(`tar: ${name}: ${failure}: ${strerror(error)}`);
    return out;
  }
}

/** After the last member: gives each directory tar made or met its member's mode (GNU tar sets them last, so a 0500 directory could be filled). */
export async function tarExtractEnd(ctx: { fs: ArchiveFs }, state: TarState, errors: string[]): Promise<void> {
  for (const [path, mode] of state.directories) {
    try {
      const stat = await ctx.fs.lstat(path);
      if (stat.isDirectory) await setMode(ctx.fs, path, mode, stat.mode);
    } catch (error) {
      errors.push(`tar: ${path}: Cannot change mode to ${mode.toString(8).padStart(4, "0")}: ${strerror(error)}`);
    }
  }
}

/** The type letter and permissions of a `tar -tv` line (GNU: `d` directory, `l` link, `h` hard link, `-` file). */
export function tarModeColumn(member: { type: string; mode: number }): string {
  const type = member.type === "directory" ? "d" : member.type === "symlink" ? "l" : "-";
  const column = modeColumn(member.mode, type);
  return member.type === "hardlink" ? `h${column.slice(1)}` : column;
}

/** GNU tar's growing column widths of one `tar -tv` listing (its static `ugswidth` and `datewidth`), per listing (TC). */
const listWidths = new WeakMap<object, { ugs: number; date: number }>();

/** A member's time as GNU tar 1.34 lists it: `%Y-%m-%d %H:%M` (UTC, the shell's zone) (TC). */
export function tarListTime(mtime: Date | undefined): string {
  const time = mtime instanceof Date && !Number.isNaN(mtime.getTime()) ? mtime : new Date(0);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(time.getUTCFullYear(), 4)}-${pad(time.getUTCMonth() + 1)}-${pad(time.getUTCDate())} ${pad(time.getUTCHours())}:${pad(time.getUTCMinutes())}`;
}

/**
 * A `tar -tv` line up to and with the name, as GNU tar 1.34's simple_print_header: `MODE USER/GROUP SIZE DATE NAME`,
 * the owner the header's user and group names (uid/gid when it has none), the size right-aligned so that owner,
 * group and size fill 19 columns (wider when they need it, and every later line of the listing too) (TC).
 */
export function tarListColumns(listing: object, modes: string, member: { uid?: number; gid?: number; uname?: string; gname?: string; size?: number; mtime?: Date }, name: string): string {
  let widths = listWidths.get(listing);
  if (!widths) listWidths.set(listing, (widths = { ugs: 19, date: 16 }));
  const user = member.uname ? member.uname : String(member.uid ?? 0);
  const group = member.gname ? member.gname : String(member.gid ?? 0);
  const size = String(member.size ?? 0);
  const time = tarListTime(member.mtime);
  if (time.length > widths.date) widths.date = time.length;
  const pad = user.length + 1 + group.length + 1 + size.length;
  if (pad > widths.ugs) widths.ugs = pad;
  return `${modes} ${user}/${group} ${size.padStart(widths.ugs - pad + size.length)} ${time.padEnd(widths.date)} ${name}`;
}

/**
 * `tar -C DIR` for -x and -t: DIR must be a directory already, as GNU tar 1.34 (it chdirs, never makes it):
 * `tar: DIR: Cannot open: No such file or directory` (or `Not a directory`), `tar: Error is not recoverable: exiting
 * now`, status 2, nothing extracted. `null` to go on (TC).
 */
export async function tarChangeDirectory(fs: ArchiveFs, path: string, operand: string): Promise<Result | null> {
  try {
    const found = await fs.stat(path);
    if (found.isDirectory) return null;
    throw fsError("ENOTDIR");
  } catch (error) {
    return { stdout: "", stderr: `tar: ${operand}: Cannot open: ${strerror(error)}\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 };
  }
}

/** What follows the name on a `tar -tv` line: ` -> target` for a link, ` link to target` for a hard link. */
export function tarListSuffix(member: { type: string; linkTarget?: string }, options: Pick<TarOptions, "strip" | "absoluteNames">): string {
  if (!member.linkTarget) return "";
  if (member.type === "symlink") return ` -> ${member.linkTarget}`;
  if (member.type === "hardlink") return ` link to ${hardLinkTarget(member.linkTarget, options.strip, options.absoluteNames).name}`;
  return "";
}

// ---------------------------------------------------------------------------
// gzip / gunzip

/**
 * A link operand without `-f` or `-c` is refused, as GNU gzip opens its
 * input with O_NOFOLLOW: `gzip: l: Too many levels of symbolic links`,
 * status 1, nothing changed. `null` to go on.
 */
export async function gzipLinkOperand(fs: ArchiveFs, command: string, operand: string, path: string, flags: { force?: boolean }, toStdout: boolean): Promise<Result | null> {
  if (flags.force || toStdout) return null;
  const found = await lstatOrNull(fs, path).catch(() => null);
  if (found === null || !found.isSymbolicLink) return null;
  return { stdout: "", stderr: `${command}: ${operand}: Too many levels of symbolic links\n`, exitCode: 1 };
}

/**
 * Writes gzip's output `data` at `output` for the input file `input`
 * (`operand` as typed) as GNU gzip 1.12: anything at the output name (even a
 * dangling link) is `gzip: a.gz already exists;\tnot overwritten`, status 2,
 * unless `-f`, which removes a file or link there (a directory: `gzip: a.gz:
 * Is a directory`, status 1) — never writing through a link; the output gets
 * the input's mode. `null` when written.
 */
export async function gzipOutput(fs: ArchiveFs, command: string, operand: string, input: string, output: string, data: Uint8Array, flags: { force?: boolean }): Promise<Result | null> {
  const slash = operand.lastIndexOf("/");
  const inDir = input.slice(0, input.lastIndexOf("/"));
  const outDir = output.slice(0, output.lastIndexOf("/"));
  const shown = inDir === outDir ? operand.slice(0, slash + 1) + output.slice(output.lastIndexOf("/") + 1) : output;
  const found = await lstatOrNull(fs, output);
  if (found !== null) {
    if (!flags.force) return { stdout: "", stderr: `${command}: ${shown} already exists;\tnot overwritten\n`, exitCode: 2 };
    if (found.isDirectory && !found.isSymbolicLink) return { stdout: "", stderr: `${command}: ${shown}: Is a directory\n`, exitCode: 1 };
    await fs.rm(output);
  }
  const mode = (await fs.stat(input)).mode;
  await fs.writeFile(output, data);
  await setMode(fs, output, mode);
  return null;
}
