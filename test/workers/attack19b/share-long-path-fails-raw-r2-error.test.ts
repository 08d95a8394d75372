/**
 * Issue 20, nineteenth attack run: `share` (src/assets/assets.ts; the `publish` tool) stores the path it was given
 * whole as `customMetadata.sourcePath` and the file's whole basename in the key `<prefix>/<id>/<basename>`, but a
 * Workspace path may hold 256 KiB and a name has no length limit of its own (docs/filesystem.md "Paths"), while R2
 * takes at most 8,192 bytes of object metadata and 1,024 bytes of key (R2 "Limits"). A file at a legal Workspace
 * path past those cannot be published at all, and the failure is R2's bare error, after the file was opened.
 * Tried: in workerd with the local R2 binding, `ws.assets.share(path, { expiresAfter: 60_000 })` of a 2-byte file at
 * (a) `/<9,000 × "d">/x.txt`, (b) `/d/<1,100 × "a">.txt`, (c) `/<2,100 × "d">/x.txt`, (d) `/d/<300 × U+4E00>.txt`.
 * Held: (c) and (d) are published (key 32 and 331 characters; the URL 362 and 3,061 characters).
 * Found (low — nothing is lost, but a file an agent made cannot be shared and the error carries no code and does not
 * say why): (a) rejects `Error: put: Your metadata headers exceed the maximum allowed metadata size. (10012)`,
 * (b) rejects `Error: put: The specified object name is not valid. (10020)`, `code` undefined (1 of 1 probe run,
 * 2 of 2 test runs).
 * Suggested fix: keep what share stores within R2's limits: `sourcePath` cut (e.g. to 1,024 bytes of UTF-8 at a
 * character boundary, with a marker), and the key's basename shortened to fit 1,024 bytes with the prefix and id
 * (keeping its extension, which sets the Content-Type); the Content-Disposition keeps the whole name or the same
 * shortened one. Or refuse before opening the file with a TypeError naming the limit (documented in docs/assets.md).
 * Fixed: share keeps what it stores within R2's limits (src/assets/metadata.ts fitName, fitSourcePath): a basename
 * that would make the key pass MAX_KEY_BYTES (1,024) is shortened to `<start of stem>…<extension>` (key and
 * Content-Disposition), and a sourcePath over MAX_SOURCE_PATH_BYTES (1,024) is stored as its first 510 bytes, `…`,
 * its last 511; a prefix that leaves no room for a name rejects TypeError before any I/O (docs/assets.md).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

it("share publishes a file at a 9,007-character path and one whose name is 1,104 characters (what R2 stores fits its limits)", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: "s",
      assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
    });
    try {
      const paths = [`/${"d".repeat(9000)}/x.txt`, `/d/${"a".repeat(1100)}.txt`];
      const results: string[] = [];
      for (const path of paths) {
        await ws.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        await ws.fs.writeFile(path, "hi");
        // Probe (this checkout): "put: Your metadata headers exceed … (10012)", "put: The specified object name is not valid. (10020)".
        results.push(await ws.assets!.share(path, { expiresAfter: 60_000 }).then((url) => typeof url, (e: Error) => e.message));
      }
      const listed = await env.ASSETS_BUCKET.list({ prefix: "" });
      const objects = await Promise.all(listed.objects.map((o) => env.ASSETS_BUCKET.get(o.key)));
      const texts = await Promise.all(objects.map((o) => o!.text()));
      const stored = objects
        .map((o) => ({ name: o!.key.slice(o!.key.indexOf("/") + 1), sourcePath: o!.customMetadata?.sourcePath, disposition: o!.httpMetadata?.contentDisposition, type: o!.httpMetadata?.contentType }))
        .sort((x, y) => (x.sourcePath! < y.sourcePath! ? -1 : 1));
      return { results, count: listed.objects.length, texts, keysFit: listed.objects.every((o) => new TextEncoder().encode(o.key).length <= 1024), keyBytes: listed.objects.map((o) => new TextEncoder().encode(o.key).length).sort(), stored };
    } finally {
      await ws.close();
    }
  });
  const short = `${"a".repeat(990)}\u2026.txt`;
  expect(out).toEqual({
    results: ["string", "string"],
    count: 2,
    texts: ["hi", "hi"],
    keysFit: true,
    // `<26-char id>/x.txt` (32 bytes); `<id>/` + 990 a + … (3 bytes) + .txt: exactly 1,024.
    keyBytes: [1024, 32],
    stored: [
      { name: short, sourcePath: `/d/${"a".repeat(507)}\u2026${"a".repeat(507)}.txt`, disposition: `inline; filename="${short}"; filename*=UTF-8''${encodeURIComponent(short)}`, type: "text/plain" },
      { name: "x.txt", sourcePath: `/${"d".repeat(509)}\u2026${"d".repeat(505)}/x.txt`, disposition: 'inline; filename="x.txt"', type: "text/plain" },
    ],
  });
}, 60_000);
