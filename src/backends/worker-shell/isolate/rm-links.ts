/**
 * `rm` of a symbolic link as GNU coreutils 9.1's (issue 20, twenty-eighth
 * attack run, fixer RL):
 *
 * - `rm LINK` / `rm -f LINK` where LINK leads to a directory removes the link
 *   (GNU rm lstat()s its operand); just-bash stat()ed it and refused with
 *   `Is a directory`, keeping the link.
 * - `-d`/`--dir` removes an empty directory (and a link, whatever it leads
 *   to); a directory with entries is `Directory not empty`.
 * - An operand in directory form through a link (`l/`) goes through it, as
 *   GNU: without -r/-d `Is a directory`; with -r the directory it leads to is
 *   emptied and the link kept, then `Not a directory` (silent with -f, as GNU's
 *   -f ignores ENOTDIR); with -d `Directory not empty` or `Not a directory`; a
 *   dangling `l/` is `Not a directory`.
 *
 * scripts/gen-shell.mjs patches just-bash's rm to call {@link rmOperand}
 * (namespace `__rmLinks`, entries marked `// RL`). Bundled into the shell's
 * Dynamic Worker.
 *
 * @module
 */

interface Stat {
  isDirectory: boolean;
  isSymbolicLink?: boolean;
}

interface RmFs {
  lstat(path: string): Promise<Stat>;
  stat(path: string): Promise<Stat>;
  readdir(path: string): Promise<string[]>;
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
}

/** What rm does with one operand besides the plain `fs.rm`. */
export interface RmOperandResult {
  stdout: string;
  /** A refusal line (status 1), or "". */
  stderr: string;
  /** Thrown by the caller into its own catch (its -f rule and wording apply). */
  error?: Error;
}

function codeError(code: string, text: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${text}, rm '${path}'`), { code, path });
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : String(error);
  return /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
}

/**
 * The stat just-bash's rm refuses `Is a directory` from: lstat (a link is not
 * a directory; `l/` still goes through it, as lstat(2) does), never a
 * directory with -d; a dangling `l/` is `ENOTDIR`, as GNU rm says.
 */
export async function refusalStat(fs: RmFs, path: string, dir: boolean): Promise<Stat> {
  if (dir) return { isDirectory: false };
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (codeOf(error) !== "ENOENT" || !(path.length > 1 && path.endsWith("/"))) throw error;
    const entry = await fs.lstat(path.replace(/\/+$/, "") || "/").catch(() => null);
    if (entry?.isSymbolicLink) throw codeError("ENOTDIR", "not a directory", path);
    throw error;
  }
}

/**
 * One operand of `rm` in directory form through a link (`l/` with -r or -d):
 * `null` for any other, which the caller removes with `fs.rm(path, {
 * recursive, force })` (a link then goes, not what it leads to).
 * @param path resolved (keeps a trailing `/` of `operand`).
 */
export async function rmOperand(
  fs: RmFs,
  path: string,
  operand: string,
  options: { recursive: boolean; force: boolean; dir: boolean; verbose: boolean },
): Promise<RmOperandResult | null> {
  const directoryForm = path.length > 1 && path.endsWith("/");
  if (!directoryForm) return null;
  const bare = path.replace(/\/+$/, "") || "/";
  const entry = await fs.lstat(bare);
  if (!entry.isSymbolicLink) return null;
  // `l/`: the name is what the link leads to, which must be a directory.
  let target: Stat;
  try {
    target = await fs.stat(path);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return { stdout: "", stderr: "", error: codeError("ENOTDIR", "not a directory", path) };
    throw error;
  }
  if (!target.isDirectory) return { stdout: "", stderr: "", error: codeError("ENOTDIR", "not a directory", path) };
  if (!options.recursive && !options.dir) return { stdout: "", stderr: `rm: cannot remove '${operand}': Is a directory\n` };
  const names = await fs.readdir(path);
  if (!options.recursive) {
    return { stdout: "", stderr: "", error: names.length > 0 ? codeError("ENOTEMPTY", "directory not empty", path) : codeError("ENOTDIR", "not a directory", path) };
  }
  let stdout = "";
  for (const name of names) {
    await fs.rm(`${bare}/${name}`, { recursive: true, force: options.force });
    if (options.verbose) stdout += `removed '${operand}${name}'\n`;
  }
  // The link itself is not a directory: rmdir("l/") fails, the link stays.
  return { stdout, stderr: "", error: codeError("ENOTDIR", "not a directory", path) };
}

/**
 * rmdir of a link, as GNU rmdir 9.1: `rmdir LINK` is `Not a directory` whatever it leads to (just-bash followed it:
 * `Directory not empty`, or removed what it leads to), `rmdir LINK/` `Symbolic link not followed` (`Not a directory`
 * when it leads to a file). `null` for any other operand.
 */
export async function rmdirRefusal(fs: RmFs, path: string, operand: string): Promise<string | null> {
  const directoryForm = path.length > 1 && path.endsWith("/");
  const bare = directoryForm ? path.replace(/\/+$/, "") || "/" : path;
  const entry = await fs.lstat(bare).catch(() => null);
  if (!entry?.isSymbolicLink) return null;
  let reason = "Not a directory";
  if (directoryForm) {
    const target = await fs.stat(path).catch(() => null);
    if (target === null || target.isDirectory) reason = "Symbolic link not followed";
  }
  return `rmdir: failed to remove '${operand}': ${reason}\n`;
}
