/**
 * What one git operation gets of its own (issue 20, sixteenth attack run):
 * its pack cache, and an fs that refuses to read a pack file past
 * {@link GIT_MAX_PACK_FILE_BYTES} (and, for `push`, loose objects past its
 * byte bound).
 *
 * isomorphic-git keeps each pack file it reads in its `cache` argument —
 * whole, with the verdict of its checksum. With one cache per client, every
 * pack any operation read stayed in memory for the Workspace's life (six
 * repositories of a 12 MiB pack: 72 MiB held for good), and a pack that
 * failed its checksum once failed every later operation, even once the file
 * was put right. Each operation now has its own pack cache, dropped when it
 * ends; the parsed index (which isomorphic-git checks against the file's
 * stats before each use) stays shared by the client's operations.
 *
 * @module
 */
import type { GitContext } from "./context.js";
import { GIT_MAX_PACK_FILE_BYTES, packFileTooLarge, pushTooLarge } from "./limits.js";

/** isomorphic-git's pack cache key: a `Symbol("PackfileCache")` of its module, found by its description. */
function isPackCache(key: string | symbol): boolean {
  return typeof key === "symbol" && key.description === "PackfileCache";
}

/** Operation cache → the client's cache it was made from. */
const clients = new WeakMap<object, object>();

/**
 * A cache for one operation over the client's `shared` one: isomorphic-git's
 * pack cache (every pack file the operation reads, whole) is the
 * operation's own and goes with it; everything else (the parsed index) is
 * read from and written to `shared`.
 */
export function operationCache(shared: object): object {
  let packs: unknown;
  const cache = new Proxy(shared, {
    get: (target, key) => (isPackCache(key) ? packs : Reflect.get(target, key)),
    set: (target, key, value) => {
      if (!isPackCache(key)) return Reflect.set(target, key, value);
      packs = value;
      return true;
    },
    has: (target, key) => (isPackCache(key) ? packs !== undefined : Reflect.has(target, key)),
    deleteProperty: (target, key) => {
      if (!isPackCache(key)) return Reflect.deleteProperty(target, key);
      packs = undefined;
      return true;
    },
  });
  clients.set(cache, shared);
  return cache;
}

/** The client's cache behind an operation's ({@link operationCache}); `cache` itself otherwise. */
export function clientCacheOf(cache: object): object {
  return clients.get(cache) ?? cache;
}

/** `…/objects/pack/<name>.pack`. */
const PACK_FILE = /\/objects\/pack\/[^/]+\.pack$/;
/** `…/objects/xx/<38 hex>`: a loose object. */
const LOOSE_OBJECT = /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/;

type Promises = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** `fs` with `readFile` replaced by `readFile(promises, path, …rest)`; the other methods as they are. */
function withReadFile(fs: GitContext["fs"], readFile: (promises: Promises, args: unknown[]) => Promise<unknown>): GitContext["fs"] {
  const promises = fs.promises as unknown as Promises;
  const out = new Proxy(promises, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (key === "readFile") return (...args: unknown[]) => readFile(target, args);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...fs, promises: out } as unknown as GitContext["fs"];
}

/** A file's size by `stat`, or `undefined` when it cannot be had (the read then reports what is wrong). */
async function sizeOf(promises: Promises, path: string): Promise<number | undefined> {
  try {
    const size = ((await promises.stat(path)) as { size?: unknown }).size;
    return typeof size === "number" ? size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `fs` whose `readFile` of a pack file (`…/objects/pack/*.pack`) first
 * checks its size: past `limit` (default {@link GIT_MAX_PACK_FILE_BYTES})
 * it rejects with an `Error` whose message is {@link packFileTooLarge}'s,
 * having read nothing (isomorphic-git passes it on; the operation fails
 * `E<OP>FAIL` with it).
 */
export function packFileBoundedFs(fs: GitContext["fs"], limit: number = GIT_MAX_PACK_FILE_BYTES): GitContext["fs"] {
  return withReadFile(fs, async (promises, args) => {
    const path = args[0];
    if (typeof path === "string" && PACK_FILE.test(path)) {
      const size = await sizeOf(promises, path);
      if (size !== undefined && size > limit) throw new PackFileTooLargeError(packFileTooLarge(path, size, limit));
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
 * `fs` for one `push`: each loose object it reads is counted once by its
 * stored size; the read that would take the sum past `limit` rejects with
 * {@link PushTooLargeError} ({@link pushTooLarge}'s message) before reading,
 * and so does every loose-object read after it (isomorphic-git swallows
 * some failures of its object walks). `refused` is that error, once made.
 */
export function pushBoundedFs(fs: GitContext["fs"], limit: number): { fs: GitContext["fs"]; readonly refused: PushTooLargeError | undefined } {
  let refused: PushTooLargeError | undefined;
  let total = 0;
  const counted = new Set<string>();
  const bounded = withReadFile(fs, async (promises, args) => {
    const path = args[0];
    if (typeof path === "string" && LOOSE_OBJECT.test(path)) {
      if (refused) throw refused;
      if (!counted.has(path)) {
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
 * `maxResponseBytes` when that is a larger number (what they download they
 * can read back).
 */
export function packFileLimitOf(op: string, options: object, client: number = GIT_MAX_PACK_FILE_BYTES): number {
  if (op !== "clone" && op !== "fetch" && op !== "pull") return client;
  const value = (options as { maxResponseBytes?: unknown }).maxResponseBytes;
  return typeof value === "number" && value > client ? value : client;
}

/** `ctx` for one operation: its own pack cache ({@link operationCache}) and the pack-file bound ({@link packFileBoundedFs}). */
export function operationContext(ctx: GitContext, packFileLimit: number): GitContext {
  return { ...ctx, cache: operationCache(ctx.cache), fs: packFileBoundedFs(ctx.fs, packFileLimit) };
}
