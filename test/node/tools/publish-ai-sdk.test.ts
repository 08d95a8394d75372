import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { createAITools, createPublishTool } from "../../../src/tools/ai-sdk.js";
import { createPublishTool as createPublishToolFromIndex } from "../../../src/tools/index.js";
import { makeWorkspace } from "./helpers.js";
import { PNG, publishSetup, READONLY, SEVEN, WITH_PUBLISH } from "./publish-helpers.js";


describe("publish through generateText (MockLanguageModelV4)", () => {
  it("shares with the default expiry, an explicit expiry and the session prefix; failures come back as results", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "s1", files: { "/workspace/x.png": PNG, "/workspace/out/report.md": "# Report\n" } });
    const tools = createAITools({ workspace });
    expect(Object.keys(tools)).toEqual(WITH_PUBLISH);
    expect(Object.keys(tools.publish!).sort()).toEqual(["description", "execute", "inputSchema"]);
    const model = new MockLanguageModelV4({
      doGenerate: [
        call("p1", "publish", { path: "/workspace/x.png" }),
        call("p2", "publish", { path: "/workspace/out/report.md", expiresAfterMs: 60000 }),
        call("p3", "publish", { path: "/workspace/missing.png" }),
        call("z", "publish", { path: "/workspace/x.png", expiresAfterMs: 0 }),
        call("neg", "publish", { path: "/workspace/x.png", expiresAfterMs: -5 }),
        call("frac", "publish", { path: "/workspace/x.png", expiresAfterMs: 1.5 }),
        call("str", "publish", { path: "/workspace/x.png", expiresAfterMs: "60" }),
        call("empty", "publish", { path: "" }),
        done,
      ],
    });
    const result = await generateText({ model, prompt: "share the chart", tools, stopWhen: stepCountIs(20) });
    expect(result.text).toBe("done");
    // Only the three valid calls reached share, with exactly these arguments.
    expect(assets.calls).toStrictEqual([
      { path: "/workspace/x.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
      { path: "/workspace/out/report.md", options: { expiresAfter: 60000, prefix: "agent-s1" } },
      { path: "/workspace/missing.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
    ]);
    expect(outputFor(model, "p1")).toEqual({ type: "json", value: { ok: true, url: "https://assets.test/agent-s1/x.png?expiresAfter=3600000&bytes=12" } });
    expect(outputFor(model, "p2")).toEqual({ type: "json", value: { ok: true, url: "https://assets.test/agent-s1/report.md?expiresAfter=60000&bytes=9" } });
    expect(outputFor(model, "p3")).toEqual({
      type: "json",
      value: { ok: false, error: "ENOENT: no such file or directory, stat: /workspace/missing.png" },
    });
    const invalid = (id: string) => outputFor(model, id) as { type: string; value: string };
    for (const [id, message] of [
      ["z", "Too small: expected number to be >0"],
      ["neg", "Too small: expected number to be >0"],
      ["frac", "Invalid input: expected int, received number"],
      ["str", "Invalid input: expected number, received string"],
      ["empty", "Too small: expected string to have >=1 characters"],
    ] as const) {
      expect(invalid(id).type, id).toBe("error-text");
      expect(invalid(id).value, id).toContain("Invalid input for tool publish");
      expect(invalid(id).value, id).toContain(message);
    }
    expect(model.doGenerateCalls[0]!.tools!.map((t) => (t as { name: string }).name)).toEqual(WITH_PUBLISH);
  });

  it("an empty session id leaves the prefix key out", async () => {
    const { workspace, assets } = await publishSetup({ files: { "/workspace/x.png": PNG } });
    expect(workspace.sessionId).toBe("");
    const model = new MockLanguageModelV4({ doGenerate: [call("p", "publish", { path: "/workspace/x.png", expiresAfterMs: 5 }), done] });
    await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(5) });
    expect(assets.calls).toStrictEqual([{ path: "/workspace/x.png", options: { expiresAfter: 5 } }]);
    expect("prefix" in assets.calls[0]!.options).toBe(false);
    expect(outputFor(model, "p")).toEqual({ type: "json", value: { ok: true, url: "https://assets.test/x.png?expiresAfter=5&bytes=12" } });
  });

  it("is absent without assets, with assets: false, and when read-only", async () => {
    const bare = await makeWorkspace();
    expect(Object.keys(createAITools({ workspace: bare }))).toEqual(SEVEN);
    const { workspace } = await publishSetup({ sessionId: "s1" });
    expect(Object.keys(createAITools({ workspace, assets: false }))).toEqual(SEVEN);
    expect(Object.keys(createAITools({ workspace, readonly: true }))).toEqual(READONLY);
    expect(Object.keys(createAITools({ workspace, assets: true }))).toEqual(WITH_PUBLISH);
  });

  it("createPublishTool: the same tool alone, and an exact throw without assets", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "s1", files: { "/workspace/x.png": PNG } });
    expect(createPublishToolFromIndex).toBe(createPublishTool);
    const tool = createPublishTool({ workspace: workspace as never });
    expect(tool.description).toBe(createAITools({ workspace }).publish!.description);
    expect(await tool.execute!({ path: "/workspace/x.png" }, { toolCallId: "t", messages: [] } as never)).toEqual({
      ok: true,
      url: "https://assets.test/agent-s1/x.png?expiresAfter=3600000&bytes=12",
    });
    expect(assets.calls).toStrictEqual([{ path: "/workspace/x.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } }]);
    const bare = await makeWorkspace();
    expect(() => createPublishTool({ workspace: bare as never })).toThrow(new Error("createPublishTool: workspace.assets is not configured"));
    expect(() => createPublishTool({ workspace: {} })).toThrow("createPublishTool: workspace.assets is not configured");
  });
});
