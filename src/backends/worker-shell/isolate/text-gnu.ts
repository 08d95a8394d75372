/**
 * tac, diff, uniq, split, nl and find -size as GNU coreutils 9.1, diffutils
 * 3.8 and findutils 4.9 (issue 20, twenty-seventh attack run, fixer SI).
 * scripts/gen-shell.mjs patches just-bash to call these functions, imported
 * as the namespace `__textGnu`.
 *
 * Texts are byte strings (one char code 0–255 per byte), as just-bash hands
 * stdin to a command; files are read the same way and the output is marked
 * `stdoutKind: "bytes"`. diff's line matching is the `diff` library's
 * (Myers); only the output formats are built here.
 *
 * @module
 */

import { diffArrays } from "diff";
import { reason } from "./path-errors.js";
import { isFsFailure } from "./redirect-failure.js";
import { foldCase } from "./sort-sed.js";

type Result = { stdout: string; stderr: string; exitCode: number; stdoutKind?: "bytes" };

interface TextStat {
  isFile: boolean;
  isDirectory: boolean;
  mtime?: Date | number;
}

/** What these commands use of just-bash's context. */
export interface TextContext {
  cwd: string;
  stdin: string;
  fs: {
    resolvePath(base: string, path: string): string;
    readFileBytes?(path: string): Promise<string>;
    readFileBuffer(path: string): Promise<Uint8Array>;
    writeFile(path: string, content: Uint8Array | string): Promise<void>;
    stat(path: string): Promise<TextStat>;
    readdir(path: string): Promise<string[]>;
  };
}

const encoder = new TextEncoder();

/** `text` (a JS string: an operand, a label) as a byte string of its UTF-8. */
function bytesOf(text: string): string {
  const bytes = encoder.encode(text);
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** A byte string as the bytes to write. */
function toUint8(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The file at `path` (resolved against the cwd) as a byte string. */
async function readBytes(ctx: TextContext, operand: string): Promise<string> {
  const path = ctx.fs.resolvePath(ctx.cwd, operand);
  if (typeof ctx.fs.readFileBytes === "function") return ctx.fs.readFileBytes(path);
  const bytes = await ctx.fs.readFileBuffer(path);
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

function usage(cmd: string, line: string): Result {
  return { stdout: "", stderr: `${cmd}: ${line}\nTry '${cmd} --help' for more information.\n`, exitCode: 1 };
}

// ---------------------------------------------------------------------------------------------------------------------
// Basic regular expressions (tac -r, nl -b p)

const CLASSES: Readonly<Record<string, string>> = {
  alpha: "A-Za-z", digit: "0-9", alnum: "0-9A-Za-z", upper: "A-Z", lower: "a-z", space: " \\t\\n\\r\\f\\v",
  blank: " \\t", punct: "!-\\/:-@\\[-`{-~", print: " -~", graph: "!-~", cntrl: "\\x00-\\x1f\\x7f", xdigit: "0-9A-Fa-f",
};

/** A POSIX basic regular expression (with GNU's `\|`, `\+`, `\?`, `\<`, `\>`) as a JavaScript RegExp source. */
export function breSource(pattern: string): string {
  let out = "";
  let atStart = true;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const start = atStart;
    atStart = false;
    if (c === "\\") {
      const n = pattern[++i];
      if (n === undefined) throw new SyntaxError("Trailing backslash");
      if (n === "(" || n === "|") {
        out += n;
        atStart = true;
      } else if (n === ")" || n === "{" || n === "}" || n === "+" || n === "?") out += n;
      else if (n === "<" || n === ">") out += "\\b";
      else if (/[1-9wWsSbB]/.test(n)) out += `\\${n}`;
      else if (n === "n") out += "\\n";
      else if (n === "t") out += "\\t";
      else out += n.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
    } else if (c === "[") {
      let j = i + 1;
      let body = "";
      if (pattern[j] === "^") {
        body += "^";
        j++;
      }
      if (pattern[j] === "]") {
        body += "\\]";
        j++;
      }
      for (; j < pattern.length && pattern[j] !== "]"; j++) {
        const m = /^\[:([a-z]+):\]/.exec(pattern.slice(j));
        if (m !== null && CLASSES[m[1]!] !== undefined) {
          body += CLASSES[m[1]!];
          j += m[0].length - 1;
        } else if (pattern[j] === "\\" || pattern[j] === "[") body += `\\${pattern[j]}`;
        else body += pattern[j];
      }
      if (j >= pattern.length) throw new SyntaxError("Unmatched [, [^, [:, [., or [=");
      out += `[${body}]`;
      i = j;
    } else if (c === "*") out += start ? "\\*" : "*";
    else if (c === "^") out += start ? "^" : "\\^";
    else if (c === "$") out += i === pattern.length - 1 || pattern.startsWith("\\)", i + 1) || pattern.startsWith("\\|", i + 1) ? "$" : "\\$";
    else if ("+?(){}|/".includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// tac

/** The separators of `text`: [start, end) pairs found searching backwards from the end, as GNU tac, in ascending order. */
function tacSeparators(text: string, separator: string, regex: RegExp | null): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let end = text.length;
  if (regex === null) {
    for (;;) {
      const at = text.lastIndexOf(separator, end - separator.length);
      if (at < 0 || end - separator.length < 0) break;
      found.push([at, at + separator.length]);
      end = at;
    }
  } else {
    let subject = text;
    for (let p = end - 1; p >= 0; p--) {
      regex.lastIndex = p;
      const m = regex.exec(subject);
      if (m === null || m[0].length === 0) continue;
      found.push([p, p + m[0].length]);
      subject = text.slice(0, p);
    }
  }
  return found.reverse();
}

/** `text` with its records in reverse order, as GNU tac: each record keeps its separator after it (or before it, `-b`). */
function tacRecords(text: string, separator: string, regex: RegExp | null, before: boolean): string {
  if (text === "") return "";
  const seps = tacSeparators(text, separator, regex);
  const records: string[] = [];
  let from = 0;
  for (const [start, end] of seps) {
    if (before) {
      records.push(text.slice(from, start));
      from = start;
    } else {
      records.push(text.slice(from, end));
      from = end;
    }
  }
  records.push(text.slice(from));
  let out = "";
  for (let i = records.length - 1; i >= 0; i--) out += records[i];
  return out;
}

/**
 * GNU tac: every operand (`-` is stdin, none is stdin) reversed in turn, `-s SEP`/`--separator`, `-b`/`--before`,
 * `-r`/`--regex` (SEP a basic regular expression); an unreadable operand is reported and the others still written.
 */
export async function tacCommand(args: readonly string[], ctx: TextContext): Promise<Result> {
  let separator = "\n";
  let before = false;
  let regex = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      const [name, value] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
      const long = ["--before", "--regex", "--separator"].filter((o) => o.startsWith(name));
      if (long.length !== 1) return usage("tac", long.length === 0 ? `unrecognized option '${arg}'` : `option '${arg}' is ambiguous`);
      if (long[0] === "--separator") {
        if (value !== undefined) separator = value;
        else if (i + 1 < args.length) separator = args[++i]!;
        else return usage("tac", "option '--separator' requires an argument");
      } else if (value !== undefined) return usage("tac", `option '${long[0]}' doesn't allow an argument`);
      else if (long[0] === "--before") before = true;
      else regex = true;
      continue;
    }
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      if (letter === "b") before = true;
      else if (letter === "r") regex = true;
      else if (letter === "s") {
        if (k + 1 < arg.length) separator = arg.slice(k + 1);
        else if (i + 1 < args.length) separator = args[++i]!;
        else return usage("tac", "option requires an argument -- 's'");
        break;
      } else return usage("tac", `invalid option -- '${letter}'`);
    }
  }
  if (separator === "") return { stdout: "", stderr: "tac: separator cannot be empty\n", exitCode: 1 };
  let pattern: RegExp | null = null;
  if (regex) {
    try {
      pattern = new RegExp(breSource(bytesOf(separator)), "y");
    } catch (error) {
      return { stdout: "", stderr: `tac: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
    }
  }
  const sep = bytesOf(separator);
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  for (const operand of operands.length === 0 ? ["-"] : operands) {
    let text: string;
    if (operand === "-") text = ctx.stdin;
    else {
      try {
        const stat = await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, operand));
        if (stat.isDirectory) {
          stderr += `tac: ${operand}: read error: Is a directory\n`;
          exitCode = 1;
          continue;
        }
        text = await readBytes(ctx, operand);
      } catch (error) {
        if (!isFsFailure(error)) throw error;
        stderr += `tac: failed to open '${operand}' for reading: ${reason(error)}\n`;
        exitCode = 1;
        continue;
      }
    }
    stdout += tacRecords(text, sep, pattern, before);
  }
  return { stdout, stderr, exitCode, stdoutKind: "bytes" };
}

// ---------------------------------------------------------------------------------------------------------------------
// find -size

const SIZE_UNITS: Readonly<Record<string, number>> = { c: 1, w: 2, b: 512, k: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** GNU find's `-size [+-]N[unit]`: the size rounded up to whole units (bytes for `c`), compared with N. */
export function findSizeMatches(size: number, value: number, unit: string | undefined, comparison: string): boolean {
  const scale = SIZE_UNITS[unit ?? "b"] ?? 512;
  const units = Math.ceil(size / scale);
  return comparison === "more" ? units > value : comparison === "less" ? units < value : units === value;
}

// ---------------------------------------------------------------------------------------------------------------------
// split

/** split's line for a piece it could not write, as GNU split (`split: ro/partaa: Read-only file system`). */
export function splitFailure(piece: { displayName?: string } | undefined, error: unknown): string {
  if (piece?.displayName === undefined || !isFsFailure(error)) return "split: failed to write output\n";
  return `split: ${piece.displayName}: ${reason(error)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------------
// uniq

const UNIQ_LONG: Readonly<Record<string, string>> = {
  count: "c", repeated: "d", "all-repeated": "D", "skip-fields": "f", group: "group", "ignore-case": "i",
  "skip-chars": "s", unique: "u", "zero-terminated": "z", "check-chars": "w",
};

function uniqNumber(value: string, what: string): number | string {
  if (!/^\d+$/.test(value)) return `${value}: ${what}`;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

/**
 * GNU uniq: `[INPUT [OUTPUT]]` (OUTPUT is written, never read), `-c`, `-d`, `-D`/`--all-repeated[=METHOD]`, `-u`,
 * `-i`, `-f N`, `-s N`, `-w N`, `-z`, `--group[=METHOD]`; a failed output names the file and the reason.
 */
export async function uniqCommand(args: readonly string[], ctx: TextContext): Promise<Result> {
  let count = false;
  let repeated = false;
  let unique = false;
  let all: string | null = null;
  let group: string | null = null;
  let ignoreCase = false;
  let zero = false;
  let fields = 0;
  let chars = 0;
  let check = Infinity;
  const operands: string[] = [];
  const take = (letter: string, value: string | undefined): string | null => {
    if (letter === "c") count = true;
    else if (letter === "d") repeated = true;
    else if (letter === "u") unique = true;
    else if (letter === "i") ignoreCase = true;
    else if (letter === "z") zero = true;
    else if (letter === "D") {
      const method = value ?? "none";
      if (!["none", "prepend", "separate"].includes(method)) return `invalid argument '${method}' for '--all-repeated'`;
      all = method;
    } else if (letter === "group") {
      const method = value ?? "separate";
      if (!["prepend", "append", "separate", "both"].includes(method)) return `invalid argument '${method}' for '--group'`;
      group = method;
    } else {
      const what = letter === "f" ? "invalid number of fields to skip" : letter === "s" ? "invalid number of bytes to skip" : "invalid number of bytes to compare";
      const n = uniqNumber(value!, what);
      if (typeof n === "string") return n;
      if (letter === "f") fields = n;
      else if (letter === "s") chars = n;
      else check = n;
    }
    return null;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    let error: string | null;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const names = Object.keys(UNIQ_LONG).filter((o) => o.startsWith(name));
      const long = names.includes(name) ? name : names.length === 1 ? names[0]! : undefined;
      if (long === undefined) return usage("uniq", names.length === 0 ? `unrecognized option '${arg}'` : `option '${arg}' is ambiguous`);
      const letter = UNIQ_LONG[long]!;
      let value = eq < 0 ? undefined : arg.slice(eq + 1);
      if ("fsw".includes(letter) && value === undefined) {
        if (i + 1 >= args.length) return usage("uniq", `option '--${long}' requires an argument`);
        value = args[++i]!;
      } else if (!"Dgroup".includes(letter) && value !== undefined) return usage("uniq", `option '--${long}' doesn't allow an argument`);
      error = take(letter, value);
    } else {
      error = null;
      for (let k = 1; k < arg.length && error === null; k++) {
        const letter = arg[k]!;
        if ("fsw".includes(letter)) {
          let value = arg.slice(k + 1);
          if (value === "") {
            if (i + 1 >= args.length) return usage("uniq", `option requires an argument -- '${letter}'`);
            value = args[++i]!;
          }
          error = take(letter, value);
          break;
        }
        if (!"cdDiuz".includes(letter)) return usage("uniq", `invalid option -- '${letter}'`);
        error = take(letter, undefined);
      }
    }
    if (error !== null) return usage("uniq", error);
  }
  if (operands.length > 2) return usage("uniq", `extra operand '${operands[2]}'`);
  if (group !== null && (count || repeated || unique || all !== null)) return usage("uniq", "--group is mutually exclusive with -c/-d/-D/-u");
  if (count && all !== null) return usage("uniq", "printing all duplicated lines and repeat counts is meaningless");
  const input = operands[0] ?? "-";
  let text: string;
  if (input === "-") text = ctx.stdin;
  else {
    try {
      text = await readBytes(ctx, input);
    } catch (error) {
      if (!isFsFailure(error)) throw error;
      return { stdout: "", stderr: `uniq: ${input}: ${reason(error)}\n`, exitCode: 1 };
    }
  }
  const end = zero ? "\0" : "\n";
  const lines = text.split(end);
  if (lines[lines.length - 1] === "") lines.pop();
  const key = (line: string): string => {
    let at = 0;
    for (let f = 0; f < fields && at < line.length; f++) {
      while (at < line.length && (line[at] === " " || line[at] === "\t")) at++;
      while (at < line.length && line[at] !== " " && line[at] !== "\t") at++;
    }
    at = Math.min(line.length, at + chars);
    const part = check === Infinity ? line.slice(at) : line.slice(at, at + check);
    return ignoreCase ? foldCase(part) : part;
  };
  const groups: string[][] = [];
  let last: string | null = null;
  for (const line of lines) {
    const k = key(line);
    if (last !== null && k === last) groups[groups.length - 1]!.push(line);
    else groups.push([line]);
    last = k;
  }
  let out = "";
  if (group !== null) {
    groups.forEach((g, n) => {
      if (n === 0 ? group === "prepend" || group === "both" : group !== "append") out += end;
      for (const line of g) out += line + end;
    });
    if (groups.length > 0 && (group === "append" || group === "both")) out += end;
  } else if (all !== null) {
    let first = true;
    for (const g of groups) {
      if (g.length < 2) continue;
      if (all === "prepend" || (all === "separate" && !first)) out += end;
      first = false;
      for (const line of unique ? g.slice(0, -1) : g) out += line + end;
    }
  } else {
    for (const g of groups) {
      if ((repeated && g.length < 2) || (unique && g.length > 1)) continue;
      out += count ? `${String(g.length).padStart(7)} ${g[0]}${end}` : g[0]! + end;
    }
  }
  if (operands.length === 2 && operands[1] !== "-") {
    try {
      await ctx.fs.writeFile(ctx.fs.resolvePath(ctx.cwd, operands[1]!), toUint8(out));
    } catch (error) {
      if (!isFsFailure(error)) throw error;
      return { stdout: "", stderr: `uniq: ${operands[1]}: ${reason(error)}\n`, exitCode: 1 };
    }
    return { stdout: "", stderr: "", exitCode: 0 };
  }
  return { stdout: out, stderr: "", exitCode: 0, stdoutKind: "bytes" };
}

// ---------------------------------------------------------------------------------------------------------------------
// diff

interface DiffOptions {
  format: "normal" | "unified" | "context";
  context: number;
  brief: boolean;
  reportSame: boolean;
  ignoreCase: boolean;
  ignoreAllSpace: boolean;
  ignoreSpaceChange: boolean;
  ignoreBlankLines: boolean;
  stripCr: boolean;
  newFile: boolean;
  recursive: boolean;
  text: boolean;
  labels: string[];
  /** The options as given, for the `diff -r A/f B/f` line between files of a directory. */
  switches: string[];
}

interface DiffOut {
  stdout: string;
  stderr: string;
  status: number;
}

/** A file's lines: each without its newline, and whether the last one had none. */
interface Lines {
  lines: string[];
  noNewline: boolean;
}

interface Change {
  a: number;
  del: number;
  b: number;
  add: number;
}

const DIFF_SHORT_VALUE = new Set(["U", "C", "L", "x", "X", "I", "F", "S", "W", "D"]);
const DIFF_REFUSED: Readonly<Record<string, string>> = {
  y: "--side-by-side", e: "--ed", n: "--rcs", D: "--ifdef", f: "--forward-ed", t: "--expand-tabs", T: "--initial-tab",
  l: "--paginate", p: "--show-c-function", F: "--show-function-line", x: "--exclude", X: "--exclude-from",
  S: "--starting-file", I: "--ignore-matching-lines", E: "--ignore-tab-expansion", Z: "--ignore-trailing-space",
  W: "--width", d: "--minimal", H: "--speed-large-files",
};
const DIFF_LONG = [
  "brief", "report-identical-files", "ignore-case", "ignore-all-space", "ignore-space-change", "ignore-blank-lines",
  "strip-trailing-cr", "new-file", "recursive", "text", "label", "unified", "context", "normal", "help",
  "side-by-side", "ed", "rcs", "ifdef", "forward-ed", "expand-tabs", "initial-tab", "paginate", "show-c-function",
  "show-function-line", "exclude", "exclude-from", "starting-file", "ignore-matching-lines", "ignore-tab-expansion",
  "ignore-trailing-space", "width", "minimal", "speed-large-files", "color", "unidirectional-new-file",
  "left-column", "suppress-common-lines", "line-format", "old-line-format", "new-line-format",
  "unchanged-line-format", "old-group-format", "new-group-format", "changed-group-format", "unchanged-group-format",
  "no-dereference", "no-ignore-file-name-case", "ignore-file-name-case", "tabsize", "suppress-blank-empty",
  "from-file", "to-file", "horizon-lines", "show-function-line", "version",
];
const DIFF_SUPPORTED_LONG = new Set([
  "brief", "report-identical-files", "ignore-case", "ignore-all-space", "ignore-space-change", "ignore-blank-lines",
  "strip-trailing-cr", "new-file", "recursive", "text", "label", "unified", "context", "normal",
]);

function diffUsage(line: string): DiffOut {
  return { stdout: "", stderr: `diff: ${line}\ndiff: Try 'diff --help' for more information.\n`, status: 2 };
}

function contextNumber(value: string): number | null {
  return /^\d+$/.test(value) ? Math.min(Number(value), Number.MAX_SAFE_INTEGER) : null;
}

/** diff's options and operands, or the refusal to print. */
function diffOptions(args: readonly string[]): { options: DiffOptions; operands: string[] } | DiffOut {
  const o: DiffOptions = {
    format: "normal", context: 3, brief: false, reportSame: false, ignoreCase: false, ignoreAllSpace: false,
    ignoreSpaceChange: false, ignoreBlankLines: false, stripCr: false, newFile: false, recursive: false, text: false,
    labels: [], switches: [],
  };
  const operands: string[] = [];
  let formats = 0;
  const setFormat = (format: DiffOptions["format"], lines: number | null): void => {
    if (o.format !== format) formats++;
    o.format = format;
    if (lines !== null) o.context = lines;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    o.switches.push(arg);
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const names = [...new Set(DIFF_LONG.filter((l) => l.startsWith(name)))];
      const long = names.includes(name) ? name : names.length === 1 ? names[0]! : undefined;
      if (long === undefined) return diffUsage(names.length === 0 ? `unrecognized option '${arg}'` : `option '${arg}' is ambiguous`);
      if (!DIFF_SUPPORTED_LONG.has(long)) return { stdout: "", stderr: `diff: option '--${long}' is not supported\n`, status: 2 };
      let value = eq < 0 ? undefined : arg.slice(eq + 1);
      if (long === "label") {
        if (value === undefined) {
          if (i + 1 >= args.length) return diffUsage(`option '--label' requires an argument`);
          value = args[++i]!;
          o.switches.push(value);
        }
        o.labels.push(value);
        continue;
      }
      if (long === "unified" || long === "context") {
        const n = value === undefined ? 3 : contextNumber(value);
        if (n === null) return diffUsage(`invalid context length '${value}'`);
        setFormat(long, n);
        continue;
      }
      if (value !== undefined) return diffUsage(`option '--${long}' doesn't allow an argument`);
      if (long === "normal") setFormat("normal", null);
      else if (long === "brief") o.brief = true;
      else if (long === "report-identical-files") o.reportSame = true;
      else if (long === "ignore-case") o.ignoreCase = true;
      else if (long === "ignore-all-space") o.ignoreAllSpace = true;
      else if (long === "ignore-space-change") o.ignoreSpaceChange = true;
      else if (long === "ignore-blank-lines") o.ignoreBlankLines = true;
      else if (long === "strip-trailing-cr") o.stripCr = true;
      else if (long === "new-file") o.newFile = true;
      else if (long === "recursive") o.recursive = true;
      else if (long === "text") o.text = true;
      continue;
    }
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      if (/[0-9]/.test(letter)) {
        const digits = /^\d+/.exec(arg.slice(k))![0];
        o.context = Number(digits);
        k += digits.length - 1;
        continue;
      }
      if (DIFF_REFUSED[letter] !== undefined) return { stdout: "", stderr: `diff: option '-${letter}' (${DIFF_REFUSED[letter]}) is not supported\n`, status: 2 };
      if (letter === "U" || letter === "C" || letter === "L") {
        let value = arg.slice(k + 1);
        if (value === "") {
          if (i + 1 >= args.length) return diffUsage(`option requires an argument -- '${letter}'`);
          value = args[++i]!;
          o.switches.push(value);
        }
        if (letter === "L") o.labels.push(value);
        else {
          const n = contextNumber(value);
          if (n === null) return diffUsage(`invalid context length '${value}'`);
          setFormat(letter === "U" ? "unified" : "context", n);
        }
        break;
      }
      if (DIFF_SHORT_VALUE.has(letter)) return diffUsage(`invalid option -- '${letter}'`);
      if (letter === "u") setFormat("unified", null);
      else if (letter === "c") setFormat("context", null);
      else if (letter === "q") o.brief = true;
      else if (letter === "s") o.reportSame = true;
      else if (letter === "i") o.ignoreCase = true;
      else if (letter === "w") o.ignoreAllSpace = true;
      else if (letter === "b") o.ignoreSpaceChange = true;
      else if (letter === "B") o.ignoreBlankLines = true;
      else if (letter === "N") o.newFile = true;
      else if (letter === "r") o.recursive = true;
      else if (letter === "a") o.text = true;
      else return diffUsage(`invalid option -- '${letter}'`);
    }
  }
  if (formats > 1) return diffUsage("conflicting output style options");
  if (o.labels.length > 2) return diffUsage("too many file label options");
  return { options: o, operands };
}

function splitLines(text: string): Lines {
  if (text === "") return { lines: [], noNewline: false };
  const lines = text.split("\n");
  const noNewline = lines[lines.length - 1] !== "";
  if (!noNewline) lines.pop();
  return { lines, noNewline };
}

/** The text a line is compared by under -i, -w, -b and --strip-trailing-cr. */
function lineKey(line: string, o: DiffOptions): string {
  let key = line;
  if (o.stripCr && key.endsWith("\r")) key = key.slice(0, -1);
  if (o.ignoreAllSpace) key = key.replace(/[ \t\r\f\v]+/g, "");
  else if (o.ignoreSpaceChange) key = key.replace(/[ \t\r\f\v]+$/, "").replace(/[ \t\r\f\v]+/g, " ");
  if (o.ignoreCase) key = key.replace(/[A-Z]+/g, (run) => run.toLowerCase());
  return key;
}

/**
 * Most line edits (removed + added lines) diff's line matching searches for between the lines two files do not share
 * at their start and end (issue 20, run 28, fixer DT): the `maxEditLength` of the `diff` library's Myers search,
 * whose cost grows with this bound squared and with the lines searched, in one synchronous call no timeout can stop
 * (unbounded, two 8,000-line files whose every line changed took 30-40 s; at this bound a search that gives up
 * takes about 1 s at most). A change needing more edits, or one a lower bound shows would (below), is reported as
 * ONE change from the first to the last differing line, as the Workspace's git does past GIT_DIFF_MAX_EDIT_LENGTH:
 * still a correct diff (GNU's output for a file whose every line changed is that one change; elsewhere GNU may
 * split it into several smaller ones).
 */
const DIFF_MAX_EDIT_LENGTH = 1000;

/**
 * A lower bound of the edits between `x` and `y`: their lengths less twice the lines they share as multisets — at
 * least the longest common subsequence, so it never passes the edit length the Myers search finds.
 */
function editLowerBound(x: string[], y: string[]): number {
  const p = x.slice().sort();
  const q = y.slice().sort();
  let shared = 0;
  for (let i = 0, j = 0; i < p.length && j < q.length; ) {
    if (p[i] === q[j]) {
      shared++;
      i++;
      j++;
    } else if (p[i]! < q[j]!) i++;
    else j++;
  }
  return p.length + q.length - 2 * shared;
}

/**
 * The changes turning `a` into `b`, from the `diff` library's line matching. The lines both share at the start and
 * at the end are trimmed first (as GNU diff does); the search between them is bounded by DIFF_MAX_EDIT_LENGTH.
 * `any`: only whether there is a change (for -q), without the search.
 */
function changesOf(a: Lines, b: Lines, o: DiffOptions, any = false): Change[] {
  const keys = (f: Lines): string[] => f.lines.map((line, i) => {
    const key = lineKey(line, o);
    // A last line without its newline differs from the same text with one (unless whitespace is ignored).
    return f.noNewline && i === f.lines.length - 1 && !o.ignoreAllSpace ? `${key}\u{10FFFF}` : key;
  });
  const x = keys(a);
  const y = keys(b);
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  if (head === x.length && head === y.length) return [];
  const whole: Change = { a: head, del: x.length - tail - head, b: head, add: y.length - tail - head };
  if (any && !o.ignoreBlankLines) return [whole];
  const middleX = x.slice(head, x.length - tail);
  const middleY = y.slice(head, y.length - tail);
  // Skipped when either side is empty (one change) or the lower bound shows the search would give up.
  const search = middleX.length > 0 && middleY.length > 0 && editLowerBound(middleX, middleY) <= DIFF_MAX_EDIT_LENGTH;
  const found = search ? diffArrays(middleX, middleY, { maxEditLength: DIFF_MAX_EDIT_LENGTH }) : undefined;
  if (found === undefined) return blankFiltered(a, b, o, [whole]);
  const changes: Change[] = [];
  let i = head;
  let j = head;
  for (const part of found) {
    const n = part.count ?? part.value.length;
    if (part.added || part.removed) {
      let last = changes[changes.length - 1];
      if (last === undefined || last.a + last.del !== i || last.b + last.add !== j) {
        last = { a: i, del: 0, b: j, add: 0 };
        changes.push(last);
      }
      if (part.removed) {
        last.del += n;
        i += n;
      } else {
        last.add += n;
        j += n;
      }
    } else {
      i += n;
      j += n;
    }
  }
  return blankFiltered(a, b, o, changes);
}

/** The changes less those that only remove and add blank lines, under -B. */
function blankFiltered(a: Lines, b: Lines, o: DiffOptions, changes: Change[]): Change[] {
  if (!o.ignoreBlankLines) return changes;
  const blank = (f: Lines, from: number, count: number): boolean => f.lines.slice(from, from + count).every((line) => lineKey(line, o).trim() === "");
  return changes.filter((c) => !(blank(a, c.a, c.del) && blank(b, c.b, c.add)));
}

const NO_NEWLINE = "\\ No newline at end of file\n";

function lineOut(prefix: string, f: Lines, index: number): string {
  return `${prefix}${f.lines[index]}\n${f.noNewline && index === f.lines.length - 1 ? NO_NEWLINE : ""}`;
}

function normalRange(from: number, count: number): string {
  return count <= 1 ? String(from + count) : `${from + 1},${from + count}`;
}

function normalFormat(a: Lines, b: Lines, changes: Change[]): string {
  let out = "";
  for (const c of changes) {
    const letter = c.del === 0 ? "a" : c.add === 0 ? "d" : "c";
    out += `${c.del === 0 ? c.a : normalRange(c.a, c.del)}${letter}${c.add === 0 ? c.b : normalRange(c.b, c.add)}\n`;
    for (let k = 0; k < c.del; k++) out += lineOut("< ", a, c.a + k);
    if (c.del > 0 && c.add > 0) out += "---\n";
    for (let k = 0; k < c.add; k++) out += lineOut("> ", b, c.b + k);
  }
  return out;
}

/** The changes grouped into hunks: changes whose context would touch or overlap share one. */
function hunks(changes: Change[], context: number): Change[][] {
  const out: Change[][] = [];
  for (const c of changes) {
    const last = out[out.length - 1];
    const prev = last?.[last.length - 1];
    if (prev !== undefined && c.a - (prev.a + prev.del) <= 2 * context) last!.push(c);
    else out.push([c]);
  }
  return out;
}

function hunkBounds(group: Change[], a: Lines, b: Lines, context: number): { a0: number; a1: number; b0: number; b1: number } {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const before = Math.min(context, first.a, first.b);
  const after = Math.min(context, a.lines.length - (last.a + last.del), b.lines.length - (last.b + last.add));
  return { a0: first.a - before, a1: last.a + last.del + after, b0: first.b - before, b1: last.b + last.add + after };
}

function unifiedRange(from: number, to: number): string {
  const count = to - from;
  return count === 1 ? String(from + 1) : `${count === 0 ? from : from + 1},${count}`;
}

function unifiedFormat(a: Lines, b: Lines, changes: Change[], context: number): string {
  let out = "";
  for (const group of hunks(changes, context)) {
    const h = hunkBounds(group, a, b, context);
    out += `@@ -${unifiedRange(h.a0, h.a1)} +${unifiedRange(h.b0, h.b1)} @@\n`;
    let i = h.a0;
    for (const c of group) {
      for (; i < c.a; i++) out += lineOut(" ", a, i);
      for (let k = 0; k < c.del; k++) out += lineOut("-", a, c.a + k);
      for (let k = 0; k < c.add; k++) out += lineOut("+", b, c.b + k);
      i = c.a + c.del;
    }
    for (; i < h.a1; i++) out += lineOut(" ", a, i);
  }
  return out;
}

function contextRange(from: number, to: number): string {
  return to - from <= 1 ? String(to) : `${from + 1},${to}`;
}

function contextFormat(a: Lines, b: Lines, changes: Change[], context: number): string {
  let out = "";
  for (const group of hunks(changes, context)) {
    const h = hunkBounds(group, a, b, context);
    out += "***************\n";
    out += `*** ${contextRange(h.a0, h.a1)} ****\n`;
    if (group.some((c) => c.del > 0)) {
      let i = h.a0;
      for (const c of group) {
        for (; i < c.a; i++) out += lineOut("  ", a, i);
        for (let k = 0; k < c.del; k++) out += lineOut(c.add > 0 ? "! " : "- ", a, c.a + k);
        i = c.a + c.del;
      }
      for (; i < h.a1; i++) out += lineOut("  ", a, i);
    }
    out += `--- ${contextRange(h.b0, h.b1)} ----\n`;
    if (group.some((c) => c.add > 0)) {
      let j = h.b0;
      for (const c of group) {
        for (; j < c.b; j++) out += lineOut("  ", b, j);
        for (let k = 0; k < c.add; k++) out += lineOut(c.del > 0 ? "! " : "+ ", b, c.b + k);
        j = c.b + c.add;
      }
      for (; j < h.b1; j++) out += lineOut("  ", b, j);
    }
  }
  return out;
}

/** A time as GNU diff writes it in a header: `2024-01-02 03:04:05.678000000 +0000` (UTC). */
function headerTime(mtime: Date | number | undefined): string {
  const date = mtime instanceof Date ? mtime : new Date(typeof mtime === "number" ? mtime : Date.now());
  const ms = Number.isNaN(date.getTime()) ? 0 : date.getTime();
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${String(((ms % 1000) + 1000) % 1000).padStart(3, "0")}000000 +0000`;
}

interface DiffFile {
  name: string;
  text: string;
  mtime: Date | number | undefined;
}

/** The output comparing two files' contents. */
function compareTexts(x: DiffFile, y: DiffFile, o: DiffOptions, header: string): DiffOut {
  const binary = !o.text && (x.text.slice(0, 4096).includes("\0") || y.text.slice(0, 4096).includes("\0"));
  if (binary) {
    if (x.text === y.text) return same(x, y, o);
    return { stdout: `${header}Binary files ${bytesOf(x.name)} and ${bytesOf(y.name)} differ\n`, stderr: "", status: 1 };
  }
  const a = splitLines(x.text);
  const b = splitLines(y.text);
  const changes = changesOf(a, b, o, o.brief);
  if (changes.length === 0) return same(x, y, o);
  if (o.brief) return { stdout: `Files ${bytesOf(x.name)} and ${bytesOf(y.name)} differ\n`, stderr: "", status: 1 };
  let out = header;
  if (o.format === "normal") out += normalFormat(a, b, changes);
  else {
    const [from, to] = o.format === "unified" ? ["---", "+++"] : ["***", "---"];
    const label = (f: DiffFile, n: number): string => (o.labels[n] !== undefined ? bytesOf(o.labels[n]!) : `${bytesOf(f.name)}\t${headerTime(f.mtime)}`);
    out += `${from} ${label(x, 0)}\n${to} ${label(y, 1)}\n`;
    out += o.format === "unified" ? unifiedFormat(a, b, changes, o.context) : contextFormat(a, b, changes, o.context);
  }
  return { stdout: out, stderr: "", status: 1 };
}

function same(x: DiffFile, y: DiffFile, o: DiffOptions): DiffOut {
  return { stdout: o.reportSame ? `Files ${bytesOf(x.name)} and ${bytesOf(y.name)} are identical\n` : "", stderr: "", status: 0 };
}

type Found = { kind: "file"; file: DiffFile } | { kind: "dir"; mtime: Date | number | undefined } | { kind: "missing"; error: unknown };

async function lookUp(ctx: TextContext, name: string): Promise<Found> {
  if (name === "-") return { kind: "file", file: { name, text: ctx.stdin, mtime: Date.now() } };
  const path = ctx.fs.resolvePath(ctx.cwd, name);
  let stat: TextStat;
  try {
    stat = await ctx.fs.stat(path);
  } catch (error) {
    if (!isFsFailure(error)) throw error;
    return { kind: "missing", error };
  }
  if (stat.isDirectory) return { kind: "dir", mtime: stat.mtime };
  try {
    return { kind: "file", file: { name, text: await readBytes(ctx, name), mtime: stat.mtime } };
  } catch (error) {
    if (!isFsFailure(error)) throw error;
    return { kind: "missing", error };
  }
}

function joined(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

function merge(into: DiffOut, more: DiffOut): void {
  into.stdout += more.stdout;
  into.stderr += more.stderr;
  into.status = Math.max(into.status, more.status);
}

/** Two directories compared entry by entry, as GNU diff (recursing with -r). */
async function compareDirs(ctx: TextContext, x: string, y: string, o: DiffOptions): Promise<DiffOut> {
  const out: DiffOut = { stdout: "", stderr: "", status: 0 };
  const list = async (dir: string): Promise<string[] | null> => {
    try {
      return await ctx.fs.readdir(ctx.fs.resolvePath(ctx.cwd, dir));
    } catch (error) {
      if (!isFsFailure(error)) throw error;
      out.stderr += `diff: ${dir}: ${reason(error)}\n`;
      out.status = 2;
      return null;
    }
  };
  const left = await list(x);
  const right = await list(y);
  if (left === null || right === null) return out;
  const names = [...new Set([...left, ...right])].sort((p, q) => (bytesOf(p) < bytesOf(q) ? -1 : bytesOf(p) > bytesOf(q) ? 1 : 0));
  const header = (p: string, q: string): string => bytesOf(`diff ${[...o.switches, p, q].join(" ")}\n`);
  for (const name of names) {
    const p = joined(x, name);
    const q = joined(y, name);
    if (!left.includes(name) || !right.includes(name)) {
      const there = left.includes(name) ? p : q;
      const found = await lookUp(ctx, there);
      if (o.newFile && found.kind === "file") {
        const empty: DiffFile = { name: there === p ? q : p, text: "", mtime: 0 };
        const [a, b] = there === p ? [found.file, empty] : [empty, found.file];
        merge(out, compareTexts(a, b, o, o.brief ? "" : header(p, q)));
      } else if (o.newFile && found.kind === "dir" && o.recursive) {
        merge(out, await newDirectory(ctx, there === p ? p : null, there === q ? q : null, p, q, o, header));
      } else {
        out.stdout += bytesOf(`Only in ${left.includes(name) ? x : y}: ${name}\n`);
        out.status = Math.max(out.status, 1);
      }
      continue;
    }
    merge(out, await comparePaths(ctx, p, q, o, true, header));
  }
  return out;
}

/** With -N -r, a directory on one side only: each file in it compared with an empty one. */
async function newDirectory(ctx: TextContext, left: string | null, right: string | null, p: string, q: string, o: DiffOptions, header: (p: string, q: string) => string): Promise<DiffOut> {
  const out: DiffOut = { stdout: "", stderr: "", status: 0 };
  const dir = (left ?? right)!;
  const names = (await ctx.fs.readdir(ctx.fs.resolvePath(ctx.cwd, dir))).sort();
  for (const name of names) {
    const there = joined(dir, name);
    const found = await lookUp(ctx, there);
    const pp = joined(p, name);
    const qq = joined(q, name);
    if (found.kind === "file") {
      const empty: DiffFile = { name: left === null ? pp : qq, text: "", mtime: 0 };
      merge(out, compareTexts(left === null ? empty : found.file, left === null ? found.file : empty, o, o.brief ? "" : header(pp, qq)));
    } else if (found.kind === "dir") merge(out, await newDirectory(ctx, left === null ? null : there, left === null ? there : null, pp, qq, o, header));
  }
  return out;
}

async function comparePaths(ctx: TextContext, x: string, y: string, o: DiffOptions, inDir: boolean, header: (p: string, q: string) => string): Promise<DiffOut> {
  let p = await lookUp(ctx, x);
  let q = await lookUp(ctx, y);
  if (!inDir && p.kind === "dir" && q.kind === "file" && y !== "-") {
    x = joined(x, y.replace(/\/+$/, "").split("/").pop()!);
    p = await lookUp(ctx, x);
  } else if (!inDir && q.kind === "dir" && p.kind === "file" && x !== "-") {
    y = joined(y, x.replace(/\/+$/, "").split("/").pop()!);
    q = await lookUp(ctx, y);
  }
  if (p.kind === "missing" || q.kind === "missing") {
    const out: DiffOut = { stdout: "", stderr: "", status: 0 };
    for (const [name, f] of [[x, p], [y, q]] as const) {
      // -N takes a missing file as empty when the other operand is a file.
      if (f.kind === "missing" && !(o.newFile && (p.kind === "file" || q.kind === "file"))) {
        out.stderr += `diff: ${name}: ${reason(f.error)}\n`;
        out.status = 2;
      }
    }
    if (out.status === 2) return out;
    const a = p.kind === "file" ? p.file : { name: x, text: "", mtime: 0 };
    const b = q.kind === "file" ? q.file : { name: y, text: "", mtime: 0 };
    return compareTexts(a, b, o, inDir && !o.brief ? header(x, y) : "");
  }
  if (p.kind === "dir" && q.kind === "dir") {
    if (inDir && !o.recursive) return { stdout: bytesOf(`Common subdirectories: ${x} and ${y}\n`), stderr: "", status: 0 };
    return compareDirs(ctx, x, y, o);
  }
  if (p.kind === "dir" || q.kind === "dir") {
    const line = p.kind === "dir" ? `File ${x} is a directory while file ${y} is a regular file\n` : `File ${x} is a regular file while file ${y} is a directory\n`;
    return { stdout: bytesOf(line), stderr: "", status: 1 };
  }
  return compareTexts(p.file, q.file, o, inDir && !o.brief ? header(x, y) : "");
}

/**
 * GNU diff: the normal format by default (`2c2`, `< a`, `---`, `> b`), `-u`/`-U N`/`--unified[=N]` with
 * `--- NAME\tTIME` headers, `-c`/`-C N`/`--context[=N]`, `-q`, `-s`, `-i`, `-w`, `-b`, `-B`, `--strip-trailing-cr`,
 * `-N`, `-r` (directories compared entry by entry; `diff DIR FILE` compares DIR/FILE), `-a`, `--label`/`-L`.
 * Other options of GNU diff (`-y`, `-e`, `-n`, `-D`, `-x`, …) are refused with status 2.
 */
export async function diffCommand(args: readonly string[], ctx: TextContext): Promise<Result> {
  const parsed = diffOptions(args);
  let out: DiffOut;
  if ("status" in parsed) out = parsed;
  else if (parsed.operands.length < 2) out = diffUsage(`missing operand after '${parsed.operands[0] ?? "diff"}'`);
  else if (parsed.operands.length > 2) out = diffUsage(`extra operand '${parsed.operands[2]}'`);
  else {
    const [x, y] = parsed.operands as [string, string];
    const header = (p: string, q: string): string => bytesOf(`diff ${[...parsed.options.switches, p, q].join(" ")}\n`);
    out = await comparePaths(ctx, x, y, parsed.options, false, header);
  }
  return { stdout: out.stdout, stderr: out.stderr, exitCode: out.status, stdoutKind: "bytes" };
}

// ---------------------------------------------------------------------------------------------------------------------
// nl

/** The blanks GNU nl writes before a line it does not number: the number's width and the separator's bytes. */
export function nlBlank(width: number, separator: string): string {
  return " ".repeat(width + encoder.encode(separator).length);
}
