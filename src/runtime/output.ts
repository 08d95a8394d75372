/**
 * Long output (spec 02 §2): per-stream accounting, the kept tail, and the
 * full-output file. Within the limits a stream is kept whole and no file is
 * written. Once it goes over (bytes > maxBytes or lines > maxLines) every
 * byte of it, from the start, is streamed to
 * `<dir>/<backend>.<id>.<stream>.log` while memory holds only a tail window
 * of at most ~4 × maxBytes.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../fs/types.js";
import type { TruncatedOutput } from "./types.js";

/** Effective limits of one run's output, or `false` to keep output whole. */
export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
  dir: string;
  keep: number;
}

const NEWLINE = 10;
/** Bytes the file sink may queue before the producer waits for the write to catch up. */
const SINK_HIGH_WATER_BYTES = 1 << 20;

/** Counts lines the spec's way: `\n` count, plus one for a non-empty unterminated last line. */
export function countLines(newlines: number, totalBytes: number, lastByte: number | undefined): number {
  return newlines + (totalBytes > 0 && lastByte !== NEWLINE ? 1 : 0);
}

function countNewlines(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let n = 0;
  for (let i = start; i < end; i++) if (bytes[i] === NEWLINE) n++;
  return n;
}

function concat(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const size = total ?? chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Encodes one path component of an output file name: `encodeURIComponent`, `.` → `%2E`. */
export function encodeOutputName(value: string): string {
  return encodeURIComponent(value).replace(/\./g, "%2E");
}

/** The full-output file path of one stream (spec 02 §2). */
export function outputPath(dir: string, backend: string, id: string, stream: "stdout" | "stderr"): string {
  return `${dir}/${encodeOutputName(backend)}.${encodeOutputName(id)}.${stream}.log`;
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
  while (q < end && (buf[q] & 0xc0) === 0x80) q++;
  return { start: q, partialLine: true };
}

/**
 * Streams bytes into a Workspace file with backpressure. Failures are
 * recorded, never thrown to the producer.
 */
class FileSink {
  readonly path: string;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #waiters: (() => void)[] = [];
  #queued = 0;
  #done: Promise<void>;
  error: string | undefined;

  constructor(fs: WorkspaceFilesystem, dir: string, path: string) {
    this.path = path;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => {
          this.#queued = 0;
          this.#wake();
        },
        cancel: () => this.#wake(),
      },
      { highWaterMark: 0 },
    );
    this.#done = (async () => {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path, stream);
    })().catch((err: unknown) => {
      this.error = err instanceof Error ? err.message : String(err);
      this.#wake();
      stream.cancel().catch(() => {});
    });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.error !== undefined || bytes.byteLength === 0) return;
    try {
      this.#controller.enqueue(bytes);
    } catch {
      return;
    }
    this.#queued += bytes.byteLength;
    if (this.#queued >= SINK_HIGH_WATER_BYTES) {
      await new Promise<void>((resolve) => {
        if (this.error !== undefined) resolve();
        else this.#waiters.push(resolve);
      });
    }
  }

  async close(): Promise<void> {
    try {
      this.#controller.close();
    } catch {
      /* already closed or errored */
    }
    await this.#done;
  }

  abort(): void {
    try {
      this.#controller.error(new Error("output spooling aborted"));
    } catch {
      /* already closed */
    }
  }
}

/**
 * One output stream of a run: counts it, keeps it whole while it is within
 * the limits, then spools it to a file and keeps a bounded tail.
 */
export class OutputAccumulator {
  readonly #limits: OutputLimits | false;
  readonly #fs: WorkspaceFilesystem;
  readonly #path: string | undefined;
  readonly #keep: boolean;
  #chunks: Uint8Array[] = [];
  #held = 0;
  #totalBytes = 0;
  #newlines = 0;
  #lastByte: number | undefined;
  /** Bytes before the first held chunk (once spooling) and newlines in them. */
  #droppedBytes = 0;
  #droppedNewlines = 0;
  #windowStartsAtLine = true;
  #sink: FileSink | undefined;

  /**
   * @param keep With `limits === false`, whether to hold the stream at all
   *   (`false` for a handle consumed as a stream: only counts are kept).
   */
  constructor(fs: WorkspaceFilesystem, limits: OutputLimits | false, path: string | undefined, keep = true) {
    this.#keep = keep || limits !== false;
    this.#fs = fs;
    this.#limits = limits;
    this.#path = path;
  }

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Adds bytes; waits while the full-output file catches up. */
  async push(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength === 0) return;
    this.#totalBytes += bytes.byteLength;
    this.#newlines += countNewlines(bytes);
    this.#lastByte = bytes[bytes.byteLength - 1];
    if (!this.#keep) return;
    this.#chunks.push(bytes);
    this.#held += bytes.byteLength;
    const limits = this.#limits;
    if (limits === false || this.#path === undefined) return;
    if (this.#sink === undefined) {
      const lines = countLines(this.#newlines, this.#totalBytes, this.#lastByte);
      if (this.#totalBytes <= limits.maxBytes && lines <= limits.maxLines) return;
      const dir = limits.dir;
      this.#sink = new FileSink(this.#fs, dir, this.#path);
      for (const chunk of this.#chunks) await this.#sink.write(chunk);
    } else {
      await this.#sink.write(bytes);
    }
    this.#trim(limits.maxBytes);
  }

  #trim(maxBytes: number): void {
    if (this.#held <= 4 * maxBytes) return;
    const all = concat(this.#chunks, this.#held);
    const keepFrom = all.length - 2 * maxBytes;
    this.#droppedNewlines += countNewlines(all, 0, keepFrom);
    this.#droppedBytes += keepFrom;
    this.#windowStartsAtLine = all[keepFrom - 1] === NEWLINE;
    this.#chunks = [all.slice(keepFrom)];
    this.#held = all.length - keepFrom;
  }

  /**
   * Ends the stream: returns the whole stream, or its kept tail plus the
   * truncation record when it went over the limits.
   */
  async finish(): Promise<{ bytes: Uint8Array; truncated?: TruncatedOutput }> {
    const buf = concat(this.#chunks, this.#held);
    const limits = this.#limits;
    if (this.#sink === undefined || limits === false) return { bytes: buf };
    await this.#sink.close();
    const startsAtLine = this.#droppedBytes === 0 || this.#windowStartsAtLine;
    const { start, partialLine } = keptTail(buf, limits.maxLines, limits.maxBytes, startsAtLine);
    const firstLine = this.#droppedNewlines + countNewlines(buf, 0, start) + 1;
    const totalLines = countLines(this.#newlines, this.#totalBytes, this.#lastByte);
    const common = { totalBytes: this.#totalBytes, totalLines, firstLine, partialLine };
    const truncated: TruncatedOutput =
      this.#sink.error === undefined
        ? { status: "saved", path: this.#sink.path, ...common }
        : {
            status: "not-saved",
            reason: `Could not save command output to ${this.#sink.path}: ${this.#sink.error}`,
            ...common,
          };
    return { bytes: buf.slice(start), truncated };
  }

  /** Stops writing the file (the run's handle was abandoned). */
  abort(): void {
    this.#sink?.abort();
  }

  /** The saved path, when spooling started. */
  get savedPath(): string | undefined {
    return this.#sink !== undefined && this.#sink.error === undefined ? this.#sink.path : undefined;
  }
}

/**
 * Keeps the newest `keep` output logs in `dir` by mtime; the file just saved
 * always survives. Other files are never touched; errors are ignored.
 */
export async function pruneOutputDir(fs: WorkspaceFilesystem, dir: string, keep: number, saved: readonly string[]): Promise<void> {
  try {
    const entries = await fs.readdir(dir);
    const logs = entries
      .filter((e) => e.isFile && (e.name.endsWith(".stdout.log") || e.name.endsWith(".stderr.log")))
      .map((e) => ({ path: `${dir}/${e.name}`, mtime: e.mtime }))
      .sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? 1 : -1));
    const keepSet = new Set<string>(saved);
    for (const log of logs) {
      if (keepSet.size >= Math.max(keep, saved.length)) break;
      keepSet.add(log.path);
    }
    for (const log of logs) {
      if (!keepSet.has(log.path)) await fs.rm(log.path, { force: true }).catch(() => {});
    }
  } catch {
    /* pruning errors are ignored */
  }
}
