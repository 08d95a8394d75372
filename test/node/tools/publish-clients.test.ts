/**
 * publish built from Workspace clients and stubs (spec 03 §2.3, spec 04 §1.7–1.8):
 * a getWorkspace() client (local, and the remote path whose `assets.share`
 * bridges to the stub's `publish`), and a bare WorkspaceStub whose `assets`
 * has only `publish`, which the tool bridges itself.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace, nodeSqliteStorage, withWorkspace, type Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { publishDefinition } from "../../../src/tools/core/publish.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createPublishTool } from "../../../src/tools/ai-sdk.js";
import { PNG, RecordingAssets, SEVEN, WITH_PUBLISH } from "./publish-helpers.js";

/** A withWorkspace host on node:sqlite whose Workspace (session "s1") has a recording assets publisher. */
async function agentWithAssets(withAssets = true) {
  let assets: RecordingAssets | undefined;
  class Host {
    readonly storage = nodeSqliteStorage(":memory:");
  }
  const Agent = withWorkspace(Host, (self): WorkspaceOptions => ({
    storage: self.storage,
    sessionId: "s1",
    ...(withAssets ? { assets: (ws: Workspace) => (assets = new RecordingAssets(ws)) } : {}),
  }));
  const agent = new Agent();
  const local = await getWorkspace(agent);
  await local.fs.mkdir("/workspace", { recursive: true });
  await local.fs.writeFile("/workspace/x.png", PNG);
  return { agent, local, assets };
}

describe("publish from clients and stubs", () => {
  it("a local getWorkspace() client offers publish and shares through the Workspace's publisher", async () => {
    const { local, assets } = await agentWithAssets();
    const pi = createPiTools({ workspace: local });
    expect(pi.tools.map((t) => t.name)).toEqual(WITH_PUBLISH);
    const result = await pi.execute({ id: "p", name: "publish", arguments: { path: "/workspace/x.png", expiresAfterMs: 9000 } });
    expect(result.details).toEqual({ ok: true, url: "https://assets.test/agent-s1/x.png?expiresAfter=9000&bytes=12" });
    // The client carries the Workspace's sessionId, so the prefix matches tools built from the Workspace.
    expect(local.sessionId).toBe("s1");
    expect(assets!.calls).toStrictEqual([{ path: "/workspace/x.png", options: { expiresAfter: 9000, prefix: "agent-s1" } }]);
  });

  it("the remote client path bridges share to the stub's publish", async () => {
    const { agent, assets } = await agentWithAssets();
    // No WORKSPACE symbol on this handle, so getWorkspace takes the remote path over __getWorkspaceStub().
    const remote = await getWorkspace({ __getWorkspaceStub: () => agent.__getWorkspaceStub() });
    expect(typeof remote.assets.share).toBe("function");
    expect("publish" in remote.assets).toBe(false);
    const pi = createPiTools({ workspace: remote });
    expect(pi.tools.map((t) => t.name)).toEqual(WITH_PUBLISH);
    const ok = await pi.execute({ id: "p", name: "publish", arguments: { path: "/workspace/x.png" } });
    expect(ok).toMatchObject({ isError: false, details: { ok: true, url: "https://assets.test/agent-s1/x.png?expiresAfter=3600000&bytes=12" } });
    const missing = await pi.execute({ id: "m", name: "publish", arguments: { path: "/workspace/none.png" } });
    expect(missing).toEqual({
      content: [{ type: "text", text: "ENOENT: no such file or directory, stat: /workspace/none.png" }],
      isError: true,
      details: { ok: false, error: "ENOENT: no such file or directory, stat: /workspace/none.png" },
    });
    expect(assets!.calls).toStrictEqual([
      { path: "/workspace/x.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
      { path: "/workspace/none.png", options: { expiresAfter: 3600000, prefix: "agent-s1" } },
    ]);
    remote[Symbol.dispose]();
  });

  it("an assets object with only publish (a WorkspaceStub's) is bridged by the tool", async () => {
    const { agent, assets } = await agentWithAssets();
    const stub = await agent.__getWorkspaceStub();
    expect(typeof (stub.assets as unknown as { share?: unknown }).share).toBe("undefined");
    const tool = publishDefinition({ workspace: { assets: stub.assets, sessionId: "s9" } });
    expect(await tool.execute({ path: "/workspace/x.png", expiresAfterMs: 42 })).toEqual({
      ok: true,
      url: "https://assets.test/agent-s9/x.png?expiresAfter=42&bytes=12",
    });
    expect(assets!.calls).toStrictEqual([{ path: "/workspace/x.png", options: { expiresAfter: 42, prefix: "agent-s9" } }]);
    stub[Symbol.dispose]();
  });

  it("no publisher on the Workspace: no publish from either client, and createPublishTool throws", async () => {
    const { agent, local } = await agentWithAssets(false);
    expect(createPiTools({ workspace: local }).tools.map((t) => t.name)).toEqual(SEVEN);
    const remote = await getWorkspace({ __getWorkspaceStub: () => agent.__getWorkspaceStub() });
    expect(remote.assets).toBeUndefined();
    expect(createPiTools({ workspace: remote }).tools.map((t) => t.name)).toEqual(SEVEN);
    expect(() => createPublishTool({ workspace: remote })).toThrow(new Error("createPublishTool: workspace.assets is not configured"));
    remote[Symbol.dispose]();
  });

  it("rejections that are not Errors, and an assets object with neither share nor publish", async () => {
    const tool = publishDefinition({ workspace: { assets: { share: () => Promise.reject("quota exceeded") }, sessionId: "s1" } });
    expect(await tool.execute({ path: "/workspace/x.png" })).toEqual({ ok: false, error: "quota exceeded" });
    expect(() => publishDefinition({ workspace: { assets: {} as never } })).toThrow(
      new TypeError("createPublishTool: workspace.assets must have share(path, options) (an AssetsClient from createAssets)"),
    );
  });
});
