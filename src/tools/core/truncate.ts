/**
 * Shared truncation helpers for every tool: UTF-8 byte counting and
 * cutting, per-line truncation (read) and limit validation. Paging (ls,
 * find, grep) is `./paging.ts`.
 *
 * @module
 */
import { isPositiveInteger, positiveInteger } from "../../util/validate.js";
import { decodeUtf8 } from "../../util/bytes.js";
import { utf8ByteLength } from "../../util/utf8-escape.js";

export { decodeUtf8 };

/** Appended to a line cut by `lineTruncation` (counts toward read's `maxBytes`). */
export const TRUNCATION_MARKER = "... (truncated)";

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Number of UTF-8 bytes in `text`, without allocating (a lone surrogate counts 3, as U+FFFD). */
export function utf8Length(text: string): number {
  return utf8ByteLength(text);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * UTF-16 index of the first lone surrogate in `text` (a high half U+D800–U+DBFF
 * not followed by a low half, or a low half U+DC00–U+DFFF not preceded by a
 * high one), or `-1` when `text` is well-formed. UTF-8 cannot hold half a
 * character: encoding one writes U+FFFD (`ef bf bd`) in its place, so write and
 * edit refuse text that holds one.
 */
export function firstLoneSurrogate(text: string): number {
  return LONE_SURROGATE.exec(text)?.index ?? -1;
}

/** The UTF-16 unit at `index` of `text` as a JSON-style escape (`\uD83D`), for messages (the unit itself cannot be shown). */
export function unitEscape(text: string, index: number): string {
  return `\\u${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, "0")}`;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (text.length <= maxBytes / 3 || utf8Length(text) <= maxBytes) return { text, cut: false };
  const bytes = utf8(text);
  let end = maxBytes;
  while (end > 0 && isContinuation(bytes[end])) end--;
  return { text: decodeUtf8(bytes.subarray(0, end)), cut: true };
}

/**
 * A start of `text` (no half surrogate pair) whose JSON string — quotes and escapes included, as a tool result
 * carries it — is at most `maxBytes` UTF-8 bytes: `text` itself when it fits, else shortened in proportion to its
 * JSON size until it fits (so it may stop somewhat short of the longest such start; `""` at worst).
 */
export function startWithin(text: string, maxBytes: number): string {
  let end = Math.min(text.length, maxBytes);
  for (;;) {
    if (end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    const size = utf8Length(JSON.stringify(text.slice(0, end)));
    if (size <= maxBytes || end === 0) return text.slice(0, end);
    end = Math.min(end - 1, Math.floor((end * maxBytes) / size));
  }
}

/** How read shortens long lines: keep `bytes` UTF-8 bytes or `chars` code points, then add the marker. */
export type LineTruncation =
  | {
      /** UTF-8 bytes kept of a long line (never splitting a character); a positive safe integer. */
      bytes: number;
    }
  | {
      /** Code points kept of a long line; a positive safe integer. */
      chars: number;
    };

/**
 * Validates a {@link LineTruncation} at build time.
 * @throws TypeError `lineTruncation must be a positive safe integer`
 */
export function checkLineTruncation(value: LineTruncation | undefined): LineTruncation | undefined {
  if (value === undefined) return undefined;
  const amount = "bytes" in value ? value.bytes : (value as { chars?: number }).chars;
  if (!isPositiveInteger(amount)) throw new TypeError("lineTruncation must be a positive safe integer");
  return value;
}

/**
 * Renders one line for read. `kept` holds the line's first bytes (at most
 * the caller's keep cap); `fullLength` is the line's real byte length.
 * Returns the text, or `null` when the rendered line is certainly longer
 * than `keepCap` bytes (the caller treats that as "does not fit").
 */
export function renderLine(kept: Uint8Array, fullLength: number, truncation: LineTruncation | undefined): string | null {
  const clipped = fullLength > kept.byteLength;
  if (!truncation) return clipped ? null : decodeUtf8(kept);
  if ("bytes" in truncation) {
    const n = truncation.bytes;
    if (fullLength <= n) return clipped ? null : decodeUtf8(kept);
    if (kept.byteLength < n + 1 && clipped) return null;
    let cut = n;
    while (cut > 0 && cut > n - 3 && isContinuation(kept[cut])) cut--;
    return decodeUtf8(kept.subarray(0, cut)) + TRUNCATION_MARKER;
  }
  const n = (truncation as { chars: number }).chars;
  const text = decodeUtf8(clipped ? trimPartialTail(kept) : kept);
  let count = 0;
  let index = 0;
  for (const ch of text) {
    if (count === n) return text.slice(0, index) + TRUNCATION_MARKER;
    count++;
    index += ch.length;
  }
  return clipped ? null : text;
}

function trimPartialTail(bytes: Uint8Array): Uint8Array {
  let end = bytes.byteLength;
  let back = 0;
  while (end > 0 && back < 3 && isContinuation(bytes[end - 1])) {
    end--;
    back++;
  }
  if (end > 0 && bytes[end - 1]! >= 0xc0) return bytes.subarray(0, end - 1);
  return bytes;
}

/**
 * Validates a media limit at build time.
 * @throws TypeError `<name> must be a positive safe integer below Number.MAX_SAFE_INTEGER`
 */
export function checkMediaLimit(name: string, value: number): number {
  if (!isPositiveInteger(value) || value === Number.MAX_SAFE_INTEGER) {
    throw new TypeError(`${name} must be a positive safe integer below Number.MAX_SAFE_INTEGER`);
  }
  return value;
}

/**
 * Validates a byte or line cap at build time.
 * @throws TypeError `<tool>: <name> must be a positive integer.`
 */
export function checkPositive(tool: string, name: string, value: number): number {
  return positiveInteger(value, `${tool}: ${name}`);
}
