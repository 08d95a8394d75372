/**
 * The `ls` tool (spec 03 §4.2): one page of a directory, in name order,
 * passed down to `workspace.fs.readdir`, held under a byte cap (names past
 * 4096 characters clipped).
 *
 * @module
 */
import { z } from "zod";
import type { WorkspaceLike } from "./store.js";
import {
  clipName,
  DEFAULT_PAGE_LIMIT,
  echoedText,
  entryBudget,
  fetchCappedPage,
  LISTING_MAX_BYTES,
  LISTING_NAME_WIDTH,
  listingNote,
  MAX_PAGE_LIMIT,
  pageLimitField,
  pageOffsetField,
  withNextOffset,
} from "./paging.js";
import { checkPositive } from "./truncate.js";
import { searchError } from "./unicode-names.js";
import { abortedCall, errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** ls changes nothing. */
export const LS_FACTS: ToolFacts = { name: "ls", mutating: false };

/** Options of the ls tool. */
export interface ListToolOptions {
  /** Workspace whose `fs.readdir` the tool calls. */
  workspace: WorkspaceLike;
  /**
   * Cap on the UTF-8 bytes of a result's JSON: past it, fewer entries come
   * back, with `nextOffset` at the first one left out and a `note`. At least
   * one entry is always returned. Default `262144` (256 KiB).
   */
  maxBytes?: number;
}

/** Input of the ls tool. */
export interface ListInput {
  path: string;
  limit?: number;
  offset?: number;
}

/** One directory entry (links are not followed). */
export interface ListEntry {
  /** The entry's name; cut to its first 4096 characters, ending `[… N characters cut …]`, when `clipped`. */
  name: string;
  size: number;
  mtime: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  /** Present (`true`) when `name` was longer than 4096 characters and is cut. */
  clipped?: boolean;
}

/**
 * One page of a listing; `nextOffset` is present when more entries follow
 * (because of `limit` or the byte cap). `note` says when the byte cap ended
 * the page or a name was clipped.
 */
export interface ListResult {
  /** The path as given; past 4096 characters cut to its first 4096, ending `[… N characters cut …]`. */
  path: string;
  count: number;
  entries: ListEntry[];
  note?: string;
  nextOffset?: number;
}

/** ls's input schema. */
export const listInputSchema = z.object({
  path: z.string().describe("Absolute path of the directory to list, e.g. /workspace."),
  limit: pageLimitField("entries"),
  offset: pageOffsetField("Entries to skip, in name order."),
});

/** Builds the ls tool. @throws TypeError for an invalid `maxBytes`. */
export function listDefinition(options: ListToolOptions): SettledTool<ListInput, ListResult | ToolError> {
  const fs = options.workspace.fs;
  const maxBytes = checkPositive("createListTool", "maxBytes", options.maxBytes ?? LISTING_MAX_BYTES);
  return {
    ...LS_FACTS,
    description: `List a workspace directory's entries with their sizes, modification times and types, in name order. Returns at most ${DEFAULT_PAGE_LIMIT} entries by default (limit up to ${MAX_PAGE_LIMIT}) and at most ${Math.round(maxBytes / 1024)}KB; when nextOffset is present, call again with offset = nextOffset for the next page. Names longer than ${LISTING_NAME_WIDTH} characters are cut (clipped: true). Paths are absolute.`,
    inputSchema: listInputSchema,
    limits: { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT, maxBytes },
    async execute(input, context) {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return { error: aborted };
      try {
        const page = await fetchCappedPage(
          input,
          entryBudget(maxBytes, echoedText(input.path)),
          (limit, offset) => fs.readdir(input.path, { limit, offset }),
          (e) => {
            const name = clipName(e.name);
            const entry: ListEntry = {
              name: name.text,
              size: e.size,
              mtime: e.mtime,
              isFile: e.isFile,
              isDirectory: e.isDirectory,
              isSymbolicLink: e.isSymbolicLink,
            };
            if (name.clipped) entry.clipped = true;
            return { item: entry, clipped: name.clipped };
          },
          (e) => e.name.length + 128,
        );
        const result: ListResult = { path: echoedText(input.path), count: page.items.length, entries: page.items };
        const note = listingNote(page, maxBytes, "Names");
        if (note !== "") result.note = note;
        return withNextOffset(result, page.nextOffset);
      } catch (err) {
        return { error: await searchError(err, fs, input.path) };
      }
    },
  };
}
