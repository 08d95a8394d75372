/**
 * `WorkspaceServiceProxy` (spec 01 §7, spec 02 §6) in real workerd: the test
 * Worker's main module re-exports it as a 0.8.0 Worker entry does
 * (`export { WorkspaceServiceProxy } from "<pkg>"`), and
 * `ctx.exports.WorkspaceServiceProxy({ props })` reaches the Workspace of the
 * Durable Object the props name — by id or by name — as a `getWorkspace()` source.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace, type WorkspaceServiceProxyProps } from "../../../src/index.js";

type ProxyFactory = (options: { props: Partial<WorkspaceServiceProxyProps> }) => { __getWorkspaceStub(): Promise<unknown> };

/** Runs `fn` in a fresh test object with its `ctx.exports.WorkspaceServiceProxy`. */
async function withProxy<T>(fn: (proxy: ProxyFactory) => Promise<T>): Promise<T> {
  const host = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(host, async (_instance, state) => {
    const exports = (state as unknown as { exports: Record<string, unknown> }).exports;
    expect(typeof exports.WorkspaceServiceProxy).toBe("function");
    return fn(exports.WorkspaceServiceProxy as ProxyFactory);
  });
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("did not reject");
}

describe("WorkspaceServiceProxy through ctx.exports", () => {
  it("by id: getWorkspace(proxy) is a client of that object's Workspace", async () => {
    const id = env.CLIENT_AGENT.newUniqueId();
    await withProxy(async (proxy) => {
      using ws = await getWorkspace(proxy({ props: { binding: "CLIENT_AGENT", id: id.toString() } }));
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/through-proxy.txt", "via the service proxy");
    });
    // The object itself holds the file.
    using direct = await getWorkspace(env.CLIENT_AGENT.get(id));
    expect(await direct.fs.readFile("/workspace/through-proxy.txt", "utf8")).toBe("via the service proxy");
  });

  it("by name (no id): the object idFromName gives", async () => {
    const name = `svc-proxy-${crypto.randomUUID()}`;
    using direct = await getWorkspace(env.CLIENT_AGENT.get(env.CLIENT_AGENT.idFromName(name)));
    await direct.fs.writeFile("/named.txt", "named object");
    const read = await withProxy(async (proxy) => {
      using ws = await getWorkspace(proxy({ props: { binding: "CLIENT_AGENT", name } }));
      return ws.fs.readFile("/named.txt", "utf8");
    });
    expect(read).toBe("named object");
  });

  it("props that name no object: clear errors", async () => {
    await withProxy(async (proxy) => {
      expect(await rejection(proxy({ props: { binding: "NOPE", id: "x" } }).__getWorkspaceStub())).toContain(
        "WorkspaceServiceProxy: env.NOPE is not a Durable Object namespace binding of this Worker",
      );
      expect(await rejection(proxy({ props: { binding: "CLIENT_AGENT" } }).__getWorkspaceStub())).toContain(
        "WorkspaceServiceProxy: props need the object's id (ctx.id.toString()) or name",
      );
      expect(await rejection(proxy({ props: { binding: "" } }).__getWorkspaceStub())).toContain("WorkspaceServiceProxy: props.binding must name a Durable Object namespace binding");
      expect(await rejection(proxy({ props: { binding: "LOADER", id: "x" } }).__getWorkspaceStub())).toContain(
        "WorkspaceServiceProxy: env.LOADER is not a Durable Object namespace binding of this Worker",
      );
    });
  });
});
