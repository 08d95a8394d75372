/**
 * `R2Bucket(bucket, options?)` (spec 01 §6.4): copies an R2 bucket (or a
 * prefix of it) into the mount root.
 *
 * @module
 */
import { positiveInteger } from "./validate.js";
import type { EagerMount, MountWriteAPI, R2BucketBinding, R2BucketOptions } from "./types.js";

const DEFAULT_LIST_LIMIT = 1000;
const DEFAULT_CONCURRENCY = 8;

/**
 * A mount that copies the objects of an R2 bucket into the mount root:
 * object `<prefix>a/b.txt` becomes `<root>/a/b.txt`; a key ending in `/`
 * becomes a directory. Every page is listed first, then bodies are streamed
 * (never buffered whole), `concurrency` at a time. No version: it runs once
 * per store, so later changes to the bucket are not seen.
 *
 * @example
 * ```ts
 * new Workspace({ storage: ctx.storage, mounts: { "/workspace/data": R2Bucket(env.DATA, { prefix: "v1" }) } });
 * ```
 * @throws TypeError for a binding without `list`/`get` or invalid options.
 * The mount fails (rejecting `ready()`) when an object disappears between list and get.
 */
export function R2Bucket(bucket: R2BucketBinding, options: R2BucketOptions = {}): EagerMount {
  if (!bucket || typeof bucket.list !== "function" || typeof bucket.get !== "function") {
    throw new TypeError("R2Bucket(bucket): bucket must be an R2 binding (an object with list() and get())");
  }
  if (options === null || typeof options !== "object") throw new TypeError("R2Bucket(bucket, options): options must be an object");
  if (options.prefix !== undefined && typeof options.prefix !== "string") throw new TypeError("R2Bucket: prefix must be a string");
  const mode = options.mode ?? "read-only";
  if (mode !== "read-only" && mode !== "read-write") throw new TypeError(`R2Bucket: mode must be "read-only" or "read-write", got ${JSON.stringify(mode)}`);
  const listLimit = positiveInteger(options.listLimit, "R2Bucket: listLimit") ?? DEFAULT_LIST_LIMIT;
  if (listLimit > 1000) throw new TypeError(`R2Bucket: listLimit must be at most 1000 (R2's page size), got ${listLimit}`);
  const concurrency = positiveInteger(options.concurrency, "R2Bucket: concurrency") ?? DEFAULT_CONCURRENCY;
  const maxBytes = positiveInteger(options.maxBytes, "R2Bucket: maxBytes");
  const maxEntries = positiveInteger(options.maxEntries, "R2Bucket: maxEntries");
  const prefix = options.prefix ? (options.prefix.endsWith("/") ? options.prefix : `${options.prefix}/`) : "";
  return {
    kind: "r2",
    strategy: "eager",
    mode,
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(maxEntries !== undefined ? { maxEntries } : {}),
    async materialize(api: MountWriteAPI): Promise<void> {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ ...(prefix ? { prefix } : {}), ...(cursor ? { cursor } : {}), limit: listLimit });
        for (const object of page.objects) {
          if (object.key.startsWith(prefix) && object.key !== prefix) keys.push(object.key);
        }
        if (page.truncated && !page.cursor) throw new Error(`mount ${api.root}: R2 list() was truncated without a cursor`);
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      const base = api.root === "/" ? "" : api.root;
      await pool(keys, concurrency, async (key) => {
        const relative = key.slice(prefix.length);
        if (relative.endsWith("/")) {
          await api.mkdir(`${base}/${relative.slice(0, -1)}`);
          return;
        }
        const object = await bucket.get(key);
        if (!object) throw new Error(`mount ${api.root}: R2 object "${key}" was deleted between list and get; call ready() again`);
        await api.writeFile(`${base}/${relative}`, object.body);
      });
    },
  };
}

/** Runs `task` over `items` with at most `limit` in flight; rejects with the first failure once all started tasks settle. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
