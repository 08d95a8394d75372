/**
 * publish built from a REMOTE getWorkspace() client (real Workers RPC to a
 * withWorkspace Durable Object whose Workspace has createAssets over the
 * local R2 bucket). The client's `assets.share` forwards to the stub's
 * `publish` (spec 04 §1.7–1.8); the tool runs in the test worker, the upload
 * in the Durable Object.
 */
import { env } from "cloudflare:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call as publishCall, done } from "../../shared/loops/ai-sdk.js";
import { getWorkspace } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { ASSETS_AGENT_ACCOUNT, ASSETS_AGENT_NOW } from "./agent.js";

const call = (id: string, input: unknown) => publishCall(id, "publish", input);

describe("publish through a remote getWorkspace() client", () => {
  it("uploads in the Durable Object and returns the link; a missing file fails as a result", async () => {
    const stub = env.CLIENT_ASSETS_AGENT.get(env.CLIENT_ASSETS_AGENT.newUniqueId());
    using client = await getWorkspace(stub);
    expect(typeof client.assets?.share).toBe("function");
    const body = new TextEncoder().encode("x,y\n1,2\n3,4\n");
    await client.fs.mkdir("/workspace/out", { recursive: true });
    await client.fs.writeFile("/workspace/out/data.csv", body);

    const tools = createAITools({ workspace: client });
    expect(Object.keys(tools)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete", "publish"]);
    expect(createTanStackTools({ workspace: client, approve: "mutating" }).filter((t) => t.needsApproval).map((t) => t.name)).toEqual([
      "write", "edit", "delete", "publish",
    ]);
    const model = new MockLanguageModelV4({
      doGenerate: [call("p1", { path: "/workspace/out/data.csv", expiresAfterMs: 120000 }), call("p2", { path: "/workspace/out/nope.csv" }), done],
    });
    const result = await generateText({ model, prompt: "share the data", tools, stopWhen: stepCountIs(5) });
    const outputs = new Map(result.steps.flatMap((s) => s.content.filter((p) => p.type === "tool-result")).map((p) => [p.toolCallId, p.output]));
    expect(outputs.get("p2")).toEqual({ ok: false, error: "ENOENT: no such file or directory, stat: /workspace/out/nope.csv" });

    const { ok, url } = outputs.get("p1") as { ok: true; url: string };
    expect(ok).toBe(true);
    const u = new URL(url);
    expect(u.origin).toBe(`https://${ASSETS_AGENT_ACCOUNT}.r2.cloudflarestorage.com`);
    expect(u.searchParams.get("X-Amz-Expires")).toBe("120");
    // The remote client carries the host's sessionId, so the key is agent-<sessionId>/<id>/<basename>, as from the Workspace itself.
    expect(client.sessionId).toBe("remote-s1");
    const key = decodeURIComponent(u.pathname.slice("/agent-assets/".length));
    expect(key).toMatch(/^agent-remote-s1\/[0-9a-hjkmnp-tv-z]{26}\/data\.csv$/);
    const object = await env.ASSETS_BUCKET.get(key);
    expect(object).not.toBeNull();
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(body);
    expect(object!.httpMetadata?.contentType).toBe("text/csv");
    // The upload ran against the host Workspace, which does have the session id.
    expect(object!.customMetadata).toEqual({
      sourcePath: "/workspace/out/data.csv",
      sessionId: "remote-s1",
      expiresAt: new Date(ASSETS_AGENT_NOW + 120_000).toISOString(),
    });
  });

  it("a Workspace without a publisher: the remote client has no assets and no publish tool", async () => {
    const stub = env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId());
    using client = await getWorkspace(stub);
    expect(client.assets).toBeUndefined();
    expect(Object.keys(createAITools({ workspace: client }))).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
  });
});
