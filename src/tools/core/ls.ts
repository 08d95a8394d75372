/**
 * The `ls` tool (spec 03 §4.2): one page of a directory, in name order,
 * passed down to `workspace.fs.readdir`.
 *
 * @module
 */
import { z } from "zod";
import type { WorkspaceLike } from "./store.js";
import { DEFAULT_PAGE_LIMIT, fetchPage, MAX_PAGE_LIMIT, pageLimitField, pageOffsetField, withNextOffset } from "./paging.js";
import { searchError } from "./unicode-names.js";
import { errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** ls changes nothing. */
export const LS_FACTS: ToolFacts = { name: "ls", mutating: false };

/** Options of the ls tool. */
export interface ListToolOptions {
  /** Workspace whose `fs.readdir` the tool calls. */
  workspace: WorkspaceLike;
}

/** Input of the ls tool. */
export interface ListInput {
  path: string;
  limit?: number;
  offset?: number;
}

/** One directory entry (links are not followed). */
export interface ListEntry {
  name: string;
  size: number;
  mtime: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** One page of a listing; `nextOffset` is present when more entries follow. */
export interface ListResult {
  path: string;
  count: number;
  entries: ListEntry[];
  nextOffset?: number;
}

/** ls's input schema. */
export const listInputSchema = z.object({
  path: z.string().describe("Absolute path of the directory to list, e.g. /workspace."),
  limit: pageLimitField("entries"),
  offset: pageOffsetField("Entries to skip, in name order."),
});

/** Builds the ls tool. */
export function listDefinition(options: ListToolOptions): SettledTool<ListInput, ListResult | ToolError> {
  const fs = options.workspace.fs;
  return {
    ...LS_FACTS,
    description: `List a workspace directory's entries with their sizes, modification times and types, in name order. Returns at most ${DEFAULT_PAGE_LIMIT} entries by default (limit up to ${MAX_PAGE_LIMIT}); when nextOffset is present, call again with offset = nextOffset for the next page. Paths are absolute.`,
    inputSchema: listInputSchema,
    limits: { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT },
    async execute(input) {
      try {
        const { items, nextOffset } = await fetchPage(input, (limit, offset) => fs.readdir(input.path, { limit, offset }));
        const entries = items.map((e) => ({
          name: e.name,
          size: e.size,
          mtime: e.mtime,
          isFile: e.isFile,
          isDirectory: e.isDirectory,
          isSymbolicLink: e.isSymbolicLink,
        }));
        return withNextOffset<ListResult>({ path: input.path, count: entries.length, entries }, nextOffset);
      } catch (err) {
        return { error: await searchError(err, fs, input.path) };
      }
    },
  };
}
