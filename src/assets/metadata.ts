/**
 * Object keys and HTTP metadata of shared files (spec 04 §1.4–1.5).
 *
 * @module
 */

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

/**
 * Content-Disposition header value: `<disposition>; filename="<name>"` with
 * `"` and `\` backslash-escaped. When `name` has a character outside
 * U+0020–U+007E, `; filename*=UTF-8''<encodeURIComponent(name)>` is appended
 * (the quoted part stays as is).
 *
 * @example
 * contentDisposition("attachment", "rép ort.PDF")
 * // `attachment; filename="rép ort.PDF"; filename*=UTF-8''r%C3%A9p%20ort.PDF`
 */
export function contentDisposition(disposition: "inline" | "attachment", name: string): string {
  let value = `${disposition}; filename="${name.replace(/["\\]/g, "\\$&")}"`;
  if (/[^\u0020-\u007e]/.test(name)) value += `; filename*=UTF-8''${encodeURIComponent(name)}`;
  return value;
}

/**
 * Normalises a bucket key prefix: split on `/`, drop empty segments, rejoin.
 * `"/agent-x//y/"` → `"agent-x/y"`; `""` and `"/"` → `""`. `.` and `..` are
 * kept literally (a key prefix, not a path).
 */
export function normalizePrefix(prefix: string): string {
  return prefix.split("/").filter((s) => s !== "").join("/");
}

/**
 * Last segment of a path after dropping one trailing `/`:
 * `"/workspace/out/chart.png"` → `"chart.png"`.
 */
export function basename(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** `<prefix>/<id>/<basename>`, or `<id>/<basename>` when the normalised prefix is empty. */
export function assetKey(prefix: string | undefined, id: string, name: string): string {
  const p = normalizePrefix(prefix ?? "");
  return p === "" ? `${id}/${name}` : `${p}/${id}/${name}`;
}
