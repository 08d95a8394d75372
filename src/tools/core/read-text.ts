/**
 * read's text pages (spec 03 §4.1): lines from a byte position, cut by a
 * line cap and a byte cap, with the continuation (`nextOffset`,
 * `nextByteOffset`) that resumes exactly where a page stopped.
 *
 * {@link readText} does the I/O — one ranged `readChunks` stream, left as
 * soon as the page is decided — and {@link TextPage} is the pure part: fed
 * chunk by chunk, it keeps at most a few times `maxBytes` whatever the file
 * or line size.
 *
 * @module
 */
import { concatBytes } from "../../util/bytes.js";
import type { FileStore } from "./store.js";
import { decodeUtf8, renderLine, utf8Length, type LineTruncation } from "./truncate.js";
import type { ToolError } from "./types.js";
import { echoedText } from "./paging.js";

const LF = 0x0a;

/** Where a text page starts and how long it may be (read's input). */
export interface TextPageRequest {
  /** Absolute path of the file. */
  path: string;
  /** 1-based line to start from; with `byteOffset > 0`, the number of the line at that byte. */
  offset?: number;
  /** Byte to start from: a previous page's `nextByteOffset`. */
  byteOffset?: number;
  /** Lines wanted (capped by `maxLines`). */
  limit?: number;
}

/** How text pages are cut and rendered. */
export interface TextPageSettings {
  /** Lines per page at most. */
  maxLines: number;
  /** UTF-8 bytes of `content` at most (separators and number prefixes included). */
  maxBytes: number;
  /** Per-line shortening, applied before `maxBytes`. */
  lineTruncation: LineTruncation | undefined;
  /** Prefix each line with `${lineNumber}\t`. */
  includeLineNumbers: boolean;
}

/** A text read. `totalLines` is `null` when truncated; continue with `nextOffset` + `nextByteOffset`. */
export interface ReadTextResult {
  /** The path as given, cut past 4,096 characters as the tools echo one (`echoedText`). */
  path: string;
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number | null;
  truncated: boolean;
  nextOffset?: number;
  nextByteOffset?: number;
}

/**
 * Reads one text page through a single `readChunks(path, byteOffset)` call,
 * stopping the stream as soon as the page is decided.
 */
export async function readText(store: FileStore, request: TextPageRequest, settings: TextPageSettings): Promise<ReadTextResult | ToolError> {
  const page = new TextPage(request, settings);
  for await (const chunk of store.readChunks(request.path, request.byteOffset ?? 0)) {
    if (page.feed(chunk)) break;
  }
  return page.end();
}

/**
 * One text page being cut from a stream of chunks. {@link feed} each chunk
 * until it returns `true` (the page is decided) or the stream ends, then
 * {@link end} gives the result.
 *
 * Lines are counted from `byteOffset`; the page holds the lines from
 * `offset` on (or, when positioned by `byteOffset`, from the first),
 * numbered from `offset`. Two paths take lines: a batch path that decodes
 * every whole line of a chunk that fits at once, and a line-by-line path
 * for everything it leaves (the first line of the file, a line split across
 * chunks, invalid UTF-8, per-line truncation), which decides each line
 * exactly.
 */
export class TextPage {
  readonly #request: TextPageRequest;
  readonly #settings: TextPageSettings;
  /** Lines before this one (relative to the start) are skipped. */
  readonly #firstWanted: number;
  /** Added to relative line numbers: `offset - 1` when positioned by bytes. */
  readonly #numberBase: number;
  readonly #lineCap: number;
  /** Bytes of one line kept for rendering (a line longer than this cannot fit). */
  readonly #keepCap: number;

  // The page so far.
  /** Parts of `content`, joined by LF: single lines or batches of lines. */
  readonly #out: string[] = [];
  #lines = 0;
  #outBytes = 0;
  #firstEmitted = 0;
  #truncated = false;
  #nextByteOffset = 0;
  #failure: ToolError | undefined;
  #decided = false;

  // The line being read.
  /** Lines completed so far (relative to the start byte). */
  #lineIndex = 0;
  /** Absolute byte where the current line starts. */
  #lineStart: number;
  /** Absolute byte of the next byte to read. */
  #pos: number;
  #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #lineLength = 0;
  /** Absolute byte before which the batch path found invalid UTF-8. */
  #slowUntil = 0;

  constructor(request: TextPageRequest, settings: TextPageSettings) {
    const startByte = request.byteOffset ?? 0;
    const positioned = startByte > 0;
    this.#request = request;
    this.#settings = settings;
    this.#firstWanted = positioned ? 1 : (request.offset ?? 1);
    this.#numberBase = positioned ? (request.offset as number) - 1 : 0;
    this.#lineCap = Math.min(request.limit ?? settings.maxLines, settings.maxLines);
    this.#keepCap = settings.maxBytes + 4;
    this.#lineStart = startByte;
    this.#pos = startByte;
  }

  /** Takes the next chunk of the stream. Returns `true` once the page is decided: read no further. */
  feed(chunk: Uint8Array): boolean {
    let at = 0;
    while (at < chunk.byteLength) {
      // Once lineCap lines are out, any further byte means "more follows".
      if (this.#lines >= this.#lineCap && this.#wanted()) return this.#decide(this.#truncateAt(this.#pos));
      if (this.#batchable()) {
        const next = this.#takeBatch(chunk, at);
        if (next > at) {
          at = next;
          continue;
        }
      }
      at = this.#takePiece(chunk, at);
      if (at < 0) return this.#decide(true);
    }
    return false;
  }

  /** Ends the stream (or the page) and returns the page, or the error that decided it. */
  end(): ReadTextResult | ToolError {
    // A last line without LF counts when non-empty.
    if (!this.#decided && this.#lineLength > 0) this.#finishLine();
    if (this.#failure) return this.#failure;
    const lines = this.#lines;
    if (lines === 0) {
      const startByte = this.#request.byteOffset ?? 0;
      if (startByte > 0) return { error: `Byte continuation ${startByte} is beyond end of file` };
      const seen = this.#numberBase + this.#lineIndex;
      return { error: `Offset ${this.#request.offset ?? 1} is beyond end of file (${seen} line(s))` };
    }
    const endLine = this.#firstEmitted + lines - 1;
    const result: ReadTextResult = {
      path: echoedText(this.#request.path),
      content: this.#out.join("\n"),
      startLine: this.#firstEmitted,
      endLine,
      totalLines: this.#truncated ? null : this.#numberBase + this.#lineIndex,
      truncated: this.#truncated,
    };
    if (this.#truncated) {
      result.nextOffset = endLine + 1;
      result.nextByteOffset = this.#nextByteOffset;
    }
    return result;
  }

  #decide(decided: boolean): boolean {
    this.#decided = decided;
    return decided;
  }

  #wanted(): boolean {
    return this.#lineIndex + 1 >= this.#firstWanted;
  }

  #truncateAt(byte: number): true {
    this.#truncated = true;
    this.#nextByteOffset = byte;
    return true;
  }

  /** At a line start past the file's first line, with no per-line truncation: whole lines may be taken at once. */
  #batchable(): boolean {
    return !this.#settings.lineTruncation && this.#lineLength === 0 && this.#lineStart > 0 && this.#pos >= this.#slowUntil && this.#wanted();
  }

  /** Takes every whole line of `chunk[at..]` that fits; returns where it stopped (`at` when it took none). */
  #takeBatch(chunk: Uint8Array, at: number): number {
    const s = this.#settings;
    const batch = takeWholeLines(chunk, at, {
      maxLines: this.#lineCap - this.#lines,
      bytesLeft: s.maxBytes - this.#outBytes,
      separated: this.#lines > 0,
      firstLineNo: s.includeLineNumbers ? this.#numberBase + this.#lineIndex + 1 : undefined,
    });
    if (batch === null) {
      this.#slowUntil = this.#pos + chunk.byteLength - at;
      return at;
    }
    if (batch.lines === 0) return at;
    if (this.#lines === 0) this.#firstEmitted = this.#numberBase + this.#lineIndex + 1;
    this.#out.push(batch.text);
    this.#lines += batch.lines;
    this.#outBytes += batch.bytes;
    this.#lineIndex += batch.lines;
    this.#pos += batch.end - at;
    this.#lineStart = this.#pos;
    return batch.end;
  }

  /**
   * Reads `chunk[at..]` up to the next LF (or the chunk's end) into the
   * current line. Returns where to go on, or `-1` when the page is decided.
   */
  #takePiece(chunk: Uint8Array, at: number): number {
    const lf = chunk.indexOf(LF, at);
    const end = lf < 0 ? chunk.byteLength : lf;
    this.#keep(chunk.subarray(at, end));
    if (lf < 0) {
      // A line that can no longer fit (no per-line truncation) decides the page early: it is refused
      // here, never added, so no line is finished twice (issue 20, run 36, fixer TL).
      if (this.#cannotFit()) {
        this.#refuseLine();
        return -1;
      }
      return end;
    }
    this.#pos += 1;
    if (this.#finishLine()) return -1;
    this.#kept = [];
    this.#keptBytes = 0;
    this.#lineLength = 0;
    this.#lineStart = this.#pos;
    return lf + 1;
  }

  /**
   * Adds a piece of the current line: counted always, kept (up to the keep cap, plus the 3 bytes of a
   * byte order mark on the file's first line) when the line is wanted.
   */
  #keep(piece: Uint8Array): void {
    const cap = this.#keepCap + (this.#lineStart === 0 ? 3 : 0); // BOM room (issue 20, run 36, fixer TL)
    if (this.#wanted() && this.#keptBytes < cap && piece.byteLength > 0) {
      const take = piece.subarray(0, cap - this.#keptBytes);
      this.#kept.push(take);
      this.#keptBytes += take.byteLength;
    }
    this.#lineLength += piece.byteLength;
    this.#pos += piece.byteLength;
  }

  /**
   * Whether the open line (no LF yet) is already too long for the page: a lower bound of its rendered
   * size — its bytes so far, less a byte order mark (or what may still become one) at the start of the
   * file, which is not content — over what is left of `maxBytes`. Rendering only adds bytes (a number
   * prefix, U+FFFD for at least as many invalid bytes), so `true` means {@link #finishLine} would refuse
   * it too (issue 20, run 36, fixer TL: the BOM was counted here but not there).
   */
  #cannotFit(): boolean {
    const s = this.#settings;
    if (s.lineTruncation || !this.#wanted()) return false;
    return this.#outBytes + (this.#lines > 0 ? 1 : 0) + this.#lineLength - this.#bomBytes() > s.maxBytes;
  }

  /**
   * Bytes of the open line that are (or, while fewer than 3 are read, may become) the UTF-8 byte order
   * mark EF BB BF: only on the file's first line, which always starts the kept bytes.
   */
  #bomBytes(): number {
    if (this.#lineStart !== 0) return 0;
    const BOM = [0xef, 0xbb, 0xbf];
    let n = 0;
    for (const piece of this.#kept) {
      for (let i = 0; i < piece.byteLength && n < 3; i++, n++) if (piece[i] !== BOM[n]) return 0;
      if (n === 3) break;
    }
    return n;
  }

  /**
   * Refuses the open line, known not to fit ({@link #cannotFit}): the page ends before it (`truncated`,
   * continuing at its first byte) or, when it would be the page's first line, the read fails with the
   * read-cap error — as {@link #finishLine} decides a line that does not fit.
   */
  #refuseLine(): void {
    const lineNo = this.#numberBase + this.#lineIndex + 1;
    if (this.#lines > 0) this.#truncateAt(this.#lineStart);
    else this.#failure = { error: capError(lineNo, this.#settings.maxBytes) };
  }

  /** Completes the current line: skips it, adds it, or decides the page. Returns `true` when reading should stop. */
  #finishLine(): boolean {
    const s = this.#settings;
    this.#lineIndex++;
    const relLine = this.#lineIndex;
    const lineNo = this.#numberBase + relLine;
    if (relLine < this.#firstWanted) return false;
    if (this.#lines >= this.#lineCap) return this.#truncateAt(this.#lineStart);
    let bytes = concatBytes(this.#kept, this.#keptBytes);
    let length = this.#lineLength;
    // A UTF-8 byte order mark at the start of the file is not content.
    if (this.#lineStart === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = bytes.subarray(3);
      length -= 3;
    }
    const rendered = renderLine(bytes, length, s.lineTruncation);
    const text = rendered === null ? null : s.includeLineNumbers ? `${lineNo}\t${rendered}` : rendered;
    // Valid UTF-8 decodes to as many bytes as it had; only U+FFFD or a number prefix changes that.
    const size =
      text === null
        ? Infinity
        : rendered === text && !s.lineTruncation && length === bytes.byteLength && !text.includes("\uFFFD")
          ? length
          : utf8Length(text);
    const separator = this.#lines > 0 ? 1 : 0;
    if (this.#outBytes + size + separator > s.maxBytes) {
      if (this.#lines > 0) return this.#truncateAt(this.#lineStart);
      this.#failure = { error: capError(lineNo, s.maxBytes) };
      return true;
    }
    if (this.#lines === 0) this.#firstEmitted = lineNo;
    this.#outBytes += size + separator;
    this.#out.push(text as string);
    this.#lines++;
    return false;
  }
}

/** read's error for a line that alone is over `maxBytes` (spec 03 §4.1). */
function capError(lineNo: number, maxBytes: number): string {
  return `Line ${lineNo} exceeds the ${maxBytes}-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.`;
}

/** Where {@link takeWholeLines} may take lines: how many, how many bytes of `content`, numbered from what. */
interface BatchBudget {
  /** Lines still allowed on the page. */
  maxLines: number;
  /** Bytes of `content` still allowed (separators and number prefixes included). */
  bytesLeft: number;
  /** Whether the page already has a line (so the first taken line costs a separator). */
  separated: boolean;
  /** Number of the first line when lines are numbered; `undefined` when they are not. */
  firstLineNo: number | undefined;
}

/**
 * Takes, from `chunk[at..]`, the run of LF-terminated lines that all fit the
 * budget, decoding them with one `TextDecoder` call instead of one per line.
 * Returns the run as one LF-joined `text` (numbered when asked), its line
 * count, the `content` bytes it adds and the chunk index after the last LF
 * taken; `null` when the run is not valid UTF-8 (the caller then renders
 * those lines one by one, as U+FFFD changes their sizes). A line without its
 * LF in this chunk, or one that does not fit, is left for the line-by-line
 * path, which decides it exactly as before.
 */
function takeWholeLines(chunk: Uint8Array, at: number, budget: BatchBudget): { text: string; lines: number; bytes: number; end: number } | null {
  let end = at;
  let count = 0;
  let bytes = 0;
  let separator = budget.separated ? 1 : 0;
  while (count < budget.maxLines) {
    const lf = chunk.indexOf(LF, end);
    if (lf < 0) break;
    const prefix = budget.firstLineNo === undefined ? 0 : String(budget.firstLineNo + count).length + 1;
    const size = separator + prefix + (lf - end);
    if (bytes + size > budget.bytesLeft) break;
    bytes += size;
    separator = 1;
    count++;
    end = lf + 1;
  }
  if (count === 0) return { text: "", lines: 0, bytes: 0, end: at };
  // Valid UTF-8 decodes to as many bytes as it had, so the sizes above are exact; U+FFFD means they may not be.
  const text = decodeUtf8(chunk.subarray(at, end - 1));
  if (text.includes("\uFFFD")) return null;
  const first = budget.firstLineNo;
  const numbered = first === undefined ? text : text.split("\n").map((line, i) => `${first + i}\t${line}`).join("\n");
  return { text: numbered, lines: count, bytes, end };
}
