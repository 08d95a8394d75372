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
 * (never buffered whole), `concurrency` at a time. With `maxEntries`, listing
 * stops (and the mount fails `mount <root>: maxEntries=<n> exceeded`) as soon
 * as the keys listed so far make more entries than that. No version: it runs once
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
  // Like a path: empty segments dropped ("/datasets//v3/" → "datasets/v3/"), then a trailing "/".
  const trimmed = (options.prefix ?? "").split("/").filter((segment) => segment !== "").join("/");
  const prefix = trimmed === "" ? "" : `${trimmed}/`;
  return {
    kind: "r2",
    strategy: "eager",
    mode,
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(maxEntries !== undefined ? { maxEntries } : {}),
    async materialize(api: MountWriteAPI): Promise<void> {
      const plan = new Layout();
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ ...(prefix ? { prefix } : {}), ...(cursor ? { cursor } : {}), limit: listLimit });
        for (const object of page.objects) {
          if (object.key.startsWith(prefix) && object.key !== prefix) plan.add(object.key.slice(prefix.length));
        }
        // The count only grows as keys are added, so once past maxEntries the writes would fail too:
        // stop listing here rather than list (and hold) the rest of the bucket.
        if (maxEntries !== undefined && plan.entries > maxEntries) throw new Error(`mount ${api.root}: maxEntries=${maxEntries} exceeded`);
        if (page.truncated && !page.cursor) throw new Error(`mount ${api.root}: R2 list() was truncated without a cursor`);
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      const files = [...plan.files];
      const markers = plan.markers;
      const base = api.root === "/" ? "" : api.root;
      for (const dir of markers) await api.mkdir(`${base}/${dir}`);
      await pool(files, concurrency, async ([path, relative]) => {
        const key = prefix + relative;
        const object = await bucket.get(key);
        if (!object) throw new Error(`mount ${api.root}: R2 object "${key}" was deleted between list and get; call ready() again`);
        await api.writeFile(`${base}/${path}`, object.body);
      });
    },
  };
}

/**
 * Maps keys (prefix stripped) to paths, one key at a time. Object stores
 * allow what a filesystem cannot, so, as S3 file-system mounts commonly do:
 * - a key with an empty, `.` or `..` segment (`a//b`, `./a`, `a/../b`), or
 *   with a NUL character, names no path and is skipped;
 * - an object whose path is also a directory (`a` beside `a/b`, or beside a
 *   folder marker `a/`) is shadowed by the directory and skipped.
 * Folder markers (`dir/`) become directories. `files` holds path →
 * key-relative pairs in key order, `markers` the marker directories.
 *
 * `entries` (markers + files: the `mkdir`/`writeFile` calls the mount will
 * make) never decreases as keys are added, whatever their order: a new key
 * adds at most one entry and shadows at most one file (its deepest file
 * ancestor — a shallower one was already shadowed by that one), and a file
 * that arrives shadowed adds nothing. So it can be checked against
 * `maxEntries` while listing.
 */
class Layout {
  readonly files = new Map<string, string>();
  readonly markers: string[] = [];
  private readonly dirs = new Set<string>();

  get entries(): number {
    return this.markers.length + this.files.size;
  }

  add(relative: string): void {
    const marker = relative.endsWith("/");
    const segments = (marker ? relative.slice(0, -1) : relative).split("/");
    if (relative.includes("\0") || segments.some((segment) => segment === "" || segment === "." || segment === "..")) return;
    const path = segments.join("/");
    for (let i = 1; i < segments.length; i++) this.directory(segments.slice(0, i).join("/"));
    if (marker) {
      this.directory(path);
      this.markers.push(path);
    } else if (!this.dirs.has(path)) {
      this.files.set(path, relative);
    }
  }

  private directory(path: string): void {
    if (this.dirs.has(path)) return;
    this.dirs.add(path);
    this.files.delete(path);
  }
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
