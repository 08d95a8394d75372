/**
 * Bytes written by escapes — printf's `\xHH` and `\NNN` (format, `%b`,
 * `find -printf`), `echo -e`, `$'…'` and awk string literals — as bash 5.2
 * and GNU write them: one byte each, whether or not the bytes form UTF-8.
 *
 * The shell's text is UTF-8 with "surrogateescape" (src/util/utf8-escape.ts):
 * a byte that is not part of valid UTF-8 is the lone surrogate U+DC00 + byte,
 * which just-bash's patched encoder writes back as that byte. just-bash made
 * such a byte the Latin-1 character of the same number, so `printf '\xc0'`
 * wrote `c3 80` and `printf '\x89PNG…' > a.png` a broken file.
 *
 * scripts/gen-shell.mjs patches just-bash's escape processors to call these
 * (imported as the namespace `__escapes`, entries marked `// SP`). Pure: it is
 * bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { utf8EscapeDecode } from "../../../util/utf8-escape.js";

/** Byte escapes: U+DC80…U+DCFF, each one byte 0x80…0xFF (not the low half of a surrogate pair). */
const BYTE_RUN = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]+/g;

/**
 * The text that stands for byte `value` (an escape's number; as C's
 * `(unsigned char)`, only its low 8 bits count, so `\777` is 0xFF): the
 * character itself below 0x80, else the lone surrogate U+DC00 + byte.
 */
export function byteChar(value: number): string {
  const byte = value & 0xff;
  return String.fromCharCode(byte < 0x80 ? byte : 0xdc00 + byte);
}

/** The text of `bytes` (numbers 0…255): valid UTF-8 as its characters, every other byte as {@link byteChar} gives it. */
export function bytesText(bytes: ArrayLike<number>): string {
  return utf8EscapeDecode(Uint8Array.from(bytes as ArrayLike<number>, (b) => b & 0xff));
}

/**
 * `text` with each run of byte escapes (U+DC80…U+DCFF) that forms valid
 * UTF-8 decoded to its characters, as the bytes would read: escapes written
 * one at a time (`\303\251`, `\xc3%s\xa9`) make one `é`, and bytes that form
 * no UTF-8 stay escapes. Text without escapes is returned as is.
 */
export function joinBytes(text: string): string {
  if (typeof text !== "string" || !/[\uDC80-\uDCFF]/.test(text)) return text;
  return text.replace(BYTE_RUN, (run) => {
    const bytes = new Uint8Array(run.length);
    for (let i = 0; i < run.length; i++) bytes[i] = run.charCodeAt(i) - 0xdc00;
    return utf8EscapeDecode(bytes);
  });
}

/**
 * The number bash's printf gives the character-code argument `'c` (or `"c`),
 * the character at `index` of `text`: its code point, or the byte itself for a
 * byte escape U+DC80…U+DCFF (bash prints 192 for `"'$'\xc0'`; the escape's
 * UTF-16 unit was 56512). 0 past the end.
 */
export function charCode(text: string, index: number): number {
  const code = text.codePointAt(index);
  if (code === undefined) return 0;
  return code >= 0xdc80 && code <= 0xdcff ? code - 0xdc00 : code;
}

/** printf's `%c`: the first byte of `text` (as bash 5.2 writes it: `%c` of `é` is c3), as {@link byteChar} gives it; "" for "". */
export function firstByte(text: string): string {
  if (text === "") return "";
  const code = text.charCodeAt(0);
  if (code < 0x80) return text[0]!;
  if (code >= 0xdc80 && code <= 0xdcff) return text[0]!;
  return byteChar(new TextEncoder().encode(String.fromCodePoint(text.codePointAt(0)!))[0]!);
}

/**
 * The character a GNU sed escape at `i` of `text` (a backslash there) makes,
 * and its length: `\dNNN` (3 decimal digits), `\oNNN` (1-3 octal), `\xHH` (1-2
 * hex), `\cX` (control-X), each one byte as {@link byteChar}; null for any
 * other escape or a number with no digits (sed then keeps the letter).
 */
function sedNumberEscape(text: string, i: number): [string, number] | null {
  const kind = text[i + 1];
  const digits =
    kind === "d" ? /^[0-9]{1,3}/.exec(text.slice(i + 2, i + 5)) : kind === "o" ? /^[0-7]{1,3}/.exec(text.slice(i + 2, i + 5)) : kind === "x" ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2, i + 4)) : null;
  if (digits) return [byteChar(parseInt(digits[0], kind === "d" ? 10 : kind === "o" ? 8 : 16)), 2 + digits[0].length];
  if (kind === "c" && i + 2 < text.length) return [String.fromCharCode(text[i + 2]!.toUpperCase().charCodeAt(0) ^ 0x40), 3];
  return null;
}

/**
 * A sed regular expression (`s/RE/…/`, an address `/RE/`) with GNU sed 4.9's
 * numeric escapes (`\xHH`, `\oNNN`, `\dNNN`, `\cX`) replaced by the character
 * each makes (a byte >= 0x80 as its escape, so `s/\xc0/X/` matches byte c0;
 * a backslash made so stays literal). Everything else is left for just-bash's
 * BRE/ERE conversion.
 */
export function sedPattern(pattern: string): string {
  if (typeof pattern !== "string" || !/\\[doxc]/.test(pattern)) return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "\\" || i + 1 >= pattern.length) {
      out += pattern[i];
      continue;
    }
    const made = sedNumberEscape(pattern, i);
    if (made === null) {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    out += made[0] === "\\" ? "\\\\" : made[0];
    i += made[1] - 1;
  }
  return joinBytes(out);
}

/**
 * A sed replacement (`s/…/REPL/`) with GNU sed 4.9's escapes `\a` `\f` `\v`
 * and the numeric ones (`\xHH`, `\oNNN`, `\dNNN`, `\cX`) made into their
 * characters (bytes >= 0x80 as escapes; runs forming UTF-8 joined); a `&` or
 * backslash made so is literal (`\x26` writes `&`). just-bash kept only the
 * letter (`\x41` wrote `x41`).
 */
export function sedReplacement(replacement: string): string {
  if (typeof replacement !== "string" || !/\\[doxcafv]/.test(replacement)) return replacement;
  const simple: Record<string, string> = { a: "\x07", f: "\f", v: "\v" };
  let out = "";
  for (let i = 0; i < replacement.length; i++) {
    if (replacement[i] !== "\\" || i + 1 >= replacement.length) {
      out += replacement[i];
      continue;
    }
    const next = replacement[i + 1]!;
    const made = simple[next] !== undefined ? ([simple[next], 2] as [string, number]) : sedNumberEscape(replacement, i);
    if (made === null) {
      out += replacement.slice(i, i + 2);
      i++;
      continue;
    }
    out += made[0] === "\\" || made[0] === "&" ? `\\${made[0]}` : made[0];
    i += made[1] - 1;
  }
  return joinBytes(out);
}

/**
 * The character a tr SET escape at `i` of `set` (a backslash there) stands
 * for and its length, as GNU coreutils 9.1: `\NNN` (1-3 octal digits, a
 * value past 0377 taking two) is that byte ({@link byteChar}), `\\ \a \b \f
 * \n \r \t \v` their characters, any other `\c` is `c`; a trailing backslash
 * is itself.
 */
export function trEscape(set: string, i: number): [string, number] {
  if (i + 1 >= set.length) return ["\\", 1];
  const octal = /^[0-7]{1,3}/.exec(set.slice(i + 1, i + 4));
  if (octal) {
    const digits = octal[0].length === 3 && parseInt(octal[0], 8) > 0o377 ? octal[0].slice(0, 2) : octal[0];
    return [byteChar(parseInt(digits, 8)), 1 + digits.length];
  }
  const c = set[i + 1]!;
  const named: Record<string, string> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };
  return [named[c] ?? c, 2];
}

/**
 * tr's range `lo-hi` (each one character, as {@link trEscape} or the set
 * gives it): every character from `lo` to `hi`, none when `hi` is before
 * `lo`. When an end is a byte escape (`\200-\377`, `\001-\377`) the range
 * runs over byte values, each as {@link byteChar} makes it.
 */
export function trRange(lo: string, hi: string): string {
  const a = lo.charCodeAt(0);
  const b = hi.charCodeAt(0);
  const isByte = (c: number): boolean => c >= 0xdc80 && c <= 0xdcff;
  let out = "";
  if (isByte(a) || isByte(b)) {
    const from = isByte(a) ? a - 0xdc00 : a;
    const to = isByte(b) ? b - 0xdc00 : b;
    for (let c = from; c <= to && c <= 0xff; c++) out += byteChar(c);
    return out;
  }
  for (let c = a; c <= b; c++) out += String.fromCharCode(c);
  return out;
}
