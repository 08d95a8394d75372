/**
 * Issue 20, twenty-fourth attack run: ws:assets and ws:artifacts name an unknown option key whole in their TypeError
 * (cut only at the bridge's 16,384-character bound), where the runtime and ws:container's env check quote a caller's
 * key through memberCut/quoteCut (64 characters and the length).
 * Tried: the sibling of 5d16518 (FQ leftovers: "ws:container exec and tool-directory env checks name a key through
 * memberCut") and scout22 runtime-env-name-string-value-quoted-whole: model-written code in a WorkerJavaScriptBackend
 * run passing an options object whose only key is 100,000 × "k" (or 20,000 × `"\n`) to `publish(path, opts)` of
 * ws:assets and `share(name, opts)` of ws:artifacts, in a Durable Object with R2 / the artifacts stand-in.
 * Held: both reject with a TypeError before any upload or token (nothing stored in R2); the message crossing into the
 * isolate is cut at MAX_HOST_ERROR_CHARS (16,384) with a marker, never half a pair.
 * Found (low — 16 KB of the caller's own key in every such error, which model code prints into output the model
 * reads; the quote of assets' key is not escaped, so a key with `"` and a newline reads as two lines of message;
 * 3 of 3 runs): `publish: unknown option "kkkk…` is 16,384+ characters (src/modules/assets.ts shareOptionsOf,
 * `"${key}"`), `share: unknown option "kkkk…` likewise (src/modules/artifacts.ts, JSON.stringify(key) whole; also
 * optionsOf's `unknown … key`). ws:container exec's `unknown option "${key}"` (src/modules/container.ts
 * parseExecArgs) is the same code shape (not run here: it needs the container host).
 * Suggested fix: name the key with quoteCut (src/util/cut.ts) in all four messages, as the env checks do.
 * Fixed: the four messages name the key with quoteCut — JSON-quoted (so `"` and a newline are escaped), whole up to
 * 64 characters, else its first 64 then `…" (<n> characters)`: ws:assets shareOptionsOf, ws:artifacts share and
 * optionsOf, ws:container parseExecArgs. ws:assets' disposition and ws:artifacts' scope values are quoted the same
 * way. Each message below is now exact (fix24/ws-modules-quote-keys.test.ts covers optionsOf, scope and the exec key).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createAssetsModule } from "../../../src/modules/assets.js";
import { createArtifactsModule } from "../../../src/modules/artifacts.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

const S3: S3Config = { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

const SOURCE = `import { publish } from "ws:assets";
import { share } from "ws:artifacts";
const key = "k".repeat(100000);
const quoteKey = '"\\n'.repeat(20000);
const attempt = async (f) => { try { await f(); return "resolved"; } catch (e) { return { name: e.name, length: e.message.length, message: e.message }; } };
export default async () => ({
  publish: await attempt(() => publish("r.txt", { [key]: 1 })),
  publishQuote: await attempt(() => publish("r.txt", { [quoteKey]: 1 })),
  share: await attempt(() => share("repo", { [key]: 1 })),
});`;

it("an unknown option key is quoted by its first 64 characters and its length", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId: "attack24a-keys",
      assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }),
      artifacts: { binding: new ArtifactsStandIn() as never },
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:assets": createAssetsModule(), "ws:artifacts": createArtifactsModule() } })],
    });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/r.txt", "hi");
      const r = await (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 60_000 })).result();
      if (r.exitCode !== 0) throw new Error(`the run failed: ${r.stderr}`);
      return r.value as Record<string, { name: string; length: number; message: string }>;
    } finally {
      await ws.close();
    }
  });
  expect((await env.ASSETS_BUCKET.list()).objects.length).toBe(0);
  const options = "(options are expiresAfter, filename, disposition, contentType)";
  const typeError = (message: string) => ({ name: "TypeError", length: message.length, message });
  expect(out.publish).toEqual(typeError(`publish: unknown option "${"k".repeat(64)}…" (100000 characters) ${options}`));
  // The key's first 64 characters (32 × `"` and a newline), escaped as JSON.
  expect(out.publishQuote).toEqual(typeError(`publish: unknown option ${JSON.stringify(`${'"\n'.repeat(32)}…`)} (40000 characters) ${options}`));
  expect(out.share).toEqual(typeError(`share: unknown option "${"k".repeat(64)}…" (100000 characters); known: scope, ttl`));
  // Found: 16,413 characters each (16,384 of message then the bridge's marker); publishQuote starts `publish: unknown option ""\n"\n…` unescaped.
  const lengths = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.length <= 300 && v.length === v.message.length]));
  expect(lengths).toEqual({ publish: true, publishQuote: true, share: true });
}, 120_000);
