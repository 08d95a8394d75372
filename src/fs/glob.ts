/**
 * Globs for `find` patterns, `exclude` and grep `include` (spec 01 §3.4),
 * matched by picomatch against the whole path relative to the searched
 * directory: `*` and `?` stop at `/`, `**` spans segments, `{a,b}`
 * alternates; brackets, extglobs and `!` negation are literal; dot-files get
 * no special treatment.
 *
 * @module
 */
import picomatch from "picomatch";

const OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  nobracket: true,
  noextglob: true,
  nonegate: true,
};

export type Matcher = (relative: string) => boolean;

/** Compiles a glob; `undefined` or `""` match everything. */
export function compileGlob(pattern: string | undefined): Matcher {
  if (pattern === undefined || pattern === "") return () => true;
  return picomatch(pattern, OPTIONS);
}

/**
 * Compiles `exclude` globs into a test for entries and a test for
 * directories; a glob `X/**` also prunes a directory matching `X`.
 */
export function compileExclude(globs: readonly string[] | undefined): { entry: Matcher; dir: Matcher } | undefined {
  const patterns = (globs ?? []).filter((glob) => glob !== "");
  if (patterns.length === 0) return undefined;
  const entry = picomatch(patterns, OPTIONS);
  const dirPatterns = patterns.filter((glob) => glob.length > 3 && glob.endsWith("/**")).map((glob) => glob.slice(0, -3));
  const dirOnly = dirPatterns.length > 0 ? picomatch(dirPatterns, OPTIONS) : () => false;
  return { entry, dir: (relative) => entry(relative) || dirOnly(relative) };
}
