/**
 * `createAssets().share` in real workerd: Durable Object SQLite Workspace,
 * the real `FixedLengthStream`, and a real local R2 binding (`ASSETS_BUCKET`).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAssets, type AssetsClient, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const S3: S3Config = { bucket: "agent-assets", accountId: ACCOUNT };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const ORIGIN = `https://${ACCOUNT}.r2.cloudflarestorage.com`;
const ID = /^[0-9abcdefghjkmnpqrstvwxyz]{26}$/;

afterEach(() => vi.restoreAllMocks());

/** Runs `body` in a fresh Durable Object with a Workspace whose assets publish to ASSETS_BUCKET. */
async function withWorkspace(body: (ws: Workspace, assets: AssetsClient) => Promise<void>, now?: () => number): Promise<void> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  await runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: "session-42",
      assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV, ...(now ? { now } : {}) }),
    });
    try {
      await body(ws, ws.assets!);
    } finally {
      await ws.close();
    }
  });
}

function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65536)));
  return bytes;
}

/** The object key a URL from `share` points at (path minus `/agent-assets/`, decoded). */
function keyOf(url: string): string {
  const { pathname } = new URL(url);
  expect(pathname.startsWith("/agent-assets/")).toBe(true);
  return decodeURIComponent(pathname.slice("/agent-assets/".length));
}

/** Index of the first differing byte, or -1 when equal (expect().toEqual is slow on 5 MiB). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.byteLength, b.byteLength);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.byteLength === b.byteLength ? -1 : n;
}

async function listKeys(prefix: string): Promise<string[]> {
  const listing = await env.ASSETS_BUCKET.list({ prefix });
  return listing.objects.map((o) => o.key).sort();
}

describe("share in workerd with a real R2 binding", () => {
  it("uploads a 5 MiB binary file byte for byte under <prefix>/<id>/<basename> with exact metadata", async () => {
    const prefix = `t-${crypto.randomUUID()}`;
    const data = randomBytes(5 * 1024 * 1024);
    const now = Date.parse("2025-06-01T12:00:00Z");
    await withWorkspace(async (ws, assets) => {
      await ws.fs.mkdir("/out", { recursive: true });
      await ws.fs.writeFile("/out/blob.bin", data);
      const url = await assets.share("/out/blob.bin", { expiresAfter: 3_600_000, prefix: `/${prefix}/` });

      const key = keyOf(url);
      const [p, id, name, ...rest] = key.split("/");
      expect([p, name, rest]).toEqual([prefix, "blob.bin", []]);
      expect(id).toMatch(ID);
      expect(url.startsWith(`${ORIGIN}/agent-assets/${prefix}/${id}/blob.bin?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20250601%2Fauto%2Fs3%2Faws4_request&X-Amz-Date=20250601T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=`)).toBe(true);
      expect(url).toMatch(/&X-Amz-Signature=[0-9a-f]{64}$/);

      const object = await env.ASSETS_BUCKET.get(key);
      expect(object).not.toBeNull();
      expect(object!.size).toBe(data.byteLength);
      expect(firstDifference(new Uint8Array(await object!.arrayBuffer()), data)).toBe(-1);
      expect(object!.httpMetadata).toEqual({ contentType: "application/octet-stream", contentDisposition: 'inline; filename="blob.bin"' });
      expect(object!.customMetadata).toEqual({ sourcePath: "/out/blob.bin", sessionId: "session-42", expiresAt: "2025-06-01T13:00:00.000Z" });
    }, () => now);
  });

  it("reproduces the spec's end-to-end vectors and stores the objects under the exact keys", async () => {
    const now = Date.parse("2024-01-02T03:04:05Z");
    const marker = `v-${crypto.randomUUID()}`;
    await withWorkspace(async (ws, assets) => {
      await ws.fs.mkdir("/workspace/out", { recursive: true });
      await ws.fs.writeFile("/workspace/out/chart.png", marker);
      await ws.fs.writeFile("/workspace/rép ort.PDF", marker + "pdf");
      vi.spyOn(crypto, "getRandomValues").mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
        const view = new Uint8Array((array as ArrayBufferView).buffer, (array as ArrayBufferView).byteOffset, (array as ArrayBufferView).byteLength);
        view.forEach((_, i) => (view[i] = i));
        return array;
      });
      const one = await assets.share("/workspace/out/chart.png", { expiresAfter: 1500, prefix: "/agent-x//y/" });
      const two = await assets.share("/workspace/rép ort.PDF", { expiresAfter: 864000000, disposition: "attachment" });
      vi.restoreAllMocks();
      expect(one).toBe(
        `${ORIGIN}/agent-assets/agent-x/y/000g40r40m30e209185gr38e1w/chart.png?X-Amz-Algorithm=AWS4-HMAC-SHA256` +
          "&X-Amz-Credential=AKIDEXAMPLE%2F20240102%2Fauto%2Fs3%2Faws4_request&X-Amz-Date=20240102T030405Z&X-Amz-Expires=2" +
          "&X-Amz-SignedHeaders=host&X-Amz-Signature=065d878fc5b56ddc876aed837634f6c5500b8d14d8a3eab613f8ed38734285fb",
      );
      expect(two).toBe(
        `${ORIGIN}/agent-assets/000g40r40m30e209185gr38e1w/r%C3%A9p%20ort.PDF?X-Amz-Algorithm=AWS4-HMAC-SHA256` +
          "&X-Amz-Credential=AKIDEXAMPLE%2F20240102%2Fauto%2Fs3%2Faws4_request&X-Amz-Date=20240102T030405Z&X-Amz-Expires=604800" +
          "&X-Amz-SignedHeaders=host&X-Amz-Signature=380f192d98e337fde5c2f879bd911170ee7a19668a0a26389ae21100b7150e5a",
      );
      const chart = await env.ASSETS_BUCKET.get("agent-x/y/000g40r40m30e209185gr38e1w/chart.png");
      expect(await chart!.text()).toBe(marker);
      expect(chart!.httpMetadata).toEqual({ contentType: "image/png", contentDisposition: 'inline; filename="chart.png"' });
      expect(chart!.customMetadata).toEqual({ sourcePath: "/workspace/out/chart.png", sessionId: "session-42", expiresAt: "2024-01-02T03:04:07.000Z" });
      const pdf = await env.ASSETS_BUCKET.get("000g40r40m30e209185gr38e1w/rép ort.PDF");
      expect(await pdf!.text()).toBe(marker + "pdf");
      expect(pdf!.httpMetadata).toEqual({
        contentType: "application/pdf",
        contentDisposition: "attachment; filename=\"rép ort.PDF\"; filename*=UTF-8''r%C3%A9p%20ort.PDF",
      });
      expect(pdf!.customMetadata).toEqual({ sourcePath: "/workspace/rép ort.PDF", sessionId: "session-42", expiresAt: "2024-01-09T03:04:05.000Z" });
    }, () => now);
  });

  it("two shares of one file get two distinct keys and both objects stay", async () => {
    const prefix = `t-${crypto.randomUUID()}`;
    await withWorkspace(async (ws, assets) => {
      await ws.fs.writeFile("/report.md", "# hello\n");
      const a = keyOf(await assets.share("/report.md", { expiresAfter: 60_000, prefix }));
      const b = keyOf(await assets.share("/report.md", { expiresAfter: 60_000, prefix }));
      expect(a).not.toBe(b);
      expect(await listKeys(`${prefix}/`)).toEqual([a, b].sort());
      for (const key of [a, b]) {
        const object = await env.ASSETS_BUCKET.get(key);
        expect(await object!.text()).toBe("# hello\n");
        expect(object!.httpMetadata!.contentType).toBe("text/markdown");
      }
    });
  });

  it("a file in a deep directory: directories never appear in the key", async () => {
    const prefix = `t-${crypto.randomUUID()}`;
    await withWorkspace(async (ws, assets) => {
      await ws.fs.mkdir("/a/b/c/d/e", { recursive: true });
      await ws.fs.writeFile("/a/b/c/d/e/data.json", '{"x":1}');
      const key = keyOf(await assets.share("/a/b/c/d/e/data.json", { expiresAfter: 1000, prefix }));
      expect(key).toMatch(new RegExp(`^${prefix}/[0-9abcdefghjkmnpqrstvwxyz]{26}/data\\.json$`));
      const object = await env.ASSETS_BUCKET.get(key);
      expect(await object!.json()).toEqual({ x: 1 });
      expect(object!.customMetadata!.sourcePath).toBe("/a/b/c/d/e/data.json");
    });
  });

  it("an empty file uploads as a zero-byte object", async () => {
    const prefix = `t-${crypto.randomUUID()}`;
    await withWorkspace(async (ws, assets) => {
      await ws.fs.writeFile("/empty.txt", "");
      const key = keyOf(await assets.share("/empty.txt", { expiresAfter: 1000, prefix }));
      const object = await env.ASSETS_BUCKET.get(key);
      expect(object!.size).toBe(0);
      expect(object!.httpMetadata!.contentType).toBe("text/plain");
    });
  });

  it("odd names still give a URL that reaches the object: a lone surrogate becomes U+FFFD; a trailing /. of a file is ENOTDIR", async () => {
    await withWorkspace(async (ws, assets) => {
      await ws.fs.mkdir("/odd", { recursive: true });
      await ws.fs.writeFile("/odd/lone\uD800.txt", "lone");
      await ws.fs.writeFile("/odd/f.txt", "dot");
      const lone = keyOf(await assets.share("/odd/lone\uD800.txt", { expiresAfter: 1000, prefix: "odd-names" }));
      expect(lone).toMatch(/^odd-names\/[0-9a-hjkmnp-tv-z]{26}\/lone\uFFFD\.txt$/);
      expect(await (await env.ASSETS_BUCKET.get(lone))!.text()).toBe("lone");
      // Fixer S1 (scout21 publish-file-in-directory-form): `f.txt/.` names a directory, so a file there is ENOTDIR.
      await expect(assets.share("/odd/f.txt/.", { expiresAfter: 1000, prefix: "odd-names" })).rejects.toMatchObject({
        code: "ENOTDIR",
        message: "ENOTDIR: not a directory, stat: /odd/f.txt/.",
      });
      const dot = keyOf(await assets.share("/odd/./f.txt", { expiresAfter: 1000, prefix: "odd-names" }));
      expect(dot).toMatch(/^odd-names\/[0-9a-hjkmnp-tv-z]{26}\/f\.txt$/);
      expect(await (await env.ASSETS_BUCKET.get(dot))!.text()).toBe("dot");
      await expect(assets.share("/odd/f.txt", { expiresAfter: 1000, prefix: "a/../b" })).rejects.toThrow(
        'share: prefix "a/../b" has a "." or ".." segment, which a URL cannot address; use other characters',
      );
    });
  });

  it("a missing file rejects with ENOENT and nothing is uploaded", async () => {
    const prefix = `t-${crypto.randomUUID()}`;
    await withWorkspace(async (_ws, assets) => {
      await expect(assets.share("/missing.png", { expiresAfter: 1000, prefix })).rejects.toMatchObject({ code: "ENOENT" });
      await expect(assets.share("/missing.png", { expiresAfter: 0, prefix })).rejects.toThrow(
        "share: expiresAfter must be a positive number of milliseconds",
      );
      expect(await listKeys(`${prefix}/`)).toEqual([]);
    });
  });
});

describe("Workspace assets option (spec 04 §1.7)", () => {
  it("takes a client as is, or calls a factory once with the Workspace", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const plain = new Workspace({ storage: state.storage });
      expect(plain.assets).toBeUndefined();

      const client = createAssets({ ws: plain, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV });
      const direct = new Workspace({ storage: state.storage, assets: client });
      expect(direct.assets).toBe(client);

      const seen: Workspace[] = [];
      let made: AssetsClient | undefined;
      const viaFactory = new Workspace({
        storage: state.storage,
        sessionId: "factory",
        assets: (ws) => {
          seen.push(ws);
          return (made = createAssets({ ws, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }));
        },
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBe(viaFactory);
      expect(viaFactory.assets).toBe(made);

      const prefix = `t-${crypto.randomUUID()}`;
      await viaFactory.fs.writeFile("/f.csv", "a,b\n");
      const key = keyOf(await viaFactory.assets!.share("/f.csv", { expiresAfter: 1000, prefix }));
      const object = await env.ASSETS_BUCKET.get(key);
      expect(await object!.text()).toBe("a,b\n");
      expect(object!.customMetadata!.sessionId).toBe("factory");
    });
  });

  it("takes the Worker's whole env (bindings are ignored) as in docs/assets.md", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({
        storage: state.storage,
        assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: { ...S3, accessKeyId: "AK", secretAccessKey: "SK" }, env }),
      });
      const prefix = `t-${crypto.randomUUID()}`;
      await ws.fs.writeFile("/page.html", "<p>hi</p>");
      const url = await ws.assets!.share("/page.html", { expiresAfter: 1000, prefix });
      expect(url.startsWith(`${ORIGIN}/agent-assets/${prefix}/`)).toBe(true);
      expect(url).toContain("X-Amz-Credential=AK%2F");
      const object = await env.ASSETS_BUCKET.get(keyOf(url));
      expect(object!.httpMetadata!.contentType).toBe("text/html");
      expect(object!.customMetadata!.sessionId).toBe("");
    });
  });

  it("a bad config through the factory makes new Workspace throw", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      expect(
        () => new Workspace({ storage: state.storage, assets: (ws) => createAssets({ ws, bucket: env.ASSETS_BUCKET, s3: S3, env: {} }) }),
      ).toThrow(/^createAssets: missing access key id\. .*R2_ACCESS_KEY_ID/);
      expect(
        () =>
          new Workspace({
            storage: state.storage,
            assets: (ws) => createAssets({ ws, bucket: env.ASSETS_BUCKET, s3: { bucket: "agent-assets" }, env: ENV }),
          }),
      ).toThrow(/^createAssets: missing endpoint\. /);
    });
  });
});

describe("share failure paths with the real FixedLengthStream", () => {
  /** An AssetsWorkspaceLike serving `chunks` chunks of 64 KiB on demand while claiming `size` bytes. */
  function streamingWorkspace(size: number, chunks: number) {
    let cancelled!: (reason: unknown) => void;
    const cancelledWith = new Promise<unknown>((resolve) => (cancelled = resolve));
    let pulls = 0;
    const ws = {
      sessionId: "",
      fs: {
        stat: async () => ({ size }),
        readFile: async () =>
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulls++ >= chunks) controller.close();
              else controller.enqueue(new Uint8Array(65536).fill(pulls));
            },
            cancel: (reason) => cancelled(reason),
          }),
      },
    };
    return { ws, cancelledWith, pulls: () => pulls };
  }

  it("a put that fails mid-stream is rethrown and the file stream is cancelled after a few chunks", async () => {
    const failure = new Error("put failed after one chunk");
    const bucket = {
      async put(_key: string, value: ReadableStream<Uint8Array>) {
        const reader = value.getReader();
        await reader.read();
        throw failure;
      },
    };
    const file = streamingWorkspace(1 << 30, 1 << 14);
    const assets = createAssets({ ws: file.ws, bucket, s3: S3, env: ENV });
    await expect(assets.share("/huge.bin", { expiresAfter: 1000 })).rejects.toBe(failure);
    expect(await file.cancelledWith).toBe(failure);
    expect(file.pulls()).toBeLessThan(64);
  });

  it("a file shorter than its stat size makes the real R2 put fail and nothing is stored", async () => {
    const prefix = `t-${crypto.randomUUID()}`;
    const file = streamingWorkspace(3 * 65536, 2);
    const assets = createAssets({ ws: file.ws, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV });
    await expect(assets.share("/short.bin", { expiresAfter: 1000, prefix })).rejects.toThrow(/FixedLengthStream did not see all expected bytes/);
    expect(await listKeys(`${prefix}/`)).toEqual([]);
  });
});
