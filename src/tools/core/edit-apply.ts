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

/**
 * A file's line-break style, as edit writes the line breaks of a `newText`
 * (issue 20, run 34, fixer EL): `"\r\n"` when the file's first LF ends a CRLF
 * (spec 03 §4.6 step 3), `"\n"` when it has an LF otherwise or no line break
 * at all, and `"\r"` for a file with lone CRs and no LF (classic Mac OS) —
 * 0.8.0 and the spec write such a file back with LF everywhere.
 */
export type LineEnding = "\r\n" | "\n" | "\r";

/** How a file's text is written back: its leading BOM and line-break style. */
export interface TextForm {
  /** The file starts with U+FEFF (kept). */
  bom: boolean;
  /** The style {@link LineEnding} a `newText`'s line breaks are written in. */
  eol: LineEnding;
}

/** A decoded file as edit works on it. */
export interface EditableText {
  /** The text after the BOM, every line break as stored (CRLF, LF, lone CR). */
  text: string;
  form: TextForm;
}

/** CRLF→LF: the text as read and grep count lines (a lone CR is no line break there, and stays). */
const crlfToLF = (text: string) => text.replace(/\r\n/g, "\n");
/** CRLF→LF, then lone CR→LF: spec 03 §4.6 step 3's form, used only to find an oldText across lone CRs. */
const toLF = (text: string) => crlfToLF(text).replace(/\r/g, "\n");

/**
 * The file's text as edit splices it (UTF-8, no BOM, line breaks as stored)
 * and its form (spec 03 §4.6 step 3; a CR-only file keeps CR, fixer EL).
 */
export function readForm(bytes: Uint8Array): EditableText {
  let text = decodeUtf8(bytes);
  const bom = text.startsWith("\uFEFF");
  if (bom) text = text.slice(1);
  const firstLF = text.indexOf("\n");
  const eol: LineEnding = firstLF > 0 && text[firstLF - 1] === "\r" ? "\r\n" : firstLF < 0 && text.includes("\r") ? "\r" : "\n";
  return { text, form: { bom, eol } };
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

/** `text` (as {@link AppliedEdits}.text: line breaks as they are to be stored) as UTF-8, its BOM put back. */
export function writeForm(text: string, form: TextForm): Uint8Array {
  return utf8((form.bom ? "\uFEFF" : "") + text);
}

/**
 * A batch applied. `text` is what is written (no BOM): the original text with
 * each matched range replaced, every byte outside the ranges as it was.
 * `before`/`after` are the old and the new text with CRLF as LF (a lone CR
 * kept), the lines read and grep number, which the diff and patch compare;
 * `span` bounds where they differ. `edits` are the replacements with CRLF as
 * LF, as matched.
 */
export interface AppliedEdits {
  edits: EditReplacement[];
  text: string;
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
 * Applies every edit to `file` at once (spec 03 §4.6 steps 3–6): each
 * `oldText` is located in the original content (exact, then fuzzy), the
 * matches must not overlap, and the replacements are spliced left to right
 * into the original text. `path` is only for messages.
 *
 * Line breaks (issue 20, run 34, fixer EL; the spec normalises the whole file
 * and writes it back in one style, changing lines the diff shows as
 * unchanged): an `oldText` is matched with CRLF as LF in both, first with a
 * lone CR as a character (as read shows it), and when that finds nothing
 * with every lone CR as LF too, so `a\nb` finds `a\r\nb` and `a\rb`. A match
 * ends on whole line breaks (a CRLF is one unit). Only the matched ranges
 * change: every byte outside them — a progress bar's lone CRs, the other
 * style's lines of a mixed file — is written back as it was. A `newText`'s
 * line breaks (LF or CRLF) are written in the file's style
 * ({@link TextForm}.eol); its lone CRs stay CRs. Line numbers in messages
 * count LFs, as read and grep do.
 *
 * @throws EditError for an empty `oldText`, an `oldText` or `newText` holding
 *   half of a character (a lone UTF-16 surrogate, which UTF-8 cannot store),
 *   text not found, found more than once, an ambiguous fuzzy match, a match
 *   whose start or end falls between the two halves of a surrogate pair,
 *   overlapping edits, or no change (the text with CRLF as LF unchanged).
 */
export async function applyEdits(file: EditableText, edits: readonly EditReplacement[], path: string): Promise<AppliedEdits> {
  const normalized = edits.map((e) => ({ oldText: crlfToLF(String(e.oldText)), newText: crlfToLF(String(e.newText)) }));
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
  const content = crlfToLF(file.text);
  const matches = await locateAll(content, normalized, path, many);
  const eol = file.form.eol;
  const text = splice(file.text, matches.map((m) => ({ ...m, newText: eol === "\n" ? normalized[m.index]!.newText : normalized[m.index]!.newText.replace(/\n/g, eol) })));
  // From the bytes written: a lone CR next to a range can join an LF into a CRLF there.
  const after = crlfToLF(text);
  if (after === content) throw noChange(path, many);
  // One unit wider on each side than the matches: such a joined CRLF sits just outside them.
  const start = Math.max(0, matches[0]!.start - 1);
  const beforeEnd = Math.min(content.length, matches[matches.length - 1]!.end + 1);
  const span = { start, beforeEnd, afterEnd: beforeEnd + after.length - content.length };
  return { edits: normalized, text, before: content, after, span };
}

/**
 * Characters of content scanned between two pauses of a batch's matching:
 * each edit is matched against the whole file, so a large batch over a
 * large file is long work; it lets other requests of the Durable Object in
 * between (workerd's clock does not move during such work, so the pause is
 * counted in characters, not ms).
 */
const SCAN_SLICE = 32 * 1024 * 1024;

/**
 * Locates every edit in `content` (CRLF as LF, lone CRs kept). An oldText not
 * found there is looked for again with every lone CR (of the file and of
 * oldText) as LF: the same offsets, since a lone CR and an LF are one unit each.
 */
async function locateAll(content: string, edits: readonly EditReplacement[], path: string, many: boolean): Promise<Match[]> {
  let fuzzyIndex: FuzzyIndex | undefined;
  const index = () => (fuzzyIndex ??= new FuzzyIndex(content));
  const loneCR = content.includes("\r");
  let lfContent: string | undefined;
  let lfIndex: FuzzyIndex | undefined;
  let lfLines: number[] | undefined;
  const matches: Match[] = [];
  let scanned = 0;
  for (let i = 0; i < edits.length; i++) {
    scanned += content.length;
    if (scanned >= SCAN_SLICE) {
      scanned = 0;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const oldText = edits[i]!.oldText;
    let found = locate(content, oldText, index);
    if (!found.ok && found.reason === "not-found" && (loneCR || oldText.includes("\r"))) {
      const lf = (lfContent ??= loneCR ? toLF(content) : content);
      const again = locate(lf, toLF(oldText), () => (lfIndex ??= lf === content ? index() : new FuzzyIndex(lf)));
      if (again.ok || again.reason !== "not-found") {
        found = again;
        // Lines of the LF form count lone CRs; give read's and grep's numbers.
        if (!found.ok && found.reason === "duplicate" && found.lines && loneCR) {
          found = { ...found, lines: readLines(found.lines, (lfLines ??= lineNumbers(lf, content))) };
        }
      }
    }
    if (found.ok) {
      // Well-formed oldText cannot match between a pair's halves exactly; this also holds any fuzzy span to it.
      if (splitsPair(content, found.start) || splitsPair(content, found.end)) throw splitCharacter(path, i, many);
      matches.push({ index: i, start: found.start, end: found.end });
    }
    else if (found.reason === "not-found") throw notFound(path, i, many, notFoundHints(content, oldText, many ? `edits[${i}].oldText` : "oldText"));
    else if (found.reason === "duplicate") throw duplicate(path, i, many, found.count, found.lines);
    else throw ambiguous(path, i, many);
  }
  matches.sort((a, b) => a.start - b.start);
  for (let k = 1; k < matches.length; k++) {
    if (matches[k - 1]!.end > matches[k]!.start) throw overlapping(path, matches[k - 1]!.index, matches[k]!.index);
  }
  return matches;
}

/** For each line of `lf` (lone CRs as LF; index = line − 1), the line of `content` (same length, lone CRs kept) it lies on. */
function lineNumbers(lf: string, content: string): number[] {
  const lines = [1];
  let line = 1;
  for (let i = lf.indexOf("\n"); i >= 0; i = lf.indexOf("\n", i + 1)) {
    if (content.charCodeAt(i) === 10) line++;
    lines.push(line);
  }
  return lines;
}

/** Occurrence lines of the LF form as read's lines, repeats dropped. */
function readLines({ lines, more }: { lines: number[]; more: boolean }, table: readonly number[]): { lines: number[]; more: boolean } {
  const out: number[] = [];
  for (const l of lines) {
    const n = table[l - 1]!;
    if (out[out.length - 1] !== n) out.push(n);
  }
  return { lines: out, more };
}

/** `at` falls between the high and the low half of a surrogate pair of `content`. */
function splitsPair(content: string, at: number): boolean {
  return at > 0 && at < content.length && (content.charCodeAt(at - 1) & 0xfc00) === 0xd800 && (content.charCodeAt(at) & 0xfc00) === 0xdc00;
}

/**
 * The replacements spliced into `text` (line breaks as stored) in one pass
 * over the sorted, disjoint matches, whose offsets count a CRLF as one unit
 * (as in `crlfToLF(text)`): an offset is moved past the CRLFs before it.
 */
function splice(text: string, matches: readonly { start: number; end: number; newText: string }[]): string {
  const parts: string[] = [];
  let at = 0;
  // CRLFs of `text` passed so far, and the next one's index in `text`.
  let shift = 0;
  let crlf = text.indexOf("\r\n");
  const original = (offset: number) => {
    while (crlf >= 0 && crlf - shift < offset) {
      shift++;
      crlf = text.indexOf("\r\n", crlf + 2);
    }
    return offset + shift;
  };
  for (const m of matches) {
    const start = original(m.start);
    parts.push(text.slice(at, start), m.newText);
    at = original(m.end);
  }
  parts.push(text.slice(at));
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
