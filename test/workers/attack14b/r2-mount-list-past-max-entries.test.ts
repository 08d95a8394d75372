/**
 * Issue 20, fourteenth attack run: an `R2Bucket` mount with `maxEntries` still lists the whole bucket
 * (every page, every key held in memory) before the limit is ever checked.
 *
 * Tried: `R2Bucket(bucket, { maxEntries: 10, listLimit: 5 })` over a real local R2 bucket (Miniflare)
 * holding 60 objects under the prefix; the binding is wrapped only to count `list()` calls.
 * Found (low-medium): the run fails with `maxEntries=10 exceeded` as documented (docs/filesystem.md
 * "Limits of one run"), but only after all 12 pages were listed and all 60 keys kept in an array —
 * `maxEntries` is counted in `writeFile`/`mkdir` only. With a bucket of millions of keys the Durable
 * Object lists for minutes and holds every key (hundreds of MB) although the run was capped at 10
 * entries; `maxEntries` does not bound the work or memory of a run.
 * Suggested fix: in `R2Bucket.materialize`, stop listing and fail with `mount <root>: maxEntries=<n>
 * exceeded` as soon as the keys kept exceed `maxEntries` (each key is at least one entry).
 * Fixed: `R2Bucket` lays keys out as they are listed and counts the entries (folder markers + files
 * not shadowed by a directory — a count that never decreases); after the first page that takes it past
 * `maxEntries`, the run fails with the same error, before any other page or any body is read.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { R2Bucket, Workspace } from "../../../src/index.js";

type Counted = { lists: number; gets: number; binding: Parameters<typeof R2Bucket>[0] };

/** The real local bucket, wrapped only to count calls. */
function counted(): Counted {
  const bucket = env.MOUNT_BUCKET;
  const out: Counted = {
    lists: 0,
    gets: 0,
    binding: {
      list: (options?: { prefix?: string; cursor?: string; limit?: number }) => {
        out.lists++;
        return bucket.list(options);
      },
      get: (key: string) => {
        out.gets++;
        return bucket.get(key);
      },
    },
  };
  return out;
}

describe("R2Bucket mount with maxEntries over a bucket with many keys", () => {
  it("stops listing once more keys than maxEntries were seen (3 pages of 5 for maxEntries 10), reads no body, leaves the root empty", async () => {
    const bucket = env.MOUNT_BUCKET;
    for (let i = 0; i < 60; i++) await bucket.put(`a14b-list/f${String(i).padStart(2, "0")}.txt`, `file ${i}`);
    const calls = counted();
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({
        storage: state.storage,
        mounts: { "/workspace/r2": R2Bucket(calls.binding, { prefix: "a14b-list", listLimit: 5, maxEntries: 10 }) },
      });
      await expect(ws.ready()).rejects.toThrow(new Error("mount /workspace/r2: maxEntries=10 exceeded"));
      expect(await ws.fs.readdir("/workspace/r2")).toEqual([]);
    });
    // Before the fix: 12 pages. Page 3 takes the count to 15 > 10.
    expect(calls.lists).toBe(3);
    expect(calls.gets).toBe(0);
  });

  it("exactly maxEntries entries (a marker + 9 files) still mount, and shadowed or skipped keys do not count", async () => {
    const bucket = env.MOUNT_BUCKET;
    // 13 keys, 10 entries: "s/a" and "s/a/b" are shadowed by directories, "s/x//y" names no path.
    const keys = ["s/a", "s/a/b", "s/a/b/c.txt", "s/d/", "s/x//y", ...Array.from({ length: 8 }, (_, i) => `s/f${i}.txt`)].map((k) => `a14b-fit/${k}`);
    expect(keys.length).toBe(13);
    for (const key of keys) await bucket.put(key, key);
    const calls = counted();
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({
        storage: state.storage,
        mounts: {
          "/workspace/fit": R2Bucket(calls.binding, { prefix: "a14b-fit/s", listLimit: 2, maxEntries: 9 }),
          "/workspace/ok": R2Bucket(env.MOUNT_BUCKET, { prefix: "a14b-fit/s", listLimit: 2, maxEntries: 10 }),
        },
      });
      await expect(ws.ready()).rejects.toThrow(new Error("mount /workspace/fit: maxEntries=9 exceeded"));
      expect(await ws.fs.readdir("/workspace/fit")).toEqual([]);
      expect((await ws.fs.readdir("/workspace/ok")).map((e) => e.name).sort()).toEqual(["a", "d", "f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt", "f6.txt", "f7.txt"]);
      expect(await ws.fs.readFile("/workspace/ok/a/b/c.txt", "utf8")).toBe("a14b-fit/s/a/b/c.txt");
      expect(await ws.fs.readdir("/workspace/ok/d")).toEqual([]);
    });
    // The 10th entry is on the 6th page of 2 (keys in order: a, a/b, a/b/c.txt, d/, f0 … f7, x//y).
    expect(calls.lists).toBe(6);
    expect(calls.gets).toBe(0);
  });
});
