/**
 * UTF-8 with "surrogateescape" (as Python's `surrogateescape` error handler):
 * each byte that is not part of valid UTF-8 decodes to the lone surrogate
 * U+DC80…U+DCFF (U+DC00 + the byte), and encoding turns each such lone
 * surrogate back into that byte, so any byte sequence survives a round trip
 * through a JS string. Valid UTF-8 decodes and encodes exactly as
 * `TextDecoder`/`TextEncoder` do, byte for byte (a real U+FFFD stays
 * `ef bf bd`).
 *
 * One implementation shared by the shell's Workspace fs adapter
 * (src/backends/worker-shell/fs-adapter.ts, text reads and writes) and
 * just-bash's own text encoder/stdin decoder, which scripts/gen-shell.mjs
 * patches to call these. Pure, no imports: it is bundled into the shell's
 * Dynamic Worker.
 *
 * @module
 */

const encoder = new TextEncoder();
/** Keeps a leading BOM (as Node's `fs.readFile(…, "utf8")` does). */
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Length of the valid UTF-8 sequence starting at `i` of `bytes`, or 0 when the byte there starts none. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const ok = b === 0xe0 ? cont(1, 0xa0) : b === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return ok && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const ok = b === 0xf0 ? cont(1, 0x90) : b === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return ok && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * The text of UTF-8 `bytes`, each byte that is not part of valid UTF-8 as
 * the lone surrogate U+DC80…U+DCFF (U+DC00 + the byte), which
 * {@link utf8EscapeEncode} turns back into that byte. A leading BOM is kept
 * (as U+FEFF). Never throws.
 */
export function utf8EscapeDecode(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    /* not UTF-8 throughout: escape the bytes that are not */
  }
  let out = "";
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = utf8SequenceAt(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    if (start < i) out += decoder.decode(bytes.subarray(start, i));
    out += String.fromCharCode(0xdc00 + bytes[i]!);
    start = ++i;
  }
  if (start < bytes.length) out += decoder.decode(bytes.subarray(start));
  return out;
}

/**
 * The UTF-8 bytes of `text`, each lone surrogate U+DC80…U+DCFF (see
 * {@link utf8EscapeDecode}) as the one byte 0x80…0xFF it stands for. Other
 * lone surrogates become U+FFFD (`ef bf bd`), as `TextEncoder` writes them.
 */
export function utf8EscapeEncode(text: string): Uint8Array {
  if (!/[\uDC80-\uDCFF]/.test(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let total = 0;
  let start = 0;
  const push = (part: Uint8Array): void => {
    parts.push(part);
    total += part.byteLength;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (prev >= 0xd800 && prev <= 0xdbff) continue; // the low half of a pair
    if (start < i) push(encoder.encode(text.slice(start, i)));
    push(Uint8Array.of(c - 0xdc00));
    start = i + 1;
  }
  if (start < text.length) push(encoder.encode(text.slice(start)));
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * The number of UTF-8 bytes `text` encodes to, without allocating: a
 * surrogate pair is 4 bytes, a lone surrogate 3 (U+FFFD, as `TextEncoder`
 * writes it) — or, with `escapes`, a lone U+DC80…U+DCFF the one byte it
 * stands for, as {@link utf8EscapeEncode} writes it.
 */
export function utf8ByteLength(text: string, escapes = false): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else if (escapes && c >= 0xdc80 && c <= 0xdcff) n += 1;
    else n += 3;
  }
  return n;
}

/** The length in bytes of {@link utf8EscapeEncode}`(text)`, without building it. */
export function utf8EscapeByteLength(text: string): number {
  return utf8ByteLength(text, true);
}
