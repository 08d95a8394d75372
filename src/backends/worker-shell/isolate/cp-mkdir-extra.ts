/**
 * `cp -f`, `-a`, `-d`/`-P`, `-u`, `-T`, `-t DIR`, `--parents` and `mkdir -m MODE`, as GNU coreutils 9.1 (issue 20,
 * thirty-first attack run, fixer TC). just-bash's cp knows only -r/-R/-n/-p/-v and its mkdir only -p/-v; these
 * options were refused (`cp: invalid option -- 'f'`, status 1). scripts/gen-shell.mjs patches the two commands to
 * call these functions first (namespace `__cpMkdir`); each returns `null` when none of its options is given, and
 * otherwise runs the command's own code (`run`, with only the options it knows) once per source, so modes, links
 * and error messages stay those of the command.
 *
 * - `-f`: the Workspace has no permissions that keep a file from being opened, so there is nothing to remove
 *   and retry; a dangling link at the destination is still refused, as GNU cp 9.1 (`not writing through dangling
 *   symlink`, even with -f).
 * - `-a` is `-dR --preserve=all`: links copied as links, modes kept (`-p`). The Workspace keeps no owners or
 *   hard links.
 * - `-d`/`-P` copy a link operand as a link also without -r.
 * - `-u` copies a file only when the destination is missing or older (mtime), at every level of a directory.
 * - `-T` treats DEST as a file: a file over a directory is `cannot overwrite directory 'D' with non-directory`, a
 *   directory is merged into it; more than one source is `extra operand`.
 * - `--parents` copies `p/q/f` to `DIR/p/q/f`, making `DIR/p` and `DIR/p/q` (each with its source's mode less the
 *   umask, or its whole mode with -p/-a).
 *
 * @module
 */

import { chmodMode } from "./mode-expr.js";
import { reason } from "./path-errors.js";
import { umaskOf } from "./umask.js";

interface Stat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  mode: number;
  mtime?: Date;
}

/** The part of just-bash's filesystem (the Workspace adapter) these helpers use. */
export interface ExtraFs {
  resolvePath(base: string, path: string): string;
  lstat(path: string): Promise<Stat>;
  stat(path: string): Promise<Stat>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

/** A command's result as just-bash returns it. */
export interface Result {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Ctx {
  fs: ExtraFs;
  cwd: string;
}

type Run = (args: string[]) => Promise<Result>;

async function lstatOrNull(fs: ExtraFs, path: string): Promise<Stat | null> {
  try {
    return await fs.lstat(path);
  } catch {
    return null;
  }
}

async function statOrNull(fs: ExtraFs, path: string): Promise<Stat | null> {
  try {
    return await fs.stat(path);
  } catch {
    return null;
  }
}

function usageError(command: string, message: string): Result {
  return { stdout: "", stderr: `${command}: ${message}\nTry '${command} --help' for more information.\n`, exitCode: 1 };
}

/** `parent/name` of a path (`/` kept single). */
function join(parent: string, name: string): string {
  return parent === "/" ? `/${name}` : `${parent.replace(/\/+$/, "")}/${name}`;
}

// ---------------------------------------------------------------------------
// mkdir -m

/**
 * `mkdir -m MODE` (`--mode=MODE`, `-pm MODE`): each directory the operands name that mkdir makes gets MODE — an
 * octal number as is, a symbolic mode applied to `a=rwx` under the umask, as GNU mkdir 9.1; parents made by -p keep
 * the umask's mode; an existing directory (with -p) is left as it is. An invalid MODE is `mkdir: invalid mode 'M'`,
 * status 1, nothing made. `null` without -m.
 */
export async function mkdirWithMode(args: readonly string[], ctx: Ctx, run: Run): Promise<Result | null> {
  let mode: string | undefined;
  const flags: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (ended || arg === "-" || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg === "--") {
      ended = true;
      continue;
    }
    if (arg.startsWith("--")) {
      if (arg === "--mode" || arg.startsWith("--mode=")) {
        if (arg === "--mode") {
          if (i + 1 >= args.length) return usageError("mkdir", "option '--mode' requires an argument");
          mode = args[++i]!;
        } else mode = arg.slice(7);
      } else flags.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (letter === "m") {
        if (j + 1 < arg.length) mode = arg.slice(j + 1);
        else if (i + 1 < args.length) mode = args[++i]!;
        else return usageError("mkdir", "option requires an argument -- 'm'");
        break;
      }
      flags.push(`-${letter}`);
    }
  }
  if (mode === undefined) return null;
  let bits: number;
  try {
    bits = chmodMode(mode, 0o777, true, umaskOf(ctx.fs));
  } catch {
    return { stdout: "", stderr: `mkdir: invalid mode '${mode}'\n`, exitCode: 1 };
  }
  if (operands.length === 0) return usageError("mkdir", "missing operand");
  const out: Result = { stdout: "", stderr: "", exitCode: 0 };
  for (const operand of operands) {
    const path = ctx.fs.resolvePath(ctx.cwd, operand);
    const existed = (await lstatOrNull(ctx.fs, path)) !== null;
    const r = await run([...flags, "--", operand]);
    out.stdout += r.stdout;
    out.stderr += r.stderr;
    if (r.exitCode !== 0) {
      out.exitCode = r.exitCode;
      continue;
    }
    if (existed) continue;
    try {
      await ctx.fs.chmod(path, bits);
    } catch (error) {
      out.stderr += `mkdir: cannot set permissions '${operand}': ${reason(error)}\n`;
      out.exitCode = 1;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// cp

interface CpOptions {
  recursive: boolean;
  noClobber: boolean;
  preserve: boolean;
  verbose: boolean;
  force: boolean;
  noDereference: boolean;
  update: boolean;
  noTarget: boolean;
  parents: boolean;
  targetDirectory?: string;
  /** An option this parser does not know: just-bash's cp reports it. */
  unknown: boolean;
  /** Any option just-bash's cp does not know (-f, -a, -d, -P, -u, -T, -t, --parents, --preserve=LIST). */
  extended: boolean;
}

const CP_LONG: Record<string, (o: CpOptions) => void> = {
  "--recursive": (o) => (o.recursive = true),
  "--no-clobber": (o) => (o.noClobber = true),
  "--preserve": (o) => (o.preserve = true),
  "--verbose": (o) => (o.verbose = true),
  "--force": (o) => ((o.force = true), (o.extended = true)),
  "--archive": (o) => ((o.recursive = o.preserve = o.noDereference = true), (o.extended = true)),
  "--no-dereference": (o) => ((o.noDereference = true), (o.extended = true)),
  "--update": (o) => ((o.update = true), (o.extended = true)),
  "--no-target-directory": (o) => ((o.noTarget = true), (o.extended = true)),
  "--parents": (o) => ((o.parents = true), (o.extended = true)),
};

const CP_SHORT: Record<string, (o: CpOptions) => void> = {
  r: CP_LONG["--recursive"]!,
  R: CP_LONG["--recursive"]!,
  n: CP_LONG["--no-clobber"]!,
  p: CP_LONG["--preserve"]!,
  v: CP_LONG["--verbose"]!,
  f: CP_LONG["--force"]!,
  a: CP_LONG["--archive"]!,
  d: CP_LONG["--no-dereference"]!,
  P: CP_LONG["--no-dereference"]!,
  u: CP_LONG["--update"]!,
  T: CP_LONG["--no-target-directory"]!,
};

function parseCp(args: readonly string[]): { options: CpOptions; operands: string[] } | Result {
  const o: CpOptions = { recursive: false, noClobber: false, preserve: false, verbose: false, force: false, noDereference: false, update: false, noTarget: false, parents: false, unknown: false, extended: false };
  const operands: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (ended || arg === "-" || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg === "--") {
      ended = true;
      continue;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (name === "--target-directory") {
        if (eq >= 0) o.targetDirectory = arg.slice(eq + 1);
        else if (i + 1 < args.length) o.targetDirectory = args[++i]!;
        else return usageError("cp", "option '--target-directory' requires an argument");
        o.extended = true;
      } else if (name === "--preserve" && eq >= 0) {
        // --preserve=mode,timestamps,… : the Workspace keeps modes (and links are links with -d); ownership,
        // xattr and context have nothing to keep.
        o.preserve = true;
        o.extended = true;
      } else if (name === "--update" && eq >= 0) {
        const when = arg.slice(eq + 1);
        if (when !== "older") o.unknown = true;
        else o.update = o.extended = true;
      } else if (eq < 0 && CP_LONG[arg]) CP_LONG[arg]!(o);
      else o.unknown = true;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (letter === "t") {
        if (j + 1 < arg.length) o.targetDirectory = arg.slice(j + 1);
        else if (i + 1 < args.length) o.targetDirectory = args[++i]!;
        else return usageError("cp", "option requires an argument -- 't'");
        o.extended = true;
        break;
      }
      const set = CP_SHORT[letter];
      if (set) set(o);
      else o.unknown = true;
    }
  }
  return { options: o, operands };
}

function merge(into: Result, r: Result): void {
  into.stdout += r.stdout;
  into.stderr += r.stderr;
  if (r.exitCode !== 0) into.exitCode = r.exitCode;
}

/**
 * cp with GNU coreutils 9.1's -f, -a, -d/-P, -u, -T, -t and --parents (see the module comment); `null` when none is
 * given (or an option neither knows is: just-bash's cp reports it). `run(args)` runs just-bash's (patched) cp.
 */
export async function cpExtended(args: readonly string[], ctx: Ctx, run: Run): Promise<Result | null> {
  const parsed = parseCp(args);
  if ("exitCode" in parsed) return parsed;
  const { options: o, operands } = parsed;
  if (!o.extended || o.unknown) return null;
  const fs = ctx.fs;
  let sources: string[];
  let dest: string;
  if (o.targetDirectory !== undefined) {
    if (o.noTarget) return usageError("cp", "cannot combine --target-directory (-t) and --no-target-directory (-T)");
    if (operands.length === 0) return usageError("cp", "missing file operand");
    sources = operands;
    dest = o.targetDirectory;
    const path = fs.resolvePath(ctx.cwd, dest);
    try {
      const found = await fs.stat(path);
      if (!found.isDirectory) return { stdout: "", stderr: `cp: target directory '${dest}': Not a directory\n`, exitCode: 1 };
    } catch (error) {
      return { stdout: "", stderr: `cp: target directory '${dest}': ${reason(error)}\n`, exitCode: 1 };
    }
  } else {
    if (operands.length === 0) return usageError("cp", "missing file operand");
    if (operands.length === 1) return usageError("cp", `missing destination file operand after '${operands[0]}'`);
    if (o.noTarget && operands.length > 2) return usageError("cp", `extra operand '${operands[2]}'`);
    sources = operands.slice(0, -1);
    dest = operands[operands.length - 1]!;
  }
  const destPath = fs.resolvePath(ctx.cwd, dest);
  const destStat = await statOrNull(fs, destPath);
  const destIsDir = destStat?.isDirectory === true;
  if (o.parents && !destIsDir) return usageError("cp", "with --parents, the destination must be a directory");
  // Several sources onto what is not a directory: just-bash's cp says why.
  if (!o.noTarget && sources.length > 1 && !destIsDir) return run(baseFlags(o, false).concat("--", sources, dest));

  const umask = umaskOf(fs);
  const out: Result = { stdout: "", stderr: "", exitCode: 0 };
  for (const source of sources) {
    const sourcePath = fs.resolvePath(ctx.cwd, source);
    const link = await lstatOrNull(fs, sourcePath);
    const asLink = link !== null && link.isSymbolicLink && (o.noDereference || o.recursive);
    const found = asLink ? link : await statOrNull(fs, sourcePath);
    if (found === null) {
      merge(out, await run(baseFlags(o, false).concat("--", source, dest)));
      continue;
    }
    const flags = baseFlags(o, asLink);
    if (o.parents) {
      const parts = source.split("/").filter((part) => part !== "" && part !== ".");
      let into = destPath;
      let shown = dest.replace(/\/+$/, "");
      let from = source.startsWith("/") ? "/" : ctx.cwd;
      let shownFrom = source.startsWith("/") ? "" : undefined;
      let failed = false;
      for (const part of parts.slice(0, -1)) {
        from = join(from, part);
        shownFrom = shownFrom === undefined ? part : `${shownFrom}/${part}`;
        into = join(into, part);
        shown = `${shown}/${part}`;
        const there = await statOrNull(fs, into);
        if (there?.isDirectory) continue;
        try {
          const mode = (await fs.stat(from)).mode & 0o7777;
          await fs.mkdir(into);
          await fs.chmod(into, o.preserve ? mode : mode & ~umask & 0o777);
          if (o.verbose) out.stdout += `${shownFrom} -> ${shown}\n`;
        } catch (error) {
          out.stderr += `cp: cannot make directory '${shown}': ${reason(error)}\n`;
          out.exitCode = 1;
          failed = true;
          break;
        }
      }
      if (failed) continue;
      const target = parts.length > 0 ? join(into, parts[parts.length - 1]!) : into;
      if (o.update && !(await newer(fs, found, target))) continue;
      await copyOne(o, flags, source, sourcePath, found, into, target, out, ctx, run);
      continue;
    }
    if (o.noTarget) {
      if (destIsDir) {
        if (!found.isDirectory) {
          out.stderr += `cp: cannot overwrite directory '${dest}' with non-directory\n`;
          out.exitCode = 1;
          continue;
        }
        if (!o.recursive) {
          merge(out, await run(flags.concat("--", source, dest)));
          continue;
        }
        await copyInto(o, flags, source, sourcePath, dest, destPath, out, ctx, run);
        continue;
      }
      if (o.update && !(await newer(fs, found, destPath))) continue;
      merge(out, await run(flags.concat("--", source, dest)));
      continue;
    }
    const base = source.replace(/\/+$/, "").split("/").pop() || source;
    const target = destIsDir ? join(destPath, base) : destPath;
    if (o.update) {
      if (found.isDirectory && o.recursive) {
        const there = await statOrNull(fs, target);
        if (there?.isDirectory) {
          await copyInto(o, flags, source, sourcePath, destIsDir ? `${dest.replace(/\/+$/, "")}/${base}` : dest, target, out, ctx, run);
          continue;
        }
      } else if (!(await newer(fs, found, target))) continue;
    }
    merge(out, await run(flags.concat("--", source, dest)));
  }
  return out;
}

/** The options just-bash's cp knows, for one source (`-r` to copy a link operand as a link). */
function baseFlags(o: CpOptions, linkAsLink: boolean): string[] {
  const flags: string[] = [];
  if (o.recursive || linkAsLink) flags.push("-r");
  if (o.noClobber) flags.push("-n");
  if (o.preserve) flags.push("-p");
  if (o.verbose) flags.push("-v");
  return flags;
}

/** -u: the source is to be copied over `target` (missing, or its mtime older than the source's). */
async function newer(fs: ExtraFs, source: Stat, target: string): Promise<boolean> {
  const there = await lstatOrNull(fs, target);
  if (there === null) return true;
  if (source.isDirectory) return true;
  const a = source.mtime?.getTime();
  const b = there.mtime?.getTime();
  if (a === undefined || b === undefined) return true;
  return a > b;
}

/** One source to its place `target` in the existing directory `into` (--parents). */
async function copyOne(o: CpOptions, flags: string[], source: string, sourcePath: string, found: Stat, into: string, target: string, out: Result, ctx: Ctx, run: Run): Promise<void> {
  if (o.update && found.isDirectory && o.recursive && (await statOrNull(ctx.fs, target))?.isDirectory) {
    await copyInto(o, flags, source, sourcePath, target, target, out, ctx, run);
    return;
  }
  merge(out, await run(flags.concat("--", source, into)));
}

/** The entries of the directory `source` into the existing directory `dest` (-T, and -u at every level). */
async function copyInto(o: CpOptions, flags: string[], source: string, sourcePath: string, dest: string, destPath: string, out: Result, ctx: Ctx, run: Run): Promise<void> {
  let names: string[];
  try {
    names = (await ctx.fs.readdir(sourcePath)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (error) {
    out.stderr += `cp: cannot access '${source}': ${reason(error)}\n`;
    out.exitCode = 1;
    return;
  }
  for (const name of names) {
    const childSource = `${source.replace(/\/+$/, "")}/${name}`;
    const childPath = join(sourcePath, name);
    const childTarget = join(destPath, name);
    const found = await lstatOrNull(ctx.fs, childPath);
    if (found === null) continue;
    if (o.update) {
      if (found.isDirectory) {
        if ((await statOrNull(ctx.fs, childTarget))?.isDirectory) {
          await copyInto(o, flags, childSource, childPath, `${dest.replace(/\/+$/, "")}/${name}`, childTarget, out, ctx, run);
          continue;
        }
      } else if (!(await newer(ctx.fs, found, childTarget))) continue;
    }
    merge(out, await run(flags.concat("--", childSource, dest)));
  }
}

// ---------------------------------------------------------------------------
// cp -n into an existing directory (issue 20, run 34, fixer CP)

/** What just-bash's cp was given, for {@link noClobberCopy} (run 34, fixer CP). */
export interface NoClobberOptions {
  /** -r/-R (also from -a): a directory source is copied with its tree. */
  recursive: boolean;
  /** -p (also from -a): children are copied with -p too. */
  preserve: boolean;
  /** -v: children name themselves (`'a/s' -> 'b/s'`). */
  verbose: boolean;
}

/**
 * `cp -n` (`--no-clobber`, also inside `-an`) at the destination `target` (`targetName` as GNU cp 9.1 names it) of
 * the source operand `sourceName` (at `sourcePath`, read as `source`), asked before cp's own checks of the
 * destination: `null` when nothing is there (copy it), or when cp's checks are to speak (a dangling link there:
 * `not writing through dangling symlink`; a directory source over a non-directory: `cannot overwrite
 * non-directory`; both status 1 in GNU cp 9.1 too); an empty result (skip, status 0, no message) when a
 * non-directory source meets anything — a file, a link, a directory — as GNU cp 9.1, which never overwrites with
 * -n; and when a directory source meets an existing directory (with -r), GNU's merge: each entry of the source is copied into it by `run` (just-bash's patched cp,
 * `-rn` plus `-p`/`-v` as given, `--`, `sourceName/entry`, `targetName`), so missing files and subtrees are made
 * and an entry that is itself an existing directory is merged in turn. Entries go in byte order of their names.
 * just-bash's cp skipped the existing directory whole: `cp -rn a/. b` and `cp -rn a c` (c/a existing) copied
 * nothing (status 0). Issue 20, run 34, fixer CP.
 */
export async function noClobberCopy(fs: ExtraFs, o: NoClobberOptions, sourceName: string, sourcePath: string, source: Stat, targetName: string, target: string, run: Run): Promise<Result | null> {
  const entry = await lstatOrNull(fs, target);
  if (entry === null) return null;
  // A dangling link: cp's own check says `not writing through dangling symlink` (GNU cp 9.1, also with -n).
  const there = entry.isSymbolicLink ? await statOrNull(fs, target) : entry;
  if (there === null) return null;
  const out: Result = { stdout: "", stderr: "", exitCode: 0 };
  if (!(o.recursive && source.isDirectory && !source.isSymbolicLink)) return out;
  // A directory over a non-directory: cp's own check says `cannot overwrite non-directory` (GNU cp 9.1, also with -n).
  if (!there.isDirectory || entry.isSymbolicLink) return null;
  let names: string[];
  try {
    names = (await fs.readdir(sourcePath)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (error) {
    out.stderr += `cp: cannot access '${sourceName}': ${reason(error)}\n`;
    out.exitCode = 1;
    return out;
  }
  const flags = ["-r", "-n", ...(o.preserve ? ["-p"] : []), ...(o.verbose ? ["-v"] : [])];
  const from = sourceName.endsWith("/") ? sourceName : `${sourceName}/`;
  for (const name of names) merge(out, await run(flags.concat("--", `${from}${name}`, targetName)));
  return out;
}
