/**
 * Issue 20, scout after the twentieth attack run: share's metadata bounds (04bb39e). docs/assets.md: "With these
 * bounds what `share` stores stays within R2's 8,192 bytes whatever the caller passes"; MAX_DISPOSITION_BYTES' TSDoc:
 * "with the other metadata (each ≤ 1,024 bytes) it stays within R2's 8,192" — the fix counts Content-Disposition and
 * Content-Type against R2's "object metadata" limit (the local R2 counts only custom metadata).
 * Tried: the local R2 bucket behind a wrapper recording what `share` passes to `put` (the put itself is R2's), a
 * 9,000-byte session id, a 3,000-byte path, a long ASCII `filename` and a Content-Type of 1,024 characters that
 * `checkContentType` accepts (printable ASCII and U+0080–U+00FF).
 * Held: sourcePath and sessionId are 1,024 bytes each, the Content-Disposition at most 4,096, the upload succeeds.
 * Found (low — by the fix's own accounting; 1 of 1): MAX_CONTENT_TYPE_CHARS counts characters, and each of
 * U+0080–U+00FF is 2 bytes of UTF-8, so the Content-Type reaches 2,034 bytes, not "≤ 1,024": the values and custom
 * keys total 8,218 bytes (> 8,192; Content-Disposition 4,084, Content-Type 2,034, custom metadata with keys 2,100).
 * Suggested fix: bound the Content-Type in UTF-8 bytes (1,024), or lower MAX_DISPOSITION_BYTES so the sum of the
 * bounds (disposition + 2 × 1,024 content type + 2 × 1,024 + expiresAt + keys) stays within 8,192; say which in the docs.
 * Fixed: MAX_DISPOSITION_BYTES is 3,072, so the bounds sum to ~7.2 KB with a 2,048-byte Content-Type (TSDoc says how).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, MAX_DISPOSITION_BYTES, type R2PutBucket, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const bytes = (text: string) => new TextEncoder().encode(text).length;

it("what share stores (HTTP and custom metadata) stays within 8,192 bytes whatever the caller passes", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_instance, state) => {
    const seen: Parameters<R2PutBucket["put"]>[2][] = [];
    const bucket: R2PutBucket = {
      put: (key, value, options) => (seen.push(options), env.ASSETS_BUCKET.put(key, value, options)),
    } as R2PutBucket;
    const ws = new Workspace({ storage: state.storage, sessionId: "s".repeat(9000), assets: (w) => createAssets({ ws: w, bucket, s3: S3, env: ENV }) });
    try {
      const dir = `/${"d".repeat(250)}`.repeat(12);
      await ws.fs.mkdir(dir, { recursive: true });
      await ws.fs.writeFile(`${dir}/x.txt`, "hi");
      const contentType = `text/plain; x=${"\u00e9".repeat(1010)}`;
      const url = await ws.assets!.share(`${dir}/x.txt`, { expiresAfter: 60_000, contentType, filename: `${"n".repeat(5000)}.pdf` });
      const o = seen[0]!;
      const http = o.httpMetadata as { contentType: string; contentDisposition: string };
      const custom = o.customMetadata as Record<string, string>;
      return {
        url: typeof url,
        contentTypeChars: http.contentType.length,
        disposition: bytes(http.contentDisposition),
        sourcePath: bytes(custom.sourcePath!),
        sessionId: bytes(custom.sessionId!),
        total: bytes(http.contentType) + bytes(http.contentDisposition) + Object.entries(custom).reduce((n, [k, v]) => n + bytes(k) + bytes(v), 0),
      };
    } finally {
      await ws.close();
    }
  });
  expect(out).toMatchObject({ url: "string", contentTypeChars: 1024, sourcePath: 1024, sessionId: 1024 });
  expect(out.disposition).toBeLessThanOrEqual(MAX_DISPOSITION_BYTES);
  expect(out.total).toBeLessThanOrEqual(8192);
}, 60_000);
