/**
 * The `read` tool (spec 03 §4.1): text by line with line and byte
 * continuations, images and PDFs captured for models that take them. Reads
 * one ranged stream per call and never fetches bytes before `byteOffset`.
 * Validate, stat, classify, then read a text page (`./read-text.ts`) or a
 * media file (`./read-media.ts`), and report.
 *
 * @module
 */
import { z } from "zod";
import { classify, readMedia, type ReadMediaResult } from "./read-media.js";
import { readText, type ReadTextResult, type TextPageRequest, type TextPageSettings } from "./read-text.js";
import { ledgerOf, type ReadLedger } from "./freshness.js";
import type { FileStore } from "./store.js";
import { checkLineTruncation, checkMediaLimit, checkPositive, type LineTruncation } from "./truncate.js";
import { abortedCall, errorMessage, type NeutralOutput, type SettledTool, type ToolError, type ToolFacts } from "./types.js";
import { withSiblingHint } from "./unicode-names.js";
import { echoedText } from "./paging.js";

export type { ReadMediaResult } from "./read-media.js";
export type { ReadTextResult } from "./read-text.js";

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
  /**
   * Prefix each line with `${lineNumber}\t`. The description then tells the
   * model the exact form of that prefix and to leave it out of edit's
   * `oldText`. Default `false`.
   */
  includeLineNumbers?: boolean;
  /** Shorten each line by bytes or code points before `maxBytes` applies. Default: none. */
  lineTruncation?: LineTruncation;
  /** Largest image or PDF captured into the result, in bytes. Default `3670016` (3.5 MiB). */
  maxModelBytes?: number;
  /** Bytes sniffed when the extension does not decide. Default `512`. */
  mediaSniffBytes?: number;
  /**
   * Longest side, in pixels, of an image passed to the model. An image whose
   * PNG, JPEG, GIF or WebP header states a larger width or height is not
   * attached: the model is told its size instead (providers reject images
   * past 8000 px on a side, and past 2000 px in requests with many images, and
   * a rejected image can fail every later turn). An image whose header cannot
   * be read is attached as before. Default `8000`.
   */
  maxImageDimension?: number;
}

/** Input of the read tool: the path, and where the page starts (see {@link TextPageRequest}). */
export type ReadInput = TextPageRequest;

/** Any read result. */
export type ReadResult = ReadTextResult | ReadMediaResult | ToolError;

export const READ_DEFAULTS = {
  maxLines: 2000,
  maxBytes: 262144,
  maxModelBytes: 3670016,
  mediaSniffBytes: 512,
  maxImageDimension: 8000,
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

function describeRead(maxLines: number, maxBytes: number, maxImageDimension: number, includeLineNumbers: boolean): string {
  return [
    `Read a file from the workspace. Text comes back by line; images (PNG, JPEG, GIF, WebP; at most ${maxImageDimension} px per side) and PDFs are passed to models that accept them.`,
    ...(includeLineNumbers
      ? [
          'Each line of text comes back as its line number, one tab, then the line exactly as in the file: line 12 "  return x;" reads "12\\t  return x;".',
          "That prefix is not part of the file: leave it out of edit's oldText and of anything you write.",
        ]
      : []),
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
  const maxImageDimension = checkMediaLimit("maxImageDimension", options.maxImageDimension ?? READ_DEFAULTS.maxImageDimension);
  const lineTruncation = checkLineTruncation(options.lineTruncation);
  const includeLineNumbers = options.includeLineNumbers === true;
  const settings: ReadSettings = { maxLines, maxBytes, maxModelBytes, mediaSniffBytes, maxImageDimension, lineTruncation, includeLineNumbers };
  return {
    ...READ_FACTS,
    description: describeRead(maxLines, maxBytes, maxImageDimension, includeLineNumbers),
    inputSchema: readInputSchema as z.ZodType<ReadInput>,
    limits: { maxLines, maxBytes, maxModelBytes, mediaSniffBytes, maxImageDimension },
    execute: (input, context) => {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return Promise.resolve({ error: aborted });
      // A write tool with requireFreshRead over this store made a ledger: record what is read (issue 12 §4).
      const reads = ledgerOf(store);
      return reads ? readRecorded(store, input, settings, reads) : readFile(store, input, settings);
    },
    toModelOutput: (input, output) => readModelOutput(input, output, maxModelBytes, maxImageDimension),
  };
}

/** The effective settings of one read tool. */
interface ReadSettings extends TextPageSettings {
  maxModelBytes: number;
  mediaSniffBytes: number;
  maxImageDimension: number;
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
  let stat: Awaited<ReturnType<FileStore["stat"]>>;
  try {
    stat = await store.stat(path);
  } catch (err) {
    // `f.txt/` of a file: the store's ENOTDIR says what is wrong with the path (spec 03 §4.1).
    if ((err as { code?: unknown } | null)?.code === "ENOTDIR") return { error: errorMessage(err) };
    throw err;
  }
  if (!stat) return { error: await withSiblingHint(`File not found: ${echoedText(path)}`, store, path) };
  if (!(byteOffset !== undefined && byteOffset > 0)) {
    const kind = await classify(store, path, stat, s.mediaSniffBytes);
    if (kind.kind !== "text") return readMedia(store, path, stat, kind, s.maxModelBytes, s.maxImageDimension);
  }
  if (stat.size === 0) return { path: echoedText(path), content: "", startLine: 1, endLine: 0, totalLines: 0, truncated: false };
  return readText(store, input, s);
}

/**
 * {@link readFile}, recording in `reads` the file's fingerprint taken just
 * before the read when the read succeeds. Taken before, so a change racing
 * the read can only make the record older than what the model saw (a
 * later guarded write then asks for a new read), never newer.
 */
async function readRecorded(store: FileStore, input: ReadInput, s: ReadSettings, reads: ReadLedger): Promise<ReadResult> {
  const before = await reads.fingerprint(store, input.path);
  const result = await readFile(store, input, s);
  if (!("error" in result)) reads.remember(input.path, before);
  return result;
}

/**
 * read's neutral model output (spec 03 §4.1.2), plus one row: an image
 * result with `width` and `height` (a side above `maxImageDimension`) is an
 * error-text naming its size, in place of the image.
 */
export function readModelOutput(
  input: ReadInput,
  output: ReadResult,
  maxModelBytes: number,
  maxImageDimension: number = READ_DEFAULTS.maxImageDimension,
): NeutralOutput {
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
  if (media.width !== undefined && media.height !== undefined) {
    return { type: "error-text", value: tooManyPixels(media.path, media.width, media.height, maxImageDimension) };
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

/** What the model is told in place of an image with a side longer than `max` pixels. */
function tooManyPixels(path: string, width: number, height: number, max: number): string {
  return `${path} is ${width}×${height} px, larger than the ${max} px per side the model accepts, so it was not attached. To see it, read a copy scaled or cropped to at most ${max} px per side (made with an image tool, if one is available).`;
}
