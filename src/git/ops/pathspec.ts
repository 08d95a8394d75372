/**
 * Option checks and pathspecs shared by the git operations (spec 04 §2.3):
 * a `paths` entry is relative to `dir` (or absolute inside it) and matches a
 * repository path exactly or as a directory prefix — or, when it holds one of
 * git's glob characters `*`, `?`, `[` or `\`, also as a pattern, as git matches
 * a pathspec ({@link matchesSpec}, `wildmatch` in ../wildmatch.ts).
 *
 * @module
 */
import { normalizePath } from "../../util/path.js";
import { GitError, PathOutsideRepoError } from "../errors.js";
import { isGlobSpec, literalMatch, literalPrefix, matchesPathspec } from "../wildmatch.js";

/** `GitError` `EUSAGE` for a bad option of `git <op>`. */
export function usage(op: string, message: string): GitError {
  return new GitError("EUSAGE", `git ${op}: ${message}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/**
 * `options[key]` as a string, or `fallback` when it is `undefined`.
 * @throws GitError `EUSAGE` when it is present and not a non-empty string (or missing without a fallback).
 */
export function stringOption(op: string, options: object, key: string, fallback?: string): string {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "string" || value === "") {
    throw usage(op, `${key} must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/** `options[key]` as an optional string. @throws GitError `EUSAGE` when present and not a non-empty string. */
export function optionalString(op: string, options: object, key: string): string | undefined {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  return stringOption(op, options, key);
}

/** `options[key]` as a boolean, default `false`. @throws GitError `EUSAGE` when present and not a boolean. */
export function boolOption(op: string, options: object, key: string): boolean {
  const value = (options as Record<string, unknown>)[key];
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw usage(op, `${key} must be a boolean, got ${describe(value)}`);
  return value;
}

/**
 * `options.paths` as an array of strings, or `undefined` when absent.
 * @throws GitError `EUSAGE` when present and not an array of non-empty strings.
 */
export function pathsOption(op: string, options: object): string[] | undefined {
  const value = (options as { paths?: unknown }).paths;
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((p) => typeof p !== "string" || p === "")) {
    throw usage(op, `paths must be an array of non-empty strings, got ${describe(value)}`);
  }
  return value as string[];
}

/**
 * One pathspec as a repository path: `""` is the whole tree; otherwise a
 * `/`-separated path relative to `dir`, without `.`/`..` segments. A path
 * written in directory form — ending in `/` or `/.` (`src/`, `src/.`) —
 * keeps one trailing `/` (`"src/"`): as in git, it matches only what is
 * below a directory `src`, never a file `src` ({@link matchesSpec}).
 * @throws PathOutsideRepoError when it leaves `dir` (`../x`, an absolute path elsewhere).
 */
export function toRepoPath(dir: string, path: string): string {
  const full = normalizePath(path, dir);
  if (full === dir) return "";
  const prefix = dir === "/" ? "/" : `${dir}/`;
  if (!full.startsWith(prefix)) throw new PathOutsideRepoError(path, dir);
  return isDirectoryForm(path) ? `${full.slice(prefix.length)}/` : full.slice(prefix.length);
}

/** Whether `path` is written in directory form: its last segment is empty or `.` (`x/`, `x/.`, `x/./`). */
export function isDirectoryForm(path: string): boolean {
  return /\/(?:\.\/?)*$/.test(path) || /(?:^|\/)\.$/.test(path);
}

/** {@link toRepoPath} of each; `[""]` (the whole tree) when `paths` is `undefined` or empty. */
export function toRepoPaths(dir: string, paths: string[] | undefined): string[] {
  if (paths === undefined || paths.length === 0) return [""];
  return paths.map((p) => toRepoPath(dir, p));
}

/**
 * True when `path` is `spec` or below it (`""` matches everything); a spec
 * in directory form (`"x/"`, from {@link toRepoPath}) matches only below `x`.
 * A spec holding a glob character ({@link isGlobSpec}) also matches a path
 * its pattern matches as a whole, as git's pathspecs do: `wildmatch` (../wildmatch.ts)
 * without `WM_PATHNAME`, so `*` and `?` cross `/` (`*.txt` matches
 * `sub/c.txt`, `sub/*` matches `sub/x/e.txt`). The literal match is tried
 * first, so a file named `[ab].txt` matches the spec `[ab].txt` (and so does
 * `a.txt`).
 */
export function matchesSpec(path: string, spec: string): boolean {
  return matchesPathspec(path, spec);
}

/** True when `path` matches one of `specs`. */
export function matchesAny(path: string, specs: string[]): boolean {
  return specs.some((spec) => matchesSpec(path, spec));
}

/**
 * True when a walk must enter `dirPath` to reach one of `specs` (it matches one, or lies above one; for a glob
 * spec, the part before its first glob character and `dirPath/` agree as far as both go, as git's
 * `DO_MATCH_LEADING_PATHSPEC`).
 */
export function worthEntering(dirPath: string, specs: string[]): boolean {
  return specs.some((spec) => {
    if (literalMatch(dirPath, spec) || literalMatch(spec, dirPath)) return true;
    if (!isGlobSpec(spec)) return false;
    const prefix = literalPrefix(spec);
    const dir = `${dirPath}/`;
    return dir.startsWith(prefix) || prefix.startsWith(dir);
  });
}

const encoder = new TextEncoder();

/** Orders paths as git does: by their UTF-8 bytes. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  // Fast path: UTF-16 order equals UTF-8 byte order unless a surrogate pair meets U+E000–U+FFFF.
  if (!/[\ud800-\udfff]/.test(a) && !/[\ud800-\udfff]/.test(b)) return a < b ? -1 : 1;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
