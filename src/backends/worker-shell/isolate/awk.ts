/**
 * awk's numbers and strings as POSIX awk has them (mawk 1.3.4 and gawk agree
 * on each case below):
 *
 * - number → string: a value that is an integer is written as an integer
 *   (`%d`; below 2^63, C's `long`), any other with CONVFMT (conversions) or
 *   OFMT (`print`), both `%.6g` until the program sets them;
 * - printf/sprintf `%e %E %f %F %g %G` as C's printf: exactly rounded (ties to
 *   even), at least two exponent digits (`1e-06`, `1.234568e+04`), `%g`
 *   trimming trailing zeros of the mantissa only, the flags `- + space 0 #`;
 * - comparisons: numeric when both sides are numbers, numeric strings from
 *   input (fields, getline, split, -v, ARGV, ENVIRON) or uninitialized; as
 *   strings when either is a string (a constant, a concatenation, substr…),
 *   so `"10" < "9"` is true;
 * - `split("", a)` is 0; a field separator of one character other than a space
 *   is that character (`-F'|'`, `FS="."`), a longer one an ERE, `" "` blanks;
 * - `-v` and `NAME=value` operands assign the special variables (OFS, FS…);
 * - records end at RS: one character, a blank line (`RS = ""`: paragraph
 *   mode, newline also separates fields), or an ERE (longer; gawk, mawk);
 *   `getline` (also in BEGIN) takes the next record from the same input as
 *   the main loop ({@link AwkInput});
 * - `-f progfile` (repeatable, `--file=`), `--`, `-vNAME=value` ({@link parseOptions}).
 *
 * scripts/gen-shell.mjs patches just-bash's awk (its interpreter chunk) to call
 * these, imported as the namespace `__awk` (entries marked `// SA`, `// SE`). A string
 * value a program stored from a string expression is kept in its variable or
 * array element as an {@link AwkString}, so that reading it back knows it is a
 * string; every read unwraps it ({@link load}). Pure: it is bundled into the
 * shell's Dynamic Worker.
 *
 * @module
 */

import { readFailureReason } from "./coreutils.js";

/** What a value is to a comparison (POSIX awk's number, numeric string, string, uninitialized). */
export type Kind = "number" | "strnum" | "string" | "uninit";

/** The interpreter state fields these read and write (just-bash's awk runtime context). */
export interface AwkState {
  CONVFMT?: string;
  OFMT?: string;
  /** The kind of the value the last variable or array element read (or assignment) gave. */
  awkKind?: Kind;
  functions?: Map<string, unknown>;
}

/** A string-valued variable or array element (a string, not a numeric string, even when it looks like a number; fixer AQ). */
export class AwkString {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** POSIX's numeric string: blanks, an optional sign, a decimal number with an optional exponent, blanks. */
const NUMERIC = /^[ \t\n\r\f\v]*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\f\v]*$/;

/** Whether string `s` is a numeric string (`" 12 "`, `"-1.5e3"`; not `""`, `"0x1A"`, `"1a"`). */
export function looksNumeric(s: string): boolean {
  return NUMERIC.test(s);
}

/** awk's numeric value of `x`: a number as is, a string by its leading number (`"3abc"` is 3, `"abc"` 0). */
export function awkNumber(x: unknown): number {
  if (typeof x === "number") return x;
  if (x === undefined || x === null) return 0;
  const n = parseFloat(x instanceof AwkString ? x.value : String(x));
  return Number.isNaN(n) ? 0 : n;
}

/** printf's `%d %i %o %x %X` operand: awk's number truncated toward zero (C's conversion; `-2.5` is -2). */
export function toInteger(x: unknown): number {
  return Math.trunc(awkNumber(x));
}

// ---------------------------------------------------------------- C's printf for floating point

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** A finite value > 0 as `m × 2^e` exactly (`m` a positive integer): printf's long double (SK, glob-printf.ts). */ // SK
export type Exact = [bigint, number]; // SK

/** Finite `x` > 0 as `m × 2^e` exactly; an {@link Exact} as it is. */ // SK
function decompose(x: number | Exact): Exact { // SK
  if (typeof x !== "number") return x; // SK
  f64[0] = x;
  const bits = u64[0]!;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  return exp === 0 ? [frac, -1074] : [frac | 0x10000000000000n, exp - 1075];
}

/** `m × 2^e × 10^p` rounded to an integer, ties to even (the exact value, as glibc's printf rounds). */
function scaledRound(m: bigint, e: number, p: number): bigint {
  let num = m;
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  const q = num / den;
  const twice = 2n * (num - q * den);
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** Finite `|x|` with `p` digits after the point (`%.pf` without sign). */
function fixed(x: number | Exact, p: number): string { // SK
  let digits: string;
  if (x === 0 || (typeof x !== "number" && x[0] === 0n)) digits = "0"; // SK
  else {
    const [m, e] = decompose(typeof x === "number" ? Math.abs(x) : x); // SK
    digits = scaledRound(m, e, p).toString();
  }
  if (p === 0) return digits;
  digits = digits.padStart(p + 1, "0");
  return `${digits.slice(0, -p)}.${digits.slice(-p)}`;
}

/** Finite `|x|` rounded to `p + 1` significant digits: the digits and the decimal exponent of the first. */
function significant(x: number | Exact, p: number): [string, number] { // SK
  if (x === 0 || (typeof x !== "number" && x[0] === 0n)) return ["0".repeat(p + 1), 0]; // SK
  const [m, e] = decompose(typeof x === "number" ? Math.abs(x) : x); // SK
  // The first digit's exponent, estimated from the bits when the value may be beyond a double's range. // SK
  let exp = typeof x === "number" ? Math.floor(Math.log10(Math.abs(x))) : Math.floor((m.toString(2).length - 1 + e) * Math.log10(2)); // SK
  for (;;) {
    const digits = scaledRound(m, e, p - exp).toString();
    if (digits.length > p + 1) exp++;
    else if (digits.length < p + 1) exp--;
    else return [digits, exp];
  }
}

/** C's exponent: `e`, a sign and at least two digits. */
function exponent(exp: number): string {
  return `e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** `digits` (first before the point) and `exp` in C's `%e` form; the point only with more digits or `#`. */
function scientific(digits: string, exp: number, alt: boolean): string {
  return `${digits[0]}${digits.length > 1 || alt ? "." : ""}${digits.slice(1)}${exponent(exp)}`;
}

/** A number's text without trailing zeros after the point (and without the point if nothing is left). */
function trimZeros(text: string): string {
  return text.includes(".") ? text.replace(/\.?0*$/, "") : text; // SK: `%.1g` of 99 is 1e+02, not 1.e+02
}

/**
 * C's printf of `value` (awk's number of it) with conversion `conv` (one of
 * `e E f F g G`), `flags` (of `- + space 0 #`), `width` and `precision` as
 * written (`""`: none; precision 6): `%g` of 3e10 is `3e+10`, `%e` of
 * 12345.678 `1.234568e+04`, `%.0f` of 2.5 `2`, infinity `inf`.
 */
export function formatFloat(conv: string, flags: string, width: string, precision: string, value: unknown): string {
  const x = awkNumber(value);
  return formatExact(conv, flags, width, precision, x < 0 || Object.is(x, -0), x); // SK
} // SK

/** // SK
 * C's printf of `x` (a double, or an {@link Exact} magnitude; `negative` its sign), as {@link formatFloat}: shared // SK
 * with the shell's printf, which reads its operand as a long double (SK, glob-printf.ts). // SK
 */ // SK
export function formatExact(conv: string, flags: string, width: string, precision: string, negative: boolean, x: number | Exact): string { // SK
  const p = precision === "" || precision === undefined ? 6 : Number.parseInt(precision, 10);
  const alt = flags.includes("#");
  const lower = conv.toLowerCase();
  const sign = negative ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : ""; // SK
  const finite = typeof x !== "number" || Number.isFinite(x); // SK
  let body: string;
  if (typeof x === "number" && Number.isNaN(x)) body = "nan"; // SK
  else if (!finite) body = "inf"; // SK
  else if (lower === "f") body = fixed(x, p) + (alt && p === 0 ? "." : "");
  else if (lower === "e") {
    const [digits, exp] = significant(x, p);
    body = scientific(digits, exp, alt);
  } else {
    const P = p === 0 ? 1 : p;
    const [digits, exp] = significant(x, P - 1);
    if (exp < P && exp >= -4) {
      body = fixed(x, P - 1 - exp);
      if (alt) body += body.includes(".") ? "" : ".";
      else body = trimZeros(body);
    } else if (alt) body = scientific(digits, exp, true);
    else body = `${trimZeros(`${digits[0]}.${digits.slice(1)}`)}${exponent(exp)}`;
  }
  if (conv !== lower) body = body.toUpperCase();
  return pad(sign, body, flags, width, finite && !(typeof x === "number" && Number.isNaN(x))); // SK
}

/** `sign` + `body` padded to `width`: left (`-`), with zeros after the sign (`0`, numbers only) or right. */
function pad(sign: string, body: string, flags: string, width: string, zeros: boolean): string {
  const w = width ? Number.parseInt(width, 10) : 0;
  const text = sign + body;
  if (text.length >= w) return text;
  if (flags.includes("-")) return text.padEnd(w);
  if (zeros && flags.includes("0")) return sign + body.padStart(w - sign.length, "0");
  return text.padStart(w);
}

/** The digits of integer `n`'s magnitude, exactly (`2^62` is 4611686018427387904, not JavaScript's 4611686018427388000). */
export function integerDigits(n: number): string {
  const abs = Math.abs(n);
  return abs <= Number.MAX_SAFE_INTEGER ? String(abs) : BigInt(abs).toString();
}

/** printf's `%d`/`%i` of awk's number `x` (truncated), with its flags, width and precision. */
function formatInteger(flags: string, width: string, precision: string, x: number): string {
  const n = Math.trunc(x);
  if (!Number.isFinite(n)) return formatFloat("f", flags, width, "0", n);
  let digits = integerDigits(n);
  if (precision !== "") digits = digits.padStart(Number.parseInt(precision, 10), "0");
  const sign = n < 0 ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
  return pad(sign, digits, flags, width, precision === "");
}

/** // fixer SH
 * awk printf's integer conversions `%d %i %u %o %x %X` of `value` (awk's number of it, truncated toward zero), with // fixer SH
 * `flags` (of `- + space 0 #`), `width` and `precision` as written (`""`: none; `"0"` for `%.d`), as gawk 5.2.1's // fixer SH
 * format_tree (issue 20, run 37, fixer SH): // fixer SH
 * - `%d %i`: signed decimal, exact beyond 2^53 (`%d` of 1e30 is 1000000000000000019884624838656); // fixer SH
 * - `%u %o %x %X`: the value as C's 64-bit unsigned (`%u` of -1 is 18446744073709551615, `%x` of -5 // fixer SH
 *   fffffffffffffffb) for -2^63 ≤ value < 2^64, `%g` with the same flags, width and precision outside that // fixer SH
 *   (`%x` of 1e30 is 1e+30); `+` and space do not apply; // fixer SH
 * - `#`: `%o` a leading 0 (`%#o` of 8 is 010, `%#.3o` of 5 0005), `%x`/`%X` a 0x/0X prefix, both on non-zero values only; // fixer SH
 * - precision: at least that many digits (zeros in front), and the `0` flag is then ignored; precision 0 of the value // fixer SH
 *   0 prints no digits (`%.0d`, `%+.0d`, `%.0x` of 0 are empty, padded to the width; `%#.0o`, `%#.0x` print 0); // fixer SH
 * - the `0` flag pads with zeros after the sign or the 0x prefix (`%#08x` of 256 is 0x000100); // fixer SH
 * - infinity and NaN as `%d` prints them. // fixer SH
 */ // fixer SH
export function formatIntegerConversion(conv: string, flags: string, width: string, precision: string, value: unknown): string { // fixer SH
  const x = awkNumber(value); // fixer SH
  const n = Math.trunc(x); // fixer SH
  if (conv === "d" || conv === "i" || !Number.isFinite(n)) { // fixer SH
    if (precision === "0" && n === 0) return pad("", "", flags, width, false); // fixer SH
    return formatInteger(flags, width, precision, x); // fixer SH
  } // fixer SH
  if (n >= 2 ** 64 || n < -(2 ** 63)) return formatFloat("g", flags, width, precision, x); // fixer SH
  let big = BigInt(n); // fixer SH
  if (big < 0n) big += 1n << 64n; // fixer SH
  const alt = flags.includes("#") && conv !== "u"; // fixer SH
  let digits = big === 0n && precision === "0" && !alt ? "" : big.toString(conv === "o" ? 8 : conv === "u" ? 10 : 16); // fixer SH
  if (precision !== "") digits = digits.padStart(Number.parseInt(precision, 10), "0"); // fixer SH
  if (conv === "X") digits = digits.toUpperCase(); // fixer SH
  let prefix = ""; // fixer SH
  if (alt && big !== 0n) { // fixer SH
    if (conv === "o") digits = `0${digits}`; // fixer SH
    else prefix = conv === "X" ? "0X" : "0x"; // fixer SH
  } // fixer SH
  return pad(prefix, digits, flags, width, precision === ""); // fixer SH
} // fixer SH

/** // fixer SH
 * awk printf's `%c` of `value`, as gawk 5.2.1 in a UTF-8 locale (issue 20, run 37, fixer SH): a number is the // fixer SH
 * character of that code point (`%c` of 65 is A, of 128512 😀; just-bash took a UTF-16 unit, so 128512 printed // fixer SH
 * nothing), a string its first character (a whole code point: `%c` of "😀x" is 😀), padded with blanks to `width` // fixer SH
 * counted in UTF-8 bytes, as gawk counts it (`%3c` of "a" is "  a", `%5c` of 256 three blanks and Ā), left with `-`; // fixer SH
 * the `0` flag and a precision do nothing. A string that looks numeric is still a string here (gawk takes a numeric // fixer SH
 * field `65` as A). // fixer SH
 */ // fixer SH
export function formatChar(flags: string, width: string, value: unknown): string { // fixer SH
  let ch: string; // fixer SH
  if (typeof value === "number") { // fixer SH
    const n = Math.trunc(value); // fixer SH
    ch = n >= 0 && n < 0x110000 && !(n >= 0xd800 && n < 0xe000) ? String.fromCodePoint(n) : String.fromCharCode(n); // fixer SH
  } else { // fixer SH
    const text = String(value ?? ""); // fixer SH
    ch = text === "" ? "" : String.fromCodePoint(text.codePointAt(0)!); // fixer SH
  } // fixer SH
  const cp = ch === "" ? 0 : ch.codePointAt(0)!; // fixer SH
  const bytes = ch === "" ? 0 : cp < 0x80 || (cp >= 0xdc80 && cp <= 0xdcff) ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; // fixer SH
  const w = width ? Number.parseInt(width, 10) : 0; // fixer SH
  if (bytes >= w) return ch; // fixer SH
  return flags.includes("-") ? ch + " ".repeat(w - bytes) : " ".repeat(w - bytes) + ch; // fixer SH
} // fixer SH

/** A CONVFMT/OFMT: text, one conversion, text (`%%` for a percent sign). */
const ONE_CONVERSION = /^((?:[^%]|%%)*)%([-+ #0]*)(\d*)(?:\.(\d*))?([diouxXeEfFgGcs])((?:[^%]|%%)*)$/;
const formats = new Map<string, RegExpExecArray | null>();

/** `x` through format `fmt` (a CONVFMT or OFMT); a format that is not one conversion acts as `%.6g`. */
function formatNumber(fmt: string, x: number): string {
  if (fmt === "%.6g") return formatFloat("g", "", "", "6", x);
  let m = formats.get(fmt);
  if (m === undefined) {
    m = ONE_CONVERSION.exec(fmt);
    if (formats.size > 64) formats.clear();
    formats.set(fmt, m);
  }
  if (m === null) return formatFloat("g", "", "", "6", x);
  const [, before, flags, width, precision, conv, after] = m as unknown as [string, string, string, string, string | undefined, string, string];
  // `%.f` has precision 0; `%f` none (6 for a float, the digits' own for an integer).
  const p = precision === undefined ? "" : precision === "" ? "0" : precision;
  const text = "eEfFgG".includes(conv) ? formatFloat(conv, flags, width, p, x) : "di".includes(conv) ? formatInteger(flags, width, p, x) : formatFloat("g", "", "", "6", x);
  return before.replaceAll("%%", "%") + text + after.replaceAll("%%", "%");
}

/**
 * awk's string of number `x` through `fmt` (CONVFMT, or OFMT for print): an
 * integer below 2^63 as an integer (`1e6` is `1000000`), infinity `inf`/`-inf`,
 * NaN `nan`, any other through `fmt` (`0.1+0.2` is `0.3`, `1e20` `1e+20`).
 */
export function numberToString(x: number, fmt: string): string {
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 63) return (x < 0 ? "-" : "") + integerDigits(x);
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x < 0 ? "-inf" : "inf";
  return formatNumber(fmt, x);
}

/** awk's string of value `x` in `state` (numbers through its CONVFMT; none given: `%.6g`). */
export function str(state: AwkState | undefined, x: unknown): string {
  if (typeof x === "string") return x;
  if (typeof x === "number") return numberToString(x, state?.CONVFMT ?? "%.6g");
  if (x instanceof AwkString) return x.value;
  return x === undefined || x === null ? "" : String(x);
}

/** What `print` writes for value `x`: numbers through OFMT, strings as they are. */
export function output(state: AwkState, x: unknown): string {
  return typeof x === "number" ? numberToString(x, state.OFMT ?? "%.6g") : str(state, x);
}

// ---------------------------------------------------------------- string or number

/** The special variables, read without {@link load}: a string one is a numeric string (its value decides). */
const SPECIAL = new Set(["FS", "RS", "OFS", "ORS", "OFMT", "CONVFMT", "NR", "NF", "FNR", "FILENAME", "RSTART", "RLENGTH", "SUBSEP", "ARGC"]);
/** The built-in functions whose value is a string. */
const STRING_FUNCTIONS = new Set(["substr", "sprintf", "tolower", "toupper", "gensub"]);

interface Node {
  type: string;
  name?: string;
  array?: string;
  operator?: string;
  consequent?: Node;
  alternate?: Node;
  elements?: Node[];
}

/** The kind an expression has whatever its value (a constant, a concatenation), or undefined. */
function staticKind(node: Node | undefined): Kind | undefined {
  if (node === undefined) return undefined;
  if (node.type === "number") return "number";
  if (node.type === "string" || (node.type === "binary" && node.operator === " ")) return "string";
  if (node.type === "field") return "strnum";
  return undefined;
}

/**
 * The kind of value `value` that expression `node` has just given (read at
 * once after its evaluation: a variable or array element read, a user
 * function's value and an assignment leave theirs in `state.awkKind`).
 */
export function kind(state: AwkState, node: Node, value: unknown): Kind {
  if (typeof value === "number") return "number";
  switch (node.type) {
    case "string":
      return "string";
    case "variable":
      return SPECIAL.has(node.name!) ? "strnum" : (state.awkKind ?? "strnum");
    case "array_access":
      return node.array === "ARGV" || node.array === "ENVIRON" ? "strnum" : (state.awkKind ?? "strnum");
    case "binary":
      return node.operator === " " ? "string" : "strnum";
    case "call":
      if (STRING_FUNCTIONS.has(node.name!)) return "string";
      return state.functions?.has(node.name!) ? (state.awkKind ?? "strnum") : "strnum";
    case "assignment":
      return state.awkKind ?? "strnum";
    case "ternary": {
      const a = staticKind(node.consequent);
      return a !== undefined && a === staticKind(node.alternate) ? a : "strnum";
    }
    case "tuple":
      return node.elements?.length ? kind(state, node.elements[node.elements.length - 1]!, value) : "strnum";
    default:
      return "strnum";
  }
}

/**
 * What to store for value `value` of kind `k`: a string (kind `"string"`) is kept as an {@link AwkString}
 * whatever its text, anything else as it is. The text is not read (fixer AQ, issue 20 run 33): testing it
 * (as this did, wrapping only a string that looks numeric) made V8 flatten the rope each concatenation
 * builds, a copy of the whole value per assignment, so `s = s $0 ","` over N records was O(N²) (50,000
 * records 4.1 s; gawk appends in place). Unwrapped by {@link load}, which notes kind `"string"`: for a
 * text that does not look numeric that compares and tests as `"strnum"` did, so nothing else changes.
 */ // fixer AQ
export function keep(value: unknown, k: Kind): unknown {
  return k === "string" && typeof value === "string" ? new AwkString(value) : value; // fixer AQ
}

/** {@link keep} of `value`, which `node` has just given. */
export function keepOf(state: AwkState, node: Node, value: unknown): unknown {
  return keep(value, kind(state, node, value));
}

/** The value of a stored variable or array element (`undefined`: never set), noting its kind. */
export function load(state: AwkState, stored: unknown): unknown {
  if (stored === undefined || stored === UNINIT) { // AW
    state.awkKind = "uninit";
    return "";
  }
  if (stored instanceof AwkString) {
    state.awkKind = "string";
    return stored.value;
  }
  state.awkKind = typeof stored === "number" ? "number" : "strnum";
  return stored;
}

/** An assignment's value `value`, noting its kind `k`. */
export function result(state: AwkState, value: unknown, k: Kind): unknown {
  state.awkKind = k;
  return value;
}

function numeric(k: Kind, x: unknown): boolean {
  return k === "number" || k === "uninit" || (k === "strnum" && typeof x === "string" && NUMERIC.test(x));
}

/**
 * Whether value `value`, which expression `node` has just given, is true in a
 * condition (`if`, `while`, `for`, `!`, `&&`, `||`, `?:`, a pattern), as
 * POSIX awk decides: a number or a numeric string from input (`$1` of
 * `0.0`, ` 0 `) by its value, a string (a constant `"0"`, a concatenation)
 * by not being empty, an unset variable false. just-bash took every string
 * other than `""` and `"0"` as true.
 */
export function truthOf(state: AwkState, node: Node, value: unknown): boolean {
  if (typeof value === "number") return value !== 0;
  const text = value instanceof AwkString ? value.value : String(value ?? "");
  const k = kind(state, node, value);
  if (k === "uninit") return false;
  if (k === "strnum" && NUMERIC.test(text)) return awkNumber(text) !== 0;
  return text !== "";
}

/** `a op b` (`< <= > >= == !=`) for values of kinds `ak` and `bk`: 1 or 0, compared as POSIX awk compares. */
export function compare(state: AwkState, op: string, a: unknown, ak: Kind, b: unknown, bk: Kind): number {
  let x: number | string;
  let y: number | string;
  if (numeric(ak, a) && numeric(bk, b)) {
    x = awkNumber(a);
    y = awkNumber(b);
  } else {
    x = str(state, a);
    y = str(state, b);
  }
  switch (op) {
    case "<":
      return x < y ? 1 : 0;
    case "<=":
      return x <= y ? 1 : 0;
    case ">":
      return x > y ? 1 : 0;
    case ">=":
      return x >= y ? 1 : 0;
    case "==":
      return x === y ? 1 : 0;
    default:
      return x !== y ? 1 : 0;
  }
}

// ---------------------------------------------------------------- fields, split, assignments

/** A field separator as the regular expression just-bash compiles: one character other than a space stands for itself. */
export function fieldPattern(fs: string): string {
  return fs.length === 1 ? fs.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : fs;
}

/** What just-bash's regular expressions split with. */
interface Splitter {
  split(text: string, limit?: number): string[];
}

/**
 * The pieces `split(text, a, sep)` makes, at most `limit`: none of an empty
 * string; `sep` `" "` (or FS `" "`) splits at runs of blanks, leading and
 * trailing ones dropped; one other character at each of it (`""`: between
 * characters, as gawk and mawk); a longer string,
 * or a regex (`sep` compiled already), at each match of the ERE. `compile` is
 * just-bash's regex compiler.
 */
export function split(text: string, sep: string | Splitter, limit: number, compile: (pattern: string) => Splitter): string[] {
  if (text === "") return [];
  if (typeof sep !== "string") return sep.split(text, limit);
  if (sep === " ") {
    const trimmed = text.trim();
    return trimmed === "" ? [] : trimmed.split(/\s+/, limit);
  }
  if (sep === "") return Array.from(text).slice(0, limit);
  if (sep.length === 1) return text.split(sep, limit);
  let re: Splitter;
  try {
    re = compile(sep);
  } catch {
    return text.split(sep, limit);
  }
  return re.split(text, limit);
}

/** An operand `NAME=value` (POSIX: an assignment, not a file), as its name and value. */
function assignment(operand: string): [string, string] | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(operand);
  return m ? [m[1]!, operand.slice(m[0].length)] : undefined;
}

/** Whether `operands` name an input file (operands that are assignments do not). */
export function hasInputFile(operands: readonly string[]): boolean {
  return operands.some((o) => assignment(o) === undefined);
}

/**
 * If `operand` is an assignment `NAME=value`, makes it (its value's escapes
 * processed by `escapes`, set through `setVar`, as -v does) and says so.
 */
export function operandAssignment(state: unknown, operand: string, setVar: (state: unknown, name: string, value: unknown) => void, escapes: (s: string) => string): boolean {
  const a = assignment(operand);
  if (a === undefined) return false;
  setVar(state, a[0], escapes(a[1]));
  return true;
}

// ---------------------------------------------------------------- options, program files

/** awk's options as parsed by {@link parseOptions}. */
export interface AwkOptions {
  /** `-F FS` (the last one), escapes not yet processed. */
  fs?: string;
  /** `-v NAME=value` in order, values as written. */
  assignments: [string, string][];
  /** `-f progfile` in order (`-`: standard input). */
  programFiles: string[];
  /** The index in `args` of the first operand (the program text unless `programFiles`). */
  index: number;
  /** An option awk does not have (`-x`, `--x`), as written. */
  unknown?: string;
  /** An option whose argument is missing (`f`, `F`, `v`). */
  missing?: string;
}

const LONG_OPTIONS: Record<string, string> = { "--file": "f", "--field-separator": "F", "--assign": "v" };

/**
 * awk's options (POSIX and gawk's long names): `-F fs`/`-Ffs`/`--field-separator=fs`,
 * `-v a=b`/`-va=b`/`--assign=a=b`, `-f file`/`-ffile`/`--file=file` (repeatable),
 * `--` ending them. The first argument that is not an option (or `-`) ends them too.
 */
export function parseOptions(args: readonly string[]): AwkOptions {
  const out: AwkOptions = { assignments: [], programFiles: [], index: args.length };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) break;
    let letter: string;
    let value: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      const short = LONG_OPTIONS[name];
      if (short === undefined) return { ...out, unknown: arg };
      letter = short;
      value = eq < 0 ? undefined : arg.slice(eq + 1);
    } else {
      letter = arg[1]!;
      if (letter !== "f" && letter !== "F" && letter !== "v") return { ...out, unknown: `-${letter}` };
      value = arg.length > 2 ? arg.slice(2) : undefined;
    }
    if (value === undefined) {
      if (i + 1 >= args.length) return { ...out, missing: letter };
      value = args[++i]!;
    }
    if (letter === "f") out.programFiles.push(value);
    else if (letter === "F") out.fs = value;
    else {
      const eq = value.indexOf("=");
      if (eq > 0) out.assignments.push([value.slice(0, eq), value.slice(eq + 1)]);
    }
  }
  out.index = i;
  return out;
}

/** The file system calls {@link programText} and {@link AwkInput} make (just-bash's, through its defense wrapper). */
export interface AwkFiles {
  resolvePath(cwd: string, path: string): string;
  stat(path: string): Promise<{ size: number }>;
  readFile(path: string): Promise<string>;
}

/**
 * The program text of `-f` files `names` (joined by newlines, as gawk reads
 * several), `-` standard input (`stdin()`), or the message and status for a
 * file that cannot be read (gawk's: `awk: fatal: cannot open source file
 * \`p.awk' for reading: No such file or directory`, status 2).
 */
export async function programText(names: readonly string[], files: AwkFiles, cwd: string, stdin: () => string, isFatal: (error: unknown) => boolean): Promise<string | { stdout: string; stderr: string; exitCode: number }> {
  const parts: string[] = [];
  for (const name of names) {
    if (name === "-" || name === "/dev/stdin") {
      parts.push(stdin());
      continue;
    }
    try {
      parts.push(await files.readFile(files.resolvePath(cwd, name)));
    } catch (error) {
      if (isFatal(error)) throw error;
      return { stdout: "", stderr: `awk: fatal: cannot open source file \`${name}' for reading: ${readFailureReason(error)}\n`, exitCode: 2 };
    }
  }
  return parts.join("\n");
}

// ---------------------------------------------------------------- records

/** An input file awk cannot open: just-bash's message (`awk: F: No such file or directory`), status 2 as gawk and mawk (L2). */
export class OpenError extends Error {}

/** What just-bash's regex compiler gives (`exec` from `lastIndex` with the `g` flag). */
interface RecordRegex {
  lastIndex: number;
  exec(text: string): { index: number; 0: string } | null;
}

/** What {@link AwkInput} needs from the awk command. */
export interface InputHost {
  /** The operands after the program: files, `-`, `NAME=value` assignments. */
  operands: readonly string[];
  /** Makes operand `operand` if it is an assignment (and says whether it was). */
  assign(operand: string): boolean;
  /** Standard input as text (read at most once). */
  stdin(): string;
  files: AwkFiles;
  cwd: string;
  /** The bytes all input may have (just-bash's limit), their count in a text, and the error to throw beyond. */
  maxBytes: number;
  byteLength(text: string): number;
  limitError(message: string): Error;
  /** Errors to let through (just-bash's defense and limit errors). */
  isFatal(error: unknown): boolean;
  /** just-bash's regex compiler (an ERE RS). */
  compile(pattern: string, flags: string): RecordRegex;
}

/** The state a record reader reads RS from and sets FILENAME and FNR in. */
interface RecordState {
  RS?: unknown;
  FILENAME: string;
  FNR: number;
}

/**
 * awk's input: the operands in turn (assignments made as they are reached,
 * `-` standard input; none: standard input), split into records by RS as
 * POSIX awk, RS read as each record is taken: `"\n"` (the default) or
 * another single character ends a record there; `""` is paragraph mode
 * (records separated by one or more blank lines, newlines before the first
 * and after the last dropped); a longer RS is an ERE (gawk, mawk). The main
 * loop and plain `getline` (also in BEGIN) read from one reader, so a record
 * getline took is not read again.
 */
export class AwkInput {
  #host: InputHost;
  #next = 0;
  #text: string | undefined;
  #pos = 0;
  #bytes = 0;
  #stdinRead = false;
  #regex: { source: string; re: RecordRegex } | undefined;

  constructor(host: InputHost) {
    this.#host = host;
  }

  /** Standard input, once: a second `-` (or a program read from it) reads nothing more. */
  stdin(): string {
    if (this.#stdinRead) return "";
    this.#stdinRead = true;
    return this.#host.stdin();
  }

  /** The next record (opening the next input when one ends), or undefined at the end of all input. */
  async record(state: RecordState): Promise<string | undefined> {
    for (;;) {
      if (this.#text === undefined && !(await this.#open(state))) return undefined;
      const record = this.#take(str(state as AwkState, state.RS ?? "\n"));
      if (record !== undefined) return record;
      this.#text = undefined;
    }
  }

  /** `nextfile`: the rest of the current input is skipped. */
  endFile(): void {
    this.#text = undefined;
  }

  async #open(state: RecordState): Promise<boolean> {
    const { operands } = this.#host;
    if (!hasInputFile(operands)) {
      if (this.#next > operands.length) return false;
      for (const operand of operands) this.#host.assign(operand);
      this.#next = operands.length + 1;
      this.#start(state, "-", this.stdin()); // L2: FILENAME is "-" for standard input, as gawk 5.2 and mawk
      return true;
    }
    while (this.#next < operands.length) {
      const operand = operands[this.#next++]!;
      if (this.#host.assign(operand)) continue;
      if (operand === "-") {
        this.#start(state, "-", this.stdin()); // L2
        return true;
      }
      this.#start(state, operand, await this.#read(operand));
      return true;
    }
    return false;
  }

  async #read(name: string): Promise<string> {
    const { files, cwd } = this.#host;
    try {
      const path = files.resolvePath(cwd, name);
      if ((await files.stat(path)).size > this.#host.maxBytes - this.#bytes) throw this.#host.limitError(`aggregate input size limit exceeded (${this.#host.maxBytes} bytes)`);
      return await files.readFile(path);
    } catch (error) {
      if (this.#host.isFatal(error)) throw error;
      throw new OpenError(`awk: ${name}: No such file or directory\n`);
    }
  }

  #start(state: RecordState, name: string, text: string): void {
    const bytes = this.#host.byteLength(text);
    if (bytes > this.#host.maxBytes - this.#bytes) throw this.#host.limitError(`aggregate input size limit exceeded (${this.#host.maxBytes} bytes)`);
    this.#bytes += bytes;
    state.FILENAME = name;
    state.FNR = 0;
    this.#text = text;
    this.#pos = 0;
  }

  /** The next record of the current text by `rs`, or undefined when it has no more. */
  #take(rs: string): string | undefined {
    const text = this.#text!;
    let pos = this.#pos;
    if (rs === "") {
      while (text.charCodeAt(pos) === 10) pos++;
      if (pos >= text.length) return undefined;
      const end = text.indexOf("\n\n", pos);
      if (end < 0) {
        this.#pos = text.length;
        return text.slice(pos, text.endsWith("\n") ? -1 : undefined);
      }
      this.#pos = end + 2;
      return text.slice(pos, end);
    }
    if (pos >= text.length) return undefined;
    if (rs.length === 1) {
      const end = text.indexOf(rs, pos);
      this.#pos = end < 0 ? text.length : end + 1;
      return text.slice(pos, end < 0 ? undefined : end);
    }
    if (this.#regex?.source !== rs) this.#regex = { source: rs, re: this.#host.compile(rs, "g") };
    const re = this.#regex.re;
    // The first non-empty match of the ERE from here (an empty match separates nothing).
    let m: { index: number; 0: string } | null = null;
    for (let from = pos; from <= text.length; from = m.index + 1) {
      re.lastIndex = from;
      m = re.exec(text);
      if (m === null || m[0] !== "") break;
    }
    if (m === null) {
      this.#pos = text.length;
      return text.slice(pos);
    }
    this.#pos = m.index + m[0].length;
    return text.slice(pos, m.index);
  }
}

/**
 * The fields of record `text` in `state`: FS `" "` splits at runs of blanks
 * (leading and trailing ones dropped), another FS with `fieldSep`; in
 * paragraph mode (RS `""`) a newline separates fields too, whatever FS is.
 */
export function fields(state: AwkState & { FS: string; RS?: unknown; fieldSep: Splitter }, text: string): string[] {
  if (text === "") return [];
  if (state.FS === " ") return text.trim().split(/\s+/).filter(Boolean);
  if (str(state, state.RS ?? "\n") === "" && text.includes("\n")) return text.split("\n").flatMap((line) => state.fieldSep.split(line));
  return state.fieldSep.split(text);
}

// ---------------------------------------------------------------- run-time errors (gawk's messages, status 2)

/**
 * `a / b`, `a % b` (`op` `/`, `%`, `/=` or `%=`); a zero divisor is gawk's
 * fatal error (`division by zero attempted`, ``… in `%'``), not just-bash's 0.
 */
export function divide(a: number, b: number, op: "/" | "%" | "/=" | "%="): number {
  if (b === 0) throw new Error(op === "/" ? "division by zero attempted" : `division by zero attempted in \`${op}'`);
  return op[0] === "/" ? a / b : a % b;
}

/** A field number as given; a negative one is gawk's fatal `attempt to access field -1` (just-bash read ""). */
export function fieldIndex(n: number): number {
  if (n < 0) throw new Error(`attempt to access field ${n}`);
  return n;
}

/** printf/sprintf's argument `value` for conversion `conv`: none left is gawk's (and mawk's) fatal error. */
export function printfArgument(value: unknown, conv: string | undefined): void {
  if (value === undefined && conv !== undefined && "cdiouxXeEfFgGs".includes(conv)) throw new Error("not enough arguments to satisfy format string");
}

// ---------------------------------------------------------------- arrays (AW, issue 20 run 28)

/**
 * The value of an array element that a program referred to (`a[$1]`, `x[1] == ""`, `f(a[k])`) but never assigned:
 * POSIX awk, gawk and mawk create the element on any reference, uninitialized (`k in a` is then true, `length(a)`
 * counts it, `for (k in a)` visits it); the right operand of `in` and `delete` do not create one.
 */
export const UNINIT: unknown = Object.freeze({ awkUninit: true });

/** The interpreter's array state (just-bash's awk runtime context). */
interface ArrayState {
  arrays: Record<string, Record<string, unknown> | undefined>;
  arrayAliases: Map<string, string>;
  arrayElementCount: number;
  ARGV?: Record<string, unknown>;
  ENVIRON?: Record<string, unknown>;
  awkLocalSeq?: number;
}

/**
 * The storage key of array `name`: a parameter of the running user function is an alias of the caller's array (by
 * reference) or of the call's own local array; any other name is itself. An alias is resolved once, when the call
 * binds it ({@link enterFrame}), so this is a single lookup.
 */
export function arrayKey(state: ArrayState, name: string): string {
  return state.arrayAliases.get(name) ?? name;
}

/** The elements of array `name` (ARGV and ENVIRON included), or undefined when it is no array (yet). */
export function arrayOf(state: ArrayState, name: string): Record<string, unknown> | undefined {
  if (name === "ARGV") return state.ARGV;
  if (name === "ENVIRON") return state.ENVIRON;
  return state.arrays[arrayKey(state, name)];
}

/** `length(NAME)` of an array NAME: its number of elements (gawk, mawk, POSIX 2024); undefined for a scalar. */
export function arrayLength(state: ArrayState, arg: Node | undefined): number | undefined {
  if (arg?.type !== "variable") return undefined;
  const elements = arrayOf(state, arg.name!);
  return elements === undefined ? undefined : Object.keys(elements).length;
}

/** A user function call's array bindings, undone by {@link leaveFrame}. */
export interface Frame {
  saved: [string, string | undefined][];
  locals: string[];
}

/**
 * Binds the array names of a user function call: a parameter given a bare variable name refers to the caller's
 * array of that name (resolved in the caller's scope first, so `f(b, a)` with parameters `a, b` and recursive calls
 * passing an array parameter on keep the caller's array); any other parameter (a local, or a scalar argument) gets
 * an array of its own for this call, gone when it returns.
 */
export function enterFrame(state: ArrayState, params: readonly string[], args: readonly Node[]): Frame {
  const targets = params.map((_, i) => (i < args.length && args[i]!.type === "variable" ? arrayKey(state, args[i]!.name!) : undefined));
  const frame: Frame = { saved: params.map((p) => [p, state.arrayAliases.get(p)]), locals: [] };
  params.forEach((p, i) => {
    let target = targets[i];
    if (target === undefined) {
      state.awkLocalSeq = (state.awkLocalSeq ?? 0) + 1;
      target = `\0local ${state.awkLocalSeq} ${p}`;
      frame.locals.push(target);
    }
    state.arrayAliases.set(p, target);
  });
  return frame;
}

/** Undoes {@link enterFrame}: the caller's bindings back, the call's local arrays gone. */
export function leaveFrame(state: ArrayState, frame: Frame): void {
  for (let i = frame.saved.length - 1; i >= 0; i--) {
    const [p, previous] = frame.saved[i]!;
    if (previous === undefined) state.arrayAliases.delete(p);
    else state.arrayAliases.set(p, previous);
  }
  for (const key of frame.locals) {
    state.arrayElementCount -= Object.keys(state.arrays[key] ?? {}).length;
    delete state.arrays[key];
  }
}
