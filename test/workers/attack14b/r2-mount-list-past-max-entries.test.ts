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
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { R2Bucket, Workspace } from "../../../src/index.js";

describe("R2Bucket mount with maxEntries over a bucket with many keys", () => {
  it.fails("stops listing once more keys than maxEntries were seen (at most 3 pages of 5 for maxEntries 10)", async () => {
    const bucket = env.MOUNT_BUCKET;
    for (let i = 0; i < 60; i++) await bucket.put(`a14b-list/f${String(i).padStart(2, "0")}.txt`, `file ${i}`);
    let lists = 0;
    const counted = {
      list: (options?: { prefix?: string; cursor?: string; limit?: number }) => {
        lists++;
        return bucket.list(options);
      },
      get: (key: string) => bucket.get(key),
    };
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({
        storage: state.storage,
        mounts: { "/workspace/r2": R2Bucket(counted, { prefix: "a14b-list", listLimit: 5, maxEntries: 10 }) },
      });
      await expect(ws.ready()).rejects.toThrow("mount /workspace/r2: maxEntries=10 exceeded");
    });
    // 12 pages today; 3 pages (15 keys > 10) are enough to know the limit is exceeded.
    expect(lists).toBeLessThanOrEqual(3);
  });
});
