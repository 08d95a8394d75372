/**
 * probe18 (fresh-user probe), in real workerd: `WorkspaceServiceProxy` (docs/runtime.md) reached
 * through `ctx.exports` as the page shows, then given hostile props; and `ArtifactsCLITarget`
 * (docs/artifacts.md "Over RPC").
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ArtifactsCLITarget, Workspace, getWorkspace } from "../../../src/index.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

type Proxy = (o: { props: unknown }) => { __getWorkspaceStub(): Promise<unknown> };

async function withProxy<T>(fn: (proxy: Proxy) => Promise<T>): Promise<T> {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) =>
    fn((state as unknown as { exports: Record<string, Proxy> }).exports.WorkspaceServiceProxy),
  );
}

async function settle(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "(resolved)";
  } catch (e) {
    return (e as Error).message;
  }
}

describe("probe18 WorkspaceServiceProxy", () => {
  it("the docs' example: getWorkspace(host) then writeFile reaches the named object", async () => {
    const id = env.CLIENT_AGENT.newUniqueId();
    await withProxy(async (proxy) => {
      using workspace = await getWorkspace(proxy({ props: { binding: "CLIENT_AGENT", id: id.toString() } }) as never);
      await workspace.fs.mkdir("/workspace", { recursive: true });
      await workspace.fs.writeFile("/workspace/a.txt", "hi");
    });
    using direct = await getWorkspace(env.CLIENT_AGENT.get(id));
    expect(await direct.fs.readFile("/workspace/a.txt", "utf8")).toBe("hi");
  });

  it("a binding that is not a DO namespace (LOADER, TEST_DO's neighbour R2, __proto__, constructor) → the documented message", async () => {
    await withProxy(async (proxy) => {
      for (const binding of ["NOPE", "LOADER", "ASSETS_BUCKET", "__proto__", "constructor", "toString"]) {
        const msg = await settle(proxy({ props: { binding, id: "x" } }).__getWorkspaceStub());
        expect(msg, binding).toContain(`WorkspaceServiceProxy: env.${binding} is not a Durable Object namespace binding of this Worker`);
      }
    });
  });

  it("bad props (none, id not hex, empty id/name, wrong types) → a clear WorkspaceServiceProxy error, no hang", async () => {
    await withProxy(async (proxy) => {
      for (const props of [
        undefined,
        {},
        { binding: "CLIENT_AGENT" },
        { binding: "CLIENT_AGENT", id: "../x" },
        { binding: "CLIENT_AGENT", id: "" },
        { binding: "CLIENT_AGENT", name: "" },
        { binding: "CLIENT_AGENT", id: 42 },
        { binding: 7, id: "x" },
      ]) {
        const msg = await settle(proxy({ props }).__getWorkspaceStub());
        // the platform's own id check is clear too: "Invalid Durable Object ID: must be 64 hex digits"
        expect(msg, JSON.stringify(props)).toMatch(/WorkspaceServiceProxy|Invalid Durable Object ID/);
      }
    });
  });

  it("a DO namespace whose class is not built with withWorkspace → an error, not a hang", async () => {
    await withProxy(async (proxy) => {
      const msg = await settle(proxy({ props: { binding: "TEST_DO", name: "plain" } }).__getWorkspaceStub());
      expect(msg).not.toBe("(resolved)");
    });
  });
});

describe("probe18 ArtifactsCLITarget", () => {
  it("the docs' example: target.cli({ argv: ['repo', 'list'] }) → JSON on stdout, exit 0", async () => {
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage, sessionId: "alice", artifacts: { binding: new ArtifactsStandIn() } });
      await ws.artifacts.create("r1");
      const target = new ArtifactsCLITarget((input) => ws.artifacts.cli(input));
      const { stdout, exitCode } = await target.cli({ argv: ["repo", "list"] });
      expect(exitCode).toBe(0);
      expect((JSON.parse(stdout) as Array<{ name: string }>).map((r) => r.name)).toEqual(["r1"]);
      await ws.close();
    });
  });

  it("a non-function → TypeError at construction; garbage input never throws", async () => {
    expect(() => new ArtifactsCLITarget(undefined as never)).toThrow(/^new ArtifactsCLITarget\(cli\): cli must be a function/);
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({ storage: state.storage });
      const target = new ArtifactsCLITarget((input) => ws.artifacts.cli(input));
      for (const input of [null, { argv: "x" }, { argv: [1, null] }]) {
        // runArtifactsCLI never throws; the RPC wrapper refuses a bad input with a clear TypeError instead
        const r = await target.cli(input as never).catch((e: unknown) => ({ threw: String(e) }));
        if ("threw" in r) expect(r.threw).toMatch(/^TypeError: ArtifactsCLITarget\.cli\(input\): input\.argv must be an array of strings/);
        else expect(r).toHaveProperty("exitCode");
      }
      await ws.close();
    });
  });
});
