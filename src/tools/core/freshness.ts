/**
 * What one tool set has read, for write's opt-in stale-write guard
 * (`write: { requireFreshRead: true }`, issue 12 §4).
 *
 * A {@link ReadLedger} remembers, per path, a fingerprint of the file as the
 * read tool found it (or as write and edit left it). Under the guard, write
 * overwrites an existing file only when the file still has that
 * fingerprint; the check and the write run under the path lock
 * (`./locks.ts`), so a write or edit of this filesystem's tools cannot slip
 * between them.
 *
 * Why a content hash and not only `mtime`: `mtime` is the Workspace clock
 * in milliseconds, and in workerd the clock does not move while a request
 * runs without I/O, so two writes (and a read between them) can share one
 * `mtime`; `v1` → `v2` keeps the size too. A SHA-256 of the content tells
 * them apart. Files over {@link FRESHNESS_HASH_MAX_BYTES} are compared by
 * size, `mtime` and inode only (hashing would mean reading the whole large
 * file on every read page).
 *
 * Across writers the path lock does not reach (another `getWorkspace()`
 * client, another Workspace on the same storage), write binds its write to
 * what it checked: `ifMatch` with the recorded SHA-256, or — above the hash
 * limit — `ifUnmodified` with the inode, size and `mtime` of the stat it
 * checked fresh; `ESTALE` then answers the stale-file error (issue 20, run
 * 33, fixer WG).
 *
 * @module
 */
import { sha256Hex } from "../../util/bytes.js";
import { normalizePath } from "../../util/path.js";
import type { FileStat, FileStore } from "./store.js";

/** Files up to this many bytes are fingerprinted by SHA-256 of their content; larger ones by size and `mtime`. */
export const FRESHNESS_HASH_MAX_BYTES = 2097152;

/** Paths a ledger remembers by default (least recently recorded forgotten first). */
export const READ_LEDGER_DEFAULT_MAX_PATHS = 1024;

/** What the ledger knows about one version of a file. */
export interface FileFingerprint {
  /** Size in bytes. */
  size: number;
  /** Modification time, ms since the epoch (compared only when a hash is missing). */
  mtime: number;
  /** Hex SHA-256 of the content, for files up to {@link FRESHNESS_HASH_MAX_BYTES}. */
  sha256: string | null;
  /** Inode number (a final link followed), when the store's `stat` gives one; compared only when a hash is missing (run 33, fixer WG). */
  inode?: number;
}

/** Options of a {@link ReadLedger}. */
export interface ReadLedgerOptions {
  /**
   * The key a path is remembered under. Default: the path normalised
   * lexically; {@link ensureLedger} passes the store's `lockPath`, so under a
   * tool set's `root` `notes.md` and `/root/notes.md` are one entry.
   */
  key?: (path: string) => string;
  /**
   * Paths remembered at most; recording one more forgets the least recently
   * recorded (a forgotten path counts as never read). Positive integer.
   * Default `1024`.
   */
  maxPaths?: number;
}

/** The ledger of each store that has one (keyed by the store object). */
const ledgers = new WeakMap<object, ReadLedger>();

/**
 * The ledger of `store`, if a guarded write tool was built over it. read and
 * edit look it up on every call, so tools built over one store share one
 * memory whatever order they were built in.
 */
export function ledgerOf(store: FileStore): ReadLedger | undefined {
  return ledgers.get(store);
}

/** The ledger of `store`, made (holding at most `maxPaths` paths) if it has none. */
export function ensureLedger(store: FileStore, maxPaths?: number): ReadLedger {
  let ledger = ledgers.get(store);
  if (!ledger) {
    const key = (path: string) => (store.lockPath ? store.lockPath(path) : normalizePath(path));
    ledger = new ReadLedger(maxPaths === undefined ? { key } : { maxPaths, key });
    ledgers.set(store, ledger);
  }
  return ledger;
}

/** Outcome of {@link ReadLedger.check}. */
export type FreshnessVerdict = "fresh" | "unread" | "stale";

/**
 * The read memory of one store, and so of one tool set (each
 * `createAITools`, `createPiTools` or `createTanStackTools` call has its
 * own store): made by a write tool built with `requireFreshRead: true`
 * ({@link ensureLedger}), filled by read, write and edit over that store.
 * Keyed by the normalised path; bounded by `maxPaths` (an LRU).
 */
export class ReadLedger {
  readonly #maxPaths: number;
  readonly #key: (path: string) => string;
  readonly #seen = new Map<string, FileFingerprint>();

  /** @throws TypeError when `maxPaths` is not a positive integer. */
  constructor(options: ReadLedgerOptions = {}) {
    const maxPaths = options.maxPaths ?? READ_LEDGER_DEFAULT_MAX_PATHS;
    if (!Number.isSafeInteger(maxPaths) || maxPaths < 1) throw new TypeError("ReadLedger: maxPaths must be a positive integer.");
    this.#maxPaths = maxPaths;
    this.#key = options.key ?? ((path) => normalizePath(path));
  }

  /** Paths remembered now (at most `maxPaths`). */
  get size(): number {
    return this.#seen.size;
  }

  /**
   * The current fingerprint of a regular file, or `null` when it is missing,
   * not a regular file, or cannot be read. Reads the whole file when it is
   * at most {@link FRESHNESS_HASH_MAX_BYTES}.
   */
  async fingerprint(store: FileStore, path: string, stat?: FileStat | null): Promise<FileFingerprint | null> {
    try {
      const st = stat === undefined ? await store.stat(path) : stat;
      if (!st) return null;
      const inode = st.inode === undefined ? {} : { inode: st.inode };
      if (st.size > FRESHNESS_HASH_MAX_BYTES) return { size: st.size, mtime: st.mtime, sha256: null, ...inode };
      const bytes = await store.readAll(path);
      if (!bytes) return null;
      return { size: bytes.byteLength, mtime: st.mtime, sha256: await sha256Hex(bytes), ...inode };
    } catch {
      return null;
    }
  }

  /** Records `fingerprint` as what this tool set last saw at `path` (`null`: nothing is recorded). */
  remember(path: string, fingerprint: FileFingerprint | null): void {
    if (!fingerprint) return;
    const key = this.#key(path);
    this.#seen.delete(key);
    this.#seen.set(key, fingerprint);
    while (this.#seen.size > this.#maxPaths) {
      const oldest = this.#seen.keys().next().value as string;
      this.#seen.delete(oldest);
    }
  }

  /** Records `content`, just written to `path` by write or edit, as seen (its `mtime` from a fresh stat). */
  async rememberWritten(store: FileStore, path: string, content: Uint8Array): Promise<void> {
    const stat = await store.stat(path).catch(() => null);
    if (!stat) return;
    const sha256 = content.byteLength > FRESHNESS_HASH_MAX_BYTES ? null : await sha256Hex(content);
    this.remember(path, { size: content.byteLength, mtime: stat.mtime, sha256, ...(stat.inode === undefined ? {} : { inode: stat.inode }) });
  }

  /** The SHA-256 recorded for `path` (what this tool set last saw), or `null` when none is (unread, or above the hash limit). */
  seenHash(path: string): string | null {
    return this.#seen.get(this.#key(path))?.sha256 ?? null;
  }

  /** Forgets `path`. */
  forget(path: string): void {
    this.#seen.delete(this.#key(path));
  }

  /**
   * Whether the file at `path` (whose current stat is `stat`) is the one
   * last recorded: `"unread"` when nothing is recorded, `"stale"` when it
   * differs (size, content hash, or — above the hash limit — `mtime` or,
   * when both are known, the inode: another file of the same size and
   * `mtime` put at the path is not the one read; run 33, fixer WG).
   * Call it under the path lock, right before writing.
   */
  async check(store: FileStore, path: string, stat: FileStat): Promise<FreshnessVerdict> {
    const seen = this.#seen.get(this.#key(path));
    if (!seen) return "unread";
    if (seen.size !== stat.size) return "stale";
    const now = await this.fingerprint(store, path, stat);
    if (!now) return "stale";
    if (seen.sha256 !== null && now.sha256 !== null) return seen.sha256 === now.sha256 ? "fresh" : "stale";
    if (seen.inode !== undefined && now.inode !== undefined && seen.inode !== now.inode) return "stale"; // run 33, fixer WG
    return seen.mtime === now.mtime && seen.size === now.size ? "fresh" : "stale";
  }
}
