/**
 * read's media classification (spec 03 §4.1.1): known extensions first (no
 * I/O), then a bounded magic-byte and UTF-8 sniff of the first bytes; and an
 * image's pixel size, read from its header without decoding it.
 *
 * @module
 */
import { imageSize } from "image-size";
import { basename } from "../../util/path.js";

/** What read does with a file. */
export type Classification =
  | { kind: "text" }
  | { kind: "image" | "file"; mediaType: string }
  | { kind: "binary"; mediaType: "application/octet-stream" };

const MEDIA_EXTENSIONS: Record<string, Classification> = {
  ".png": { kind: "image", mediaType: "image/png" },
  ".jpg": { kind: "image", mediaType: "image/jpeg" },
  ".jpeg": { kind: "image", mediaType: "image/jpeg" },
  ".gif": { kind: "image", mediaType: "image/gif" },
  ".webp": { kind: "image", mediaType: "image/webp" },
  ".pdf": { kind: "file", mediaType: "application/pdf" },
};

const TEXT_EXTENSIONS = new Set(
  ".c .cc .cpp .conf .css .csv .env .go .h .html .ini .java .js .json .jsonc .jsx .lock .log .md .mjs .php .py .rb .rs .sh .sql .svg .toml .ts .tsx .txt .xml .yaml .yml .zig".split(
    " ",
  ),
);
const TEXT_NAMES = new Set([".dockerignore", ".editorconfig", ".env", ".gitattributes", ".gitignore", ".npmrc", "dockerfile", "makefile"]);

/** The lower-cased extension from the last dot, or `""` (a dot at index 0 does not count). */
export function extension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** Classifies by name alone, or returns `undefined` when the bytes must decide. */
export function classifyByName(path: string): Classification | undefined {
  const name = basename(path).toLowerCase();
  const ext = extension(name);
  const media = MEDIA_EXTENSIONS[ext];
  if (media) return media;
  if (TEXT_EXTENSIONS.has(ext) || TEXT_NAMES.has(name)) return { kind: "text" };
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.byteLength < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/**
 * Classifies a file from its first bytes. `complete` says whether `bytes`
 * is the whole file (otherwise a cut-off character at the end is ignored).
 */
export function classifyBytes(bytes: Uint8Array, complete: boolean): Classification {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: "image", mediaType: "image/png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: "image", mediaType: "image/jpeg" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return { kind: "image", mediaType: "image/gif" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return { kind: "image", mediaType: "image/webp" };
  if (startsWith(bytes, ascii("%PDF-"))) return { kind: "file", mediaType: "application/pdf" };
  if (bytes.byteLength === 0) return { kind: "text" };
  const text = new TextDecoder().decode(bytes, { stream: !complete });
  if (looksLikeSvg(text)) return { kind: "text" };
  if (bytes.includes(0)) return BINARY;
  let replacements = 0;
  let printable = false;
  let count = 0;
  for (const ch of text) {
    count++;
    if (ch === "\uFFFD") replacements++;
    else if (ch >= " " || ch === "\n" || ch === "\r" || ch === "\t") printable = true;
  }
  if (replacements < count / 100) return { kind: "text" };
  if (replacements > 2) return BINARY;
  return printable ? { kind: "text" } : BINARY;
}

const BINARY: Classification = { kind: "binary", mediaType: "application/octet-stream" };

/** SVG source: after whitespace, comments, `<?…?>` and a `<!DOCTYPE svg…>`, the text starts with `<svg`. */
function looksLikeSvg(text: string): boolean {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (text.slice(i, i + 13).toLowerCase() === "<!doctype svg") {
      const end = text.indexOf(">", i);
      if (end < 0) return false;
      i = end + 1;
    } else break;
  }
  return /^<svg[\s/>]/i.test(text.slice(i, i + 5));
}

/** The pixel size of an image, as its header states it. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/** The header formats whose size read checks: the four image types it attaches. */
const SIZED_TYPES = new Set(["png", "jpg", "gif", "webp"]);

/**
 * The width and height a PNG (IHDR), JPEG (SOF0–SOF2), GIF (logical screen)
 * or WebP (VP8, VP8L, VP8X) header states, read by `image-size` from the
 * bytes without decoding pixels. `undefined` when the bytes hold none of
 * those four formats or the header is cut off or corrupt: the caller then
 * treats the image as it did before sizes were checked.
 */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  // image-size reads through `bytes.buffer` with DataViews, so a view over a
  // larger buffer would let a cut-off header read bytes past the file's end
  // (read captures into a buffer of maxModelBytes + 1): pass an exact copy.
  const exact = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  try {
    const size = imageSize(exact);
    const { width, height, type } = size;
    if (type === undefined || !SIZED_TYPES.has(type)) return undefined;
    if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 0 || height < 0) return undefined;
    return { width, height };
  } catch {
    // image-size throws a TypeError for an unknown type or a header it cannot read.
    return undefined;
  }
}
