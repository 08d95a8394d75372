/**
 * Issue 17: `ContainerBackend` (spec 02 §7.1) in real workerd, its container
 * played by the local container host (a real `computerd` process per
 * container, container/local-host.mjs): connect stages and their errors,
 * adopt vs launch, `handleFetch` answers, the description per egress mode,
 * option checks, and commands with the sync bracket.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { Workspace } from "../../../src/index.js";
import {
  ContainerBackend,
  ContainerIgnoreMismatchError,
  ContainerTransportError,
  LocalWorkspaceContainerAPI,
  withWorkspaceContainer,
  type ContainerBackendOptions,
  type IWorkspaceContainerAPI,
} from "../../../src/backends/container/index.js";

const host = () => inject("containerHost");

type Storage = DurableObjectStorage;

/** A Durable Object-like class with the mixin, over real storage, pointed at the local host by env. */
class Holder extends withWorkspaceContainer(
  class {
    ctx: { id: { toString(): string }; storage: Storage };
    env: Record<string, unknown>;
    constructor(ctx: { id: { toString(): string }; storage: Storage }, env: Record<string, unknown>) {
      this.ctx = ctx;
      this.env = env;
    }
  },
) {}

function holder(state: DurableObjectState, name = crypto.randomUUID()): Holder {
  return new Holder({ id: { toString: () => name }, storage: state.storage }, { COMPUTER_CONTAINER_HOST: host() });
}

function backend(h: { getWorkspaceContainer(): IWorkspaceContainerAPI }, extra: Partial<ContainerBackendOptions> = {}): ContainerBackend {
  return new ContainerBackend({ container: () => h, workspace: { binding: "TEST_DO", id: "0".repeat(64) }, heartbeatIntervalMs: 0, connectTimeoutMs: 15_000, ...extra });
}

async function inObject<T>(fn: (state: DurableObjectState) => Promise<T>): Promise<T> {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), (_i, state) => fn(state));
}

const settle = async (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe("ContainerBackend", () => {
  it("connects through withWorkspaceContainer's local API, runs commands with the sync bracket", async () => {
    await inObject(async (state) => {
      const b = backend(holder(state), { ignore: ["**/node_modules"] });
      const ws = new Workspace({ storage: state.storage, backends: [b] });
      try {
        await ws.fs.mkdir("/workspace/app", { recursive: true });
        await ws.fs.writeFile("/workspace/app/in.txt", "from the Workspace\n");
        const r = await (await ws.runtime.exec("cat in.txt && echo made > out.txt && mkdir -p node_modules/x && basename \"$PWD\"", { cwd: "/workspace/app", encoding: "utf8" })).result();
        expect(r).toMatchObject({ exitCode: 0, stdout: "from the Workspace\napp\n", pushed: 2, pulled: 1 });
        expect(await ws.fs.readFile("/workspace/app/out.txt", "utf8")).toBe("made\n");
        await expect(ws.fs.stat("/workspace/app/node_modules")).rejects.toMatchObject({ code: "ENOENT" });
        expect(ws.runtime.backends()).toEqual([{ id: "container-shell", protocol: "command", callable: false, description: b.description }]);
      } finally {
        await ws.close();
      }
    });
  });

  it("start adopts a running container with the same launch spec, relaunches on another", async () => {
    await inObject(async (state) => {
      const h = holder(state);
      const api = h.getWorkspaceContainer();
      expect(api).toBeInstanceOf(LocalWorkspaceContainerAPI);
      expect(h.getWorkspaceContainer()).toBe(api);
      const spec = backend(h).launchSpec();
      expect(spec).toEqual({ name: "app", env: { PORT: "8080", MOUNT_POINT: "/workspace" }, enableInternet: false });
      const first = await api.start(spec);
      expect(first.outcome).toBe("launched");
      const again = await api.start(spec);
      expect(again).toEqual({ ...first, outcome: "adopted" });
      const other = await api.start({ ...spec, env: { ...spec.env, EXTRA: "1" } });
      expect(other.outcome).toBe("relaunched");
      expect(other.clientSecret).not.toBe(first.clientSecret);
      expect(await api.status()).toEqual({ running: true, runtimeId: other.runtimeId });
    });
  });

  it("handleFetch: 404 other paths, 400 without upgrade, 401 wrong bearer, 409 with no connect waiting", async () => {
    await inObject(async (state) => {
      const h = holder(state);
      const b = backend(h);
      const ws = new Workspace({ storage: state.storage, backends: [b] });
      try {
        const up = { Upgrade: "websocket" };
        expect((await b.handleFetch(new Request("http://computer.internal/other", { headers: up }))).status).toBe(404);
        expect((await b.handleFetch(new Request("http://computer.internal/api"))).status).toBe(400);
        expect((await b.handleFetch(new Request("http://computer.internal/api", { headers: up }))).status).toBe(401);
        await ws.runtime.ready("container-shell"); // a connect happened: the secret is known, nothing waits now
        expect((await b.handleFetch(new Request("http://computer.internal/api", { headers: { ...up, Authorization: "Bearer wrong" } }))).status).toBe(401);
        const adopted = await h.getWorkspaceContainer().start(b.launchSpec());
        expect(adopted.outcome).toBe("adopted");
        const secret = adopted.clientSecret;
        expect((await b.handleFetch(new Request("http://computer.internal/api", { headers: { ...up, Authorization: `Bearer ${secret}` } }))).status).toBe(409);
      } finally {
        await ws.close();
      }
    });
  });

  it("description names the egress mode", () => {
    const h = { getWorkspaceContainer: (): IWorkspaceContainerAPI => { throw new Error("unused"); } };
    const base =
      "Runs shell commands in a full Linux container that shares the workspace files under /workspace: npm, node, python, package managers, test runners and native binaries all work.";
    const slow = "It starts much more slowly than the in-Worker backends, so prefer them for quick work.";
    expect(backend(h).description).toBe(`${base} It has no network access. ${slow}`);
    expect(backend(h, { egress: { mode: "direct" } }).description).toBe(`${base} It has network access. ${slow}`);
    expect(backend(h, { egress: { mode: "http-gateway", gateway: { fetch: async () => new Response("") } as never } }).description).toBe(`${base} Outbound HTTP goes through a gateway the host controls. ${slow}`);
    const b = backend(h);
    expect([b.id, b.type, b.protocol, b.callable]).toEqual(["container-shell", "cloudflare-container", "command", false]);
  });

  it("option checks: ignore globs, numbers, egress, required fields", () => {
    const h = { getWorkspaceContainer: (): IWorkspaceContainerAPI => { throw new Error("unused"); } };
    expect(() => backend(h, { ignore: ["node_modules"] })).toThrow('new ContainerBackend({ ignore }): "node_modules" must start with "/" or "**/" (after an optional "!")');
    expect(() => backend(h, { ignore: ["**/a{b,c}"] })).toThrow('new ContainerBackend({ ignore }): "**/a{b,c}" uses one of {}[]?\\()|, which are not supported');
    expect(() => backend(h, { ignore: [`/${"a".repeat(4096)}`] })).toThrow("new ContainerBackend({ ignore }): a glob is 4097 characters; at most 4096");
    expect(() => backend(h, { ignore: ["!**/keep", "/workspace/x"] })).not.toThrow();
    expect(() => backend(h, { connectTimeoutMs: 0 })).toThrow("new ContainerBackend({ connectTimeoutMs }): connectTimeoutMs must be a positive integer, got 0");
    expect(() => backend(h, { egress: { mode: "open" } as never })).toThrow('new ContainerBackend({ egress }): egress.mode must be "none", "direct" or "http-gateway"');
    expect(() => new ContainerBackend({ workspace: { binding: "A", id: "x" } } as never)).toThrow("new ContainerBackend({ container }): container must be a function returning the holder (e.g. () => this)");
    expect(() => new ContainerBackend({ container: () => h, workspace: { binding: "", id: "x" } })).toThrow("new ContainerBackend({ workspace }): workspace must be { binding, id }");
    expect(backend(h, { containerPort: 9000, ignore: ["**/n"], containerEnv: { MOUNT_POINT: "/srv", A: "b" } }).launchSpec().env).toEqual({ PORT: "9000", MOUNT_POINT: "/srv", MOUNT_IGNORE: '["**/n"]', A: "b" });
  });

  describe("connect failures name their stage", () => {
    /** The real local API with one part broken. */
    class Broken extends LocalWorkspaceContainerAPI {
      readonly label: string;
      constructor(
        state: DurableObjectState,
        private readonly breaks: { start?: boolean; health?: boolean; auth?: boolean; connect?: boolean; restarts?: { n: number } },
        label = crypto.randomUUID(),
      ) {
        super({ hostUrl: host(), name: label, storage: state.storage });
        this.label = label;
      }
      override async start(spec: Parameters<LocalWorkspaceContainerAPI["start"]>[0]) {
        if (this.breaks.start) throw new Error("no capacity");
        return super.start(spec);
      }
      override async restart(spec: Parameters<LocalWorkspaceContainerAPI["start"]>[0]) {
        if (this.breaks.restarts) this.breaks.restarts.n++;
        return super.restart(spec);
      }
      override async fetchPort(port: number, request: Request): Promise<Response> {
        const path = new URL(request.url).pathname;
        if (this.breaks.health && path === "/health") return new Response("starting", { status: 503 });
        if (this.breaks.auth && path === "/api") return new Response("welcome", { status: 200 });
        return super.fetchPort(port, request);
      }
      override relay() {
        const real = super.relay();
        return this.breaks.connect ? { url: "ws://127.0.0.1:9/nowhere", open: real.open } : real;
      }
    }
    const failure = async (state: DurableObjectState, breaks: ConstructorParameters<typeof Broken>[1], extra: Partial<ContainerBackendOptions> = {}) => {
      const api = new Broken(state, breaks);
      const b = backend({ getWorkspaceContainer: () => api }, { healthRetryInitialDelayMs: 20, healthRetryMaxDelayMs: 40, connectTimeoutMs: 4000, ...extra });
      const ws = new Workspace({ storage: state.storage, backends: [b] });
      try {
        return (await settle(ws.runtime.ready("container-shell"))) as ContainerTransportError;
      } finally {
        await ws.close();
      }
    };

    it("start", async () => {
      await inObject(async (state) => {
        const e = await failure(state, { start: true });
        expect(e).toBeInstanceOf(ContainerTransportError);
        expect([e.stage, e.message]).toEqual(["start", "Container connect failed at start: no capacity"]);
      });
    });

    it("start: the local container host is not running", async () => {
      await inObject(async (state) => {
        const api = new LocalWorkspaceContainerAPI({ hostUrl: "http://127.0.0.1:9", name: "x", storage: state.storage });
        const b = backend({ getWorkspaceContainer: () => api });
        const ws = new Workspace({ storage: state.storage, backends: [b] });
        try {
          const e = (await settle(ws.runtime.ready("container-shell"))) as ContainerTransportError;
          expect(e.stage).toBe("start");
          expect(e.message).toMatch(
            /^Container connect failed at start: the local container host at http:\/\/127\.0\.0\.1:9 is unreachable \(.+\): start it with `node container\/local-host\.mjs --port <port>` and set COMPUTER_CONTAINER_HOST to its URL \(docs\/container\.md\)$/,
          );
        } finally {
          await ws.close();
        }
      });
    });

    it("health, after restartAttempts restarts", async () => {
      await inObject(async (state) => {
        const restarts = { n: 0 };
        const e = await failure(state, { health: true, restarts }, { restartAttempts: 2, connectTimeoutMs: 8000 });
        expect(e.stage).toBe("health");
        expect(e.message).toBe("Container connect failed at health: /health not healthy after 2 restart(s) within 8000 ms: HTTP 503");
        expect(restarts.n).toBe(2);
      });
    });

    it("auth: a daemon that lets an unauthenticated /api in is refused", async () => {
      await inObject(async (state) => {
        const e = await failure(state, { auth: true });
        expect([e.stage, e.message]).toEqual(["auth", "Container connect failed at auth: an unauthenticated GET /api answered HTTP 200, not 401: the daemon is not checking its secret"]);
      });
    });

    it("connect: the daemon cannot dial back", async () => {
      await inObject(async (state) => {
        const e = await failure(state, { connect: true });
        expect(e.stage).toBe("connect");
        expect(e.message).toMatch(/^Container connect failed at connect: POST \/connect answered HTTP 502: /);
      });
    });

    it("egress: http-gateway cannot be set up on the local host", async () => {
      await inObject(async (state) => {
        const e = await failure(state, {}, { egress: { mode: "http-gateway", gateway: { fetch: async () => new Response("") } as never } });
        expect([e.stage, e.message]).toEqual([
          "egress",
          `Container connect failed at egress: egress mode "http-gateway" needs the platform's outbound interception; the local container host cannot emulate it (use "none" or "direct" locally)`,
        ]);
      });
    });

    it("restart: a restart that itself fails", async () => {
      await inObject(async (state) => {
        class NoRestart extends Broken {
          override async restart(): Promise<never> {
            throw new Error("the platform refused the restart");
          }
        }
        const api = new NoRestart(state, { health: true });
        const b = backend({ getWorkspaceContainer: () => api }, { healthRetryInitialDelayMs: 20, healthRetryMaxDelayMs: 40, connectTimeoutMs: 3000 });
        const ws = new Workspace({ storage: state.storage, backends: [b] });
        try {
          const e = (await settle(ws.runtime.ready("container-shell"))) as ContainerTransportError;
          expect([e.stage, e.message]).toEqual(["restart", "Container connect failed at restart: the platform refused the restart"]);
        } finally {
          await ws.close();
        }
      });
    });

    it("ws: the daemon's WebSocket never reaches handleFetch", async () => {
      await inObject(async (state) => {
        // No relay: the daemon dials http://<egressHost>/api — here its own port, which accepts it — so /connect
        // succeeds, but nothing arrives through handleFetch.
        class NoRelay extends Broken {
          override relay = undefined as never;
        }
        const api = new NoRelay(state, {});
        const probe = backend({ getWorkspaceContainer: () => api });
        await api.start(probe.launchSpec());
        const status = (await (await fetch(`${host()}/containers/${api.label}`)).json()) as { port: number };
        const b = backend({ getWorkspaceContainer: () => api }, { egressHost: `127.0.0.1:${status.port}`, connectTimeoutMs: 3000 });
        const ws = new Workspace({ storage: state.storage, backends: [b] });
        try {
          const e = (await settle(ws.runtime.ready("container-shell"))) as ContainerTransportError;
          expect(e.stage).toBe("ws");
          expect(e.message).toMatch(/^Container connect failed at ws: waiting for the daemon's WebSocket timed out after \d+ ms$/);
        } finally {
          await ws.close();
        }
      });
    });

    it("ignore mismatch: containerEnv overriding MOUNT_IGNORE", async () => {
      await inObject(async (state) => {
        const e = await failure(state, {}, { ignore: ["**/node_modules"], containerEnv: { MOUNT_IGNORE: "[]" } });
        expect(e).toBeInstanceOf(ContainerIgnoreMismatchError);
        expect(e.message).toBe(
          `the container's daemon applies ignore [], not the configured ["**/node_modules"]: its MOUNT_IGNORE was overridden (containerEnv) or the image's daemon is too old`,
        );
      });
    });
  });
});
