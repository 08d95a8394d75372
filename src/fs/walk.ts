/**
 * Depth-first pre-order walk for `find` and `grep` (spec 01 §3.3): siblings
 * by name byte order, a directory before its contents. The walk is one
 * ordered scan of the root's key range (`path-key.ts`) read in keyset pages,
 * sized by how many more entries the caller may need, so a walk that stops
 * early reads few rows beyond what it returns. Links are yielded but have no
 * keys below them; excluded entries are dropped, and an excluded directory's
 * key range is skipped with one seek (nothing below it is read, unless a row
 * of it was already in the page).
 *
 * @module
 */
import type { Node, Nodes, WalkRow } from "./nodes.js";
import { keyToRelative, SEP, SEP_END } from "./path-key.js";
import { Kind } from "./schema.js";
import type { Exclude } from "./glob.js";


/** Largest page of one statement. */
const MAX_PAGE = 1024;

/**
 * Most rows of a page that carries small files' bytes (`withData`): each
 * holds at most `INLINE_CHUNK_BYTES` (16 KiB), so a page holds at most 4 MiB.
 */
const DATA_PAGE = 256;

/** First page of an unbounded walk, and the smallest page; pages double from it up to {@link MAX_PAGE}. */
const MIN_PAGE = 16;

/** Largest first page of a walk for a bounded number of entries. */
const FIRST_BOUNDED = 512;

export interface WalkEntry<T extends WalkRow = WalkRow> {
  /** The entry: `ino`, `kind` and `key`, or the whole node when the walk is `full`. */
  node: T;
  /** Path relative to the walk's root, without a leading `/`. */
  relative: string;
}

/**
 * Yields every entry under `root` in DFS pre-order. `want()` tells how many
 * more entries the caller may still need (matches: the walk scales it by the
 * share of entries that matched so far), which sizes the next page; at 0 the
 * walk ends instead of reading another page. `full` reads whole nodes (for
 * content); otherwise only what the path-key index holds.
 *
 * `filesOnly` (no `exclude`: nothing to prune) yields regular files only,
 * the store skipping the rest in the index: for `grep`, where each file
 * wanted holds at least one match, so a bounded walk's first page is exactly
 * the matches wanted (the most files a page can need) and later pages follow
 * the share of files that matched. With `withData` too, each file of at
 * most 16 KiB comes with its bytes read in the statement of its row (one
 * version of it; pages of at most {@link DATA_PAGE} rows): for a `grep`
 * that searches every file it walks.
 */
export function walk(nodes: Nodes, root: Node, exclude: undefined, want: () => number, full: true, suffix: undefined, filesOnly: true, withData?: boolean): Generator<WalkEntry<Node>>;
export function walk(nodes: Nodes, root: Node, exclude: Exclude | undefined, want: () => number, full: true): Generator<WalkEntry<Node>>;
export function walk(nodes: Nodes, root: Node, exclude: Exclude | undefined, want: () => number, full?: false, suffix?: string): Generator<WalkEntry>;
export function* walk(
  nodes: Nodes,
  root: Node,
  exclude: Exclude | undefined,
  want: () => number,
  full = false,
  suffix?: string,
  filesOnly = false,
  withData = false,
): Generator<WalkEntry> {
  const end = root.key + SEP_END;
  const cut = root.key.length + 1;
  let from = root.key + SEP;
  let after = false;
  const initial = want();
  // A walk for a bounded page starts at that page and a quarter more (up to FIRST_BOUNDED), so a page
  // that is mostly matches (plus the directories above them) takes one statement; an unbounded walk starts small.
  let cap = Number.isFinite(initial) ? Math.min(FIRST_BOUNDED, Math.ceil(initial * 1.25) + MIN_PAGE) : MIN_PAGE;
  let seen = 0;
  for (;;) {
    const wanted = want();
    if (wanted <= 0) return; // the caller has all it needs: read no further page
    // Entries per wanted match so far (at least 1): a selective pattern reads bigger pages.
    let limit = cap;
    if (filesOnly && seen === 0 && Number.isFinite(wanted)) {
      limit = Math.max(1, Math.min(MAX_PAGE, wanted));
    } else if (Number.isFinite(wanted)) {
      const done = initial - wanted;
      const perMatch = done > 0 ? seen / done : Math.max(seen, 1);
      // A tenth more than the estimate, so the last page is rarely one more statement.
      limit = Math.max(MIN_PAGE, Math.min(cap, Math.ceil(wanted * perMatch * 1.1) + 4));
    }
    cap = Math.min(MAX_PAGE, cap * 2);
    if (withData) limit = Math.min(limit, DATA_PAGE);
    const page = nodes.scan(from, after, end, limit, full, suffix, filesOnly && exclude === undefined, withData);
    let seek: string | undefined;
    for (let i = 0; i < page.length; i++) {
      const node = page[i];
      seen++;
      const relative = keyToRelative(node.key, cut);
      let prune = false;
      if (exclude?.drop(relative)) prune = node.kind === Kind.Directory;
      else {
        yield { node, relative };
        prune = node.kind === Kind.Directory && exclude?.prune(relative) === true;
      }
      if (!prune) continue;
      // Skip the directory's key range: the rows of it in this page, then seek past it.
      const below = node.key + SEP;
      while (i + 1 < page.length && page[i + 1].key.startsWith(below)) i++;
      if (i + 1 === page.length && page.length === limit) seek = node.key + SEP_END;
    }
    if (seek !== undefined) {
      // Past a pruned directory: small pages again, so the next one costs little.
      from = seek;
      after = false;
      cap = MIN_PAGE;
      continue;
    }
    if (page.length < limit) return;
    from = page[page.length - 1].key;
    after = true;
  }
}

/**
 * Characters that are literal in every glob (spec 01 §3.4), in `GLOB` and in
 * NFC (which the matcher compares in): ASCII letters but `K` (U+212A KELVIN
 * SIGN is `K` in NFC), digits, `_`, `.`, `-`.
 */
const PLAIN_TAIL = /[A-JL-Za-z0-9_.-]+$/;

/**
 * The longest tail of `pattern` made of plain characters, which every path
 * it matches ends with (globs are anchored to the whole relative path):
 * `.ts` for `**` + `/*.ts`, `""` when there is none. A walk with this suffix
 * gets only directories and the entries that end with it from the store, so
 * `find` tests only the rows that can match.
 */
export function plainSuffix(pattern: string | undefined): string {
  return pattern ? (PLAIN_TAIL.exec(pattern)?.[0] ?? "") : "";
}
