/**
 * Hints that edit appends to its refusals so the model can fix its next
 * call: where the text it looked for nearly is, a line-number prefix copied
 * from read's output, tabs against spaces, and the lines of repeated
 * matches. Pure, and bounded for large files (see {@link HINT_LIMITS}).
 *
 * @module
 */

/**
 * Bounds of the work done for a hint. Only the first `lines` lines of the
 * file are compared; each line is compared by at most its first `lineChars`
 * characters (after trimming); the edit-distance search stops after `cells`
 * character comparisons in all; at most `candidates` exact first-line matches
 * are followed; at most `lineNumbers` distinct lines are listed for repeated
 * matches.
 */
export const HINT_LIMITS = { lines: 20000, lineChars: 200, cells: 4_000_000, candidates: 1000, lineNumbers: 10 } as const;

/**
 * A value as the model should read it: JSON-quoted, so tabs show as `\t`
 * and trailing spaces are visible. A value longer than
 * {@link HINT_LIMITS}`.lineChars` characters (a minified bundle's line) is
 * cut to that many, starting a little before character `at` (where it
 * differs from what it is compared with) and never between a character's
 * halves, with what was left out counted on each side:
 * `[1200 characters before] "…"…[998600 more characters]`.
 */
function show(text: string, at = 0): string {
  const max = HINT_LIMITS.lineChars;
  if (text.length <= max) return JSON.stringify(text);
  let start = Math.max(0, Math.min(at - 40, text.length - max));
  let end = start + max;
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;
  const before = start > 0 ? `[${start} characters before] ` : "";
  const after = end < text.length ? `…[${text.length - end} more characters]` : "";
  return `${before}${JSON.stringify(text.slice(start, end))}${after}`;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The index of the first character where `a` and `b` differ (the shorter one's length when one starts the other). */
function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** A line-number prefix as read's `includeLineNumbers` writes it (`12\t`), possibly indented. */
const NUMBER_PREFIX = /^\s*\d+\t/;

/**
 * Sentences that explain why `oldText` (LF, non-empty) was not found in
 * `content` (LF). `label` names it for the model (`oldText` or
 * `edits[1].oldText`). Empty when nothing useful is known.
 *
 * - A first line shaped like read's line-number prefix (`/^\s*\d+\t/`), when
 *   no line of the file starts with that same text: the prefix is named and
 *   stripped from every line before the search below.
 * - When oldText's first non-blank line is a line of the file, the longest
 *   run of following lines that also match is found, and the first line that
 *   differs is shown next to the file's line.
 * - Otherwise the closest line: the file line whose trimmed text has the
 *   smallest edit distance (Levenshtein) to the trimmed first non-blank line
 *   of oldText, at most a third of that line's length (ties: the first such
 *   line). When the two differ only in indentation, the hint says so, and
 *   names tabs against spaces.
 */
export function notFoundHints(content: string, oldText: string, label: string): string[] {
  const hints: string[] = [];
  let lines = oldText.split("\n");
  const prefix = NUMBER_PREFIX.exec(lines[0]!)?.[0];
  if (prefix !== undefined && !content.startsWith(prefix) && !content.includes("\n" + prefix)) {
    hints.push(
      `${label} starts with ${show(prefix)}, a line-number prefix from read's output; remove such prefixes from every line of ${label}: they are not part of the file.`,
    );
    lines = lines.map((line) => line.replace(NUMBER_PREFIX, ""));
  }
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first < 0) return hints;
  const fileLines = content.split("\n", HINT_LIMITS.lines);
  const run = longestRun(fileLines, lines, first);
  if (run) {
    const at = first + run.length;
    if (at < lines.length) {
      const fileLine = fileLines[run.start + run.length];
      const differs = fileLine === undefined ? 0 : firstDifference(fileLine, lines[at]!);
      const shown = fileLine === undefined ? "the file ends" : `the file's line ${run.start + run.length + 1} is ${show(fileLine, differs)}`;
      hints.push(`${label}'s line ${first + 1} matches line ${run.start + 1} of the file, but its line ${at + 1} is ${show(lines[at]!, differs)} where ${shown}.`);
      if (fileLine !== undefined) hints.push(...indentation(fileLine, lines[at]!, run.start + run.length + 1, label));
    } else if (prefix !== undefined) hints.push(`Without them, the text matches from line ${run.start + 1} of the file.`);
    return hints;
  }
  const closest = closestLine(fileLines, lines[first]!);
  if (closest !== undefined) {
    hints.push(`The closest line in the file is line ${closest + 1}: ${show(fileLines[closest]!, firstDifference(fileLines[closest]!, lines[first]!))}.`);
    hints.push(...indentation(fileLines[closest]!, lines[first]!, closest + 1, label));
  }
  return hints;
}

/** The longest run of `lines` from `first` on that matches consecutive file lines exactly (the first such run on ties). */
function longestRun(fileLines: readonly string[], lines: readonly string[], first: number): { start: number; length: number } | undefined {
  let best: { start: number; length: number } | undefined;
  let candidates = 0;
  for (let j = fileLines.indexOf(lines[first]!); j >= 0 && candidates < HINT_LIMITS.candidates; j = fileLines.indexOf(lines[first]!, j + 1)) {
    candidates++;
    let length = 1;
    while (first + length < lines.length && fileLines[j + length] === lines[first + length]) length++;
    if (!best || length > best.length) best = { start: j, length };
  }
  return best;
}

/** The index of the file line closest to `line` (see {@link notFoundHints}), or `undefined`. */
function closestLine(fileLines: readonly string[], line: string): number | undefined {
  const target = line.trim().slice(0, HINT_LIMITS.lineChars);
  let bound = Math.floor(target.length / 3);
  let best: number | undefined;
  let budget = HINT_LIMITS.cells;
  for (let j = 0; j < fileLines.length && budget > 0; j++) {
    const candidate = fileLines[j]!.trim().slice(0, HINT_LIMITS.lineChars);
    if (Math.abs(candidate.length - target.length) > bound) continue;
    budget -= Math.max(1, candidate.length * (2 * bound + 1));
    const distance = boundedLevenshtein(candidate, target, bound);
    if (distance === undefined) continue;
    best = j;
    if (distance === 0) break;
    bound = distance - 1;
  }
  return best;
}

/**
 * The Levenshtein distance between `a` and `b` when it is at most `max`,
 * else `undefined`. Only the diagonal band of width `2·max+1` is computed.
 */
export function boundedLevenshtein(a: string, b: string, max: number): number | undefined {
  if (Math.abs(a.length - b.length) > max) return undefined;
  if (max === 0) return a === b ? 0 : undefined;
  const big = max + 1;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j <= max ? j : big;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    current.fill(big);
    current[0] = i <= max ? i : big;
    let rowMin = current[0]!;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j - 1]! + cost, previous[j]! + 1, current[j - 1]! + 1, big);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return undefined;
    [previous, current] = [current, previous];
  }
  const distance = previous[b.length]!;
  return distance <= max ? distance : undefined;
}

const leading = (line: string) => /^[ \t]*/.exec(line)![0];

/** A sentence when `fileLine` and `line` have the same text after different indentation. */
function indentation(fileLine: string, line: string, lineNumber: number, label: string): string[] {
  const fileIndent = leading(fileLine);
  const indent = leading(line);
  if (fileIndent === indent || fileLine.slice(fileIndent.length).trimEnd() !== line.slice(indent.length).trimEnd()) return [];
  if (fileIndent.includes("\t") && !indent.includes("\t")) {
    return [`The file indents with tabs (line ${lineNumber} starts with ${show(fileIndent)}) where ${label} uses spaces (${show(indent)}); copy the indentation exactly.`];
  }
  if (!fileIndent.includes("\t") && indent.includes("\t")) {
    return [`The file indents with spaces (line ${lineNumber} starts with ${show(fileIndent)}) where ${label} uses tabs (${show(indent)}); copy the indentation exactly.`];
  }
  return [`Line ${lineNumber} is indented with ${show(fileIndent)} where ${label} has ${show(indent)}; copy the indentation exactly.`];
}

/**
 * The distinct 1-based lines on which the non-overlapping occurrences of
 * `needle` in `haystack` start, at most {@link HINT_LIMITS}`.lineNumbers` of
 * them, and whether more lines hold occurrences.
 */
export function occurrenceLines(haystack: string, needle: string): { lines: number[]; more: boolean } {
  const lines: number[] = [];
  let line = 1;
  // The first newline not yet counted in `line` (-1: none left). Each newline
  // is found once, so the whole scan is O(haystack length) however many
  // occurrences share a line.
  let nl = haystack.indexOf("\n");
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
    while (nl >= 0 && nl < at) {
      line++;
      nl = haystack.indexOf("\n", nl + 1);
    }
    if (lines[lines.length - 1] === line) continue;
    if (lines.length === HINT_LIMITS.lineNumbers) return { lines, more: true };
    lines.push(line);
  }
  return { lines, more: false };
}

/** `on lines 1, 4 and 9`, `all on line 3`, `on lines 1, …, 10 and later lines`. */
export function describeLines({ lines, more }: { lines: number[]; more: boolean }): string {
  if (lines.length === 1 && !more) return `all on line ${lines[0]}`;
  if (more) return `on lines ${lines.join(", ")} and later lines`;
  return `on lines ${lines.slice(0, -1).join(", ")} and ${lines[lines.length - 1]}`;
}
