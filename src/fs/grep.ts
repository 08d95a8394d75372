/**
 * Line search for `workspace.fs.grep` (spec 01 §3.3): files in discovery
 * order, lines in order, streamed chunk by chunk, stopping as soon as the
 * requested page (and its trailing context) is complete.
 *
 * @module
 */
import { clipLine, clipView, copyString } from "./clip.js";
import { compileGrepRegex } from "./grep-regex.js";
import type { WorkspaceGrepContextLine, WorkspaceGrepMatch } from "./types.js";

export { clipLine, clipMarker } from "./clip.js";

/** A compiled grep pattern. */
export interface GrepPattern {
  /** Whether one line (without its `\n`) matches. */
  test(line: string): boolean;
  /**
   * Finds the next match at or after `lastIndex` and can only match within a
   * line, for scanning whole pieces of text at once (literal patterns without
   * `\n`); absent otherwise.
   */
  finder?: Finder;
  /**
   * Length of every match of `finder` in UTF-16 code units (the literal's
   * length; ignoreCase folds one unit to one unit), so that a line held only
   * in part keeps the `span - 1` units a match across two pieces needs.
   */
  span?: number;
  /**
   * Where the first match in one line starts (`-1`: none). Optional: when
   * absent (and there is no `finder`), a line cut to `maxLineLength` keeps
   * its start and reports no `column`.
   */
  search?(line: string): number;
}

/**
 * Compiles a grep pattern: literal by default (a plain substring test), or
 * with `regex` JavaScript regex source run in linear time (RE2 semantics: no
 * backreferences or lookaround; see `./grep-regex.ts`), flag `i` with
 * `ignoreCase` (no other flags); `.` matches any character of a line, CR,
 * U+2028 and U+2029 included, as in RE2 and GNU grep (issue 20, run 37, fixer F1).
 * @throws TypeError `Invalid regular expression: …` for bad regex source or an unsupported construct.
 */
export function compilePattern(pattern: unknown, regex: boolean, ignoreCase: boolean): GrepPattern {
  if (typeof pattern !== "string") throw new TypeError("grep: pattern must be a string");
  if (regex) {
    const { test, search } = compileGrepRegex(pattern, ignoreCase);
    return { test, search };
  }
  const scannable = pattern !== "" && !pattern.includes("\n");
  if (!ignoreCase) return { test: (line: string) => line.includes(pattern), finder: scannable ? literalFinder(pattern) : undefined, span: pattern.length };
  const source = pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const compiled = new RegExp(source, "i");
  try {
    // V8 compiles on first use: a literal too long for it fails here, not mid-search.
    compiled.exec("");
  } catch {
    throw new TypeError(`grep: a literal pattern of ${pattern.length} characters is too long to match with ignoreCase; search for a shorter part of it`);
  }
  return { test: (line: string) => compiled.test(line), finder: scannable ? new RegExp(source, "gi") : undefined, span: pattern.length };
}

/** A literal's next occurrence at or after `lastIndex` (a RegExp's `exec` shape, without compiling the literal). */
export interface Finder {
  lastIndex: number;
  exec(text: string): { index: number } | null;
}

/** A case-sensitive literal finder: `indexOf`, whatever the literal's length (V8 refuses regexes past ~64K characters). */
function literalFinder(literal: string): Finder {
  return {
    lastIndex: 0,
    exec(text: string) {
      const index = text.indexOf(literal, this.lastIndex);
      return index === -1 ? null : { index };
    },
  };
}

/** One page of a search: what is wanted, and the counts as the search runs. */
export interface GrepPage {
  /** Lines of context before and after each match. */
  context: number;
  /** Matching lines to skip. */
  offset: number;
  /** Matching lines wanted after `offset`. */
  limit: number;
  /** Matching lines counted so far (offset included); updated as the search runs. */
  matched: number;
  /**
   * Characters each reported line keeps: a longer line is cut to this many
   * around its first match ({@link clipLine}). Default `Infinity` (whole lines).
   */
  lineWidth?: number;
  /**
   * Characters of reported text — each match's `path` and `text`, and its
   * context lines' `text` (after clipping) — after which the search stops:
   * the match that passes it is the last one returned, with its context.
   * The path counts once per match because each match carries it (over RPC,
   * once per match too). Default `Infinity`.
   */
  maxChars?: number;
  /** Characters of reported text so far; updated as the search runs. Default `0`. */
  chars?: number;
  /** Files left unsearched because they look binary (`textOf` gave `null`); updated as the search runs. Default `0`. */
  binary?: number;
}

interface Pending {
  match: WorkspaceGrepMatch;
  remaining: number;
}

/** `text` as a page keeps it: a flat copy when the page is bounded (`lineWidth` or `maxChars`), else as is. */
function keptText(page: GrepPage, text: string): string {
  return Number.isFinite(page.lineWidth ?? Infinity) || Number.isFinite(page.maxChars ?? Infinity) ? copyString(text) : text;
}

/** Where the first match of `pattern` starts in `line`, when the pattern can tell. */
function firstMatchAt(pattern: GrepPattern, line: string): number | undefined {
  if (pattern.search) {
    const at = pattern.search(line);
    return at >= 0 ? at : undefined;
  }
  const finder = pattern.finder;
  if (!finder) return undefined;
  finder.lastIndex = 0;
  return finder.exec(line)?.index;
}

/** Whether the page is complete: enough matches, or enough reported text. */
function full(page: GrepPage): boolean {
  return page.matched >= page.offset + page.limit || (page.chars ?? 0) > (page.maxChars ?? Infinity);
}

/**
 * Characters of a line held whole when the page clips lines (`lineWidth`
 * finite): 1,048,576 UTF-16 code units (issue 20, run 33, fixer GL). A line
 * longer than this (plus twice the width and the literal's length) is held
 * only in part — see {@link LongLine} — so grep's memory does not grow with
 * the longest line of a file (a 64 MiB one-line dump grew the heap 131 MB
 * before). Without a `lineWidth` lines are returned whole, so they are held
 * whole.
 */
export const LONG_LINE = 1 << 20;

/**
 * A line past {@link LONG_LINE} characters, held in bounded parts as its
 * pieces arrive (issue 20, run 33, fixer GL): its length, its first
 * characters, its last ones and, for a literal (`finder`), the text around
 * its first match, found across piece boundaries by keeping the last
 * `span - 1` characters of the previous piece. A literal is so matched over
 * the whole line, exactly as on a line held whole. Any other pattern (a
 * regex, an empty literal, a literal with `\n`) is tested on the line's
 * first {@link LONG_LINE} characters only, as if the line ended there: a
 * match past them is not found, and `$` can match at that cut.
 */
class LongLine {
  /** Characters of the line so far. */
  length = 0;
  /** The first `headSize` characters. */
  private head = "";
  /** The last `tailSize` characters. */
  private tail = "";
  /** Where the text in `around` starts. */
  private aroundStart = 0;
  /** Up to `width + 1` characters from `aroundStart` (the cut around the first match). */
  private around = "";
  /** Where the first match starts, `-1` while none is known. */
  private at = -1;
  private readonly headSize: number;
  private readonly tailSize: number;

  constructor(
    private readonly pattern: GrepPattern,
    private readonly width: number,
  ) {
    this.headSize = pattern.finder ? width + 1 : LONG_LINE + width + 1;
    this.tailSize = (pattern.span ?? 0) + width + 1;
  }

  /** Adds the next piece of the line (without a `\n`). */
  push(piece: string): void {
    const before = this.length;
    if (this.head.length < this.headSize) this.head = copyString(this.head + piece.slice(0, this.headSize - this.head.length));
    const finder = this.pattern.finder;
    if (finder && this.at < 0) {
      const text = this.tail + piece;
      const textStart = before - this.tail.length;
      finder.lastIndex = 0;
      const found = finder.exec(text);
      if (found) {
        this.at = textStart + found.index;
        this.aroundStart = Math.max(0, this.at - Math.floor(this.width / 2));
        const from = this.aroundStart - textStart;
        this.around = copyString(text.slice(from, from + this.width + 1));
      }
    } else if (this.at >= 0 && this.around.length < this.width + 1) {
      this.around = copyString(this.around + piece.slice(0, this.width + 1 - this.around.length));
    }
    this.length += piece.length;
    const joined = piece.length >= this.tailSize ? piece.slice(piece.length - this.tailSize) : (this.tail + piece).slice(-this.tailSize);
    this.tail = copyString(joined);
  }

  /** Where the first match starts (`undefined`: the pattern cannot tell), or `-1` for no match. */
  private first(): number | undefined {
    if (this.pattern.finder) return this.at;
    const text = this.head.slice(0, LONG_LINE);
    if (!this.pattern.test(text)) return -1;
    if (!this.pattern.search) return undefined;
    return this.pattern.search(text);
  }

  /** Whether the line matches. */
  matches(): boolean {
    return this.first() !== -1;
  }

  /** The line cut to `width` around `at` (as {@link clipLine} cuts the whole line). */
  clip(at: number): string {
    return clipView(this.length, this.width, at, (from, to) => {
      if (to <= this.head.length) return this.head.slice(from, to);
      if (this.at >= 0 && from >= this.aroundStart && to <= this.aroundStart + this.around.length) {
        return this.around.slice(from - this.aroundStart, to - this.aroundStart);
      }
      const tailStart = this.length - this.tail.length;
      if (from >= tailStart) return this.tail.slice(from - tailStart, to - tailStart);
      throw new Error(`grep: internal error: characters ${from}–${to} of a long line were not kept`);
    });
  }

  /** The reported line: cut around its first match (a match), else from its start; and the match's start when known. */
  shown(isMatch: boolean): { text: string; at?: number } {
    const found = isMatch ? this.first() : undefined;
    const at = found === undefined || found < 0 ? undefined : found;
    return { text: this.clip(at ?? 0), at };
  }
}

/** The length past which a line is held as a {@link LongLine} (`Infinity` when lines are not clipped). */
function longLineAt(pattern: GrepPattern, page: GrepPage): number {
  const width = page.lineWidth ?? Infinity;
  return Number.isFinite(width) ? LONG_LINE + 2 * width + 2 * (pattern.span ?? 0) : Infinity;
}

/**
 * Searches `files` in order. `textOf(file)` yields the file's decoded text in
 * pieces (it is pulled lazily, so unread files and chunks are never loaded),
 * or is `null` for a file not to search (it looks binary): such a file is
 * counted in `page.binary` and, once `offset` matches have gone by, reported
 * at its place as `{ path, line: 0, text: "", binary: true }` (not a match:
 * `limit` and `offset` do not count it).
 */
export function grepFiles<F extends { path: string }>(
  files: Iterable<F>,
  textOf: (file: F) => Iterable<string> | null,
  pattern: GrepPattern,
  page: GrepPage,
): WorkspaceGrepMatch[] {
  const out: WorkspaceGrepMatch[] = [];
  const scan = pattern.finder && page.context === 0 ? scanMatches : scanLines;
  for (const file of files) {
    if (full(page)) break;
    const text = textOf(file);
    if (text === null) {
      page.binary = (page.binary ?? 0) + 1;
      if (page.matched >= page.offset) out.push({ path: file.path, line: 0, text: "", binary: true });
      continue;
    }
    scan(file.path, text, pattern, page, out);
  }
  return out;
}

/** Adds `text` (already clipped) to the page's reported characters. */
function count(page: GrepPage, text: string): void {
  page.chars = (page.chars ?? 0) + text.length;
}

/**
 * A reported line as a context entry: clipped to the page's width around its
 * first match (a matching line) or from its start.
 */
function contextLine(line: number, text: string | LongLine, isMatch: boolean, pattern: GrepPattern, page: GrepPage): WorkspaceGrepContextLine {
  if (typeof text !== "string") return { line, text: text.shown(isMatch).text, isMatch, clipped: true };
  const width = page.lineWidth ?? Infinity;
  if (text.length <= width) return { line, text, isMatch };
  const at = isMatch ? firstMatchAt(pattern, text) : undefined;
  return { line, text: clipLine(text, width, at ?? 0), isMatch, clipped: true };
}

/**
 * Counts a matching line and keeps it unless the offset skips it; a line
 * longer than the page's width is clipped around its first match (at `at`
 * when the caller knows it), which `column` (from 1) reports.
 */
function record(
  path: string,
  line: number,
  text: string | LongLine,
  pattern: GrepPattern,
  page: GrepPage,
  out: WorkspaceGrepMatch[],
  at?: number,
): WorkspaceGrepMatch | undefined {
  page.matched++;
  if (page.matched <= page.offset) return undefined;
  const width = page.lineWidth ?? Infinity;
  let match: WorkspaceGrepMatch;
  if (typeof text !== "string") {
    const shown = text.shown(true);
    match = { path, line, text: shown.text, clipped: true };
    if (shown.at !== undefined) match.column = shown.at + 1;
  } else if (text.length <= width) {
    match = { path, line, text: keptText(page, text) };
  } else {
    const found = at ?? firstMatchAt(pattern, text);
    match = { path, line, text: clipLine(text, width, found ?? 0), clipped: true };
    if (found !== undefined) match.column = found + 1;
  }
  page.chars = (page.chars ?? 0) + path.length;
  count(page, match.text);
  out.push(match);
  return match;
}

/** A context entry as a match keeps it: its own object, its text as {@link keptText} keeps it. */
function kept(page: GrepPage, entry: WorkspaceGrepContextLine): WorkspaceGrepContextLine {
  return { ...entry, text: keptText(page, entry.text) };
}

/** Line by line: any pattern, with context. */
function scanLines(path: string, pieces: Iterable<string>, pattern: GrepPattern, page: GrepPage, out: WorkspaceGrepMatch[]): void {
  const before: WorkspaceGrepContextLine[] = [];
  const pending: Pending[] = [];
  let lineNumber = 0;
  /** Returns false once the page (and its trailing context) is complete. */
  const onLine = (text: string | LongLine): boolean => {
    lineNumber++;
    const isMatch = typeof text === "string" ? pattern.test(text) : text.matches();
    let entry: WorkspaceGrepContextLine | undefined;
    const shown = () => (entry ??= contextLine(lineNumber, text, isMatch, pattern, page));
    for (const item of pending) {
      item.match.context!.push(kept(page, shown()));
      count(page, shown().text);
      item.remaining--;
    }
    while (pending.length > 0 && pending[0].remaining === 0) pending.shift();
    if (isMatch && !full(page)) {
      const match = record(path, lineNumber, text, pattern, page, out);
      if (match && page.context > 0) {
        match.context = [...before.map((c) => kept(page, c)), kept(page, shown())];
        for (const c of match.context) count(page, c.text);
        pending.push({ match, remaining: page.context });
      }
    }
    if (page.context > 0) {
      before.push(shown());
      if (before.length > page.context) before.shift();
    }
    return !(full(page) && pending.length === 0);
  };
  const longAt = longLineAt(pattern, page);
  let carry = "";
  let long: LongLine | undefined; // the line so far, once past `longAt` (then `carry` is "")
  for (const piece of pieces) {
    let start = 0;
    for (let newline = piece.indexOf("\n"); newline !== -1; newline = piece.indexOf("\n", start)) {
      let text: string | LongLine;
      if (long) {
        long.push(piece.slice(start, newline));
        text = long;
        long = undefined;
      } else {
        text = carry + piece.slice(start, newline);
      }
      carry = "";
      start = newline + 1;
      if (!onLine(text)) return;
    }
    if (long) {
      long.push(piece.slice(start));
    } else {
      carry += piece.slice(start);
      if (carry.length > longAt) {
        long = new LongLine(pattern, page.lineWidth!);
        long.push(carry);
        carry = "";
      }
    }
  }
  if (long) onLine(long);
  else if (carry !== "") onLine(carry);
}

/**
 * Match by match over whole pieces of text, for patterns that cannot span
 * lines (no context): lines without a match are only counted, never split
 * into strings.
 */
function scanMatches(path: string, pieces: Iterable<string>, pattern: GrepPattern, page: GrepPage, out: WorkspaceGrepMatch[]): void {
  const finder = pattern.finder!;
  const longAt = longLineAt(pattern, page);
  let lineNumber = 0; // lines before `text`
  let carry = "";
  let long: LongLine | undefined; // the line so far, once past `longAt` (then `carry` is "")
  for (let piece of pieces) {
    if (long) {
      const newline = piece.indexOf("\n");
      if (newline === -1) {
        long.push(piece);
        continue;
      }
      long.push(piece.slice(0, newline));
      lineNumber++;
      if (long.matches()) {
        record(path, lineNumber, long, pattern, page, out);
        if (full(page)) return;
      }
      long = undefined;
      piece = piece.slice(newline + 1);
    }
    // Only the new piece is searched for a line end: a line spanning many pieces costs linear time.
    const pieceEnd = piece.lastIndexOf("\n");
    if (pieceEnd === -1) {
      carry += piece;
      if (carry.length > longAt) {
        long = new LongLine(pattern, page.lineWidth!);
        long.push(carry);
        carry = "";
      }
      continue;
    }
    const text = carry + piece;
    const end = carry.length + pieceEnd;
    let position = 0; // start of the first line not yet counted
    for (;;) {
      finder.lastIndex = position;
      const found = finder.exec(text);
      if (!found || found.index > end) break;
      const lineStart = found.index === 0 ? 0 : text.lastIndexOf("\n", found.index - 1) + 1;
      const lineEnd = text.indexOf("\n", found.index);
      lineNumber += countNewlines(text, position, lineStart) + 1;
      record(path, lineNumber, text.slice(lineStart, lineEnd), pattern, page, out, found.index - lineStart);
      if (full(page)) return;
      position = lineEnd + 1;
    }
    lineNumber += countNewlines(text, position, end + 1);
    carry = text.slice(end + 1);
  }
  if (long) {
    if (long.matches()) record(path, lineNumber + 1, long, pattern, page, out);
  } else if (carry !== "" && pattern.test(carry)) record(path, lineNumber + 1, carry, pattern, page, out);
}

/** Number of `\n` in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
