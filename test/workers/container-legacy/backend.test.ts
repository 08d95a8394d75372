/**
 * Issue 18: `LegacyContainerBackend` (spec 02 §7.2) in real workerd. Two
 * Durable Objects of the test Worker (agent.ts): `LegacyWorkspaceAgent` owns
 * the Workspace and runs the backend; `LegacySandbox`, mixed with
 * `withLegacyWorkspaceContainer`, is the separate container object, reached
 * over Workers RPC. Its container is a real `computerd` process of the local
 * container host (container/local-host.mjs, `inject("containerHost")`); the
 * daemon's dial-back goes from the sandbox object through
 * `ctx.exports.WorkspaceProxy` to the agent's `fetch` and the backend's
 * `handleFetch`, where the platform's interception would send it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { Workspace } from "../../../src/index.js";
import { ContainerTransportError } from "../../../src/backends/container/index.js";
import {
  LegacyContainerBackend,
  LegacyWorkspaceContainerAPI,
  withLegacyWorkspaceContainer,
  type ILegacyWorkspaceContainerAPI,
  type LegacyContainerBackendOptions,
} from "../../../src/backends/container-legacy/index.js";
import { selectBackends } from "../../../src/tools/core/exec-backends.js";
import type { LegacyWorkspaceAgent } from "./agent.js";

const host = () => inject("containerHost");

/** The sandbox object named `name` (its id names its local container), pointed at the local host unless `local` is false. */
async function sandbox(name: string, local = true) {
  const stub = env.LEGACY_SANDBOX.get(env.LEGACY_SANDBOX.idFromName(name));
  if (local) await stub.useHost(host());
  return stub;
}

/** The local container's directory name: the sandbox object's id. */
const containerName = (name: string) => env.LEGACY_SANDBOX.idFromName(name).toString();

/** A file in the sandbox's container, read through the local host's files API (`null` when missing). */
async function containerText(name: string, path: string): Promise<string | null> {
  const r = await fetch(`${host()}/containers/${containerName(name)}/files?path=${encodeURIComponent(path)}`);
  if (r.status === 404) {
    await r.body?.cancel();
    return null;
  }
  if (!r.ok) throw new Error(`files ${path}: HTTP ${r.status} ${await r.text()}`);
  return new TextDecoder().decode(await r.arrayBuffer());
}

/** Runs `fn` in a fresh `LegacyWorkspaceAgent`, with a backend on the sandbox `name` installed as its `fetch`'s target. */
async function inAgent<T>(
  name: string,
  fn: (ctx: { agent: LegacyWorkspaceAgent; state: DurableObjectState; backend: LegacyContainerBackend }) => Promise<T>,
  extra: Partial<LegacyContainerBackendOptions> & { install?: boolean; local?: boolean } = {},
): Promise<T> {
  const { install = true, local = true, ...options } = extra;
  const stub = env.LEGACY_AGENT.get(env.LEGACY_AGENT.newUniqueId());
  return runInDurableObject(stub, async (agent: LegacyWorkspaceAgent, state) => {
    await sandbox(name, local);
    const backend = new LegacyContainerBackend({
      container: () => env.LEGACY_SANDBOX.get(env.LEGACY_SANDBOX.idFromName(name)),
      workspace: { binding: "LEGACY_AGENT", id: state.id.toString() },
      heartbeatIntervalMs: 0,
      connectTimeoutMs: 15_000,
      ...options,
    });
    if (install) agent.backend = backend;
    return fn({ agent, state, backend });
  });
}

const settle = async (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe("LegacyContainerBackend", () => {
  it("runs commands in the sandbox object's container, syncing both ways", async () => {
    const name = `sync-${crypto.randomUUID()}`;
    await inAgent(name, async ({ state, backend }) => {
      const ws = new Workspace({ storage: state.storage, backends: [backend] });
      try {
        await ws.fs.mkdir("/workspace/app", { recursive: true });
        await ws.fs.writeFile("/workspace/app/in.txt", "from the Workspace\n");
        await ws.fs.writeFile("/workspace/app/old.txt", "to be removed\n");
        const first = await (await ws.runtime.exec("cat in.txt && echo made > out.txt && rm old.txt && basename \"$PWD\"", { cwd: "/workspace/app", encoding: "utf8" })).result();
        expect(first).toMatchObject({ exitCode: 0, stdout: "from the Workspace\napp\n", stderr: "" });
        // pushed: /workspace/app, in.txt, old.txt; pulled: out.txt created, old.txt removed
        expect(first).toMatchObject({ pushed: 3, pulled: 2 });
        expect(await ws.fs.readFile("/workspace/app/out.txt", "utf8")).toBe("made\n");
        await expect(ws.fs.stat("/workspace/app/old.txt")).rejects.toMatchObject({ code: "ENOENT" });
        expect(await containerText(name, "app/in.txt")).toBe("from the Workspace\n");
        expect(await containerText(name, "app/old.txt")).toBeNull();

        // A Workspace edit reaches the container before the next command; the command's edit comes back.
        await ws.fs.writeFile("/workspace/app/in.txt", "edited in the Workspace\n");
        const second = await (await ws.runtime.exec("cat in.txt && printf 'again\\n' >> out.txt", { cwd: "/workspace/app", encoding: "utf8" })).result();
        expect(second).toMatchObject({ exitCode: 0, stdout: "edited in the Workspace\n", pushed: 1, pulled: 1 });
        expect(await ws.fs.readFile("/workspace/app/out.txt", "utf8")).toBe("made\nagain\n");
        expect(await containerText(name, "app/out.txt")).toBe("made\nagain\n");

        const failed = await (await ws.runtime.exec("echo oops >&2; exit 3", { encoding: "utf8" })).result();
        expect(failed).toMatchObject({ exitCode: 3, stdout: "", stderr: "oops\n" });
      } finally {
        await ws.close();
      }
    });
  });

  it("has no description: runtime.backends() lists none and the exec tool gives the generic line", async () => {
    await inAgent(`desc-${crypto.randomUUID()}`, async ({ state, backend }) => {
      expect("description" in backend).toBe(false);
      expect(backend).toMatchObject({ id: "container-shell", type: "cloudflare-container", protocol: "command", callable: false });
      const ws = new Workspace({ storage: state.storage, backends: [backend] });
      try {
        expect(ws.runtime.backends()).toStrictEqual([{ id: "container-shell", protocol: "command", callable: false }]);
        expect(selectBackends(ws.runtime, undefined).texts.get("container-shell")).toBe("Runs shell commands.");
      } finally {
        await ws.close();
      }
    });
  });

  it("the daemon's dial-back reaches the Workspace's object through WorkspaceProxy, at egressHost", async () => {
    const name = `egress-${crypto.randomUUID()}`;
    await inAgent(
      name,
      async ({ agent, state, backend }) => {
        const ws = new Workspace({ storage: state.storage, backends: [backend] });
        try {
          expect(agent.seen).toEqual([]);
          const r = await (await ws.runtime.exec("echo hi", { encoding: "utf8" })).result();
          expect(r).toMatchObject({ exitCode: 0, stdout: "hi\n" });
          // One request reached the agent's fetch: the daemon's WebSocket upgrade, with its bearer, accepted.
          expect(agent.seen).toEqual([{ url: "http://dialback.example/api", upgrade: "websocket", authorized: true, status: 101 }]);
        } finally {
          await ws.close();
        }
      },
      { egressHost: "dialback.example" },
    );
  });

  it("a Workspace object whose fetch does not hand requests to the backend fails the connect stage", async () => {
    await inAgent(
      `nowire-${crypto.randomUUID()}`,
      async ({ agent, backend }) => {
        const error = await settle(backend.connect({} as never));
        expect(error).toBeInstanceOf(ContainerTransportError);
        expect(error).toMatchObject({ stage: "connect", message: "Container connect failed at connect: the daemon's session was refused: HTTP 503" });
        expect(agent.seen).toEqual([{ url: "http://computer.internal/api", upgrade: "websocket", authorized: true, status: 503 }]);
      },
      { install: false },
    );
  });

  it("a workspace ref naming no Durable Object binding fails the connect stage with WorkspaceProxy's 500", async () => {
    await inAgent(
      `badref-${crypto.randomUUID()}`,
      async ({ agent, backend }) => {
        const error = await settle(backend.connect({} as never));
        expect(error).toMatchObject({ name: "ContainerTransportError", stage: "connect", message: "Container connect failed at connect: the daemon's session was refused: HTTP 500" });
        expect(agent.seen).toEqual([]);
      },
      { workspace: { binding: "NO_SUCH_BINDING", id: "0".repeat(64) } },
    );
  });

  it("a container object without a container or a local host fails the start stage, saying what to configure", async () => {
    await inAgent(
      `nohost-${crypto.randomUUID()}`,
      async ({ backend }) => {
        const error = await settle(backend.connect({} as never));
        expect(error).toBeInstanceOf(ContainerTransportError);
        expect((error as ContainerTransportError).stage).toBe("start");
        expect((error as Error).message).toContain("Container connect failed at start: this container Durable Object has no container (ctx.container): give its class a containers entry in wrangler config, or, for local development without Docker, set COMPUTER_CONTAINER_HOST");
      },
      { local: false },
    );
  });

  it("egress http-gateway is refused locally at the egress stage", async () => {
    await inAgent(
      `gw-${crypto.randomUUID()}`,
      async ({ backend }) => {
        const error = await settle(backend.connect({} as never));
        expect(error).toMatchObject({ stage: "egress" });
        expect((error as Error).message).toContain('Container connect failed at egress: egress mode "http-gateway" needs the platform\'s outbound interception');
      },
      { egress: { mode: "http-gateway", gateway: { fetch: async () => new Response("no") } as unknown as Fetcher } },
    );
  });

  it("a second Workspace object adopts the running container (same launch spec) and sees its files", async () => {
    const name = `adopt-${crypto.randomUUID()}`;
    const api = (await sandbox(name)).getWorkspaceContainer();
    const b = new LegacyContainerBackend({ container: () => ({ getWorkspaceContainer: () => api as never }), workspace: { binding: "LEGACY_AGENT", id: "0".repeat(64) } });
    const first = await api.start(b.launchSpec());
    expect(first.outcome).toBe("launched");
    expect(await api.status()).toEqual({ running: true, runtimeId: first.runtimeId });
    const again = await api.start(b.launchSpec());
    expect(again).toEqual({ ...first, outcome: "adopted" });
    const other = await api.start({ ...b.launchSpec(), env: { ...b.launchSpec().env, EXTRA: "1" } });
    expect(other.outcome).toBe("relaunched");
    expect(other.runtimeId).not.toBe(first.runtimeId);
    await inAgent(name, async ({ state, backend }) => {
      const ws = new Workspace({ storage: state.storage, backends: [backend] });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        expect(await (await ws.runtime.exec("echo kept > kept.txt", { encoding: "utf8" })).result()).toMatchObject({ exitCode: 0 });
      } finally {
        await ws.close();
      }
    });
    const runtimeAfterFirst = (await api.status()).runtimeId;
    await inAgent(name, async ({ state, backend }) => {
      const ws = new Workspace({ storage: state.storage, backends: [backend] });
      try {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const r = await (await ws.runtime.exec("cat kept.txt", { encoding: "utf8" })).result();
        expect(r).toMatchObject({ exitCode: 0, stdout: "kept\n" });
        expect(await ws.fs.readFile("/workspace/kept.txt", "utf8")).toBe("kept\n");
      } finally {
        await ws.close();
      }
    });
    expect((await api.status()).runtimeId).toBe(runtimeAfterFirst);
  });

  it("forwardRelay refuses a relay it did not hand out, and one before any interception", async () => {
    const api = await (await sandbox(`relay-${crypto.randomUUID()}`)).getWorkspaceContainer();
    expect(await settle(api.forwardRelay("ws://127.0.0.1:1/relay/forged"))).toMatchObject({
      message: 'forwardRelay: "ws://127.0.0.1:1/relay/forged" is not a relay this container object handed out (call relayUrl() first; each is forwarded once)',
    });
    const url = await api.relayUrl();
    expect(url).toMatch(new RegExp(`^${host().replace(/^http/, "ws")}/relay/[0-9a-f-]{36}$`));
    expect(await settle(api.forwardRelay(url!))).toMatchObject({ message: "forwardRelay: nothing routes the egress host yet: call interceptOutboundHttp(egressHost, workspace) first" });
    // handed out once: the refused attempt used it up
    expect(await settle(api.forwardRelay(url!))).toMatchObject({ message: expect.stringContaining("is not a relay this container object handed out") });
  });
});

describe("LegacyContainerBackend options", () => {
  const container = () => ({ getWorkspaceContainer: (): ILegacyWorkspaceContainerAPI => { throw new Error("unused"); } });
  const workspace = { binding: "LEGACY_AGENT", id: "0".repeat(64) };
  const make = (o: Record<string, unknown>) => () => new LegacyContainerBackend({ container, workspace, ...o } as LegacyContainerBackendOptions);

  it("defaults: id container-shell, launch spec with PORT 8080 and MOUNT_POINT /workspace, no internet", () => {
    const b = new LegacyContainerBackend({ container, workspace });
    expect(b.id).toBe("container-shell");
    expect(b.launchSpec()).toEqual({ name: "app", env: { PORT: "8080", MOUNT_POINT: "/workspace" }, enableInternet: false });
    const custom = new LegacyContainerBackend({ container, workspace, id: "legacy", containerPort: 9000, containerEnv: { PORT: "9001", FOO: "bar" }, egress: { mode: "direct" } });
    expect(custom.id).toBe("legacy");
    expect(custom.launchSpec()).toEqual({ name: "app", env: { PORT: "9001", MOUNT_POINT: "/workspace", FOO: "bar" }, enableInternet: true });
  });

  it("rejects bad options with messages that say what to pass", () => {
    expect(() => new LegacyContainerBackend(undefined as never)).toThrow("new LegacyContainerBackend(options): options must be an object");
    expect(make({ container: undefined })).toThrow("new LegacyContainerBackend({ container }): container must be a function returning the container object (e.g. () => env.SANDBOX.get(id))");
    expect(make({ workspace: { binding: "X" } })).toThrow(
      "new LegacyContainerBackend({ workspace }): workspace must be { binding, id } (the Durable Object namespace binding's name and the id of the object that owns the Workspace)",
    );
    expect(make({ egress: { mode: "open" } })).toThrow('new LegacyContainerBackend({ egress }): egress.mode must be "none", "direct" or "http-gateway"');
    expect(make({ egress: { mode: "http-gateway" } })).toThrow('new LegacyContainerBackend({ egress }): { mode: "http-gateway" } needs gateway, a Fetcher (e.g. a service binding) that decides on each request');
    expect(make({ containerPort: 0 })).toThrow("new LegacyContainerBackend({ containerPort }): containerPort must be a positive integer, got 0");
    expect(make({ connectTimeoutMs: 1.5 })).toThrow("new LegacyContainerBackend({ connectTimeoutMs }): connectTimeoutMs must be a positive integer, got 1.5");
    expect(make({ heartbeatIntervalMs: -1 })).toThrow("new LegacyContainerBackend({ heartbeatIntervalMs }): heartbeatIntervalMs must be a non-negative integer, got -1");
    expect(make({ restartAttempts: "2" })).toThrow("new LegacyContainerBackend({ restartAttempts }): restartAttempts must be a non-negative integer, got 2");
    expect(make({ healthProbeTimeoutMs: 0 })).toThrow("new LegacyContainerBackend({ healthProbeTimeoutMs }): healthProbeTimeoutMs must be a positive integer, got 0");
    expect(make({ healthRetryInitialDelayMs: Number.NaN })).toThrow("new LegacyContainerBackend({ healthRetryInitialDelayMs }): healthRetryInitialDelayMs must be a positive integer, got NaN");
    expect(make({ healthRetryMaxDelayMs: 2 ** 60 })).toThrow(`new LegacyContainerBackend({ healthRetryMaxDelayMs }): healthRetryMaxDelayMs must be a positive integer, got ${2 ** 60}`);
    expect(make({ egressHost: "bad host/" })).toThrow('new LegacyContainerBackend({ egressHost }): egressHost must be a host name (letters, digits, "." and "-"), optionally with ":<port>", got "bad host/"');
    expect(make({ containerEnv: { N: 1 } })).toThrow("new LegacyContainerBackend({ containerEnv }): containerEnv must be an object of string values");
    expect(make({ id: "" })).toThrow('new LegacyContainerBackend({ id }): id must be a non-empty string, got ""');
  });

  it("refuses ContainerBackend-only options, naming where that choice lives", () => {
    expect(make({ ignore: ["**/node_modules"] })).toThrow("new LegacyContainerBackend({ ignore }): not an option of LegacyContainerBackend: the legacy backend syncs everything under /workspace; use ContainerBackend for ignore globs");
    expect(make({ name: "app" })).toThrow("new LegacyContainerBackend({ name }): not an option of LegacyContainerBackend: the container object's wrangler containers entry chooses the image");
    expect(make({ instance: "standard-2" })).toThrow("new LegacyContainerBackend({ instance }): not an option of LegacyContainerBackend: the container object's wrangler containers entry chooses the instance type");
    expect(make({ launch: {} })).toThrow("new LegacyContainerBackend({ launch }): not an option of LegacyContainerBackend: the container object's wrangler containers entry chooses how the container starts");
  });

  it("withLegacyWorkspaceContainer memoises one LegacyWorkspaceContainerAPI per object", async () => {
    await runInDurableObject(env.LEGACY_SANDBOX.get(env.LEGACY_SANDBOX.newUniqueId()), async (instance) => {
      await instance.useHost(host());
      const api = instance.getWorkspaceContainer();
      expect(api).toBeInstanceOf(LegacyWorkspaceContainerAPI);
      expect(instance.getWorkspaceContainer()).toBe(api);
    });
    class Bare extends withLegacyWorkspaceContainer(class {
      ctx = { id: { toString: () => "bare" }, storage: { get: async () => undefined, put: async () => {} } };
      env = {};
    }) {}
    expect(() => new Bare().getWorkspaceContainer()).toThrow("this container Durable Object has no container (ctx.container)");
  });
});
