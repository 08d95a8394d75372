/**
 * Output and in-place edits of the shell's text commands as GNU coreutils
 * 9.1 and sed 4.9 produce them (issue 20, twenty-second attack run).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__textOutput`.
 *
 * @module
 */

import { readFailureReason } from "./coreutils.js";

/** The POSIX code of a filesystem error, if it has one (also from just-bash's `ENOENT: …` messages). */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
}

/** strerror(3) of `error` (`Is a directory`, `Permission denied`, …), `No such file or directory` without a code. */
function strerror(error: unknown): string {
  const code = codeOf(error);
  return readFailureReason(code === undefined ? error : { code });
}

// ---------------------------------------------------------------------------
// The mode column of `ls -l` and stat's `%A`.

/**
 * The ten-character mode string of GNU `ls -l` and `stat -c %A` (gnulib's
 * filemode): the type letter (`-` a file, `d` a directory, `l` a link) and
 * rwx for user, group and other, with the setuid / setgid bits shown as
 * `s` (`S` without the execute bit) in the user / group x place and the
 * sticky bit as `t` (`T`) in the other x place.
 */
export function modeColumn(mode: number, type: "-" | "d" | "l"): string {
  const bit = (mask: number, letter: string) => ((mode & mask) !== 0 ? letter : "-");
  const special = (exec: number, flag: number, set: string) => ((mode & flag) !== 0 ? ((mode & exec) !== 0 ? set : set.toUpperCase()) : bit(exec, "x"));
  return (
    type +
    bit(0o400, "r") +
    bit(0o200, "w") +
    special(0o100, 0o4000, "s") +
    bit(0o40, "r") +
    bit(0o20, "w") +
    special(0o10, 0o2000, "s") +
    bit(0o4, "r") +
    bit(0o2, "w") +
    special(0o1, 0o1000, "t")
  );
}

// ---------------------------------------------------------------------------
// sed -i[SUFFIX], --in-place[=SUFFIX], and files it cannot read.

/** The backup suffix an in-place option carries: `-i.bak` → `.bak`, `--in-place=~` → `~`, `-i` / `--in-place` → `""`. */
export function sedSuffix(arg: string): string {
  if (arg.startsWith("--in-place=")) return arg.slice("--in-place=".length);
  if (arg.startsWith("-i")) return arg.slice(2);
  return "";
}

/**
 * A group of short sed options read as getopt(3) reads it when `i` (whose
 * argument is optional and attached) follows other letters: `-ni.bak` is
 * `-n -i.bak`, `-Ei` is `-E -i`. The letters up to the `i` and the suffix
 * after it; `null` when an `e` or `f` (whose argument is the rest of the
 * group) comes first, or there is no `i`.
 */
export function sedFlagGroup(arg: string): { flags: string; suffix: string } | null {
  for (let k = 1; k < arg.length; k++) {
    const letter = arg[k];
    if (letter === "e" || letter === "f") return null;
    if (letter === "i") return { flags: arg.slice(0, k + 1), suffix: arg.slice(k + 1) };
  }
  return null;
}

type SedFs = {
  resolvePath(base: string, path: string): string;
  readFileBuffer(path: string): Promise<Uint8Array>;
  writeFile(path: string, content: Uint8Array | string, encoding?: string): Promise<void>;
  stat(path: string): Promise<{ mode: number }>;
  chmod(path: string, mode: number): Promise<void>;
};

/**
 * The backup name GNU sed 4.9 gives `operand` for `-iSUFFIX`: the operand
 * with SUFFIX appended, or, when SUFFIX holds a `*`, SUFFIX with each `*`
 * replaced by the operand (`-i'bak/*'` → `bak/f`); relative to the working
 * directory.
 */
export function sedBackupName(operand: string, suffix: string): string {
  return suffix.includes("*") ? suffix.split("*").join(operand) : operand + suffix;
}

/**
 * `sed -iSUFFIX`: keeps the original bytes of `operand` (at `path`) as its
 * backup, with the original's mode, before sed writes the edited text.
 * Throws (as a rename would) when the backup cannot be written.
 */
export async function sedBackup(fs: SedFs, cwd: string, operand: string, path: string, suffix: string): Promise<void> {
  const bytes = await fs.readFileBuffer(path);
  const { mode } = await fs.stat(path);
  const backup = fs.resolvePath(cwd, sedBackupName(operand, suffix));
  await fs.writeFile(backup, bytes);
  await fs.chmod(backup, mode & 0o7777);
}

type SedLinkFs = SedFs & {
  lstat(path: string): Promise<{ isSymbolicLink: boolean }>;
  readlink(path: string): Promise<string>;
  mv(from: string, to: string): Promise<void>;
  rm(path: string, options?: { force?: boolean }): Promise<void>;
};

/** Where `sed -i` writes one operand ({@link sedInPlaceTarget}). */
export interface SedInPlaceTarget {
  /** The path written. */
  path: string;
  /** For an operand that is a link (no `--follow-symlinks`): the mode of the file it led to, which the new file gets. */
  linkMode: number | null;
}

/** `dir/name` for an absolute `dir`. */
function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/** The directory part of an absolute path (`/` for `/x`). */
function parentOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at <= 0 ? "/" : path.slice(0, at);
}

/**
 * `sed -i[SUFFIX]` before it writes `operand` (at `path`; already read), as
 * GNU sed 4.9 does: a regular file is rewritten in place (after its backup
 * is kept, {@link sedBackup}); a symbolic link is replaced by the edited
 * file (which gets the mode of the file it led to) and the file it led to is
 * left alone — with a SUFFIX the link itself is renamed to the backup name.
 * With `follow` (`--follow-symlinks`) the links are followed instead, as GNU
 * names them (`dir-of-link/target`), and the file at the end is edited in
 * place, its backup named after it. Throws as the rename of a backup would.
 */
export async function sedInPlaceTarget(fs: SedLinkFs, cwd: string, operand: string, path: string, suffix: string, follow: unknown): Promise<SedInPlaceTarget> {
  let name = operand;
  let at = path;
  if (follow === true) {
    for (let hops = 0; (await fs.lstat(at)).isSymbolicLink; hops++) {
      if (hops >= 40) throw Object.assign(new Error("ELOOP: too many levels of symbolic links"), { code: "ELOOP" });
      const target = await fs.readlink(at);
      const slash = name.lastIndexOf("/");
      name = target.startsWith("/") || slash < 0 ? target : `${name.slice(0, slash + 1)}${target}`;
      at = fs.resolvePath(cwd, name);
    }
  }
  if (!(await fs.lstat(at)).isSymbolicLink) {
    if (suffix !== "") await sedBackup(fs, cwd, name, at, suffix);
    return { path: at, linkMode: null };
  }
  const linkMode = (await fs.stat(at)).mode & 0o7777;
  if (suffix !== "") await fs.mv(at, fs.resolvePath(cwd, sedBackupName(name, suffix)));
  return { path: at, linkMode };
}

/**
 * Writes `sed -i`'s `output` to `target` ({@link sedInPlaceTarget}): a file
 * in place (its mode and inode kept); in place of a link, through a new file
 * beside it (`sedXXXXXX`, with the mode) renamed over the link, as GNU sed's
 * output file — the link is replaced only once the file is whole.
 */
export async function sedWriteInPlace(fs: SedLinkFs, target: SedInPlaceTarget, output: string): Promise<void> {
  if (target.linkMode === null) return fs.writeFile(target.path, output);
  let temp: string;
  for (;;) {
    temp = joinPath(parentOf(target.path), `sed${Math.random().toString(36).slice(2, 8).padEnd(6, "0")}`);
    try {
      await fs.lstat(temp);
    } catch {
      break;
    }
  }
  try {
    await fs.writeFile(temp, output);
    await fs.chmod(temp, target.linkMode);
    await fs.mv(temp, target.path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * What GNU sed 4.9 says and does about an input file it could not use:
 * one it cannot read is `sed: can't read f: <reason>` and sed goes on with
 * the next file, exiting 2 at the end; a directory stops sed with status 4
 * (`sed -i`: `couldn't edit d: not a regular file`; else `read error on d:
 * Is a directory`).
 */
export function sedReadFailure(operand: string, error: unknown, inPlace: unknown): { message: string; exitCode: 2 | 4 } {
  if (codeOf(error) === "EISDIR") {
    return { message: inPlace === true ? `sed: couldn't edit ${operand}: not a regular file\n` : `sed: read error on ${operand}: Is a directory\n`, exitCode: 4 };
  }
  return { message: `sed: can't read ${operand}: ${strerror(error)}\n`, exitCode: 2 };
}

/** `sed -iSUFFIX` when the backup cannot be made: GNU's `sed: cannot rename f: <reason>`, status 4 (the file is left as it was). */
export function sedBackupFailure(operand: string, error: unknown): string {
  return `sed: cannot rename ${operand}: ${strerror(error)}\n`;
}

// ---------------------------------------------------------------------------
// md5sum, sha1sum, sha256sum.

type Result = { stdout: string; stderr: string; exitCode: number };
type ChecksumContext = {
  fs: { resolvePath(base: string, path: string): string; readFileBuffer(path: string): Promise<Uint8Array> };
  cwd: string;
  stdin: string;
};

/** The hex length of each algorithm's digest. */
const DIGEST_HEX: Readonly<Record<string, number>> = { md5: 32, sha1: 40, sha256: 64 };

/** A file name as GNU's quotef() prints it in a diagnostic: bare when it needs no quoting, else in single quotes. */
function quotef(name: string): string {
  if (name !== "" && /^[A-Za-z0-9_./+,:@%^=-]+$/.test(name)) return name;
  return `'${name.replace(/'/g, "'\\''")}'`;
}

/** `\` + the name with `\` and newline escaped, as GNU writes a name holding them on a sum line or a check line. */
function escapedName(name: string): { prefix: string; name: string } {
  return { prefix: "\\", name: name.replace(/\\/g, "\\\\").replace(/\n/g, "\\n") };
}

/** The name of an escaped sum line (`\n` → newline, `\\` → `\`); `null` for another backslash sequence. */
function unescapedName(name: string): string | null {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    if (name[i] !== "\\") {
      out += name[i];
      continue;
    }
    const next = name[++i];
    if (next === "\\") out += "\\";
    else if (next === "n") out += "\n";
    else return null;
  }
  return out;
}

/**
 * md5sum / sha1sum / sha256sum as GNU coreutils 9.1: sums on stdout
 * (`<hex>  <name>`, `<hex> *<name>` with -b, a name holding `\` or a newline
 * escaped behind a leading `\`); a file that cannot be read is `<cmd>: <name>: <reason>` on stderr,
 * status 1. `-c` prints `<name>: OK`, `FAILED` or `FAILED open or read` on
 * stdout and its diagnostics and WARNING lines on stderr; `--quiet` leaves
 * out the OK lines, `--status` prints nothing, `--strict` fails on an
 * improperly formatted line, `-w` warns about each one.
 * `digest` and `decode` are just-bash's (bytes → hex, stdin bytes → text);
 * `unknownOption` its refusal of an option.
 */
export async function checksumCommand(
  cmd: string,
  algorithm: string,
  args: readonly string[],
  ctx: ChecksumContext,
  digest: (algorithm: string, bytes: Uint8Array) => Promise<string>,
  decode: (bytes: string) => string,
  unknownOption: (cmd: string, option: string) => Result,
): Promise<Result> {
  let check = false;
  let quiet = false;
  let status = false;
  let strict = false;
  let warn = false;
  // -b/--binary and -t/--text (the last one wins): `*` or ` ` before the name; with -c GNU refuses both (SM).
  let binary: boolean | null = null;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) operands.push(arg);
    else if (arg === "--check") check = true;
    else if (arg === "--quiet") quiet = true;
    else if (arg === "--status") status = true;
    else if (arg === "--strict") strict = true;
    else if (arg === "--warn") warn = true;
    else if (arg.startsWith("--")) {
      if (arg !== "--binary" && arg !== "--text") return unknownOption(cmd, arg);
      binary = arg === "--binary";
    }
    else {
      for (const letter of arg.slice(1)) {
        if (letter === "c") check = true;
        else if (letter === "w") warn = true;
        else if (letter === "b" || letter === "t") binary = letter === "b";
        else return unknownOption(cmd, `-${letter}`);
      }
    }
  }
  if (check && binary !== null) {
    return {
      stdout: "",
      stderr: `${cmd}: the --binary and --text options are meaningless when verifying checksums\nTry '${cmd} --help' for more information.\n`,
      exitCode: 1,
    };
  }
  if (operands.length === 0) operands.push("-");
  const read = async (name: string): Promise<Uint8Array> =>
    name === "-" ? Uint8Array.from(ctx.stdin, (c) => c.charCodeAt(0)) : await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, name));
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  if (!check) {
    for (const name of operands) {
      let bytes: Uint8Array;
      try {
        bytes = await read(name);
      } catch (error) {
        stderr += `${cmd}: ${quotef(name)}: ${strerror(error)}\n`;
        exitCode = 1;
        continue;
      }
      const sum = await digest(algorithm, bytes);
      const escaped = /[\\\n]/.test(name) ? escapedName(name) : { prefix: "", name };
      stdout += `${escaped.prefix}${sum} ${binary === true ? "*" : " "}${escaped.name}\n`;
    }
    return { stdout, stderr, exitCode };
  }
  const hexLength = DIGEST_HEX[algorithm] ?? 64;
  const line = new RegExp(`^(\\\\?)([0-9a-fA-F]{${hexLength}})[ \\t][ *]?(.+)$`);
  for (const listing of operands) {
    const shown = listing === "-" ? "standard input" : listing;
    let text: string;
    try {
      text = decode(listing === "-" ? ctx.stdin : byteString(await read(listing)));
    } catch (error) {
      stderr += `${cmd}: ${quotef(shown)}: ${strerror(error)}\n`;
      exitCode = 1;
      continue;
    }
    let formatted = 0;
    let improper = 0;
    let unreadable = 0;
    let mismatched = 0;
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (let n = 0; n < lines.length; n++) {
      const raw = lines[n]!.replace(/\r$/, "");
      if (raw.startsWith("#") || raw === "") continue;
      const m = line.exec(raw);
      const name = m === null ? null : m[1] === "\\" ? unescapedName(m[3]!) : m[3]!;
      if (m === null || name === null) {
        improper++;
        if (warn) stderr += `${cmd}: ${quotef(shown)}: ${n + 1}: improperly formatted ${algorithm === "md5" ? "MD5" : algorithm === "sha1" ? "SHA1" : "SHA256"} checksum line\n`;
        continue;
      }
      formatted++;
      const printed = name.includes("\n") ? `\\${escapedName(name).name}` : name;
      let bytes: Uint8Array;
      try {
        bytes = await read(name);
      } catch (error) {
        unreadable++;
        stderr += `${cmd}: ${quotef(name)}: ${strerror(error)}\n`;
        if (!status) stdout += `${printed}: FAILED open or read\n`;
        continue;
      }
      const ok = (await digest(algorithm, bytes)) === m[2]!.toLowerCase();
      if (!ok) mismatched++;
      if (!status && (!ok || !quiet)) stdout += `${printed}: ${ok ? "OK" : "FAILED"}\n`;
    }
    if (formatted === 0) {
      stderr += `${cmd}: ${quotef(shown)}: no properly formatted checksum lines found\n`;
      exitCode = 1;
      continue;
    }
    if (!status) {
      if (improper > 0) stderr += `${cmd}: WARNING: ${improper} ${improper === 1 ? "line is" : "lines are"} improperly formatted\n`;
      if (unreadable > 0) stderr += `${cmd}: WARNING: ${unreadable} listed ${unreadable === 1 ? "file" : "files"} could not be read\n`;
      if (mismatched > 0) stderr += `${cmd}: WARNING: ${mismatched} computed ${mismatched === 1 ? "checksum" : "checksums"} did NOT match\n`;
    }
    if (unreadable > 0 || mismatched > 0 || (strict && improper > 0)) exitCode = 1;
  }
  return { stdout, stderr, exitCode };
}

/** `bytes` as a byte string (one char per byte), the form just-bash's decoder takes. */
function byteString(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

// ---------------------------------------------------------------------------
// wc's column width (with wcReadFiles, which reads its operands).
export { wcWidth } from "./coreutils.js";

// ---------------------------------------------------------------------------
// ls with several operands.

type LsFs = { resolvePath(base: string, path: string): string; stat(path: string): Promise<{ isDirectory: boolean }>; lstat(path: string): Promise<{ isDirectory: boolean }> };

/**
 * `ls A B …` (without `-d`) as GNU ls orders its operands: those that are
 * not there first, in the order given (their errors come first), then every
 * operand that is not a directory, as one list, then each directory with its
 * `name:` header, each group sorted by name (`-r` reversed; `-t`/`-S` keep
 * the order given). A command-line link is followed unless `-l` or `-F`.
 * Reorders `operands` in place; returns which of them are directories, so a
 * blank line goes only before a directory's listing.
 */
export async function lsOperandOrder(fs: LsFs, cwd: string, operands: string[], flags: Record<string, unknown>): Promise<boolean[]> {
  if (flags.directoryOnly === true || operands.length < 2) return operands.map(() => false);
  const follow = flags.longFormat !== true && flags.classifyFiles !== true;
  // GNU ls stats its operands in the order given and reports the missing ones then, before any listing.
  const kinds = await Promise.all(
    operands.map(async (name): Promise<"missing" | "file" | "directory"> => {
      const path = fs.resolvePath(cwd, name);
      try {
        return (await (follow ? fs.stat(path) : fs.lstat(path))).isDirectory ? "directory" : "file";
      } catch {
        return "missing";
      }
    }),
  );
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = flags.sortBySize !== true && flags.sortByTime !== true;
  const group = (kind: "file" | "directory") => {
    const names = operands.filter((_, k) => kinds[k] === kind);
    if (sorted) names.sort(byName);
    if (sorted && flags.reverse === true) names.reverse();
    return names;
  };
  const missing = operands.filter((_, k) => kinds[k] === "missing");
  const files = group("file");
  const directories = group("directory");
  operands.splice(0, operands.length, ...missing, ...files, ...directories);
  return [...missing.map(() => false), ...files.map(() => false), ...directories.map(() => true)];
}
