/**
 * Object keys and HTTP metadata of shared files (spec 04 §1.4–1.5).
 *
 * @module
 */
import { basename as lastSegment, normalizePath } from "../util/path.js";

const TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  json: "application/json",
  xml: "application/xml",
  pdf: "application/pdf",
  zip: "application/zip",
  yaml: "application/yaml",
  yml: "application/yaml",
  gz: "application/gzip",
  tar: "application/x-tar",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
};

/** Content-Type used when the extension is missing or unknown. */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/**
 * Content-Type for a file name, by its last extension (case-insensitive).
 * No dot, only a leading dot (`.env`), or an unknown extension →
 * `application/octet-stream`.
 *
 * @example
 * contentTypeFor("x.tar.gz") // "application/gzip"
 * contentTypeFor("A.PDF")    // "application/pdf"
 */
export function contentTypeFor(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  const ext = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(TYPES, ext) ? TYPES[ext]! : DEFAULT_CONTENT_TYPE;
}

/** `text` with every lone UTF-16 surrogate replaced by U+FFFD (what a UTF-8 encoder writes), so it can be URL-encoded. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/**
 * Checks a caller's Content-Type: it becomes a header value R2 serves, so it
 * may hold only printable ASCII (U+0020–U+007E), tab, and U+0080–U+00FF —
 * the characters a header value carries (RFC 9110 field-value; the Fetch
 * ByteString). A control character (CR and LF included, which would split
 * the header) or a character above U+00FF is refused, not cleaned: unlike a
 * file name, a changed media type would serve the file as something else.
 *
 * @param who the caller named at the start of the message (`share`, `publish`).
 * @throws TypeError `<who>: contentType must be a header value — printable ASCII (U+0020–U+007E), tab or U+0080–U+00FF, no control characters such as CR or LF; got <JSON of the first 64 characters>`.
 */
export function checkContentType(value: string, who: string): string {
  if (/[^\t\u0020-\u007e\u0080-\u00ff]/.test(value)) {
    throw new TypeError(`${who}: contentType must be a header value — printable ASCII (U+0020–U+007E), tab or U+0080–U+00FF, no control characters such as CR or LF; got ${JSON.stringify(value.slice(0, 64))}`);
  }
  return value;
}

/**
 * Content-Disposition header value: `<disposition>; filename="<name>"` with
 * `"` and `\` backslash-escaped and control characters (U+0000–U+001F,
 * U+007F, which a header cannot carry) replaced by `_`. When `name` has a character outside
 * U+0020–U+007E, `; filename*=UTF-8''<encodeURIComponent(name)>` is appended
 * (the quoted part stays as is).
 *
 * @example
 * contentDisposition("attachment", "rép ort.PDF")
 * // `attachment; filename="rép ort.PDF"; filename*=UTF-8''r%C3%A9p%20ort.PDF`
 */
export function contentDisposition(disposition: "inline" | "attachment", name: string): string {
  name = wellFormed(name);
  // Control characters (CR, LF, …) cannot appear in a header value: "_" in the quoted part; filename* keeps them encoded.
  const quoted = name.replace(/[\u0000-\u001f\u007f]/g, "_").replace(/["\\]/g, "\\$&");
  let value = `${disposition}; filename="${quoted}"`;
  if (/[^\u0020-\u007e]/.test(name)) value += `; filename*=UTF-8''${encodeURIComponent(name)}`;
  return value;
}

/**
 * Normalises a bucket key prefix: split on `/`, drop empty segments, rejoin.
 * `"/agent-x//y/"` → `"agent-x/y"`; `""` and `"/"` → `""`. `.` and `..`
 * are not interpreted (a key prefix, not a path) — and refused, because a URL
 * with such a segment is collapsed by every client and would not reach the
 * object.
 * @throws TypeError for a `.` or `..` segment.
 */
export function normalizePrefix(prefix: string): string {
  const segments = prefix.split("/").filter((s) => s !== "");
  if (segments.some((s) => s === "." || s === "..")) {
    throw new TypeError(`share: prefix ${JSON.stringify(prefix)} has a "." or ".." segment, which a URL cannot address; use other characters`);
  }
  return segments.join("/");
}

/**
 * Last segment of a path after dropping one trailing `/`:
 * `"/workspace/out/chart.png"` → `"chart.png"`. A last segment of `.` or
 * `..` is resolved first (`"/out/f.txt/."` → `"f.txt"`), since a key ending
 * in a dot segment cannot be reached by URL.
 */
export function basename(path: string): string {
  const name = lastSegment(path);
  // "/out/f.txt/." names f.txt: take the last segment of the path with "." and ".." applied, as the filesystem does.
  return name === "." || name === ".." ? lastSegment(normalizePath(path)) : name;
}

/** `<prefix>/<id>/<basename>`, or `<id>/<basename>` when the normalised prefix is empty. */
export function assetKey(prefix: string | undefined, id: string, name: string): string {
  const p = normalizePrefix(prefix ?? "");
  return p === "" ? `${id}/${name}` : `${p}/${id}/${name}`;
}
