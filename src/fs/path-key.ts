/**
 * Path keys: the materialised path of a node (`__ws_nodes.path_key`, schema
 * 3), a string that sorts in depth-first pre-order with siblings by name byte
 * order, so that a subtree is one contiguous key range.
 *
 * A key is `SEP + name₁ + SEP + name₂ …` (`""` for `/`), each name escaped so
 * that `SEP` (U+0001) sorts before every byte a name can hold: a name's U+0001
 * becomes U+0002 U+0002 and its U+0002 becomes U+0002 U+0003 (order and
 * prefixes are kept; names never hold NUL or `/`). Under SQLite's `BINARY`
 * collation (byte order of UTF-8), the keys of directory `k`'s subtree are
 * exactly those in `[k + SEP, k + SEP_END)`, in the order `find` walks.
 *
 * Pure string functions: no SQL.
 *
 * @module
 */

/** Separator before each name in a key; sorts before every byte of an escaped name. */
export const SEP = "\u0001";

/** Upper bound (exclusive) of a subtree: `key + SEP_END` follows every `key + SEP + …`. */
export const SEP_END = "\u0002";

const NEEDS_ESCAPE = /[\u0001\u0002]/;
const ESCAPE = /[\u0001\u0002]/g;
const UNESCAPE = /\u0002([\u0002\u0003])/g;

/** A name as it appears in a key. */
export function encodeName(name: string): string {
  return NEEDS_ESCAPE.test(name) ? name.replace(ESCAPE, (c) => (c === SEP ? "\u0002\u0002" : "\u0002\u0003")) : name;
}

/** The key of child `name` of the directory whose key is `parent`. */
export function childKey(parent: string, name: string): string {
  return parent + SEP + encodeName(name);
}

/** The key of the canonical path with these segments (`""` for `/`). */
export function keyOf(segments: readonly string[]): string {
  return segments.length === 0 ? "" : pathKey("/" + segments.join("/"));
}

/** The key of a canonical path (`""` for `/`). */
export function pathKey(canonical: string): string {
  if (canonical === "/") return "";
  if (!NEEDS_ESCAPE.test(canonical)) return canonical.replaceAll("/", SEP);
  let key = "";
  for (const name of canonical.slice(1).split("/")) key += SEP + encodeName(name);
  return key;
}

/** The key of `segments[0..depth)` for every depth 1..n (shortest first). */
export function prefixKeys(segments: readonly string[]): string[] {
  const keys: string[] = [];
  let key = "";
  for (const segment of segments) keys.push((key += SEP + encodeName(segment)));
  return keys;
}

/** The `/`-separated path that `key.slice(from)` stands for (`from` just past a separator). */
export function keyToRelative(key: string, from: number): string {
  const path = key.slice(from).replaceAll(SEP, "/");
  return path.includes("\u0002") ? path.replace(UNESCAPE, (_, c: string) => (c === "\u0002" ? "\u0001" : "\u0002")) : path;
}

/** The canonical path of a key (`/` for `""`). */
export function keyToPath(key: string): string {
  return key === "" ? "/" : "/" + keyToRelative(key, 1);
}

/** True when `key` lies strictly below the node whose key is `ancestor`. */
export function isKeyBelow(key: string, ancestor: string): boolean {
  return key.length > ancestor.length && key.startsWith(ancestor + SEP);
}
