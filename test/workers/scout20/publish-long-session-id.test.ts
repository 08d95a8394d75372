/**
 * Issue 20, scout after the twentieth attack run: share keeps a long `sessionId` within R2's metadata limit (04bb39e:
 * "a 9,000-byte id failed every share with R2's 10012"; now cut to MAX_SESSION_ID_BYTES, 1,024).
 * Tried: a Workspace on the DO's storage with the local R2 bucket (as test/workers/assets/share-metadata-bounds.test.ts)
 * and a session id of 1,024 bytes (the most the metadata keeps whole) and of 9,000; `ws.assets.share` directly and the
 * publish tool the model calls (`publishDefinition({ workspace }).execute`, src/tools/core/publish.ts).
 * Held: `share` without a prefix stores the file (2 of 2).
 * Found (medium for hosts with long session ids — every model publish fails; 2 of 2): the publish tool always passes
 * `prefix: "agent-" + sessionId`, and the key `<prefix>/<id>/<name>` must fit 1,024 bytes, so from a session id of
 * about 980 bytes every publish returns `{ ok: false, error: "share: prefix is too long: … use a shorter prefix" }` —
 * advice the model cannot follow (it passes no prefix). The session id the fix now accepts in the metadata still
 * makes the tool unusable.
 * Suggested fix: in publish, fit the session id into the prefix as the metadata does (e.g. `agent-` + `fitMiddle`
 * of it to a few hundred bytes, or a hash of an over-long id), so the key always leaves room for the name; document it
 * in docs/tools.md's publish section.
 * Fixed: publish's prefix holds at most 256 bytes of the session id (`agent-<start>…<end>`, fitMiddle).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";
import { publishDefinition } from "../../../src/tools/core/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

it("the publish tool works for a Workspace whose session id share accepts (1,024 and 9,000 bytes)", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_instance, state) => {
    const results: { share: string; publish: unknown }[] = [];
    for (const sessionId of ["s".repeat(1024), "s".repeat(9000)]) {
      const ws = new Workspace({
        storage: state.storage,
        sessionId,
        assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
      });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/report.txt", "hi");
        const share = await ws.assets!.share("/workspace/report.txt", { expiresAfter: 60_000 }).then((url) => typeof url, (e: Error) => e.message);
        const publish = await publishDefinition({ workspace: ws }).execute({ path: "/workspace/report.txt" });
        results.push({ share, publish });
      } finally {
        await ws.close();
      }
    }
    return results;
  });
  // Held: share itself works with either id.
  expect(out.map((r) => r.share)).toEqual(["string", "string"]);
  // Today: { ok: false, error: "share: prefix is too long: the key <prefix>/<id>/<name> must fit R2's 1024 bytes; the
  // prefix leaves 0 bytes for the name; use a shorter prefix" } for both.
  for (const r of out) expect(r.publish).toEqual({ ok: true, url: expect.stringMatching(/^https:\/\//) });
}, 60_000);
