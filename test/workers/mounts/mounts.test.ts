import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { R2Bucket, Workspace, WorkerBundle } from "../../../src/index.js";
import { defineMountCases } from "../../shared/mounts/cases.js";

describe("mounts (workers)", () =>
  defineMountCases({
    suite: "workers",
    async run(body) {
      const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
      await runInDurableObject(stub, async (_instance, state) => body(state.storage));
    },
  }));

/** Deterministic bytes that differ per offset (so a misplaced chunk shows). */
function pattern(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function inDurableObject(body: (storage: DurableObjectStorage) => Promise<void>): Promise<void> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => body(state.storage));
}

describe("R2Bucket mount over a real local R2 bucket", () => {
  it("copies every object under the prefix (paged listing), strips the prefix, streams bodies byte-exact", async () => {
    const bucket = env.MOUNT_BUCKET;
    const big = pattern(3 * 1024 * 1024 + 17, 7);
    await bucket.put("r2a/", new Uint8Array()); // equal to the prefix: skipped
    await bucket.put("r2a/big.bin", big);
    await bucket.put("r2a/docs/readme.md", "# readme\n");
    await bucket.put("r2a/docs/empty-dir/", new Uint8Array()); // a folder marker → a directory
    for (let i = 0; i < 7; i++) await bucket.put(`r2a/many/f${i}.txt`, `file ${i}`);
    await bucket.put("r2ab/not-mine.txt", "outside the prefix");
    await bucket.put("other/x.txt", "outside the prefix");
    const calls: { prefix?: string; cursor?: string; limit?: number }[] = [];
    const recorded = {
      list: (options?: { prefix?: string; cursor?: string; limit?: number }) => {
        calls.push({ ...options });
        return bucket.list(options);
      },
      get: (key: string) => bucket.get(key),
    };
    await inDurableObject(async (storage) => {
      const ws = new Workspace({ storage, mounts: { "/workspace/r2": R2Bucket(recorded, { prefix: "r2a", listLimit: 3, concurrency: 2 }) } });
      await ws.ready();
      expect(calls.length).toBe(4); // 11 keys, 3 per page
      expect(calls.every((call) => call.prefix === "r2a/" && call.limit === 3)).toBe(true);
      expect((await ws.fs.find("/workspace/r2")).map((e) => e.path)).toEqual([
        "/workspace/r2/big.bin",
        "/workspace/r2/docs",
        "/workspace/r2/docs/empty-dir",
        "/workspace/r2/docs/readme.md",
        "/workspace/r2/many",
        ...Array.from({ length: 7 }, (_, i) => `/workspace/r2/many/f${i}.txt`),
      ]);
      expect(await bytesOf(await ws.fs.readFile("/workspace/r2/big.bin"))).toEqual(big);
      expect(await ws.fs.readFile("/workspace/r2/many/f3.txt", "utf8")).toBe("file 3");
      expect((await ws.fs.stat("/workspace/r2/docs/readme.md")).mode).toBe(0o644);
      await expect(ws.fs.writeFile("/workspace/r2/docs/readme.md", "x")).rejects.toMatchObject({ code: "EROFS" });
      await expect(ws.fs.rm("/workspace", { recursive: true })).rejects.toMatchObject({ code: "EROFS" });
      expect(ws.mounts().get("/workspace/r2")).toMatchObject({ kind: "r2", strategy: "eager", mode: "read-only" });
      // No version: later bucket changes are not seen by the next ready().
      await bucket.put("r2a/late.txt", "late");
      const again = new Workspace({ storage, mounts: { "/workspace/r2": R2Bucket(bucket, { prefix: "r2a" }) } });
      await again.ready();
      await expect(again.fs.stat("/workspace/r2/late.txt")).rejects.toMatchObject({ code: "ENOENT" });
    });
  });

  it("the whole bucket without a prefix; a read-write mode allows changes that are never written back", async () => {
    const bucket = env.MOUNT_BUCKET;
    await bucket.put("rw-only/a.txt", "A");
    await inDurableObject(async (storage) => {
      const ws = new Workspace({ storage, mounts: { "/rw": R2Bucket(bucket, { mode: "read-write" }) } });
      await ws.ready();
      expect(await ws.fs.readFile("/rw/rw-only/a.txt", "utf8")).toBe("A");
      await ws.fs.writeFile("/rw/rw-only/a.txt", "changed");
      expect(await (await bucket.get("rw-only/a.txt"))!.text()).toBe("A");
    });
  });

  it("an object deleted between list and get fails the mount, which is cleared and retried by the next ready()", async () => {
    const bucket = env.MOUNT_BUCKET;
    await bucket.put("gone/a.txt", "A");
    await bucket.put("gone/b.txt", "B");
    let vanish = true;
    const racy = {
      list: (options?: { prefix?: string; cursor?: string; limit?: number }) => bucket.list(options),
      get: async (key: string) => (vanish && key === "gone/b.txt" ? null : bucket.get(key)),
    };
    await inDurableObject(async (storage) => {
      const ws = new Workspace({ storage, mounts: { "/g": R2Bucket(racy, { prefix: "gone/" }) } });
      await expect(ws.ready()).rejects.toThrow('mount /g: R2 object "gone/b.txt" was deleted between list and get; call ready() again');
      expect(await ws.fs.readdir("/g")).toEqual([]); // cleared: nothing half-copied stays
      vanish = false;
      await ws.ready();
      expect(await ws.fs.readFile("/g/b.txt", "utf8")).toBe("B");
    });
  });

  it("maps keys a file system cannot hold like S3 mounts do: dot/empty segments skipped, a directory shadows an object of its name", async () => {
    const bucket = env.MOUNT_BUCKET;
    for (const key of ["odd/a", "odd/a/b", "odd/m", "odd/m/", "odd/x//y", "odd/./z", "odd/q/../r", "odd/nul\u0000.txt", "odd/ok.txt"]) await bucket.put(key, key);
    await inDurableObject(async (storage) => {
      // A leading "/" and doubled slashes in the prefix are dropped, like path segments.
      const ws = new Workspace({ storage, mounts: { "/o": R2Bucket(bucket, { prefix: "//odd/" }) } });
      await ws.ready();
      expect((await ws.fs.find("/o")).map((e) => [e.path, e.type])).toEqual([
        ["/o/a", "dir"],
        ["/o/a/b", "file"],
        ["/o/m", "dir"],
        ["/o/ok.txt", "file"],
      ]);
      expect(await ws.fs.readFile("/o/a/b", "utf8")).toBe("odd/a/b");
    });
  });

  it("rejects bad bindings and options when the mount is built", () => {
    expect(() => R2Bucket({} as never)).toThrow("R2Bucket(bucket): bucket must be an R2 binding (an object with list() and get())");
    expect(() => R2Bucket(env.MOUNT_BUCKET, { listLimit: 0 })).toThrow("R2Bucket: listLimit must be a positive integer, got 0");
    expect(() => R2Bucket(env.MOUNT_BUCKET, { listLimit: 5000 })).toThrow(/at most 1000/);
    expect(() => R2Bucket(env.MOUNT_BUCKET, { concurrency: 1.5 })).toThrow("R2Bucket: concurrency must be a positive integer, got 1.5");
    expect(() => R2Bucket(env.MOUNT_BUCKET, { mode: "rw" as never })).toThrow(/mode must be "read-only" or "read-write"/);
  });
});

describe("WorkerBundle in workerd", () => {
  it("a relative directory is looked up under /bundle, with a hint when it is not in the upload", () => {
    expect(() => WorkerBundle("not-uploaded")).toThrow(
      'WorkerBundle("not-uploaded"): /bundle/not-uploaded is not a directory of the Worker upload. Ship the files with the Worker: ' +
        'in the wrangler config set find_additional_modules = true, base_dir = "." (module globs are relative to base_dir, which ' +
        'defaults to the directory of main) and add a rule { type = "Data", globs = ["not-uploaded/**/*"], fallthrough = true } ' +
        "— or pass a file tree object instead.",
    );
  });

  it("a directory source copies the files workerd shows under /bundle (the Worker upload)", async () => {
    const fs = (globalThis as { process: { getBuiltinModule(id: string): unknown } }).process.getBuiltinModule("node:fs") as {
      readdirSync(path: string): string[];
      readFileSync(path: string): Uint8Array;
    };
    const uploaded = fs.readdirSync("/bundle").sort();
    expect(uploaded).toContain("index.mjs");
    await inDurableObject(async (storage) => {
      const ws = new Workspace({ storage, mounts: { "/upload": WorkerBundle("/bundle", { filter: (entry) => entry.path === "index.mjs" }) } });
      await ws.ready();
      expect((await ws.fs.readdir("/upload")).map((e) => e.name)).toEqual(["index.mjs"]);
      const copied = await bytesOf(await ws.fs.readFile("/upload/index.mjs"));
      expect(copied).toEqual(new Uint8Array(fs.readFileSync("/bundle/index.mjs")));
      expect(copied.byteLength).toBeGreaterThan(0);
      await expect(ws.fs.writeFile("/upload/index.mjs", "x")).rejects.toMatchObject({ code: "EROFS" });
    });
  });

  it("a tree with async loaders and bytes is copied byte-exact", async () => {
    const bytes = pattern(600_000, 3);
    await inDurableObject(async (storage) => {
      const ws = new Workspace({ storage, mounts: { "/b": WorkerBundle({ "bin/blob": bytes, "lazy.txt": async () => "lazy" }) } });
      await ws.ready();
      expect(await bytesOf(await ws.fs.readFile("/b/bin/blob"))).toEqual(bytes);
      expect(await ws.fs.readFile("/b/lazy.txt", "utf8")).toBe("lazy");
    });
  });
});
