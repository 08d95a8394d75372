import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAssets, type R2PutBucket } from "../../../src/assets/index.js";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const S3 = { bucket: "agent-assets", accountId: ACCOUNT, accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const NOW = Date.parse("2024-01-02T03:04:05Z");
const ID = "000g40r40m30e209185gr38e1w";

interface Put {
  key: string;
  bytes: Uint8Array;
  options: Parameters<R2PutBucket["put"]>[2];
}

/** A bucket that drains each upload stream and records what it got. */
function recordingBucket(fail?: Error): R2PutBucket & { puts: Put[]; calls: number } {
  const bucket = {
    puts: [] as Put[],
    calls: 0,
    async put(key: string, value: ReadableStream<Uint8Array>, options?: Put["options"]) {
      bucket.calls++;
      if (fail) throw fail;
      const bytes = new Uint8Array(await new Response(value).arrayBuffer());
      bucket.puts.push({ key, bytes, options });
      return null;
    },
  };
  return bucket;
}

/** Stub the randomness source so ids are the spec's vector (bytes 00..0f). */
function fixedRandomBytes(): void {
  vi.spyOn(crypto, "getRandomValues").mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    const view = new Uint8Array((array as ArrayBufferView).buffer, (array as ArrayBufferView).byteOffset, (array as ArrayBufferView).byteLength);
    view.forEach((_, i) => (view[i] = i));
    return array;
  });
}

async function workspaceWith(files: Record<string, string | Uint8Array>, sessionId?: string): Promise<Workspace> {
  const ws = new Workspace({ storage: nodeSqliteStorage(), ...(sessionId === undefined ? {} : { sessionId }) });
  for (const [path, data] of Object.entries(files)) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    if (dir !== "") await ws.fs.mkdir(dir, { recursive: true });
    await ws.fs.writeFile(path, data);
  }
  return ws;
}

/**
 * Node has no Workers `FixedLengthStream`; for the signing vectors we install
 * a platform stand-in that enforces the declared length, like workerd does.
 * (The real one is exercised in test/workers/assets.)
 */
class TestFixedLengthStream extends TransformStream<Uint8Array, Uint8Array> {
  constructor(expected: number) {
    let seen = 0;
    super({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > expected) throw new Error("too many bytes");
        controller.enqueue(chunk);
      },
      flush() {
        if (seen !== expected) throw new Error("too few bytes");
      },
    });
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  delete (globalThis as { FixedLengthStream?: unknown }).FixedLengthStream;
});

describe("share: spec 04 §1.6 end-to-end vectors", () => {
  beforeEach(() => {
    (globalThis as { FixedLengthStream?: unknown }).FixedLengthStream = TestFixedLengthStream;
    fixedRandomBytes();
  });

  it("vector 1: prefix, 1500 ms → 2 s, inline png", async () => {
    const ws = await workspaceWith({ "/workspace/out/chart.png": "PNGDATA" }, "sess-1");
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3, now: () => NOW });
    const url = await assets.share("/workspace/out/chart.png", { expiresAfter: 1500, prefix: "/agent-x//y/" });
    expect(url).toBe(
      `https://${ACCOUNT}.r2.cloudflarestorage.com/agent-assets/agent-x/y/${ID}/chart.png` +
        "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20240102%2Fauto%2Fs3%2Faws4_request" +
        "&X-Amz-Date=20240102T030405Z&X-Amz-Expires=2&X-Amz-SignedHeaders=host" +
        "&X-Amz-Signature=065d878fc5b56ddc876aed837634f6c5500b8d14d8a3eab613f8ed38734285fb",
    );
    expect(bucket.puts).toHaveLength(1);
    expect(bucket.puts[0].key).toBe(`agent-x/y/${ID}/chart.png`);
    expect(new TextDecoder().decode(bucket.puts[0].bytes)).toBe("PNGDATA");
    expect(bucket.puts[0].options).toEqual({
      httpMetadata: { contentType: "image/png", contentDisposition: 'inline; filename="chart.png"' },
      customMetadata: { sourcePath: "/workspace/out/chart.png", sessionId: "sess-1", expiresAt: "2024-01-02T03:04:07.000Z" },
    });
  });

  it("vector 2: non-ASCII name, attachment, 10 days capped at 604800 s", async () => {
    const ws = await workspaceWith({ "/workspace/rép ort.PDF": new Uint8Array([37, 80, 68, 70]) });
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3, now: () => NOW });
    const url = await assets.share("/workspace/rép ort.PDF", { expiresAfter: 864000000, disposition: "attachment" });
    expect(url).toBe(
      `https://${ACCOUNT}.r2.cloudflarestorage.com/agent-assets/${ID}/r%C3%A9p%20ort.PDF` +
        "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20240102%2Fauto%2Fs3%2Faws4_request" +
        "&X-Amz-Date=20240102T030405Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host" +
        "&X-Amz-Signature=380f192d98e337fde5c2f879bd911170ee7a19668a0a26389ae21100b7150e5a",
    );
    expect(bucket.puts[0].key).toBe(`${ID}/rép ort.PDF`);
    expect(bucket.puts[0].bytes).toEqual(new Uint8Array([37, 80, 68, 70]));
    expect(bucket.puts[0].options).toEqual({
      httpMetadata: {
        contentType: "application/pdf",
        contentDisposition: "attachment; filename=\"rép ort.PDF\"; filename*=UTF-8''r%C3%A9p%20ort.PDF",
      },
      customMetadata: { sourcePath: "/workspace/rép ort.PDF", sessionId: "", expiresAt: "2024-01-09T03:04:05.000Z" },
    });
  });

  it("rounds expiresAfter up to whole seconds (1 ms → 1 s) and honours contentType/filename overrides", async () => {
    const ws = await workspaceWith({ "/a/data": "x" });
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3, now: () => NOW });
    const url = await assets.share("/a/data", { expiresAfter: 1, contentType: "text/x-custom", filename: 'n"é.bin' });
    expect(url).toContain("&X-Amz-Expires=1&");
    expect(bucket.puts[0].options).toEqual({
      httpMetadata: { contentType: "text/x-custom", contentDisposition: "inline; filename=\"n\\\"é.bin\"; filename*=UTF-8''n%22%C3%A9.bin" },
      customMetadata: { sourcePath: "/a/data", sessionId: "", expiresAt: "2024-01-02T03:04:06.000Z" },
    });
  });

  it("rethrows a failed put and cancels the file stream", async () => {
    const failure = new Error("R2 is down");
    const bucket = recordingBucket(failure);
    let cancelled!: (reason: unknown) => void;
    const cancelledWith = new Promise<unknown>((resolve) => (cancelled = resolve));
    let pulls = 0;
    const size = 1 << 30;
    const ws = {
      sessionId: "",
      fs: {
        stat: async () => ({ size }),
        // An endless-looking 1 GiB file served in 64 KiB chunks on demand.
        readFile: async () =>
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulls++;
              controller.enqueue(new Uint8Array(65536));
            },
            cancel: (reason) => cancelled(reason),
          }),
      },
    };
    const assets = createAssets({ ws, bucket, s3: S3, now: () => NOW });
    await expect(assets.share("/big.bin", { expiresAfter: 1000 })).rejects.toBe(failure);
    expect(bucket.calls).toBe(1);
    expect(await cancelledWith).toBe(failure);
    // Streamed, never buffered whole: only a few chunks were ever pulled.
    expect(pulls).toBeLessThan(16);
  });
});

describe("share: rejections before any upload", () => {
  /** A Workspace-shaped object whose fs records every call (to prove no I/O happened). */
  function spyWorkspace() {
    const calls: string[] = [];
    const ws = {
      sessionId: "s",
      fs: {
        async stat(p: string) {
          calls.push(`stat ${p}`);
          return { size: 0 };
        },
        async readFile(p: string) {
          calls.push(`readFile ${p}`);
          return new ReadableStream<Uint8Array>({ start: (c) => c.close() });
        },
      },
    };
    return { ws, calls };
  }

  it("expiresAfter ≤ 0, NaN, missing, a string or another non-number → exact rejection, no fs or bucket I/O", async () => {
    const { ws, calls } = spyWorkspace();
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3 });
    const message = "share: expiresAfter must be a positive number of milliseconds";
    for (const expiresAfter of [0, -1, -0, Number.NaN, -Infinity, undefined, null, "5000", "abc", {}, true, 10n]) {
      await expect(assets.share("/f.txt", { expiresAfter } as never)).rejects.toMatchObject({ message });
    }
    await expect(assets.share("/f.txt", undefined as never)).rejects.toThrow(message);
    await expect(assets.share("/f.txt", { expiresAfter: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(assets.share("/f.txt", { expiresAfter: "1" } as never)).rejects.toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
    expect(bucket.calls).toBe(0);
  });

  it("bad path, prefix, disposition → rejection, no I/O", async () => {
    const { ws, calls } = spyWorkspace();
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3 });
    await expect(assets.share("", { expiresAfter: 1 })).rejects.toThrow("share: path must be a non-empty string");
    await expect(assets.share("/f", { expiresAfter: 1, prefix: 3 } as never)).rejects.toThrow("share: prefix must be a string");
    await expect(assets.share("/f", { expiresAfter: 1, disposition: "download" } as never)).rejects.toThrow(
      'share: disposition must be "inline" or "attachment"',
    );
    // `<prefix>/<id>/` with a 997-byte prefix takes 1,025 of R2's 1,024 key bytes: no room for a name (995 leaves 1 byte).
    const tooLong = assets.share("/f.txt", { expiresAfter: 1, prefix: "p".repeat(997) });
    await expect(tooLong).rejects.toBeInstanceOf(TypeError);
    await expect(tooLong).rejects.toThrow(
      "share: prefix is too long: the key <prefix>/<id>/<name> must fit R2's 1024 bytes; the prefix leaves 0 bytes for the name; use a shorter prefix",
    );
    expect(calls).toEqual([]);
    expect(bucket.calls).toBe(0);
  });

  it("a missing file rejects with ENOENT and nothing is uploaded", async () => {
    (globalThis as { FixedLengthStream?: unknown }).FixedLengthStream = TestFixedLengthStream;
    const ws = await workspaceWith({});
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3 });
    await expect(assets.share("/nope.png", { expiresAfter: 1000 })).rejects.toMatchObject({ code: "ENOENT" });
    expect(bucket.calls).toBe(0);
  });

  it("without FixedLengthStream (Node) → the exact rejection, the source is read in parallel then cancelled, nothing uploaded", async () => {
    expect((globalThis as { FixedLengthStream?: unknown }).FixedLengthStream).toBeUndefined();
    const ws = await workspaceWith({ "/f.txt": "abc" });
    const bucket = recordingBucket();
    const assets = createAssets({ ws, bucket, s3: S3 });
    const error = await assets.share("/f.txt", { expiresAfter: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message.startsWith("share: FixedLengthStream is not available. ")).toBe(true);
    expect((error as Error).message).toMatch(/workerd/);
    expect((error as Error).message).toMatch(/Cloudflare Worker/);
    expect(bucket.calls).toBe(0);
  });
});
