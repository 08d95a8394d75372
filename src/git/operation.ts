/**
 * What one git operation gets of its own (issue 20, sixteenth attack run):
 * its pack cache, and an fs that refuses to read a pack file past
 * {@link GIT_MAX_PACK_FILE_BYTES} (and, for `push`, loose objects past its
 * byte bound).
 *
 * isomorphic-git keeps each pack file it reads in its `cache` argument —
 * whole, with its parsed index and the verdict of its checksum. With one
 * cache per client, every pack any operation read stayed in memory for the
 * Workspace's life (six repositories of a 12 MiB pack: 72 MiB held for
 * good), and a pack that failed its checksum once failed every later
 * operation, even once the file was put right. Each operation now has its
 * own pack cache, dropped when it ends; the client keeps only the packs
 * that passed their checksum, up to {@link GIT_PACK_CACHE_BYTES} in all
 * ({@link PackCache}), each used again only while its file has the inode,
 * size and modification time it had when read.
 *
 * @module
 */
import type { GitContext } from "./context.js";
import {
  GIT_MAX_INDEX_INFLATE_BYTES,
  GIT_MAX_PACK_BYTES,
  GIT_MAX_PACK_FILE_BYTES,
  GIT_PACK_CACHE_BYTES,
  packExpandsTooMuch,
  packFileTooLarge,
  pushTooLarge,
} from "./limits.js";
import { OperationCancelledError } from "./wrap.js";

/** isomorphic-git's pack cache key: a `Symbol("PackfileCache")` of its module, found by its description. */
function isPackCache(key: string | symbol): boolean {
  return typeof key === "symbol" && key.description === "PackfileCache";
}

/** The key under which the bundle's `_pack` (push's pack writer) finds the hook it calls as packing starts: a `Symbol("PushPackStart")` (scripts/gen-git.mjs). */
function isPushPackStart(key: string | symbol): boolean {
  return typeof key === "symbol" && key.description === "PushPackStart";
}

/** The key under which the bundle's GitPackIndex.fromPack looks up its {@link IndexBounds} in an operation's cache: a `Symbol("PackIndexBounds")` (scripts/gen-git.mjs). */
function isIndexBounds(key: string | symbol): boolean {
  return typeof key === "symbol" && key.description === "PackIndexBounds";
}

/**
 * What indexing a downloaded pack in one operation may do (scripts/gen-git.mjs
 * patches isomorphic-git's `GitPackIndex.fromPack` to call it): `charge(bytes)`
 * with the size of each object it inflates and each delta it resolves
 * (`0` between objects) throws — and keeps as `stopped` — an
 * {@link OperationCancelledError} once the operation's signal aborted, or a
 * {@link PackExpandsTooMuchError} once the sum passes `limit` (default
 * {@link GIT_MAX_INDEX_INFLATE_BYTES}).
 */
export interface IndexBounds {
  charge(bytes: number): void;
  readonly stopped: Error | undefined;
}

/** Thrown by {@link IndexBounds.charge} past its limit ({@link packExpandsTooMuch}'s message). */
export class PackExpandsTooMuchError extends Error {
  override name = "PackExpandsTooMuchError";
}

/** {@link IndexBounds} of one operation: its signal, `limit` bytes in all (every pack it indexes counted). */
export function indexBounds(signal: AbortSignal | undefined, limit: number = GIT_MAX_INDEX_INFLATE_BYTES): IndexBounds {
  let total = 0;
  let stopped: Error | undefined;
  return {
    charge(bytes) {
      if (stopped) throw stopped;
      if (signal?.aborted) throw (stopped = new OperationCancelledError(signal.reason));
      total += bytes;
      if (total > limit) throw (stopped = new PackExpandsTooMuchError(packExpandsTooMuch(limit)));
    },
    get stopped() {
      return stopped;
    },
  };
}

/** Operation cache → the client's cache it was made from. */
const clients = new WeakMap<object, object>();
/** Operation cache → its packs ({@link OperationPacks}). */
const operations = new WeakMap<object, OperationPacks>();

/** A pack file's identity in a {@link PackCache}: Workspace inode, size and modification time. */
function packStamp(stat: { ino?: unknown; size?: unknown; mtimeMs?: unknown }): string {
  return `${String(stat.ino)}:${String(stat.size)}:${String(stat.mtimeMs)}`;
}

/**
 * A client's pack files kept between its operations: whole pack bytes by
 * path, each with the stamp ({@link packStamp}) its file had when read and
 * the checksum its index names, least recently used first, at most
 * `limit` bytes in all (default {@link GIT_PACK_CACHE_BYTES}).
 */
export class PackCache {
  readonly #entries = new Map<string, { stamp: string; sha: string; bytes: Uint8Array }>();
  #bytes = 0;
  constructor(readonly limit: number = GIT_PACK_CACHE_BYTES) {}

  /** The kept pack at `path` if its file still has `stamp` and its index names `sha` (it becomes the most recently used); any other entry for `path` goes. */
  take(path: string, stamp: string, sha: string): Uint8Array | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    this.delete(path);
    if (entry.stamp !== stamp || entry.sha !== sha) return undefined;
    this.#entries.set(path, entry);
    this.#bytes += entry.bytes.byteLength;
    return entry.bytes;
  }

  /** Keeps `bytes`, a pack that passed its checksum, dropping the least recently used past the bound (nothing when `bytes` alone passes it). */
  keep(path: string, stamp: string, sha: string, bytes: Uint8Array): void {
    this.delete(path);
    if (bytes.byteLength > this.limit) return;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes + bytes.byteLength <= this.limit) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes.byteLength;
    }
    this.#entries.set(path, { stamp, sha, bytes });
    this.#bytes += bytes.byteLength;
  }

  /** Drops the pack kept for `path`, if any. */
  delete(path: string): void {
    const entry = this.#entries.get(path);
    if (!entry) return;
    this.#entries.delete(path);
    this.#bytes -= entry.bytes.byteLength;
  }

  /** Bytes kept in all. */
  get bytes(): number {
    return this.#bytes;
  }
}

/** What isomorphic-git's pack cache holds per `.idx` path: its parsed index, with the pack and its checksum check once read. */
interface PackIndex {
  packfileSha: string;
  /** One object by id, inflated (`object`), deltas resolved. */
  read?: (args: { oid: string }) => Promise<{ object?: Uint8Array } | undefined>;
  pack?: Promise<Uint8Array | null> | null;
  _checksumVerification?: Promise<void>;
  /** Resolved objects kept by the index (scripts/gen-git.mjs: an LRU bounded by GIT_PACK_DELTA_CACHE_BYTES). */
  offsetCache?: { clear?: () => void };
}

/** One operation's packs: its own isomorphic-git pack cache, the stamps of the packs it read, the client's {@link PackCache}. */
interface OperationPacks {
  readonly map: Map<string, Promise<PackIndex>>;
  /** Pack path → its stamp just before this operation read it. */
  readonly read: Map<string, string>;
  /** `.idx` path → its pack's stamp when this operation read the index (none: no pack, or one past the bound). */
  readonly stamps: Map<string, string | undefined>;
  /** The client's kept packs (none: nothing is taken or kept). */
  readonly kept: PackCache | undefined;
  /** Called with each parsed index as it is stored, before any reader of it resumes ({@link pushBoundedFs}). */
  onIndex?: (index: PackIndex) => void;
  /** Called as push starts writing its pack, before it reads the first object to send ({@link pushBoundedFs}). */
  onPackStart?: () => void;
  /** What indexing a downloaded pack may do ({@link IndexBounds}). */
  readonly bounds: IndexBounds;
  /** Most bytes of packs the operation holds besides those being read ({@link GIT_MAX_PACK_FILE_BYTES}). */
  readonly budget: number;
  /** Indexes whose pack the operation holds, least recently used first, with the pack's size. */
  readonly held: Map<PackIndex, number>;
  /** Indexes being read → reads in progress (their packs are not let go of). */
  readonly busy: Map<PackIndex, number>;
}

/**
 * Notes that `index` holds `bytes` (its pack, just read or used) as the most
 * recently used, then lets go of the least recently used other packs no read
 * is using until the packs held come within the operation's budget: each
 * such index's `pack` goes back to null, with its checksum verdict and the
 * objects it kept (isomorphic-git reads and checks the pack again when it
 * next needs it).
 */
function holdPack(packs: OperationPacks, index: PackIndex, bytes: Uint8Array | null | undefined): void {
  packs.held.delete(index);
  if (!(bytes instanceof Uint8Array)) return;
  packs.held.set(index, bytes.byteLength);
  let total = 0;
  for (const size of packs.held.values()) total += size;
  for (const [other, size] of packs.held) {
    if (total <= packs.budget) break;
    if (other === index || packs.busy.has(other)) continue;
    packs.held.delete(other);
    total -= size;
    other.pack = null;
    other._checksumVerification = undefined;
    other.offsetCache?.clear?.();
  }
}

/**
 * Makes `index` account for its pack in `packs` ({@link holdPack}): each
 * value given to its `pack` (by isomorphic-git's reads, or the client's kept
 * bytes) is held once it resolves, and each `read` marks it in use while it
 * runs and most recently used.
 */
function trackPack(packs: OperationPacks, index: PackIndex): void {
  let pack = index.pack;
  Object.defineProperty(index, "pack", {
    configurable: true,
    enumerable: true,
    get: () => pack,
    set: (value: PackIndex["pack"]) => {
      pack = value;
      if (!value) packs.held.delete(index);
      else
        value.then(
          (bytes) => {
            if (pack === value) holdPack(packs, index, bytes);
          },
          () => {},
        );
    },
  });
  const read = index.read;
  if (typeof read !== "function") return;
  index.read = async (args) => {
    packs.busy.set(index, (packs.busy.get(index) ?? 0) + 1);
    try {
      const current = pack;
      if (current) holdPack(packs, index, await current.catch(() => null));
      return await read.call(index, args);
    } finally {
      const left = (packs.busy.get(index) ?? 1) - 1;
      if (left > 0) packs.busy.set(index, left);
      else packs.busy.delete(index);
    }
  };
}

/** `.idx` path → its `.pack`'s. */
const packOf = (idx: string) => idx.replace(/idx$/, "pack");

/**
 * isomorphic-git's pack cache for one operation: each parsed index it
 * stores is given, when the client kept its pack ({@link PackCache.take}
 * with the stamp the pack had when the index was read, within the
 * operation's bound), the kept bytes and a passed checksum, so the pack is
 * neither read nor checked again. This runs before any reader of the index
 * resumes: its callback is the first one on the index's promise.
 */
class OperationPackMap extends Map<string, Promise<PackIndex>> {
  #packs: OperationPacks | undefined;
  init(packs: OperationPacks): this {
    this.#packs = packs;
    return this;
  }
  override set(filename: string, loading: Promise<PackIndex>): this {
    const packs = this.#packs;
    if (packs && loading instanceof Promise) {
      loading.then(
        (index) => {
          if (index) packs.onIndex?.(index);
          if (index) trackPack(packs, index);
          const stamp = packs.stamps.get(filename);
          if (!index || index.pack || typeof index.packfileSha !== "string" || stamp === undefined || !packs.kept) return;
          const bytes = packs.kept.take(packOf(filename), stamp, index.packfileSha);
          if (!bytes) return;
          index.pack = Promise.resolve(bytes);
          index._checksumVerification = Promise.resolve();
        },
        () => {},
      );
    }
    return super.set(filename, loading);
  }
}

/**
 * A cache for one operation over the client's `shared` one: isomorphic-git's
 * pack cache (the pack files the operation reads, whole, and their parsed
 * indexes) is the operation's own and goes with it, save the packs
 * {@link keepPacks} then hands to the client's `kept`; everything else is
 * read from and written to `shared`. Of the packs it read, the operation
 * holds at most `budget` bytes (default {@link GIT_MAX_PACK_FILE_BYTES}: one
 * pack of the largest an operation reads) besides those being read: past it the least recently used go and are read again
 * when next needed ({@link holdPack}). `bounds` ({@link indexBounds}, no
 * signal and {@link GIT_MAX_INDEX_INFLATE_BYTES} by default) is what
 * indexing a downloaded pack may do.
 */
export function operationCache(shared: object, kept?: PackCache, bounds: IndexBounds = indexBounds(undefined), budget: number = GIT_MAX_PACK_FILE_BYTES): object {
  const own: OperationPacks = {
    kept,
    map: new OperationPackMap(),
    read: new Map(),
    stamps: new Map(),
    bounds,
    budget,
    held: new Map(),
    busy: new Map(),
  };
  (own.map as OperationPackMap).init(own);
  let map: unknown = own.map;
  const cache = new Proxy(shared, {
    get: (target, key) =>
      isPackCache(key) ? map : isIndexBounds(key) ? own.bounds : isPushPackStart(key) ? own.onPackStart : Reflect.get(target, key),
    set: (target, key, value) => {
      if (!isPackCache(key)) return Reflect.set(target, key, value);
      map = value;
      return true;
    },
    has: (target, key) => (isPackCache(key) ? map !== undefined : Reflect.has(target, key)),
    deleteProperty: (target, key) => {
      if (!isPackCache(key)) return Reflect.deleteProperty(target, key);
      map = undefined;
      return true;
    },
  });
  clients.set(cache, shared);
  operations.set(cache, own);
  return cache;
}

/** The client's cache behind an operation's ({@link operationCache}); `cache` itself otherwise. */
export function clientCacheOf(cache: object): object {
  return clients.get(cache) ?? cache;
}

/**
 * At the end of the operation whose cache is `cache`: hands each pack it
 * read and that passed its checksum to the client's {@link PackCache}, with
 * the stamp its file had when read (a pack whose check failed is dropped
 * from it). Never rejects.
 */
export async function keepPacks(cache: object): Promise<void> {
  const packs = operations.get(cache);
  if (!packs?.kept) return;
  operations.delete(cache);
  for (const [filename, loading] of packs.map) {
    const path = packOf(filename);
    const stamp = packs.read.get(path);
    if (stamp === undefined) continue;
    try {
      const index = await loading;
      if (!index?.pack || !index._checksumVerification) continue;
      const bytes = await index.pack;
      await index._checksumVerification;
      if (bytes instanceof Uint8Array) packs.kept.keep(path, stamp, index.packfileSha, bytes);
    } catch {
      packs.kept.delete(path);
    }
  }
}

/** `…/objects/pack/<name>.pack`. */
const PACK_FILE = /\/objects\/pack\/[^/]+\.pack$/;
/** `…/objects/pack/<name>.idx`. */
const PACK_INDEX_FILE = /\/objects\/pack\/[^/]+\.idx$/;
/** `…/objects/xx/<38 hex>`: a loose object. */
const LOOSE_OBJECT = /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/;

type Promises = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** `fs` with `readFile` replaced by `readFile(promises, path, …rest)`; the other methods as they are. */
function withReadFile(fs: GitContext["fs"], readFile: (promises: Promises, args: unknown[]) => Promise<unknown>): GitContext["fs"] {
  const promises = fs.promises as unknown as Promises;
  const get = (key: string | symbol): unknown => {
    const value: unknown = Reflect.get(promises, key);
    if (key === "readFile") return (...args: unknown[]) => readFile(promises, args);
    return typeof value === "function" ? value.bind(promises) : value;
  };
  // The proxy's target is an empty object, not `promises`: an adapter's promises object may hold read-only,
  // non-configurable methods, which a proxy of it must return unchanged (a TypeError otherwise).
  const out = new Proxy({} as Promises, {
    get: (_target, key) => get(key),
    has: (_target, key) => Reflect.has(promises, key),
    ownKeys: () => Reflect.ownKeys(promises),
    getOwnPropertyDescriptor: (_target, key) => {
      const own = Reflect.getOwnPropertyDescriptor(promises, key);
      return own ? { value: get(key), writable: true, enumerable: own.enumerable ?? true, configurable: true } : undefined;
    },
  });
  return { ...fs, promises: out } as unknown as GitContext["fs"];
}

/** A file's stats, or `undefined` when they cannot be had (the read then reports what is wrong). */
async function statOf(promises: Promises, path: string): Promise<{ size?: unknown } | undefined> {
  try {
    return (await promises.stat(path)) as { size?: unknown };
  } catch {
    return undefined;
  }
}

/** A file's size by `stat`, or `undefined` when it cannot be had (the read then reports what is wrong). */
async function sizeOf(promises: Promises, path: string): Promise<number | undefined> {
  const size = (await statOf(promises, path))?.size;
  return typeof size === "number" ? size : undefined;
}

/**
 * `fs` whose `readFile` of a pack file (`…/objects/pack/*.pack`) first
 * checks its size: past `limit` (default {@link GIT_MAX_PACK_FILE_BYTES})
 * it rejects with an `Error` whose message is {@link packFileTooLarge}'s,
 * having read nothing (isomorphic-git passes it on; the operation fails
 * `E<OP>FAIL` with it). With `cache`, an operation's cache
 * ({@link operationCache}), the stamp of each pack read is noted for
 * {@link keepPacks}.
 */
export function packFileBoundedFs(fs: GitContext["fs"], limit: number = GIT_MAX_PACK_FILE_BYTES, cache?: object): GitContext["fs"] {
  const packs = cache && operations.get(cache);
  return withReadFile(fs, async (promises, args) => {
    const path = args[0];
    if (typeof path === "string" && PACK_FILE.test(path)) {
      const stat = await statOf(promises, path);
      const size = stat?.size;
      if (typeof size === "number" && size > limit) throw new PackFileTooLargeError(packFileTooLarge(path, size, limit));
      if (packs) {
        if (stat) packs.read.set(path, packStamp(stat));
        else packs.read.delete(path);
      }
    } else if (packs && typeof path === "string" && PACK_INDEX_FILE.test(path)) {
      // The pack's stamp as the index is read, for OperationPackMap to find the pack the client kept.
      const [bytes, stat] = await Promise.all([promises.readFile!(...args), statOf(promises, packOf(path))]);
      const size = stat?.size;
      packs.stamps.set(path, stat && typeof size === "number" && size <= limit ? packStamp(stat) : undefined);
      return bytes;
    }
    return promises.readFile!(...args);
  });
}

/** Thrown by {@link packFileBoundedFs}'s `readFile`. */
export class PackFileTooLargeError extends Error {
  override name = "PackFileTooLargeError";
}

/** Thrown by {@link pushBoundedFs}'s `readFile`. */
export class PushTooLargeError extends Error {
  override name = "PushTooLargeError";
}

/**
 * `fs` for one `push`: each object push packs (what it sends) is counted
 * once — a loose object by its stored size, and, through `cache`, the push's
 * operation cache ({@link operationCache}), an object read from a pack by its
 * inflated size (what push deflates into its pack). Objects read before
 * packing starts — the commits and trees push walks to choose what to send,
 * among them the merge base's and the remote HEAD's, which it does not send —
 * are not counted. The read that would take the sum past `limit` rejects
 * with {@link PushTooLargeError} ({@link pushTooLarge}'s message) — a loose
 * object before it is read, a packed one as it is — and so does every object
 * read after it (isomorphic-git swallows some failures of its object walks).
 * `refused` is that error, once made. Without an operation cache every
 * object read counts.
 */
export function pushBoundedFs(
  fs: GitContext["fs"],
  limit: number,
  cache?: object,
): { fs: GitContext["fs"]; readonly refused: PushTooLargeError | undefined } {
  let refused: PushTooLargeError | undefined;
  let total = 0;
  const counted = new Set<string>();
  const packs = cache && operations.get(cache);
  // Counting starts with the pack (scripts/gen-git.mjs patches _pack to call onPackStart).
  let packing = !packs;
  if (packs) {
    packs.onPackStart = () => {
      packing = true;
    };
    packs.onIndex = (index) => {
      const read = index.read;
      if (typeof read !== "function") return;
      index.read = async (args) => {
        if (refused) throw refused;
        const found = await read.call(index, args);
        const oid = args?.oid;
        const size = found?.object?.byteLength;
        if (packing && typeof oid === "string" && typeof size === "number" && !counted.has(oid)) {
          if (total + size > limit) throw (refused = new PushTooLargeError(pushTooLarge(limit)));
          total += size;
          counted.add(oid);
        }
        return found;
      };
    };
  }
  const bounded = withReadFile(fs, async (promises, args) => {
    const path = args[0];
    if (typeof path === "string" && LOOSE_OBJECT.test(path)) {
      if (refused) throw refused;
      if (packing && !counted.has(path)) {
        const size = await sizeOf(promises, path);
        if (size !== undefined) {
          if (total + size > limit) throw (refused = new PushTooLargeError(pushTooLarge(limit)));
          total += size;
          counted.add(path);
        }
      }
    }
    return promises.readFile!(...args);
  });
  return {
    fs: bounded,
    get refused() {
      return refused;
    },
  };
}

/**
 * The pack-file bound of operation `op` called with `options`: the client's
 * (`createGitClient({ maxPackFileBytes })`, default
 * {@link GIT_MAX_PACK_FILE_BYTES}), or for `clone`, `fetch` and `pull` their
 * `maxResponseBytes` (given, or its default {@link GIT_MAX_PACK_BYTES}) when
 * that is larger (what they download they can read back).
 */
export function packFileLimitOf(op: string, options: object, client: number = GIT_MAX_PACK_FILE_BYTES): number {
  if (op !== "clone" && op !== "fetch" && op !== "pull") return client;
  // A download's own bound, given or the default: what it fetched, it reads back (a lowered client bound does not refuse it).
  const value = (options as { maxResponseBytes?: unknown }).maxResponseBytes;
  const response = typeof value === "number" ? value : GIT_MAX_PACK_BYTES;
  return response > client ? response : client;
}

/**
 * `ctx` for one operation: its own pack cache ({@link operationCache}) over
 * the client's kept packs `kept`, with indexing bounded by
 * {@link GIT_MAX_INDEX_INFLATE_BYTES} and `ctx.signal`, and the pack-file
 * bound ({@link packFileBoundedFs}). Call {@link keepPacks} with its `cache`
 * when it ends.
 */
export function operationContext(ctx: GitContext, packFileLimit: number, kept?: PackCache): GitContext {
  const cache = operationCache(ctx.cache, kept, indexBounds(ctx.signal));
  return { ...ctx, cache, fs: packFileBoundedFs(ctx.fs, packFileLimit, cache) };
}
