/**
 * Object keys and HTTP metadata of shared files (spec 04 §1.4–1.5).
 *
 * @module
 */
import { basename as lastSegment, normalizePath } from "../util/path.js";
import { headCut } from "../util/cut.js";

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
 * At most {@link MAX_CONTENT_TYPE_CHARS} (1,024) characters.
 *
 * @param who the caller named at the start of the message (`share`, `publish`).
 * @throws TypeError `<who>: contentType must be at most 1024 characters (…), got <length>`.
 * @throws TypeError `<who>: contentType must be a header value — printable ASCII (U+0020–U+007E), tab or U+0080–U+00FF, no control characters such as CR or LF; got <JSON of the first 64 characters>`.
 */
export function checkContentType(value: string, who: string): string {
  if (value.length > MAX_CONTENT_TYPE_CHARS) {
    throw new TypeError(`${who}: contentType must be at most ${MAX_CONTENT_TYPE_CHARS} characters (R2 stores 8,192 bytes of metadata in all), got ${value.length}`);
  }
  if (/[^\t\u0020-\u007e\u0080-\u00ff]/.test(value)) {
    throw new TypeError(`${who}: contentType must be a header value — printable ASCII (U+0020–U+007E), tab or U+0080–U+00FF, no control characters such as CR or LF; got ${JSON.stringify(headCut(value, 64))}`);
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

/**
 * Most bytes (UTF-8) of an object key R2 takes: 1,024 (R2 "Limits"). A
 * shared file's key `<prefix>/<id>/<basename>` is kept within it by
 * shortening the basename ({@link fitName}).
 */
export const MAX_KEY_BYTES = 1024;

/**
 * Most bytes (UTF-8) of the `sourcePath` custom metadata stored with a shared
 * object: 1,024. A longer path (a Workspace path may hold 256 KiB, R2 takes
 * 8,192 bytes of metadata in all) is stored as its start, `…` and its end
 * ({@link fitSourcePath}).
 */
export const MAX_SOURCE_PATH_BYTES = 1024;

/**
 * Most characters of a caller's Content-Type: 1,024 (media types are a few dozen; R2 takes 8,192 bytes of
 * metadata in all). Longer rejects `TypeError` ({@link checkContentType}).
 */
export const MAX_CONTENT_TYPE_CHARS = 1024;

/**
 * Most bytes (UTF-8) of the Content-Disposition value a shared object stores: 3,072. The file name in it (the
 * caller's `filename`, or the key's basename) is shortened to `<start of stem>…<extension>` until the value fits
 * ({@link fitDisposition}). With the other metadata — `sourcePath` and `sessionId` ≤ 1,024 bytes each, a Content-Type
 * of ≤ 1,024 characters (≤ 2,048 bytes: U+0080–U+00FF take two), `expiresAt` and the keys — it stays within R2's 8,192.
 */
export const MAX_DISPOSITION_BYTES = 3072;

/**
 * Most bytes (UTF-8) of the `sessionId` custom metadata stored with a shared object: 1,024. A longer session id is
 * stored as its start, `…` and its end, as `sourcePath` is.
 */
export const MAX_SESSION_ID_BYTES = 1024;

/** What stands for the characters a shortened name or path leaves out: `…` (U+2026, 3 bytes of UTF-8). */
const CUT = "\u2026";

/** UTF-8 length of one code point (a lone surrogate counts as U+FFFD, 3 bytes). */
function utf8Length(point: string): number {
  const c = point.codePointAt(0)!;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/** The longest start (or end) of `text` whose UTF-8 is at most `maxBytes`, cut between code points. */
function fitUtf8(text: string, maxBytes: number, keep: "start" | "end"): string {
  const points = Array.from(text);
  if (keep === "end") points.reverse();
  const out: string[] = [];
  let bytes = 0;
  for (const point of points) {
    bytes += utf8Length(point);
    if (bytes > maxBytes) break;
    out.push(point);
  }
  if (keep === "end") out.reverse();
  return out.join("");
}

/** Bytes of `text` in UTF-8. */
function utf8Bytes(text: string): number {
  let n = 0;
  for (const point of text) n += utf8Length(point);
  return n;
}

/**
 * `path` as stored in a shared object's `sourcePath`: unchanged when its
 * UTF-8 fits {@link MAX_SOURCE_PATH_BYTES} (1,024 bytes), else its first
 * 510 bytes, `…` and its last 511 bytes (cut between characters), so the
 * file's name and the top of its directory stay readable.
 */
export function fitSourcePath(path: string): string {
  return fitMiddle(path, MAX_SOURCE_PATH_BYTES);
}

/** `text` unchanged when its UTF-8 fits `maxBytes`, else its start, `…` and its end within `maxBytes` (cut between characters). */
export function fitMiddle(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  const room = maxBytes - utf8Bytes(CUT);
  const head = Math.floor(room / 2);
  return fitUtf8(text, head, "start") + CUT + fitUtf8(text, room - head, "end");
}

/**
 * {@link contentDisposition} of `name`, its UTF-8 at most {@link MAX_DISPOSITION_BYTES} (3,072 bytes): `name` is
 * shortened to `<start of stem>…<extension>` (as {@link fitName} does) as far as needed — a name of escaped or
 * non-ASCII characters takes up to five bytes of header per byte of name.
 */
export function fitDisposition(disposition: "inline" | "attachment", name: string): string {
  let value = contentDisposition(disposition, name);
  let bytes = utf8Bytes(value);
  let room = utf8Bytes(name);
  while (bytes > MAX_DISPOSITION_BYTES && room > 1) {
    room = Math.max(1, Math.min(room - 1, Math.floor((room * MAX_DISPOSITION_BYTES) / bytes) - 16));
    value = contentDisposition(disposition, shortenName(name, room) ?? fitUtf8(name, room, "start"));
    bytes = utf8Bytes(value);
  }
  return value;
}

/**
 * `name` within `room` bytes of UTF-8: unchanged, or `<start of stem>…<extension>` (the extension is the last `.`
 * and up to 16 bytes after it); `null` when not even one character of the stem fits.
 */
function shortenName(name: string, room: number): string | null {
  if (utf8Bytes(name) <= room) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && utf8Bytes(name.slice(dot)) <= 17 ? name.slice(dot) : "";
  const stemRoom = room - utf8Bytes(CUT) - utf8Bytes(extension);
  const stem = stemRoom > 0 ? fitUtf8(name.slice(0, name.length - extension.length), stemRoom, "start") : "";
  return stem === "" ? null : stem + CUT + extension;
}

/**
 * The basename a shared object's key and Content-Disposition use: `name`
 * unchanged when `<prefix>/<id>/<name>` fits {@link MAX_KEY_BYTES} (1,024
 * bytes of UTF-8), else the start of its stem, `…` and its extension (the
 * last `.` and up to 16 bytes after it, which sets the Content-Type), to fit
 * exactly as much as the key has room for: `/d/aaaa….txt` →
 * `aaa…aaa….txt`.
 * @param keyHead the key before the name: `<prefix>/<id>/` (or `<id>/`).
 * @throws TypeError `share: prefix is too long: the key <prefix>/<id>/<name> must fit R2's 1024 bytes; …` when even a one-character name does not fit.
 */
export function fitName(keyHead: string, name: string): string {
  const room = MAX_KEY_BYTES - utf8Bytes(keyHead);
  const short = shortenName(name, room);
  if (short === null) {
    throw new TypeError(
      `share: prefix is too long: the key <prefix>/<id>/<name> must fit R2's ${MAX_KEY_BYTES} bytes; the prefix leaves ${Math.max(room, 0)} bytes for the name; use a shorter prefix`,
    );
  }
  return short;
}

/** `<prefix>/<id>/<basename>`, or `<id>/<basename>` when the normalised prefix is empty. */
export function assetKey(prefix: string | undefined, id: string, name: string): string {
  const p = normalizePrefix(prefix ?? "");
  return p === "" ? `${id}/${name}` : `${p}/${id}/${name}`;
}
