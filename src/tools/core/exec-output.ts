/**
 * exec's stdout and stderr as the model sees them (spec 03 §4.8): the last
 * lines of each stream within the tool's byte and line limits, and the note
 * that says what was cut and where the full output is.
 *
 * @module
 */
import { TailWindow } from "../../util/tail.js";
import { decodeUtf8 } from "../../util/bytes.js";
import { startWithin } from "./truncate.js";

const encoder = new TextEncoder();

/** `<n>B`, `<x.x>KB` or `<x.x>MB` (spec 03 §4.8). */
export function formatSize(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}KB`;
  return `${(n / (1024 * 1024)).toFixed(1)}MB`;
}

/** The bytes of a stream value (UTF-8 for a string). */
export function streamBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? encoder.encode(value) : value;
}

/** What the runtime recorded about a cut stream (`truncated.stdout` / `.stderr` of a result or exit event). */
export type RuntimeNote = Record<string, unknown>;

/** A bounded tail of one stream with the counts needed for the note. */
export class StreamTail {
  readonly #window = new TailWindow();

  constructor(
    readonly maxBytes: number,
    readonly maxLines: number,
  ) {}

  /** Adds bytes; memory stays within ~4 × maxBytes. */
  push(bytes: Uint8Array): void {
    this.#window.push(bytes);
    this.#window.trim(this.maxBytes);
  }

  /** The kept text, and the note when cut (`runtimeNote` names the full-output file). */
  render(withNote: boolean, runtimeNote?: RuntimeNote): string {
    const stream = this.#window;
    const all = stream.held();
    if (stream.totalBytes <= this.maxBytes && stream.totalLines <= this.maxLines) return decodeUtf8(all);
    const { start, firstLine, totalLines, partialLine } = stream.keep(this.maxLines, this.maxBytes);
    const kept = all.subarray(start);
    const text = decodeUtf8(kept);
    if (!withNote) return text;
    return text + note({ firstLine, totalLines, partialLine, keptBytes: kept.byteLength, maxBytes: this.maxBytes, maxLines: this.maxLines }, runtimeNote);
  }
}

/**
 * Renders a whole stream from a non-streaming result, using the runtime's
 * record when it already cut it.
 */
export function renderWhole(value: string | Uint8Array, maxBytes: number, maxLines: number, runtimeNote: RuntimeNote | undefined): string {
  const bytes = streamBytes(value);
  if (runtimeNote && typeof runtimeNote.firstLine === "number" && typeof runtimeNote.totalLines === "number") {
    const cut = {
      firstLine: runtimeNote.firstLine,
      totalLines: runtimeNote.totalLines,
      partialLine: runtimeNote.partialLine === true,
      keptBytes: bytes.byteLength,
      maxBytes,
      maxLines,
    };
    return decodeUtf8(bytes) + note(cut, runtimeNote);
  }
  const tail = new StreamTail(maxBytes, maxLines);
  tail.push(bytes);
  return tail.render(true, undefined);
}

/** UTF-8 bytes of a string, without encoding it. */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // 2 bytes below U+0800, 4 for a surrogate pair (2 + 2), 3 for the rest.
    if (unit >= 0x80) n += unit < 0x800 || (unit & 0xf800) === 0xd800 ? 1 : 2;
  }
  return n;
}

/**
 * A callable backend's return value as the model sees it (issue 20, twenty-first attack run): the value itself
 * when its JSON is at most `maxBytes` UTF-8 bytes — the bound each stream has — else a string: the start of
 * the value (a string's own text, any other value's JSON) that stays within `maxBytes` once the tool result is
 * written as JSON, then a note giving the sizes. The full value is not kept anywhere; the note says how to get it.
 */
export function boundResult(value: unknown, maxBytes: number): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return value; // not JSON (a BigInt, a cycle): the adapter reports it as it does any such output
  }
  if (json === undefined) return value;
  const total = utf8Length(json);
  if (total <= maxBytes) return value;
  const text = typeof value === "string" ? value : json;
  const kept = startWithin(text, maxBytes);
  const what = typeof value === "string" ? `a string of ${value.length} characters` : `${Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value} whose JSON has ${json.length} characters`;
  return (
    `${kept}\n\n[Result cut: the return value is ${what} (${formatSize(total)} of JSON, over the ${formatSize(maxBytes)} limit); showing its first ${kept.length} characters` +
    `${typeof value === "string" ? "" : " of JSON"}. The full value was not saved: return less, or write it to a file and return the path.]`
  );
}

/** What was cut from a stream. */
interface Cut {
  firstLine: number;
  totalLines: number;
  partialLine: boolean;
  keptBytes: number;
  maxBytes: number;
  maxLines: number;
}

function where(runtimeNote: RuntimeNote | undefined): string {
  if (runtimeNote?.status === "saved" && typeof runtimeNote.path === "string") return ` Full output: ${runtimeNote.path}`;
  if (runtimeNote?.status === "not-saved") return ` Full output was not saved: ${String(runtimeNote.reason)}`;
  return "";
}

function note(cut: Cut, runtimeNote: RuntimeNote | undefined): string {
  const w = where(runtimeNote);
  if (cut.partialLine) return `\n\n[Showing last ${formatSize(cut.keptBytes)} of line ${cut.totalLines}.${w}]`;
  const keptLines = cut.totalLines - cut.firstLine + 1;
  const range = `${cut.firstLine}-${cut.totalLines} of ${cut.totalLines}`;
  if (keptLines < cut.maxLines) return `\n\n[Showing lines ${range} (${formatSize(cut.maxBytes)} limit).${w}]`;
  return `\n\n[Showing lines ${range}.${w}]`;
}
