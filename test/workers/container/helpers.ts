/**
 * Issue 17 tests: a `computerd` daemon started as a local process by the
 * local container host (container/local-host.mjs, `inject("containerHost")`),
 * reached from a Durable Object in workerd through `TestBackend`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { inject } from "vitest";
import { Workspace, type WorkspaceOptions } from "../../../src/index.js";
import { TestBackend } from "../../../src/backends/test-backend.js";

/** A daemon of the local host: its URL, secret, and its files as the tests see them. */
export interface LocalContainer {
  name: string;
  url: string;
  secret: string;
  /** Bytes of a file under the mount point (`null` when missing). */
  file(path: string): Promise<Uint8Array | null>;
  /** Text of a file under the mount point (`null` when missing). */
  text(path: string): Promise<string | null>;
  /** Everything under the mount point: path → `{ kind, size, mode, target? }`. */
  tree(): Promise<Map<string, { kind: string; size: number; mode: number; target?: string }>>;
  /** Writes a file under the mount point directly (as if a process in the container had). */
  put(path: string, data: string | Uint8Array, mode?: number): Promise<void>;
  /** Stops the daemon (SIGKILL or SIGTERM). */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** Starts it again with the same settings (a new boot id). */
  restart(): Promise<void>;
}

const host = (): string => inject("containerHost");

async function call(path: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(`${host()}${path}`, init);
  if (!response.ok && response.status !== 404) throw new Error(`${init?.method ?? "GET"} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

/** Starts a fresh daemon (own directory, own secret); `env` goes to the daemon (e.g. `MOUNT_IGNORE`). */
export async function startContainer(extraEnv: Record<string, string> = {}): Promise<LocalContainer> {
  const name = `c-${crypto.randomUUID().slice(0, 12)}`;
  const secret = crypto.randomUUID();
  const start = async () => (await (await call(`/containers/${name}/start`, { method: "POST", body: JSON.stringify({ env: { COMPUTERD_SECRET: secret, ...extraEnv } }) })).json()) as { url: string };
  const { url } = await start();
  const q = (path: string) => `/containers/${name}/files?path=${encodeURIComponent(path)}`;
  const container: LocalContainer = {
    name,
    url,
    secret,
    async file(path) {
      const r = await call(q(path));
      if (r.status === 404) {
        await r.body?.cancel();
        return null;
      }
      return new Uint8Array(await r.arrayBuffer());
    },
    async text(path) {
      const bytes = await container.file(path);
      return bytes === null ? null : new TextDecoder().decode(bytes);
    },
    async tree() {
      const list = (await (await call(`/containers/${name}/tree`)).json()) as { path: string; kind: string; size: number; mode: number; target?: string }[];
      return new Map(list.map(({ path, ...rest }) => [path, rest]));
    },
    async put(path, data, mode) {
      await (await call(`${q(path)}${mode === undefined ? "" : `&mode=${mode.toString(8)}`}`, { method: "PUT", body: data })).body?.cancel();
    },
    async stop(signal = "SIGKILL") {
      await (await call(`/containers/${name}/stop`, { method: "POST", body: JSON.stringify({ signal }) })).body?.cancel();
    },
    async restart() {
      await (await call(`/containers/${name}/restart`, { method: "POST", body: "{}" })).body?.cancel();
    },
  };
  return container;
}

/** Runs `fn` in a fresh Durable Object whose Workspace has a `TestBackend` on `container` (id `"box"`). */
export async function inWorkspace<T>(container: LocalContainer, fn: (ws: Workspace) => Promise<T>, extra: Partial<WorkspaceOptions> = {}): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new TestBackend({ url: container.url, secret: container.secret, id: "box" })], ...extra });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

/** Runs a command on the container backend; its result with text output. */
export async function sh(ws: Workspace, command: string, options: { cwd?: string; sync?: "defer" } = {}) {
  return (await ws.runtime.exec(command, { backend: "box", encoding: "utf8", timeoutMs: 60_000, ...options })).result();
}

/** All progress records of a push or pull. */
export async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const p of it) out.push(p);
  return out;
}
