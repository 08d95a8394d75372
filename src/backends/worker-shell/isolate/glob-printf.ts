/**
 * Pathname expansion with `globstar`, printf's floating-point conversions and the directory stack, as bash 5.2
 * (issue 20, twenty-seventh run, fixer SK). scripts/gen-shell.mjs patches just-bash to call these, imported as the
 * namespace `__globPrintf` (entries marked `// SK`). Pure apart from the filesystem and shell state handed in: it is
 * bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { isFsFailure } from "./redirect-failure.js";
import { formatExact, type Exact } from "./awk.js";
import { charCode } from "./escapes.js";

// ---------------------------------------------------------------- globstar

/** A directory entry as just-bash's filesystem lists it (links reported as links). */
interface Entry {
  name: string;
  isDirectory: boolean;
  isSymbolicLink?: boolean;
}

/** What {@link globstarExpand} uses of just-bash's glob expander (its `this`). */
export interface GlobExpander {
  fs: {
    readdirWithFileTypes?(path: string): Promise<Entry[]>;
    readdir(path: string): Promise<string[]>;
    stat(path: string): Promise<{ isDirectory: boolean }>;
    lstat?(path: string): Promise<unknown>;
    resolvePath(base: string, path: string): string;
  };
  cwd: string;
  dotglob: boolean;
  globskipdots: boolean;
  hasGlobignore: boolean;
  checkOpsLimit(): void;
  matchPattern(name: string, pattern: string): boolean;
  hasGlobChars(pattern: string): boolean;
}

/** A path reached so far: as the word shows it, where it is, and whether a pattern (not only literal names) led there. */
interface Reached {
  shown: string;
  real: string;
  globbed: boolean;
}

/** Whether pathname expansion of `pattern` takes the globstar route: `globstar` on and a segment that is `**` itself. */
export function isGlobstar(pattern: string, globstar: boolean): boolean {
  return globstar && pattern.split("/").includes("**");
}

/** A literal segment's name: just-bash's quote markers and backslash escapes removed. */
function literalName(segment: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < segment.length; i++) {
    if (segment.startsWith("\0QUOTE_START\0", i)) {
      quoted = true;
      i += 12;
    } else if (segment.startsWith("\0QUOTE_END\0", i)) {
      quoted = false;
      i += 10;
    } else if (!quoted && segment[i] === "\\" && i + 1 < segment.length) out += segment[++i];
    else out += segment[i];
  }
  return out;
}

function joinShown(shown: string, name: string): string {
  return shown === "" ? name : shown.endsWith("/") ? shown + name : `${shown}/${name}`;
}

function joinReal(real: string, name: string): string {
  return real.endsWith("/") ? real + name : `${real}/${name}`;
}

/**
 * The matches of `pattern` (which has a `**` segment, globstar on) as bash 5.2's glob_vector with GX_GLOBSTAR:
 * `**` matches zero or more directory levels; as the last segment it is the directory itself (`a/` for `a/**`)
 * and every file and directory below it, with a trailing `/` (`**​/`) only the directories. It crosses no symbolic
 * link to a directory (it lists the link), and names starting with `.` only with `dotglob` — at every level it
 * crosses, not only the last. Other segments match one level each, as pathname expansion does. Sorted, without
 * repeats; empty when nothing matches.
 */
export async function globstarExpand(glob: GlobExpander, pattern: string): Promise<string[]> {
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/").filter((s, i, all) => s !== "" || (i === all.length - 1 && i > 0));
  // `**/**` is `**`: bash's result is the same, and each extra level only repeats work.
  const collapsed = segments.filter((s, i) => !(s === "**" && segments[i + 1] === "**"));
  const dotsToo = glob.dotglob || glob.hasGlobignore;
  let reached: Reached[] = [absolute ? { shown: "/", real: "/", globbed: false } : { shown: "", real: glob.cwd, globbed: false }];
  const list = async (dir: string): Promise<Entry[]> => {
    glob.checkOpsLimit();
    try {
      if (glob.fs.readdirWithFileTypes) return await glob.fs.readdirWithFileTypes(dir);
      const names = await glob.fs.readdir(dir);
      const out: Entry[] = [];
      for (const name of names) {
        glob.checkOpsLimit();
        const stat = await glob.fs.stat(joinReal(dir, name)).catch((e: unknown) => {
          if (isFsFailure(e)) return null;
          throw e;
        });
        out.push({ name, isDirectory: stat?.isDirectory ?? false });
      }
      return out;
    } catch (error) {
      if (isFsFailure(error)) return [];
      throw error;
    }
  };
  const isDir = async (path: string): Promise<boolean> => {
    glob.checkOpsLimit();
    try {
      return (await glob.fs.stat(path)).isDirectory;
    } catch (error) {
      if (isFsFailure(error)) return false;
      throw error;
    }
  };
  const exists = async (path: string): Promise<boolean> => {
    glob.checkOpsLimit();
    try {
      await (glob.fs.lstat ? glob.fs.lstat(path) : glob.fs.stat(path));
      return true;
    } catch (error) {
      if (isFsFailure(error)) return false;
      throw error;
    }
  };
  /** Everything below `from` that `**` reaches: [relative name, entry], parents before children. */
  const below = async (from: string, rel: string, out: [string, Entry][]): Promise<void> => {
    for (const entry of await list(from)) {
      if (entry.name === "." || entry.name === "..") continue;
      if (entry.name.startsWith(".") && !dotsToo) continue;
      const name = rel === "" ? entry.name : `${rel}/${entry.name}`;
      out.push([name, entry]);
      if (entry.isDirectory && !entry.isSymbolicLink) await below(joinReal(from, entry.name), name, out);
    }
  };
  for (let i = 0; i < collapsed.length; i++) {
    const segment = collapsed[i];
    const last = i === collapsed.length - 1;
    const next: Reached[] = [];
    if (segment === "") {
      // A trailing slash: directories only, shown with it.
      for (const r of reached) if (r.shown !== "" && (await isDir(r.real))) next.push({ ...r, shown: r.shown.endsWith("/") ? r.shown : `${r.shown}/` });
    } else if (segment === "**") {
      for (const r of reached) {
        const all: [string, Entry][] = [];
        await below(r.real, "", all);
        if (last) {
          // The directory itself: `a/` for a literal `a`, as matched for a pattern (`*​/**` gives `a`).
          if (r.shown !== "" && (await isDir(r.real))) next.push({ ...r, shown: r.globbed || r.shown.endsWith("/") ? r.shown : `${r.shown}/` });
          for (const [name] of all) next.push({ shown: joinShown(r.shown, name), real: joinReal(r.real, name), globbed: true });
        } else {
          next.push(r);
          for (const [name, entry] of all) {
            const real = joinReal(r.real, name);
            if (entry.isDirectory || (entry.isSymbolicLink && (await isDir(real)))) next.push({ shown: joinShown(r.shown, name), real, globbed: true });
          }
        }
      }
    } else if (glob.hasGlobChars(segment)) {
      // `.` and `..` only without globskipdots (on by default in bash 5.2), for a pattern starting with `.` or dotglob.
      const dots = !glob.globskipdots && (segment.startsWith(".") || glob.dotglob);
      for (const r of reached) {
        const entries = await list(r.real);
        if (dots) {
          if (!entries.some((e) => e.name === ".")) entries.push({ name: ".", isDirectory: true });
          if (!entries.some((e) => e.name === "..")) entries.push({ name: "..", isDirectory: true });
        }
        for (const entry of entries) {
          if (entry.name.startsWith(".") && !segment.startsWith(".") && !dotsToo) continue;
          if (!glob.matchPattern(entry.name, segment)) continue;
          if (!last && !entry.isDirectory && !entry.isSymbolicLink) continue;
          next.push({ shown: joinShown(r.shown, entry.name), real: joinReal(r.real, entry.name), globbed: true });
        }
      }
    } else {
      const name = literalName(segment);
      for (const r of reached) {
        const real = glob.fs.resolvePath(r.real, name);
        if (last && !(await exists(real))) continue;
        next.push({ shown: joinShown(r.shown, name), real, globbed: r.globbed });
      }
    }
    reached = next;
    if (reached.length === 0) return [];
  }
  return [...new Set(reached.map((r) => r.shown))].sort();
}

// ---------------------------------------------------------------- printf's floating point

/** bash's floatmax_t (x86-64's long double): a 64-bit significand, leading-bit exponents -16382…16383, subnormals below. */
const SIGNIFICAND_BITS = 64;
const MAX_EXP = 16383;
const MIN_EXP = -16382;

/** A long double read from text: a sign and a finite magnitude `m × 2^e` (`m` 0n for zero), infinity or NaN. */
export interface LongDouble {
  negative: boolean;
  kind: "finite" | "inf" | "nan";
  exact: Exact;
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * The long double nearest `num / den` (both > 0), ties to even, as strtold rounds; `range` when the result
 * overflowed to infinity or underflowed (subnormal or zero, inexact), strtold's ERANGE.
 */
function roundRational(num: bigint, den: bigint): { kind: "finite" | "inf"; exact: Exact; range: boolean } {
  // floor(log2(num / den)).
  let lead = bitLength(num) - bitLength(den);
  if (lead >= 0 ? num < den << BigInt(lead) : num << BigInt(-lead) < den) lead--;
  if (lead > MAX_EXP) return { kind: "inf", exact: [0n, 0], range: true };
  const k = Math.max(lead, MIN_EXP) - (SIGNIFICAND_BITS - 1);
  let n = num;
  let d = den;
  if (k >= 0) d <<= BigInt(k);
  else n <<= BigInt(-k);
  let q = n / d;
  const twice = 2n * (n - q * d);
  const inexact = twice !== 0n;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q++;
  let e = k;
  if (bitLength(q) > SIGNIFICAND_BITS) {
    q >>= 1n;
    e++;
  }
  if (q !== 0n && bitLength(q) - 1 + e > MAX_EXP) return { kind: "inf", exact: [0n, 0], range: true };
  const subnormal = q === 0n || bitLength(q) - 1 + e < MIN_EXP;
  return { kind: "finite", exact: q === 0n ? [0n, 0] : [q, e], range: subnormal && inexact };
}

/**
 * strtold's reading of `text` (C locale): blanks, a sign, then `inf`/`infinity`, `nan`/`nan(…)`, a hexadecimal
 * (`0x1.8p3`) or decimal (`1.5e-3`) number; the value, what is left unread, and whether it was out of range.
 */
export function parseLongDouble(text: string): { value: LongDouble; rest: string; range: boolean } {
  const zero: LongDouble = { negative: false, kind: "finite", exact: [0n, 0] };
  const lead = /^[ \t\n\v\f\r]*([+-]?)/.exec(text)!;
  const negative = lead[1] === "-";
  const body = text.slice(lead[0].length);
  const special = /^(?:(inf(?:inity)?)|(nan)(?:\([0-9A-Za-z_]*\))?)/i.exec(body);
  if (special) {
    return { value: { negative, kind: special[1] ? "inf" : "nan", exact: [0n, 0] }, rest: body.slice(special[0].length), range: false };
  }
  const hex = /^0[xX](?:([0-9a-fA-F]+)\.?([0-9a-fA-F]*)|\.([0-9a-fA-F]+))(?:[pP]([+-]?\d+))?/.exec(body);
  const dec = hex ? null : /^(?:(\d+)\.?(\d*)|\.(\d+))(?:[eE]([+-]?\d+))?/.exec(body);
  const m = hex ?? dec;
  if (!m) return { value: zero, rest: text, range: false };
  const rest = body.slice(m[0].length);
  const int = m[1] ?? "";
  const frac = m[1] !== undefined ? m[2]! : m[3]!;
  const digits = (int + frac).replace(/^0+/, "");
  if (digits === "") return { value: { negative, kind: "finite", exact: [0n, 0] }, rest, range: false };
  // The exponent written, kept within bounds that decide the result alone (its digits could be any length).
  const written = m[4] === undefined ? 0 : Math.max(-1e7, Math.min(1e7, Number(m[4])));
  // value = digits × radix^-frac.length × (2 or 10)^written
  const mantissa = BigInt(hex ? `0x${digits}` : digits);
  let scale2 = 0;
  let scale10 = 0;
  if (hex) scale2 = written - 4 * frac.length;
  else scale10 = written - frac.length;
  // A magnitude far outside the long double's range: infinity or zero, out of range either way.
  const log10 = hex ? (bitLength(mantissa) + scale2) * Math.log10(2) : digits.length + scale10;
  if (log10 > 4940) return { value: { negative, kind: "inf", exact: [0n, 0] }, rest, range: true };
  if (log10 < -4970) return { value: { negative, kind: "finite", exact: [0n, 0] }, rest, range: true };
  let num = mantissa;
  let den = 1n;
  if (scale2 >= 0) num <<= BigInt(scale2);
  else den <<= BigInt(-scale2);
  if (scale10 >= 0) num *= 10n ** BigInt(scale10);
  else den *= 10n ** BigInt(-scale10);
  const r = roundRational(num, den);
  return { value: { negative, kind: r.kind, exact: r.exact }, rest, range: r.range };
}

/**
 * printf's `%e %E %f %F %g %G` (flags `-+ #0'`, width, precision, a length modifier) of argument `arg`, as bash 5.2:
 * the argument read as a long double (strtold: `inf`, `nan`, `0x1p3`, `'c` the code of c), printed as C's printf
 * prints it — exactly rounded, ties to even (`%.0f` of 2.5 is `2`), `%g` trimming only the fraction's zeros.
 * Text left over after the number is `printf: ARG: invalid number` (the error status); a number out of the long
 * double's range `printf: warning: ARG: Numerical result out of range` (status unchanged).
 */
export function printfFloat(spec: string, conversion: string, arg: string): { value: string; parseError: boolean; parseErrMsg: string } {
  let value: LongDouble;
  let message = "";
  let error = false;
  if (arg.startsWith("'") || arg.startsWith('"')) {
    const code = charCode(arg, 1);
    value = { negative: false, kind: "finite", exact: code === 0 ? [0n, 0] : [BigInt(code), 0] };
  } else {
    const read = parseLongDouble(arg);
    value = read.value;
    if (read.rest !== "") {
      error = true;
      // bash's sh_invalidnum looks at the argument's first two characters.
      message = `printf: ${arg}: ${/^0[0-7]/.test(arg) ? "invalid octal number" : arg.startsWith("0x") ? "invalid hex number" : "invalid number"}\n`;
    } else if (read.range) message = `printf: warning: ${arg}: Numerical result out of range\n`;
  }
  const m = /^%([-+ #0']*)(\d*)(?:\.(\d*))?[hlLqjzt]*[eEfFgG]$/.exec(spec);
  const flags = (m?.[1] ?? "").replace(/'/g, "");
  const width = m?.[2] ?? "";
  const precision = m?.[3] === undefined ? "" : m[3] || "0";
  const x = value.kind === "nan" ? Number.NaN : value.kind === "inf" ? Number.POSITIVE_INFINITY : value.exact;
  return { value: formatExact(conversion, flags, width, precision, value.negative, x), parseError: error, parseErrMsg: message };
}

// ---------------------------------------------------------------- the directory stack

/** What the directory-stack builtins use of just-bash's interpreter context. */
export interface StackContext {
  state: { cwd: string; previousDir?: string; env: Map<string, string>; directoryStack?: string[] };
  fs: { stat(path: string): Promise<{ isDirectory: boolean }> };
}

/** A builtin's result as just-bash's builtins return it. */
export interface BuiltinResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const PUSHD_USAGE = "pushd: usage: pushd [-n] [+N | -N | dir]\n";
const POPD_USAGE = "popd: usage: popd [-n] [+N | -N]\n";
const DIRS_USAGE = "dirs: usage: dirs [-clpv] [+N] [-N]\n";

function failure(stderr: string, exitCode: number): BuiltinResult {
  return { stdout: "", stderr, exitCode };
}

/** bash's legal_number: optional blanks and sign, decimal digits, optional blanks; null otherwise. */
function legalNumber(text: string): number | null {
  const m = /^[ \t\n]*([+-]?\d+)[ \t\n]*$/.exec(text);
  return m ? Number(m[1]) : null;
}

/** `~` for HOME and `~/…` below it, as `dirs` shows an entry without `-l`. */
function tilde(path: string, home: string): string {
  if (home && path === home) return "~";
  if (home && home !== "/" && path.startsWith(`${home}/`)) return `~${path.slice(home.length)}`;
  return path;
}

/** The stack as `dirs` lists it: the working directory first, then the entries below it. */
function fullStack(e: StackContext): string[] {
  return [e.state.cwd, ...(e.state.directoryStack ??= [])];
}

/** `dirs` with no operand (one line, `~` for HOME), as pushd and popd print it after a change. */
function listing(e: StackContext): string {
  const home = e.state.env.get("HOME") ?? "";
  return `${fullStack(e)
    .map((d) => tilde(d, home))
    .join(" ")}\n`;
}

/** `path` (absolute, or relative to `cwd`; `~` is HOME) with `.` and `..` resolved logically, as cd does. */
function logicalPath(e: StackContext, path: string): string {
  let full = path;
  if (full === "~" || full.startsWith("~/")) full = (e.state.env.get("HOME") || "/") + full.slice(1);
  if (!full.startsWith("/")) full = `${e.state.cwd}/${full}`;
  const out: string[] = [];
  for (const part of full.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** cd to stack entry `dir` for builtin `name`: null when done, else the failure. */
async function changeTo(e: StackContext, name: string, dir: string): Promise<BuiltinResult | null> {
  const target = logicalPath(e, dir);
  let isDirectory = false;
  try {
    isDirectory = (await e.fs.stat(target)).isDirectory;
  } catch (error) {
    if (!isFsFailure(error)) throw error;
    return failure(`bash: ${name}: ${dir}: No such file or directory\n`, 1);
  }
  if (!isDirectory) return failure(`bash: ${name}: ${dir}: Not a directory\n`, 1);
  e.state.previousDir = e.state.cwd;
  e.state.cwd = target;
  e.state.env.set("PWD", target);
  e.state.env.set("OLDPWD", e.state.previousDir);
  return null;
}

/** bash's pushd_error: an empty stack, or an index out of its range. */
function stackError(name: string, entries: number, word: string): BuiltinResult {
  return failure(entries === 0 ? `bash: ${name}: directory stack empty\n` : `bash: ${name}: ${word}: directory stack index out of range\n`, 1);
}

/**
 * `pushd` as bash 5.2, but for `pushd DIR` (null: just-bash's own code, which cds there and pushes): no operand
 * exchanges the top two entries and cds to the new top; `+N`/`-N` rotate the stack (counting from the left or the
 * right of `dirs`) so that entry is on top and cd there; `-n` adds or rotates without cd.
 */
export async function pushd(e: StackContext, args: readonly string[]): Promise<BuiltinResult | null> {
  const stack = (e.state.directoryStack ??= []);
  let noCd = false;
  let rest = [...args];
  let rotate: number | null = null;
  let i = 0;
  for (; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === "-n") noCd = true;
    else if (word === "--") {
      i++;
      break;
    } else if (word === "-") break;
    else if (word.startsWith("+") || word.startsWith("-")) {
      const n = legalNumber(word.slice(1));
      if (n === null) return failure(`bash: pushd: ${word}: invalid number\n${PUSHD_USAGE}`, 2);
      const num = word.startsWith("-") ? stack.length - n : n;
      if (num > stack.length || num < 0) return stackError("pushd", stack.length, word);
      rotate = num;
      break;
    } else break;
  }
  if (rotate !== null) {
    if (rotate === 0) {
      if (noCd) return { stdout: "", stderr: "", exitCode: 0 };
      const failed = await changeTo(e, "pushd", e.state.cwd);
      return failed ?? { stdout: listing(e), stderr: "", exitCode: 0 };
    }
    const full = fullStack(e);
    const rotated = [...full.slice(rotate), ...full.slice(0, rotate)];
    e.state.directoryStack = rotated.slice(1);
    if (noCd) return { stdout: "", stderr: "", exitCode: 0 };
    const failed = await changeTo(e, "pushd", rotated[0]!);
    return failed ?? { stdout: listing(e), stderr: "", exitCode: 0 };
  }
  rest = rest.slice(i);
  if (rest.length > 1) return failure("bash: pushd: too many arguments\n", 1);
  if (rest.length === 0) {
    if (noCd) return { stdout: "", stderr: "", exitCode: 0 };
    if (stack.length === 0) return failure("bash: pushd: no other directory\n", 1);
    const previous = e.state.cwd;
    const failed = await changeTo(e, "pushd", stack[0]!);
    if (failed) return failed;
    stack[0] = previous;
    return { stdout: listing(e), stderr: "", exitCode: 0 };
  }
  if (rest[0] === "-" && !noCd) {
    // `pushd -` is `cd -` (which prints the directory) and a push, as bash.
    const previous = e.state.env.get("OLDPWD");
    if (previous === undefined || previous === "") return failure("bash: pushd: OLDPWD not set\n", 1);
    const from = e.state.cwd;
    const failed = await changeTo(e, "pushd", previous);
    if (failed) return failed;
    stack.unshift(from);
    return { stdout: `${e.state.cwd}\n${listing(e)}`, stderr: "", exitCode: 0 };
  }
  if (noCd) {
    // Added below the working directory as written, without cd.
    stack.unshift(rest[0]!);
    return { stdout: listing(e), stderr: "", exitCode: 0 };
  }
  return null;
}

/**
 * `popd` as bash 5.2: no operand (or `+0`) removes the top entry and cds to the next; `+N`/`-N` remove that entry
 * of `dirs` (from the left or the right) without cd unless it is the top; `-n` never cds.
 */
export async function popd(e: StackContext, args: readonly string[]): Promise<BuiltinResult> {
  const stack = (e.state.directoryStack ??= []);
  let noCd = false;
  let which = 0;
  let direction = "+";
  let word = "";
  for (const arg of args) {
    if (arg === "-n") noCd = true;
    else if (arg === "--") break;
    else if (arg.startsWith("+") || arg.startsWith("-")) {
      const n = legalNumber(arg.slice(1));
      if (n === null) return failure(`bash: popd: ${arg}: invalid number\n${POPD_USAGE}`, 2);
      which = n;
      direction = arg[0]!;
      word = arg;
    } else if (arg !== "") return failure(`bash: popd: ${arg}: invalid argument\n${POPD_USAGE}`, 2);
    else break;
  }
  if (which > stack.length || which < -stack.length || (stack.length === 0 && which === 0)) return stackError("popd", stack.length, word);
  if ((direction === "+" && which === 0) || (direction === "-" && which === stack.length)) {
    if (!noCd) {
      const failed = await changeTo(e, "popd", stack[0]!);
      if (failed) return failed;
    }
    stack.shift();
  } else {
    // +N is entry N of `dirs` (stack[N-1]); -N counts from the right.
    const index = direction === "+" ? which - 1 : stack.length - 1 - which;
    if (index < 0 || index >= stack.length) return stackError("popd", stack.length, word);
    stack.splice(index, 1);
  }
  return { stdout: listing(e), stderr: "", exitCode: 0 };
}

/**
 * `dirs` as bash 5.2: `-c` clears, `-l` full paths, `-p` one a line, `-v` numbered, `+N`/`-N` that entry alone (from
 * the left or the right); each option a word of its own (`-lv` is an invalid number, as bash says).
 */
export function dirs(e: StackContext, args: readonly string[]): BuiltinResult {
  let long = false;
  let clear = false;
  let vflag = 0;
  let index: number | null = null;
  let word = "";
  for (const arg of args) {
    if (arg === "-l") long = true;
    else if (arg === "-c") clear = true;
    else if (arg === "-v") vflag |= 2;
    else if (arg === "-p") vflag |= 1;
    else if (arg === "--") break;
    else if (arg.startsWith("+") || arg.startsWith("-")) {
      word = arg.slice(1);
      const n = legalNumber(word);
      if (n === null) return failure(`bash: dirs: ${arg}: invalid number\n${DIRS_USAGE}`, 2);
      const entries = (e.state.directoryStack ??= []).length;
      index = arg.startsWith("+") ? n : entries - n;
    } else return failure(`bash: dirs: ${arg}: invalid option\n${DIRS_USAGE}`, 2);
  }
  if (clear) {
    e.state.directoryStack = [];
    return { stdout: "", stderr: "", exitCode: 0 };
  }
  const full = fullStack(e);
  const home = e.state.env.get("HOME") ?? "";
  const show = (d: string) => (long ? d : tilde(d, home));
  if (index !== null) {
    if (index < 0 || index > full.length - 1) return stackError("dirs", full.length - 1, word);
    return { stdout: vflag & 2 ? ` ${index}  ${show(full[index]!)}\n` : `${show(full[index]!)}\n`, stderr: "", exitCode: 0 };
  }
  let out: string;
  if (vflag & 2) out = full.map((d, n) => `${String(n).padStart(2)}  ${show(d)}\n`).join("");
  else if (vflag & 1) out = full.map((d) => `${show(d)}\n`).join("");
  else out = `${full.map(show).join(" ")}\n`;
  return { stdout: out, stderr: "", exitCode: 0 };
}
