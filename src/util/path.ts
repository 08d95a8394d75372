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
