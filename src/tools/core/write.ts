/**
 * The `write` tool (spec 03 §4.5): validate, lock, stat, write, report.
 * Overwrites keep the file's mode; missing parents are created.
 *
 * Two checks run under the path lock before writing (issue 12 §4, §6): with
 * `requireFreshRead`, an existing file must match what this tool set last
 * read (`./freshness.ts`); and a new file must not differ from an existing
 * sibling's name only in Unicode normalisation (`./unicode-names.ts`).
 *
 * @module
 */
import { z } from "zod";
import { ensureLedger, ledgerOf } from "./freshness.js";
import { withPathLock } from "./locks.js";
import type { FileStore, MutableFileStore } from "./store.js";
import { earlierTwin, storeSibling, type EquivalentSibling } from "./unicode-names.js";
import { checkPositive, firstLoneSurrogate, unitEscape, utf8, utf8Length } from "./truncate.js";
import { abortedCall, errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";
import { echoedText } from "./paging.js";

/** write changes the Workspace. */
export const WRITE_FACTS: ToolFacts = { name: "write", mutating: true };

/** Options of the write tool. */
export interface WriteToolOptions {
  /** Store the tool writes to. */
  store: FileStore;
  /** Largest content accepted, in UTF-8 bytes. Default `2097152` (2 MiB). */
  maxBytes?: number;
  /**
   * Stale-write guard. `true`: overwriting an existing file needs a read of
   * it — by a read tool over the same `store` object (in `create*Tools`, the
   * same tool set), or a write or edit through that store — that still
   * matches the file (same size and SHA-256; size, `mtime` and inode above
   * 2 MiB); else the write fails, asking the model to read (again) first.
   * Creating a new file is always allowed. The check and the write run under
   * the path lock; against other writers (another client, another Workspace
   * on the same storage) the write is conditional on what was checked — the
   * store's `ifMatch` with the SHA-256, or above 2 MiB its `ifUnmodified`
   * with the checked stat's inode, size and `mtime` (needs a store whose
   * `stat` gives `inode`, as `WorkspaceFileStore` does) — and answers
   * the same stale-file error when another writer got in first (run 33,
   * fixer WG). Default `false` (0.8.0: writes overwrite whatever is there).
   */
  requireFreshRead?: boolean;
  /**
   * Paths the guard's memory holds (one memory per `store` object): recording
   * one more forgets the least recently recorded, which then counts as never
   * read. Positive integer; used only with `requireFreshRead`. Default `1024`.
   */
  freshReadMaxPaths?: number;
}

/** Input of the write tool. */
export interface WriteInput {
  path: string;
  content: string;
}

/** A successful write. */
export interface WriteResult {
  /** The path as given, cut past 4,096 characters as the tools echo one (`echoedText`). */
  path: string;
  bytesWritten: number;
}

export const WRITE_DEFAULTS = { maxBytes: 2097152 } as const;

/** The `{ error }` of a guarded write to an existing file this tool set has not read. */
export const unreadMessage = (path: string) =>
  `File has not been read: ${echoedText(path)} already exists. Read it first, then write, so that its current content is not lost.`;

/** The `{ error }` of a guarded write to a file changed since this tool set last read it. */
export const staleMessage = (path: string) =>
  `File changed since it was last read: ${echoedText(path)}. Read it again, then write, so that the changes made since are not lost.`;

/** The `{ error }` of a write that would create a twin of `existing`, a name equal to it up to Unicode normalisation. */
export const twinMessage = (path: string, existing: { path: string; form: string; kind: string }) =>
  `Not written: ${echoedText(path)} would be a new file beside ${echoedText(existing.path)} (${existing.form}), a ${existing.kind} with the same name in another Unicode normalisation. Write to that path instead.`;

/**
 * The `{ error }` of a write whose content holds a lone UTF-16 surrogate (half
 * of a character, e.g. a cut emoji `"\ud83d"`): UTF-8 cannot store it, and
 * writing would silently store U+FFFD instead. Nothing is written.
 */
export const halfCharacterMessage = (path: string, content: string, at: number) =>
  `Not written: ${echoedText(path)}. content holds half of a character (the lone UTF-16 surrogate ${unitEscape(content, at)} at index ${at}), which UTF-8 text cannot store. Write the whole character (both halves of the surrogate pair, e.g. the complete emoji), or leave it out.`;

/** write's input schema. */
export const writeInputSchema = z.object({
  path: z.string().describe("Absolute path of the file to write. Missing parent directories are created."),
  content: z.string().describe("The complete new content of the file (UTF-8)."),
});

/** write's output schema: success or `{ error }` (TanStack validates every return). */
export const writeOutputSchema = z.union([
  z.object({ path: z.string(), bytesWritten: z.number().int() }),
  z.object({ error: z.string() }),
]);

/** Builds the write tool. @throws TypeError for an invalid `maxBytes`. */
export function writeDefinition(options: WriteToolOptions): SettledTool<WriteInput, WriteResult | ToolError> {
  const store = options.store;
  const maxBytes = checkPositive("createWriteTool", "maxBytes", options.maxBytes ?? WRITE_DEFAULTS.maxBytes);
  const guard = options.requireFreshRead === true;
  const maxPaths = options.freshReadMaxPaths === undefined ? undefined : checkPositive("createWriteTool", "freshReadMaxPaths", options.freshReadMaxPaths);
  // The guard's memory lives with the store, so read and edit over the same store fill it.
  if (guard) ensureLedger(store, maxPaths);
  return {
    ...WRITE_FACTS,
    description: `Write a file in the workspace, creating it or overwriting anything already at the path (an existing file keeps its permissions). Content is capped at ${Math.round(maxBytes / 1024)}KB; to change part of an existing file, prefer the edit tool. Paths are absolute.${guard ? " To overwrite an existing file, read it first: a file not read, or changed since it was read, is not overwritten." : ""}`,
    inputSchema: writeInputSchema,
    outputSchema: writeOutputSchema,
    limits: { maxBytes },
    async execute(input, context) {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return { error: aborted };
      const size = utf8Length(input.content);
      if (size > maxBytes) {
        return {
          error: `Content too large: ${size} bytes exceeds the ${maxBytes}-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.`,
        };
      }
      const half = firstLoneSurrogate(input.content);
      if (half >= 0) return { error: halfCharacterMessage(input.path, input.content, half) };
      try {
        return await withPathLock(store, input.path, false, async () => {
          const stat = await store.stat(input.path);
          if (stat && guard) {
            const verdict = await ledgerOf(store)!.check(store, input.path, stat);
            if (verdict === "unread") return { error: unreadMessage(input.path) };
            if (verdict === "stale") return { error: staleMessage(input.path) };
          }
          if (!stat) {
            const twin = await storeSibling(store, input.path);
            if (twin) return { error: twinMessage(input.path, twin) };
          }
          const bytes = utf8(input.content);
          const options: { mode?: number; ifMatch?: string; ifUnmodified?: { inode: number; size: number; mtime: number } } = {};
          if (stat?.mode !== undefined) options.mode = stat.mode;
          // Guarded: the file must still be what was checked fresh, whoever else writes it meanwhile — by
          // its SHA-256 (ifMatch) or, above the ledger's hash limit, by the inode, size and mtime of the stat
          // checked fresh (ifUnmodified; run 33, fixer WG: over 2 MiB the write was unconditional).
          const seen = stat && guard ? ledgerOf(store)!.seenHash(input.path) : null;
          if (seen) options.ifMatch = seen;
          else if (stat && guard && stat.inode !== undefined) options.ifUnmodified = { inode: stat.inode, size: stat.size, mtime: stat.mtime };
          const bound = options.ifMatch !== undefined || options.ifUnmodified !== undefined;
          try {
            await store.write(input.path, bytes, options.mode === undefined && !bound ? undefined : options);
          } catch (err) {
            if (bound && (err as { code?: unknown })?.code === "ESTALE") return { error: staleMessage(input.path) };
            throw err;
          }
          if (!stat) {
            // Another writer (another client, another Workspace on the same storage) may have created
            // another spelling at the same time: the one created first stays, the later one is taken back.
            const lost = await takeBackIfTwinCameFirst(store, input.path);
            if (lost) return { error: twinMessage(input.path, lost) };
          }
          await ledgerOf(store)?.rememberWritten(store, input.path, bytes);
          return { path: echoedText(input.path), bytesWritten: bytes.byteLength };
        });
      } catch (err) {
        return { error: errorMessage(err) };
      }
    },
  };
}

/**
 * After creating `path`: when a sibling spelled in another Unicode
 * normalisation was created before it ({@link earlierTwin}), removes the
 * file just made — if `path` is still that file — and returns the sibling.
 * Needs the store's `readdir`, `inode` and `remove`; without them, `null`.
 */
async function takeBackIfTwinCameFirst(store: FileStore, path: string): Promise<EquivalentSibling | null> {
  const remove = (store as Partial<MutableFileStore>).remove;
  if (typeof remove !== "function" || typeof store.inode !== "function" || typeof store.readdir !== "function") return null;
  const created = await store.inode(path);
  if (created === null) return null;
  const first = await earlierTwin(store, path, created);
  if (!first) return null;
  if ((await store.inode(path)) === created) await remove.call(store, path, { force: true });
  return first;
}
