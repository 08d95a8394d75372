/**
 * Locating edit ranges (spec 03 §4.6 step 4): exact `indexOf` first, then a
 * lookup-only fuzzy match (NFKC, trailing whitespace trimmed, quote / dash /
 * space folding) whose ends are mapped back to offsets in the original
 * text, line by line and grapheme by grapheme. The replacement is always
 * spliced into the original, so text outside the range stays byte-identical.
 * A repeated match reports the lines it starts on.
 *
 * @module
 */
import { occurrenceLines } from "./edit-hints.js";

/** Fuzzy occurrences tried before giving up. */
export const MAX_FUZZY_CANDIDATES = 1024;

/** Folds quotes, dashes and special spaces (one UTF-16 unit each way, so lengths are kept). */
function foldChars(text: string): string {
  return text
    .replace(/[\u2018-\u201B]/g, "'")
    .replace(/[\u201C-\u201F]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

/** The fuzzy form of LF text: NFKC, trailing whitespace trimmed per line, then folded. */
export function fuzzyNormalize(text: string): string {
  return foldChars(
    text
      .normalize("NFKC")
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n"),
  );
}

/** Non-overlapping occurrences of `needle` in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  let at = haystack.indexOf(needle);
  while (at >= 0) {
    count++;
    at = haystack.indexOf(needle, at + needle.length);
  }
  return count;
}

/** Outcome of locating one oldText. */
export type MatchOutcome =
  | { ok: true; start: number; end: number }
  | { ok: false; reason: "not-found" | "unsafe" }
  | { ok: false; reason: "duplicate"; count: number; lines?: { lines: number[]; more: boolean } };

/**
 * One original line, mapped to its fuzzy form: the boundaries after each
 * grapheme (fuzzy, untrimmed offset → original offset; the line start is
 * the first). Characters that stand alone (see {@link JOINING}) are kept as
 * runs: run `k` holds the `len[k]` boundaries `(fuzzy[k] + j, orig[k] + j)`,
 * so a stretch that NFKC leaves as it is (ASCII above all: a minified
 * bundle's line) is one run, not one entry per character. The stretches
 * that need the segmenter are kept as `chunks`, segmented only when a
 * column falls in one; a run holds each chunk's end. Fuzzy offsets never
 * decrease from run to run, nor from chunk to chunk.
 */
interface LineMap {
  start: number; // original offset of the line start
  length: number; // original line length (no LF)
  trimmed: number; // length of the trimmed fuzzy line
  fuzzy: number[];
  orig: number[];
  len: number[];
  chunks: Chunk[];
  /** A chunk's graphemes did not normalise into the chunk's NFKC form: no column of the line maps. */
  broken: boolean;
}

/** A stretch of a line that the segmenter splits, at fuzzy offset `f`, original offset `o` of the line. */
interface Chunk {
  f: number;
  o: number;
  text: string;
  form: string; // its NFKC form
  /** The boundaries after each grapheme (the chunk start first), once segmented; `null` when they do not add up. */
  bounds?: { fuzzy: number[]; orig: number[] } | null;
}

const segmenter = typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : undefined;

function graphemes(text: string): string[] {
  if (segmenter) return Array.from(segmenter.segment(text), (s) => s.segment);
  return Array.from(text);
}

/**
 * Stretches of characters that may join a neighbour into one grapheme.
 * Outside them every character is ASCII, or a letter, digit, punctuation,
 * symbol or space of Latin, Greek, Cyrillic, Han, Hiragana, Katakana or
 * Common script that is no emoji, mark or regional indicator: a grapheme of
 * its own with a boundary before and after it whatever surrounds it
 * (grapheme cluster break Other and no Indic conjunct role; ASCII CR meets
 * no LF on an LF-split line). Only these stretches, each with the character
 * on either side, go through the segmenter: cut there, the segmenter finds
 * the boundaries it finds in the whole line.
 */
const JOINING = (() => {
  try {
    return new RegExp(
      "[^\\x00-\\x7F[[[\\p{L}\\p{N}\\p{P}\\p{S}\\p{Zs}]&&[\\p{sc=Latin}\\p{sc=Greek}\\p{sc=Cyrillic}\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Common}]]--[\\p{Extended_Pictographic}\\p{Emoji}\\p{Emoji_Component}\\p{Grapheme_Extend}\\p{Regional_Indicator}]]]+",
      "gv",
    );
  } catch {
    return /[^\x00-\x7F]+/g; // no `v` flag: only ASCII stands alone
  }
})();

const NOT_ASCII = /[^\x00-\x7F]/;
/** Joining stretches at most this many characters apart share a chunk while it is shorter than CHUNK_SIZE. */
const CHUNK_GAP = 32;
const CHUNK_SIZE = 256;
const SURROGATE = /[\uD800-\uDFFF]/;

/** Appends the boundaries `(f + j, o + j)`, `j` in `[0, n)`, to `map`'s runs. */
function pushRun(map: LineMap, f: number, o: number, n: number): void {
  if (n <= 0) return;
  const k = map.len.length - 1;
  if (k >= 0 && map.fuzzy[k]! + map.len[k]! === f && map.orig[k]! + map.len[k]! === o) {
    map.len[k]! += n;
    return;
  }
  map.fuzzy.push(f);
  map.orig.push(o);
  map.len.push(n);
}

/** UTF-16 length of the character that ends at `at` / starts at `at`. */
const before = (text: string, at: number) => (at >= 2 && (text.charCodeAt(at - 1) & 0xfc00) === 0xdc00 && (text.charCodeAt(at - 2) & 0xfc00) === 0xd800 ? 2 : 1);
const after = (text: string, at: number) => (at + 1 < text.length && (text.charCodeAt(at) & 0xfc00) === 0xd800 && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00 ? 2 : 1);

/**
 * Maps one line, or `null` when its graphemes' NFKC forms do not join into
 * the line's NFKC form. Nothing is split grapheme by grapheme up front: a
 * stretch of characters that stand alone and that NFKC leaves as it is
 * becomes one run; other lone characters are normalised one by one; a
 * {@link JOINING} stretch is normalised whole and segmented when a column
 * falls in it (its graphemes' forms must then join into that form).
 */
function mapLine(content: string, start: number, end: number): LineMap | null {
  const line = content.slice(start, end);
  const map: LineMap = { start, length: line.length, trimmed: 0, fuzzy: [], orig: [], len: [], chunks: [], broken: false };
  pushRun(map, 0, 0, 1);
  const pieces: string[] = [];
  const forms = new Map<string, string>();
  let fuzzy = 0;
  let orig = 0;
  const same = (to: number) => {
    pieces.push(line.slice(orig, to));
    pushRun(map, fuzzy + 1, orig + 1, to - orig);
    fuzzy += to - orig;
    orig = to;
  };
  // line[orig, to): characters that stand alone.
  const alone = (to: number) => {
    if (to <= orig) return;
    const stretch = line.slice(orig, to);
    if (!NOT_ASCII.test(stretch) || (!SURROGATE.test(stretch) && stretch.normalize("NFKC") === stretch)) return same(to);
    while (orig < to) {
      let ascii = orig;
      while (ascii < to && line.charCodeAt(ascii) < 0x80) ascii++;
      if (ascii > orig) same(ascii);
      if (orig >= to) break;
      const g = line.slice(orig, orig + after(line, orig));
      let n = forms.get(g);
      if (n === undefined) forms.set(g, (n = g.normalize("NFKC")));
      pieces.push(n);
      fuzzy += n.length;
      orig += g.length;
      pushRun(map, fuzzy, orig, 1);
    }
  };
  JOINING.lastIndex = 0;
  for (let m = JOINING.exec(line); m !== null; m = JOINING.exec(line)) {
    // The stretch with the character on either side. Stretches that would share one are taken together, and so
    // are stretches a few characters apart while the chunk is short (fewer, not much longer, chunks).
    const from = Math.max(orig, m.index > 0 ? m.index - before(line, m.index) : 0);
    let to = m.index + m[0].length;
    for (;;) {
      const stop = to < line.length ? to + after(line, to) : to;
      JOINING.lastIndex = stop;
      const next = JOINING.exec(line);
      const nextFrom = next === null ? line.length : next.index - before(line, next.index);
      if (next === null || (nextFrom >= stop && (nextFrom - stop > CHUNK_GAP || stop - from >= CHUNK_SIZE))) {
        to = stop;
        break;
      }
      to = next.index + next[0].length;
    }
    JOINING.lastIndex = to;
    alone(from);
    const text = line.slice(orig, to);
    const form = text.normalize("NFKC");
    map.chunks.push({ f: fuzzy, o: orig, text, form });
    pieces.push(form);
    fuzzy += form.length;
    orig = to;
    pushRun(map, fuzzy, orig, 1);
  }
  alone(line.length);
  const joined = pieces.length === 1 ? pieces[0]! : pieces.join("");
  if (joined !== line.normalize("NFKC")) return null;
  map.trimmed = joined.trimEnd().length;
  return map;
}

/** Segments a chunk: the boundaries after each of its graphemes, or `null` when their forms do not join into its form. */
function segment(chunk: Chunk): { fuzzy: number[]; orig: number[] } | null {
  const fuzzy = [0];
  const orig = [0];
  let joined = "";
  for (const g of graphemes(chunk.text)) {
    const n = g.normalize("NFKC");
    joined += n;
    fuzzy.push(fuzzy[fuzzy.length - 1]! + n.length);
    orig.push(orig[orig.length - 1]! + g.length);
  }
  return joined === chunk.form ? { fuzzy, orig } : null;
}

/** Maps a fuzzy column on one line to an original offset, or `null` when it falls inside a grapheme. */
function mapColumn(map: LineMap, column: number, side: "start" | "end"): number | null {
  if (map.broken) return null;
  if (column === map.trimmed && side === "start") return map.start + map.length;
  // The last chunk that starts at or before the column, when the column is in it.
  const { chunks } = map;
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chunks[mid]!.f <= column) lo = mid + 1;
    else hi = mid;
  }
  const chunk = chunks[lo - 1];
  if (chunk !== undefined && column <= chunk.f + chunk.form.length) {
    if (chunk.bounds === undefined) chunk.bounds = segment(chunk);
    if (chunk.bounds === null) {
      // Mapped whole, the line would not have mapped at all.
      map.broken = true;
      return null;
    }
    const at = chunk.bounds.fuzzy.indexOf(column - chunk.f);
    if (at < 0 || chunk.bounds.fuzzy[at + 1] === column - chunk.f) return null; // inside a grapheme, or ambiguous
    return map.start + chunk.o + chunk.bounds.orig[at]!;
  }
  const { fuzzy, orig, len } = map;
  // The first run whose last boundary is at or past the column.
  lo = 0;
  hi = len.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fuzzy[mid]! + len[mid]! - 1 < column) lo = mid + 1;
    else hi = mid;
  }
  if (lo === len.length || fuzzy[lo]! > column) return null;
  const j = column - fuzzy[lo]!;
  // Two boundaries share the column (a grapheme whose NFKC form is empty): ambiguous.
  if (j === len[lo]! - 1 && lo + 1 < len.length && fuzzy[lo + 1] === column) return null;
  return map.start + orig[lo]! + j;
}

/** A lazily built index of the original content's lines and their fuzzy forms. */
export class FuzzyIndex {
  readonly content: string;
  readonly fuzzy: string;
  readonly #lineStarts: number[] = [0];
  readonly #fuzzyStarts: number[] = [0];
  readonly #maps = new Map<number, LineMap | null>();
  readonly lineCountChanged: boolean;

  constructor(content: string) {
    this.content = content;
    this.fuzzy = fuzzyNormalize(content);
    for (let i = content.indexOf("\n"); i >= 0; i = content.indexOf("\n", i + 1)) this.#lineStarts.push(i + 1);
    for (let i = this.fuzzy.indexOf("\n"); i >= 0; i = this.fuzzy.indexOf("\n", i + 1)) this.#fuzzyStarts.push(i + 1);
    this.lineCountChanged = this.#lineStarts.length !== this.#fuzzyStarts.length;
  }

  #lineOf(offset: number): number {
    const starts = this.#fuzzyStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #map(line: number): LineMap | null {
    if (!this.#maps.has(line)) {
      const start = this.#lineStarts[line]!;
      const next = this.#lineStarts[line + 1];
      this.#maps.set(line, mapLine(this.content, start, next === undefined ? this.content.length : next - 1));
    }
    return this.#maps.get(line)!;
  }

  /** Maps a fuzzy offset to an original offset, or `null` when it has no unambiguous image. */
  map(offset: number, side: "start" | "end"): number | null {
    if (this.lineCountChanged) return null;
    const line = this.#lineOf(offset);
    const map = this.#map(line);
    if (!map) return null;
    return mapColumn(map, offset - this.#fuzzyStarts[line]!, side);
  }
}

/** Locates `oldText` (LF-normalised, non-empty) in `content`: exact first, then fuzzy. */
export function locate(content: string, oldText: string, index: () => FuzzyIndex): MatchOutcome {
  const exact = content.indexOf(oldText);
  if (exact >= 0) {
    // Unique unless it occurs again past this one (counted only then).
    if (content.indexOf(oldText, exact + oldText.length) < 0) return { ok: true, start: exact, end: exact + oldText.length };
    const count = countOccurrences(content, oldText);
    if (count > 1) return { ok: false, reason: "duplicate", count, lines: occurrenceLines(content, oldText) };
    return { ok: true, start: exact, end: exact + oldText.length };
  }
  const needle = fuzzyNormalize(oldText);
  if (needle.length === 0) return { ok: false, reason: "unsafe" };
  const fx = index();
  const first = fx.fuzzy.indexOf(needle);
  if (first < 0) return { ok: false, reason: "not-found" };
  // Unique unless it occurs again past this one (counted only then).
  if (fx.fuzzy.indexOf(needle, first + needle.length) >= 0) {
    const count = countOccurrences(fx.fuzzy, needle);
    // Fuzzy lines are the original lines unless NFKC changed the line count.
    return fx.lineCountChanged ? { ok: false, reason: "duplicate", count } : { ok: false, reason: "duplicate", count, lines: occurrenceLines(fx.fuzzy, needle) };
  }
  let at = first;
  for (let tries = 0; at >= 0 && tries < MAX_FUZZY_CANDIDATES; tries++) {
    const start = fx.map(at, "start");
    const end = fx.map(at + needle.length, "end");
    if (start !== null && end !== null && start <= end && fuzzyNormalize(content.slice(start, end)) === needle) {
      return { ok: true, start, end };
    }
    at = fx.fuzzy.indexOf(needle, at + 1);
  }
  return { ok: false, reason: "unsafe" };
}
