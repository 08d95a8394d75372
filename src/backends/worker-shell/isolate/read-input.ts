/**
 * What the `read`, `mapfile` and `readarray` builtins take from their input,
 * as bash 5.2 reads it in a UTF-8 locale: characters, whether the input is a
 * pipe, a redirected file, a here-string or a here-document.
 *
 * just-bash hands a command's stdin over as a byte string (one char per
 * byte, 0…255) and decodes it for each command (decodeBytesToUtf8); the
 * builtins never decoded it, so every line they read was Latin-1 text
 * (`echo é | while read l; do echo "$l"; done` wrote `c3 83 c2 a9`). The
 * input an open descriptor gives (`read -u 3`, `<&3`) is already text. These
 * functions read byte input one UTF-8 character at a time, a byte that is not
 * part of valid UTF-8 as its surrogate escape U+DC80+byte (written back as
 * that byte; src/util/utf8-escape.ts), and report how much they consumed in
 * the input's own units, so the rest is left for the next reader.
 *
 * scripts/gen-shell.mjs patches just-bash's builtins to call these (imported
 * as the namespace `__readInput`, entries marked `// SR`). Pure: it is
 * bundled into the shell's Dynamic Worker.
 *
 * @module
 */
import { utf8EscapeDecode } from "../../../util/utf8-escape.js";

/** Length of the valid UTF-8 sequence at `i` of byte string `s`, or 0 when the byte there starts none. */
function sequenceAt(s: string, i: number): number {
  const b = s.charCodeAt(i);
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    if (i + k >= s.length) return false;
    const c = s.charCodeAt(i + k);
    return c >= lo && c <= hi;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) return (b === 0xe0 ? cont(1, 0xa0) : b === 0xed ? cont(1, 0x80, 0x9f) : cont(1)) && cont(2) ? 3 : 0;
  if (b >= 0xf0 && b <= 0xf4) return (b === 0xf0 ? cont(1, 0x90) : b === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1)) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** The character at `i` of `input` and how many units it takes: a UTF-8 sequence (or one escaped byte) of a byte string, a code point of text. */
function charAt(input: string, i: number, bytes: boolean): [string, number] {
  if (bytes) {
    const n = sequenceAt(input, i);
    if (n === 0) return [String.fromCharCode(0xdc00 + (input.charCodeAt(i) & 0xff)), 1];
    if (n === 1) return [input[i]!, 1];
    return [utf8EscapeDecode(Uint8Array.from(input.slice(i, i + n), (c) => c.charCodeAt(0))), n];
  }
  const c = input.charCodeAt(i);
  const n = c >= 0xd800 && c <= 0xdbff && i + 1 < input.length && (input.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  return [input.slice(i, i + n), n];
}

/** What {@link readScan} read. */
export interface ReadScan {
  /** The characters read (backslashes kept as just-bash's caller expects them; see readScan). */
  value: string;
  /** How much of the input was consumed, in its own units (bytes of a byte string, UTF-16 units of text). */
  consumed: number;
  /** Whether the read was satisfied (the delimiter met, or -n/-N's count reached); false at the end of the input. */
  complete: boolean;
  /** Without -n/-N: the input ended before a delimiter. */
  end: boolean;
}

/**
 * One `read` from `input` (a byte string when `bytes`, else text), counting
 * characters as bash does in a UTF-8 locale: `-N exact` (when >= 0) takes
 * `exact` characters whatever they are; `-n nchars` (when >= 0) stops after
 * `nchars` characters or at the delimiter; otherwise up to the delimiter. Without `raw`
 * (`-r`), a backslash escapes the next character: backslash-newline is a line
 * continuation (dropped), backslash-delimiter keeps the delimiter; with -n
 * other escapes drop the backslash, else both are kept for the caller to
 * unescape after word splitting (just-bash's order). The delimiter is the
 * first character of `delimiter` (bash's `-d`; `""` is NUL).
 */
export function readScan(input: string, bytes: boolean, exact: number, nchars: number, delimiter: string, raw: boolean): ReadScan {
  const delim = delimiter === "" ? "\0" : String.fromCodePoint(delimiter.codePointAt(0)!);
  const len = input.length;
  let value = "";
  let i = 0;
  if (exact >= 0) {
    let count = 0;
    while (i < len && count < exact) {
      const [ch, n] = charAt(input, i, bytes);
      value += ch;
      i += n;
      count++;
    }
    return { value, consumed: i, complete: count >= exact, end: false };
  }
  if (nchars >= 0) {
    let count = 0;
    let consumed = 0;
    let found = false;
    while (i < len && count < nchars) {
      const [ch, n] = charAt(input, i, bytes);
      if (ch === delim) {
        consumed = i + n;
        found = true;
        break;
      }
      if (!raw && ch === "\\" && i + 1 < len) {
        const [next, m] = charAt(input, i + 1, bytes);
        i += 1 + m;
        consumed = i;
        if (next === delim && delim === "\n") continue;
        value += next;
        count++;
        continue;
      }
      value += ch;
      i += n;
      count++;
      consumed = i;
    }
    return { value, consumed, complete: count >= nchars || found, end: false };
  }
  while (i < len) {
    const [ch, n] = charAt(input, i, bytes);
    if (ch === delim) return { value, consumed: i + n, complete: true, end: false };
    if (!raw && ch === "\\" && i + 1 < len) {
      const [next, m] = charAt(input, i + 1, bytes);
      i += 1 + m;
      if (next === "\n") continue;
      value += next === delim ? next : ch + next;
      continue;
    }
    value += ch;
    i += n;
  }
  return { value, consumed: len, complete: false, end: true };
}

/**
 * The text of `mapfile`'s input: a byte string decoded as UTF-8 (each byte
 * that is not part of valid UTF-8 its surrogate escape), text as it is.
 */
export function inputText(input: string, bytes: boolean): string {
  if (!bytes || !input || !/[\x80-\xff]/.test(input)) return input;
  return utf8EscapeDecode(Uint8Array.from(input, (c) => c.charCodeAt(0) & 0xff));
}
