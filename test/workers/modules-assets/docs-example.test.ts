/**
 * docs/modules-assets.md's `<!-- workerd -->` module source runs as is on a
 * JavaScript backend with `ws:assets`, and both URLs it returns name R2
 * objects holding the file's bytes with the metadata the page describes.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a vite `?raw` import (the page's text); the test tsconfig has no vite/client types.
import page from "../../../docs/modules-assets.md?raw";
import { Workspace } from "../../../src/index.js";
import { createAssets } from "../../../src/assets/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createAssetsModule } from "../../../src/modules/assets.js";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const ASSETS_ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

const source = (() => {
  const text = page as string;
  const start = text.indexOf("<!-- workerd -->\n```js\n") + "<!-- workerd -->\n```js\n".length;
  return text.slice(start, text.indexOf("\n```\n", start) + 1);
})();

async function objectOf(url: string) {
  const key = decodeURIComponent(new URL(url).pathname.slice("/agent-assets/".length));
  const object = await env.ASSETS_BUCKET.get(key);
  expect(object).not.toBeNull();
  return object!;
}

describe("docs/modules-assets.md", () => {
  it("the isolate example publishes the file twice: inline for 1 h, and as a download for a day", async () => {
    expect(source).toContain('import { publish } from "ws:assets";');
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const r = await runInDurableObject(stub, async (_i, state) => {
      const ws = new Workspace({
        storage: state.storage,
        assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: { bucket: "agent-assets", accountId: ACCOUNT }, env: ASSETS_ENV }),
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:assets": createAssetsModule({ defaultExpiresAfterMs: 3_600_000 }) } })],
      });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        return await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
      } finally {
        await ws.close();
      }
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const { view, download } = r.value as { view: string; download: string };
    expect([new URL(view).searchParams.get("X-Amz-Expires"), new URL(download).searchParams.get("X-Amz-Expires")]).toEqual(["3600", "86400"]);
    const inline = await objectOf(view);
    const attachment = await objectOf(download);
    expect(await inline.text()).toBe("# Summary\n\nAll checks passed.\n");
    expect(await attachment.text()).toBe("# Summary\n\nAll checks passed.\n");
    expect(inline.httpMetadata).toEqual({ contentType: "text/markdown", contentDisposition: 'inline; filename="summary.md"' });
    expect(attachment.httpMetadata).toEqual({ contentType: "text/markdown", contentDisposition: 'attachment; filename="summary-2026.md"' });
    expect(inline.customMetadata?.sourcePath).toBe("/workspace/report/summary.md");
  });
});
