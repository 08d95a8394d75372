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
  let start = Math.max(0, Math.min(at - Math.floor(width / 2), line.length - width));
  let end = start + width;
  if (start > 0 && isLowSurrogate(line.charCodeAt(start))) start++;
  if (end < line.length && isLowSurrogate(line.charCodeAt(end))) end--;
  const head = start > 0 ? clipMarker(start) : "";
  const tail = end < line.length ? clipMarker(line.length - end) : "";
  return copyString(head + line.slice(start, end) + tail);
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
