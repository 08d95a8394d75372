/**
 * Cutting text to a bound for messages. Pure, no imports.
 *
 * @module
 */

/** `text` cut to at most `max` UTF-16 units ending in `…`, never between the two halves of a surrogate pair. */
export function cutWithMark(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  if (end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${text.slice(0, end)}…`;
}
