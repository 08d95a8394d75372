/**
 * Line search for `workspace.fs.grep` (spec 01 §3.3): files in discovery
 * order, lines in order, streamed chunk by chunk, stopping as soon as the
 * requested page (and its trailing context) is complete.
 *
 * @module
 */
import type { WorkspaceGrepContextLine, WorkspaceGrepMatch } from "./types.js";

/**
 * Compiles a grep pattern: literal by default, JavaScript regex source with
 * `regex`, flag `i` with `ignoreCase` (no other flags).
 * @throws TypeError `Invalid regular expression: …` for bad regex source.
 */
export function compilePattern(pattern: unknown, regex: boolean, ignoreCase: boolean): (line: string) => boolean {
  if (typeof pattern !== "string") throw new TypeError("grep: pattern must be a string");
  const source = regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, ignoreCase ? "i" : "");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TypeError(message.startsWith("Invalid regular expression") ? message : `Invalid regular expression: ${message}`);
  }
  if (!regex && !ignoreCase) return (line) => line.includes(pattern);
  return (line) => compiled.test(line);
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
  test: (line: string) => boolean,
  page: GrepPage,
): WorkspaceGrepMatch[] {
  const wanted = page.offset + page.limit;
  const out: WorkspaceGrepMatch[] = [];
  for (const file of files) {
    if (page.matched >= wanted) break;
    const before: WorkspaceGrepContextLine[] = [];
    const pending: Pending[] = [];
    let lineNumber = 0;
    /** Returns false once the page is complete. */
    const onLine = (text: string): boolean => {
      lineNumber++;
      const isMatch = test(text);
      for (const item of pending) {
        item.match.context!.push({ line: lineNumber, text, isMatch });
        item.remaining--;
      }
      while (pending.length > 0 && pending[0].remaining === 0) pending.shift();
      if (isMatch && page.matched < wanted) {
        page.matched++;
        if (page.matched > page.offset) {
          const match: WorkspaceGrepMatch = { path: file.path, line: lineNumber, text };
          if (page.context > 0) {
            match.context = [...before, { line: lineNumber, text, isMatch: true }];
            pending.push({ match, remaining: page.context });
          }
          out.push(match);
        }
      }
      if (page.context > 0) {
        before.push({ line: lineNumber, text, isMatch });
        if (before.length > page.context) before.shift();
      }
      return !(page.matched >= wanted && pending.length === 0);
    };
    let carry = "";
    let going = true;
    for (const piece of textOf(file)) {
      let start = 0;
      for (let newline = piece.indexOf("\n"); newline !== -1; newline = piece.indexOf("\n", start)) {
        const text = carry + piece.slice(start, newline);
        carry = "";
        start = newline + 1;
        if (!onLine(text)) {
          going = false;
          break;
        }
      }
      if (!going) break;
      carry += piece.slice(start);
    }
    if (going && carry !== "") onLine(carry);
  }
  return out;
}
