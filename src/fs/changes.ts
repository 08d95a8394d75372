/**
 * Change tracking (spec 01 §4 item 8; consumed by `push`/`pull`, spec 01
 * §1.2, and the sync bracket of command backends, spec 02 §7.3).
 *
 * Every mutation transaction advances the store revision once and stamps
 * the nodes it touched with it; a path it vacated (rm, the old path of a
 * rename) leaves a tombstone at that revision (`nodes.ts`). This module reads
 * them back as one list in `(rev, path key)` order, from a cursor, a page at
 * a time: applying the entries in that order to a real directory (each entry
 * replacing what is at its path, creating missing parents) reproduces the
 * Workspace tree.
 *
 * Internal: not part of {@link WorkspaceFilesystem} (nor its RPC stub) yet.
 *
 * @module
 */
import { WorkspaceFsError } from "./errors.js";
import type { MountGuard } from "./mount-guard.js";
import type { ChangeRow, Nodes } from "./nodes.js";
import { keyToPath, pathKey } from "./path-key.js";
import { canonicalPath } from "./path.js";
import { Kind } from "./schema.js";
import { isUnder } from "../util/path.js";
import { valueCut } from "../util/cut.js";

/**
 * A position in the change list: everything up to `(rev, path)` has been
 * seen. `path` `null`: all of revision `rev` has been seen. `{ rev: 0, path:
 * null }` is the start (the whole tree). Plain numbers and a string: a
 * consumer keeps it across restarts.
 */
export interface ChangeCursor {
  /** A store revision, 0 ≤ `rev` ≤ {@link WorkspaceFs.revision}. */
  rev: number;
  /** Canonical path of the last entry seen at `rev`, or `null`. */
  path: string | null;
}

/** One change: the state of a path now, or its deletion. */
export interface ChangeEntry {
  /** Canonical absolute path (`/` only for a chmod of the root). */
  path: string;
  /**
   * What is at `path` now. `"deleted"`: nothing — the path (with `subtree`,
   * everything under it too) was removed or renamed away at `rev`.
   */
  kind: "file" | "directory" | "symlink" | "deleted";
  /** The revision of the mutation that last touched the path. */
  rev: number;
  /** Permission bits (`0o7777` mask); not on `"deleted"`. */
  mode?: number;
  /** Modification time (ms since the epoch); not on `"deleted"`. */
  mtime?: number;
  /** Bytes of a file, UTF-16 length of a link's target; not on directories or `"deleted"`. */
  size?: number;
  /** A link's target, verbatim; only on `"symlink"`. */
  target?: string;
  /** `"deleted"` only: `true` when the path was a directory, so everything under it went too. */
  subtree?: boolean;
}

/** One page of {@link changesSince}. */
export interface ChangePage {
  /** Changes after the cursor, in `(rev, path key)` order (a deletion first at the same place). */
  entries: ChangeEntry[];
  /** Where the next page starts; when `done`, `{ rev: <store revision>, path: null }`. */
  cursor: ChangeCursor;
  /** No change after `cursor` (as of this call). */
  done: boolean;
}

/** Options of {@link changesSince}. */
export interface ChangesOptions {
  /** Most entries per page: an integer 1..{@link MAX_CHANGES_LIMIT}. Default {@link DEFAULT_CHANGES_LIMIT}. */
  limit?: number;
}

/** Entries per page when `limit` is not given. */
export const DEFAULT_CHANGES_LIMIT = 1000;

/** Largest `limit` accepted. */
export const MAX_CHANGES_LIMIT = 10_000;

const KINDS: Record<number, ChangeEntry["kind"]> = { [Kind.File]: "file", [Kind.Directory]: "directory", [Kind.Symlink]: "symlink" };

/**
 * The changes after `cursor`, at most `limit` of them (spec 01 §4 item 8).
 * Lists every node stamped after the cursor (its current state) and every
 * tombstone recorded after it. Paths at or under a read-only mount root are
 * left out (the mount's content is not a change of the Workspace); the
 * cursor still moves past them. Synchronous: no mutation can land between
 * the reads of one page.
 *
 * @throws WorkspaceFsError `EINVAL` for a malformed cursor or limit, a cursor
 *   ahead of the store revision (another store's cursor), or one behind the
 *   pruned tombstones ({@link pruneTombstones}: its deletions are gone, start
 *   again from `{ rev: 0, path: null }` into an empty directory; revision 0 is
 *   never refused).
 */
export function changesSince(nodes: Nodes, guard: MountGuard, pruned: number, cursor: ChangeCursor, options?: ChangesOptions): ChangePage {
  const { rev: from, path } = checkCursor(cursor);
  const limit = checkLimit(options);
  const head = nodes.revision();
  if (from > head) {
    throw new WorkspaceFsError("EINVAL", "changesSince", undefined, `cursor revision ${from} is ahead of the store revision ${head} (a cursor of another store?)`);
  }
  // Revision 0 is a consumer with nothing yet: it needs no deletion, pruned or not.
  if (from > 0 && from < pruned) {
    throw new WorkspaceFsError(
      "EINVAL",
      "changesSince",
      undefined,
      `cursor revision ${from} is older than the pruned tombstones (up to revision ${pruned}); start again from { rev: 0, path: null }`,
    );
  }
  const roots = guard.readOnlyRoots;
  const entries: ChangeEntry[] = [];
  let rev = from;
  let key = path === null ? null : pathKey(path);
  for (;;) {
    const want = limit - entries.length;
    const rows = nodes.changes(rev, key, want);
    for (const row of rows) {
      rev = row.rev;
      key = row.key;
      const entry = toEntry(row);
      if (roots.length > 0 && roots.some((root) => isUnder(entry.path, root))) continue;
      entries.push(entry);
    }
    if (rows.length < want) return { entries, cursor: { rev: head, path: null }, done: true };
    if (entries.length >= limit) return { entries, cursor: { rev, path: keyToPath(key!) }, done: false };
  }
}

function toEntry(row: ChangeRow): ChangeEntry {
  const path = keyToPath(row.key);
  if (row.kind === 0) return { path, kind: "deleted", rev: row.rev, subtree: row.subtree === 1 };
  const kind = KINDS[row.kind];
  if (kind === "directory") return { path, kind, rev: row.rev, mode: row.mode, mtime: row.mtime };
  if (kind === "symlink") return { path, kind, rev: row.rev, mode: row.mode, mtime: row.mtime, size: row.size, target: row.target ?? "" };
  return { path, kind, rev: row.rev, mode: row.mode, mtime: row.mtime, size: row.size };
}

function checkCursor(cursor: unknown): ChangeCursor {
  if (typeof cursor !== "object" || cursor === null) {
    throw new WorkspaceFsError("EINVAL", "changesSince", undefined, "cursor must be an object { rev, path }");
  }
  const { rev, path } = cursor as { rev?: unknown; path?: unknown };
  if (typeof rev !== "number" || !Number.isSafeInteger(rev) || rev < 0) {
    throw new WorkspaceFsError("EINVAL", "changesSince", undefined, `cursor.rev must be a non-negative integer, got ${valueCut(rev)}`);
  }
  if (path === null || path === undefined) return { rev, path: null };
  if (typeof path !== "string" || !path.startsWith("/") || canonicalPath(path, "changesSince") !== path) {
    throw new WorkspaceFsError("EINVAL", "changesSince", undefined, `cursor.path must be null or a canonical absolute path, got ${valueCut(path)}`);
  }
  return { rev, path };
}

function checkLimit(options: ChangesOptions | undefined): number {
  if (options === undefined) return DEFAULT_CHANGES_LIMIT;
  if (typeof options !== "object" || options === null) throw new WorkspaceFsError("EINVAL", "changesSince", undefined, "options must be an object");
  const limit = options.limit;
  if (limit === undefined) return DEFAULT_CHANGES_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_CHANGES_LIMIT) {
    throw new WorkspaceFsError("EINVAL", "changesSince", undefined, `limit must be an integer from 1 to ${MAX_CHANGES_LIMIT}, got ${valueCut(limit)}`);
  }
  return limit;
}

/** Checks `upToRev` of {@link pruneTombstones}. */
export function checkPruneRevision(upToRev: unknown, head: number): number {
  if (typeof upToRev !== "number" || !Number.isSafeInteger(upToRev) || upToRev < 0 || upToRev > head) {
    throw new WorkspaceFsError("EINVAL", "pruneTombstones", undefined, `upToRev must be an integer from 0 to the store revision ${head}, got ${valueCut(upToRev)}`);
  }
  return upToRev;
}
