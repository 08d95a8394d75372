/**
 * getWorkspace(): lazy loading, disposal, the local path inside the Durable
 * Object, and the backends snapshot (spec 01 §5.2).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace, Workspace, withWorkspace, WorkspaceStub } from "../../../src/index.js";
import { freshAgent, rejection } from "./helpers.js";

describe("lazy client", () => {
  it("forwards fs calls before being awaited; backends() is a frozen [] until loaded; assets undefined", async () => {
    const lazy = getWorkspace(freshAgent());
    expect(lazy.assets).toBeUndefined();
    const early = lazy.runtime.backends();
    expect(early).toEqual([]);
    expect(Object.isFrozen(early)).toBe(true);
    expect(lazy.runtime.backends()).toBe(early);
    expect((lazy.fs as unknown as { then?: unknown }).then).toBeUndefined();
    await lazy.fs.writeFile("/hello.txt", "hi");
    expect(await lazy.fs.readFile("/hello.txt", "utf8")).toBe("hi");
    const client = await lazy;
    const snapshot = client.runtime.backends();
    expect(snapshot).toEqual([]);
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(client.runtime.backends()).toBe(snapshot);
    expect(client.assets).toBeUndefined();
    lazy[Symbol.dispose]();
    await expect(lazy.fs.stat("/hello.txt")).rejects.toThrow("workspace client is disposed");
    await expect(Promise.resolve(lazy)).rejects.toThrow("workspace client is disposed");
  });

  it("a loaded remote client, once disposed, rejects with the documented error (not workerd's stub error)", async () => {
    const client = await getWorkspace(freshAgent());
    await client.fs.writeFile("/a.txt", "a");
    const fs = client.fs;
    client[Symbol.dispose]();
    await expect(fs.stat("/a.txt")).rejects.toThrow("workspace client is disposed");
    await expect(client.runtime.exec("export default 1")).rejects.toThrow("workspace client is disposed");
  });

  it("contacts nothing until used, and calls a function source again after a failed load", async () => {
    const agent = freshAgent();
    let calls = 0;
    const lazy = getWorkspace(() => {
      calls++;
      if (calls === 1) throw new Error("not yet");
      return agent;
    });
    expect(calls).toBe(0);
    await expect(lazy.fs.ls("/")).rejects.toThrow("not yet");
    expect(await lazy.fs.ls("/")).toEqual([]);
    await lazy.fs.ls("/");
    expect(calls).toBe(2);
  });

  it("rejects a source without a Workspace, saying what to do", async () => {
    await expect(Promise.resolve(getWorkspace({}))).rejects.toThrow(/withWorkspace/);
    expect(() => getWorkspace(undefined as never)).toThrow(TypeError);
  });
});

describe("local client and the mixin", () => {
  it("gives the owning Durable Object its own Workspace: client.fs === workspace.fs", async () => {
    const agent = freshAgent();
    await (await getWorkspace(agent)).fs.writeFile("/from-remote.txt", "remote");
    const result = await runInDurableObject(agent, async (instance) => {
      using ws = await getWorkspace(instance);
      const symbols = Object.getOwnPropertySymbols(instance);
      const workspace = (instance as unknown as Record<symbol, unknown>)[symbols.find((s) => (instance as unknown as Record<symbol, unknown>)[s] instanceof Workspace)!] as Workspace;
      const stub = await instance.__getWorkspaceStub();
      return {
        same: ws.fs === workspace.fs,
        text: await ws.fs.readFile("/from-remote.txt", "utf8"),
        hidden: Object.keys(instance).some((key) => (instance as unknown as Record<string, unknown>)[key] instanceof Workspace),
        stubIsStub: stub instanceof WorkspaceStub,
        frozen: Object.isFrozen(ws.runtime.backends()),
      };
    });
    expect(result).toEqual({ same: true, text: "remote", hidden: false, stubIsStub: true, frozen: true });
  });

  it("validates its arguments", () => {
    expect(() => withWorkspace(undefined as never, () => ({}) as never)).toThrow(/Base must be a class/);
    expect(() => withWorkspace(class {}, undefined as never)).toThrow(/options must be a function/);
  });

  it("disposing the remote client releases the stub; a new client works", async () => {
    const agent = freshAgent();
    {
      using ws = await getWorkspace(agent);
      await ws.fs.writeFile("/a", "1");
    }
    using again = await getWorkspace(env.CLIENT_AGENT.get(env.CLIENT_AGENT.idFromString(agent.id.toString())));
    expect(await again.fs.readFile("/a", "utf8")).toBe("1");
    const error = await rejection(again.runtime.exec("1 + 1"));
    expect(error.message).toMatch(/no execution backend configured/);
  });
});
