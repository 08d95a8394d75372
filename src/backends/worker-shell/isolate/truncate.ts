/**
 * `truncate` as GNU coreutils 9.1 (issue 20, run 31, fixer GZ): just-bash has
 * none (`truncate: command not found`, 127), though agent scripts use it
 * (`truncate -s 0 app.log`). A custom command of the shell worker
 * (src/backends/worker-shell/worker.ts).
 *
 * Sizes as GNU's xdectoimax with the suffixes `EgGkKmMPtTYZ0` (K, M, G… powers
 * of 1024; KB, MB… of 1000; KiB = K), the prefixes `+ - < > / %`, `-c`, `-o`
 * (IO blocks of 4096 bytes), `-r RFILE`; messages and statuses as GNU's.
 *
 * The Workspace has no sparse files: a file grows by its zero bytes, written
 * out. A new size is therefore bounded by the shell's read bound,
 * {@link TRUNCATE_MAX_BYTES} (64 MiB): past it `truncate: failed to truncate
 * 'f' at N bytes: File too large` (EFBIG), status 1, the file as it was (made
 * empty if it was missing, as GNU's open(O_CREAT) came first). A file of any
 * size may be cut to a size within the bound (its first bytes are read with
 * a range read), and a size equal to the file's is nothing to do.
 *
 * @module
 */

import { reason } from "./path-errors.js";

interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Stat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
}

/** What truncate uses of just-bash's command context. */
interface Context {
  cwd: string;
  fs: {
    stat(path: string): Promise<Stat>;
    resolvePath(base: string, path: string): string;
    readFileBuffer(path: string): Promise<Uint8Array>;
    writeFile(path: string, content: Uint8Array): Promise<void>;
  };
}

/** The first `length` bytes of the file at `path` (a final link followed), however large the file. */
export type ReadPrefix = (path: string, length: number) => Promise<Uint8Array>;

/** Largest size truncate sets: 64 MiB (67108864), the shell's read bound (`DEFAULT_MAX_READ_BYTES`). */
export const TRUNCATE_MAX_BYTES = 64 * 1024 * 1024;

/** The block size `-o` counts in: 4096, the Workspace's `st_blksize`. */
const IO_BLOCK = 4096n;

const OFF_MAX = (1n << 63n) - 1n;
const OFF_MIN = -(1n << 63n);

const TRY = "Try 'truncate --help' for more information.\n";

const HELP = `Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

If a FILE is larger than the specified size, the extra data is lost.
If a FILE is shorter, it is extended and the sparse extended part (hole)
reads as zero bytes.

Mandatory arguments to long options are mandatory for short options too.
  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/truncate>
or available locally via: info '(coreutils) truncate invocation'
`;

const VERSION = `truncate (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Padraig Brady.
`;

/** A file name as GNU's quoteaf() prints it (shell-escape-always style): always in single quotes. */
function quoteaf(name: string): string {
  return `'${name.replace(/'/g, "'\\''")}'`;
}

/** A string as GNU's quote() prints it in the C locale: in single quotes, `'` and `\` escaped. */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

const SPACE = /^[ \t\n\v\f\r]/;

/** Powers of the suffix letters xstrtol scales by. */
const POWERS: Readonly<Record<string, number>> = { k: 1, K: 1, m: 2, M: 2, g: 3, G: 3, t: 4, T: 4, P: 5, E: 6, Z: 7, Y: 8 };

/**
 * GNU xdectoimax(text, OFF_T_MIN, OFF_T_MAX, "EgGkKmMPtTYZ0"): the number, or
 * the message (`Invalid number: 'x'`, with `: Value too large for defined
 * data type` on overflow).
 */
function parseSize(text: string): bigint | string {
  const invalid = `Invalid number: ${quote(text)}`;
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]*)/.exec(text)!;
  let rest = text.slice(m[0].length);
  let overflow = false;
  let value: bigint;
  if (m[2] === "") {
    // No digits: a valid suffix letter at the very start stands for 1 (xstrtol), anything else is invalid.
    if (text.length > 0 && POWERS[text[0]!] !== undefined) {
      value = 1n;
      rest = text;
    } else return invalid;
  } else {
    value = BigInt(m[2]) * (m[1] === "-" ? -1n : 1n);
    if (value > OFF_MAX) (value = OFF_MAX), (overflow = true);
    if (value < OFF_MIN) (value = OFF_MIN), (overflow = true);
  }
  if (rest !== "") {
    const power = POWERS[rest[0]!];
    if (power === undefined) return invalid;
    let base = 1024n;
    let used = 1;
    if (rest[1] === "i" && rest[2] === "B") used = 3;
    else if (rest[1] === "B" || rest[1] === "D") (base = 1000n), (used = 2);
    for (let i = 0; i < power; i++) {
      const next = value * base;
      if (next > OFF_MAX) (value = OFF_MAX), (overflow = true);
      else if (next < OFF_MIN) (value = OFF_MIN), (overflow = true);
      else value = next;
    }
    // A character after the suffix: invalid, never reported as an overflow.
    if (rest.length > used) return invalid;
  }
  return overflow ? `${invalid}: Value too large for defined data type` : value;
}

type Rel = "abs" | "rel" | "max" | "min" | "rdn" | "rup";

const LONG = ["no-create", "io-blocks", "reference", "size", "help", "version"] as const;
const TAKES_ARG = new Set(["reference", "size"]);

/** truncate as GNU coreutils 9.1; `readPrefix` reads the head of a file past the shell's read bound. */
export function defineTruncateCommand(readPrefix?: ReadPrefix) {
  return {
    name: "truncate",
    async execute(args: string[], ctx: Context): Promise<ExecResult> {
      let noCreate = false;
      let blockMode = false;
      let refFile: string | undefined;
      let gotSize = false;
      let size = 0n;
      let rel: Rel = "abs";
      const operands: string[] = [];
      const usage = (message: string): ExecResult => ({ stdout: "", stderr: `truncate: ${message}\n${TRY}`, exitCode: 1 });
      const die = (message: string): ExecResult => ({ stdout: "", stderr: `truncate: ${message}\n`, exitCode: 1 });
      /** -s SIZE as truncate.c's option loop reads it; an answer when it ends the command. */
      const setSize = (raw: string): ExecResult | null => {
        let arg = raw;
        while (SPACE.test(arg)) arg = arg.slice(1);
        const mode: Rel | undefined = ({ "<": "max", ">": "min", "/": "rdn", "%": "rup" } as const)[arg[0] as "<"];
        if (mode !== undefined) (rel = mode), (arg = arg.slice(1));
        while (SPACE.test(arg)) arg = arg.slice(1);
        if (arg[0] === "+" || arg[0] === "-") {
          if (rel !== "abs") return usage("multiple relative modifiers specified");
          rel = "rel";
        }
        const parsed = parseSize(arg);
        if (typeof parsed === "string") return die(parsed);
        size = parsed;
        if ((rel === "rup" || rel === "rdn") && size === 0n) return die("division by zero");
        gotSize = true;
        return null;
      };
      let onlyOperands = false;
      for (let i = 0; i < args.length; i++) {
        const arg = args[i]!;
        if (onlyOperands || arg === "-" || !arg.startsWith("-")) {
          operands.push(arg);
          continue;
        }
        if (arg === "--") {
          onlyOperands = true;
          continue;
        }
        if (arg.startsWith("--")) {
          const eq = arg.indexOf("=");
          const name = arg.slice(2, eq === -1 ? undefined : eq);
          const matches = LONG.filter((l) => l.startsWith(name));
          const option = (matches as readonly string[]).includes(name) ? name : matches.length === 1 ? matches[0]! : undefined;
          if (option === undefined) {
            return matches.length > 1
              ? usage(`option '${arg}' is ambiguous; possibilities:${matches.map((m) => ` '--${m}'`).join("")}`)
              : usage(`unrecognized option '${arg}'`);
          }
          let value: string | undefined;
          if (TAKES_ARG.has(option)) {
            if (eq !== -1) value = arg.slice(eq + 1);
            else if (i + 1 < args.length) value = args[++i]!;
            else return usage(`option '--${option}' requires an argument`);
          } else if (eq !== -1) return usage(`option '--${option}' doesn't allow an argument`);
          if (option === "help") return { stdout: HELP, stderr: "", exitCode: 0 };
          if (option === "version") return { stdout: VERSION, stderr: "", exitCode: 0 };
          if (option === "no-create") noCreate = true;
          else if (option === "io-blocks") blockMode = true;
          else if (option === "reference") refFile = value;
          else {
            const answer = setSize(value!);
            if (answer !== null) return answer;
          }
          continue;
        }
        for (let j = 1; j < arg.length; j++) {
          const c = arg[j]!;
          if (c === "c") noCreate = true;
          else if (c === "o") blockMode = true;
          else if (c === "r" || c === "s") {
            let value: string;
            if (j + 1 < arg.length) value = arg.slice(j + 1);
            else if (i + 1 < args.length) value = args[++i]!;
            else return usage(`option requires an argument -- '${c}'`);
            if (c === "r") refFile = value;
            else {
              const answer = setSize(value);
              if (answer !== null) return answer;
            }
            break;
          } else return usage(`invalid option -- '${c}'`);
        }
      }
      if (refFile === undefined && !gotSize) return usage("you must specify either '--size' or '--reference'");
      if (refFile !== undefined && gotSize && rel === "abs") return usage("you must specify a relative '--size' with '--reference'");
      if (blockMode && !gotSize) return usage("'--io-blocks' was specified but '--size' was not");
      if (operands.length === 0) return usage("missing file operand");
      let rsize = -1n;
      if (refFile !== undefined) {
        let stat: Stat;
        try {
          stat = await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, refFile));
        } catch (error) {
          return die(`cannot stat ${quoteaf(refFile)}: ${reason(error)}`);
        }
        if (!gotSize) size = BigInt(stat.size);
        else rsize = BigInt(stat.size);
      }
      let stderr = "";
      let failed = false;
      for (const name of operands) {
        const message = await truncateOne(ctx, readPrefix, name, { noCreate, blockMode, size, rsize, rel });
        if (message !== null) {
          if (message !== "") stderr += `truncate: ${message}\n`;
          failed ||= message !== "";
        }
      }
      return { stdout: "", stderr, exitCode: failed ? 1 : 0 };
    },
  };
}

/** One operand as truncate.c's open + do_ftruncate: null when done, "" when skipped silently, else the message. */
async function truncateOne(
  ctx: Context,
  readPrefix: ReadPrefix | undefined,
  name: string,
  o: { noCreate: boolean; blockMode: boolean; size: bigint; rsize: bigint; rel: Rel },
): Promise<string | null> {
  const path = ctx.fs.resolvePath(ctx.cwd, name);
  const cannotOpen = (error: unknown) => `cannot open ${quoteaf(name)} for writing: ${reason(error)}`;
  let stat: Stat | undefined;
  let missing: string | undefined;
  try {
    stat = await ctx.fs.stat(path);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code ?? /^(E[A-Z]+)/.exec(error instanceof Error ? error.message : "")?.[1];
    missing = typeof code === "string" ? code : "ENOENT";
    if (!name.endsWith("/") && missing !== "ENOENT") return cannotOpen(error);
  }
  // open(2) of a name ending in "/" that is not a directory: with O_CREAT EISDIR; without it ENOENT when missing
  // (silent with -c, as any ENOENT), else ENOTDIR.
  if (name.endsWith("/") && !(stat?.isDirectory ?? false)) {
    if (!o.noCreate) return cannotOpen({ code: "EISDIR" });
    return missing === "ENOENT" ? "" : cannotOpen({ code: "ENOTDIR" });
  }
  if (stat?.isDirectory) return cannotOpen({ code: "EISDIR" });
  if (stat === undefined) {
    if (o.noCreate) return "";
    try {
      await ctx.fs.writeFile(path, new Uint8Array(0));
    } catch (error) {
      return cannotOpen(error);
    }
    stat = { isFile: true, isDirectory: false, size: 0 };
  }
  let ssize = o.size;
  if (o.blockMode) {
    const product = ssize * IO_BLOCK;
    if (product > OFF_MAX || product < OFF_MIN) return `overflow in ${ssize} * ${IO_BLOCK} byte blocks for file ${quoteaf(name)}`;
    ssize = product;
  }
  let nsize: bigint;
  if (o.rel !== "abs") {
    const fsize = o.rsize >= 0n ? o.rsize : BigInt(stat.size);
    if (o.rel === "min") nsize = fsize > ssize ? fsize : ssize;
    else if (o.rel === "max") nsize = fsize < ssize ? fsize : ssize;
    // C's % truncates toward zero, as BigInt's.
    else if (o.rel === "rdn") nsize = fsize - (fsize % ssize);
    else {
      if (o.rel === "rup") {
        const r = fsize % ssize;
        ssize = r === 0n ? 0n : ssize - r;
      }
      nsize = fsize + ssize;
      if (nsize > OFF_MAX || nsize < OFF_MIN) return `overflow extending size of file ${quoteaf(name)}`;
    }
  } else nsize = ssize;
  if (nsize < 0n) nsize = 0n;
  const current = BigInt(stat.size);
  if (nsize === current) return null;
  const failedAt = (error: unknown) => `failed to truncate ${quoteaf(name)} at ${nsize} bytes: ${reason(error)}`;
  if (nsize > BigInt(TRUNCATE_MAX_BYTES)) return failedAt({ code: "EFBIG" });
  const length = Number(nsize);
  try {
    let content: Uint8Array;
    if (length === 0) content = new Uint8Array(0);
    else if (nsize < current) {
      content = current <= BigInt(TRUNCATE_MAX_BYTES) || readPrefix === undefined ? (await ctx.fs.readFileBuffer(path)).subarray(0, length) : await readPrefix(path, length);
    } else {
      const old = await ctx.fs.readFileBuffer(path);
      content = new Uint8Array(length);
      content.set(old.subarray(0, length));
    }
    await ctx.fs.writeFile(path, content);
  } catch (error) {
    return failedAt(error);
  }
  return null;
}
