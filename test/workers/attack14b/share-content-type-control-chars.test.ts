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
 * Fixed: `share` refuses a contentType that is not a header value (anything but printable ASCII, tab
 * and U+0080–U+00FF) with a TypeError saying what is allowed, before any I/O; `ws:assets` `publish`
 * checks it with the same rule, prefixed `publish:`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { Workspace } from "../../../src/index.js";
import { createAssetsModule } from "../../../src/modules/assets.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "secret" };
const ALLOWED = "printable ASCII (U+0020–U+007E), tab or U+0080–U+00FF, no control characters such as CR or LF";

/** Every key in the assets bucket. */
async function keys(): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.ASSETS_BUCKET.list(cursor ? { cursor } : {});
    out.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out.sort();
}

describe("share with a hostile contentType", () => {
  it("a contentType with CR/LF, another control character or a character above U+00FF is refused (TypeError); nothing is uploaded", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({ storage: state.storage, assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) });
      try {
        await ws.fs.mkdir("/out", { recursive: true });
        await ws.fs.writeFile("/out/c.txt", "x");
        const before = await keys();
        const refused = async (contentType: string) =>
          ws.assets!.share("/out/c.txt", { expiresAfter: 60_000, prefix: "a14b-ct", contentType }).then(
            () => "uploaded",
            (error: Error) => [error.constructor.name, error.message],
          );
        expect(await refused("text/html\r\nX-Evil: 1")).toEqual(["TypeError", `share: contentType must be a header value — ${ALLOWED}; got "text/html\\r\\nX-Evil: 1"`]);
        expect(await refused("text/plain\u0000")).toEqual(["TypeError", `share: contentType must be a header value — ${ALLOWED}; got "text/plain\\u0000"`]);
        expect(await refused("text/plain\u007f")).toEqual(["TypeError", `share: contentType must be a header value — ${ALLOWED}; got "text/plain\u007f"`]);
        expect(await refused("text/plain; name=\u20ac")).toEqual(["TypeError", `share: contentType must be a header value — ${ALLOWED}; got "text/plain; name=\u20ac"`]);
        expect(await keys()).toEqual(before);
        // A header value with a tab and Latin-1 is stored as is.
        const url = await ws.assets!.share("/out/c.txt", { expiresAfter: 60_000, prefix: "a14b-ct", contentType: "text/plain;\tname=\u00e9" });
        const key = new URL(url).pathname.split("/").slice(2).map(decodeURIComponent).join("/");
        expect((await env.ASSETS_BUCKET.head(key))?.httpMetadata?.contentType).toBe("text/plain;\tname=\u00e9");
        expect(await (await env.ASSETS_BUCKET.get(key))!.text()).toBe("x");
      } finally {
        await ws.close();
      }
    });
  });

  it("ws:assets publish refuses it too, with the publish: prefix", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const result = await runInDurableObject(stub, async (_instance, state) => {
      const ws = new Workspace({
        storage: state.storage,
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:assets": createAssetsModule() } })],
        assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
      });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/c.txt", "x");
        const before = await keys();
        const source = `import { publish } from "ws:assets";
          export default async () => {
            try { return await publish("c.txt", { contentType: "text/html\\r\\nX-Evil: 1" }); } catch (e) { return [e.name, e.message]; }
          };`;
        const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
        expect(await keys()).toEqual(before);
        return r;
      } finally {
        await ws.close();
      }
    });
    expect(result.exitCode).toBe(0);
    expect(result.value).toEqual(["TypeError", `publish: contentType must be a header value — ${ALLOWED}; got "text/html\\r\\nX-Evil: 1"`]);
  });
});
