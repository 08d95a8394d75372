/**
 * Canonical paths (spec 01 §2.1): absolute, `/`-separated, empty and `.`
 * segments dropped, `..` applied lexically (before any link is resolved).
 *
 * @module
 */
import { WorkspaceFsError } from "./errors.js";

/**
 * Returns the canonical form of `path`.
 * @throws WorkspaceFsError `EINVAL` for a non-string, empty, relative or NUL-containing path, or one escaping `/`.
 */
export function canonicalPath(path: unknown, syscall: string): string {
  if (typeof path !== "string") {
    throw new WorkspaceFsError("EINVAL", syscall, undefined, `path must be a string, got ${describe(path)}`);
  }
  if (path === "" || path[0] !== "/") {
    throw new WorkspaceFsError("EINVAL", syscall, path, "path must be absolute (start with /)");
  }
  if (path.includes("\0")) throw new WorkspaceFsError("EINVAL", syscall, path.replaceAll("\0", "\\0"), "path contains NUL");
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) throw new WorkspaceFsError("EINVAL", syscall, path, "path escapes the root");
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return "/" + out.join("/");
}

/** True when `path` is absolute and already canonical (no empty, `.` or `..` segments, no trailing `/` but for `/`). */
export function isCanonicalPath(path: string): boolean {
  try {
    return canonicalPath(path, "check") === path;
  } catch {
    return false;
  }
}

/** Segments of a canonical path (`[]` for `/`). */
export function segmentsOf(canonical: string): string[] {
  return canonical === "/" ? [] : canonical.slice(1).split("/");
}

/** Last segment of a canonical path (`""` for `/`). */
export function baseName(canonical: string): string {
  return canonical.slice(canonical.lastIndexOf("/") + 1);
}

/** `dir` + `/` + `rel`, without doubling the slash at the root. */
export function joinPath(dir: string, rel: string): string {
  return dir === "/" ? `/${rel}` : `${dir}/${rel}`;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
