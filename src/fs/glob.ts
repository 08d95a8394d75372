/**
 * Globs for `find` patterns, `exclude` and grep `include` (spec 01 §3.4),
 * matched against the whole path relative to the searched directory: `*`
 * and `?` stop at `/`, a `**` segment spans segments (a `**` inside a
 * segment is a `*`), `{a,b}` alternates; everything else is literal —
 * brackets, parentheses, quotes, extglobs and `!` included — but `\`, which
 * escapes the next character as in picomatch (`\{a,b\}` is the literal name
 * `{a,b}`, `{a\,b,c}` the alternatives `a,b` and `c`). No dot-file rule. `{a,b}`
 * alternations are expanded first, as the spec defines them (nestable; no
 * top-level comma or no closing `}` → literal), so an alternation of two
 * recursive globs matches top-level files just as each glob alone does. (The
 * `braces` package does this too, but it also expands ranges and needs
 * `require("util")`, which bundled Workers cannot load.) `X/**` never matches
 * `X` itself.
 *
 * **Bounded cost (issue 20 §2).** A glob is tested once per walked name, so
 * its cost per name must stay small whatever the pattern. picomatch compiles
 * to a backtracking regex; with several `*` runs in one segment, or several
 * `**` segments, that cost grows as a power of the name's length
 * (`*a*a*a*a*a*b` against 200 `a`s ran for minutes), and it passes `(a|b)`
 * and `a{2}` through as regex syntax. So each alternative is parsed here
 * (consecutive `**` segments collapse into one) and matched by
 * - picomatch's V8 regex only when it cannot backtrack badly and reads the
 *   glob literally: no `\ " ( ) { } ? $ ^ | +` in the glob (picomatch
 *   escapes only the first of `$$`, `^^` or `++` and leaves `*|x` an
 *   alternation, and hangs on `[a]` followed by backslashes; issue 20,
 *   fifteenth attack run), at most one `**` segment with at most
 *   {@link MILD_TAIL} segments after it, at most one run of `*` in each other
 *   segment. Each `*` then ranges only over its own segment, whose end is
 *   fixed, and only the `**` picks among the path's `/`s, trying the few
 *   segments after it at each. (Flag `s` is added so `**` also crosses names
 *   holding a line break.)
 * - otherwise a linear matcher. Within a segment, the pieces between `*`
 *   runs (literals and `?`) are matched in place (the first as a prefix, the
 *   last as a suffix) or found leftmost in order by Shift-And, one pass over
 *   the name with ceil(piece / 32) word operations per code point — so
 *   `*a` + 4,000 `?` + `b*` against a 200,000-character name costs
 *   milliseconds, not name × glob steps (issue 20, thirteenth attack run).
 *   Among segments it backtracks only to the latest `**` (at most names ×
 *   glob segments segment matches); the segments after the last `**` are
 *   matched once, against the path's last ones. There `?` is one code
 *   point, not one UTF-16 unit.
 * RE2 (`re2js`) was measured for the second role and rejected: picomatch's
 * regexes need lookaheads RE2 lacks, and on a regex built from the glob its
 * NFA took 50–100 ms per 255-character name for a 500-character glob. A glob
 * that comes to more than {@link MAX_GLOB_SIZE} characters once `{a,b}` is
 * expanded is a `TypeError`: the work per path is at most its length times
 * that.
 *
 * **Unicode (issue 12 §6).** Names are stored as given, but matching ignores
 * the difference between Unicode normalisation forms: the glob and each path
 * are compared in NFC, so `*é*` finds `Résumé.md` stored decomposed (NFD),
 * and an NFD glob finds an NFC name. Results report names as stored.
 *
 * @module
 */
import picomatch from "picomatch";
import { headCut } from "../util/cut.js";

const OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  nobracket: true,
  noextglob: true,
  nonegate: true,
  // Alternations are expanded here (see alternatives()); picomatch must not also read {1..3} ranges.
  nobrace: true,
  // `/` is the only separator, whatever platform the code runs on.
  windows: false,
};

export type Matcher = (relative: string) => boolean;

/** Expansions of `{a,b}` alternations beyond which the pattern is left as is (its braces literal). */
const MAX_EXPANSIONS = 256;

/**
 * Most characters a glob may come to once its `{a,b}` alternatives are
 * expanded (for `exclude`, all its globs together): each alternative is tested
 * against each walked path, so this bounds the work per path. More is a
 * `TypeError`.
 */
export const MAX_GLOB_SIZE = 4096;

/**
 * The alternatives of a glob: `{a,b}` alternations expanded (spec 01 §3.4),
 * or the glob itself when it has none or would expand past MAX_EXPANSIONS.
 */
function alternatives(pattern: string): string[] {
  const out = expand(pattern, MAX_EXPANSIONS + 1);
  return out.length > 0 && out.length <= MAX_EXPANSIONS ? out : [pattern];
}

/**
 * Expands the first closed group with a top-level comma, recursively; stops
 * after `budget` results. A `\` escapes the next character, as in picomatch
 * and bash: an escaped `{`, `,` or `}` is no part of an alternation, and the
 * backslash stays in the alternative, for parse() to read as a literal.
 */
function expand(pattern: string, budget: number): string[] {
  for (let open = 0; open < pattern.length; open++) {
    if (pattern[open] === "\\") {
      open++;
      continue;
    }
    if (pattern[open] !== "{") continue;
    const commas: number[] = [];
    let depth = 0;
    let close = -1;
    for (let i = open; i < pattern.length && close === -1; i++) {
      const c = pattern[i];
      if (c === "\\") i++;
      else if (c === "{") depth++;
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

// ── parsing ───────────────────────────────────────────────────────────────

/** A run of `*` inside a segment (any length but a whole-segment `**`). */
const STAR = 0;
/** `?`: one character. */
const QMARK = 1;
/** A whole `**` segment: zero or more segments. */
const GLOBSTAR = 2;

/** Literal text, or a wildcard. */
type Atom = string | typeof STAR | typeof QMARK;
type Segment = Atom[] | typeof GLOBSTAR;
/** A segment compiled for the linear matcher. */
type PlannedSegment = SegmentPlan | typeof GLOBSTAR;

interface Parsed {
  segments: Segment[];
  /** No character picomatch would read other than as a literal, `*` or `/` (so none of {@link NOT_PLAIN}). */
  plain: boolean;
}

/**
 * Characters that keep a glob off picomatch (see the module comment): the
 * linear matcher reads them as spec 01 §3.4 says (literal; `\` escapes the
 * next character), picomatch's regex would not.
 */
const NOT_PLAIN = new Set(["\\", '"', "(", ")", "{", "}", "?", "$", "^", "|", "+"]);

/**
 * Splits one alternative into segments of atoms, as picomatch reads it: a
 * leading `./` is dropped, `\x` is a literal `x` (`\/` still separates), a
 * segment that is exactly `**` is a globstar and any other run of `*` is one
 * `*`. Consecutive globstar segments are collapsed into one.
 */
function parse(pattern: string): Parsed {
  let i = 0;
  while (pattern.startsWith("./", i)) i += 2;
  const segments: Segment[] = [];
  let atoms: Atom[] = [];
  let raw = "";
  let text = "";
  let plain = true;
  const flush = () => {
    if (text !== "") atoms.push(text);
    text = "";
  };
  const endSegment = () => {
    flush();
    const segment = raw === "**" ? GLOBSTAR : atoms;
    if (!(segment === GLOBSTAR && segments[segments.length - 1] === GLOBSTAR)) segments.push(segment);
    atoms = [];
    raw = "";
  };
  for (; i < pattern.length; i++) {
    let c = pattern[i];
    if (NOT_PLAIN.has(c)) plain = false;
    if (c === "\\" && i + 1 < pattern.length) {
      c = pattern[++i];
      if (c === "/") {
        endSegment();
      } else {
        raw += "\\" + c;
        text += c;
      }
      continue;
    }
    if (c === "/") {
      endSegment();
      continue;
    }
    raw += c;
    if (c === "*") {
      flush();
      if (atoms[atoms.length - 1] !== STAR) atoms.push(STAR);
    } else if (c === "?") {
      flush();
      atoms.push(QMARK);
    } else {
      text += c;
    }
  }
  endSegment();
  return { segments, plain };
}

/** The glob text of parsed segments (only for plain ones: no escapes needed). */
function render(segments: readonly Segment[]): string {
  return segments.map((segment) => (segment === GLOBSTAR ? "**" : segment.map((atom) => (atom === STAR ? "*" : atom === QMARK ? "?" : atom)).join(""))).join("/");
}

/**
 * Segments a glob may have after its `**` and still go to picomatch: its
 * regex tries them at every `/` of the path (the linear matcher matches them
 * once, against the path's last segments).
 */
const MILD_TAIL = 8;

/**
 * picomatch's regex can only backtrack mildly: plain, at most one `**`
 * segment with at most {@link MILD_TAIL} segments after it, at most one `*`
 * run per other segment.
 */
function backtracksMildly({ segments, plain }: Parsed): boolean {
  if (!plain) return false;
  let globstar = -1;
  for (const [k, segment] of segments.entries()) {
    if (segment === GLOBSTAR) {
      if (globstar >= 0) return false;
      globstar = k;
    } else if (segment.filter((atom) => atom === STAR).length > 1) {
      return false;
    }
  }
  return globstar < 0 || segments.length - 1 - globstar <= MILD_TAIL;
}

// ── the linear matcher ────────────────────────────────────────────────────

/**
 * A run of literal code points and `?`s between two `*` runs of a segment, in
 * code points (`ANY` for `?`), with its Shift-And tables when it must be
 * searched for.
 */
interface Piece {
  points: Int32Array;
  /** Words of the Shift-And state: ceil(length / 32). */
  words: number;
  /** Per code point of the piece, the words of positions it may take (`?` included). */
  masks: Map<number, Uint32Array>;
  /** The words of the `?` positions: what any other code point may take. */
  anyMask: Uint32Array;
}

/** `?` in a piece's code points. */
const ANY = -1;

/**
 * One segment of a glob (no `**`): without a `*`, one piece the whole name
 * must match; otherwise the piece before the first `*` (a prefix), the one
 * after the last (a suffix) and the pieces between, found in order.
 */
interface SegmentPlan {
  star: boolean;
  head: Piece;
  middle: Piece[];
  tail: Piece;
}

/** The code points of `text[from, to)` into `into` (a lone surrogate is one); returns how many. */
function codePoints(text: string, from: number, to: number, into: Int32Array): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < to) {
      const low = text.charCodeAt(i + 1);
      if ((low & 0xfc00) === 0xdc00) {
        into[n++] = ((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    into[n++] = unit;
  }
  return n;
}

function piece(atoms: readonly Atom[]): Piece {
  const points: number[] = [];
  const scratch = new Int32Array(MAX_GLOB_SIZE * 2);
  for (const atom of atoms) {
    if (atom === QMARK) points.push(ANY);
    else if (typeof atom === "string") {
      const n = codePoints(atom, 0, atom.length, scratch);
      for (let k = 0; k < n; k++) points.push(scratch[k]);
    }
  }
  const words = Math.max(1, Math.ceil(points.length / 32));
  const anyMask = new Uint32Array(words);
  for (const [k, point] of points.entries()) if (point === ANY) anyMask[k >>> 5] |= 1 << (k & 31);
  const masks = new Map<number, Uint32Array>();
  for (const [k, point] of points.entries()) {
    if (point === ANY) continue;
    let mask = masks.get(point);
    if (!mask) masks.set(point, (mask = Uint32Array.from(anyMask)));
    mask[k >>> 5] |= 1 << (k & 31);
  }
  return { points: Int32Array.from(points), words, masks, anyMask };
}

function plan(atoms: readonly Atom[]): SegmentPlan {
  const pieces: Atom[][] = [[]];
  for (const atom of atoms) {
    if (atom === STAR) pieces.push([]);
    else pieces[pieces.length - 1].push(atom);
  }
  const star = pieces.length > 1;
  return { star, head: piece(pieces[0]), middle: pieces.slice(1, -1).map(piece), tail: piece(star ? pieces[pieces.length - 1] : []) };
}

/** Whether `name[at, at + piece length)` matches the piece. */
function matchesAt(p: Piece, name: Int32Array, at: number): boolean {
  const points = p.points;
  for (let k = 0; k < points.length; k++) if (points[k] !== ANY && points[k] !== name[at + k]) return false;
  return true;
}

/** Shift-And state, reused (matching is synchronous). */
let state = new Uint32Array(4);

/**
 * Where the leftmost match of the piece in `name[from, to)` ends (exclusive),
 * or -1. Shift-And (Baeza-Yates–Gonnet): one pass over the name, ceil(piece /
 * 32) word operations per code point, however the piece and name repeat.
 */
function search(p: Piece, name: Int32Array, from: number, to: number): number {
  const length = p.points.length;
  if (length === 0) return from;
  const words = p.words;
  if (state.length < words) state = new Uint32Array(words);
  state.fill(0, 0, words);
  const lastWord = (length - 1) >>> 5;
  const lastBit = 1 << ((length - 1) & 31);
  for (let i = from; i < to; i++) {
    const mask = p.masks.get(name[i]) ?? p.anyMask;
    let carry = 1;
    for (let w = 0; w < words; w++) {
      const word = state[w];
      state[w] = ((word << 1) | carry) & mask[w];
      carry = word >>> 31;
    }
    if ((state[lastWord] & lastBit) !== 0) return i + 1;
  }
  return -1;
}

/** The code points of the path being matched (scratch, reused: matching is synchronous). */
let points = new Int32Array(256);

/**
 * One name — `points[from, to)` — against one segment's plan: the prefix and
 * suffix pieces checked in place, then each middle piece found leftmost after
 * the one before (greedy is exact: a `*` takes whatever lies between), so
 * the name is read once per piece word, never name × glob.
 */
function matchSegment(segment: SegmentPlan, from: number, to: number): boolean {
  const { head, tail } = segment;
  if (!segment.star) return head.points.length === to - from && matchesAt(head, points, from);
  const end = to - tail.points.length;
  if (from + head.points.length > end || !matchesAt(head, points, from) || !matchesAt(tail, points, end)) return false;
  let at = from + head.points.length;
  for (const middle of segment.middle) {
    at = search(middle, points, at, end);
    if (at < 0) return false;
  }
  return true;
}

/** Where each segment of the path being matched starts (scratch, reused: matching is synchronous). */
let starts = new Int32Array(64);

/**
 * Reads `path` into {@link points} (its code points, once) and
 * {@link starts} (where each `/`-separated segment starts; `starts[count]`
 * is one past the end). Returns the number of segments (at least 1).
 */
function readPath(path: string): number {
  // A path is tested against every alternative of a glob (up to 256 of `{a,b}`) and of `exclude`
  // in turn: read it once (issue 20, hostile run: a 64-alternative find over "/" spent most of its
  // 2 s decoding the same paths again).
  if (path === lastPath) return lastCount;
  lastPath = undefined;
  lastCount = readPathInto(path);
  lastPath = path;
  return lastCount;
}

/** The path {@link points} and {@link starts} hold, and its segment count. */
let lastPath: string | undefined;
let lastCount = 0;

function readPathInto(path: string): number {
  if (points.length < path.length) points = new Int32Array(Math.max(path.length, points.length * 2));
  const length = codePoints(path, 0, path.length, points);
  let count = 0;
  for (let at = 0; ; at++) {
    if (count + 1 >= starts.length) {
      const grown = new Int32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[count++] = at;
    while (at < length && points[at] !== 0x2f) at++;
    if (at === length) break;
  }
  starts[count] = length + 1;
  return count;
}

/**
 * A path against a glob's segments: the same algorithm one level up, `**`
 * being the `*` and each other segment one name (at most names × glob
 * segments segment matches, which together read at most path × glob).
 */
function matchSegments(pattern: readonly PlannedSegment[], lastGlobstar: number, path: string): boolean {
  const count = readPath(path);
  // The segments after the last `**` can only be the path's last ones: match them there, without a search.
  let end = count;
  let pEnd = pattern.length;
  if (lastGlobstar >= 0) {
    for (let q = pattern.length - 1; q > lastGlobstar; q--) {
      if (end === 0) return false;
      end--;
      if (!matchSegment(pattern[q] as SegmentPlan, starts[end], starts[end + 1] - 1)) return false;
    }
    pEnd = lastGlobstar + 1;
  }
  let t = 0;
  let p = 0;
  let starP = -1;
  let starT = 0;
  while (t < end) {
    if (p < pEnd) {
      const segment = pattern[p];
      if (segment === GLOBSTAR) {
        starP = p++;
        starT = t;
        continue;
      }
      if (matchSegment(segment, starts[t], starts[t + 1] - 1)) {
        t++;
        p++;
        continue;
      }
    }
    if (starP < 0) return false;
    t = ++starT;
    p = starP + 1;
  }
  while (p < pEnd && pattern[p] === GLOBSTAR) p++;
  return p === pEnd;
}

/**
 * Every prefix of a path at once against a glob's segments: a set of glob
 * positions advanced one path segment at a time (a `**` position stays and
 * may be skipped; any other advances when its segment matches the name), so
 * `result[k]` says whether the path's first k + 1 segments match. Each name
 * is tried once against each glob segment: at most path × glob, however deep
 * the path.
 */
function matchPrefixes(pattern: readonly PlannedSegment[], path: string): boolean[] {
  const count = readPath(path);
  const size = pattern.length;
  let active = new Uint8Array(size + 1);
  let next = new Uint8Array(size + 1);
  // A `**` matches no segment too: its position reaches the next one.
  const close = (set: Uint8Array) => {
    for (let p = 0; p < size; p++) if (set[p] === 1 && pattern[p] === GLOBSTAR) set[p + 1] = 1;
  };
  active[0] = 1;
  close(active);
  const out: boolean[] = [];
  for (let t = 0; t < count; t++) {
    next.fill(0);
    for (let p = 0; p < size; p++) {
      if (active[p] !== 1) continue;
      const segment = pattern[p];
      if (segment === GLOBSTAR) next[p] = 1;
      else if (matchSegment(segment, starts[t], starts[t + 1] - 1)) next[p + 1] = 1;
    }
    close(next);
    [active, next] = [next, active];
    out.push(active[size] === 1);
  }
  return out;
}

/** A parsed glob as the linear matcher takes it: a final `X/**` needs at least one segment after `X`, so a `*` segment goes before that `**`. */
function linearPattern({ segments }: Parsed): PlannedSegment[] {
  const last = segments.length - 1;
  const pattern: Segment[] = last > 0 && segments[last] === GLOBSTAR ? [...segments.slice(0, last), [STAR], GLOBSTAR] : segments;
  return pattern.map((segment) => (segment === GLOBSTAR ? GLOBSTAR : plan(segment)));
}

/** The linear matcher for a parsed glob (see {@link linearPattern}). */
function linearMatcher(parsed: Parsed): Matcher {
  const planned = linearPattern(parsed);
  const lastGlobstar = planned.lastIndexOf(GLOBSTAR);
  return (relative) => matchSegments(planned, lastGlobstar, relative);
}

// ── compiling ─────────────────────────────────────────────────────────────

/** The `X` of a glob `X/**` (`X` not empty), if it is one. */
function parentOf({ segments, plain }: Parsed): Parsed | undefined {
  if (segments.length < 2 || segments[segments.length - 1] !== GLOBSTAR) return undefined;
  const parent = segments.slice(0, -1);
  return parent.length === 1 && parent[0] !== GLOBSTAR && parent[0].length === 0 ? undefined : { segments: parent, plain };
}

/** A V8 regex for a plain glob picomatch reads safely; `s` so `**` crosses line breaks in names. */
function picomatchRegex(segments: readonly Segment[]): RegExp {
  const regex = picomatch.makeRe(render(segments), OPTIONS);
  return new RegExp(regex.source, regex.flags.includes("s") ? regex.flags : regex.flags + "s");
}

/** One parsed alternative: picomatch when its regex backtracks mildly, else the linear matcher. */
function compileParsed(parsed: Parsed): Matcher {
  // (A glob that is empty once `./` is dropped matches no path; picomatch would refuse it.)
  if (!backtracksMildly(parsed) || render(parsed.segments) === "") return linearMatcher(parsed);
  const regex = picomatchRegex(parsed.segments);
  // picomatch lets `X/**` match `X` itself; in the spec's grammar `X/**` needs the `/`. (X has no `**` here.)
  const parent = parentOf(parsed);
  if (parent === undefined) return (relative) => regex.test(relative);
  const parentRegex = picomatchRegex(parent.segments);
  return (relative) => regex.test(relative) && !parentRegex.test(relative);
}

/** Any of several parsed alternatives. */
function compileAny(list: readonly Parsed[]): Matcher {
  const matchers = list.map(compileParsed);
  return matchers.length === 1 ? matchers[0] : (relative) => matchers.some((match) => match(relative));
}

/** Names that are not pure ASCII are compared in NFC (see the module comment). */
const NON_ASCII = /[^\0-\x7f]/;
function nfc(relative: string): string {
  return NON_ASCII.test(relative) ? relative.normalize("NFC") : relative;
}

/**
 * Globs' alternatives (`{a,b}` expanded), each parsed in NFC. Refuses globs
 * that come to more than {@link MAX_GLOB_SIZE} characters together.
 */
function parseAll(globs: readonly string[], label: "glob" | "include" | "exclude"): Parsed[] {
  const all: string[] = [];
  let size = 0;
  for (const glob of globs) {
    const expanded = glob.length > MAX_GLOB_SIZE ? [glob] : alternatives(glob.normalize("NFC"));
    for (const alternative of expanded) size += alternative.length;
    if (size <= MAX_GLOB_SIZE) {
      all.push(...expanded);
      continue;
    }
    const how = expanded.length > 1 ? " with its {a,b} alternatives expanded" : "";
    throw new TypeError(
      label === "glob"
        ? `glob too long: ${size} characters${how}, at most ${MAX_GLOB_SIZE}: ${JSON.stringify(headCut(glob, 40))}${glob.length > 40 ? "…" : ""}`
        : `${label} globs too long: more than ${MAX_GLOB_SIZE} characters together, {a,b} alternatives expanded`,
    );
  }
  return all.map(parse);
}

/** Compiles a glob; `undefined` or `""` match everything. */
export function compileGlob(pattern: string | undefined): Matcher {
  if (pattern === undefined || pattern === "") return () => true;
  const match = compileAny(parseAll([pattern], "glob"));
  return (relative) => match(nfc(relative));
}

/**
 * Compiles grep's `include`: one glob, as {@link compileGlob}, or a list of
 * globs a path must match one of — each parsed alone (never joined into one
 * `{a,b}` glob, so a comma or brace in one stays its own), all of them
 * together at most {@link MAX_GLOB_SIZE} characters expanded. `""` entries
 * are ignored; a list of none matches everything.
 */
export function compileInclude(include: string | readonly string[] | undefined): Matcher {
  if (!Array.isArray(include)) return compileGlob(include as string | undefined);
  const globs = include.filter((glob) => glob !== "");
  if (globs.length === 0) return () => true;
  const match = compileAny(parseAll(globs, globs.length === 1 ? "glob" : "include"));
  return (relative) => match(nfc(relative));
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
  const all = parseAll((globs ?? []).filter((glob) => glob !== ""), "exclude");
  if (all.length === 0) return undefined;
  const drop = compileAny(all);
  const parents = all.flatMap((parsed) => parentOf(parsed) ?? []);
  const prune = parents.length === 0 ? undefined : compileAny(parents);
  return {
    drop: (relative) => drop(nfc(relative)),
    prune: prune === undefined ? () => false : (relative) => prune(nfc(relative)),
  };
}

/**
 * The linear matcher alone for the whole of `pattern` (every `{a,b}`
 * alternative), without Unicode normalisation of the path: time linear in
 * glob × path, never picomatch. For globs from an untrusted source (a
 * container daemon's ignore globs, src/runtime/sync.ts).
 *
 * @throws TypeError for a glob (its `{a,b}` alternatives expanded) past `MAX_GLOB_SIZE` characters.
 */
export function compileLinearGlob(pattern: string): Matcher {
  const matchers = parseAll([pattern], "glob").map(linearMatcher);
  return (relative) => matchers.some((match) => match(relative));
}

/**
 * {@link compileLinearGlob} on every prefix of a path at once, for a caller
 * that decides each ancestor of a path too (sync.ts: a daemon's ignore globs,
 * where an ignored directory covers what is under it). The returned function
 * takes a path and gives one boolean per `/`-separated segment of it: entry k
 * is whether the path's first k + 1 segments match `pattern` —
 * `compileLinearPrefixGlob("/w/*")("/w/a/b")` is `[false, false, true, false]`
 * (for `""`, `"/w"`, `"/w/a"`, `"/w/a/b"`); the last entry is
 * `compileLinearGlob(pattern)(path)`. One pass over the path: at most its
 * length times the glob's (deciding each ancestor with compileLinearGlob would
 * cost the path's depth times that).
 * @throws TypeError for a glob (its `{a,b}` alternatives expanded) past `MAX_GLOB_SIZE` characters, as {@link compileLinearGlob}.
 */
export function compileLinearPrefixGlob(pattern: string): (path: string) => boolean[] {
  const patterns = parseAll([pattern], "glob").map(linearPattern);
  return (path) => {
    const [first, ...rest] = patterns.map((planned) => matchPrefixes(planned, path));
    for (const other of rest) for (const [k, matched] of other.entries()) if (matched) first![k] = true;
    return first!;
  };
}

/**
 * For tests: which matcher takes each alternative of `pattern` (after `{a,b}`
 * expansion), and the linear matcher alone for the whole glob, so tests can
 * check that the two agree wherever picomatch is used.
 */
export const globInternals = {
  engines: (pattern: string): Array<"picomatch" | "linear"> =>
    parseAll([pattern], "glob").map((parsed) => (backtracksMildly(parsed) && render(parsed.segments) !== "" ? "picomatch" : "linear")),
  linear: compileLinearGlob,
};
