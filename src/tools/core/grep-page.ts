/**
 * What the grep tool shows the model of one `fs.grep` answer: lines clipped
 * to a width, files that look binary counted instead of searched, and the
 * whole result held under a byte cap, with `nextOffset` at the first match
 * not returned.
 *
 * The filesystem does the work where the data is — `skipBinary`,
 * `maxLineLength` and `maxTotalLength` (spec 01 §3.3 additions) keep its
 * answer small — and {@link grepPage} cuts the page here by the JSON bytes
 * the model will read. A `workspace.fs` that ignores those options (another
 * implementation) still gets clipped lines and a capped page, only without
 * the memory bound below the tool.
 *
 * @module
 */
import { clipLine } from "../../fs/clip.js";
import type { WorkspaceGrepContextLine, WorkspaceGrepMatch } from "../../fs/types.js";
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
  /** Absolute path of the file. */
  path: string;
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

/** One page as {@link grepPage} cuts it. */
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
}

/** How {@link grepPage} cuts. */
export interface GrepPageSettings {
  /** Matches wanted (the answer was asked for `limit + 1`). */
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
 * Cuts one page from an `fs.grep` answer fetched with `limit + 1`,
 * `skipBinary`, `maxLineLength: lineWidth` and `maxTotalLength: budget`.
 *
 * Matches are taken in order while they fit in `budget` bytes of JSON (the
 * first always) and `limit` is not reached. A binary-file entry counts when
 * a shown match follows it, or when the page is the last; one after the last
 * shown match of a page with a next one is left for the next page (which
 * reports it, since it comes after that page's offset).
 */
export function grepPage(answer: readonly WorkspaceGrepMatch[], settings: GrepPageSettings): GrepPageCut {
  const matches: GrepResultMatch[] = [];
  let bytes = 2; // []
  let binarySkipped = 0;
  let waiting = 0; // binary entries since the last shown match
  let more = false;
  let cut = false;
  for (const entry of answer) {
    if (entry.binary === true) {
      waiting++;
      continue;
    }
    if (matches.length === settings.limit) {
      more = true;
      break;
    }
    const shown = showMatch(entry, settings);
    const size = utf8Length(JSON.stringify(shown)) + (matches.length > 0 ? 1 : 0);
    if (matches.length > 0 && bytes + size > settings.budget) {
      more = true;
      cut = true;
      break;
    }
    binarySkipped += waiting;
    waiting = 0;
    matches.push(shown);
    bytes += size;
  }
  // Only a lone first match can be over the budget. The filesystem stops
  // right after the match that takes its text past the budget, and a
  // match's JSON is at least as long as its text: so when it is over, the
  // filesystem may have stopped there, and more may follow.
  if (!more && bytes > settings.budget) {
    more = true;
    cut = true;
  }
  if (!more) binarySkipped += waiting;
  const clipped = matches.some((m) => m.clipped === true || (m.context ?? []).some((c) => c.clipped === true));
  return { matches, ...(more ? { nextOffset: settings.offset + matches.length } : {}), binarySkipped, cut, clipped };
}

/** A match as shown: only the public fields, lines the filesystem left long clipped here (from their start). */
function showMatch(m: WorkspaceGrepMatch, settings: GrepPageSettings): GrepResultMatch {
  const shown: GrepResultMatch = { path: m.path, line: m.line, text: m.text };
  if (m.clipped === true) {
    if (m.column !== undefined) shown.column = m.column;
    shown.clipped = true;
  } else if (m.text.length > settings.lineWidth) {
    shown.text = clipLine(m.text, settings.lineWidth, 0);
    shown.clipped = true;
  }
  if (m.context !== undefined && settings.withContext) shown.context = m.context.map((c) => showContext(c, settings.lineWidth));
  return shown;
}

function showContext(c: WorkspaceGrepContextLine, lineWidth: number): GrepResultContextLine {
  if (c.clipped === true) return { line: c.line, text: c.text, isMatch: c.isMatch, clipped: true };
  if (c.text.length > lineWidth) return { line: c.line, text: clipLine(c.text, lineWidth, 0), isMatch: c.isMatch, clipped: true };
  return { line: c.line, text: c.text, isMatch: c.isMatch };
}
