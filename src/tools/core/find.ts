/**
 * The `find` tool (spec 03 §4.3): glob search passed down to
 * `workspace.fs.find`, which walks in pages and prunes excluded directories.
 *
 * @module
 */
import { z } from "zod";
import type { WorkspaceLike } from "./store.js";
import { DEFAULT_PAGE_LIMIT, fetchPage, MAX_PAGE_LIMIT, pageLimitField, pageOffsetField, withNextOffset } from "./paging.js";
import { searchError } from "./unicode-names.js";
import { errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** find changes nothing. */
export const FIND_FACTS: ToolFacts = { name: "find", mutating: false };

/** Default search root of find and grep. */
export const DEFAULT_SEARCH_PATH = "/workspace";

/** Options of the find tool. */
export interface FindToolOptions {
  /** Workspace whose `fs.find` the tool calls. */
  workspace: WorkspaceLike;
}

/** Input of the find tool. */
export interface FindInput {
  path: string;
  pattern: string;
  exclude?: string | string[];
  limit?: number;
  offset?: number;
}

/** One page of matches; `nextOffset` is present when more follow. */
export interface FindResult {
  path: string;
  pattern: string;
  count: number;
  entries: Array<{ path: string; type: "file" | "dir" | "symlink" }>;
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

/** Builds the find tool. */
export function findDefinition(options: FindToolOptions): SettledTool<FindInput, FindResult | ToolError> {
  const fs = options.workspace.fs;
  return {
    ...FIND_FACTS,
    description: `Find files and directories in the workspace whose path matches a glob: * stays within one path segment, ** crosses directories, and ? matches one character. Results come in depth-first order, at most ${DEFAULT_PAGE_LIMIT} per call by default (limit up to ${MAX_PAGE_LIMIT}); when nextOffset is present, call again with offset = nextOffset. Use exclude to prune directories such as node_modules. Dot-files and dot-directories (.git, .env) are matched and searched like any other name (* and ** match a leading dot); to leave them out, name them in exclude, e.g. [".git", ".git/**"].`,
    inputSchema: findInputSchema as z.ZodType<FindInput>,
    limits: { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT },
    async execute(input) {
      const path = input.path ?? DEFAULT_SEARCH_PATH;
      try {
        const exclude = globsOf(input.exclude);
        const { items, nextOffset } = await fetchPage(input, (limit, offset) =>
          fs.find(path, input.pattern, exclude ? { limit, offset, exclude } : { limit, offset }),
        );
        const entries = items.map((e) => ({ path: e.path, type: e.type }));
        return withNextOffset<FindResult>({ path, pattern: input.pattern, count: items.length, entries }, nextOffset);
      } catch (err) {
        return { error: await searchError(err, fs, path) };
      }
    },
  };
}
