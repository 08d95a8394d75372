/**
 * `realpath` (GNU coreutils 9.1) and `cmp` (GNU diffutils 3.8), two commands
 * just-bash lacks ("command not found", 127), run as custom commands of the
 * shell worker (src/backends/worker-shell/worker.ts, issue 20, run 28, CM).
 * They read the Workspace through the shell's fs adapter: `realpath` walks
 * the path segment by segment with `lstat`/`readlink` (so `-e`/`-E`/`-m` decide
 * what may be missing, as gnulib's canonicalize_filename_mode does), `cmp`
 * reads both inputs whole (`-` is stdin).
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
  isDirectory: boolean;
  isSymbolicLink?: boolean;
}

/** What these commands use of just-bash's command context. */
interface Context {
  cwd: string;
  stdin?: unknown;
  fs: {
    lstat(path: string): Promise<Stat>;
    stat(path: string): Promise<Stat>;
    readlink(path: string): Promise<string>;
    readFileBuffer(path: string): Promise<Uint8Array>;
  };
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : "";
  return /^(E[A-Z0-9]+)\b/.exec(message)?.[1];
}

function fail(code: string): Error {
  return Object.assign(new Error(code), { code });
}

/** A file name as GNU's quotef() prints it in a diagnostic: bare when it needs no quoting, else in single quotes. */
function quotef(name: string): string {
  if (name !== "" && /^[A-Za-z0-9_./+,:@%^=-]+$/.test(name)) return name;
  return `'${name.replace(/'/g, "'\\''")}'`;
}

/** GNU getopt_long's matching of `--name[=value]` against `long`: the option, or a usage message. */
function longOption(command: string, arg: string, long: readonly string[]): { name: string; value: string | undefined } | string {
  const eq = arg.indexOf("=");
  const name = arg.slice(2, eq === -1 ? undefined : eq);
  const matches = long.filter((l) => l.startsWith(name));
  const exact = matches.includes(name) ? name : matches.length === 1 ? matches[0] : undefined;
  if (exact === undefined) {
    return matches.length > 1
      ? `${command}: option '${arg}' is ambiguous; possibilities:${matches.map((m) => ` '--${m}'`).join("")}`
      : `${command}: unrecognized option '${arg}'`;
  }
  return { name: exact, value: eq === -1 ? undefined : arg.slice(eq + 1) };
}

// ---------------------------------------------------------------------------
// realpath

type Mode = "e" | "E" | "m";

const REALPATH_TRY = "Try 'realpath --help' for more information.\n";
const REALPATH_HELP = `Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

/** The segments of `path`, in order ("" for a repeated or trailing slash). */
function segments(path: string): string[] {
  return path.split("/").slice(path.startsWith("/") ? 1 : 0);
}

/** `path` with `.`, `..` and repeated slashes removed lexically (absolute in, absolute out). */
function lexical(path: string): string {
  const out: string[] = [];
  for (const s of segments(path)) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop();
    else out.push(s);
  }
  return `/${out.join("/")}`;
}

/**
 * The canonical form of absolute `path` as gnulib's canonicalize_filename_mode
 * makes it: links resolved (relative targets against the link's directory);
 * `-e` every segment must exist, `-E` all but the last (which may be missing,
 * not a file mid-path), `-m` none.
 * @throws `{ code }` (`ENOENT`, `ENOTDIR`, `ELOOP`, …) when `mode` does not allow what it met.
 */
async function physical(fs: Context["fs"], path: string, mode: Mode): Promise<string> {
  const todo = segments(path).reverse();
  const parts: string[] = [];
  // What the path walked so far names: a directory, something else, or nothing (only with -m or the last of -E).
  let kind: "dir" | "file" | "missing" = "dir";
  let hops = 0;
  const more = (): boolean => todo.some((s) => s !== "");
  while (todo.length > 0) {
    const segment = todo.pop() as string;
    if (segment === "" || segment === "." || segment === "..") {
      if (kind === "file" && mode !== "m") throw fail("ENOTDIR");
      if (segment === "..") {
        parts.pop();
        kind = kind === "missing" ? "missing" : "dir";
      }
      continue;
    }
    const candidate = `/${[...parts, segment].join("/")}`;
    if (kind !== "dir") {
      // Beneath a file or a missing segment: only -m goes on.
      if (mode !== "m") throw fail(kind === "file" ? "ENOTDIR" : "ENOENT");
      parts.push(segment);
      kind = "missing";
      continue;
    }
    let stat: Stat;
    try {
      stat = await fs.lstat(candidate);
    } catch (error) {
      const code = codeOf(error) ?? "ENOENT";
      if (mode === "e" || (mode === "E" && (code !== "ENOENT" || more()))) throw fail(code);
      parts.push(segment);
      kind = "missing";
      continue;
    }
    if (stat.isSymbolicLink === true) {
      if (++hops > 40) {
        if (mode !== "m") throw fail("ELOOP");
        parts.push(segment);
        kind = "missing";
        continue;
      }
      const target = await fs.readlink(candidate);
      if (target.startsWith("/")) parts.length = 0;
      todo.push(...segments(target).reverse());
      continue;
    }
    parts.push(segment);
    kind = stat.isDirectory ? "dir" : "file";
  }
  return `/${parts.join("/")}`;
}

/** `-s`: `path` normalized lexically; with `-e`/`-E` what it names is looked up (following links) for errors. */
async function noLinks(fs: Context["fs"], path: string, mode: Mode): Promise<string> {
  const out = lexical(path);
  if (mode === "m") return out;
  const wantsDir = /\/\.{0,2}$/.test(path);
  if (mode === "e") {
    // Each directory a `..` leaves must exist.
    const segs = segments(path);
    for (let k = 0; k < segs.length; k++) {
      if (segs[k] !== "..") continue;
      const prefix = `/${segs.slice(0, k).join("/")}`;
      try {
        await fs.stat(prefix);
      } catch (error) {
        throw fail(codeOf(error) ?? "ENOENT");
      }
    }
  }
  try {
    const stat = await fs.stat(path);
    if (wantsDir && !stat.isDirectory) throw fail("ENOTDIR");
  } catch (error) {
    let code = codeOf(error) ?? "ENOENT";
    if (code === "ENOENT") {
      // A file mid-path is ENOTDIR, as the kernel says.
      const segs = out.split("/").slice(1);
      for (let k = 1; k < segs.length; k++) {
        const stat = await fs.stat(`/${segs.slice(0, k).join("/")}`).catch(() => undefined);
        if (stat === undefined) break;
        if (!stat.isDirectory) {
          code = "ENOTDIR";
          break;
        }
      }
    }
    if (mode === "e" || code !== "ENOENT") throw fail(code);
  }
  return out;
}

/** Whether `path` is `base` or beneath it (both canonical). */
function under(base: string, path: string): boolean {
  return base === "/" || path === base || path.startsWith(`${base}/`);
}

/** `path` relative to directory `from` (both canonical). */
function relative(path: string, from: string): string {
  const p = path === "/" ? [] : path.slice(1).split("/");
  const f = from === "/" ? [] : from.slice(1).split("/");
  let common = 0;
  while (common < p.length && common < f.length && p[common] === f[common]) common++;
  const out = [...f.slice(common).map(() => ".."), ...p.slice(common)];
  return out.length === 0 ? "." : out.join("/");
}

/**
 * `realpath [-e|-E|-m] [-L|-P|-s] [-q] [-z] [--relative-to=DIR]
 * [--relative-base=DIR] FILE...` as GNU coreutils 9.1: each operand's
 * canonical absolute name on a line of its own; one that cannot be resolved
 * is reported (`realpath: X: No such file or directory`) and the status is 1.
 */
export const realpathCommand = {
  name: "realpath",
  async execute(args: string[], ctx: Context): Promise<ExecResult> {
    let mode: Mode = "E";
    let links: "P" | "L" | "s" = "P";
    let quiet = false;
    let zero = false;
    let relativeTo: string | undefined;
    let relativeBase: string | undefined;
    const operands: string[] = [];
    const usage = (message: string): ExecResult => ({ stdout: "", stderr: `${message}\n${REALPATH_TRY}`, exitCode: 1 });
    const long = ["canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "relative-to", "relative-base", "strip", "no-symlinks", "zero", "help", "version"];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "--") {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (arg.startsWith("--")) {
        const found = longOption("realpath", arg, long);
        if (typeof found === "string") return usage(found);
        const { name, value } = found;
        if (name === "relative-to" || name === "relative-base") {
          let v = value;
          if (v === undefined) {
            if (i + 1 >= args.length) return usage(`realpath: option '--${name}' requires an argument`);
            v = args[++i] as string;
          }
          if (name === "relative-to") relativeTo = v;
          else relativeBase = v;
          continue;
        }
        if (value !== undefined) return usage(`realpath: option '--${name}' doesn't allow an argument`);
        if (name === "help") return { stdout: REALPATH_HELP, stderr: "", exitCode: 0 };
        if (name === "version") return { stdout: "realpath (GNU coreutils) 9.1\n", stderr: "", exitCode: 0 };
        if (name === "canonicalize-existing") mode = "e";
        else if (name === "canonicalize-missing") mode = "m";
        else if (name === "logical") links = "L";
        else if (name === "physical") links = "P";
        else if (name === "quiet") quiet = true;
        else if (name === "zero") zero = true;
        else links = "s";
        continue;
      }
      if (arg.startsWith("-") && arg !== "-") {
        for (const opt of arg.slice(1)) {
          if (opt === "e") mode = "e";
          else if (opt === "m") mode = "m";
          else if (opt === "L") links = "L";
          else if (opt === "P") links = "P";
          else if (opt === "s") links = "s";
          else if (opt === "q") quiet = true;
          else if (opt === "z") zero = true;
          else return usage(`realpath: invalid option -- '${opt}'`);
        }
        continue;
      }
      operands.push(arg);
    }
    if (operands.length === 0) return usage("realpath: missing operand");

    // The working directory as getcwd(3) gives it: links resolved.
    let cwd: string;
    try {
      cwd = await physical(ctx.fs, ctx.cwd, "m");
    } catch {
      cwd = ctx.cwd;
    }
    const canon = async (name: string, m: Mode): Promise<string> => {
      if (name === "") throw fail("ENOENT");
      const abs = name.startsWith("/") ? name : `${cwd === "/" ? "" : cwd}/${name}`;
      if (links === "s") return noLinks(ctx.fs, abs, m);
      if (links === "L") return physical(ctx.fs, await noLinks(ctx.fs, abs, m), m);
      return physical(ctx.fs, abs, m);
    };
    const failure = (name: string, error: unknown): ExecResult => ({
      stdout: "",
      stderr: `realpath: ${quotef(name)}: ${reason(error)}\n`,
      exitCode: 1,
    });
    let base: string | undefined;
    let to: string | undefined;
    if (relativeTo !== undefined) {
      try {
        to = await canon(relativeTo, mode);
        if (mode === "e" && !(await ctx.fs.stat(to)).isDirectory) throw fail("ENOTDIR");
      } catch (error) {
        return failure(relativeTo, error);
      }
    }
    if (relativeBase !== undefined) {
      try {
        base = await canon(relativeBase, mode);
      } catch (error) {
        return failure(relativeBase, error);
      }
    }
    if (base !== undefined && to !== undefined && !under(base, to)) {
      base = undefined;
      to = undefined;
    } else if (base !== undefined && to === undefined) to = base;

    const end = zero ? "\0" : "\n";
    let stdout = "";
    let stderr = "";
    let status = 0;
    for (const name of operands) {
      let real: string;
      try {
        real = await canon(name, mode);
      } catch (error) {
        if (!quiet) stderr += failure(name, error).stderr;
        status = 1;
        continue;
      }
      stdout += (to !== undefined && (base === undefined || under(base, real)) ? relative(real, to) : real) + end;
    }
    return { stdout, stderr, exitCode: status };
  },
};

// ---------------------------------------------------------------------------
// cmp

const CMP_TRY = "cmp: Try 'cmp --help' for more information.\n";
const CMP_HELP = `Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.

Report bugs to: bug-diffutils@gnu.org
GNU diffutils home page: <https://www.gnu.org/software/diffutils/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`;

/** A count as xstrtoumax reads it with cmp's suffixes (`0x1f`, `010`, `2K`, `1kB`, `3MiB`); `null` when invalid. */
function cmpNumber(text: string): number | null {
  const m = /^\s*(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)(?:([kKMGTPEZY])(B|iB|D)?)?$/.exec(text);
  if (m === null) return null;
  let n = Number(m[1]?.startsWith("0x") || m[1]?.startsWith("0X") ? BigInt(m[1]) : m[1]?.startsWith("0") && m[1].length > 1 ? parseInt(m[1], 8) : m[1]);
  if (m[2] !== undefined) {
    const power = "kMGTPEZY".indexOf(m[2] === "K" ? "k" : m[2]) + 1;
    const unit = m[3] === "B" || m[3] === "D" ? 1000 : 1024;
    n *= unit ** power;
  }
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/** A byte as cmp -b prints it (cat -v notation). */
function shown(b: number): string {
  let out = "";
  let c = b;
  if (c >= 128) {
    out = "M-";
    c -= 128;
  }
  if (c < 32) return `${out}^${String.fromCharCode(c + 64)}`;
  if (c === 127) return `${out}^?`;
  return out + String.fromCharCode(c);
}

function octal(b: number, width: number): string {
  return b.toString(8).padStart(width);
}

/**
 * `cmp [-b] [-l|-s] [-n LIMIT] [-i SKIP1[:SKIP2]] FILE1 [FILE2 [SKIP1 [SKIP2]]]`
 * as GNU diffutils 3.8: the first difference (`a b differ: byte 3, line 1`),
 * every difference with `-l`, none with `-s`; a shorter input is reported on
 * stderr (`cmp: EOF on c after byte 2, in line 1`). Status 0 same, 1
 * different, 2 trouble.
 */
export const cmpCommand = {
  name: "cmp",
  async execute(args: string[], ctx: Context): Promise<ExecResult> {
    let printBytes = false;
    let format: "first" | "all" | "status" = "first";
    let sawL = false;
    let sawS = false;
    let limit: number | undefined;
    const skip = [0, 0];
    const operands: string[] = [];
    const usage = (message: string): ExecResult => ({ stdout: "", stderr: `cmp: ${message}\n${CMP_TRY}`, exitCode: 2 });
    const setSkip = (value: string): string | null => {
      const colon = value.indexOf(":");
      const parts = colon === -1 ? [value, value] : [value.slice(0, colon), value.slice(colon + 1)];
      const nums = parts.map(cmpNumber);
      // GNU names what it could not read: the whole value, or what follows the colon.
      if (nums[0] === null) return `invalid --ignore-initial value '${value}'`;
      if (nums[1] === null) return `invalid --ignore-initial value '${parts[1]}'`;
      skip[0] = nums[0] as number;
      skip[1] = nums[1] as number;
      return null;
    };
    const setLimit = (value: string): string | null => {
      const n = cmpNumber(value);
      if (n === null) return `invalid --bytes value '${value}'`;
      limit = n;
      return null;
    };
    const long = ["print-bytes", "ignore-initial", "verbose", "bytes", "quiet", "silent", "help", "version", "print-chars"];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "--") {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (arg.startsWith("--")) {
        const found = longOption("cmp", arg, long);
        if (typeof found === "string") return { stdout: "", stderr: `${found}\n${CMP_TRY}`, exitCode: 2 };
        const { name, value } = found;
        if (name === "ignore-initial" || name === "bytes") {
          let v = value;
          if (v === undefined) {
            if (i + 1 >= args.length) return usage(`option '--${name}' requires an argument`);
            v = args[++i] as string;
          }
          const problem = name === "bytes" ? setLimit(v) : setSkip(v);
          if (problem !== null) return usage(problem);
          continue;
        }
        if (value !== undefined) return usage(`option '--${name}' doesn't allow an argument`);
        if (name === "help") return { stdout: CMP_HELP, stderr: "", exitCode: 0 };
        if (name === "version") return { stdout: "cmp (GNU diffutils) 3.8\n", stderr: "", exitCode: 0 };
        if (name === "print-bytes" || name === "print-chars") printBytes = true;
        else if (name === "verbose") sawL = true;
        else sawS = true;
        continue;
      }
      if (arg.startsWith("-") && arg !== "-") {
        for (let k = 1; k < arg.length; k++) {
          const opt = arg[k] as string;
          if (opt === "b" || opt === "c") printBytes = true;
          else if (opt === "l") sawL = true;
          else if (opt === "s") sawS = true;
          else if (opt === "v") return { stdout: "cmp (GNU diffutils) 3.8\n", stderr: "", exitCode: 0 };
          else if (opt === "i" || opt === "n") {
            let value = arg.slice(k + 1);
            if (value === "") {
              if (i + 1 >= args.length) return usage(`option requires an argument -- '${opt}'`);
              value = args[++i] as string;
            }
            const problem = opt === "n" ? setLimit(value) : setSkip(value);
            if (problem !== null) return usage(problem);
            break;
          } else return usage(`invalid option -- '${opt}'`);
        }
        continue;
      }
      operands.push(arg);
    }
    if (sawL && sawS) return usage("options -l and -s are incompatible");
    format = sawS ? "status" : sawL ? "all" : "first";
    if (operands.length === 0) return usage("missing operand after 'cmp'");
    for (const [k, value] of operands.slice(2, 4).entries()) {
      const n = cmpNumber(value);
      if (n === null) return usage(`invalid --ignore-initial value '${value}'`);
      skip[k] = n;
    }
    if (operands.length > 4) return usage(`extra operand '${operands[4]}'`);
    const names = [operands[0] as string, operands[1] ?? "-"];

    // Both inputs, whole (stdin once, even when named twice).
    let stdinBytes: Uint8Array | undefined;
    const stdin = (): Uint8Array => {
      if (stdinBytes === undefined) {
        const text = typeof ctx.stdin === "string" ? ctx.stdin : "";
        stdinBytes = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) stdinBytes[i] = text.charCodeAt(i) & 0xff;
      }
      return stdinBytes;
    };
    const data: Uint8Array[] = [];
    for (const name of names) {
      if (name === "-") {
        data.push(stdin());
        continue;
      }
      const path = name.startsWith("/") ? name : `${ctx.cwd === "/" ? "" : ctx.cwd}/${name}`;
      try {
        const stat = await ctx.fs.stat(path);
        if (stat.isDirectory) {
          return { stdout: "", stderr: `cmp: ${name}: Is a directory\n`, exitCode: 2 };
        }
        data.push(await ctx.fs.readFileBuffer(path));
      } catch (error) {
        const code = codeOf(error);
        if (code === "EISDIR") return { stdout: "", stderr: `cmp: ${name}: Is a directory\n`, exitCode: 2 };
        return { stdout: "", stderr: format === "status" ? "" : `cmp: ${name}: ${reason(error)}\n`, exitCode: 2 };
      }
    }
    if (names[0] === "-" && names[1] === "-") return { stdout: "", stderr: "", exitCode: 0 };
    const a = (data[0] as Uint8Array).subarray(Math.min(skip[0] as number, (data[0] as Uint8Array).length));
    const b = (data[1] as Uint8Array).subarray(Math.min(skip[1] as number, (data[1] as Uint8Array).length));
    const span = Math.min(limit ?? Number.MAX_SAFE_INTEGER, Math.max(a.length, b.length));
    const common = Math.min(span, a.length, b.length);
    let stdout = "";
    let lines = 1;
    let differ = false;
    for (let i = 0; i < common; i++) {
      const x = a[i] as number;
      const y = b[i] as number;
      if (x !== y) {
        differ = true;
        if (format === "status") return { stdout: "", stderr: "", exitCode: 1 };
        if (format === "first") {
          const bytes = printBytes ? ` is ${octal(x, 3)} ${shown(x)} ${octal(y, 3)} ${shown(y)}` : "";
          return { stdout: `${names[0]} ${names[1]} differ: byte ${i + 1}, line ${lines}${bytes}\n`, stderr: "", exitCode: 1 };
        }
        // GNU sizes the offset column by the bytes that can be compared: the limit and each file's size (not stdin's).
        const sizes = names.flatMap((name, k) => (name === "-" ? [] : [(k === 0 ? a : b).length]));
        const max = Math.min(limit ?? Number.MAX_SAFE_INTEGER, ...sizes);
        const width = max >= Number.MAX_SAFE_INTEGER ? 19 : String(max).length;
        stdout += printBytes
          ? `${String(i + 1).padStart(width)} ${octal(x, 3)} ${shown(x).padEnd(4)} ${octal(y, 3)} ${shown(y)}\n`
          : `${String(i + 1).padStart(width)} ${octal(x, 3)} ${octal(y, 3)}\n`;
      }
      if (x === 10) lines++;
    }
    if (common < span) {
      // One input ended first.
      differ = true;
      if (format === "status") return { stdout, stderr: "", exitCode: 1 };
      const shorter = a.length < b.length ? names[0] : names[1];
      let message: string;
      if (common === 0) message = `cmp: EOF on ${shorter} which is empty\n`;
      else if (format === "all") message = `cmp: EOF on ${shorter} after byte ${common}\n`;
      else {
        const last = (a.length < b.length ? a : b)[common - 1];
        message = last === 10 ? `cmp: EOF on ${shorter} after byte ${common}, line ${lines - 1}\n` : `cmp: EOF on ${shorter} after byte ${common}, in line ${lines}\n`;
      }
      return { stdout, stderr: message, exitCode: 1 };
    }
    return { stdout, stderr: "", exitCode: differ ? 1 : 0 };
  },
};
