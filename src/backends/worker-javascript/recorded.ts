/**
 * The output earlier attempts of a replay run journaled (spec 02 §5), which
 * a resumed attempt prints again and must print the same: compared with the
 * journal as the attempt prints it, through a cursor per stream that holds
 * one journaled row (at most one output window, `FLUSH_BYTES`) at a time —
 * never the run's whole output, whatever its size.
 *
 * @module
 */
import type { ExecJournal } from "./journal.js";

type Stream = "stdout" | "stderr";

/** Where a stream's comparison is: the row read last and where it starts in the stream. */
interface Cursor {
  /** Seq of the row in {@link row} (0: none read yet). */
  seq: number;
  /** Offset in the stream (bytes) of the row's first byte. */
  start: number;
  /** The row's bytes (empty before the first). */
  row: Uint8Array;
}

/** A replay run's recorded output, per stream, read from its journal a row at a time. */
export class RecordedOutput {
  /** Bytes recorded per stream. */
  readonly bytes: Record<Stream, number>;
  /** Last recorded byte per stream (10, `\n`, when none). */
  readonly last: Record<Stream, number>;
  readonly #journal: ExecJournal;
  readonly #id: string;
  readonly #upTo: number;
  readonly #cursors: Record<Stream, Cursor> = {
    stdout: { seq: 0, start: 0, row: new Uint8Array(0) },
    stderr: { seq: 0, start: 0, row: new Uint8Array(0) },
  };

  /**
   * The output run `id` journaled in events up to seq `upTo` (its last
   * event when the attempt starts). Reads only sizes: no output is loaded
   * until {@link differs} needs it.
   *
   * @throws the journal's error when the sizes cannot be read.
   */
  constructor(journal: ExecJournal, id: string, upTo: number) {
    this.#journal = journal;
    this.#id = id;
    this.#upTo = upTo;
    const stdout = journal.outputSize(id, "stdout", upTo);
    const stderr = journal.outputSize(id, "stderr", upTo);
    this.bytes = { stdout: stdout.bytes, stderr: stderr.bytes };
    this.last = { stdout: stdout.last, stderr: stderr.last };
  }

  /**
   * Compares `bytes` with the recorded bytes of `stream` from offset `at`
   * on. Offsets only move forward: `at` is where the previous comparison of
   * the stream ended (0 at first), and `at + bytes.byteLength` is at most
   * {@link bytes}`[stream]`.
   *
   * @returns the index in `bytes` of the first byte that differs, or -1
   *   when they are the same.
   * @throws the journal's error when a row cannot be read; Error when the
   *   journal holds fewer bytes than it counted when this was made.
   */
  differs(stream: Stream, at: number, bytes: Uint8Array): number {
    const cursor = this.#cursors[stream];
    for (let i = 0; i < bytes.byteLength; ) {
      const pos = at + i;
      while (pos >= cursor.start + cursor.row.byteLength) {
        const next = this.#journal.nextOutput(this.#id, stream, cursor.seq, this.#upTo);
        if (!next) throw new Error(`the journal holds fewer than the ${this.bytes[stream]} bytes of ${stream} it recorded`);
        cursor.start += cursor.row.byteLength;
        cursor.seq = next.seq;
        cursor.row = next.data;
      }
      const off = pos - cursor.start;
      const n = Math.min(bytes.byteLength - i, cursor.row.byteLength - off);
      for (let k = 0; k < n; k++) if (bytes[i + k] !== cursor.row[off + k]) return i + k;
      i += n;
    }
    return -1;
  }
}
