/**
 * edit's two change reports (spec 03 §4.6 Result): a numbered line diff for
 * the model, and a unified patch (4 lines of context) from the `diff`
 * package.
 *
 * {@link editReport} diffs only a window around the edited span instead of
 * the whole file, and returns exactly what {@link numberedDiff} and
 * {@link unifiedPatch} return for the whole file (see {@link diffWindow} for
 * why the window gives the same answer).
 *
 * @module
 */
import { createPatch, diffArrays, diffLines, formatPatch, structuredPatch } from "diff";
import { clipLine } from "../../fs/clip.js";

/** Context lines kept at each side of a change in the numbered diff. */
const CONTEXT = 4;

/** A row's marker: unchanged, removed, added. */
type Marker = " " | "-" | "+";

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * A run of lines of the diff. `lines` are the run's lines without their LF;
 * an unchanged run at the edge of a window also counts the lines it has
 * outside the window (`hiddenBefore` for the first run, `hiddenAfter` for
 * the last).
 */
interface LinePart {
  added: boolean;
  removed: boolean;
  lines: string[];
  hiddenBefore: number;
  hiddenAfter: number;
}

/**
 * The numbered diff of two LF texts and the new-file line of the first
 * change. Unchanged runs between changes are shown whole up to 8 lines,
 * else 4 + `...` + 4; at the edges, 4 lines with an ellipsis when more were
 * skipped.
 */
export function numberedDiff(oldText: string, newText: string): { diff: string; firstChangedLine?: number } {
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const parts = diffLines(oldText, newText).map((p) => ({ added: !!p.added, removed: !!p.removed, lines: splitLines(p.value), hiddenBefore: 0, hiddenAfter: 0 }));
  return formatNumbered(parts, 1, width);
}

/**
 * Formats diff parts as the numbered diff. `firstLine` is the old and new
 * line number of the first part's first hidden line (they are equal: the
 * parts start where both texts are still the same); `width` pads numbers.
 */
function formatNumbered(parts: LinePart[], firstLine: number, width: number): { diff: string; firstChangedLine?: number } {
  const ellipsis = " " + " ".repeat(width) + " ...";
  const format = (marker: Marker, number: number, text: string) => `${marker}${String(number).padStart(width)} ${text}`;
  const out: string[] = [];
  let oldNo = firstLine;
  let newNo = firstLine;
  let firstChangedLine: number | undefined;
  let seenChange = false;
  // The current unchanged run: `hidden` lines before `lines`, `after` hidden lines after; `number` is the old number of lines[0].
  let pending: { lines: string[]; number: number; hidden: number; after: number } | undefined;
  const flushContext = (last: boolean) => {
    const run = pending;
    pending = undefined;
    if (!run) return;
    const total = run.hidden + run.lines.length + run.after;
    const row = (i: number) => format(" ", run.number + i, run.lines[i]!);
    if (!seenChange) {
      if (total > CONTEXT) out.push(ellipsis);
      for (let i = Math.max(0, run.lines.length - CONTEXT); i < run.lines.length; i++) out.push(row(i));
    } else if (last) {
      for (let i = 0; i < Math.min(CONTEXT, run.lines.length); i++) out.push(row(i));
      if (total > CONTEXT) out.push(ellipsis);
    } else if (total <= 2 * CONTEXT) {
      for (let i = 0; i < run.lines.length; i++) out.push(row(i));
    } else {
      for (let i = 0; i < CONTEXT; i++) out.push(row(i));
      out.push(ellipsis);
      for (let i = run.lines.length - CONTEXT; i < run.lines.length; i++) out.push(row(i));
    }
  };
  for (const part of parts) {
    const lines = part.lines;
    if (!part.added && !part.removed) {
      oldNo += part.hiddenBefore;
      newNo += part.hiddenBefore;
      if (lines.length + part.hiddenBefore + part.hiddenAfter > 0) pending = { lines, number: oldNo, hidden: part.hiddenBefore, after: part.hiddenAfter };
      oldNo += lines.length + part.hiddenAfter;
      newNo += lines.length + part.hiddenAfter;
      continue;
    }
    flushContext(false);
    if (firstChangedLine === undefined) firstChangedLine = newNo;
    seenChange = true;
    if (part.removed) for (const text of lines) out.push(format("-", oldNo++, text));
    else for (const text of lines) out.push(format("+", newNo++, text));
  }
  if (seenChange) flushContext(true);
  return firstChangedLine === undefined ? { diff: out.join("\n") } : { diff: out.join("\n"), firstChangedLine };
}

/** A unified patch with 4 lines of context and no timestamps, ending in `\n`. */
export function unifiedPatch(path: string, oldText: string, newText: string): string {
  return createPatch(path, oldText, newText, undefined, undefined, { context: CONTEXT });
}

/**
 * Where an edit changed the text: `before` and `after` share
 * `[0, start)`, and `before.slice(beforeEnd) === after.slice(afterEnd)`.
 * Offsets are UTF-16 code units.
 */
export interface ChangedSpan {
  start: number;
  beforeEnd: number;
  afterEnd: number;
}

/** Lines of unchanged text the first window keeps after the change; tripled while the window is not conclusive. */
const TAIL_LINES = 16;

/**
 * The numbered diff, first changed line and unified patch of an edit, equal
 * to `numberedDiff(before, after)` and `unifiedPatch(path, before, after)`,
 * computed over a window of lines around `span` rather than the whole file.
 *
 * With a `lineWidth`, each line of either longer than it is cut to that many
 * characters as grep cuts a line ({@link clipLine}, `[… N characters cut …]`
 * on each side cut): a removed line and the added line paired with it (the
 * k-th of a run of removed lines and the k-th of the added run that follows)
 * around where the two first differ, any other line from its start; `clipped`
 * is then `true`.
 */
export function editReport(
  path: string,
  before: string,
  after: string,
  span: ChangedSpan,
  lineWidth = Infinity,
): { diff: string; patch: string; firstChangedLine?: number; clipped?: true } {
  const head = windowStart(before, span.start);
  for (let tail = TAIL_LINES; ; tail *= 3) {
    const beforeEnd = windowEnd(before, span.beforeEnd, tail);
    const whole = beforeEnd === before.length;
    const oldWindow = before.slice(head.offset, beforeEnd);
    const newWindow = after.slice(head.offset, beforeEnd + after.length - before.length);
    const parts = diffWindow(oldWindow, newWindow, whole);
    if (!parts) continue;
    if (head.lines > 0) parts[0]!.hiddenBefore = head.lines;
    if (!whole) parts[parts.length - 1]!.hiddenAfter = 1; // only "more lines follow" matters to the format
    const lastLines = lineBreaks(before, beforeEnd, before.length);
    const oldCount = head.lines + lineBreaks(oldWindow, 0, oldWindow.length) + lastLines + 1;
    const newCount = head.lines + lineBreaks(newWindow, 0, newWindow.length) + lastLines + 1;
    const patch = structuredPatch(path, path, oldWindow, newWindow, undefined, undefined, { context: CONTEXT });
    let clipped = false;
    if (Number.isFinite(lineWidth)) {
      // The numbered diff: a removed part is followed by the added part it pairs with, when there is one.
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!;
        const next = part.removed ? parts[i + 1] : undefined;
        const pair = next?.added ? next.lines : [];
        if (next?.added) i++;
        clipPaired(part.lines, pair, lineWidth, (line) => line, (_, text) => text);
      }
      // The patch: each hunk's run of `-` lines and the run of `+` lines after it. It shows the lines the numbered
      // diff shows (4 of context, runs of up to 8 between changes whole), so `clipped` is told by its lines alone.
      // A `\ No newline at end of file` line may stand between the two runs (or end either); it is passed over.
      const text = (line: string) => line.slice(1);
      const back = (line: string, shown: string) => line[0] + shown;
      for (const hunk of patch.hunks) {
        const lines = hunk.lines;
        const run = (from: number, marker: string): number[] => {
          const at: number[] = [];
          for (let i = from; i < lines.length && (lines[i]![0] === marker || lines[i]![0] === "\\"); i++) if (lines[i]![0] === marker) at.push(i);
          return at;
        };
        for (let i = 0; i < lines.length; ) {
          const marker = lines[i]![0]!;
          if (marker === "\\") {
            i++;
            continue;
          }
          const first = run(i, marker);
          const next = first[first.length - 1]! + 1;
          const second = marker === "-" && lines[next]?.[0] !== " " ? run(next, "+") : [];
          const a = first.map((k) => lines[k]!);
          const b = second.map((k) => lines[k]!);
          clipped = clipPaired(a, b, lineWidth, text, back) || clipped;
          first.forEach((k, n) => (lines[k] = a[n]!));
          second.forEach((k, n) => (lines[k] = b[n]!));
          i = (second.length > 0 ? second[second.length - 1]! : next - 1) + 1;
        }
      }
    }
    const numbered = formatNumbered(parts, 1, String(Math.max(oldCount, newCount)).length);
    for (const hunk of patch.hunks) {
      hunk.oldStart += head.lines;
      hunk.newStart += head.lines;
    }
    const report = { ...numbered, patch: formatPatch(patch) };
    return clipped ? { ...report, clipped: true } : report;
  }
}

/**
 * Cuts, in place, each line of `first` and `second` whose text (`text(line)`) is longer than `width` with
 * {@link clipLine}: the k-th of each pair around the first index where their texts differ, the rest from their
 * start; `back` puts a cut text back into its line. Returns whether any line was cut.
 */
function clipPaired(first: string[], second: string[], width: number, text: (line: string) => string, back: (line: string, shown: string) => string): boolean {
  let clipped = false;
  for (let k = 0; k < Math.max(first.length, second.length); k++) {
    const a = k < first.length ? text(first[k]!) : undefined;
    const b = k < second.length ? text(second[k]!) : undefined;
    if ((a?.length ?? 0) <= width && (b?.length ?? 0) <= width) continue;
    const at = a !== undefined && b !== undefined ? differsAt(a, b) : 0;
    if (a !== undefined && a.length > width) first[k] = back(first[k]!, clipLine(a, width, at));
    if (b !== undefined && b.length > width) second[k] = back(second[k]!, clipLine(b, width, at));
    clipped = true;
  }
  return clipped;
}

/** The first index where `a` and `b` differ (the length of the shorter when one starts the other). */
function differsAt(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Number of LFs in `text[from, to)`. */
function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/**
 * The window's start: the start of the line holding `start`, moved back
 * {@link CONTEXT} lines, and the number of lines before it. Every line
 * before it lies in the shared prefix.
 */
function windowStart(text: string, start: number): { offset: number; lines: number } {
  let offset = start > 0 ? text.lastIndexOf("\n", start - 1) + 1 : 0;
  for (let i = 0; i < CONTEXT && offset > 0; i++) offset = offset >= 2 ? text.lastIndexOf("\n", offset - 2) + 1 : 0;
  return { offset, lines: lineBreaks(text, 0, offset) };
}

/**
 * The window's end in `before`: `tail` whole lines past the LF that ends
 * the line holding `beforeEnd` (every one of them in the shared suffix, so
 * they are lines of `after` too), or the end of the text.
 */
function windowEnd(text: string, beforeEnd: number, tail: number): number {
  let at = beforeEnd;
  for (let i = 0; i <= tail; i++) {
    const lf = text.indexOf("\n", at);
    if (lf < 0) return text.length;
    at = lf + 1;
  }
  return at;
}

/** `text` cut into `diffLines` tokens: each line with its LF; a last line without one stays as it is. */
function lineTokens(text: string): string[] {
  const tokens = text.split("\n");
  const last = tokens.pop()!;
  for (let i = 0; i < tokens.length; i++) tokens[i] += "\n";
  if (last !== "") tokens.push(last);
  return tokens;
}

/**
 * Diffs the window by line, with the same Myers search `diffLines` runs
 * (`diffArrays` over line indices, compared as strings). Returns the parts,
 * or `null` when the window may not give the whole file's answer.
 *
 * Why a window gives the whole file's answer: the lines cut off before the
 * window are a shared prefix, which the search consumes first in one move
 * and which shifts nothing else. After the window the texts share their
 * suffix, which starts with the window's last `tail` lines, so the final
 * path follows the diagonal through those lines to either end. The window
 * and the whole file therefore explore the same paths, provided no path off
 * that diagonal ever reaches the window's last line on either side (where
 * the window's edge, not the text, would stop it). The comparator records
 * how far such paths look; if they touched a last line, or the final
 * unchanged run has fewer than {@link CONTEXT} lines inside the window (the
 * formats print that many), the caller retries with a longer tail (`whole`
 * windows need no check).
 */
function diffWindow(oldWindow: string, newWindow: string, whole: boolean): LinePart[] | null {
  const oldLines = lineTokens(oldWindow);
  const newLines = lineTokens(newWindow);
  const diagonal = newLines.length - oldLines.length;
  let reachOld = -1;
  let reachNew = -1;
  const comparator = (i: number, j: number) => {
    if (j - i !== diagonal) {
      if (i > reachOld) reachOld = i;
      if (j > reachNew) reachNew = j;
    }
    return oldLines[i] === newLines[j];
  };
  const changes = diffArrays(indices(oldLines.length), indices(newLines.length), { comparator });
  if (!whole && (reachOld >= oldLines.length - 1 || reachNew >= newLines.length - 1)) return null;
  // The formats show up to CONTEXT lines of the last unchanged run; they must lie inside the window.
  const last = changes[changes.length - 1]!;
  if (!whole && (last.added || last.removed || last.count < CONTEXT)) return null;
  return changes.map((change) => {
    const source = change.removed ? oldLines : newLines;
    const lines = change.value.map((i) => {
      const line = source[i]!;
      return line.endsWith("\n") ? line.slice(0, -1) : line;
    });
    return { added: !!change.added, removed: !!change.removed, lines, hiddenBefore: 0, hiddenAfter: 0 };
  });
}

function indices(length: number): number[] {
  return Array.from({ length }, (_, i) => i);
}
