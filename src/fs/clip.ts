/**
 * Line clipping for grep results (issue 12 §2): pure string helpers, kept
 * apart from the pattern engines so the tool entries can clip a page without
 * loading a regex engine.
 *
 * @module
 */

/**
 * A cut line's marker, standing for `count` characters left out, e.g.
 * `[… 399750 characters cut …]`.
 */
export function clipMarker(count: number): string {
  return `[… ${count} characters cut …]`;
}

/**
 * `line` cut to `width` characters (UTF-16 code units, never splitting a
 * surrogate pair) centred on index `at` — shifted to stay inside the line —
 * with a {@link clipMarker} on each side that was cut. A line of at most
 * `width` characters is returned whole.
 */
export function clipLine(line: string, width: number, at: number): string {
  if (line.length <= width) return line;
  return clipView(line.length, width, at, (from, to) => line.slice(from, to));
}

/**
 * {@link clipLine} of a line held only in part (issue 20, run 33, fixer GL):
 * `length` is the whole line's length in UTF-16 code units, and
 * `slice(from, to)` gives `line.slice(from, to)` for the one range the cut
 * reads, `[start, min(start + width + 1, length))` where `start` is where
 * the kept text begins (`max(0, min(at - floor(width / 2), length - width))`).
 * The result is the same string {@link clipLine} gives for the whole line.
 */
export function clipView(length: number, width: number, at: number, slice: (from: number, to: number) => string): string {
  let start = Math.max(0, Math.min(at - Math.floor(width / 2), length - width));
  const window = slice(start, Math.min(start + width + 1, length));
  const origin = start;
  let end = start + width;
  if (start > 0 && isLowSurrogate(window.charCodeAt(0))) start++;
  if (end < length && isLowSurrogate(window.charCodeAt(end - origin))) end--;
  const head = start > 0 ? clipMarker(start) : "";
  const tail = end < length ? clipMarker(length - end) : "";
  return copyString(head + window.slice(start - origin, end - origin) + tail);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * A flat copy of `text`. A slice of a large string can keep the whole large
 * string alive (V8 slices point into their parent); a bounded search copies
 * the lines it keeps so its result holds only its own characters, not the
 * file's decoded chunks.
 */
export function copyString(text: string): string {
  return text.length < 13 ? text : JSON.parse(JSON.stringify(text));
}
