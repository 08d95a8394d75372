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
  /** Removes a file or directory (with its contents) under the mount point directly. */
  remove(path: string): Promise<void>;
  /** Stops the daemon (SIGKILL or SIGTERM). */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** Starts it again with the same settings (a new boot id, a new port: `url` is updated). */
  restart(): Promise<void>;
  /**
   * Relaunches it on a fresh disk: an empty mount point of its own (`MOUNT_POINT` another directory, so another disk id,
   * container/lib/disk.mjs) — a new boot id, a new port (`url` is updated); `tree`, `file`, … then see the new one.
   */
  relaunchOnFreshDisk(): Promise<void>;
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
  let disks = 0;
  const start = async (env: Record<string, string> = {}) =>
    (await (await call(`/containers/${name}/start`, { method: "POST", body: JSON.stringify({ env: { COMPUTERD_SECRET: secret, ...extraEnv, ...env } }) })).json()) as { url: string };
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
    async remove(path) {
      await (await call(q(path), { method: "DELETE" })).body?.cancel();
    },
    async stop(signal = "SIGKILL") {
      await (await call(`/containers/${name}/stop`, { method: "POST", body: JSON.stringify({ signal }) })).body?.cancel();
    },
    async restart() {
      // A relaunched daemon listens on a new port: the container's url follows it.
      const { url: next } = (await (await call(`/containers/${name}/restart`, { method: "POST", body: "{}" })).json()) as { url: string };
      container.url = next;
    },
    async relaunchOnFreshDisk() {
      container.url = (await start({ MOUNT_POINT: `disk-${++disks}` })).url;
    },
  };
  return container;
}

/**
 * Runs `fn` in a fresh Durable Object whose Workspace has a `TestBackend` on `container` (id `"box"`).
 * `reopen()` closes that Workspace and returns a new one over the same storage, its backend at
 * the container's current `url` (after {@link LocalContainer.restart}) — as a restarted object would.
 */
export async function inWorkspace<T>(
  container: LocalContainer,
  fn: (ws: Workspace, reopen: () => Promise<Workspace>) => Promise<T>,
  extra: Partial<WorkspaceOptions> = {},
): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => {
    const open = () => new Workspace({ storage: state.storage, backends: [new TestBackend({ url: container.url, secret: container.secret, id: "box" })], ...extra });
    let ws = open();
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      return await fn(ws, async () => {
        await ws.close();
        ws = open();
        return ws;
      });
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

/** All bytes of a Workspace file. */
export async function bytesOf(ws: Workspace, path: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response((await ws.fs.readFile(path)) as ReadableStream<Uint8Array>).arrayBuffer());
}

/** Lower-case hex SHA-256 of a byte stream (streamed: workerd's `crypto.DigestStream`). */
export async function sha256Hex(stream: ReadableStream<Uint8Array>): Promise<string> {
  const digest = new (crypto as unknown as { DigestStream: new (algorithm: string) => WritableStream<Uint8Array> & { digest: Promise<ArrayBuffer> } }).DigestStream("SHA-256");
  await stream.pipeTo(digest);
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * `size` deterministic bytes (xorshift from `seed`, so a misplaced piece shows) as a stream of
 * 256 KiB chunks — memory does not grow with `size`.
 */
export function patternStream(size: number, seed: number): ReadableStream<Uint8Array> {
  let x = seed >>> 0 || 1;
  let left = size;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const n = Math.min(left, 256 * 1024);
      const chunk = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        chunk[i] = x & 0xff;
      }
      left -= n;
      controller.enqueue(chunk);
      if (left === 0) controller.close();
    },
  });
}

/**
 * A shell snippet that waits until `<path>` exists in the container (relative to the command's
 * cwd); the test creates it through the host's files API ({@link LocalContainer.put}) once it
 * has done what must happen while the command runs — no timing involved.
 */
export const waitFor = (path: string): string => `while [ ! -e '${path}' ]; do sleep 0.02; done`;

/** The Workspace tree under `root`: path (relative) → `{ kind, mode, content | target }`, directories without content. */
export async function workspaceTree(ws: Workspace, root = "/workspace"): Promise<Map<string, { kind: string; mode: number; text?: string; target?: string }>> {
  const out = new Map<string, { kind: string; mode: number; text?: string; target?: string }>();
  for (const entry of await ws.fs.find(root)) {
    const rel = entry.path.slice(root.length + 1);
    const st = await ws.fs.lstat(entry.path);
    if (st.isSymbolicLink) out.set(rel, { kind: "symlink", mode: 0o777, target: await ws.fs.readlink(entry.path) });
    else if (st.isDirectory) out.set(rel, { kind: "directory", mode: st.mode });
    else out.set(rel, { kind: "file", mode: st.mode, text: await ws.fs.readFile(entry.path, "utf8") });
  }
  return out;
}

/** The container tree in the shape of {@link workspaceTree} (file contents read through the host's files API). */
export async function containerTree(c: LocalContainer): Promise<Map<string, { kind: string; mode: number; text?: string; target?: string }>> {
  const out = new Map<string, { kind: string; mode: number; text?: string; target?: string }>();
  for (const [path, e] of await c.tree()) {
    if (e.kind === "symlink") out.set(path, { kind: "symlink", mode: 0o777, target: e.target! });
    else if (e.kind === "directory") out.set(path, { kind: "directory", mode: e.mode });
    else out.set(path, { kind: "file", mode: e.mode, text: (await c.text(path))! });
  }
  return out;
}
