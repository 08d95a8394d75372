/**
 * Issue 20, fourteenth attack run: `share` stores a `contentType` holding CR/LF (or any control
 * character) as the object's Content-Type, where `filename` is cleaned.
 *
 * Tried (real workerd, real FixedLengthStream, local R2 `ASSETS_BUCKET`): `share` with a filename
 * holding CR/LF (held: `_` in the quoted part, `filename*` encoded), a 100,000-character filename and
 * content type (stored; R2's own limits), a basename of 1,100 bytes (R2 refuses the key:
 * `put: The specified object name is not valid. (10020)`), a 2,400-character source path (stored),
 * a file rewritten while it is shared (a consistent snapshot is uploaded), a directory (EISDIR).
 * Found (low): `contentType: "text/html\r\nX-Evil: 1"` is accepted and stored verbatim as the
 * object's httpMetadata.contentType. `createAssets` documents that control characters "cannot appear
 * in a header value" and replaces them in Content-Disposition, but not in Content-Type; `ws:assets`
 * passes the sandbox's (the model's) `contentType` straight through, so model code decides a header
 * value R2 later serves — at best R2 refuses the put with an error that does not say why, at worst a
 * split header on the presigned GET.
 * Suggested fix: in `share`, refuse a contentType with a control character (U+0000–U+001F, U+007F) with
 * `TypeError("share: contentType must be a header value without control characters")`, as
 * `ws:assets` does for other bad options.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "secret" };

describe("share with a hostile contentType", () => {
  it.fails("a contentType with CR/LF is refused (TypeError) or stored without control characters", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({ storage: state.storage, assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) });
      try {
        await ws.fs.mkdir("/out", { recursive: true });
        await ws.fs.writeFile("/out/c.txt", "x");
        const outcome = await ws.assets!.share("/out/c.txt", { expiresAfter: 60_000, contentType: "text/html\r\nX-Evil: 1" }).then(
          async (url) => {
            const key = new URL(url).pathname.split("/").slice(2).map(decodeURIComponent).join("/");
            return (await env.ASSETS_BUCKET.head(key))?.httpMetadata?.contentType;
          },
          (error: unknown) => error,
        );
        if (outcome instanceof Error) expect(outcome).toBeInstanceOf(TypeError);
        else expect(outcome).not.toMatch(/[\u0000-\u001f\u007f]/); // today: "text/html\r\nX-Evil: 1"
      } finally {
        await ws.close();
      }
    });
  });
});
