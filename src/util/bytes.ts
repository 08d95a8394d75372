/**
 * Byte primitives: joining chunks, reading a stream, and base64. Pure, no imports; `btoa` and
 * `atob` are globals in Workers and Node alike.
 *
 * @module
 */

/**
 * The chunks as one array. One chunk is returned as is (no copy); otherwise
 * a new array of `total` bytes (default: the sum of the chunks' lengths).
 */
export function concatBytes(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total ?? chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Every byte of `stream`, in one array ({@link concatBytes}: a lone chunk is
 * returned as is). The reader's lock is released when done or on error.
 */
export async function readStreamBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  return concatBytes(chunks, total);
}

/** Characters handed to `String.fromCharCode` at once (below every engine's argument limit). */
const BASE64_SLICE = 0x8000;

/** Standard base64 (with padding) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.byteLength; i += BASE64_SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_SLICE));
  }
  return btoa(binary);
}

/**
 * The bytes of standard base64 `text`.
 * @throws DOMException `InvalidCharacterError` (from `atob`) for text that is not base64.
 */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The bytes as lowercase hexadecimal, two digits per byte. */
export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  let out = "";
  for (const byte of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** The SHA-256 of `bytes` (Web Crypto) as 64 lowercase hex digits. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/**
 * A new UTF-8 decoder that keeps a leading byte order mark (U+FEFF stays in
 * the text, as Node's `fs.readFile(path, "utf8")` and `git` keep it) and
 * decodes each invalid sequence to U+FFFD (WHATWG Encoding: `fatal: false`,
 * `ignoreBOM: true`). One per stream when decoding with `{ stream: true }`,
 * which carries a cut character over to the next call.
 */
export function utf8Decoder(): TextDecoder {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
}

const shared = utf8Decoder();

/**
 * `bytes` as text, as {@link utf8Decoder} decodes them (BOM kept, invalid
 * sequences U+FFFD), in one call: no state is carried between calls.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return shared.decode(bytes);
}
