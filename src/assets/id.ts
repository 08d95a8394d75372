/**
 * Object ids: 16 random bytes as lowercase Crockford base32, 26 characters
 * (spec 04 §1.4).
 *
 * @module
 */

/** Lowercase Crockford base32 alphabet (no `i`, `l`, `o`, `u`). */
export const CROCKFORD_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * Encodes bytes as lowercase Crockford base32: 5-bit groups, most significant
 * bit first, the last partial group zero-padded on the right, no `=` padding.
 *
 * @example
 * crockfordBase32(Uint8Array.from({ length: 16 }, (_, i) => i)) // "000g40r40m30e209185gr38e1w"
 */
export function crockfordBase32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD_ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += CROCKFORD_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** A fresh object id: 16 bytes from `crypto.getRandomValues`, 26 characters. */
export function newAssetId(): string {
  return crockfordBase32(crypto.getRandomValues(new Uint8Array(16)));
}
