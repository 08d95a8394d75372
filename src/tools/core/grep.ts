/**
 * The `grep` tool (spec 03 §4.4): literal or regex search passed down to one
 * `workspace.fs.grep` call with include, exclude, context and paging.
 *
 * @module
 */
import { z } from "zod";
import { DEFAULT_SEARCH_PATH, globList, globsOf } from "./find.js";
import type { WorkspaceLike } from "./store.js";
import { fetchGrepPage, GREP_LINE_WIDTH, GREP_MAX_BYTES, matchBudget, type GrepPageCut, type GrepResultMatch } from "./grep-page.js";
import { DEFAULT_PAGE_LIMIT, echoedText, LISTING_NAME_WIDTH, MAX_PAGE_LIMIT, pageLimitField, pageOffsetField, withNextOffset } from "./paging.js";
import { checkPositive } from "./truncate.js";
import { searchError } from "./unicode-names.js";
import { directoryForm } from "../../util/path.js";
import { lineBreakError } from "./grep-line-break.js";
import { relativeGlobs } from "./relative-glob.js";
import { WorkspaceFsError } from "../../fs/errors.js";
import { abortedCall, errorMessage, type SettledTool, type ToolError, type ToolFacts } from "./types.js";

/** grep changes nothing. */
export const GREP_FACTS: ToolFacts = { name: "grep", mutating: false };

/** Largest `context` grep accepts. */
export const MAX_GREP_CONTEXT = 10;

/** Options of the grep tool. */
export interface GrepToolOptions {
  /** Workspace whose `fs.grep` the tool calls. */
  workspace: WorkspaceLike;
  /**
   * Cap on the UTF-8 bytes of a result's JSON, context lines included: past
   * it, fewer matches come back, with `nextOffset` at the first one left out
   * and a `note`. At least one match is always returned. Default `262144` (256 KiB).
   */
  maxBytes?: number;
  /**
   * Characters kept of each reported line (match and context lines); a
   * longer line is cut around its first match, with `[… N characters cut …]`
   * markers, `clipped: true` and the match's `column`. Default `500`.
   */
  maxLineLength?: number;
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

/**
 * One page of matches; `nextOffset` is present when more follow.
 * `binarySkipped` counts files left out as binary (when any), and `note`
 * tells the model what was skipped, cut or clipped.
 */
export interface GrepResult {
  /** The path as given; past 4096 characters cut to its first 4096, ending `[… N characters cut …]`. */
  path: string;
  /** The query as given; past 4096 characters cut to its first 4096, ending `[… N characters cut …]` (the whole query is searched for). */
  query: string;
  count: number;
  matches: GrepResultMatch[];
  binarySkipped?: number;
  note?: string;
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
  regex: z.boolean().optional().describe("Treat query as a regular expression (default false: literal). RE2 syntax, written as in JavaScript: no backreferences or lookaround."),
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
  const maxBytes = checkPositive("createGrepTool", "maxBytes", options.maxBytes ?? GREP_MAX_BYTES);
  const lineWidth = checkPositive("createGrepTool", "maxLineLength", options.maxLineLength ?? GREP_LINE_WIDTH);
  return {
    ...GREP_FACTS,
    description: `Search workspace text for a literal string (default) or a regular expression (regex: true), optionally ignoring case. Results carry the path, line number and text of each match, and with context the lines around it. Files come in depth-first order, then lines in order; at most ${DEFAULT_PAGE_LIMIT} matches per call by default (limit up to ${MAX_PAGE_LIMIT}); when nextOffset is present, call again with offset = nextOffset. Narrow the search with include and exclude globs. Files in dot-directories such as .git are searched like any others; to leave them out, name them in exclude, e.g. [".git", ".git/**"]. ${describeCaps(maxBytes, lineWidth)}`,
    inputSchema: grepInputSchema as z.ZodType<GrepInput>,
    limits: { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT, maxContext: MAX_GREP_CONTEXT, maxBytes, maxLineLength: lineWidth },
    async execute(input, context) {
      const aborted = abortedCall(context);
      if (aborted !== undefined) return { error: aborted };
      const path = input.path ?? DEFAULT_SEARCH_PATH;
      try {
        // A list goes down as a list: fs.grep reads each glob alone (joined into one `{a,b}` glob,
        // a comma in one would split it, and past 256 alternatives the whole would be read literally).
        // An absolute or trailing-"/" glob is read relative to path, or refused (issue 20, run 36, fixer TL).
        const included = relativeGlobs("grep", path, globsOf(input.include), "include");
        if ("error" in included) return { error: included.error };
        const excluded = relativeGlobs("grep", path, globsOf(input.exclude), "exclude");
        if ("error" in excluded) return { error: excluded.error };
        const includes = included.globs;
        const include = includes === undefined ? undefined : includes.length === 1 ? includes[0] : includes;
        const exclude = excluded.globs;
        const limit = input.limit ?? DEFAULT_PAGE_LIMIT;
        const offset = input.offset ?? 0;
        const shown = { path: echoedText(path), query: echoedText(input.query) };
        const budget = matchBudget(maxBytes, shown.path, shown.query);
        const lineBreak = lineBreakError(input.query, input.regex ?? false);
        if (lineBreak !== undefined) return { error: lineBreak };
        await checkDirectoryForm(fs, path);
        const grepOptions = {
          regex: input.regex ?? false,
          ignoreCase: input.ignoreCase ?? false,
          context: input.context ?? 0,
          ...(include !== undefined ? { include } : {}),
          ...(exclude !== undefined ? { exclude } : {}),
          skipBinary: true,
          maxLineLength: lineWidth,
        };
        const cut = await fetchGrepPage({ limit, offset, budget, lineWidth, withContext: (input.context ?? 0) > 0 }, (count, from, maxTotalLength) =>
          fs.grep(input.query, path, { ...grepOptions, limit: count, offset: from, maxTotalLength }),
        );
        const result: GrepResult = { path: shown.path, query: shown.query, count: cut.matches.length, matches: cut.matches };
        if (cut.binarySkipped > 0) result.binarySkipped = cut.binarySkipped;
        const note = noteOf(cut, maxBytes, lineWidth);
        if (note !== "") result.note = note;
        return withNextOffset(result, cut.nextOffset);
      } catch (err) {
        return { error: await searchError(err, fs, path) };
      }
    },
  };
}

/**
 * A start path in directory form (`f.txt/`, `f.txt/.`) must lead to a
 * directory, as GNU grep answers (`f.txt/: Not a directory`): the
 * filesystem drops the tail, so without this it would search the file. A
 * non-directory there is `ENOTDIR` (`grep`, the path as given); nothing
 * there is left for `fs.grep` to report.
 */
async function checkDirectoryForm(fs: WorkspaceLike["fs"], path: string): Promise<void> {
  if (directoryForm(path) === null) return;
  let isDirectory: boolean;
  try {
    isDirectory = (await fs.stat(path)).isDirectory;
  } catch {
    return;
  }
  if (!isDirectory) throw new WorkspaceFsError("ENOTDIR", "grep", path);
}

/** The description's sentences on binary files, clipped lines and the byte cap. */
function describeCaps(maxBytes: number, lineWidth: number): string {
  return (
    `Files that look binary (a NUL byte in their first 8 KiB) are skipped and counted in binarySkipped. ` +
    `Lines longer than ${lineWidth} characters are cut to ${lineWidth} around their first match: "[… N characters cut …]" marks each cut, clipped is true and column gives where the match starts in the full line. ` +
    `A result holds at most ${Math.round(maxBytes / 1024)}KB; past that it stops early with a note and nextOffset.`
  );
}

/** What the model is told about this page: binary files skipped, the byte cap, clipped lines. */
function noteOf(cut: GrepPageCut, maxBytes: number, lineWidth: number): string {
  const notes: string[] = [];
  if (cut.binarySkipped > 0) {
    const n = cut.binarySkipped;
    notes.push(`${n} file${n === 1 ? "" : "s"} that look${n === 1 ? "s" : ""} binary (a NUL byte in the first 8 KiB) ${n === 1 ? "was" : "were"} skipped.`);
  }
  if (cut.cut) {
    notes.push(`Result cut at ${maxBytes} bytes after ${cut.matches.length} match${cut.matches.length === 1 ? "" : "es"}; call again with offset = ${cut.nextOffset} for the rest.`);
  }
  if (cut.clipped) {
    notes.push(`Lines longer than ${lineWidth} characters were cut around their first match; "[… N characters cut …]" marks what was left out.`);
  }
  if (cut.pathClipped) {
    notes.push(
      `Paths longer than ${LISTING_NAME_WIDTH} characters were cut to their first ${LISTING_NAME_WIDTH}, "[… N characters cut …]" marking what was left out (pathClipped: true); such a path cannot be passed back as shown — match it with a find glob or use exec.`,
    );
  }
  return notes.join(" ");
}
