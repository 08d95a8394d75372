/**
 * Paging for ls, find and grep (spec 03 §4.2–4.4): the page limits, the
 * `limit`/`offset` schema fields, and fetching one page with `limit + 1` to
 * learn whether another follows.
 *
 * @module
 */
import { z } from "zod";

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
