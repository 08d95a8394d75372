/**
 * The kept tail of command output (spec 02 §2, spec 03 §4.8): line
 * counting, the choice of which last lines to keep within a byte and line
 * budget, and a bounded window over a growing stream. Shared by the
 * runtime's long-output accounting and the exec tool's snapshots. Pure, no
 * imports.
 *
 * @module
 */

const NEWLINE = 10;

/** Counts lines the spec's way: `\n` count, plus one for a non-empty unterminated last line. */
export function countLines(newlines: number, totalBytes: number, lastByte: number | undefined): number {
  return newlines + (totalBytes > 0 && lastByte !== NEWLINE ? 1 : 0);
}

/** Number of `\n` bytes in `bytes[start..end)`. */
export function countNewlines(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let n = 0;
  for (let i = start; i < end; i++) if (bytes[i] === NEWLINE) n++;
  return n;
}

/**
 * The kept tail of a buffer that ends at the end of the stream: the last
 * `maxLines` lines within `maxBytes`, starting on a line start (or, when the
 * last line alone is longer than `maxBytes`, on a UTF-8 boundary with
 * `partialLine`). `startsAtLine` says whether `buf[0]` begins a line.
 */
export function keptTail(
  buf: Uint8Array,
  maxLines: number,
  maxBytes: number,
  startsAtLine: boolean,
): { start: number; partialLine: boolean } {
  const end = buf.length;
  // Start of the last `maxLines` lines (a trailing newline ends a line).
  let lineStart = 0;
  let seen = 0;
  const scanFrom = end > 0 && buf[end - 1] === NEWLINE ? end - 2 : end - 1;
  for (let i = scanFrom; i >= 0; i--) {
    if (buf[i] === NEWLINE) {
      seen++;
      if (seen === maxLines) {
        lineStart = i + 1;
        break;
      }
    }
  }
  if (lineStart === 0 && !startsAtLine) {
    // The window begins mid-line: the first whole line starts after its first newline.
    const nl = buf.indexOf(NEWLINE);
    lineStart = nl === -1 ? end : nl + 1;
  }
  if (end - lineStart <= maxBytes && lineStart < end) return { start: lineStart, partialLine: false };
  const cut = Math.max(lineStart, end - maxBytes);
  let p = cut;
  if (!(p === 0 && startsAtLine) && buf[p - 1] !== NEWLINE) {
    const nl = buf.indexOf(NEWLINE, p);
    p = nl === -1 ? end : nl + 1;
  }
  if (p < end) return { start: p, partialLine: false };
  // The last line alone is longer than maxBytes: keep its end, from a UTF-8 boundary.
  let q = end - maxBytes;
  if (q < 0) q = 0;
  while (q < end && (buf[q]! & 0xc0) === 0x80) q++;
  return { start: q, partialLine: true };
}

/** Where the kept tail of a {@link TailWindow} starts, and what it is. */
export interface KeptTail {
  /** Index into {@link TailWindow.held} where the kept bytes start. */
  start: number;
  /** 1-based number of the stream line the kept bytes start on. */
  firstLine: number;
  /** Lines in the whole stream. */
  totalLines: number;
  /** The kept bytes are the end of one line longer than `maxBytes`. */
  partialLine: boolean;
}

/**
 * A stream's counts and a bounded window of its last bytes. {@link push}
 * holds bytes; {@link trim} keeps memory within ~4 × maxBytes (dropping all
 * but the last 2 × maxBytes) while remembering enough to number lines;
 * {@link keep} picks the tail to show.
 */
export class TailWindow {
  #chunks: Uint8Array[] = [];
  #held = 0;
  #totalBytes = 0;
  #newlines = 0;
  #lastByte: number | undefined;
  /** Bytes dropped from the front by {@link trim}, and the newlines among them. */
  #droppedBytes = 0;
  #droppedNewlines = 0;
  #startsAtLine = true;

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Lines seen so far (see {@link countLines}). */
  get totalLines(): number {
    return countLines(this.#newlines, this.#totalBytes, this.#lastByte);
  }

  /** The held chunks, oldest first. */
  get chunks(): readonly Uint8Array[] {
    return this.#chunks;
  }

  /** Counts `bytes` without holding them. */
  count(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.#totalBytes += bytes.byteLength;
    this.#newlines += countNewlines(bytes);
    this.#lastByte = bytes[bytes.byteLength - 1];
  }

  /** Counts and holds `bytes`. */
  push(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.count(bytes);
    this.#chunks.push(bytes);
    this.#held += bytes.byteLength;
  }

  /** Once more than 4 × `maxBytes` are held, drops all but the last 2 × `maxBytes`. */
  trim(maxBytes: number): void {
    if (this.#held <= 4 * maxBytes) return;
    const all = this.held();
    const from = all.length - 2 * maxBytes;
    this.#droppedNewlines += countNewlines(all, 0, from);
    this.#droppedBytes += from;
    this.#startsAtLine = all[from - 1] === NEWLINE;
    this.#chunks = [all.slice(from)];
    this.#held = all.length - from;
  }

  /** The held bytes as one array (joined once, then kept joined). */
  held(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0]!;
    const out = new Uint8Array(this.#held);
    let at = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    this.#chunks = [out];
    return out;
  }

  /** The tail of {@link held} to keep: the last `maxLines` lines within `maxBytes` (see {@link keptTail}). */
  keep(maxLines: number, maxBytes: number): KeptTail {
    const all = this.held();
    const startsAtLine = this.#droppedBytes === 0 || this.#startsAtLine;
    const { start, partialLine } = keptTail(all, maxLines, maxBytes, startsAtLine);
    const firstLine = this.#droppedNewlines + countNewlines(all, 0, start) + 1;
    return { start, firstLine, totalLines: this.totalLines, partialLine };
  }
}
