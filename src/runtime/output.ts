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
import { MAX_NAME_LENGTH, type MaxNameLengthOption } from "../fs/options.js";
import type { ReaddirOptions, WorkspaceFilesystem } from "../fs/types.js";
import { TailWindow } from "../util/tail.js";
import type { TruncatedOutput } from "./types.js";

/** Effective limits of one run's output, or `false` to keep output whole. */
export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
  dir: string;
  keep: number;
}

/** Bytes the file sink may queue before the producer waits for the write to catch up. */
const SINK_HIGH_WATER_BYTES = 1 << 20;

/** Encodes one path component of an output file name: `encodeURIComponent`, `.` → `%2E`. */
export function encodeOutputName(value: string): string {
  return encodeURIComponent(value).replace(/\./g, "%2E");
}

/** The full-output file path of one stream (spec 02 §2). */
export function outputPath(dir: string, backend: string, id: string, stream: "stdout" | "stderr"): string {
  return `${dir}/${encodeOutputName(backend)}.${encodeOutputName(id)}.${stream}.log`;
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
  /** Counts, and the held bytes: the whole stream until spooling starts, then a bounded tail. */
  readonly #tail = new TailWindow();
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
    return this.#tail.totalBytes;
  }

  /** Adds bytes; waits while the full-output file catches up. */
  async push(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength === 0) return;
    const tail = this.#tail;
    if (!this.#keep) return tail.count(bytes);
    tail.push(bytes);
    const limits = this.#limits;
    if (limits === false || this.#path === undefined) return;
    if (this.#sink === undefined) {
      if (tail.totalBytes <= limits.maxBytes && tail.totalLines <= limits.maxLines) return;
      this.#sink = new FileSink(this.#fs, limits.dir, this.#path);
      for (const chunk of tail.chunks) await this.#sink.write(chunk);
    } else {
      await this.#sink.write(bytes);
    }
    tail.trim(limits.maxBytes);
  }

  /**
   * Ends the stream: returns the whole stream, or its kept tail plus the
   * truncation record when it went over the limits.
   */
  async finish(): Promise<{ bytes: Uint8Array; truncated?: TruncatedOutput }> {
    const tail = this.#tail;
    const buf = tail.held();
    const limits = this.#limits;
    if (this.#sink === undefined || limits === false) return { bytes: buf };
    await this.#sink.close();
    const { start, firstLine, totalLines, partialLine } = tail.keep(limits.maxLines, limits.maxBytes);
    const common = { totalBytes: tail.totalBytes, totalLines, firstLine, partialLine };
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

/** Entries of the output directory one prune lists at most; logs past them are left alone. */
export const OUTPUT_PRUNE_SCAN_ENTRIES = 10_000;

/**
 * Characters of entry names one prune reads, about (UTF-16 code units): each
 * page is sized from the longest name it can hold, and the listing stops
 * once the next page could pass them; logs past it are left alone.
 */
export const OUTPUT_PRUNE_SCAN_CHARS = 1_048_576;

/**
 * Longest entry name (characters) the prune lists: the Workspace filters
 * longer names out before they are read, so they cost no part of
 * {@link OUTPUT_PRUNE_SCAN_CHARS}. A log's name is its encoded backend id and
 * exec id (at most 256 UTF-8 bytes, 768 characters encoded) plus
 * `.stdout.log`: a log whose name is longer (a backend id over ~3,300
 * encoded characters) is not a candidate, and is left alone (4096).
 */
export const OUTPUT_PRUNE_NAME_CHARS = 4096;

/** Largest page of the prune's listing (entries). */
const PRUNE_PAGE = 1000;

/**
 * Keeps the newest `keep` output logs in `dir` by mtime; the file just saved
 * always survives. Other files are never touched; errors are ignored.
 *
 * The directory's entries whose name has at most
 * {@link OUTPUT_PRUNE_NAME_CHARS} characters are listed in name order, in
 * pages sized from the longest name they can hold (longer names are
 * filtered out by the Workspace; a filesystem that cannot filter lists them,
 * and pages are then sized from the longest seen so far too), up to
 * {@link OUTPUT_PRUNE_SCAN_ENTRIES} entries and about
 * {@link OUTPUT_PRUNE_SCAN_CHARS} characters of names: only the logs among
 * them are candidates. A directory past either bound keeps more logs than
 * `keep`, never fewer: a log is removed only when `keep` newer ones were seen.
 */
export async function pruneOutputDir(fs: WorkspaceFilesystem, dir: string, keep: number, saved: readonly string[]): Promise<void> {
  try {
    const logs: { path: string; mtime: number }[] = [];
    let offset = 0;
    let chars = 0;
    // A name of at most OUTPUT_PRUNE_NAME_CHARS code points has at most twice as many code units.
    let heaviest = 2 * OUTPUT_PRUNE_NAME_CHARS;
    let batch = Math.min(PRUNE_PAGE, Math.floor(OUTPUT_PRUNE_SCAN_CHARS / heaviest));
    const only: ReaddirOptions & MaxNameLengthOption = { [MAX_NAME_LENGTH]: OUTPUT_PRUNE_NAME_CHARS };
    for (;;) {
      const entries = await fs.readdir(dir, { ...only, limit: batch, offset });
      for (const e of entries) {
        chars += e.name.length;
        heaviest = Math.max(heaviest, e.name.length);
        if (e.isFile && (e.name.endsWith(".stdout.log") || e.name.endsWith(".stderr.log"))) logs.push({ path: `${dir}/${e.name}`, mtime: e.mtime });
      }
      if (entries.length < batch) break;
      offset += entries.length;
      batch = Math.min(PRUNE_PAGE, OUTPUT_PRUNE_SCAN_ENTRIES - offset, Math.floor((OUTPUT_PRUNE_SCAN_CHARS - chars) / heaviest));
      if (batch <= 0) break;
    }
    logs.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? 1 : -1));
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
