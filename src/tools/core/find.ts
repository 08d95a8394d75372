/**
 * The `find` tool (spec 03 §4.3): glob search passed down to
 * `workspace.fs.find`, which walks in pages and prunes excluded directories;
 * the page is held under a byte cap (paths past 4096 characters clipped).
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
import { relativeGlob, relativeGlobs } from "./relative-glob.js";
import { abortedCall, errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** find changes nothing. */
export const FIND_FACTS: ToolFacts = { name: "find", mutating: false };

/** Default search root of find and grep. */
export const DEFAULT_SEARCH_PATH = "/workspace";

/** Options of the find tool. */
export interface FindToolOptions {
  /** Workspace whose `fs.find` the tool calls. */
  workspace: WorkspaceLike;
  /**
   * Cap on the UTF-8 bytes of a result's JSON: past it, fewer entries come
   * back, with `nextOffset` at the first one left out and a `note`. At least
   * one entry is always returned. Default `262144` (256 KiB).
   */
  maxBytes?: number;
}

/** Input of the find tool. */
export interface FindInput {
  path: string;
  pattern: string;
  exclude?: string | string[];
  limit?: number;
  offset?: number;
}

/** One entry of a find result. */
export interface FindEntry {
  /** Absolute path; cut to its first 4096 characters, ending `[… N characters cut …]`, when `clipped`. */
  path: string;
  type: "file" | "dir" | "symlink";
  /** Present (`true`) when `path` was longer than 4096 characters and is cut. */
  clipped?: boolean;
}

/**
 * One page of matches; `nextOffset` is present when more follow (because of
 * `limit` or the byte cap). `note` says when the byte cap ended the page or
 * a path was clipped.
 */
export interface FindResult {
  /** The path as given; past 4096 characters cut to its first 4096, ending `[… N characters cut …]`. */
  path: string;
  pattern: string;
  count: number;
  entries: FindEntry[];
  note?: string;
  nextOffset?: number;
}

/** Most globs one `exclude` or `include` list may hold (each is matched against every name walked). */
export const MAX_GLOBS = 100;

/** A glob list argument: one glob or several (at most {@link MAX_GLOBS}). */
export const globList = () => z.union([z.string(), z.array(z.string()).max(MAX_GLOBS)]);

/** `exclude`/`include` as a list: blank entries dropped, an empty list becomes `undefined`. */
export function globsOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).filter((g) => g.trim() !== "");
  return list.length > 0 ? list : undefined;
}

/** find's input schema. */
export const findInputSchema = z.object({
  path: z.string().default(DEFAULT_SEARCH_PATH).describe("Absolute directory to search from (default /workspace)."),
  pattern: z
    .string()
    .describe("Glob relative to path: * stays within one path segment, ** crosses directories, ? matches one character. Example: **/*.ts"),
  exclude: globList()
    .optional()
    .describe('Globs relative to path to leave out; an excluded directory is skipped with everything below it. Name both forms, e.g. ["node_modules", "node_modules/**"].'),
  limit: pageLimitField("entries"),
  offset: pageOffsetField("Entries to skip."),
});

/** Builds the find tool. @throws TypeError for an invalid `maxBytes`. */
export function findDefinition(options: FindToolOptions): SettledTool<FindInput, FindResult | ToolError> {
  const fs = options.workspace.fs;
  const maxBytes = checkPositive("createFindTool", "maxBytes", options.maxBytes ?? LISTING_MAX_BYTES);
  return {
    ...FIND_FACTS,
    description: `Find files and directories in the workspace whose path matches a glob: * stays within one path segment, ** crosses directories, and ? matches one character. Results come in depth-first order, at most ${DEFAULT_PAGE_LIMIT} per call by default (limit up to ${MAX_PAGE_LIMIT}) and at most ${Math.round(maxBytes / 1024)}KB; when nextOffset is present, call again with offset = nextOffset. Paths longer than ${LISTING_NAME_WIDTH} characters are cut (clipped: true). Use exclude to prune directories such as node_modules. Dot-files and dot-directories (.git, .env) are matched and searched like any other name (* and ** match a leading dot); to leave them out, name them in exclude, e.g. [".git", ".git/**"].`,
    inputSchema: findInputSchema as z.ZodType<FindInput>,
    limits: { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT, maxBytes },
    async execute(input, context) {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return { error: aborted };
      const path = input.path ?? DEFAULT_SEARCH_PATH;
      // An absolute or trailing-"/" glob is read relative to path, or refused (issue 20, run 36, fixer TL).
      const pattern = relativeGlob("find", path, input.pattern, "pattern");
      if ("error" in pattern) return { error: pattern.error };
      const excluded = relativeGlobs("find", path, globsOf(input.exclude), "exclude");
      if ("error" in excluded) return { error: excluded.error };
      try {
        const exclude = excluded.globs;
        const page = await fetchCappedPage(
          input,
          entryBudget(maxBytes, echoedText(path), input.pattern),
          (limit, offset) => fs.find(path, pattern.glob, exclude ? { limit, offset, exclude } : { limit, offset }),
          (e) => {
            const shown = clipName(e.path);
            const entry: FindEntry = { path: shown.text, type: e.type };
            if (shown.clipped) entry.clipped = true;
            return { item: entry, clipped: shown.clipped };
          },
          (e) => e.path.length + 32,
        );
        const result: FindResult = { path: echoedText(path), pattern: input.pattern, count: page.items.length, entries: page.items };
        const note = listingNote(page, maxBytes, "Paths");
        if (note !== "") result.note = note;
        return withNextOffset(result, page.nextOffset);
      } catch (err) {
        return { error: await searchError(err, fs, path) };
      }
    },
  };
}
