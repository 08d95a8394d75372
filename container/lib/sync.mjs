// @ts-check
import fs from "node:fs/promises";
import { constants } from "node:fs";
import { isUtf8 } from "node:buffer";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { DaemonError, errorData, rethrow } from "./errors.mjs";
import { segments } from "./paths.mjs";

/** Largest `length` of one `read`, and largest `data` of one `write` op (1 MiB). */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** Default and largest `limit` of one `scan` page. */
export const SCAN_DEFAULT_LIMIT = 1000;
export const SCAN_MAX_LIMIT = 10_000;
/**
 * A scan page also ends after this many bytes of paths and targets, or this many visited entries.
 * Skipped entries (special files, names that are not UTF-8) count toward both, as returned entries
 * do, and an entry the ignore globs match is a visit too (it is listed and matched, though not
 * returned): a page of any tree stays near SCAN_MAX_BYTES, far below the connection's message
 * limit, and a page's work stays near SCAN_MAX_VISITS entries looked at.
 */
const SCAN_MAX_BYTES = 512 * 1024;
const SCAN_MAX_VISITS = 50_000;
/** Largest number of ops in one `apply`. */
export const APPLY_MAX_OPS = 10_000;

// ignoreBOM: a name or link target starting with U+FEFF keeps it (the default drops it, so "\uFEFFa" and "a" collided).
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * One entry of the tree under the mount point. `path` is mount-relative POSIX (no leading `/`);
 * `mode` is the permission bits (`st_mode & 0o7777`); `size` is bytes for a file, the target's
 * length for a symlink, 0 for a directory; `mtimeMs` is the modification time and `ctimeMs` the
 * status-change time (which `utimes` cannot set back), both in ms since the epoch.
 * @typedef {{ path: string, kind: "file" | "directory" | "symlink", mode: number, size: number, mtimeMs: number, ctimeMs: number, target?: string }} ScanEntry
 */

/**
 * An entry a scan passed over: a special file (`"special"`: fifo, socket, device), a name that
 * is not valid UTF-8 (`"encoding"`, `path` decoded lossily), a link with a valid name whose target is not
 * valid UTF-8 (`"target"`, with its `stat`, the target decoded lossily: issue 20, run 40, fixer f40ct), or an entry
 * whose host path is longer than the kernel's PATH_MAX (`"toolong"`: lstat fails ENAMETOOLONG; nothing under it is
 * looked at, and a client must not take what it held there as deleted).
 * A name that is not UTF-8 also carries what it is (issue 20, run 39, fixer CR), so a client can tell a synced file
 * the command moved there (`mv notes.md $'notes\351.md'`) and keep it rather than apply its deletion: `stat`, its
 * lstat as a {@link ScanEntry} gives it (a link's target decoded lossily); for a directory, `inside`, the files and
 * links under it (lossy paths, depth first, at most {@link SKIP_INSIDE_MAX} lstat calls and
 * {@link SKIP_INSIDE_MAX_BYTES} of paths and targets), and `cut: true` when it holds more than that. Absent when the entry is gone or special.
 * @typedef {{ path: string, reason: "special" | "encoding" | "target" | "toolong", stat?: Omit<ScanEntry, "path">, inside?: ScanEntry[], cut?: true }} ScanSkip
 */

/** The most entries under a skipped directory whose name is not UTF-8 a scan looks at (`ScanSkip.inside`): 256. */
export const SKIP_INSIDE_MAX = 256;

/** The most bytes of paths and link targets one `ScanSkip.inside` lists (past it: `cut`): 64 KiB. */
const SKIP_INSIDE_MAX_BYTES = 64 * 1024;

/** A lossy UTF-8 decoder (U+FFFD for what is not valid) for what a skipped entry holds. */
const lossy = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * What the entry at `hostPath` (a name that is not UTF-8; `relPath` its lossy decoding) is, for `ScanSkip`; at most
 * {@link SKIP_INSIDE_MAX} lstat calls under a directory (depth first). `looked`: how many were made.
 * @param {Buffer} hostPath
 * @param {string} relPath
 * @returns {Promise<{ stat?: Omit<ScanEntry, "path">, inside?: ScanEntry[], cut?: true, looked: number }>}
 */
async function skippedEntry(hostPath, relPath) {
  /** @param {Buffer} host @returns {Promise<Omit<ScanEntry, "path"> | undefined>} */
  const describe = async (host) => {
    const st = await fs.lstat(host).catch(() => null);
    if (!st) return undefined;
    const base = { mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    if (st.isDirectory()) return { kind: "directory", size: 0, ...base };
    if (st.isFile()) return { kind: "file", size: st.size, ...base };
    if (!st.isSymbolicLink()) return undefined;
    const target = await fs.readlink(host, { encoding: "buffer" }).catch(() => null);
    return target === null ? undefined : { kind: "symlink", size: st.size, ...base, target: lossy.decode(target) };
  };
  const stat = await describe(hostPath);
  let looked = 1;
  if (stat?.kind !== "directory") return stat ? { stat, looked } : { looked };
  /** @type {ScanEntry[]} */
  const inside = [];
  /** @type {[Buffer, string][]} */
  const dirs = [[hostPath, relPath]];
  let bytes = 0;
  for (let next = dirs.pop(); next !== undefined; next = dirs.pop()) {
    const [dir, rel] = next;
    /** @type {Buffer[]} */
    const names = await fs.readdir(dir, { encoding: "buffer" }).catch(() => []);
    for (const name of names) {
      if (looked >= SKIP_INSIDE_MAX) return { stat, inside, cut: true, looked };
      looked++;
      const host = Buffer.concat([dir, Buffer.from("/"), name]);
      const path = `${rel}/${lossy.decode(name)}`;
      const e = await describe(host);
      if (e?.kind === "directory") dirs.push([host, path]);
      else if (e) {
        bytes += Buffer.byteLength(path) + (e.target ? Buffer.byteLength(e.target) : 0);
        if (bytes > SKIP_INSIDE_MAX_BYTES) return { stat, inside, cut: true, looked };
        inside.push({ path, ...e });
      }
    }
  }
  return { stat, inside, looked };
}

/**
 * The separator, in a scan cursor, between the lossy decoding of a last name that is not valid
 * UTF-8 and that name's raw bytes in lowercase hex: `dir/k\uFFFD` + `"\0"` + `"6bff"`. Names decoding
 * alike (`k\xff`, `k\xfe` and the valid `k\uFFFD`) are told apart by it, and as no name holds NUL
 * the cursor still sorts after every entry before it and before every entry after it (by UTF-16
 * code units, segment by segment).
 */
const CURSOR_RAW = "\0";

/**
 * @typedef {object} ScanPage
 * @property {ScanEntry[]} entries in walk order: depth-first, names sorted by UTF-16 code units (names
 *   that decode alike: the valid one first, then those not valid UTF-8 by their bytes), a directory before its children
 * @property {ScanSkip[]} skipped
 * @property {string | null} cursor pass to the next `scan` call (opaque: the last visited path, plus CURSOR_RAW and the
 *   name's raw bytes in hex when its last name is not UTF-8); null when `done`
 * @property {boolean} done the walk reached the end
 */

/**
 * Order of names within a directory in the walk (UTF-16 code units).
 * @param {string} a
 * @param {string} b
 */
const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Order of a directory's entries in the walk: by decoded name (`byName`); of names decoding alike
 * (lossily), the valid one first, then the others by their raw bytes — the order of their cursors.
 * @param {{ name: string, raw: Buffer, valid: boolean }} a
 * @param {{ name: string, raw: Buffer, valid: boolean }} b
 */
const inWalk = (a, b) => byName(a.name, b.name) || (a.valid === b.valid ? Buffer.compare(a.raw, b.raw) : a.valid ? -1 : 1);

/**
 * Sorted listings of the directories a scan page ended in — the cursor's path, which the next page
 * walks again — kept for that page (per mount), so a walk reads, decodes and sorts each directory
 * about once however many pages a wide one takes. At most SCAN_LISTING_CACHE_DIRS listings and
 * SCAN_LISTING_CACHE_BYTES (estimated: 2 bytes a name's UTF-16 unit and 32 an entry, plus the raw
 * bytes and 96 for a name that is not UTF-8, whose bytes are kept) are kept: over either bound, the
 * listings of directories the page did not end in go first (least recently used first), then the
 * smallest of those it did (a wide directory, costly to read again, stays however deep the page
 * ended); a listing larger than the bytes bound is read again each page. A listing is used only
 * while its directory's device, inode, mtime and ctime are those lstat saw before it was read, and
 * is kept only when its ctime — set from the kernel's clock by every change of the directory's
 * entries, which `utimes` cannot set, so a future mtime does not matter — was older than the read by
 * SCAN_LISTING_SETTLED_MS (2 s on a filesystem with whole-second times), so a change in the same
 * timestamp tick cannot hide behind it. A walk that ends drops them.
 */
export const SCAN_LISTING_CACHE_BYTES = 128 * 1024 * 1024;
/** See SCAN_LISTING_CACHE_BYTES. */
export const SCAN_LISTING_CACHE_DIRS = 16;
/** See SCAN_LISTING_CACHE_BYTES. */
export const SCAN_LISTING_SETTLED_MS = 20;

/**
 * A directory's names in walk order (`inWalk`). `odd` holds, by index, the raw bytes (as a latin1
 * string: one byte a character, far lighter than a Buffer each) of the names that are not valid
 * UTF-8, `names` their lossy decoding; every other name's bytes are `Buffer.from(name)` (the decoder
 * keeps a leading BOM).
 * @typedef {{ dev: number, ino: number, mtimeMs: number, ctimeMs: number, names: string[], odd: Map<number, string>, bytes: number }} Listing
 */

/** @type {WeakMap<import("./paths.mjs").Mount, Map<string, Listing>>} */
const listings = new WeakMap();

/**
 * The directory at `hostDir` listed (names decoded, sorted by `byName`), from the cache when `st` —
 * its lstat, taken before the listing is read — matches; null when it is gone.
 * @param {Map<string, Listing>} cache
 * @param {string} hostDir
 * @param {import("node:fs").Stats | null} st
 * @param {string[]} relDir
 * @returns {Promise<Listing | null>}
 */
async function listDir(cache, hostDir, st, relDir) {
  const hit = st ? cache.get(hostDir) : undefined;
  if (hit && st && hit.dev === st.dev && hit.ino === st.ino && hit.mtimeMs === st.mtimeMs && hit.ctimeMs === st.ctimeMs) return hit;
  /** @type {import("node:fs").Dirent<Buffer>[]} */
  let dirents;
  try {
    dirents = await fs.readdir(hostDir, { withFileTypes: true, encoding: "buffer" });
  } catch (err) {
    const code = /** @type {{ code?: string }} */ (err).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null; // removed while walking
    rethrow(err, relDir.join("/"));
  }
  // (Checked first: a name that is not UTF-8 costs no exception thrown and caught.)
  const all = dirents.map((d) => (isUtf8(d.name) ? { name: utf8.decode(d.name), raw: d.name, valid: true } : { name: d.name.toString("utf8"), raw: d.name, valid: false }));
  all.sort(inWalk);
  /** @type {Listing} */
  const out = { dev: st?.dev ?? -1, ino: st?.ino ?? -1, mtimeMs: st?.mtimeMs ?? NaN, ctimeMs: st?.ctimeMs ?? NaN, names: new Array(all.length), odd: new Map(), bytes: 0 };
  for (let i = 0; i < all.length; i++) {
    const n = all[i];
    out.names[i] = n.name;
    out.bytes += n.name.length * 2 + 32;
    if (!n.valid) {
      // (Measured: ~60 bytes besides the raw ones for the string and its Map entry; 96 leaves room for the Map's growth.)
      out.odd.set(i, n.raw.toString("latin1"));
      out.bytes += n.raw.length + 96;
    }
  }
  return out;
}

/**
 * First index of `names` (sorted by `byName`) not before `name`.
 * @param {string[]} names
 * @param {string} name
 */
function lowerBound(names, name) {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid] < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A scan cursor read: its segments (`segments`: relative, no NUL, at most 4096 bytes) and, when its
 * last name is not UTF-8, that name's raw bytes (after CURSOR_RAW, 1..255 bytes in lowercase hex).
 * @param {unknown} cursor
 * @returns {{ after: string[] | null, afterRaw: Buffer | null }}
 * @throws DaemonError `EINVAL` for a cursor that is not a string or whose raw part is not such hex.
 */
function cursorOf(cursor) {
  if (cursor == null || cursor === "") return { after: null, afterRaw: null };
  const at = typeof cursor === "string" ? cursor.indexOf(CURSOR_RAW) : -1;
  if (at < 0) return { after: segments(cursor, "cursor"), afterRaw: null };
  const hex = /** @type {string} */ (cursor).slice(at + 1);
  if (!/^(?:[0-9a-f]{2}){1,255}$/.test(hex)) throw new DaemonError("EINVAL", "cursor: a name's raw bytes must be 1..255 bytes in lowercase hex after the NUL");
  const after = segments(/** @type {string} */ (cursor).slice(0, at), "cursor");
  return { after: after.length > 0 ? after : null, afterRaw: after.length > 0 ? Buffer.from(hex, "hex") : null };
}

/**
 * One page of a depth-first walk of the mount point. A `write`'s temporary ({@link WRITE_TEMP}) is never listed, and
 * removed once stale.
 * @param {import("./paths.mjs").Mount} mount
 * @param {(absPath: string) => boolean} ignored
 * @param {{ since?: number, cursor?: string | null, limit?: number }} opts
 * @returns {Promise<ScanPage>}
 */
export async function scan(mount, ignored, opts) {
  const since = opts.since;
  const limit = opts.limit ?? SCAN_DEFAULT_LIMIT;
  const { after, afterRaw } = cursorOf(opts.cursor);
  /** @type {ScanEntry[]} */
  const entries = [];
  /** @type {ScanSkip[]} */
  const skipped = [];
  let bytes = 0;
  let visits = 0;
  /** @type {string | null} */
  let last = null;
  let full = false;
  /**
   * A skipped entry weighs in the page as a returned one does (its path bytes; its visit is counted where it is met).
   * @param {string} relPath
   * @param {ScanSkip["reason"]} reason
   * @param {{ stat?: Omit<ScanEntry, "path">, inside?: ScanEntry[], cut?: true }} [what] a name that is not UTF-8 (run 39, fixer CR)
   *   or a link target that is not (run 40, fixer f40ct): what it is
   */
  const skip = (relPath, reason, what = {}) => {
    /** @type {ScanSkip} */
    const e = { path: relPath, reason };
    if (what.stat) e.stat = what.stat;
    if (what.inside) e.inside = what.inside;
    if (what.cut) e.cut = true;
    skipped.push(e);
    bytes += Buffer.byteLength(relPath) + 32 + (what.stat ? 64 + (what.stat.target ? Buffer.byteLength(what.stat.target) : 0) : 0);
    for (const i of what.inside ?? []) bytes += Buffer.byteLength(i.path) + (i.target ? Buffer.byteLength(i.target) : 0) + 64;
  };
  /** Whether the page is full (and marks it so). */
  const pageFull = () => (full = entries.length >= limit || bytes >= SCAN_MAX_BYTES || visits >= SCAN_MAX_VISITS);

  let cache = listings.get(mount);
  if (!cache) listings.set(mount, (cache = new Map()));
  const listCache = cache;
  /** The listings of the directories the walk is in, outermost first, with when their lstat was taken (ms). @type {{ hostDir: string, listing: Listing, at: number }[]} */
  const open = [];

  /**
   * @param {string} hostDir
   * @param {string[]} relDir
   * @param {string[] | null} resume cursor segments still to seek below this directory
   * @param {import("node:fs").Stats | null} dirStat its lstat, taken at `at` (ms since the epoch) before it is listed
   * @param {number} at
   * @returns {Promise<void>}
   */
  const walk = async (hostDir, relDir, resume, dirStat, at) => {
    const listing = await listDir(listCache, hostDir, dirStat, relDir);
    if (listing === null) return;
    open.push({ hostDir, listing, at });
    const { names, odd } = listing;
    const seek = resume && resume.length > 0 ? resume[0] : null;
    // The raw bytes of the cursor's last name when it is not UTF-8 (then every name decoding as it does
    // up to it in walk order, the valid one first, was handled on an earlier page); null when the
    // cursor's name here is the valid one (this entry, or a directory the cursor is below).
    const seekRaw = resume !== null && resume.length === 1 ? afterRaw : null;
    for (let i = seek === null ? 0 : lowerBound(names, seek); i < names.length; i++) {
      if (full) return;
      const name = names[i];
      const kept = odd.get(i);
      const raw = kept === undefined ? Buffer.from(name) : Buffer.from(kept, "latin1");
      const valid = kept === undefined;
      const rel = [...relDir, name];
      const relPath = rel.join("/");
      // The cursor entry (or an ancestor of it) was returned on an earlier page: only what follows it remains.
      let atCursor = false;
      if (seek !== null && name === seek) {
        if (seekRaw !== null) {
          if (valid || Buffer.compare(raw, seekRaw) <= 0) continue; // before the cursor (a directory with all it holds)
        } else atCursor = valid;
      }
      const below = atCursor && resume !== null ? resume.slice(1) : null;
      const hostPath = Buffer.concat([Buffer.from(hostDir + "/"), raw]);
      if (!valid) {
        // What it is goes with it (its lstat; for a directory, what is under it, bounded): run 39, fixer CR.
        const { looked, ...what } = await skippedEntry(hostPath, relPath);
        visits += looked;
        skip(relPath, "encoding", what);
        last = relPath + CURSOR_RAW + raw.toString("hex");
        if (pageFull()) return;
        continue;
      }
      if (ignored(path.join(mount.abs, ...rel))) {
        // Looked at (listed and matched) like any entry: it counts toward the page's visits.
        if (!atCursor) {
          visits++;
          last = relPath;
          if (pageFull()) return;
        }
        continue;
      }
      const statAt = Date.now();
      let st;
      try {
        st = await fs.lstat(hostPath);
      } catch (err) {
        if (/** @type {{ code?: string }} */ (err).code !== "ENAMETOOLONG") continue; // removed while walking
        // Past PATH_MAX (a command can make such a tree, a directory at a time): reported, never taken as removed.
        // A cursor is at most 4096 bytes: a longer path cannot end a page (it weighs in the next check).
        if (!atCursor) {
          visits++;
          skip(relPath, "toolong");
          if (Buffer.byteLength(relPath) <= 4096) {
            last = relPath;
            if (pageFull()) return;
          }
        }
        continue;
      }
      if (st.isFile() && WRITE_TEMP.test(name)) {
        // A `write`'s temporary (one in flight, or one a daemon that died left): never listed, so a pull never copies
        // it into the Workspace; one whose bytes have not changed for WRITE_TEMP_STALE_MS is removed.
        if (statAt - st.mtimeMs > WRITE_TEMP_STALE_MS) await fs.unlink(hostPath).catch(() => {});
        if (!atCursor) {
          visits++;
          last = relPath;
          if (pageFull()) return;
        }
        continue;
      }
      const isDir = st.isDirectory();
      if (!atCursor) {
        visits++;
        last = relPath;
        if (st.isFile() || isDir || st.isSymbolicLink()) {
          const changed = since === undefined || Math.max(st.mtimeMs, st.ctimeMs) >= since;
          if (changed) {
            /** @type {ScanEntry} */
            const e = { path: relPath, kind: isDir ? "directory" : st.isFile() ? "file" : "symlink", mode: st.mode & 0o7777, size: isDir ? 0 : st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
            if (st.isSymbolicLink()) {
              const target = await fs.readlink(hostPath, { encoding: "buffer" }).catch(() => null);
              if (target === null) {
                if (pageFull()) return;
                continue; // removed (or replaced) while walking
              }
              try {
                e.target = utf8.decode(target);
              } catch {
                // A valid name whose target is not UTF-8: its own reason, with its lstat (the target decoded lossily),
                // as a link never holds anything a command moved (issue 20, run 40, fixer f40ct).
                skip(relPath, "target", { stat: { kind: "symlink", mode: e.mode, size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs, target: lossy.decode(target) } });
                if (pageFull()) return;
                continue;
              }
            }
            entries.push(e);
            bytes += Buffer.byteLength(relPath) + (e.target ? Buffer.byteLength(e.target) : 0) + 64;
          }
        } else {
          skip(relPath, "special");
        }
        if (pageFull()) return; // a directory's children start the next page
      }
      if (isDir) await walk(hostPath.toString(), rel, atCursor ? below : null, st, statAt);
    }
    if (!full) open.pop();
  };
  const rootAt = Date.now();
  const rootStat = await mountStat(mount);
  await walk(mount.real, [], after, rootStat, rootAt);
  if (full) keepListings(listCache, open);
  else listCache.clear();
  return { entries, skipped, cursor: full ? last : null, done: !full };
}

/**
 * The mount point's lstat, null when it is gone (a command removed it: the walk finds nothing).
 * @param {import("./paths.mjs").Mount} mount
 * @returns {Promise<import("node:fs").Stats | null>}
 * @throws DaemonError `ENOTDIR` when something else than a directory is there — a command replaced it by a symlink
 *   (`ln -s /data /workspace`) or a file: nothing is walked through it (a link would lead the walk out of the mount
 *   point). {@link repairMount} (each `exec` and `apply`) makes it an empty directory again.
 */
async function mountStat(mount) {
  let st;
  try {
    st = await fs.lstat(mount.real);
  } catch (err) {
    if (/** @type {{ code?: string }} */ (err).code === "ENOENT") return null;
    throw err;
  }
  if (st.isDirectory()) return st;
  const what = st.isSymbolicLink() ? `a symlink to ${JSON.stringify(await fs.readlink(mount.real).catch(() => "?"))}` : st.isFile() ? "a file" : "a special file";
  throw new DaemonError(
    "ENOTDIR",
    `the mount point ${mount.abs} is no longer a directory but ${what}: a command replaced it, and nothing is synced through it. The next command (or push) makes it an empty directory again (what the link leads to is left alone), and the pull after it finds everything that was under it deleted`,
    { syscall: "scan" },
  );
}

/**
 * Make the mount point a directory again when a command removed it or replaced it by a symlink, a file or a special
 * file (the entry is removed, not what a link leads to; an empty directory, mode 0o755, made in its place). Called by
 * each `exec` (its cwd is under the mount point) and `apply`; a scan meanwhile refuses `ENOTDIR` ({@link mountStat}).
 * @param {import("./paths.mjs").Mount} mount
 * @returns {Promise<boolean>} whether anything was repaired
 */
export async function repairMount(mount) {
  const st = await fs.lstat(mount.real).catch(() => null);
  if (st?.isDirectory()) return false;
  if (st) await fs.unlink(mount.real);
  await fs.mkdir(mount.real, { recursive: true, mode: 0o755 });
  return true;
}

/**
 * Keep the listings of the directories a page ended in (the next page walks them again): those read
 * when their ctime was settled and that fit SCAN_LISTING_CACHE_BYTES. Over SCAN_LISTING_CACHE_DIRS or
 * SCAN_LISTING_CACHE_BYTES, the others go first (least recently used first), then the smallest of these.
 * @param {Map<string, Listing>} cache
 * @param {{ hostDir: string, listing: Listing, at: number }[]} open
 */
function keepListings(cache, open) {
  /** @type {Map<string, Listing>} */
  const ended = new Map();
  for (const { hostDir, listing, at } of open) {
    // By ctime alone: the kernel sets it from its clock on every change of the entries (a future mtime, set by utimes, never settles).
    const coarse = listing.ctimeMs % 1000 === 0;
    const settled = listing.ctimeMs < at - (coarse ? 2000 : SCAN_LISTING_SETTLED_MS);
    cache.delete(hostDir);
    if (settled && listing.bytes <= SCAN_LISTING_CACHE_BYTES) ended.set(hostDir, listing);
  }
  let total = 0;
  for (const l of cache.values()) total += l.bytes;
  for (const l of ended.values()) total += l.bytes;
  const over = () => total > SCAN_LISTING_CACHE_BYTES || cache.size + ended.size > SCAN_LISTING_CACHE_DIRS;
  for (const [key, l] of cache) {
    if (!over()) break;
    cache.delete(key);
    total -= l.bytes;
  }
  const kept = [...ended].sort((a, b) => b[1].bytes - a[1].bytes); // largest first
  while (kept.length > 0 && over()) {
    const [key, l] = /** @type {[string, Listing]} */ (kept.pop());
    ended.delete(key);
    total -= l.bytes;
  }
  for (const [key, l] of ended) cache.set(key, l);
}

/**
 * Read up to `length` bytes of the file at `path` from `offset`. A final symlink is not followed
 * (`ELOOP`); a directory is `EISDIR`; a fifo, socket or device (a file the scan listed that a
 * process replaced since) is `EINVAL` (`not a regular file (fifo, socket or device)`), answered at
 * once: the path is opened `O_NONBLOCK`, so a fifo with no writer never holds the open (nor one of
 * libuv's threads), and its kind is checked on the handle before anything is read.
 * The answer names the file read (its fstat, on the opened handle): `dev` and `ino` tell which file it was, `ctimeMs`
 * (which every write, truncate, chmod or rename of it moves, and `utimes` cannot set back), `size` and `mtimeMs`
 * whether it changed — so a client reading a file in pieces can tell a piece of a file renamed over it, or written
 * meanwhile, from the rest.
 * @param {import("./paths.mjs").Mount} mount
 * @param {{ path: unknown, offset?: unknown, length?: unknown }} args
 * @returns {Promise<{ data: Uint8Array, size: number, mtimeMs: number, ctimeMs: number, dev: number, ino: number, eof: boolean }>}
 */
export async function read(mount, args) {
  const offset = nonNegInt(args.offset ?? 0, "offset");
  const length = nonNegInt(args.length ?? MAX_CHUNK_BYTES, "length");
  if (length > MAX_CHUNK_BYTES) throw new DaemonError("EINVAL", `length must be ≤ ${MAX_CHUNK_BYTES} (1 MiB), got ${length}`);
  const { rel, host } = await mount.resolve(args.path);
  let fh;
  try {
    // O_NONBLOCK: a fifo opens at once (a blocking open waits for a writer); a regular file reads as without it.
    fh = await fs.open(host, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    // A socket cannot be opened (ENXIO), nor a device without its driver (ENODEV, ENXIO): not a regular file either.
    const code = /** @type {{ code?: unknown }} */ (err)?.code;
    if (code === "ENXIO" || code === "ENODEV") throw new DaemonError("EINVAL", `not a regular file (fifo, socket or device): ${JSON.stringify(rel)}`, { syscall: "read", path: rel });
    rethrow(err, rel);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new DaemonError("EISDIR", `is a directory: ${JSON.stringify(rel)}`, { syscall: "read", path: rel });
    if (!st.isFile()) throw new DaemonError("EINVAL", `not a regular file (fifo, socket or device): ${JSON.stringify(rel)}`, { syscall: "read", path: rel });
    const buf = new Uint8Array(Math.max(0, Math.min(length, st.size - offset)));
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const data = got === buf.length ? buf : buf.slice(0, got);
    return { data, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, dev: st.dev, ino: st.ino, eof: offset + got >= st.size };
  } catch (err) {
    rethrow(err, rel);
  } finally {
    await fh.close();
  }
}

/**
 * @param {unknown} v
 * @param {string} field
 * @returns {number}
 */
export function nonNegInt(v, field) {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new DaemonError("EINVAL", `${field} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * @param {unknown} v
 * @param {string} field
 * @returns {number}
 */
function modeArg(v, field = "mode") {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0o7777) throw new DaemonError("EINVAL", `${field} must be an integer in 0..0o7777, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * The ops of `apply`. Paths are client paths (see paths.mjs). Missing parent directories are
 * created (mode 0o755) by `write`, `mkdir`, `symlink` and `rename`.
 * - `write`: write `data` (≤ 1 MiB; Uint8Array or UTF-8 string) at `offset` (default 0). `truncate`
 *   (default: true when `offset` is absent, else false) cuts the file to `offset + data.length`
 *   afterwards. Creates the file with `mode` (default 0o644); an existing file gets `mode` when
 *   given. A whole-file write (offset 0, truncate) goes to a new file beside it, renamed into place
 *   ({@link writeWhole}): one that fails (ENOSPC) leaves the old file whole, a reader never sees a mix,
 *   a running executable is replaced (no ETXTBSY); the old file's mode (unless given) and owner pass
 *   to the new one. A write at an offset (a piece) writes in place. A symlink, fifo, socket or device
 *   at `path` is replaced by the file (checked on the opened handle: nothing else is ever written
 *   into); a file with other hard links is written as a new file beside it and renamed over the link
 *   (its mode and owner kept), so its other names keep their bytes; a directory is `EISDIR`.
 * - `mkdir`: create the directory and its parents; an existing directory is fine (its mode is set);
 *   anything else there is `EEXIST`.
 * - `rm`: remove a file, a symlink (not its target) or a directory with everything in it; missing → `ENOENT`.
 * - `symlink`: make `path` a symlink to `target` (stored verbatim, not resolved); a file or symlink
 *   there is replaced; a directory is `EEXIST`.
 * - `chmod`: set the permission bits of a file or directory; a symlink is `EINVAL` (links have no mode).
 * - `rename`: move `from` to `to` (POSIX rename: replaces a file at `to`, `ENOTEMPTY` onto a non-empty directory).
 *   Missing parents of `to` are made (mode 0o755) unless `parents` is `false`: then, as rename(2) and `mv`, a
 *   missing parent is `ENOENT` (with `path` the parent of `to`) and nothing changes (issue 20, run 39, fixer CR).
 * The mount root itself cannot be removed, renamed or replaced (`EINVAL`).
 * @typedef {{ op: "write", path: string, data: Uint8Array | string, mode?: number, offset?: number, truncate?: boolean }
 *   | { op: "mkdir", path: string, mode?: number }
 *   | { op: "rm", path: string }
 *   | { op: "symlink", path: string, target: string }
 *   | { op: "chmod", path: string, mode: number }
 *   | { op: "rename", from: string, to: string, parents?: boolean }} ApplyOp
 */

/**
 * Result of one op: `{ ok: true, stat? }` or `{ ok: false, error }` with a POSIX code. `stat` is
 * the entry at `path` (`to` for rename) right after the op, as `scan` reports it (without `path`);
 * absent after `rm`, or when the entry changed kind before it could be read.
 * @typedef {{ kind: "file" | "directory" | "symlink", mode: number, size: number, mtimeMs: number, ctimeMs: number, target?: string }} EntryStat
 * @typedef {{ ok: true, stat?: EntryStat } | { ok: false, error: import("./errors.mjs").ErrorData }} ApplyResult
 */

/**
 * Apply ops in order; each op succeeds or fails on its own.
 * @param {import("./paths.mjs").Mount} mount
 * @param {unknown} ops
 * @returns {Promise<{ results: ApplyResult[] }>}
 */
export async function apply(mount, ops) {
  if (!Array.isArray(ops)) throw new DaemonError("EINVAL", "ops must be an array");
  if (ops.length > APPLY_MAX_OPS) throw new DaemonError("EINVAL", `at most ${APPLY_MAX_OPS} ops per apply, got ${ops.length}`);
  await repairMount(mount);
  /** @type {ApplyResult[]} */
  const results = [];
  /** @type {Map<string, string>} */
  const parents = new Map();
  for (const op of ops) {
    // Ops that can replace a directory by something else invalidate the resolved parents.
    const kind = /** @type {{ op?: unknown } | null} */ (op)?.op;
    if (kind !== "write" && kind !== "mkdir" && kind !== "chmod") parents.clear();
    try {
      const host = await applyOne(mount, op, parents);
      const stat = host === undefined ? undefined : await entryStat(host);
      results.push(stat ? { ok: true, stat } : { ok: true });
    } catch (err) {
      const o = /** @type {{ path?: unknown, from?: unknown }} */ (op ?? {});
      const p = typeof o.path === "string" ? o.path : typeof o.from === "string" ? o.from : undefined;
      const d = errorData(err);
      if (d.path === undefined && p !== undefined) d.path = p;
      results.push({ ok: false, error: d });
    }
  }
  return { results };
}

/**
 * The entry at `host` as `scan` describes it, or undefined when it is gone or special.
 * @param {string} host
 * @returns {Promise<EntryStat | undefined>}
 */
async function entryStat(host) {
  const st = await lstatOrNull(host).catch(() => null);
  if (!st) return undefined;
  const base = { mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  if (st.isDirectory()) return { kind: "directory", size: 0, ...base };
  if (st.isFile()) return { kind: "file", size: st.size, ...base };
  if (st.isSymbolicLink()) {
    const target = await fs.readlink(host).catch(() => undefined);
    return target === undefined ? undefined : { kind: "symlink", size: st.size, ...base, target };
  }
  return undefined;
}

/**
 * @param {string} host
 * @returns {Promise<import("node:fs").Stats | null>}
 */
async function lstatOrNull(host) {
  try {
    return await fs.lstat(host);
  } catch (err) {
    if (/** @type {{ code?: string }} */ (err).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * @param {import("./paths.mjs").Mount} mount
 * @param {unknown} raw
 * @param {Map<string, string>} parents resolved parent directories of this batch (see Mount.resolve)
 * @returns {Promise<string | undefined>} the host path of the entry the op left (none after rm)
 */
async function applyOne(mount, raw, parents) {
  if (raw === null || typeof raw !== "object") throw new DaemonError("EINVAL", "an op must be an object");
  const op = /** @type {Record<string, unknown>} */ (raw);
  switch (op.op) {
    case "write": {
      let data = op.data;
      if (typeof data === "string") data = new TextEncoder().encode(data);
      if (!(data instanceof Uint8Array)) throw new DaemonError("EINVAL", "write: data must be a Uint8Array or a string");
      if (data.length > MAX_CHUNK_BYTES) throw new DaemonError("EINVAL", `write: data must be ≤ ${MAX_CHUNK_BYTES} bytes (1 MiB), got ${data.length}`);
      const offset = op.offset === undefined ? 0 : nonNegInt(op.offset, "offset");
      if (op.truncate !== undefined && typeof op.truncate !== "boolean") throw new DaemonError("EINVAL", "write: truncate must be a boolean");
      const truncate = op.truncate ?? op.offset === undefined;
      const mode = op.mode === undefined ? undefined : modeArg(op.mode);
      const { rel, host, isRoot } = await mount.resolve(op.path, "path", parents);
      if (isRoot) throw new DaemonError("EISDIR", "write: the mount point is a directory", { path: rel });
      if (offset === 0 && truncate && (await writeWhole(host, rel, data, mode)) !== null) return host;
      await writeAt(host, rel, data, offset, truncate, mode);
      return host;
    }
    case "mkdir": {
      const mode = op.mode === undefined ? 0o755 : modeArg(op.mode);
      const { rel, host } = await target(mount, op.path);
      try {
        const st = await lstatOrNull(host);
        if (st && !st.isDirectory()) throw new DaemonError("EEXIST", `mkdir: exists and is not a directory: ${JSON.stringify(rel)}`, { syscall: "mkdir", path: rel });
        if (!st) await fs.mkdir(host, { recursive: true, mode });
        await fs.chmod(host, mode);
      } catch (err) {
        rethrow(err, rel);
      }
      return host;
    }
    case "rm": {
      const { rel, host, isRoot } = await target(mount, op.path);
      if (isRoot) throw new DaemonError("EINVAL", "rm: cannot remove the mount point", { path: rel });
      try {
        const st = await fs.lstat(host);
        if (st.isDirectory()) await fs.rm(host, { recursive: true });
        else await fs.unlink(host);
      } catch (err) {
        rethrow(err, rel);
      }
      return;
    }
    case "symlink": {
      if (typeof op.target !== "string" || op.target === "" || op.target.includes("\0")) throw new DaemonError("EINVAL", "symlink: target must be a non-empty string without NUL");
      const { rel, host, isRoot } = await target(mount, op.path);
      if (isRoot) throw new DaemonError("EINVAL", "symlink: cannot replace the mount point", { path: rel });
      try {
        const st = await lstatOrNull(host);
        if (st?.isDirectory()) throw new DaemonError("EEXIST", `symlink: a directory is in the way: ${JSON.stringify(rel)}`, { syscall: "symlink", path: rel });
        if (st) await fs.unlink(host);
        else await fs.mkdir(path.dirname(host), { recursive: true, mode: 0o755 });
        await fs.symlink(op.target, host);
      } catch (err) {
        rethrow(err, rel);
      }
      return host;
    }
    case "chmod": {
      const mode = modeArg(op.mode);
      const { rel, host } = await target(mount, op.path);
      try {
        const st = await fs.lstat(host);
        if (st.isSymbolicLink()) throw new DaemonError("EINVAL", `chmod: a symlink has no mode: ${JSON.stringify(rel)}`, { syscall: "chmod", path: rel });
        await fs.chmod(host, mode);
      } catch (err) {
        rethrow(err, rel);
      }
      return host;
    }
    case "rename": {
      const from = await target(mount, op.from, "from");
      const to = await target(mount, op.to, "to");
      if (from.isRoot || to.isRoot) throw new DaemonError("EINVAL", "rename: cannot move the mount point or onto it", { path: from.rel });
      if (op.parents !== undefined && typeof op.parents !== "boolean") throw new DaemonError("EINVAL", "rename: parents must be a boolean");
      try {
        await fs.lstat(from.host);
        if (op.parents === false) {
          // As rename(2): a missing parent of `to` is ENOENT, not made (issue 20, run 39, fixer CR).
          const parent = await lstatOrNull(path.dirname(to.host));
          if (!parent?.isDirectory()) {
            const at = path.posix.dirname(to.rel);
            throw new DaemonError(parent ? "ENOTDIR" : "ENOENT", `rename: the parent of the target is ${parent ? "not a directory" : "missing"}: ${JSON.stringify(at)}`, { syscall: "rename", path: at });
          }
        } else await fs.mkdir(path.dirname(to.host), { recursive: true, mode: 0o755 });
        await fs.rename(from.host, to.host);
      } catch (err) {
        rethrow(err, from.rel);
      }
      return to.host;
    }
    default:
      throw new DaemonError("EINVAL", `unknown op ${JSON.stringify(op.op)} (write, mkdir, rm, symlink, chmod, rename)`);
  }
}

/**
 * A `write` at `offset` (a piece of a file, or one that keeps what follows): written in place — into the file at
 * `host`, or, for a file with other hard links, into a copy of it renamed over the link.
 * @param {string} host
 * @param {string} rel
 * @param {Uint8Array} data
 * @param {number} offset
 * @param {boolean} truncate
 * @param {number | undefined} mode
 */
async function writeAt(host, rel, data, offset, truncate, mode) {
  // Optimistic: open first, repair and retry on the errors that say why it failed (fewest syscalls
  // for the common case — a file, or a new file in an existing directory).
  // O_NOFOLLOW: a final symlink is ELOOP (replaced by the file); O_NONBLOCK: a fifo or socket is
  // ENXIO instead of blocking (replaced too); a directory is EISDIR. No O_TRUNC: what was opened is
  // checked on the handle before anything in it changes (the file is cut after the write instead).
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
  /** @type {string | null} */
  let temp = null;
  try {
    let fh = await openForWrite(host, flags, mode);
    let st = await fh.stat();
    if (!st.isFile()) {
      // A fifo a process holds open for reading opens at once, and so does a device: neither is ever
      // written into — the entry is replaced by the file, as a fifo nobody reads is.
      await fh.close();
      await fs.unlink(host);
      fh = await openForWrite(host, flags, mode);
      st = await fh.stat();
      if (!st.isFile()) {
        await fh.close();
        throw new DaemonError("EINVAL", `write: not a regular file (fifo, socket or device): ${JSON.stringify(rel)}`, { syscall: "open", path: rel });
      }
    }
    if (st.nlink > 1) {
      // A hard link (perhaps to a file outside the mount point): the other names keep their bytes. The
      // file is written as a new one beside it (its bytes copied first unless the write replaces them
      // all) and renamed over the link.
      const name = path.join(path.dirname(host), `${WRITE_TEMP_PREFIX}${randomBytes(8).toString("hex")}`);
      const link = fh;
      try {
        fh = await fs.open(name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      } finally {
        await link.close();
      }
      temp = name;
      try {
        await fh.chown(st.uid, st.gid).catch(() => {}); // kept where the daemon may (as root, or its own file)
        await fh.chmod(mode ?? st.mode & 0o7777);
        if (!(truncate && offset === 0)) await copyInto(host, st, fh, rel);
      } catch (err) {
        await fh.close();
        throw err;
      }
    }
    try {
      let done = 0;
      while (done < data.length) {
        const { bytesWritten } = await fh.write(data, done, data.length - done, offset + done);
        done += bytesWritten;
      }
      // (A file no longer than what was written ends where the write did.)
      if (truncate && (temp !== null || st.size > offset + data.length)) await fh.truncate(offset + data.length);
      if (mode !== undefined && temp === null) await fh.chmod(mode);
    } finally {
      await fh.close();
    }
    if (temp !== null) {
      await fs.rename(temp, host);
      temp = null;
    }
  } catch (err) {
    if (temp !== null) await fs.unlink(temp).catch(() => {});
    rethrow(err, rel);
  }
}

/**
 * The name (in the same directory) a `write` writes a file under before renaming it into place — a whole-file write
 * ({@link writeWhole}), or one onto a hard link ({@link writeAt}): this prefix and 16 hex digits, 31 bytes whatever
 * the file's own name.
 */
const WRITE_TEMP_PREFIX = ".ws-sync-write-";
/**
 * A `write`'s temporary name exactly (WRITE_TEMP_PREFIX and 16 lowercase hex digits). A regular file so named is the
 * daemon's (or the local host's PUT's): `scan` never lists it, and removes one whose mtime is older than
 * WRITE_TEMP_STALE_MS (a write in flight moves its mtime with each piece; one left behind by a daemon that died
 * between creating it and the rename is stale). Any other name — `.ws-sync-write-x`, 15 or 17 digits, upper case, a
 * directory or symlink so named — is an ordinary entry.
 */
export const WRITE_TEMP = /^\.ws-sync-write-[0-9a-f]{16}$/;
/** See WRITE_TEMP: 60 s. */
export const WRITE_TEMP_STALE_MS = 60_000;

/**
 * A whole-file `write` (offset 0, truncate): the bytes go to a new file beside `host` (`WRITE_TEMP_PREFIX`), renamed
 * into place once all are written — so a write that fails part way (ENOSPC, EIO, EDQUOT) leaves the old file whole
 * and no new one (the temporary removed), a process reading the old file keeps reading it whole, never new bytes
 * followed by its old tail, and a running executable there is replaced (ETXTBSY is for writing into one). An existing
 * regular file's mode (unless `mode` is given) and owner and group (where the daemon may: as root, or its own file)
 * pass to the new one; its other hard links keep the old bytes. A symlink, fifo, socket or device there is replaced
 * by the file, never followed nor written into; a new file gets `mode`, or 0o644 less the umask. A directory is
 * `EISDIR`. A name the directory cannot hold beside it (ENAMETOOLONG: the temporary name is longer than a short own
 * name, near PATH_MAX) falls back to {@link writeAt}. `data` is the bytes, or a stream of them (the local host's
 * `PUT /containers/<name>/files`, container/local-host.mjs: a body that fails or ends early leaves the old file too).
 * Errors are {@link DaemonError}s naming `rel`.
 * @param {string} host
 * @param {string} rel
 * @param {Uint8Array | AsyncIterable<Uint8Array>} data
 * @param {number | undefined} mode
 * @returns {Promise<number | null>} the bytes written; null when nothing was done, `data` not read (the temporary
 *   name does not fit: the caller writes in place)
 */
export async function writeWhole(host, rel, data, mode) {
  /** @type {string | null} */
  let temp = null;
  let size = 0;
  try {
    const st = await lstatOrNull(host);
    if (st?.isDirectory()) throw new DaemonError("EISDIR", `illegal operation on a directory (${rel})`, { syscall: "open", path: rel });
    const dir = path.dirname(host);
    const name = path.join(dir, `${WRITE_TEMP_PREFIX}${randomBytes(8).toString("hex")}`);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NOCTTY;
    /** @type {import("node:fs/promises").FileHandle} */
    let fh;
    try {
      fh = await fs.open(name, flags, mode ?? 0o644);
    } catch (err) {
      const code = /** @type {{ code?: string }} */ (err).code;
      if (code === "ENAMETOOLONG") return null;
      if (code !== "ENOENT") throw err;
      await fs.mkdir(dir, { recursive: true, mode: 0o755 });
      fh = await fs.open(name, flags, mode ?? 0o644);
    }
    temp = name;
    try {
      if (st?.isFile()) {
        await fh.chown(st.uid, st.gid).catch(() => {}); // kept where the daemon may (as root, or its own file)
        await fh.chmod(mode ?? st.mode & 0o7777); // (after chown, which clears set-user-ID and set-group-ID)
      } else if (mode !== undefined) await fh.chmod(mode); // exactly `mode`, not less the umask
      const chunks = data instanceof Uint8Array ? [data] : data;
      for await (const chunk of chunks) {
        for (let done = 0; done < chunk.length; ) done += (await fh.write(chunk, done, chunk.length - done, size + done)).bytesWritten;
        size += chunk.length;
      }
    } finally {
      await fh.close();
    }
    await fs.rename(temp, host);
    temp = null;
    return size;
  } catch (err) {
    if (temp !== null) await fs.unlink(temp).catch(() => {});
    rethrow(err, rel);
  }
}

/**
 * Open `host` for `write`, repairing once what the open's error names: a missing parent directory
 * (created, 0o755), a symlink (ELOOP) or a fifo nobody reads or a socket (ENXIO), unlinked.
 * @param {string} host
 * @param {number} flags
 * @param {number | undefined} mode
 * @returns {Promise<import("node:fs/promises").FileHandle>}
 */
async function openForWrite(host, flags, mode) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.open(host, flags, mode ?? 0o644);
    } catch (err) {
      const code = /** @type {{ code?: string }} */ (err).code;
      if (attempt > 0) throw err;
      if (code === "ENOENT") await fs.mkdir(path.dirname(host), { recursive: true, mode: 0o755 });
      else if (code === "ELOOP" || code === "ENXIO") await fs.unlink(host);
      else throw err;
    }
  }
}

/**
 * Copy the bytes of the regular file at `host` — the one `st` describes (same device and inode, else
 * `EAGAIN`: it was replaced meanwhile) — into `out` from offset 0, in pieces of MAX_CHUNK_BYTES.
 * @param {string} host
 * @param {import("node:fs").Stats} st
 * @param {import("node:fs/promises").FileHandle} out
 * @param {string} rel
 */
async function copyInto(host, st, out, rel) {
  const fh = await fs.open(host, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const now = await fh.stat();
    if (now.dev !== st.dev || now.ino !== st.ino) throw new DaemonError("EAGAIN", `write: the file was replaced while it was written: ${JSON.stringify(rel)}`, { syscall: "open", path: rel });
    const buf = new Uint8Array(Math.min(MAX_CHUNK_BYTES, Math.max(1, now.size)));
    for (let pos = 0; ; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return;
      for (let done = 0; done < bytesRead; ) done += (await out.write(buf, done, bytesRead - done, pos + done)).bytesWritten;
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
}

/**
 * @param {import("./paths.mjs").Mount} mount
 * @param {unknown} p
 * @param {string} [field]
 */
function target(mount, p, field = "path") {
  return mount.resolve(p, field);
}
