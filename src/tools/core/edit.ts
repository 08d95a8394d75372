/**
 * The `edit` tool (spec 03 §4.6): validate, lock, read, locate every edit
 * against the original content, splice right to left, write once with the
 * old mode, report a numbered diff and a unified patch.
 *
 * @module
 */
import { z } from "zod";
import { editReport, type ChangedSpan } from "./edit-diff.js";
import { FuzzyIndex, locate } from "./edit-match.js";
import { withPathLock } from "./locks.js";
import type { FileStore } from "./store.js";
import { checkPositive, cutUtf8, decodeUtf8, utf8 } from "./truncate.js";
import { errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** edit changes the Workspace. */
export const EDIT_FACTS: ToolFacts = { name: "edit", mutating: true };

/** Options of the edit tool. */
export interface EditToolOptions {
  /** Store the tool edits. */
  store: FileStore;
  /** Largest file the tool edits, in bytes. Default `2097152` (2 MiB). */
  maxBytes?: number;
  /** Above this many changed lines the diff and patch are left out (`diffTruncated`). Default `2000`. */
  maxDiffLines?: number;
  /** `diff` and `patch` are each cut to this many UTF-8 bytes. Default `131072`. */
  maxDiffBytes?: number;
}

/** One replacement. */
export interface EditReplacement {
  oldText: string;
  newText: string;
}

/** Input of the edit tool. */
export interface EditInput {
  path: string;
  edits: EditReplacement[];
}

/** A successful edit. */
export interface EditResult {
  path: string;
  editsApplied: number;
  diff: string;
  patch: string;
  firstChangedLine?: number;
  diffTruncated?: boolean;
}

export const EDIT_DEFAULTS = { maxBytes: 2097152, maxDiffLines: 2000, maxDiffBytes: 131072 } as const;

/** edit's input schema. */
export const editInputSchema = z.object({
  path: z.string().describe("Absolute path of the file to edit."),
  edits: z
    .array(
      z.strictObject({
        oldText: z
          .string()
          .describe("Exact text to replace, copied from the ORIGINAL file (not from a previous edit in this batch). Must match exactly one place."),
        newText: z.string().describe("Replacement text."),
      }),
    )
    .describe(
      "Replacements, all matched against the original file content, not applied step by step. Each oldText must be unique in the file and must not overlap another edit's oldText; nested or overlapping edits are not allowed, so merge changes to the same block into one edit.",
    ),
});

/** edit's output schema: success or `{ error }`. */
export const editOutputSchema = z.union([
  z.object({
    path: z.string(),
    editsApplied: z.number().int(),
    diff: z.string(),
    patch: z.string(),
    firstChangedLine: z.number().int().optional(),
    diffTruncated: z.boolean().optional(),
  }),
  z.object({ error: z.string() }),
]);

/** Builds the edit tool. @throws TypeError for invalid limits. */
export function editDefinition(options: EditToolOptions): SettledTool<EditInput, EditResult | ToolError> {
  const store = options.store;
  const limits = {
    maxBytes: checkPositive("createEditTool", "maxBytes", options.maxBytes ?? EDIT_DEFAULTS.maxBytes),
    maxDiffLines: checkPositive("createEditTool", "maxDiffLines", options.maxDiffLines ?? EDIT_DEFAULTS.maxDiffLines),
    maxDiffBytes: checkPositive("createEditTool", "maxDiffBytes", options.maxDiffBytes ?? EDIT_DEFAULTS.maxDiffBytes),
  };
  return {
    ...EDIT_FACTS,
    description: `Edit one workspace file by exact text replacement. Each edits[].oldText must match a unique region of the ORIGINAL file that overlaps no other edit's region; all edits in a batch apply to the original content at once (not one after another), so merge changes that touch the same block into one edit. Exact matching is tried first; small differences in Unicode quotes, dashes, spaces and trailing whitespace are tolerated. The batch is atomic: if any edit fails, the file is unchanged. Returns a numbered diff, a unified patch and firstChangedLine. Files up to ${Math.round(limits.maxBytes / 1024)}KB; use write to replace a file wholesale.`,
    inputSchema: editInputSchema,
    outputSchema: editOutputSchema,
    limits,
    execute: (input) => editFile(store, input, limits),
  };
}

/** Accepts a JSON-string `edits` and top-level `oldText`/`newText` when called directly. */
function collectEdits(input: EditInput & Partial<EditReplacement>): unknown {
  let edits: unknown = input.edits;
  if (typeof edits === "string") {
    try {
      edits = JSON.parse(edits);
    } catch {
      /* falls through to the emptiness check */
    }
  }
  if (typeof input.oldText === "string" && typeof input.newText === "string") {
    edits = [...(Array.isArray(edits) ? edits : []), { oldText: input.oldText, newText: input.newText }];
  }
  return edits;
}

const toLF = (text: string) => text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
const lineCount = (text: string) => text.split("\n").length;

/** Runs one edit batch. Never throws; failures are `{ error }` and leave the file untouched. */
export async function editFile(
  store: FileStore,
  input: EditInput,
  limits: { maxBytes: number; maxDiffLines: number; maxDiffBytes: number },
): Promise<EditResult | ToolError> {
  const path = input.path;
  const raw = collectEdits(input);
  if (!Array.isArray(raw) || raw.length === 0) return { error: "edits must contain at least one replacement." };
  const edits = raw as EditReplacement[];
  try {
    return await withPathLock(store, path, false, async () => {
      const stat = await store.stat(path);
      if (!stat) return { error: `File not found: ${path}` };
      if (stat.size > limits.maxBytes) {
        return {
          error: `File too large to edit: ${stat.size} bytes exceeds the ${limits.maxBytes}-byte cap. Use the write tool to rewrite the file from scratch.`,
        };
      }
      const bytes = await store.readAll(path);
      if (!bytes) return { error: `File not found: ${path}` };
      let text = decodeUtf8(bytes);
      const bom = text.startsWith("\uFEFF");
      if (bom) text = text.slice(1);
      const firstLF = text.indexOf("\n");
      const crlf = firstLF > 0 && text[firstLF - 1] === "\r";
      const content = toLF(text);
      const normalized = edits.map((e) => ({ oldText: toLF(String(e.oldText)), newText: toLF(String(e.newText)) }));
      const many = normalized.length > 1;
      const label = (i: number) => (many ? `edits[${i}]` : "the text");

      for (let i = 0; i < normalized.length; i++) {
        if (normalized[i]!.oldText.length === 0) {
          return { error: many ? `edits[${i}].oldText must not be empty in ${path}.` : `oldText must not be empty in ${path}.` };
        }
      }
      let fuzzyIndex: FuzzyIndex | undefined;
      const index = () => (fuzzyIndex ??= new FuzzyIndex(content));
      const matches: Array<{ index: number; start: number; end: number }> = [];
      for (let i = 0; i < normalized.length; i++) {
        const found = locate(content, normalized[i]!.oldText, index);
        if (found.ok) {
          matches.push({ index: i, start: found.start, end: found.end });
          continue;
        }
        if (found.reason === "not-found") {
          return {
            error: many
              ? `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`
              : `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
          };
        }
        if (found.reason === "duplicate") {
          return {
            error: many
              ? `Found ${found.count} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`
              : `Found ${found.count} occurrences of ${label(i)} in ${path}. The text must be unique. Please provide more context to make it unique.`,
          };
        }
        return {
          error: `The fuzzy match ${many ? `for edits[${i}] ` : ""}in ${path} crosses an ambiguous Unicode-normalization or trimmed-whitespace boundary. Copy the exact source text or use a span whose normalized boundaries map cleanly.`,
        };
      }
      matches.sort((a, b) => a.start - b.start);
      for (let k = 1; k < matches.length; k++) {
        const prev = matches[k - 1]!;
        const next = matches[k]!;
        if (prev.end > next.start) {
          return { error: `edits[${prev.index}] and edits[${next.index}] overlap in ${path}. Merge them into one edit or target disjoint regions.` };
        }
      }
      let updated = content;
      for (let k = matches.length - 1; k >= 0; k--) {
        const m = matches[k]!;
        updated = updated.slice(0, m.start) + normalized[m.index]!.newText + updated.slice(m.end);
      }
      if (updated === content) {
        return {
          error: many
            ? `No changes made to ${path}. The replacements produced identical content.`
            : `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
        };
      }
      const written = (bom ? "\uFEFF" : "") + (crlf ? updated.replace(/\n/g, "\r\n") : updated);
      await store.write(path, utf8(written), stat.mode === undefined ? undefined : { mode: stat.mode });
      const last = matches[matches.length - 1]!;
      const span = { start: matches[0]!.start, beforeEnd: last.end, afterEnd: last.end + updated.length - content.length };
      return report(path, normalized, content, updated, span, limits);
    });
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

function report(
  path: string,
  edits: EditReplacement[],
  before: string,
  after: string,
  span: ChangedSpan,
  limits: { maxDiffLines: number; maxDiffBytes: number },
): EditResult {
  const changed = edits.reduce((sum, e) => sum + Math.max(lineCount(e.oldText), lineCount(e.newText)), 0);
  if (changed > limits.maxDiffLines) return { path, editsApplied: edits.length, diff: "", patch: "", diffTruncated: true };
  const { diff, patch, firstChangedLine } = editReport(path, before, after, span);
  const cutDiff = cutUtf8(diff, limits.maxDiffBytes);
  const cutPatch = cutUtf8(patch, limits.maxDiffBytes);
  const result: EditResult = { path, editsApplied: edits.length, diff: cutDiff.text, patch: cutPatch.text };
  if (firstChangedLine !== undefined) result.firstChangedLine = firstChangedLine;
  if (cutDiff.cut || cutPatch.cut) result.diffTruncated = true;
  return result;
}
