/**
 * edit's two change reports (spec 03 §4.6 Result): a numbered line diff for
 * the model, and a unified patch (4 lines of context) from the `diff`
 * package.
 *
 * @module
 */
import { createPatch, diffLines } from "diff";

/** Context lines kept at each side of a change in the numbered diff. */
const CONTEXT = 4;

interface Row {
  marker: " " | "-" | "+";
  number: number;
  text: string;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The numbered diff of two LF texts and the new-file line of the first
 * change. Unchanged runs between changes are shown whole up to 8 lines,
 * else 4 + `...` + 4; at the edges, 4 lines with an ellipsis when more were
 * skipped.
 */
export function numberedDiff(oldText: string, newText: string): { diff: string; firstChangedLine?: number } {
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const ellipsis = " " + " ".repeat(width) + " ...";
  const format = (r: Row) => `${r.marker}${String(r.number).padStart(width)} ${r.text}`;
  const parts = diffLines(oldText, newText);
  const out: string[] = [];
  let oldNo = 1;
  let newNo = 1;
  let firstChangedLine: number | undefined;
  let seenChange = false;
  let pending: Row[] = []; // the current unchanged run
  const flushContext = (last: boolean) => {
    const run = pending;
    pending = [];
    if (run.length === 0) return;
    if (!seenChange) {
      if (run.length > CONTEXT) out.push(ellipsis);
      for (const r of run.slice(-CONTEXT)) out.push(format(r));
    } else if (last) {
      for (const r of run.slice(0, CONTEXT)) out.push(format(r));
      if (run.length > CONTEXT) out.push(ellipsis);
    } else if (run.length <= 2 * CONTEXT) {
      for (const r of run) out.push(format(r));
    } else {
      for (const r of run.slice(0, CONTEXT)) out.push(format(r));
      out.push(ellipsis);
      for (const r of run.slice(-CONTEXT)) out.push(format(r));
    }
  };
  for (const part of parts) {
    const lines = splitLines(part.value);
    if (!part.added && !part.removed) {
      for (const text of lines) pending.push({ marker: " ", number: oldNo++, text });
      newNo += lines.length;
      continue;
    }
    flushContext(false);
    if (firstChangedLine === undefined) firstChangedLine = newNo;
    seenChange = true;
    if (part.removed) for (const text of lines) out.push(format({ marker: "-", number: oldNo++, text }));
    else for (const text of lines) out.push(format({ marker: "+", number: newNo++, text }));
  }
  if (seenChange) flushContext(true);
  return firstChangedLine === undefined ? { diff: out.join("\n") } : { diff: out.join("\n"), firstChangedLine };
}

/** A unified patch with 4 lines of context and no timestamps, ending in `\n`. */
export function unifiedPatch(path: string, oldText: string, newText: string): string {
  return createPatch(path, oldText, newText, undefined, undefined, { context: CONTEXT });
}
