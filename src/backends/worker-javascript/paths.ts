/**
 * Confined path resolution for the JavaScript backend (spec 02 §3.4): lexical
 * normalisation, confinement under `root`, and refusal of symbolic links on
 * the way.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "../../fs/types.js";

/** An error with a POSIX-style `code` and the `path` it concerns. */
export function pathError(code: string, message: string, path?: string): Error & { code: string; path?: string } {
  const err = new Error(message) as Error & { code: string; path?: string };
  err.code = code;
  if (path !== undefined) err.path = path;
  return err;
}

/** Joins and normalises lexically (`.` and `..` collapse; `..` above `/` stays at `/`). */
export function normalize(path: string, base = "/"): string {
  const full = path.startsWith("/") ? path : `${base}/${path}`;
  const parts: string[] = [];
  for (const seg of full.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

/** The directory part of an absolute path. */
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** True when `path` is `root` or below it. */
export function isUnder(path: string, root: string): boolean {
  return root === "/" || path === root || path.startsWith(root + "/");
}

/**
 * Resolves `input` (relative ones against `base`, default `root`), confines
 * it under `root` and refuses symbolic links on every component (all but the
 * last with `allowLastLink`).
 *
 * @throws `EINVAL` for a NUL byte, `EACCES` outside root (`paths must stay
 *   under <root>`) or through a link (`cannot traverse symbolic link`).
 */
export async function resolveConfined(
  fs: WorkspaceFilesystem,
  root: string,
  input: string,
  options: { base?: string; allowLastLink?: boolean } = {},
): Promise<string> {
  if (typeof input !== "string") throw new TypeError(`path must be a string, got ${typeof input}`);
  if (input.includes("\0")) throw pathError("EINVAL", `path contains a NUL byte: ${JSON.stringify(input)}`, input);
  const abs = normalize(input, options.base ?? root);
  if (!isUnder(abs, root)) throw pathError("EACCES", `paths must stay under ${root}: ${input}`, abs);
  const segments = abs.split("/").filter(Boolean);
  const last = options.allowLastLink ? segments.length - 1 : segments.length;
  let prefix = "";
  for (let i = 0; i < last; i++) {
    prefix += "/" + segments[i];
    let isLink: boolean;
    try {
      isLink = (await fs.lstat(prefix)).isSymbolicLink;
    } catch (err) {
      if ((err as { code?: string }).code === "ENOENT" || (err as { code?: string }).code === "ENOTDIR") break;
      throw err;
    }
    if (isLink) throw pathError("EACCES", `cannot traverse symbolic link: ${prefix}`, prefix);
  }
  return abs;
}
