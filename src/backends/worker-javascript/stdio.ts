/**
 * Per-stream output budget of one run of the JavaScript backend: how many
 * bytes of stdout and of stderr are journaled (each stream apart, so a flood
 * on one never starves the other), how many were dropped past the cap, and
 * the marker line that states it at the end of the stream.
 *
 * @module
 */
import { decodeUtf8 } from "../../util/bytes.js";

/** Bytes of stderr past `maxStdioBytes` the runner may use for its own failure message (16 KiB). */
export const STDIO_RESERVE_BYTES = 16 * 1024;

/**
 * Bytes of UTF-8 kept of a message the host writes to a run's stderr on the
 * isolate's word — an `evaluate` rejection's message, a replay attempt's
 * `diverged` finding — or from a failed journal write: 16,384 (as
 * {@link STDIO_RESERVE_BYTES}). A longer one is cut on a character boundary
 * and ends with `… [<n> more bytes cut]` (under 40 bytes more), so such a
 * message takes about the reserve whatever `maxStdioBytes` is.
 */
export const MAX_RUN_MESSAGE_BYTES = STDIO_RESERVE_BYTES;

const encoder = new TextEncoder();

/**
 * `text` cut to {@link MAX_RUN_MESSAGE_BYTES} bytes of UTF-8, never inside
 * a character, followed by `… [<n> more bytes cut]` when it was longer
 * (`n` in bytes); shorter text is returned as is.
 */
export function clipMessage(text: string): string {
  if (text.length * 3 <= MAX_RUN_MESSAGE_BYTES) return text;
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= MAX_RUN_MESSAGE_BYTES) return text;
  let end = MAX_RUN_MESSAGE_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not inside a character's bytes
  return `${decodeUtf8(bytes.subarray(0, end))}… [${bytes.byteLength - end} more bytes cut]`;
}

type Stream = "stdout" | "stderr";

interface StreamCount {
  /** Bytes accepted (journaled). */
  kept: number;
  /** Bytes the host cut past its own cap. */
  cut: number;
  /** The runner's running total of bytes it dropped past `maxStdioBytes`. */
  reported: number;
  /** Last byte accepted (10 = `\n`; also before any output). */
  last: number;
}

/**
 * Counts one run's output per stream. The isolate already cuts each stream
 * at `max` bytes and reports what it dropped; this is the host's own bound
 * (`max` + {@link STDIO_RESERVE_BYTES}), which code in the isolate cannot
 * talk its way past, and the source of the marker lines.
 */
export class StdioBudget {
  readonly #max: number;
  readonly #reserve: number;
  readonly #limit: string;
  readonly #streams: Record<Stream, StreamCount> = {
    stdout: { kept: 0, cut: 0, reported: 0, last: 10 },
    stderr: { kept: 0, cut: 0, reported: 0, last: 10 },
  };
  #marked = false;

  /**
   * @param max `maxStdioBytes`: bytes kept per stream.
   * @param options `reserve`: bytes past `max` accepted before the cut (default
   *   {@link STDIO_RESERVE_BYTES}; 0 when nothing reports its own drops, as
   *   for a container's output); `limit`: the limit's name in the marker line
   *   (default `"maxStdioBytes"`).
   */
  constructor(max: number, options: { reserve?: number; limit?: string } = {}) {
    this.#max = max;
    this.#reserve = options.reserve ?? STDIO_RESERVE_BYTES;
    this.#limit = options.limit ?? "maxStdioBytes";
  }

  /**
   * Takes a chunk of `stream`: returns the part to keep (all of it, a
   * prefix, or nothing once the stream is past `max` + the reserve).
   */
  accept(stream: Stream, bytes: Uint8Array): Uint8Array {
    const s = this.#streams[stream];
    const room = this.#max + this.#reserve - s.kept;
    if (bytes.byteLength > room) {
      s.cut += bytes.byteLength - Math.max(0, room);
      bytes = bytes.subarray(0, Math.max(0, room));
    }
    if (bytes.byteLength > 0) {
      s.kept += bytes.byteLength;
      s.last = bytes[bytes.byteLength - 1]!;
    }
    return bytes;
  }

  /**
   * Takes `bytes` bytes of `stream` known only by their count and last byte
   * (`last`; a replay attempt's recorded output, kept once already): counted
   * as {@link accept} counts a chunk of that size.
   */
  acceptCounted(stream: Stream, bytes: number, last: number): void {
    const s = this.#streams[stream];
    const room = Math.max(0, this.#max + this.#reserve - s.kept);
    if (bytes > room) s.cut += bytes - room;
    const kept = Math.min(bytes, room);
    if (kept > 0) {
      s.kept += kept;
      s.last = last;
    }
  }

  /** Records the runner's running total of bytes of `stream` it dropped (ignored unless a larger safe integer). */
  report(stream: Stream, total: unknown): void {
    const s = this.#streams[stream];
    if (typeof total === "number" && Number.isSafeInteger(total) && total > s.reported) s.reported = total;
  }

  /**
   * The marker line of each stream that lost bytes, once (later calls
   * return none): `[stdout truncated: <limit> (<max> bytes) reached;
   * <n> bytes dropped]`, on a line of its own.
   */
  markers(): { stream: Stream; text: string }[] {
    if (this.#marked) return [];
    this.#marked = true;
    const out: { stream: Stream; text: string }[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      const s = this.#streams[stream];
      const dropped = s.cut + s.reported;
      if (dropped === 0) continue;
      const lead = s.last === 10 ? "" : "\n";
      out.push({ stream, text: `${lead}[${stream} truncated: ${this.#limit} (${this.#max} bytes) reached; ${dropped} bytes dropped]\n` });
    }
    return out;
  }
}
