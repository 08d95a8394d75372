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
