/**
 * What `share` stores beside the file stays within R2's 8,192 bytes of object metadata whatever the caller passes
 * (nineteenth attack run's leads). The Workspace's `sessionId` was stored whole as custom metadata: with a 9,000-byte
 * session id every share failed with R2's bare `put: Your metadata headers exceed the maximum allowed metadata size.
 * (10012)` after the file was opened (2 of 2 here). A caller's `filename` went whole into Content-Disposition and a
 * Content-Type had no length limit either (the local R2 counts only custom metadata; R2's documented limit is on
 * object metadata). Now the session id is cut to MAX_SESSION_ID_BYTES (1,024) as `sourcePath` is, the file name is
 * shortened (`<start of stem>…<extension>`) until the Content-Disposition fits MAX_DISPOSITION_BYTES (4,096), and
 * a Content-Type over MAX_CONTENT_TYPE_CHARS (1,024) rejects `TypeError` before any I/O.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, MAX_DISPOSITION_BYTES, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const bytes = (text: string) => new TextEncoder().encode(text).length;

it("share keeps a long filename, session id and Content-Type within R2's metadata limit", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: "s".repeat(9000),
      assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
    });
    try {
      await ws.fs.mkdir("/d", { recursive: true });
      await ws.fs.writeFile("/d/x.txt", "hi");
      const names = ["n".repeat(10_000) + ".pdf", '"é'.repeat(2_000) + ".csv"];
      const results: string[] = [];
      for (const filename of names) {
        results.push(await ws.assets!.share("/d/x.txt", { expiresAfter: 60_000, filename, disposition: "attachment" }).then((url) => typeof url, (e: Error) => e.message));
      }
      const refused = await ws.assets!.share("/d/x.txt", { expiresAfter: 60_000, contentType: `text/plain; x=${"y".repeat(2_000)}` }).then(
        () => "shared",
        (e: Error) => `${e.name}: ${e.message}`,
      );
      const listed = await env.ASSETS_BUCKET.list({ prefix: "" });
      const objects = await Promise.all(listed.objects.map((o) => env.ASSETS_BUCKET.get(o.key)));
      const stored = objects.map((o) => ({
        disposition: o!.httpMetadata!.contentDisposition!,
        sessionId: o!.customMetadata!.sessionId!,
        text: "",
      }));
      for (const [i, o] of objects.entries()) stored[i]!.text = await o!.text();
      return { results, refused, count: listed.objects.length, stored };
    } finally {
      await ws.close();
    }
  });
  expect(out.results).toEqual(["string", "string"]);
  expect(out.refused).toBe("TypeError: share: contentType must be at most 1024 characters (R2 stores 8,192 bytes of metadata in all), got 2014");
  expect(out.count).toBe(2);
  const sessionId = `${"s".repeat(510)}\u2026${"s".repeat(511)}`;
  for (const s of out.stored) {
    expect(s.text).toBe("hi");
    expect(s.sessionId).toBe(sessionId);
    expect(bytes(s.disposition)).toBeLessThanOrEqual(MAX_DISPOSITION_BYTES);
  }
  const dispositions = out.stored.map((s) => s.disposition).sort();
  // Each name keeps its start and extension; the header is near the bound, not far below it.
  const escaped = dispositions[0]!;
  expect(escaped.startsWith('attachment; filename="\\"é\\"é')).toBe(true);
  expect(escaped.endsWith("%E2%80%A6.csv")).toBe(true);
  expect(escaped).toContain("\u2026.csv\"; filename*=UTF-8''%22%C3%A9%22%C3%A9");
  // (the "…" is not ASCII, so the name is also given as filename*)
  expect(dispositions[1]).toMatch(/^attachment; filename="n+\u2026\.pdf"; filename\*=UTF-8''n+%E2%80%A6\.pdf$/);
  for (const d of dispositions) expect(bytes(d)).toBeGreaterThan(MAX_DISPOSITION_BYTES - 200);
}, 60_000);
