/**
 * The Durable Object integration also loads on Node (no "cloudflare:workers"
 * there): withWorkspace/getWorkspace work locally over node:sqlite, and the
 * stubs fall back to a plain base class.
 */
import { describe, expect, it } from "vitest";
import { getWorkspace, nodeSqliteStorage, withWorkspace, WorkspaceStub } from "../../src/index.js";

describe("withWorkspace + getWorkspace on Node", () => {
  it("serves the local Workspace and a stub with the fs surface", async () => {
    class Host {
      readonly storage = nodeSqliteStorage(":memory:");
    }
    const Agent = withWorkspace(Host, (self) => ({ storage: self.storage, now: () => 42 }));
    const agent = new Agent();
    const ws = await getWorkspace(agent);
    await ws.fs.writeFile("/a.txt", "hello");
    expect(await ws.fs.readFile("/a.txt", "utf8")).toBe("hello");

    const stub = await agent.__getWorkspaceStub();
    expect(stub).toBeInstanceOf(WorkspaceStub);
    expect(await stub.fs.statOrNull("/a.txt")).toMatchObject({ size: 5, mtime: 42 });
    expect(await stub.fs.exists("/b.txt")).toBe(false);
    expect(stub.runtime.backends()).toEqual([]);
    expect(stub.hasAssets).toBe(false);
    expect(stub.assets).toBeUndefined();
    stub[Symbol.dispose]();
    expect(() => stub.fs).toThrow(/disposed/);
  });
});
