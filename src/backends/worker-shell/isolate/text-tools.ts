/**
 * Option and list parsing of the shell's cut, head, tail, paste, tr, seq and
 * xargs as GNU coreutils 9.1 / findutils 4.9 read them (issue 20,
 * twenty-fifth attack run, fixer SX). scripts/gen-shell.mjs patches just-bash
 * to call these functions, imported as the namespace `__textTools`.
 *
 * Messages are those of the C locale (quotes as `'x'`).
 *
 * @module
 */

/** A command's result in just-bash's shape. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

function failure(stderr: string, exitCode = 1): CommandResult {
  return { stdout: "", stderr, exitCode };
}

function tryHelp(command: string): string {
  return `Try '${command} --help' for more information.\n`;
}

// ---------------------------------------------------------------------------
// Sizes with multiplier suffixes (gnulib xstrtoumax, as head and tail read -c / -n).

const UINTMAX = (1n << 64n) - 1n;
const POWERS: Readonly<Record<string, number>> = { k: 1, K: 1, m: 2, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8 };

/**
 * The value of `text` as gnulib's xstrtoumax reads a count with head/tail's
 * suffixes: optional leading blanks, decimal digits (none before a valid
 * suffix means 1), then `b` (512) or one of `k K m M G T P E Z Y` (powers of
 * 1024), that letter optionally followed by `B` or `D` (powers of 1000) or
 * `iB` (powers of 1024). `"invalid"` for anything else, `"overflow"` above
 * 2^64-1.
 */
export function sizeValue(text: string): bigint | "invalid" | "overflow" {
  const m = /^[ \t\n\v\f\r]*(\d*)(?:(b)|([kKmMGTPEZY])(B|D|iB)?)?$/.exec(text);
  if (m === null || (m[1] === "" && m[2] === undefined && m[3] === undefined)) return "invalid";
  let value = m[1] === "" ? 1n : BigInt(m[1]);
  if (m[2] !== undefined) value *= 512n;
  else if (m[3] !== undefined) value *= (m[4] === "B" || m[4] === "D" ? 1000n : 1024n) ** BigInt(POWERS[m[3]]);
  return value > UINTMAX ? "overflow" : value;
}

/** head's and tail's options, as just-bash's head/tail take them. */
export interface HeadTailOptions {
  /** Lines to print; for head, negative means all but the last |lines| (`Infinity`: all but the last 0). */
  lines: number;
  /** Bytes to print (null: count lines); for head, negative means all but the last |bytes|. */
  bytes: number | null;
  quiet: boolean;
  verbose: boolean;
  files: string[];
  /** tail: count from the start (`+N`), for lines or bytes, whichever is used. */
  fromLine: boolean;
}

/**
 * head's / tail's arguments `args` read as GNU head and tail 9.1 read them:
 * `-n`/`--lines`, `-c`/`--bytes` (joined, `=`, or the next argument; the last
 * one given wins), counts with size suffixes (`1k` is 1024, `1kB` 1000, `2b`
 * 1024), a leading `+` (tail: from the start; head: ignored) or `-` (head: all
 * but the last N; tail: ignored), `-q`/`-v` and grouped short options
 * (`-qn5`), `-N`, and `--` ending the options. A bad count is refused as GNU:
 * `head: invalid number of bytes: '1x'`, status 1. For head, "all but the last
 * 0" is `Infinity` (everything).
 */
export function headTailOptions(
  args: readonly string[],
  command: string,
  unknownOption: (command: string, arg: string) => CommandResult,
): { ok: true; options: HeadTailOptions } | { ok: false; error: CommandResult } {
  let lines = 10;
  let bytes: number | null = null;
  let fromLine = false;
  let quiet = false;
  let verbose = false;
  const files: string[] = [];
  let error: CommandResult | null = null;
  const count = (kind: "lines" | "bytes", text: string) => {
    let body = text;
    let sign = "";
    const lead = /^[ \t\n\v\f\r]*([+-])/.exec(text);
    if (lead !== null) {
      sign = lead[1];
      body = text.slice(lead[0].length);
    }
    const value = sizeValue(body);
    if (typeof value !== "bigint") {
      const tail = value === "overflow" ? ": Value too large for defined data type" : "";
      error = failure(`${command}: invalid number of ${kind}: '${text}'${tail}\n`);
      return;
    }
    let n = Number(value);
    let from = false;
    if (command === "tail") from = sign === "+";
    else if (sign === "-") n = n === 0 ? Infinity : -n;
    fromLine = from;
    if (kind === "lines") {
      lines = n;
      bytes = null;
    } else bytes = n;
  };
  let i = 0;
  for (; i < args.length && error === null; i++) {
    const arg = args[i];
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (name === "--lines" || name === "--bytes") {
        const kind = name === "--lines" ? "lines" : "bytes";
        if (eq >= 0) count(kind, arg.slice(eq + 1));
        else if (i + 1 < args.length) count(kind, args[++i]);
        else error = failure(`${command}: option '${name}' requires an argument\n${tryHelp(command)}`);
      } else if (eq < 0 && (arg === "--quiet" || arg === "--silent")) {
        quiet = true;
        verbose = false;
      } else if (eq < 0 && arg === "--verbose") {
        verbose = true;
        quiet = false;
      } else return { ok: false, error: unknownOption(command, arg) };
      continue;
    }
    if (/^-\d+$/.test(arg)) {
      count("lines", arg.slice(1));
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      files.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length && error === null; j++) {
      const ch = arg[j];
      if (ch === "q") {
        quiet = true;
        verbose = false;
      } else if (ch === "v") {
        verbose = true;
        quiet = false;
      } else if (ch === "n" || ch === "c") {
        const kind = ch === "n" ? "lines" : "bytes";
        if (j + 1 < arg.length) count(kind, arg.slice(j + 1));
        else if (i + 1 < args.length) count(kind, args[++i]);
        else error = failure(`${command}: option requires an argument -- '${ch}'\n${tryHelp(command)}`);
        break;
      } else return { ok: false, error: unknownOption(command, `-${ch}`) };
    }
  }
  if (error !== null) return { ok: false, error };
  files.push(...args.slice(i));
  return { ok: true, options: { lines, bytes, quiet, verbose, files, fromLine } };
}

/** head's output of `text` when `lines` or `bytes` (null: lines) is negative: all but the last |N| lines or bytes. */
export function headAllBut(text: string, lines: number, bytes: number | null): string {
  if (bytes !== null) return text.slice(0, Math.max(0, text.length + bytes));
  let end = text.length;
  // The last line counts whether or not it ends with a newline.
  let drop = -lines;
  if (end > 0 && text[end - 1] !== "\n") {
    end = text.lastIndexOf("\n") + 1;
    drop--;
  }
  while (drop > 0 && end > 0) {
    end = end < 2 ? 0 : text.lastIndexOf("\n", end - 2) + 1;
    drop--;
  }
  return text.slice(0, end);
}

/** tail -c N of `text`: the last N bytes, or from byte N on with `from` (`+N`). */
export function tailBytes(text: string, bytes: number, from: boolean): string {
  if (from) return text.slice(Math.max(0, bytes - 1));
  return bytes === 0 ? "" : text.slice(-bytes);
}

// ---------------------------------------------------------------------------
// cut

/** A parsed cut list: merged 1-based inclusive ranges in increasing order. */
export interface CutSpec {
  fields: boolean;
  ranges: Array<[number, number]>;
  delimiter: string;
  onlyDelimited: boolean;
  /** How many list items were given (for the range-count limit). */
  count: number;
}

/**
 * cut's list `list` as GNU's set_fields reads it: items separated by `,` or
 * blanks, each `N`, `N-`, `-M` or `N-M`; GNU's messages for a 0, a
 * decreasing range, a bad character, a lone `-` and a number over 2^64-2, each
 * with `Try 'cut --help'`, status 1.
 */
function cutList(list: string, fields: boolean): { ranges: Array<[number, number]>; count: number } | CommandResult {
  const fatal = (message: string) => failure(`cut: ${message}\n${tryHelp("cut")}`);
  const numberedFrom1 = fields ? "fields are numbered from 1" : "byte/character positions are numbered from 1";
  const ranges: Array<[bigint, bigint]> = [];
  let value = 0n;
  let initial = 1n;
  let lhs = false;
  let rhs = false;
  let dash = false;
  let inDigits = false;
  let numStart = 0;
  for (let i = 0; ; i++) {
    const c = i < list.length ? list[i] : "";
    if (c === "-") {
      inDigits = false;
      if (dash) return fatal(fields ? "invalid field range" : "invalid byte or character range");
      dash = true;
      if (lhs && value === 0n) return fatal(numberedFrom1);
      initial = lhs ? value : 1n;
      value = 0n;
    } else if (c === "," || c === " " || c === "\t" || c === "") {
      inDigits = false;
      // A run of blanks is one separator.
      if ((c === " " || c === "\t") && i > 0 && (list[i - 1] === " " || list[i - 1] === "\t")) continue;
      if (dash) {
        dash = false;
        if (!lhs && !rhs) return fatal("invalid range with no endpoint: -");
        if (!rhs) ranges.push([initial, UINTMAX]);
        else {
          if (value < initial) return fatal("invalid decreasing range");
          ranges.push([initial, value]);
        }
      } else {
        if (value === 0n) return fatal(numberedFrom1);
        ranges.push([value, value]);
      }
      value = 0n;
      if (c === "") break;
      lhs = false;
      rhs = false;
    } else if (c >= "0" && c <= "9") {
      if (!inDigits) numStart = i;
      inDigits = true;
      if (dash) rhs = true;
      else lhs = true;
      value = value * 10n + BigInt(c.charCodeAt(0) - 48);
      if (value >= UINTMAX) {
        const bad = /^\d*/.exec(list.slice(numStart))![0];
        return fatal(fields ? `field number '${bad}' is too large` : `byte/character offset '${bad}' is too large`);
      }
    } else {
      return fatal(fields ? `invalid field value '${list.slice(i)}'` : `invalid byte/character position '${list.slice(i)}'`);
    }
  }
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: Array<[number, number]> = [];
  for (const [lo, hi] of ranges) {
    const last = merged[merged.length - 1];
    const start = Number(lo);
    const end = hi >= UINTMAX ? Infinity : Number(hi);
    if (last !== undefined && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return { ranges: merged, count: ranges.length };
}

/**
 * cut's options as GNU cut 9.1 checks them: exactly one of `-f` (`fields`)
 * and `-b`/`-c` (`chars`) — null when not given, undefined when given
 * without its argument —, a one-byte delimiter, `-s` only with `-f`, and the
 * list read by set_fields. A refusal is GNU's message with `Try 'cut --help'`,
 * status 1.
 */
export function cutOptions(fields: string | null | undefined, chars: string | null | undefined, delimiter: string, onlyDelimited: boolean): CutSpec | CommandResult {
  const fatal = (message: string) => failure(`cut: ${message}\n${tryHelp("cut")}`);
  if (fields === undefined || chars === undefined) return fatal(`option requires an argument -- '${fields === undefined ? "f" : "c"}'`);
  if (fields !== null && chars !== null) return fatal("only one list may be specified");
  if (fields === null && chars === null) return fatal("you must specify a list of bytes, characters, or fields");
  const isFields = fields !== null;
  const list = cutList(isFields ? fields : chars!, isFields);
  if ("exitCode" in list) return list;
  if (new TextEncoder().encode(delimiter).length !== 1) return fatal("the delimiter must be a single character");
  if (onlyDelimited && !isFields) return fatal("suppressing non-delimited lines makes sense\n\tonly when operating on fields");
  return { fields: isFields, ranges: list.ranges, delimiter, onlyDelimited, count: list.count };
}

/** Whether 1-based `n` is in `ranges` (increasing, merged); `at` is a cursor into them for increasing n. */
function selected(ranges: ReadonlyArray<[number, number]>, n: number, at: { i: number }): boolean {
  while (at.i < ranges.length && ranges[at.i][1] < n) at.i++;
  return at.i < ranges.length && ranges[at.i][0] <= n;
}

/**
 * cut's output for input line `line` (without its newline): the selected
 * characters, or the selected fields joined by the delimiter, in input order
 * and each once (as GNU cut); a line without the delimiter whole unless `-s`
 * (then nothing). Ends with a newline unless suppressed.
 */
export function cutLine(line: string, spec: CutSpec): string {
  if (spec.fields) {
    if (!line.includes(spec.delimiter)) return spec.onlyDelimited ? "" : `${line}\n`;
    const at = { i: 0 };
    const out: string[] = [];
    const parts = line.split(spec.delimiter);
    for (let n = 1; n <= parts.length && at.i < spec.ranges.length; n++) if (selected(spec.ranges, n, at)) out.push(parts[n - 1]);
    return `${out.join(spec.delimiter)}\n`;
  }
  const chars = Array.from(line);
  const at = { i: 0 };
  let out = "";
  for (let n = 1; n <= chars.length && at.i < spec.ranges.length; n++) if (selected(spec.ranges, n, at)) out += chars[n - 1];
  return `${out}\n`;
}

// ---------------------------------------------------------------------------
// paste

const PASTE_ESCAPES: Readonly<Record<string, string>> = { "0": "", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\" };

/**
 * paste's `-d` list as GNU paste's collapse_escapes reads it: the delimiters,
 * one per character, `\0` an empty one, `\b \f \n \r \t \v \\` those
 * characters and any other `\c` the character c; a trailing lone backslash is
 * refused (`paste: delimiter list ends with an unescaped backslash: LIST`,
 * status 1).
 */
export function pasteDelimiters(list: string): string[] | CommandResult {
  const chars = Array.from(list);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== "\\") {
      out.push(chars[i]);
      continue;
    }
    if (i + 1 >= chars.length) return failure(`paste: delimiter list ends with an unescaped backslash: ${list}\n`);
    const c = chars[++i];
    out.push(PASTE_ESCAPES[c] ?? c);
  }
  return out;
}

// ---------------------------------------------------------------------------
// tr

type TrToken = { kind: "text"; text: string } | { kind: "class"; name: string; text: string } | { kind: "repeat"; char: string; count: string; text: string };

const TR_CLASSES = new Set(["alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"]);
const TR_ESCAPE = String.raw`\\(?:[0-7]{1,3}|[^])`;

/** `set` split into literal text, `[:class:]` and `[c*n]` tokens (escapes and `[=c=]` stay in the text). */
function trTokens(set: string): TrToken[] {
  const tokens: TrToken[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") tokens.push({ kind: "text", text });
    text = "";
  };
  const repeat = new RegExp(String.raw`^\[(${TR_ESCAPE}|[^\\])\*([^\]]*)\]`);
  for (let i = 0; i < set.length; ) {
    const rest = set.slice(i);
    const escape = new RegExp(`^${TR_ESCAPE}`).exec(rest);
    if (escape !== null) {
      text += escape[0];
      i += escape[0].length;
      continue;
    }
    const cls = /^\[:([a-z]+):\]/.exec(rest);
    if (cls !== null && TR_CLASSES.has(cls[1])) {
      flush();
      tokens.push({ kind: "class", name: cls[1], text: cls[0] });
      i += cls[0].length;
      continue;
    }
    const equiv = /^\[=(?:\\(?:[0-7]{1,3}|[^])|[^\\])=\]/.exec(rest);
    if (equiv !== null) {
      text += equiv[0];
      i += equiv[0].length;
      continue;
    }
    const rep = repeat.exec(rest);
    if (rep !== null) {
      flush();
      tokens.push({ kind: "repeat", char: rep[1], count: rep[2], text: rep[0] });
      i += rep[0].length;
      continue;
    }
    text += set[i];
    i++;
  }
  flush();
  return tokens;
}

/**
 * tr's SET1 and SET2 (`operands`), expanded by just-bash's `expand` (ranges,
 * classes, escapes) as GNU tr 9.1 builds them, or GNU's message (status 1):
 * `[c*]` in SET2 is as many c as SET1 needs beyond the rest of SET2 and `[c*n]`
 * n copies (n octal when it starts with 0); `[c*…]` in SET1, two `[c*]`s and a
 * bad count are refused; when translating an empty SET2 is refused, the only
 * classes SET2 may hold are `upper` and `lower`, and each must face `upper` or
 * `lower` in SET1.
 */
export function trSets(operands: readonly string[], del: boolean, complement: boolean, expand: (set: string) => string): [string, string] | string {
  const translating = !del && operands.length === 2;
  const tokens1 = trTokens(operands[0]);
  if (tokens1.some((t) => t.kind === "repeat")) return "tr: the [c*] repeat construct may not appear in string1\n";
  const set1 = expand(operands[0]);
  if (operands.length < 2) return [set1, ""];
  const tokens2 = trTokens(operands[1]);
  if (!translating) {
    if (tokens2.some((t) => t.kind === "repeat")) return "tr: the [c*] construct may appear in string2 only when translating\n";
    return [set1, expand(operands[1])];
  }
  let fill = -1;
  const pieces: string[] = [];
  for (const [index, token] of tokens2.entries()) {
    if (token.kind === "repeat") {
      const char = expand(token.char);
      if (token.count === "" || /^0+$/.test(token.count)) {
        if (fill >= 0) return "tr: only one [c*] repeat construct may appear in string2\n";
        fill = index;
        pieces.push(char);
        continue;
      }
      const octal = token.count.startsWith("0");
      if (!(octal ? /^[0-7]+$/ : /^\d+$/).test(token.count)) return `tr: invalid repeat count '${token.count}' in [c*n] construct\n`;
      const n = octal ? parseInt(token.count, 8) : Number(token.count);
      if (!Number.isSafeInteger(n) || n > 0x7fffffff) return `tr: invalid repeat count '${token.count}' in [c*n] construct\n`;
      pieces.push(char.repeat(Math.min(n, Math.max(set1.length, 1))));
    } else pieces.push(expand(token.text));
  }
  // Classes in SET2: only upper and lower, each where SET1 has upper or lower.
  const offsets1 = new Map<number, string>();
  let at = 0;
  for (const token of tokens1) {
    if (token.kind === "class") offsets1.set(at, token.name);
    at += expand(token.text).length;
  }
  at = 0;
  for (const [index, token] of tokens2.entries()) {
    if (token.kind === "class") {
      if (token.name !== "upper" && token.name !== "lower") return "tr: when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'\n";
      const facing = offsets1.get(at);
      if (complement && index === tokens2.length - 1) return "tr: when translating with string1 longer than string2,\nthe latter string must not end with a character class\n";
      if (complement || (facing !== "upper" && facing !== "lower")) return "tr: misaligned [:upper:] and/or [:lower:] construct\n";
    }
    if (index !== fill) at += pieces[index].length;
  }
  if (fill >= 0) {
    const others = pieces.reduce((n, piece, index) => (index === fill ? n : n + piece.length), 0);
    const need = complement ? 1 : Math.max(0, set1.length - others);
    pieces[fill] = pieces[fill].repeat(need);
  }
  const set2 = pieces.join("");
  if (set2 === "" && set1 !== "") return "tr: when not truncating set1, string2 must be non-empty\n";
  return [set1, set2];
}

// ---------------------------------------------------------------------------
// seq

/**
 * seq's numbers when every operand (`FIRST`, `[INCREMENT]`, `LAST`) is an
 * integer: counted exactly (as GNU seq, past 2^53 too), as decimal strings;
 * null when an operand is not an integer (then just-bash counts in floating
 * point). The increment is known not to be 0.
 */
export function seqIntegers(operands: readonly string[]): Iterable<string> | null {
  if (!operands.every((op) => /^[+-]?\d+$/.test(op))) return null;
  const values = operands.map((op) => BigInt(op));
  const [first, step, last] = values.length === 1 ? [1n, 1n, values[0]] : values.length === 2 ? [values[0], 1n, values[1]] : [values[0], values[1], values[2]];
  if (step === 0n) return null;
  return (function* () {
    for (let n = first; step > 0n ? n <= last : n >= last; n += step) yield String(n);
  })();
}

/**
 * `column -t -s SEPARATORS`'s cells of `line`, as util-linux column 2.38.1 splits a line: every character of
 * `separators` ends a cell (`-s ',;'` takes either), adjacent separators leave empty cells between them and a trailing
 * separator an empty last cell (`ann,,90` is `ann`, ``, `90`; it merged them, shifting later values left). At most
 * `limit` cells (the caller's field limit); nothing trimmed (issue 20, run 37, fixer SH). // fixer SH
 */
export function columnCells(line: string, separators: string, limit: number): string[] { // fixer SH
  const set = new Set(separators); // fixer SH
  const cells: string[] = []; // fixer SH
  let start = 0; // fixer SH
  for (let i = 0; i < line.length && cells.length < limit; i++) { // fixer SH
    if (set.has(line[i]!)) { // fixer SH
      cells.push(line.slice(start, i)); // fixer SH
      start = i + 1; // fixer SH
    } // fixer SH
  } // fixer SH
  if (cells.length < limit) cells.push(line.slice(start)); // fixer SH
  return cells; // fixer SH
} // fixer SH
