/**
 * Cutting text to a bound for messages. Pure, no imports.
 *
 * @module
 */

/** `text` cut to at most `max` UTF-16 units ending in `…`, never between the two halves of a surrogate pair. */
export function cutWithMark(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${headCut(text, Math.max(0, max - 1))}…`;
}

/**
 * The first `max` UTF-16 units of `text` (all of it when no longer), without a mark: one fewer when the last of them
 * would be the first half of a surrogate pair, so never half a character.
 */
export function headCut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  if (end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return text.slice(0, end);
}

/** Characters of a caller's argument an error message quotes ({@link quoteCut}). */
export const MAX_QUOTED_CHARS = 64;

/**
 * `text` JSON-quoted for an error message: whole when at most {@link MAX_QUOTED_CHARS} characters, else its first
 * {@link MAX_QUOTED_CHARS} (never half a character) then `…" (<n> characters)` — as the artifacts errors quote a name.
 */
export function quoteCut(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return JSON.stringify(text);
  let end = MAX_QUOTED_CHARS;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${JSON.stringify(`${text.slice(0, end)}…`)} (${text.length} characters)`;
}

/**
 * A path (or a caller's import specifier) for an error message: as it is when at most {@link MAX_QUOTED_CHARS}
 * characters, else {@link quoteCut} (`"/workspace/aaa…" (100011 characters)`).
 */
export function pathCut(path: string): string {
  return path.length <= MAX_QUOTED_CHARS ? path : quoteCut(path);
}

/**
 * `.name` for an object key an error message names (`env.HOME`), whole when at most {@link MAX_QUOTED_CHARS}
 * characters, else `[<quoteCut(name)>]` (`env["xxx…" (1000000 characters)]`).
 */
export function memberCut(name: string): string {
  return name.length <= MAX_QUOTED_CHARS ? `.${name}` : `[${quoteCut(name)}]`;
}

/**
 * A caller's value that is not a string, as JSON (`String(value)` when JSON has no text for it) for an error
 * message: whole when at most {@link MAX_QUOTED_CHARS} characters, else its first {@link MAX_QUOTED_CHARS}
 * (never half a character) then `… (<n> characters)`.
 */
export function jsonCut(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = typeof value === "object" && value !== null ? Object.prototype.toString.call(value) : String(value);
  }
  if (text.length <= MAX_QUOTED_CHARS) return text;
  let end = MAX_QUOTED_CHARS;
  if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * A caller's value of any type for an error message's `got …`: a string JSON-quoted ({@link quoteCut}); a number,
 * bigint, boolean, symbol, `null` or `undefined` as `String(value)`; an array or object as JSON ({@link jsonCut});
 * each at most {@link MAX_QUOTED_CHARS} characters before `… (<n> characters)`. Never throws.
 *
 * @example
 * valueCut(-1)                     // "-1"
 * valueCut("755")                  // "\"755\""
 * valueCut([1, 2])                // "[1,2]"
 */
export function valueCut(value: unknown): string {
  try {
    if (typeof value === "string") return quoteCut(value);
    if (typeof value === "object" && value !== null) return jsonCut(value);
    if (typeof value === "function") return `a function ${quoteCut(String(value.name))}`;
    const text = String(value);
    if (text.length <= MAX_QUOTED_CHARS) return text;
    return `${text.slice(0, MAX_QUOTED_CHARS)}… (${text.length} characters)`;
  } catch {
    return "(a value that cannot be printed)";
  }
}
