/**
 * read's images, PDFs and binary files (spec 03 §4.1.1): classify a file by
 * name or by a bounded sniff of its first bytes, and capture an image or PDF
 * (up to `maxModelBytes`) as base64 for models that accept it. An image whose
 * header states a side longer than `maxImageDimension` pixels is not
 * captured: its result carries `width` and `height` instead of `data`.
 *
 * @module
 */
import { toBase64 } from "../../util/bytes.js";
import { basename } from "../../util/path.js";
import { classifyByName, classifyBytes, imageDimensions, type Classification } from "./media.js";
import { isNotFound, type FileStat, type FileStore } from "./store.js";
import type { ToolError } from "./types.js";
import { echoedText } from "./paging.js";

/** An image, a PDF, or an unsupported binary file. `data` is base64 of the captured bytes. */
export interface ReadMediaResult {
  kind: "image" | "file" | "binary";
  /** The path as given, cut past 4,096 characters as the tools echo one (`echoedText`). */
  path: string;
  /** The file's name, cut the same way. */
  name: string;
  mediaType: string;
  sizeBytes: number;
  data?: string;
  unsupported?: true;
  /**
   * The image's width in pixels, present only when a side is longer than
   * `maxImageDimension` (then `data` is absent and the model is told the size).
   */
  width?: number;
  /** The image's height in pixels; present only together with {@link ReadMediaResult.width}. */
  height?: number;
}

/**
 * What read does with the file: by its name when that decides, else by its first `sniffBytes` bytes. A name that
 * says image or PDF (`.png`, `.pdf`, …) is checked against the first bytes too: when they are plainly another
 * format — another image or PDF signature, or text (an HTML error page saved as `logo.png`) — the bytes decide, so
 * an attachment never carries a media type its bytes contradict (a provider rejects such an image, and the
 * rejected turn stays in the conversation). Bytes that identify nothing (empty, corrupt, an unknown format) leave
 * the name's answer.
 */
export async function classify(store: FileStore, path: string, stat: FileStat, sniffBytes: number): Promise<Classification> {
  const byName = classifyByName(path);
  if (byName?.kind === "text") return byName;
  const bytes = await collect(store.readChunks(path, 0, sniffBytes), sniffBytes);
  const byBytes = classifyBytes(bytes, stat.size <= sniffBytes);
  if (!byName) return byBytes;
  if (bytes.byteLength === 0 || byBytes.kind === "binary") return byName;
  return byBytes.kind === "text" || byBytes.mediaType !== byName.mediaType ? byBytes : byName;
}

/**
 * The media result for a non-text file: binary files are `unsupported`;
 * images and PDFs up to `maxModelBytes` carry their bytes as `data`, except
 * an image whose header states a width or height above `maxImageDimension`,
 * which carries `width` and `height` instead. An image whose header cannot be
 * read (an unknown or corrupt header) is captured as before: its size is not
 * known, so it is not refused. Returns `{ error }` when the file vanished or
 * is empty once read.
 */
export async function readMedia(
  store: FileStore,
  path: string,
  stat: FileStat,
  kind: Exclude<Classification, { kind: "text" }>,
  maxModelBytes: number,
  maxImageDimension: number,
): Promise<ReadMediaResult | ToolError> {
  const result: ReadMediaResult = { kind: kind.kind, path: echoedText(path), name: echoedText(basename(path)), mediaType: kind.mediaType, sizeBytes: stat.size };
  if (kind.kind === "binary") {
    result.unsupported = true;
    return result;
  }
  if (stat.size > maxModelBytes) return result;
  let bytes: Uint8Array;
  try {
    bytes = await collect(store.readChunks(path, 0, maxModelBytes + 1), maxModelBytes + 1);
  } catch (err) {
    if (isNotFound(err)) return { error: `Could not read file bytes: ${result.path}` };
    throw err;
  }
  if (bytes.byteLength === 0) return { error: `Cannot attach empty file: ${result.path}` };
  result.sizeBytes = bytes.byteLength;
  if (bytes.byteLength > maxModelBytes) return result;
  const size = kind.kind === "image" ? imageDimensions(bytes) : undefined;
  if (size && Math.max(size.width, size.height) > maxImageDimension) {
    result.width = size.width;
    result.height = size.height;
    return result;
  }
  result.data = toBase64(bytes);
  return result;
}

/** The first `max` bytes of `chunks` (fewer when they end sooner); stops the stream once it has them. */
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
