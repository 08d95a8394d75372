/**
 * Lexical path primitives for absolute, `/`-separated paths. Pure: no I/O,
 * no errors, no imports. The VFS's own validating form (EINVAL for relative
 * or escaping paths) is `canonicalPath` in `fs/path.ts`; these are the
 * forgiving forms the tools, runtime and assets layers share.
 *
 * @module
 */

/**
 * Joins `path` to `base` when it is relative, then normalises lexically:
 * empty and `.` segments dropped, `..` applied (never above `/`, where it
 * stays). Always absolute, no trailing `/` but for `/` itself.
 *
 * @example
 * normalizePath("/a//b/./c/../d")  // "/a/b/d"
 * normalizePath("../../x")         // "/x"
 * normalizePath("src", "/workspace") // "/workspace/src"
 */
export function normalizePath(path: string, base = "/"): string {
  const full = path.startsWith("/") ? path : `${base}/${path}`;
  const out: string[] = [];
  for (const segment of full.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return "/" + out.join("/");
}

/**
 * True when the normalised `path` is `root` itself or below it. Both must
 * already be normalised; `/` holds every path.
 *
 * @example
 * isUnder("/workspace/a", "/workspace") // true
 * isUnder("/workspaces", "/workspace")  // false
 */
export function isUnder(path: string, root: string): boolean {
  return root === "/" || path === root || path.startsWith(root + "/");
}

/**
 * The last segment after dropping one trailing `/` (no normalisation):
 * `"/workspace/out/chart.png"` → `"chart.png"`, `"/a/b/"` → `"b"`, `"/"` → `""`.
 */
export function basename(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** The directory part of an absolute path: everything before the last `/`, or `/` at the top (`"/a"` → `"/"`, `"/a/b"` → `"/a"`). */
export function dirname(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/**
 * The form of a path that can only name a directory, as open(2) and stat(2)
 * read it: `"slash"` when a name is followed by `/` (`/w/f/`, `f/`), `"dot"`
 * when the last segment after a name is `.` (`/w/f/.`, `/w/f/./`); `null`
 * otherwise — a plain name, `/`, `.`, `""`, or a last `..` (which lexical
 * normalisation resolves to the parent). {@link normalizePath} and the
 * Workspace drop such a tail (spec 01 §2.1), so callers that answer as
 * POSIX does (`f.txt/` of a file is `ENOTDIR`) check it on the path as written.
 *
 * @example
 * directoryForm("/w/f.txt/")  // "slash"
 * directoryForm("/w/d/./")    // "dot"
 * directoryForm("/w/d/..")    // null
 */
export function directoryForm(path: string): "slash" | "dot" | null {
  let end = path.length;
  let dot = false;
  // Walk back over trailing "/" and "." segments (no split: a path may be long).
  for (;;) {
    if (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
    else if (end > 0 && path.charCodeAt(end - 1) === 0x2e && (end === 1 || path.charCodeAt(end - 2) === 0x2f)) {
      dot = true;
      end--;
    } else break;
  }
  if (end === path.length || end === 0) return null;
  if (path.charCodeAt(end - 1) === 0x2e && path.charCodeAt(end - 2) === 0x2e && (end === 2 || path.charCodeAt(end - 3) === 0x2f)) return null;
  return dot ? "dot" : "slash";
}

/**
 * The last segment of `path` as written, trailing `/` ignored — not
 * normalised, so `.` and `..` stay what they are: `"d/.."` → `".."`,
 * `"/w/d/./"` → `"."`, `"/w/f.txt"` → `"f.txt"`, `"/"` and `""` → `""`.
 */
export function lastSegment(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}
