/**
 * The publish tool with the REAL assets publisher (createAssets) inside
 * workerd: a Workspace on Durable Object SQLite, a local R2 bucket
 * (Miniflare, env.ASSETS_BUCKET), the AI SDK's generateText loop and pi's
 * execute. The uploaded object is fetched back from the bucket and compared
 * byte for byte; the URL is checked against the key it names.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call as publishCall, done } from "../../shared/loops/ai-sdk.js";
import { Workspace } from "../../../src/index.js";
import { createAssets } from "../../../src/assets/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);

/** Runs `fn` in a fresh Durable Object with a Workspace (session `sessionId`) publishing to env.ASSETS_BUCKET. */
async function inWorkspace<T>(sessionId: string, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({
      storage: state.storage,
      sessionId,
      assets: (w) =>
        createAssets({
          ws: w,
          bucket: env.ASSETS_BUCKET,
          s3: { bucket: "agent-assets", accountId: ACCOUNT, accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
          now: () => NOW,
        }),
    });
    try {
      await ws.fs.mkdir("/workspace/out", { recursive: true });
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

/** A deterministic byte pattern larger than one storage chunk. */
function pattern(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + (i >> 8)) & 0xff;
  return out;
}

/** The bucket key a presigned URL names (path-style: /<bucket>/<key>). */
function keyOf(url: string): string {
  const u = new URL(url);
  expect(u.origin).toBe(`https://${ACCOUNT}.r2.cloudflarestorage.com`);
  expect(u.pathname.startsWith("/agent-assets/")).toBe(true);
  return decodeURIComponent(u.pathname.slice("/agent-assets/".length));
}

const call = (id: string, input: unknown) => publishCall(id, "publish", input);

describe("publish with createAssets and a real R2 bucket (workerd)", () => {
  it("AI SDK loop: uploads the file's bytes under agent-<sessionId>/ and returns a presigned link", async () => {
    const body = pattern(200_000);
    const outputs = await inWorkspace("s1", async (ws) => {
      await ws.fs.writeFile("/workspace/out/chart.png", body);
      const model = new MockLanguageModelV4({
        doGenerate: [
          call("p1", { path: "/workspace/out/chart.png" }),
          call("p2", { path: "/workspace/out/chart.png", expiresAfterMs: 1500 }),
          call("p3", { path: "/workspace/out/missing.png" }),
          done,
        ],
      });
      const result = await generateText({ model, prompt: "share the chart", tools: createAITools({ workspace: ws }), stopWhen: stepCountIs(10) });
      expect(result.text).toBe("done");
      return result.steps.flatMap((s) => s.content.filter((p) => p.type === "tool-result")).map((p) => [p.toolCallId, p.output] as const);
    });
    const byId = new Map(outputs);
    const first = byId.get("p1") as { ok: true; url: string };
    const second = byId.get("p2") as { ok: true; url: string };
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(true);
    expect(byId.get("p3")).toEqual({ ok: false, error: "ENOENT: no such file or directory, stat: /workspace/out/missing.png" });

    // Default expiry one hour → X-Amz-Expires=3600; 1500 ms → 2 s.
    expect(new URL(first.url).searchParams.get("X-Amz-Expires")).toBe("3600");
    expect(new URL(second.url).searchParams.get("X-Amz-Expires")).toBe("2");
    expect(new URL(first.url).searchParams.get("X-Amz-Date")).toBe("20240102T030405Z");
    const keys = [keyOf(first.url), keyOf(second.url)];
    for (const key of keys) expect(key).toMatch(/^agent-s1\/[0-9a-hjkmnp-tv-z]{26}\/chart\.png$/);
    expect(keys[0]).not.toBe(keys[1]);

    // Exactly two objects under the prefix: the missing file uploaded nothing.
    const listed = await env.ASSETS_BUCKET.list({ prefix: "agent-s1/" });
    expect(listed.objects.map((o) => o.key).sort()).toEqual([...keys].sort());
    for (const [i, key] of keys.entries()) {
      const object = await env.ASSETS_BUCKET.get(key);
      expect(object).not.toBeNull();
      expect(new Uint8Array(await object!.arrayBuffer())).toEqual(body);
      expect(object!.httpMetadata).toMatchObject({ contentType: "image/png", contentDisposition: 'inline; filename="chart.png"' });
      expect(object!.customMetadata).toEqual({
        sourcePath: "/workspace/out/chart.png",
        sessionId: "s1",
        expiresAt: new Date(NOW + (i === 0 ? 3600 : 2) * 1000).toISOString(),
      });
    }
  });

  it("pi: an empty session id stores the object without a prefix; a directory fails as the bare message", async () => {
    const { ok, dir } = await inWorkspace("", async (ws) => {
      await ws.fs.writeFile("/workspace/out/report.md", "# Report\n\nAll green.\n");
      const pi = createPiTools({ workspace: ws });
      expect(pi.tools.map((t) => t.name)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete", "publish"]);
      return {
        ok: await pi.execute({ id: "p", name: "publish", arguments: { path: "/workspace/out/report.md", expiresAfterMs: 60000 } }),
        dir: await pi.execute({ id: "d", name: "publish", arguments: { path: "/workspace/out" } }),
      };
    });
    expect(ok.isError).toBe(false);
    const url = (ok.details as { ok: true; url: string }).url;
    expect(ok.content).toEqual([{ type: "text", text: JSON.stringify({ ok: true, url }) }]);
    const key = keyOf(url);
    expect(key).toMatch(/^[0-9a-hjkmnp-tv-z]{26}\/report\.md$/);
    expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("60");
    const object = await env.ASSETS_BUCKET.get(key);
    expect(await object!.text()).toBe("# Report\n\nAll green.\n");
    expect(object!.httpMetadata?.contentType).toBe("text/markdown");
    expect(object!.customMetadata?.sessionId).toBe("");
    expect(dir.isError).toBe(true);
    const message = "EISDIR: is a directory, readFile: /workspace/out";
    expect(dir.content).toEqual([{ type: "text", text: message }]);
    expect(dir.details).toEqual({ ok: false, error: message });
    // Nothing was uploaded for the directory: the only object is the report.
    const listed = await env.ASSETS_BUCKET.list();
    expect(listed.objects.filter((o) => o.key.endsWith("/out")).map((o) => o.key)).toEqual([]);
  });
});
