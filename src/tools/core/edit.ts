/**
 * The `edit` tool (spec 03 §4.6): validate, lock, read, apply every edit to
 * the original content at once (`./edit-apply.ts`, pure), write once with
 * the old mode and text form, report a numbered diff and a unified patch.
 *
 * @module
 */
import { z } from "zod";
import { applyEdits, firstInvalidUtf8, readForm, writeForm, type AppliedEdits, type EditReplacement } from "./edit-apply.js";

/**
 * Replacements one edit call may carry (a deliberate bound, docs/porting.md):
 * each is matched against the whole file, so the batch's cost is edits ×
 * file size. More is refused before the file is read.
 */
export const MAX_EDITS = 1000;
/**
 * Read-apply-write rounds one edit call makes when another writer changes
 * the file between its read and its write (the write is conditional on the
 * content read); after the last, the call answers an error and writes nothing.
 * Between rounds it pauses a random time up to 2^round ms, at most 1 s: about
 * 3.5 s in all on average, enough to outlast another writer's burst of edits
 * (with 10 rounds and 256 ms, 2 of 50 edits racing a second Workspace's 25 on
 * a loaded machine gave up).
 * @defaultValue 16 rounds
 */
export const EDIT_ATTEMPTS = 16;
/** Largest random pause between two rounds (ms). */
const EDIT_BACKOFF_MAX_MS = 1000;
import { editReport } from "./edit-diff.js";
import { sha256Hex } from "../../util/bytes.js";
import { ledgerOf, type ReadLedger } from "./freshness.js";
import { withPathLock } from "./locks.js";
import type { FileStore } from "./store.js";
import { checkPositive, startWithin } from "./truncate.js";
import { abortedCall, errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";
import { withSiblingHint } from "./unicode-names.js";
import { echoedText } from "./paging.js";
import { GREP_LINE_WIDTH } from "./grep-page.js";

export type { EditReplacement } from "./edit-apply.js";

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
  /**
   * `diff` and `patch` are each cut to this many UTF-8 bytes of JSON (the string as a tool result carries it:
   * quotes and escapes count, a control character 6 bytes). Default `131072`. Each line of either is also cut
   * to {@link DIFF_LINE_WIDTH} characters around the change (`diffTruncated` when any is).
   */
  maxDiffBytes?: number;
}

/** Input of the edit tool. */
export interface EditInput {
  path: string;
  edits: EditReplacement[];
}

/** A successful edit. */
export interface EditResult {
  /** The path as given, cut past 4,096 characters as the tools echo one (`echoedText`); the patch headers name it so too. */
  path: string;
  editsApplied: number;
  diff: string;
  patch: string;
  firstChangedLine?: number;
  /** `true` when `diff` and `patch` were left out (`maxDiffLines`), cut to `maxDiffBytes`, or a line of them cut to {@link DIFF_LINE_WIDTH}. */
  diffTruncated?: boolean;
}

/**
 * Characters of a line `diff` and `patch` show (grep's default `maxLineLength`): a longer one is cut as grep cuts
 * a line (`[… N characters cut …]` on each side cut) — a changed line and the line it became around where the two
 * first differ, a context line from its start — and `diffTruncated` is set.
 */
export const DIFF_LINE_WIDTH = GREP_LINE_WIDTH;

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
    description: `Edit one workspace file by exact text replacement. Each edits[].oldText must match a unique region of the ORIGINAL file that overlaps no other edit's region; all edits in a batch apply to the original content at once (not one after another), so merge changes that touch the same block into one edit. Exact matching is tried first; small differences in Unicode quotes, dashes, spaces and trailing whitespace are tolerated. The batch is atomic: if any edit fails, the file is unchanged. Returns a numbered diff, a unified patch and firstChangedLine. UTF-8 text files up to ${Math.round(limits.maxBytes / 1024)}KB (a file in another encoding, such as Latin-1 or UTF-16, is refused unchanged); use write to replace a file wholesale.`,
    inputSchema: editInputSchema,
    outputSchema: editOutputSchema,
    limits,
    // Under a write tool's requireFreshRead over this store, a successful edit counts as seen (edit itself is not guarded).
    execute: (input, context) => {
      const aborted = abortedCall(context);
      return aborted !== undefined ? Promise.resolve({ error: aborted }) : editFile(store, input, limits, ledgerOf(store));
    },
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

/**
 * Runs one edit batch. Never throws; failures are `{ error }` and leave the
 * file untouched — among them a file that is not well-formed UTF-8
 * (`Not edited: <path> is not UTF-8 text (invalid byte 0x<hh> at byte offset <n>). …`).
 */
export async function editFile(
  store: FileStore,
  input: EditInput,
  limits: { maxBytes: number; maxDiffLines: number; maxDiffBytes: number },
  reads?: ReadLedger,
): Promise<EditResult | ToolError> {
  const path = input.path;
  const shown = echoedText(path);
  const edits = collectEdits(input);
  if (!Array.isArray(edits) || edits.length === 0) return { error: "edits must contain at least one replacement." };
  if (edits.length > MAX_EDITS) {
    return { error: `edits has ${edits.length} replacements; at most ${MAX_EDITS} fit in one edit call. Split them into several calls, or use write to replace the file wholesale.` };
  }
  try {
    return await withPathLock(store, path, false, async () => {
      // The lock serialises edits through one filesystem object; another writer (another client,
      // another Workspace on the same storage) is caught by the conditional write: the batch is
      // applied again to what that writer left, as if it had come after it.
      for (let attempt = 1; ; attempt++) {
        const stat = await store.stat(path);
        if (!stat) return { error: await withSiblingHint(`File not found: ${shown}`, store, path) };
        if (stat.size > limits.maxBytes) {
          return {
            error: `File too large to edit: ${stat.size} bytes exceeds the ${limits.maxBytes}-byte cap. Use the write tool to rewrite the file from scratch.`,
          };
        }
        const bytes = await store.readAll(path);
        if (!bytes) return { error: `File not found: ${shown}` };
        const invalid = firstInvalidUtf8(bytes);
        if (invalid >= 0) return { error: notUtf8Message(shown, bytes, invalid) };
        const file = readForm(bytes);
        const applied = await applyEdits(file, edits as EditReplacement[], shown);
        const written = writeForm(applied.text, file.form);
        const options: { mode?: number; ifMatch: string } = { ifMatch: await sha256Hex(bytes) };
        if (stat.mode !== undefined) options.mode = stat.mode;
        try {
          await store.write(path, written, options);
        } catch (err) {
          const code = (err as { code?: unknown })?.code;
          if (code !== "ESTALE" && code !== "ENOENT") throw err;
          if (attempt < EDIT_ATTEMPTS) {
            // Randomised exponential backoff: outlasts another writer's burst, and two writers retrying in step would collide again.
            await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, EDIT_BACKOFF_MAX_MS)));
            continue;
          }
          return { error: `File changed while it was being edited (${EDIT_ATTEMPTS} attempts, another writer each time): ${shown}. Nothing was written; read it again and retry the edit.` };
        }
        if (reads) await reads.rememberWritten(store, path, written);
        return report(shown, applied, limits);
      }
    });
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/**
 * The refusal for a file that is not UTF-8 (Latin-1, UTF-16, binary): edit
 * matches and writes UTF-8 text, so it would replace every such byte with
 * U+FFFD. Nothing is written.
 */
function notUtf8Message(path: string, bytes: Uint8Array, offset: number): string {
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  const hex = bytes[offset]!.toString(16).padStart(2, "0");
  return (
    `Not edited: ${path} is not UTF-8 text (${utf16 ? "it starts with a UTF-16 byte order mark; " : ""}invalid byte 0x${hex} at byte offset ${offset}). ` +
    `edit works on UTF-8 text only and would corrupt this file's other bytes. Change it with exec (in its own encoding), or replace it wholesale with write.`
  );
}

const lineCount = (text: string) => text.split("\n").length;

/** The result: the diff and patch of the change, left out or cut to the limits. */
function report(path: string, { edits, before, after, span }: AppliedEdits, limits: { maxDiffLines: number; maxDiffBytes: number }): EditResult {
  const changed = edits.reduce((sum, e) => sum + Math.max(lineCount(e.oldText), lineCount(e.newText)), 0);
  if (changed > limits.maxDiffLines) return { path, editsApplied: edits.length, diff: "", patch: "", diffTruncated: true };
  const { diff, patch, firstChangedLine, clipped } = editReport(path, before, after, span, DIFF_LINE_WIDTH);
  // Bounded as the model reads them: JSON strings (a control character is 6 bytes there), as ls/find/grep measure.
  const cutDiff = startWithin(diff, limits.maxDiffBytes);
  const cutPatch = startWithin(patch, limits.maxDiffBytes);
  const result: EditResult = { path, editsApplied: edits.length, diff: cutDiff, patch: cutPatch };
  if (firstChangedLine !== undefined) result.firstChangedLine = firstChangedLine;
  if (clipped || cutDiff.length < diff.length || cutPatch.length < patch.length) result.diffTruncated = true;
  return result;
}
