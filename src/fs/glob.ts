/**
 * Globs for `find` patterns, `exclude` and grep `include` (spec 01 §3.4),
 * matched by picomatch against the whole path relative to the searched
 * directory: `*` and `?` stop at `/`, `**` spans segments, `{a,b}`
 * alternates; brackets, extglobs and `!` negation are literal; dot-files get
 * no special treatment. `{a,b}` alternations are expanded first, as the
 * spec defines them (nestable; no top-level comma or no closing `}` →
 * literal), so an alternation of two recursive globs matches top-level files
 * just as each glob alone does. (The `braces` package does this too, but it
 * also expands ranges and needs `require("util")`, which bundled Workers
 * cannot load.)
 *
 * @module
 */
import picomatch from "picomatch";

const OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  nobracket: true,
  noextglob: true,
  nonegate: true,
  // Alternations are expanded here (see alternatives()); picomatch must not also read {1..3} ranges.
  nobrace: true,
};

export type Matcher = (relative: string) => boolean;

/** Expansions of `{a,b}` alternations beyond which the pattern is left to picomatch as is. */
const MAX_EXPANSIONS = 256;

/**
 * The alternatives of a glob: `{a,b}` alternations expanded (spec 01 §3.4),
 * or the glob itself when it has none or would expand past MAX_EXPANSIONS.
 */
function alternatives(pattern: string): string[] {
  const out = expand(pattern, MAX_EXPANSIONS + 1);
  return out.length > 0 && out.length <= MAX_EXPANSIONS ? out : [pattern];
}

/** Expands the first closed group with a top-level comma, recursively; stops after `budget` results. */
function expand(pattern: string, budget: number): string[] {
  for (let open = pattern.indexOf("{"); open !== -1; open = pattern.indexOf("{", open + 1)) {
    const commas: number[] = [];
    let depth = 0;
    let close = -1;
    for (let i = open; i < pattern.length && close === -1; i++) {
      const c = pattern[i];
      if (c === "{") depth++;
      else if (c === "}" && --depth === 0) close = i;
      else if (c === "," && depth === 1) commas.push(i);
    }
    if (close === -1 || commas.length === 0) continue; // literal braces
    const prefix = pattern.slice(0, open);
    const suffix = pattern.slice(close + 1);
    const bounds = [open, ...commas, close];
    const out: string[] = [];
    for (let k = 0; k + 1 < bounds.length && out.length < budget; k++) {
      out.push(...expand(prefix + pattern.slice(bounds[k] + 1, bounds[k + 1]) + suffix, budget - out.length));
    }
    return out;
  }
  return [pattern];
}

/** One glob, alternations expanded. */
function compileOne(pattern: string): Matcher {
  const matchers = alternatives(pattern).map(compileAlternative);
  return matchers.length === 1 ? matchers[0] : (relative) => matchers.some((match) => match(relative));
}

/**
 * One glob without alternations. picomatch lets `X/**` match `X` itself; in
 * the spec's grammar `X/**` needs the `/`, so that case is excluded here.
 */
function compileAlternative(pattern: string): Matcher {
  const matcher = picomatch(pattern, OPTIONS);
  const parent = pattern.slice(0, -3);
  if (pattern.length > 3 && pattern.endsWith("/**") && !parent.includes("**")) {
    const parentMatcher = picomatch(parent, OPTIONS);
    return (relative) => matcher(relative) && !parentMatcher(relative);
  }
  return matcher;
}

/** Compiles a glob; `undefined` or `""` match everything. */
export function compileGlob(pattern: string | undefined): Matcher {
  if (pattern === undefined || pattern === "") return () => true;
  return compileOne(pattern);
}

/** Compiled `exclude` globs. */
export interface Exclude {
  /** The entry is dropped from results (and, if a directory, not walked). */
  drop: Matcher;
  /** The directory is not walked (it matches `X` of some `X/**`), though it may still be reported. */
  prune: Matcher;
}

/** Compiles `exclude` globs; `""` entries are ignored. Returns `undefined` when nothing is excluded. */
export function compileExclude(globs: readonly string[] | undefined): Exclude | undefined {
  const patterns = (globs ?? []).filter((glob) => glob !== "");
  if (patterns.length === 0) return undefined;
  const matchers = patterns.map(compileOne);
  const parents = patterns
    .flatMap(alternatives)
    .filter((glob) => glob.length > 3 && glob.endsWith("/**"))
    .map((glob) => picomatch(glob.slice(0, -3), OPTIONS));
  return {
    drop: (relative) => matchers.some((match) => match(relative)),
    prune: (relative) => parents.some((match) => match(relative)),
  };
}
