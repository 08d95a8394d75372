/**
 * Line search for `workspace.fs.grep` (spec 01 §3.3): files in discovery
 * order, lines in order, streamed chunk by chunk, stopping as soon as the
 * requested page (and its trailing context) is complete.
 *
 * @module
 */
import type { WorkspaceGrepContextLine, WorkspaceGrepMatch } from "./types.js";

/** A compiled grep pattern. */
export interface GrepPattern {
  /** Whether one line (without its `\n`) matches. */
  test(line: string): boolean;
  /**
   * A global regex that can only match within a line, for scanning whole
   * pieces of text at once (literal patterns without `\n`); absent otherwise.
   */
  finder?: RegExp;
}

/**
 * Compiles a grep pattern: literal by default, JavaScript regex source with
 * `regex`, flag `i` with `ignoreCase` (no other flags).
 * @throws TypeError `Invalid regular expression: …` for bad regex source.
 */
export function compilePattern(pattern: unknown, regex: boolean, ignoreCase: boolean): GrepPattern {
  if (typeof pattern !== "string") throw new TypeError("grep: pattern must be a string");
  const source = regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, ignoreCase ? "i" : "");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TypeError(message.startsWith("Invalid regular expression") ? message : `Invalid regular expression: ${message}`);
  }
  const test = !regex && !ignoreCase ? (line: string) => line.includes(pattern) : (line: string) => compiled.test(line);
  const finder = !regex && pattern !== "" && !pattern.includes("\n") ? new RegExp(source, ignoreCase ? "gi" : "g") : undefined;
  return { test, finder };
}

export interface GrepPage {
  context: number;
  offset: number;
  limit: number;
  /** Matching lines counted so far (offset included); updated as the search runs. */
  matched: number;
}

interface Pending {
  match: WorkspaceGrepMatch;
  remaining: number;
}

/**
 * Searches `files` in order. `textOf(file)` yields the file's decoded text in
 * pieces (it is pulled lazily, so unread files and chunks are never loaded).
 */
export function grepFiles<F extends { path: string }>(
  files: Iterable<F>,
  textOf: (file: F) => Iterable<string>,
  pattern: GrepPattern,
  page: GrepPage,
): WorkspaceGrepMatch[] {
  const out: WorkspaceGrepMatch[] = [];
  const wanted = page.offset + page.limit;
  const scan = pattern.finder && page.context === 0 ? scanMatches : scanLines;
  for (const file of files) {
    if (page.matched >= wanted) break;
    scan(file.path, textOf(file), pattern, page, out);
  }
  return out;
}

/** Counts a matching line and keeps it unless the offset skips it. */
function record(path: string, line: number, text: string, page: GrepPage, out: WorkspaceGrepMatch[]): WorkspaceGrepMatch | undefined {
  page.matched++;
  if (page.matched <= page.offset) return undefined;
  const match: WorkspaceGrepMatch = { path, line, text };
  out.push(match);
  return match;
}

/** Line by line: any pattern, with context. */
function scanLines(path: string, pieces: Iterable<string>, pattern: GrepPattern, page: GrepPage, out: WorkspaceGrepMatch[]): void {
  const wanted = page.offset + page.limit;
  const before: WorkspaceGrepContextLine[] = [];
  const pending: Pending[] = [];
  let lineNumber = 0;
  /** Returns false once the page (and its trailing context) is complete. */
  const onLine = (text: string): boolean => {
    lineNumber++;
    const isMatch = pattern.test(text);
    for (const item of pending) {
      item.match.context!.push({ line: lineNumber, text, isMatch });
      item.remaining--;
    }
    while (pending.length > 0 && pending[0].remaining === 0) pending.shift();
    if (isMatch && page.matched < wanted) {
      const match = record(path, lineNumber, text, page, out);
      if (match && page.context > 0) {
        match.context = [...before, { line: lineNumber, text, isMatch: true }];
        pending.push({ match, remaining: page.context });
      }
    }
    if (page.context > 0) {
      before.push({ line: lineNumber, text, isMatch });
      if (before.length > page.context) before.shift();
    }
    return !(page.matched >= wanted && pending.length === 0);
  };
  let carry = "";
  for (const piece of pieces) {
    let start = 0;
    for (let newline = piece.indexOf("\n"); newline !== -1; newline = piece.indexOf("\n", start)) {
      const text = carry + piece.slice(start, newline);
      carry = "";
      start = newline + 1;
      if (!onLine(text)) return;
    }
    carry += piece.slice(start);
  }
  if (carry !== "") onLine(carry);
}

/**
 * Match by match over whole pieces of text, for patterns that cannot span
 * lines (no context): lines without a match are only counted, never split
 * into strings.
 */
function scanMatches(path: string, pieces: Iterable<string>, pattern: GrepPattern, page: GrepPage, out: WorkspaceGrepMatch[]): void {
  const wanted = page.offset + page.limit;
  const finder = pattern.finder!;
  let lineNumber = 0; // lines before `text`
  let carry = "";
  for (const piece of pieces) {
    const text = carry + piece;
    const end = text.lastIndexOf("\n");
    if (end === -1) {
      carry = text;
      continue;
    }
    let position = 0; // start of the first line not yet counted
    for (;;) {
      finder.lastIndex = position;
      const found = finder.exec(text);
      if (!found || found.index > end) break;
      const lineStart = found.index === 0 ? 0 : text.lastIndexOf("\n", found.index - 1) + 1;
      const lineEnd = text.indexOf("\n", found.index);
      lineNumber += countNewlines(text, position, lineStart) + 1;
      record(path, lineNumber, text.slice(lineStart, lineEnd), page, out);
      if (page.matched >= wanted) return;
      position = lineEnd + 1;
    }
    lineNumber += countNewlines(text, position, end + 1);
    carry = text.slice(end + 1);
  }
  if (carry !== "" && pattern.test(carry)) record(path, lineNumber + 1, carry, page, out);
}

/** Number of `\n` in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
