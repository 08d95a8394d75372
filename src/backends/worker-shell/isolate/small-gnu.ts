/**
 * Small GNU coreutils 9.1 behaviours of the shell's seq and base64 (issue 20, twenty-seventh run, fixer SM).
 * scripts/gen-shell.mjs patches just-bash to call these, imported as the namespace `__smallGnu` (entries marked
 * `// SM`). Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

// ---------------------------------------------------------------- seq

/** An operand as GNU seq's scan_arg sees it: printed width and decimal places (`null` when GNU prints `%Lg`). */
interface SeqOperand {
  width: number;
  precision: number | null;
}

/** GNU seq's scan_arg: the width and precision an operand's text asks for (`+` and leading blanks not counted). */
function scanOperand(text: string): SeqOperand {
  const arg = text.replace(/^[\s+]+/, "");
  const point = arg.indexOf(".");
  let precision: number | null = point < 0 && !arg.includes("p") ? 0 : null;
  let width = 0;
  if (!/[xX]/.test(arg) && Number.isFinite(Number.parseFloat(arg))) {
    let fraction = 0;
    width = arg.length;
    if (point >= 0) {
      const rest = arg.slice(point + 1);
      const e = rest.search(/[eE]/);
      fraction = e < 0 ? rest.length : e;
      precision = fraction;
      width += fraction === 0 ? -1 : point === 0 || !/[0-9]/.test(arg[point - 1]!) ? 1 : 0;
    }
    let e = arg.indexOf("e");
    if (e < 0) e = arg.indexOf("E");
    if (e >= 0) {
      let exponent = Number.parseInt(arg.slice(e + 1), 10) || 0;
      const p = precision ?? 0;
      precision = p + (exponent < 0 ? -exponent : -Math.min(p, exponent));
      width -= arg.length - e;
      if (exponent < 0) {
        if (point >= 0) {
          if (e === point + 1) width++;
        } else width++;
        exponent = -exponent;
      } else {
        if (point >= 0 && precision === 0 && fraction) width--;
        exponent = -Math.min(precision, exponent);
      }
      width += exponent;
    }
  }
  return { width, precision };
}

/** FIRST, INCREMENT and LAST of seq's operands (1, 1 by default), as GNU scans them. */
function seqOperands(operands: readonly string[]): [SeqOperand, SeqOperand, SeqOperand] {
  const one = { width: 1, precision: 0 };
  if (operands.length === 1) return [one, one, scanOperand(operands[0]!)];
  if (operands.length === 2) return [scanOperand(operands[0]!), one, scanOperand(operands[1]!)];
  return [scanOperand(operands[0]!), scanOperand(operands[1]!), scanOperand(operands[2]!)];
}

/**
 * The decimal places GNU seq prints without -f: the most of FIRST's and INCREMENT's (LAST's only sets the width);
 * `null` when GNU falls back to `%Lg` (a hexadecimal operand), where just-bash's own count is kept.
 */
export function seqPrecision(operands: readonly string[]): number | null {
  const [first, step, last] = seqOperands(operands);
  if (first.precision === null || step.precision === null || last.precision === null) return null;
  return Math.max(first.precision, step.precision);
}

/**
 * The width `seq -w` pads every number to, sign included (GNU's get_default_format: the wider of FIRST and LAST at
 * the printed precision), or the widest of the numbers `printed` when GNU has no width (`%Lg`).
 */
export function seqWidth(operands: readonly string[], printed: readonly string[]): number {
  const [first, step, last] = seqOperands(operands);
  if (first.precision === null || step.precision === null || last.precision === null) {
    return Math.max(0, ...printed.map((n) => n.length));
  }
  const prec = Math.max(first.precision, step.precision);
  let firstWidth = first.width + (prec - first.precision);
  let lastWidth = last.width + (prec - last.precision);
  if (last.precision && prec === 0) lastWidth--;
  if (last.precision === 0 && prec) lastWidth++;
  if (first.precision === 0 && prec) firstWidth++;
  return Math.max(firstWidth, lastWidth);
}

/** `number` zero-padded to `width` characters after its sign, as printf's `%0*.*Lf`. */
export function seqPad(number: string, width: number): string {
  const negative = number.startsWith("-");
  const digits = negative ? number.slice(1) : number;
  return negative ? `-${digits.padStart(width - 1, "0")}` : digits.padStart(width, "0");
}

// ---------------------------------------------------------------- base64

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/** What just-bash's base64 returns. */
interface Result {
  stdout: string;
  stderr: string;
  exitCode: number;
  stdoutEncoding?: "binary";
}

/**
 * `base64 -d` as GNU coreutils 9.1 (gnulib's base64_decode_ctx): newlines are skipped, every other byte outside the
 * alphabet is invalid unless `ignoreGarbage` (-i) drops it (`=` kept); input is decoded by groups of four, `=` only
 * ending a group. The bytes decoded before an invalid or incomplete group are written, then `base64: invalid input`,
 * status 1. `checkOutput` is just-bash's output-size limit check.
 */
export function base64Decode(data: Uint8Array, ignoreGarbage: boolean, checkOutput: (size: number) => void): Result {
  let text = "";
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    if (c === "\n") continue;
    if (ignoreGarbage && !VALUE.has(c) && c !== "=") continue;
    text += c;
  }
  checkOutput(Math.floor(text.length / 4) * 3 + 2);
  let out = "";
  let ok = true;
  for (let at = 0; at < text.length && ok; at += 4) {
    const group = text.slice(at, at + 4);
    ok = decodeGroup(group, (byte) => (out += String.fromCharCode(byte)));
  }
  return ok
    ? { stdout: out, stderr: "", exitCode: 0, stdoutEncoding: "binary" }
    : { stdout: out, stderr: "base64: invalid input\n", exitCode: 1, stdoutEncoding: "binary" };
}

/** gnulib's decode_4: the bytes of one group of (up to) four characters, written until one is wrong; `false` then. */
function decodeGroup(group: string, write: (byte: number) => void): boolean {
  const [a, b, c, d] = [...group].map((ch) => VALUE.get(ch));
  if (group.length < 2 || a === undefined || b === undefined) return false;
  write(((a << 2) | (b >> 4)) & 0xff);
  if (group.length === 2) return false;
  if (group[2] === "=") return group.length === 4 && group[3] === "=";
  if (c === undefined) return false;
  write(((b << 4) & 0xf0) | (c >> 2));
  if (group.length === 3) return false;
  if (group[3] === "=") return true;
  if (d === undefined) return false;
  write(((c << 6) & 0xc0) | d);
  return true;
}

// ---------------------------------------------------------------- unexpand

/**
 * GNU's get_next_tab_column (expand-common.c): the tab stop after `column` — multiples of a single size, else the
 * next stop of the list; `null` past a list's last stop. `at` is the list position, kept across a line.
 */
function nextTabColumn(column: number, stops: readonly number[], at: { index: number }): number | null {
  if (stops.length === 1) return column + (stops[0]! - (column % stops[0]!));
  for (; at.index < stops.length; at.index++) if (column < stops[at.index]!) return stops[at.index]!;
  return null;
}

/**
 * One line (without its newline) as GNU unexpand 9.1's loop converts it: blanks reaching a tab stop become a tab,
 * a single blank after a non-blank stays a blank unless more follow it, a backspace steps back a column, nothing
 * is converted past a list's last stop, and without `all` (-a, or any -t) only the leading blanks are.
 */
export function unexpandLine(line: string, stops: readonly number[], all: boolean): string {
  let out = "";
  let column = 0;
  let nextTab = 0;
  const at = { index: 0 };
  let oneBlankBeforeTabStop = false;
  let prevBlank = true;
  let convert = true;
  let pending = "";
  for (let i = 0; i <= line.length; i++) {
    let c = i < line.length ? line[i]! : null; // null: the end of the line, flushed like a non-blank
    if (convert) {
      const blank = c === " " || c === "\t";
      if (blank) {
        const next = nextTabColumn(column, stops, at);
        if (next === null) convert = false;
        else {
          nextTab = next;
          if (c === "\t") {
            column = nextTab;
            if (pending) pending = `\t${pending.slice(1)}`;
          } else {
            column++;
            if (!(prevBlank && column === nextTab)) {
              if (column === nextTab) oneBlankBeforeTabStop = true;
              pending += c;
              prevBlank = true;
              continue;
            }
            pending = `\t${pending.slice(1)}`;
            c = "\t";
          }
          pending = oneBlankBeforeTabStop ? pending.slice(0, 1) : "";
        }
      } else if (c === "\b") {
        column -= column ? 1 : 0;
        nextTab = column;
        at.index -= at.index ? 1 : 0;
      } else column++;
      if (pending) {
        if (pending.length > 1 && oneBlankBeforeTabStop) pending = `\t${pending.slice(1)}`;
        out += pending;
        pending = "";
        oneBlankBeforeTabStop = false;
      }
      prevBlank = blank;
      convert &&= all || blank;
    }
    if (c !== null) out += c;
  }
  return out;
}
