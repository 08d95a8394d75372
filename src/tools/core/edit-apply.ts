/**
 * edit's transform (spec 03 §4.6 steps 3–6), pure and apart from I/O: the
 * file's text form (BOM, line ends), then locating every edit against the
 * original content, the checks between them, and splicing right to left.
 * Each refusal is a named {@link EditError} whose message is what the tool
 * reports.
 *
 * @module
 */
import type { ChangedSpan } from "./edit-diff.js";
import { describeLines, notFoundHints } from "./edit-hints.js";
import { FuzzyIndex, locate } from "./edit-match.js";
import { decodeUtf8, firstLoneSurrogate, unitEscape, utf8 } from "./truncate.js";

/** One replacement. */
export interface EditReplacement {
  oldText: string;
  newText: string;
}

/** A refused edit batch; `message` is the tool's `{ error }` text. */
export class EditError extends Error {
  override readonly name = "EditError";
}

/** How a file's text is written: a leading BOM and CRLF line ends are kept across an edit. */
export interface TextForm {
  /** The file starts with U+FEFF. */
  bom: boolean;
  /** The first line ends in CRLF (the whole file is written back with CRLF). */
  crlf: boolean;
}

const toLF = (text: string) => text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");

/** The file's content as edits match it (UTF-8, no BOM, LF line ends) and the form to write it back in. */
export function readForm(bytes: Uint8Array): { content: string; form: TextForm } {
  let text = decodeUtf8(bytes);
  const bom = text.startsWith("\uFEFF");
  if (bom) text = text.slice(1);
  const firstLF = text.indexOf("\n");
  const crlf = firstLF > 0 && text[firstLF - 1] === "\r";
  return { content: toLF(text), form: { bom, crlf } };
}

/**
 * Offset of the first byte of `bytes` that is not part of well-formed UTF-8
 * (the WHATWG decoder's rules: no overlong forms, no surrogates, nothing past
 * U+10FFFF, no sequence cut off at the end), or `-1` when all of it is UTF-8.
 * edit refuses such a file: decoding it would turn every such byte into
 * U+FFFD when the text is written back, on lines the edit never touched.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) return i; // cut off at the end
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!;
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** `content` (LF) back in the file's form, as UTF-8. */
export function writeForm(content: string, form: TextForm): Uint8Array {
  return utf8((form.bom ? "\uFEFF" : "") + (form.crlf ? content.replace(/\n/g, "\r\n") : content));
}

/** A batch applied: the edits as matched (LF), the content before and after, and the span that changed. */
export interface AppliedEdits {
  edits: EditReplacement[];
  before: string;
  after: string;
  span: ChangedSpan;
}

interface Match {
  index: number;
  start: number;
  end: number;
}

/**
 * Applies every edit to `content` (LF, no BOM) at once: each `oldText` is
 * located in the original content (exact, then fuzzy), the matches must not
 * overlap, and the replacements are spliced right to left. `path` is only
 * for messages.
 *
 * @throws EditError for an empty `oldText`, an `oldText` or `newText` holding
 *   half of a character (a lone UTF-16 surrogate, which UTF-8 cannot store),
 *   text not found, found more than once, an ambiguous fuzzy match, a match
 *   whose start or end falls between the two halves of a surrogate pair,
 *   overlapping edits, or no change.
 */
export async function applyEdits(content: string, edits: readonly EditReplacement[], path: string): Promise<AppliedEdits> {
  const normalized = edits.map((e) => ({ oldText: toLF(String(e.oldText)), newText: toLF(String(e.newText)) }));
  const many = normalized.length > 1;
  normalized.forEach((edit, i) => {
    if (edit.oldText.length === 0) throw emptyOldText(path, i, many);
  });
  edits.forEach((edit, i) => {
    for (const field of ["oldText", "newText"] as const) {
      // The text as given (before CRLF→LF), so the index is the model's own.
      const given = String(edit[field]);
      const at = firstLoneSurrogate(given);
      if (at >= 0) throw halfCharacterText(path, i, many, field, given, at);
    }
  });
  const matches = await locateAll(content, normalized, path, many);
  const after = splice(content, normalized, matches);
  if (after === content) throw noChange(path, many);
  const last = matches[matches.length - 1]!;
  const span = { start: matches[0]!.start, beforeEnd: last.end, afterEnd: last.end + after.length - content.length };
  return { edits: normalized, before: content, after, span };
}

/**
 * Characters of content scanned between two pauses of a batch's matching:
 * each edit is matched against the whole file, so a large batch over a
 * large file is long work; it lets other requests of the Durable Object in
 * between (workerd's clock does not move during such work, so the pause is
 * counted in characters, not ms).
 */
const SCAN_SLICE = 32 * 1024 * 1024;

async function locateAll(content: string, edits: readonly EditReplacement[], path: string, many: boolean): Promise<Match[]> {
  let fuzzyIndex: FuzzyIndex | undefined;
  const index = () => (fuzzyIndex ??= new FuzzyIndex(content));
  const matches: Match[] = [];
  let scanned = 0;
  for (let i = 0; i < edits.length; i++) {
    scanned += content.length;
    if (scanned >= SCAN_SLICE) {
      scanned = 0;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const found = locate(content, edits[i]!.oldText, index);
    if (found.ok) {
      // Well-formed oldText cannot match between a pair's halves exactly; this also holds any fuzzy span to it.
      if (splitsPair(content, found.start) || splitsPair(content, found.end)) throw splitCharacter(path, i, many);
      matches.push({ index: i, start: found.start, end: found.end });
    }
    else if (found.reason === "not-found") throw notFound(path, i, many, notFoundHints(content, edits[i]!.oldText, many ? `edits[${i}].oldText` : "oldText"));
    else if (found.reason === "duplicate") throw duplicate(path, i, many, found.count, found.lines);
    else throw ambiguous(path, i, many);
  }
  matches.sort((a, b) => a.start - b.start);
  for (let k = 1; k < matches.length; k++) {
    if (matches[k - 1]!.end > matches[k]!.start) throw overlapping(path, matches[k - 1]!.index, matches[k]!.index);
  }
  return matches;
}

/** `at` falls between the high and the low half of a surrogate pair of `content`. */
function splitsPair(content: string, at: number): boolean {
  return at > 0 && at < content.length && (content.charCodeAt(at - 1) & 0xfc00) === 0xd800 && (content.charCodeAt(at) & 0xfc00) === 0xdc00;
}

/** The replacements spliced into `content`, right to left so earlier offsets stay valid. */
function splice(content: string, edits: readonly EditReplacement[], matches: readonly Match[]): string {
  // One pass over the sorted, disjoint matches (not a new string per edit).
  const parts: string[] = [];
  let at = 0;
  for (const m of matches) {
    parts.push(content.slice(at, m.start), edits[m.index]!.newText);
    at = m.end;
  }
  parts.push(content.slice(at));
  return parts.join("");
}

// ── Named refusals (the messages are the tool's contract) ───────────────────

function emptyOldText(path: string, i: number, many: boolean): EditError {
  return new EditError(many ? `edits[${i}].oldText must not be empty in ${path}.` : `oldText must not be empty in ${path}.`);
}

/**
 * An oldText/newText holding a lone UTF-16 surrogate (a model's JSON can carry
 * `"\ud83d"`, a cut emoji): matching it would split a character of the file,
 * and writing it would store U+FFFD, not what the diff shows.
 */
function halfCharacterText(path: string, i: number, many: boolean, field: "oldText" | "newText", text: string, at: number): EditError {
  const name = many ? `edits[${i}].${field}` : field;
  return new EditError(
    `Not edited: ${path}. ${name} holds half of a character (the lone UTF-16 surrogate ${unitEscape(text, at)} at index ${at}), which UTF-8 text cannot store. ${field === "oldText" ? "Include the whole character (both halves of the surrogate pair, e.g. the complete emoji) in oldText." : "Write the whole character (both halves of the surrogate pair) in newText, or leave it out."}`,
  );
}

function splitCharacter(path: string, i: number, many: boolean): EditError {
  return new EditError(
    `Not edited: the match ${many ? `for edits[${i}] ` : ""}in ${path} starts or ends between the two halves of a character (a UTF-16 surrogate pair); its other half would be written as U+FFFD. Include the whole character in oldText.`,
  );
}

/** The spec's sentence, then the hints (`./edit-hints.ts`) that say where the text nearly is. */
function notFound(path: string, i: number, many: boolean, hints: readonly string[]): EditError {
  const base = many
    ? `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`
    : `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`;
  return new EditError([base, ...hints].join(" "));
}

/** The spec's message, with the lines the occurrences start on after the path (when known). */
function duplicate(path: string, i: number, many: boolean, count: number, lines?: { lines: number[]; more: boolean }): EditError {
  const where = lines && lines.lines.length > 0 ? `, ${describeLines(lines)}` : "";
  return new EditError(
    many
      ? `Found ${count} occurrences of edits[${i}] in ${path}${where}. Each oldText must be unique. Please provide more context to make it unique.`
      : `Found ${count} occurrences of the text in ${path}${where}. The text must be unique. Please provide more context to make it unique.`,
  );
}

function ambiguous(path: string, i: number, many: boolean): EditError {
  return new EditError(
    `The fuzzy match ${many ? `for edits[${i}] ` : ""}in ${path} crosses an ambiguous Unicode-normalization or trimmed-whitespace boundary. Copy the exact source text or use a span whose normalized boundaries map cleanly.`,
  );
}

function overlapping(path: string, first: number, second: number): EditError {
  return new EditError(`edits[${first}] and edits[${second}] overlap in ${path}. Merge them into one edit or target disjoint regions.`);
}

function noChange(path: string, many: boolean): EditError {
  return new EditError(
    many
      ? `No changes made to ${path}. The replacements produced identical content.`
      : `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
  );
}
