/**
 * Issue 20, twenty-first attack run: the publish tool puts the session id into the key prefix as it is.
 * Tried: a Workspace on the Durable Object's storage with the local R2 bucket (as test/workers/scout20/
 * publish-long-session-id.test.ts) and odd session ids — a lone UTF-16 surrogate (what `title.slice(0, 50)` leaves
 * when it cuts an emoji), `a/../b`, `x/./y`, `..`, `a//b`, one holding NUL — then the publish tool the model calls
 * (`publishDefinition({ workspace }).execute`, src/tools/core/publish.ts), comparing the URL's key with the stored one.
 * Held: `..`, `a//b` and a NUL publish, and the URL's key is the stored key; a file NAME with a lone surrogate is
 * made well-formed (`wellFormed(basename(path))`), so its URL and key agree.
 * Found (medium for such hosts — a link that 404s reported as success, or every publish failing; 3 of 3 runs):
 * - sessionId "\uD800": publish answers `{ ok: true, url }` whose path names `agent-\uFFFD/<id>/r.txt` (uriEncode
 *   makes the surrogate one U+FFFD) while R2 stores the key `agent-\uFFFD\uFFFD\uFFFD/<id>/r.txt` (the binding writes
 *   the surrogate's three WTF-8 bytes, listed back as three U+FFFD — local workerd; production R2 may refuse the key
 *   instead): the link names no object.
 * - sessionId "a/../b" (or "x/./y"): every publish is `{ ok: false, error: 'share: prefix "agent-a/../b" has a "." or
 *   ".." segment, which a URL cannot address; use other characters' }` — advice the model cannot follow (it passes
 *   no prefix), as scout20 publish-long-session-id found for long ids.
 * Suggested fix: build the prefix from the session id made safe for a key: well-formed (toWellFormed) and with its
 * `/` replaced (or each `.`/`..` segment escaped), before fitMiddle; document it in docs/tools.md's publish section.
 * Fixed: the publish tool's prefix is `agent-<id>` with the id made well-formed (a lone surrogate → U+FFFD) and each
 * `.`/`..` segment written `_`/`__` before it is cut (src/tools/core/publish.ts publishPrefix); `share` makes its own
 * `prefix` well-formed too, so the URL and the stored key agree (and the session id in the object's metadata).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";
import { publishDefinition } from "../../../src/tools/core/index.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

async function publishAs(sessionId: string): Promise<{ ok: unknown; urlKey?: string; stored?: string[]; error?: string }> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, sessionId, assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/r.txt", "hi");
      const r = (await publishDefinition({ workspace: ws }).execute({ path: "/workspace/r.txt" })) as { ok: boolean; url?: string; error?: string };
      if (!r.ok) return { ok: false, error: r.error };
      const urlKey = decodeURIComponent(new URL(r.url!).pathname).replace(/^\/agent-assets\//, "");
      const id = urlKey.split("/").at(-2)!;
      const stored = (await env.ASSETS_BUCKET.list({ limit: 1000 })).objects.map((o) => o.key).filter((k) => k.includes(`/${id}/`));
      return { ok: true, urlKey, stored };
    } finally {
      await ws.close();
    }
  });
}

it("a session id with a lone surrogate gives a link to the object it stored", async () => {
  const out = await publishAs("\uD800");
  // Found: urlKey "agent-\uFFFD/<id>/r.txt", stored ["agent-\uFFFD\uFFFD\uFFFD/<id>/r.txt"].
  expect(out.ok).toBe(true);
  expect(out.stored).toEqual([out.urlKey]);
  expect(out.urlKey).toMatch(/^agent-\uFFFD\/[0-9a-z]{26}\/r\.txt$/);
}, 60_000);

it("a session id with a . or .. segment still lets the model publish", async () => {
  const out = [await publishAs("a/../b"), await publishAs("x/./y")];
  // Found: { ok: false, error: 'share: prefix "agent-a/../b" has a "." or ".." segment, …; use other characters' } (both).
  expect(out.map((o) => o.ok)).toEqual([true, true]);
  expect(out.map((o) => o.urlKey!.replace(/\/[0-9a-z]{26}\//, "/<id>/"))).toEqual(["agent-a/__/b/<id>/r.txt", "agent-x/_/y/<id>/r.txt"]);
  expect(out.map((o) => o.stored)).toEqual(out.map((o) => [o.urlKey]));
}, 60_000);
