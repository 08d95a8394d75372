/**
 * Paging for ls, find and grep (spec 03 §4.2–4.4): the page limits, the
 * `limit`/`offset` schema fields, fetching one page with `limit + 1` to
 * learn whether another follows, and (ls, find) a page held under a byte
 * cap with long names clipped.
 *
 * @module
 */
import { z } from "zod";
import { clipLine } from "../../fs/clip.js";
import { utf8Length } from "./truncate.js";

/** Default entries per page for ls, find and grep. */
export const DEFAULT_PAGE_LIMIT = 200;
/** Largest `limit` ls, find and grep accept. */
export const MAX_PAGE_LIMIT = 1000;

/** The paging arguments of a paged tool. */
export interface PageInput {
  /** Items per page. Default {@link DEFAULT_PAGE_LIMIT}. */
  limit?: number;
  /** Items to skip. Default `0`. */
  offset?: number;
}

/** One page: its items, and `nextOffset` when more follow. */
export interface Page<T> {
  items: T[];
  nextOffset?: number;
}

/**
 * One page of a listing fetched with `limit + 1`: drops the extra entry and
 * sets `nextOffset = offset + limit` when there was one.
 */
export function page<T>(items: T[], limit: number, offset: number): Page<T> {
  if (items.length > limit) return { items: items.slice(0, limit), nextOffset: offset + limit };
  return { items };
}

/** Asks `fetch` for `limit + 1` items from `offset` (defaults applied) and returns the {@link page}. */
export async function fetchPage<T>(input: PageInput, fetch: (limit: number, offset: number) => Promise<T[]>): Promise<Page<T>> {
  const limit = input.limit ?? DEFAULT_PAGE_LIMIT;
  const offset = input.offset ?? 0;
  return page(await fetch(limit + 1, offset), limit, offset);
}

/** `result`, with `nextOffset` set last when there is one. */
export function withNextOffset<R extends object>(result: R, nextOffset: number | undefined): R & { nextOffset?: number } {
  return nextOffset === undefined ? result : { ...result, nextOffset };
}

/** The `limit` field of a paged tool: 1..MAX_PAGE_LIMIT, default DEFAULT_PAGE_LIMIT (`noun` names what is counted). */
export function pageLimitField(noun: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .optional()
    .describe(`Maximum ${noun} to return (default ${DEFAULT_PAGE_LIMIT}, maximum ${MAX_PAGE_LIMIT}).`);
}

/** The `offset` field of a paged tool (`detail` says what is skipped). */
export function pageOffsetField(detail: string) {
  return z.number().int().min(0).optional().describe(`${detail} Pass the previous result's nextOffset to continue.`);
}

/** Default cap on the UTF-8 bytes of an ls or find result's JSON (grep's and read's too): 256 KiB. */
export const LISTING_MAX_BYTES = 262_144;

/**
 * Characters (UTF-16 code units) of a name (ls) or path (find) shown; a
 * longer one keeps its first {@link LISTING_NAME_WIDTH} characters and ends
 * with `[… N characters cut …]`. Linux's PATH_MAX.
 */
export const LISTING_NAME_WIDTH = 4096;

/** Bytes of a result kept for everything but its entries (`count`, `note`, `nextOffset`, keys), besides the echoed arguments. */
const RESULT_RESERVE = 1024;

/** Entries asked for by the first `fs` call of a capped page. */
const FIRST_BATCH = 32;

/** One page as {@link fetchCappedPage} cuts it. */
export interface CappedPage<T> {
  /** The entries shown. */
  items: T[];
  /** Offset of the first entry not shown, when more follow. */
  nextOffset?: number;
  /** `true` when the byte cap, not `limit`, ended the page. */
  cut: boolean;
  /** `true` when a shown name was clipped to {@link LISTING_NAME_WIDTH}. */
  clipped: boolean;
}

/** `text` cut to `width` characters from its start, and whether it was. */
export function clipName(text: string, width: number = LISTING_NAME_WIDTH): { text: string; clipped: boolean } {
  return text.length <= width ? { text, clipped: false } : { text: clipLine(text, width, 0), clipped: true };
}

/**
 * A string argument as a file tool's result or error text echoes it (`path`
 * of read, write, edit, ls, find and grep, delete's `deleted`, grep's
 * `query`, and the path each message names — `File not found: <path>`,
 * `Path is outside <root>: <path>`, a filesystem error's path): cut as a
 * listed path is ({@link clipName}) past {@link LISTING_NAME_WIDTH}
 * characters, so that a long one (a path up to `MAX_PATH_BYTES`, 256 KiB,
 * written up to six times as long in JSON when it holds control characters;
 * a query of any length) cannot take the result past its `maxBytes`. The one
 * helper for every such echo.
 */
export function echoedText(text: string): string {
  return typeof text === "string" ? clipName(text).text : text;
}

/** Bytes the entries of a result may take under `maxBytes`, given the strings it echoes (path, pattern). */
export function entryBudget(maxBytes: number, ...echoed: string[]): number {
  return Math.max(1, maxBytes - RESULT_RESERVE - echoed.reduce((sum, e) => sum + utf8Length(JSON.stringify(e)), 0));
}

/**
 * One page of a listing (ls, find) held under `budget` bytes of JSON.
 *
 * Entries are taken in order while they fit (the first always) and `limit`
 * is not reached; `nextOffset` is then the first entry not shown. The page
 * is fetched in batches — `fetch(count, offset)` — the first of
 * {@link FIRST_BATCH} entries, each later one sized from the longest entry
 * seen (`weight`, in characters) so that one batch holds about four
 * budgets' worth of such entries, never more than the page still needs plus
 * one. `show` turns an entry into what the model sees (names clipped).
 */
export async function fetchCappedPage<E, T>(
  input: PageInput,
  budget: number,
  fetch: (limit: number, offset: number) => Promise<E[]>,
  show: (entry: E) => { item: T; clipped: boolean },
  weight: (entry: E) => number,
): Promise<CappedPage<T>> {
  const limit = input.limit ?? DEFAULT_PAGE_LIMIT;
  const offset = input.offset ?? 0;
  const items: T[] = [];
  let bytes = 2; // []
  let clipped = false;
  let heaviest = 1;
  let at = offset;
  let batch = Math.min(limit + 1, FIRST_BATCH);
  for (;;) {
    const got = await fetch(batch, at);
    for (const entry of got) {
      if (items.length === limit) return { items, nextOffset: offset + limit, cut: false, clipped };
      const shown = show(entry);
      const size = utf8Length(JSON.stringify(shown.item)) + (items.length > 0 ? 1 : 0);
      if (items.length > 0 && bytes + size > budget) return { items, nextOffset: offset + items.length, cut: true, clipped };
      items.push(shown.item);
      bytes += size;
      clipped ||= shown.clipped;
      heaviest = Math.max(heaviest, weight(entry));
    }
    if (got.length < batch) return { items, cut: false, clipped };
    at += got.length;
    batch = Math.max(1, Math.min(limit - items.length + 1, Math.floor((4 * budget) / heaviest)));
  }
}

/** The note of a capped listing page: the byte cap and clipped names (`""` when neither). */
export function listingNote(page: CappedPage<unknown>, maxBytes: number, noun: string): string {
  const notes: string[] = [];
  if (page.cut) {
    const n = page.items.length;
    notes.push(`Result cut at ${maxBytes} bytes after ${n} ${n === 1 ? "entry" : "entries"}; call again with offset = ${page.nextOffset} for the rest.`);
  }
  if (page.clipped) {
    notes.push(
      `${noun} longer than ${LISTING_NAME_WIDTH} characters were cut to their first ${LISTING_NAME_WIDTH}, "[… N characters cut …]" marking what was left out (clipped: true); such a path cannot be passed back as shown — match it with a find glob or use exec.`,
    );
  }
  return notes.join(" ");
}
