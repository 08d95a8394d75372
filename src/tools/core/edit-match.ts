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
 * One original line, mapped to its fuzzy form. `bounds` lists the fuzzy
 * (untrimmed) offset after each grapheme with its original offset.
 */
interface LineMap {
  start: number; // original offset of the line start
  length: number; // original line length (no LF)
  trimmed: number; // length of the trimmed fuzzy line
  bounds: Array<{ fuzzy: number; orig: number }>;
}

const segmenter = typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : undefined;

function graphemes(line: string): string[] {
  if (segmenter) return Array.from(segmenter.segment(line), (s) => s.segment);
  return Array.from(line);
}

function mapLine(content: string, start: number, end: number): LineMap | null {
  const line = content.slice(start, end);
  const bounds = [{ fuzzy: 0, orig: 0 }];
  let fuzzy = 0;
  let orig = 0;
  let joined = "";
  for (const g of graphemes(line)) {
    const n = g.normalize("NFKC");
    joined += n;
    fuzzy += n.length;
    orig += g.length;
    bounds.push({ fuzzy, orig });
  }
  if (joined !== line.normalize("NFKC")) return null;
  return { start, length: line.length, trimmed: joined.trimEnd().length, bounds };
}

/** Maps a fuzzy column on one line to an original offset, or `null` when it falls inside a grapheme. */
function mapColumn(map: LineMap, column: number, side: "start" | "end"): number | null {
  if (column === map.trimmed && side === "start") return map.start + map.length;
  let found: number | null = null;
  for (const b of map.bounds) {
    if (b.fuzzy === column) {
      if (found !== null) return null; // two boundaries share the column: ambiguous
      found = b.orig;
    } else if (b.fuzzy > column) break;
  }
  return found === null ? null : map.start + found;
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
  const count = countOccurrences(fx.fuzzy, needle);
  if (count === 0) return { ok: false, reason: "not-found" };
  // Fuzzy lines are the original lines unless NFKC changed the line count.
  if (count > 1) return fx.lineCountChanged ? { ok: false, reason: "duplicate", count } : { ok: false, reason: "duplicate", count, lines: occurrenceLines(fx.fuzzy, needle) };
  let at = fx.fuzzy.indexOf(needle);
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
