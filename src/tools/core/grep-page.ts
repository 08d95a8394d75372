/**
 * What the grep tool shows the model of one `fs.grep` answer: lines clipped
 * to a width, files that look binary counted instead of searched, and the
 * whole result held under a byte cap, with `nextOffset` at the first match
 * not returned.
 *
 * The filesystem does the work where the data is — `skipBinary`,
 * `maxLineLength` and `maxTotalLength` (spec 01 §3.3 additions) keep its
 * answer small — and {@link fetchGrepPage} cuts the page here by the JSON bytes
 * the model will read. A `workspace.fs` that ignores those options (another
 * implementation) still gets clipped lines and a capped page, only without
 * the memory bound below the tool.
 *
 * @module
 */
import { clipLine } from "../../fs/clip.js";
import type { WorkspaceGrepContextLine, WorkspaceGrepMatch } from "../../fs/types.js";
import { clipName, LISTING_NAME_WIDTH } from "./paging.js";
import { utf8Length } from "./truncate.js";

/** Default cap on the UTF-8 bytes of a grep result's JSON (read's default too): 256 KiB. */
export const GREP_MAX_BYTES = 262_144;

/** Default characters kept of each line grep reports (match and context lines). */
export const GREP_LINE_WIDTH = 500;

/**
 * Bytes of a result kept for everything but `matches` (`count`,
 * `binarySkipped`, `note`, `nextOffset`, keys), besides `path` and `query`.
 */
const RESULT_RESERVE = 1024;

/**
 * `maxTotalLength` of the follow-up `fs.grep` calls of a page whose first
 * answer stopped at the budget with room left (its paths cut): this many
 * budgets, so that a page of matches under one long directory name takes a
 * few calls, not one for every match or two.
 */
const FOLLOW_UP_BUDGETS = 4;

/** One context line as the grep tool reports it. */
export interface GrepResultContextLine {
  /** Line number, counting from 1. */
  line: number;
  /** The line's text; cut to the line width when `clipped`. */
  text: string;
  /** `true` for the matching line itself. */
  isMatch: boolean;
  /** Present (`true`) when `text` was cut to the line width. */
  clipped?: boolean;
}

/** One match as the grep tool reports it. */
export interface GrepResultMatch {
  /**
   * Absolute path of the file; past 4096 characters cut to its first 4096,
   * ending `[… N characters cut …]`, with `pathClipped` (as find shows a long path).
   */
  path: string;
  /** Present (`true`) when `path` was longer than 4096 characters and is cut. */
  pathClipped?: boolean;
  /** Line number, counting from 1. */
  line: number;
  /** The line's text; cut around its first match when `clipped`. */
  text: string;
  /** 1-based column where the first match starts in the full line; with `clipped`, when known. */
  column?: number;
  /** Present (`true`) when `text` was cut to the line width. */
  clipped?: boolean;
  /** Present when context was asked for: before-lines, the match, after-lines. */
  context?: GrepResultContextLine[];
}

/** One page as {@link fetchGrepPage} cuts it. */
export interface GrepPageCut {
  /** The matches shown. */
  matches: GrepResultMatch[];
  /** Offset of the first match not shown, when more follow. */
  nextOffset?: number;
  /** Files skipped as binary among those this page covers. */
  binarySkipped: number;
  /** `true` when the byte cap, not `limit`, ended the page. */
  cut: boolean;
  /** `true` when a shown line was clipped. */
  clipped: boolean;
  /** `true` when a shown match's path was cut to {@link LISTING_NAME_WIDTH} characters. */
  pathClipped: boolean;
}

/** How {@link fetchGrepPage} cuts. */
export interface GrepPageSettings {
  /** Matches wanted (each answer is asked for the matches still wanted, plus one). */
  limit: number;
  /** The request's offset. */
  offset: number;
  /** UTF-8 bytes of JSON the matches may take (at least one match is always shown). */
  budget: number;
  /** Characters kept of each line. */
  lineWidth: number;
  /** Whether context was asked for (`context > 0`). */
  withContext: boolean;
}

/** Bytes of `matches` a result may take under `maxBytes`, given its `path` and `query`. */
export function matchBudget(maxBytes: number, path: string, query: string): number {
  return Math.max(1, maxBytes - RESULT_RESERVE - utf8Length(JSON.stringify(path)) - utf8Length(JSON.stringify(query)));
}

/**
 * One page of matches, fetched from `fs.grep` — `fetch(limit, offset)`, which
 * the caller sends with `skipBinary`, `maxLineLength: lineWidth` and
 * `maxTotalLength: budget` — and cut to `budget` bytes of JSON.
 *
 * Matches are taken in order while they fit in `budget` bytes of JSON (the
 * first always) and `limit` is not reached. A binary-file entry counts when
 * a shown match follows it, or when the page is the last; one after the last
 * shown match of a page with a next one is left for the next page (which
 * reports it, since it comes after that page's offset).
 *
 * The filesystem stops after the match that takes its reported characters
 * (paths included) past `maxTotalLength`. A match's path is shown cut to
 * {@link LISTING_NAME_WIDTH} characters ({@link clipName}), so an answer that
 * stopped there can fill less than the page: then the next matches are
 * fetched from the first one not yet seen, with {@link FOLLOW_UP_BUDGETS}
 * times the budget, until the page is full or the search is over.
 */
export async function fetchGrepPage(
  settings: GrepPageSettings,
  fetch: (limit: number, offset: number, maxTotalLength: number) => Promise<readonly WorkspaceGrepMatch[]>,
): Promise<GrepPageCut> {
  const matches: GrepResultMatch[] = [];
  let bytes = 2; // []
  let binarySkipped = 0;
  let waiting = 0; // binary entries since the last shown match
  let more = false;
  let cut = false;
  let pathClipped = false;
  let maxTotalLength = settings.budget;
  fetching: for (;;) {
    const answer = await fetch(settings.limit - matches.length + 1, settings.offset + matches.length, maxTotalLength);
    // Binary entries after the last shown match are reported again by the next answer (it starts after that match).
    waiting = 0;
    let reported = 0; // characters the filesystem counted against maxTotalLength
    for (const entry of answer) {
      if (entry.binary === true) {
        waiting++;
        continue;
      }
      reported += reportedChars(entry);
      if (matches.length === settings.limit) {
        more = true;
        break fetching;
      }
      const shown = showMatch(entry, settings);
      const size = utf8Length(JSON.stringify(shown)) + (matches.length > 0 ? 1 : 0);
      if (matches.length > 0 && bytes + size > settings.budget) {
        more = true;
        cut = true;
        break fetching;
      }
      binarySkipped += waiting;
      waiting = 0;
      matches.push(shown);
      bytes += size;
      pathClipped ||= shown.pathClipped === true;
    }
    // Every entry shown. The answer is the whole rest of the search unless
    // the filesystem may have stopped at the budget: its reported text is
    // past it (a filesystem that ignores maxTotalLength only costs one more call).
    if (reported <= maxTotalLength) break;
    // Only a lone first match can be over the budget: the page ends there.
    if (bytes > settings.budget) {
      more = true;
      cut = true;
      break;
    }
    maxTotalLength = FOLLOW_UP_BUDGETS * settings.budget;
  }
  if (!more) binarySkipped += waiting;
  const clipped = matches.some((m) => m.clipped === true || (m.context ?? []).some((c) => c.clipped === true));
  return { matches, ...(more ? { nextOffset: settings.offset + matches.length } : {}), binarySkipped, cut, clipped, pathClipped };
}

/** Characters of `entry` the filesystem counts against `maxTotalLength`: its path and text, and its context lines' text. */
function reportedChars(entry: WorkspaceGrepMatch): number {
  let n = entry.path.length + entry.text.length;
  for (const c of entry.context ?? []) n += c.text.length;
  return n;
}

/** A match as shown: only the public fields, lines the filesystem left long clipped here (from their start). */
function showMatch(m: WorkspaceGrepMatch, settings: GrepPageSettings): GrepResultMatch {
  const path = clipName(m.path);
  const shown: GrepResultMatch = { path: path.text, line: m.line, text: m.text };
  if (m.clipped === true) {
    if (m.column !== undefined) shown.column = m.column;
    shown.clipped = true;
  } else if (m.text.length > settings.lineWidth) {
    shown.text = clipLine(m.text, settings.lineWidth, 0);
    shown.clipped = true;
  }
  if (path.clipped) shown.pathClipped = true;
  if (m.context !== undefined && settings.withContext) shown.context = m.context.map((c) => showContext(c, settings.lineWidth));
  return shown;
}

function showContext(c: WorkspaceGrepContextLine, lineWidth: number): GrepResultContextLine {
  if (c.clipped === true) return { line: c.line, text: c.text, isMatch: c.isMatch, clipped: true };
  if (c.text.length > lineWidth) return { line: c.line, text: clipLine(c.text, lineWidth, 0), isMatch: c.isMatch, clipped: true };
  return { line: c.line, text: c.text, isMatch: c.isMatch };
}
