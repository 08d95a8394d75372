/**
 * The `grep` tool (spec 03 §4.4): literal or regex search passed down to one
 * `workspace.fs.grep` call with include, exclude, context and paging.
 *
 * @module
 */
import { z } from "zod";
import { DEFAULT_SEARCH_PATH, globList, globsOf } from "./find.js";
import type { WorkspaceLike } from "./store.js";
import { DEFAULT_PAGE_LIMIT, fetchPage, MAX_PAGE_LIMIT, pageLimitField, pageOffsetField, withNextOffset } from "./paging.js";
import { searchError } from "./unicode-names.js";
import { errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** grep changes nothing. */
export const GREP_FACTS: ToolFacts = { name: "grep", mutating: false };

/** Largest `context` grep accepts. */
export const MAX_GREP_CONTEXT = 10;

/** Options of the grep tool. */
export interface GrepToolOptions {
  /** Workspace whose `fs.grep` the tool calls. */
  workspace: WorkspaceLike;
}

/** Input of the grep tool. */
export interface GrepInput {
  path: string;
  query: string;
  include?: string | string[];
  exclude?: string | string[];
  regex?: boolean;
  ignoreCase?: boolean;
  context?: number;
  limit?: number;
  offset?: number;
}

/** One page of matches; `nextOffset` is present when more follow. */
export interface GrepResult {
  path: string;
  query: string;
  count: number;
  matches: Array<{ path: string; line: number; text: string; context?: Array<{ line: number; text: string; isMatch: boolean }> }>;
  nextOffset?: number;
}

/** grep's input schema. */
export const grepInputSchema = z.object({
  path: z.string().default(DEFAULT_SEARCH_PATH).describe("Absolute file or directory to search (default /workspace)."),
  query: z.string().describe("Text to search for: a literal string, or a JavaScript regular expression when regex is true."),
  include: globList().optional().describe("Glob (or globs) relative to path that a file must match, e.g. **/*.ts."),
  exclude: globList()
    .optional()
    .describe('Globs relative to path to leave out; excluded directories are pruned. Name both forms, e.g. ["node_modules", "node_modules/**"].'),
  regex: z.boolean().optional().describe("Treat query as a regular expression (default false: literal)."),
  ignoreCase: z.boolean().optional().describe("Ignore letter case (default false)."),
  context: z
    .number()
    .int()
    .min(0)
    .max(MAX_GREP_CONTEXT)
    .optional()
    .describe(`Lines of context before and after each match, 0 to ${MAX_GREP_CONTEXT} (default 0).`),
  limit: pageLimitField("matches"),
  offset: pageOffsetField("Matches to skip."),
});

/** Builds the grep tool. */
export function grepDefinition(options: GrepToolOptions): SettledTool<GrepInput, GrepResult | ToolError> {
  const fs = options.workspace.fs;
  return {
    ...GREP_FACTS,
    description: `Search workspace text for a literal string (default) or a regular expression (regex: true), optionally ignoring case. Results carry the path, line number and text of each match, and with context the lines around it. Files come in depth-first order, then lines in order; at most ${DEFAULT_PAGE_LIMIT} matches per call by default (limit up to ${MAX_PAGE_LIMIT}); when nextOffset is present, call again with offset = nextOffset. Narrow the search with include and exclude globs.`,
    inputSchema: grepInputSchema as z.ZodType<GrepInput>,
    limits: { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT, maxContext: MAX_GREP_CONTEXT },
    async execute(input) {
      const path = input.path ?? DEFAULT_SEARCH_PATH;
      try {
        const includes = globsOf(input.include);
        const include = includes === undefined ? undefined : includes.length === 1 ? includes[0] : `{${includes.join(",")}}`;
        const exclude = globsOf(input.exclude);
        const { items, nextOffset } = await fetchPage(input, (limit, offset) =>
          fs.grep(input.query, path, {
            regex: input.regex ?? false,
            ignoreCase: input.ignoreCase ?? false,
            context: input.context ?? 0,
            ...(include !== undefined ? { include } : {}),
            ...(exclude !== undefined ? { exclude } : {}),
            limit,
            offset,
          }),
        );
        const matches = items.map((m) =>
          m.context !== undefined && (input.context ?? 0) > 0
            ? { path: m.path, line: m.line, text: m.text, context: m.context.map((c) => ({ line: c.line, text: c.text, isMatch: c.isMatch })) }
            : { path: m.path, line: m.line, text: m.text },
        );
        return withNextOffset<GrepResult>({ path, query: input.query, count: matches.length, matches }, nextOffset);
      } catch (err) {
        return { error: await searchError(err, fs, path) };
      }
    },
  };
}
