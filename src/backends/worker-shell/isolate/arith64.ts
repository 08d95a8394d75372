/**
 * Shell integers as bash 5.2 has them: 64-bit signed (intmax_t), wrapping on
 * overflow, for `$(( ))`, `(( ))`, `let`, `$[ ]`, `declare -i`, `[[ a -gt b ]]`,
 * `test`'s `-eq`…`-ge` and printf's `%d %i %u %o %x %X`.
 *
 * just-bash evaluated arithmetic on doubles: shifts and bit operators on 32
 * bits (`$((1<<31))` was -2147483648), everything else clamped to ±(2^53 − 1)
 * or rounded (`$((2**53+1))`, `$((2**63))` printed 9223372036854776000). Here a
 * value is an {@link Int}: a JavaScript number while it is a safe integer (so
 * loops of small numbers take the plain number path), else a bigint, always
 * within int64 — never a bigint that is a safe integer, so `===`, `!== 0` and
 * `String()` keep working on either. Operations on two numbers whose result
 * stays safe are done on numbers; the rest in BigInt wrapped by
 * BigInt.asIntN(64, …), shift counts taken mod 64 as x86-64 bash does.
 *
 * scripts/gen-shell.mjs patches just-bash's arithmetic evaluator, its number
 * literals, `test`, `[[ ]]`, `$(( ))`/`declare -i` results and printf's
 * integer conversions to call these (imported as the namespace `__arith64`,
 * entries marked `// SZ`). Pure: it is bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { charCode } from "./escapes.js";

/** A shell integer: a number when it is a safe integer, else a bigint within int64. */
export type Int = number | bigint;

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const SAFE_MIN = -SAFE_MAX;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

/** `b` wrapped to int64, as a number when that is a safe integer. */
export function wrap(b: bigint): Int {
  const w = BigInt.asIntN(64, b);
  return w >= SAFE_MIN && w <= SAFE_MAX ? Number(w) : w;
}

/** `v` as a bigint (a number that is not finite counts as 0, a fraction is truncated). */
function big(v: Int): bigint {
  if (typeof v === "bigint") return v;
  return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
}

/** `v` as a number (a bigint rounded): for uses that index or slice. */
export function toNumber(v: Int): number {
  return typeof v === "bigint" ? Number(v) : v;
}

/** `base ** exp` mod 2^64 by squaring (exp ≥ 0), as bash's ipow. */
function power(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = BigInt.asIntN(64, base);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = BigInt.asIntN(64, result * b);
    e >>= 1n;
    if (e > 0n) b = BigInt.asIntN(64, b * b);
  }
  return result;
}

/**
 * `a op b` for a binary arithmetic operator (`+ - * / % ** << >> < <= > >= == != & | ^ ,`), or the message of
 * bash's error as a string (`division by 0`, `exponent less than 0`), which the caller throws as its own error.
 */
export function binary(a: Int, b: Int, op: string): Int | string {
  if (typeof a === "number" && typeof b === "number") {
    switch (op) {
      case "+": {
        const r = a + b;
        if (Number.isSafeInteger(r)) return r;
        break;
      }
      case "-": {
        const r = a - b;
        if (Number.isSafeInteger(r)) return r;
        break;
      }
      case "*": {
        const r = a * b;
        if (Number.isSafeInteger(r)) return r;
        break;
      }
      case "/":
        if (b === 0) return "division by 0";
        // Exact for safe integers: the quotient's rounding error is below 1/|b|, the distance to the next integer.
        return Math.trunc(a / b);
      case "%":
        if (b === 0) return "division by 0";
        return a % b;
      case "<<":
        if (b >= 0 && b < 53) {
          const r = a * 2 ** b;
          if (Number.isSafeInteger(r)) return r;
        }
        break;
      case ">>":
        if (b >= 0 && b < 53) return Math.floor(a / 2 ** b);
        break;
      case "<":
        return a < b ? 1 : 0;
      case "<=":
        return a <= b ? 1 : 0;
      case ">":
        return a > b ? 1 : 0;
      case ">=":
        return a >= b ? 1 : 0;
      case "==":
        return a === b ? 1 : 0;
      case "!=":
        return a !== b ? 1 : 0;
      case "&":
        if ((a | 0) === a && (b | 0) === b) return a & b;
        break;
      case "|":
        if ((a | 0) === a && (b | 0) === b) return a | b;
        break;
      case "^":
        if ((a | 0) === a && (b | 0) === b) return a ^ b;
        break;
      case ",":
        return b;
      case "**":
        break;
      default:
        return 0;
    }
  }
  const x = big(a);
  const y = big(b);
  switch (op) {
    case "+":
      return wrap(x + y);
    case "-":
      return wrap(x - y);
    case "*":
      return wrap(x * y);
    case "/":
      if (y === 0n) return "division by 0";
      return wrap(x / y); // INT64_MIN / -1 wraps to INT64_MIN, as bash
    case "%":
      if (y === 0n) return "division by 0";
      return wrap(x % y);
    case "**":
      if (y < 0n) return "exponent less than 0";
      return wrap(power(x, y));
    case "<<":
      return wrap(x << (y & 63n));
    case ">>":
      return wrap(x >> (y & 63n));
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
    case "!=":
      return x !== y ? 1 : 0;
    case "&":
      return wrap(x & y);
    case "|":
      return wrap(x | y);
    case "^":
      return wrap(x ^ y);
    case ",":
      return b;
    default:
      return 0;
  }
}

/** `a op= b` for an assignment operator (`=`, `+=`, … `^=`); `=` and an unknown operator give `b`. Errors as {@link binary}. */
export function compound(a: Int, b: Int, op: string): Int | string {
  if (op === "=" || op.length < 2 || !op.endsWith("=")) return b;
  return binary(a, b, op.slice(0, -1));
}

/** A unary operator (`-`, `+`, `!`, `~`) applied to `a`. */
export function unary(a: Int, op: string): Int {
  switch (op) {
    case "-":
      return typeof a === "number" ? 0 - a : wrap(-a);
    case "+":
      return a;
    case "!":
      return a === 0 ? 1 : 0;
    case "~":
      return typeof a === "number" && (a | 0) === a ? ~a : wrap(~big(a));
    default:
      return a;
  }
}

/** `a` plus one (`op` "+") or minus one (`-`): `++`/`--`. */
export function step(a: Int, op: string): Int {
  return binary(a, 1, op === "-" ? "-" : "+") as Int;
}

/**
 * Number.parseInt, exact: the leading decimal integer of `text` wrapped to int64 (NaN when there is none), for
 * variable values and command output read as numbers. Other radixes are Number.parseInt's.
 */
export function parseInt(text: string, radix?: number): Int {
  const n = Number.parseInt(text, radix);
  if (Number.isSafeInteger(n) || Number.isNaN(n) || (radix !== undefined && radix !== 10)) return n;
  const m = /^\s*([+-]?\d+)/.exec(text);
  return m ? wrap(BigInt(m[1]!)) : n;
}

/**
 * A variable's value (or `$1`'s) as an arithmetic operand when it is a plain decimal integer — blanks around, an
 * optional `-`, no leading zero — wrapped to int64; null otherwise (`010`, `0x1f`, `2#101`, `08`, `2+3`), which the
 * evaluator then reads as an expression, as bash's expr_streval does: `x=010; $((x))` is 8, `x=08` an error (SC).
 */
export function decimal(text: string): Int | null {
  const t = text.trim();
  return /^-?(?:0|[1-9][0-9]*)$/.test(t) ? parseInt(t, 10) : null;
}

/**
 * Rethrows `error` when it is the evaluator's `value too great for base` (`08`, `2#3`): the places that evaluate an
 * array subscript fall back to reading it as a plain number when the evaluation fails, which made `x=08; ${a[x]}`
 * element 8 where bash fails (SC).
 */
export function rethrowBaseError(error: unknown): void {
  if (error instanceof Error && error.message.includes("value too great for base")) throw error;
}

/** The value of digit `c` in base `base` as bash reads `base#digits` (NaN when it is not one). */
function digitValue(c: string, base: number): number {
  const code = c.charCodeAt(0);
  let v: number;
  if (code >= 48 && code <= 57) v = code - 48;
  else if (code >= 97 && code <= 122) v = code - 97 + 10;
  else if (code >= 65 && code <= 90) v = code - 65 + (base <= 36 ? 10 : 36);
  else if (c === "@") v = 62;
  else if (c === "_") v = 63;
  else return Number.NaN;
  return v < base ? v : Number.NaN;
}

/**
 * An arithmetic number literal as bash reads it — decimal, `0x` hex, `0` octal, `base#digits` (2…64) — wrapped to
 * int64 (`9223372036854775808` is -9223372036854775808, `0xffffffffffffffff` -1); NaN when it is not one (`09`,
 * `2#3`, `65#1`), which the evaluator reports as `value too great for base`.
 */
export function literal(text: string): Int {
  if (text.includes("#")) {
    const parts = text.split("#");
    if (parts.length !== 2) return Number.NaN;
    const [b, digits] = parts as [string, string];
    if (!/^\d+$/.test(b) || digits.length === 0) return Number.NaN;
    const base = Number.parseInt(b, 10);
    if (base < 2 || base > 64) return Number.NaN;
    const bigBase = BigInt(base);
    let v = 0n;
    for (const c of digits) {
      const d = digitValue(c, base);
      if (Number.isNaN(d)) return Number.NaN;
      v = BigInt.asUintN(64, v * bigBase + BigInt(d));
    }
    return wrap(v);
  }
  if (text.startsWith("0x") || text.startsWith("0X")) {
    const m = /^[0-9a-fA-F]+/.exec(text.slice(2));
    return m ? wrap(BigInt(`0x${m[0]}`)) : Number.NaN;
  }
  if (text.startsWith("0") && text.length > 1 && /^[0-9]+$/.test(text)) {
    if (/[89]/.test(text)) return Number.NaN;
    return wrap(BigInt(`0o${text.slice(1)}`));
  }
  if (text.length < 16 && /^\d+$/.test(text)) return Number(text);
  const m = /^\s*([+-]?\d+)/.exec(text);
  return m ? wrap(BigInt(m[1]!)) : Number.NaN;
}

/**
 * An operand of `[[ a -gt b ]]` that is a plain literal (optional sign, then decimal, `0x` hex, `0` octal or
 * `base#digits`), as bash evaluates it: wrapped to int64, 0 when it is not valid.
 */
export function conditionalInteger(text: string): Int {
  let t = text.trim();
  if (t === "") return 0;
  let negative = false;
  if (t.startsWith("-")) (negative = true), (t = t.slice(1));
  else if (t.startsWith("+")) t = t.slice(1);
  let v = literal(t);
  if (typeof v === "number" && Number.isNaN(v)) v = 0;
  return negative ? unary(v, "-") : v;
}

/**
 * An operand of `test`'s `-eq -ne -lt -le -gt -ge`, as bash's legal_number: optional blanks, an optional sign and
 * decimal digits, optional blanks, within int64. `valid` false otherwise (bash: `integer expression expected`), also
 * for an empty or blank operand (SC; just-bash read it as 0).
 */
export function testInteger(text: string): { value: Int; valid: boolean } {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return { value: 0, valid: false };
  const b = BigInt(t);
  if (b > INT64_MAX || b < INT64_MIN) return { value: 0, valid: false };
  return { value: wrap(b), valid: true };
}

/** What bash's strtoimax-based getintmax/getuintmax make of printf argument `arg`: its value (unbounded) and what follows. */
function printfArgument(arg: string): { value: bigint; rest: string } {
  // The character-code form 'c: a byte escape (U+DC80…U+DCFF) gives its byte, as bash does (escapes.ts charCode).
  if (arg.startsWith("'") || arg.startsWith('"')) return { value: BigInt(charCode(arg, 1)), rest: "" };
  if ((arg.startsWith("\\'") || arg.startsWith('\\"')) && arg.length >= 3) return { value: BigInt(charCode(arg, 2)), rest: "" };
  const m = /^[ \t\n\v\f\r]*([+-]?)(?:0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))/.exec(arg);
  if (!m) return { value: 0n, rest: arg };
  const [all, sign, hex, oct, dec] = m;
  const magnitude = hex !== undefined ? BigInt(`0x${hex}`) : oct !== undefined ? BigInt(`0o${oct.length > 1 ? oct.slice(1) : "0"}`) : BigInt(dec!);
  return { value: sign === "-" ? -magnitude : magnitude, rest: arg.slice(all.length) };
}

/**
 * printf's `%d %i %u %o %x %X` (with flags `-+ #0'`, width, precision and a length modifier `hlLqjzt`, ignored) of
 * argument `arg`, as bash 5.2: `%d`/`%i` take the argument as a signed 64-bit integer (saturating past its range),
 * `%u %o %x %X` as an unsigned one (`-1` is 18446744073709551615, ffffffffffffffff); `'c` is the code of character
 * c. An argument with text left over after its number prints that number and sets the error
 * (`printf: 12abc: invalid number`, `invalid octal number`, `invalid hex number`).
 */
export function printfInteger(spec: string, conversion: string, arg: string): { value: string; parseError: boolean; parseErrMsg: string } {
  const { value, rest } = printfArgument(arg);
  let parseErrMsg = "";
  if (rest !== "") {
    // bash's sh_invalidnum looks at the argument's first two characters.
    const kind = /^0[0-9]/.test(arg) ? "invalid octal number" : arg.startsWith("0x") ? "invalid hex number" : "invalid number";
    parseErrMsg = `printf: ${arg}: ${kind}\n`;
  }
  const signed = conversion === "d" || conversion === "i";
  let n: bigint;
  if (signed) n = value > INT64_MAX ? INT64_MAX : value < INT64_MIN ? INT64_MIN : value;
  else n = value > UINT64_MAX || value < -UINT64_MAX ? UINT64_MAX : BigInt.asUintN(64, value);
  const m = /^%([-+ #0']*)(\d*)(?:\.(\d*))?[hlLqjzt]*[diouxX]$/.exec(spec);
  const flags = m?.[1] ?? "";
  const width = m?.[2] ? Number(m[2]) : 0;
  const precision = m?.[3] !== undefined ? Number(m[3] || "0") : -1;
  const negative = n < 0n;
  const magnitude = negative ? -n : n;
  let digits =
    conversion === "o" ? magnitude.toString(8) : conversion === "x" ? magnitude.toString(16) : conversion === "X" ? magnitude.toString(16).toUpperCase() : magnitude.toString(10);
  if (precision === 0 && magnitude === 0n) digits = "";
  if (precision > digits.length) digits = digits.padStart(precision, "0");
  let lead = "";
  if (signed) lead = negative ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
  else if (flags.includes("#")) {
    if (conversion === "o" && !digits.startsWith("0")) digits = `0${digits}`;
    else if ((conversion === "x" || conversion === "X") && magnitude !== 0n) lead = conversion === "x" ? "0x" : "0X";
  }
  let out = lead + digits;
  if (width > out.length) {
    if (flags.includes("-")) out = out.padEnd(width, " ");
    else if (flags.includes("0") && precision < 0) out = lead + digits.padStart(width - lead.length, "0");
    else out = out.padStart(width, " ");
  }
  return { value: out, parseError: parseErrMsg !== "", parseErrMsg };
}
