/**
 * The `read` tool (spec 03 §4.1): text by line with line and byte
 * continuations, images and PDFs captured for models that take them. Reads
 * one ranged stream per call and never fetches bytes before `byteOffset`.
 *
 * @module
 */
import { z } from "zod";
import { basename, classifyByName, classifyBytes, type Classification } from "./media.js";
import type { FileStat, FileStore } from "./store.js";
import { checkLineTruncation, checkMediaLimit, checkPositive, decodeUtf8, renderLine, utf8Length, type LineTruncation } from "./truncate.js";
import type { SettledTool, NeutralOutput, ToolError, ToolFacts } from "./types.js";

/** read changes nothing. */
export const READ_FACTS: ToolFacts = { name: "read", mutating: false };

/** Options of the read tool (spec 03 §4.1). */
export interface ReadToolOptions {
  /** Store the tool reads from. */
  store: FileStore;
  /** Hard line cap per call. Default `2000`. */
  maxLines?: number;
  /** Hard cap on UTF-8 bytes of `content` (separators and number prefixes included). Default `262144` (256 KiB). */
  maxBytes?: number;
  /** Prefix each line with `${lineNumber}\t`. Default `false`. */
  includeLineNumbers?: boolean;
  /** Shorten each line by bytes or code points before `maxBytes` applies. Default: none. */
  lineTruncation?: LineTruncation;
  /** Largest image or PDF captured into the result, in bytes. Default `3670016` (3.5 MiB). */
  maxModelBytes?: number;
  /** Bytes sniffed when the extension does not decide. Default `512`. */
  mediaSniffBytes?: number;
}

/** Input of the read tool. */
export interface ReadInput {
  path: string;
  offset?: number;
  byteOffset?: number;
  limit?: number;
}

/** A text read. `totalLines` is `null` when truncated; continue with `nextOffset` + `nextByteOffset`. */
export interface ReadTextResult {
  path: string;
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number | null;
  truncated: boolean;
  nextOffset?: number;
  nextByteOffset?: number;
}

/** An image, a PDF, or an unsupported binary file. `data` is base64 of the captured bytes. */
export interface ReadMediaResult {
  kind: "image" | "file" | "binary";
  path: string;
  name: string;
  mediaType: string;
  sizeBytes: number;
  data?: string;
  unsupported?: true;
}

/** Any read result. */
export type ReadResult = ReadTextResult | ReadMediaResult | ToolError;

export const READ_DEFAULTS = {
  maxLines: 2000,
  maxBytes: 262144,
  maxModelBytes: 3670016,
  mediaSniffBytes: 512,
} as const;

const int = () => z.number().int();

/** read's input schema (spec 03 §4.1). */
export const readInputSchema = z
  .object({
    path: z.string().describe("Absolute path of the file to read, e.g. /workspace/src/index.ts."),
    offset: int()
      .min(1)
      .optional()
      .describe("1-based line to start from. Pass the previous result's nextOffset to continue."),
    byteOffset: int()
      .min(0)
      .optional()
      .describe("Byte continuation: pass the previous result's nextByteOffset together with nextOffset. Requires offset when greater than 0."),
    limit: int().min(1).optional().describe("Maximum lines to return (capped by the tool's line limit)."),
  })
  .refine((v) => !(v.byteOffset !== undefined && v.byteOffset > 0 && v.offset === undefined), {
    path: ["byteOffset"],
    message: "offset is required when byteOffset is greater than zero",
  });

function describeRead(maxLines: number, maxBytes: number): string {
  return [
    "Read a file from the workspace. Text comes back by line; images (PNG, JPEG, GIF, WebP) and PDFs are passed to models that accept them.",
    `Text output is capped at ${maxLines} lines or ${Math.round(maxBytes / 1024)}KB per call, whichever comes first.`,
    "A truncated result has truncated: true, totalLines: null, nextOffset and nextByteOffset: to continue, call read again with offset = nextOffset and byteOffset = nextByteOffset instead of re-reading the file.",
    "Use offset and limit to read a specific range of lines. Paths are absolute.",
  ].join(" ");
}

/** The read tool: the one tool with its own model output (images and PDFs as media, spec 03 §4.1.2). */
export type ReadDefinition = SettledTool<ReadInput, ReadResult> & { toModelOutput(input: ReadInput, output: ReadResult): NeutralOutput };

/** Builds the read tool over a store. @throws TypeError for invalid limits (spec 03 §2.2). */
export function readDefinition(options: ReadToolOptions): ReadDefinition {
  const store = options.store;
  const maxLines = checkPositive("createReadTool", "maxLines", options.maxLines ?? READ_DEFAULTS.maxLines);
  const maxBytes = checkPositive("createReadTool", "maxBytes", options.maxBytes ?? READ_DEFAULTS.maxBytes);
  const maxModelBytes = checkMediaLimit("maxModelBytes", options.maxModelBytes ?? READ_DEFAULTS.maxModelBytes);
  const mediaSniffBytes = checkMediaLimit("mediaSniffBytes", options.mediaSniffBytes ?? READ_DEFAULTS.mediaSniffBytes);
  const lineTruncation = checkLineTruncation(options.lineTruncation);
  const settings: ReadSettings = { maxLines, maxBytes, maxModelBytes, mediaSniffBytes, lineTruncation, includeLineNumbers: options.includeLineNumbers === true };
  return {
    ...READ_FACTS,
    description: describeRead(maxLines, maxBytes),
    inputSchema: readInputSchema as z.ZodType<ReadInput>,
    limits: { maxLines, maxBytes, maxModelBytes, mediaSniffBytes },
    execute: (input) => readFile(store, input, settings),
    toModelOutput: (input, output) => readModelOutput(input, output, maxModelBytes),
  };
}

interface ReadSettings {
  maxLines: number;
  maxBytes: number;
  maxModelBytes: number;
  mediaSniffBytes: number;
  lineTruncation: LineTruncation | undefined;
  includeLineNumbers: boolean;
}

/**
 * Runs one read. Returns `{error}` for expected failures; throws only when
 * the store's stat or stream fails with something other than ENOENT.
 */
export async function readFile(store: FileStore, input: ReadInput, s: ReadSettings): Promise<ReadResult> {
  const path = input.path;
  const byteOffset = input.byteOffset;
  if (byteOffset !== undefined && byteOffset > 0 && input.offset === undefined) {
    return { error: "offset is required when byteOffset is greater than zero" };
  }
  const stat = await store.stat(path);
  if (!stat) return { error: `File not found: ${path}` };
  if (!(byteOffset !== undefined && byteOffset > 0)) {
    const kind = await classify(store, path, stat, s.mediaSniffBytes);
    if (kind.kind !== "text") return readMedia(store, path, stat, kind, s.maxModelBytes);
  }
  if (stat.size === 0) return { path, content: "", startLine: 1, endLine: 0, totalLines: 0, truncated: false };
  return readText(store, input, s);
}

async function classify(store: FileStore, path: string, stat: FileStat, sniffBytes: number): Promise<Classification> {
  const byName = classifyByName(path);
  if (byName) return byName;
  const bytes = await collect(store.readChunks(path, 0, sniffBytes), sniffBytes);
  return classifyBytes(bytes, stat.size <= sniffBytes);
}

async function collect(chunks: AsyncIterable<Uint8Array>, max: number): Promise<Uint8Array> {
  const out = new Uint8Array(max);
  let at = 0;
  for await (const chunk of chunks) {
    const n = Math.min(chunk.byteLength, max - at);
    out.set(chunk.subarray(0, n), at);
    at += n;
    if (at >= max) break;
  }
  return out.subarray(0, at);
}

function isMissing(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return !!e && (e.code === "ENOENT" || (typeof e.message === "string" && /ENOENT|no such/i.test(e.message)));
}

async function readMedia(
  store: FileStore,
  path: string,
  stat: FileStat,
  kind: Exclude<Classification, { kind: "text" }>,
  maxModelBytes: number,
): Promise<ReadResult> {
  const result: ReadMediaResult = { kind: kind.kind, path, name: basename(path), mediaType: kind.mediaType, sizeBytes: stat.size };
  if (kind.kind === "binary") {
    result.unsupported = true;
    return result;
  }
  if (stat.size > maxModelBytes) return result;
  let bytes: Uint8Array;
  try {
    bytes = await collect(store.readChunks(path, 0, maxModelBytes + 1), maxModelBytes + 1);
  } catch (err) {
    if (isMissing(err)) return { error: `Could not read file bytes: ${path}` };
    throw err;
  }
  if (bytes.byteLength === 0) return { error: `Cannot attach empty file: ${path}` };
  result.sizeBytes = bytes.byteLength;
  if (bytes.byteLength <= maxModelBytes) result.data = toBase64(bytes);
  return result;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.byteLength; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Streams lines from `byteOffset` through one `readChunks` call and stops as
 * soon as the page is decided. Memory stays within a few times `maxBytes`
 * whatever the file or line size.
 */
async function readText(store: FileStore, input: ReadInput, s: ReadSettings): Promise<ReadResult> {
  const { path } = input;
  const startByte = input.byteOffset ?? 0;
  const positioned = startByte > 0;
  const firstWanted = positioned ? 1 : (input.offset ?? 1);
  const numberBase = positioned ? (input.offset as number) - 1 : 0;
  const lineCap = Math.min(input.limit ?? s.maxLines, s.maxLines);
  const keepCap = s.maxBytes + 4;

  const out: string[] = []; // parts of `content`, joined by LF: single lines or batches of lines
  let lines = 0; // lines on the page
  let outBytes = 0;
  let lineIndex = 0; // lines completed so far (relative to startByte)
  let lineStart = startByte; // absolute byte where the current line starts
  let kept: Uint8Array[] = [];
  let keptBytes = 0;
  let lineLength = 0;
  let pos = startByte;
  let truncated = false;
  let nextByteOffset = 0;
  let failure: ReadResult | undefined;
  let done = false; // page decided
  let firstEmitted = 0;

  // Returns true when reading should stop.
  const finishLine = (): boolean => {
    lineIndex++;
    const relLine = lineIndex;
    const lineNo = numberBase + relLine;
    if (relLine < firstWanted) return false;
    if (lines >= lineCap) {
      truncated = true;
      nextByteOffset = lineStart;
      return true;
    }
    let bytes = joinKept(kept, keptBytes);
    let length = lineLength;
    // A UTF-8 byte order mark at the start of the file is not content.
    if (lineStart === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
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
    if (outBytes + size + (lines > 0 ? 1 : 0) > s.maxBytes) {
      if (lines === 0) {
        failure = {
          error: `Line ${lineNo} exceeds the ${s.maxBytes}-byte read cap. The host must increase maxBytes, reduce lineTruncation, or provide a byte-oriented tool.`,
        };
      } else {
        truncated = true;
        nextByteOffset = lineStart;
      }
      return true;
    }
    if (lines === 0) firstEmitted = lineNo;
    outBytes += size + (lines > 0 ? 1 : 0);
    out.push(text as string);
    lines++;
    return false;
  };

  const wanted = () => lineIndex + 1 >= firstWanted;
  let slowUntil = 0; // absolute byte before which the batch path found invalid UTF-8
  const iterator = store.readChunks(path, startByte);
  outer: for await (const chunk of iterator) {
    let at = 0;
    while (at < chunk.byteLength) {
      // Once lineCap lines are out, any further byte means "more follows".
      if (lines >= lineCap && wanted()) {
        truncated = true;
        nextByteOffset = pos;
        done = true;
        break outer;
      }
      // At a line start past the file's first line: take every whole line of this chunk that fits at once.
      if (!s.lineTruncation && lineLength === 0 && lineStart > 0 && pos >= slowUntil && wanted()) {
        const batch = takeWholeLines(chunk, at, {
          maxLines: lineCap - lines,
          bytesLeft: s.maxBytes - outBytes,
          separated: lines > 0,
          firstLineNo: s.includeLineNumbers ? numberBase + lineIndex + 1 : undefined,
        });
        if (batch === null) {
          slowUntil = pos + chunk.byteLength - at;
        } else if (batch.lines > 0) {
          if (lines === 0) firstEmitted = numberBase + lineIndex + 1;
          out.push(batch.text);
          lines += batch.lines;
          outBytes += batch.bytes;
          lineIndex += batch.lines;
          pos += batch.end - at;
          at = batch.end;
          lineStart = pos;
          continue;
        }
      }
      const lf = chunk.indexOf(0x0a, at);
      const end = lf < 0 ? chunk.byteLength : lf;
      const piece = chunk.subarray(at, end);
      if (wanted() && keptBytes < keepCap && piece.byteLength > 0) {
        const take = piece.subarray(0, keepCap - keptBytes);
        kept.push(take);
        keptBytes += take.byteLength;
      }
      lineLength += piece.byteLength;
      pos += piece.byteLength;
      at = end;
      if (lf < 0) {
        // A line that can no longer fit (no per-line truncation) decides the page early.
        if (!s.lineTruncation && wanted() && outBytes + (lines > 0 ? 1 : 0) + lineLength > s.maxBytes) {
          if (finishLine()) {
            done = true;
            break outer;
          }
        }
        continue;
      }
      at = lf + 1;
      pos += 1;
      if (finishLine()) {
        done = true;
        break outer;
      }
      kept = [];
      keptBytes = 0;
      lineLength = 0;
      lineStart = pos;
    }
  }
  if (!done && lineLength > 0) {
    // A last line without LF counts when non-empty.
    finishLine();
  }
  if (failure) return failure;
  if (lines === 0) {
    if (positioned) return { error: `Byte continuation ${startByte} is beyond end of file` };
    const seen = numberBase + lineIndex;
    return { error: `Offset ${input.offset ?? 1} is beyond end of file (${seen} line(s))` };
  }
  const endLine = firstEmitted + lines - 1;
  const result: ReadTextResult = {
    path,
    content: out.join("\n"),
    startLine: firstEmitted,
    endLine,
    totalLines: truncated ? null : numberBase + lineIndex,
    truncated,
  };
  if (truncated) {
    result.nextOffset = endLine + 1;
    result.nextByteOffset = nextByteOffset;
  }
  return result;
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
    const lf = chunk.indexOf(0x0a, end);
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

function joinKept(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** read's neutral model output (spec 03 §4.1.2). */
export function readModelOutput(input: ReadInput, output: ReadResult, maxModelBytes: number): NeutralOutput {
  if ("error" in output && typeof output.error === "string") return { type: "error-text", value: output.error };
  if ("content" in output) {
    if (output.truncated || output.content === "" || input.offset !== undefined || input.byteOffset !== undefined) {
      return { type: "json", value: output };
    }
    return { type: "text", value: output.content };
  }
  const media = output as ReadMediaResult;
  if (media.kind === "binary") return { type: "json", value: media };
  if (media.sizeBytes > maxModelBytes) {
    return {
      type: "error-text",
      value: `Read ${media.path} (${media.mediaType}, ${media.sizeBytes} bytes), but it exceeds the ${maxModelBytes}-byte inline model output limit.`,
    };
  }
  if (media.data === undefined) return { type: "error-text", value: `Could not read captured file bytes: ${media.path}` };
  if (media.data === "") return { type: "error-text", value: `Cannot attach empty file: ${media.path}` };
  return {
    type: "media",
    text: `Read ${media.path} (${media.mediaType}, ${media.sizeBytes} bytes).`,
    data: media.data,
    mediaType: media.mediaType,
    filename: media.name,
  };
}
