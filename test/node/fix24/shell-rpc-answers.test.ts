/**
 * Fixer FC2, issue 20 run 24 (attack24c, "data crossing Workers RPC unmeasured"): siblings of the shell's RPC
 * fixes, on Node with the real host target and the real adapter.
 *
 * - The shell host's answers (`ShellHostTarget`, src/backends/worker-shell/backend.ts), reached through an
 *   external runtime that calls them directly: `readBytes` answers bytes up to 16 MiB and a stream past it (all the
 *   bytes, in order; past `maxBytes` the stream ends after the chunk that passed it); `listWithContents` drops
 *   `parentPath`, keeps no contents with `{ contents: false }` and answers a listing past 16 MiB as JSON lines;
 *   `appendBytes` takes a stream; `readFile(…, "utf8")` and `readdir` past 30 MiB reject E2BIG with advice
 *   (`checkFsRpcResult`), as the filesystem stub's do; `artifacts` past 30 MiB rejects E2BIG.
 * - The adapter (`WorkspaceFsAdapter`): a stream answer of `readBytes` read whole or refused EFBIG past
 *   `maxReadBytes`; `writeFile`/`appendFile` past 16 MiB hand the Workspace a stream; workerd's uncoded size error
 *   becomes EFBIG (reads, writes) or EIO (listings) with its text, never a bare error just-bash calls ENOENT.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerShellBackend, WorkspaceFsAdapter } from "../../../src/backends/worker-shell/index.js";
import type { WorkspaceFsAdapterListing } from "../../../src/backends/worker-shell/fs-adapter.js";
import type { ShellHost } from "../../../src/backends/worker-shell/types.js";
import type { Artifacts, ArtifactsRepoListResult } from "../../../src/artifacts/types.js";
import type { WorkspaceFilesystem } from "../../../src/fs/types.js";
import { readJsonLines } from "../../../src/util/rpc-bytes.js";
import { memoryStorages } from "../tools/helpers.js";

const memoryStorage = memoryStorages();
const MiB = 1024 * 1024;

/** `size` bytes of a pattern that repeats every 251 bytes (a misplaced chunk shows). */
function pattern(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = i % 251;
  return out;
}

async function bytesOf(value: Uint8Array | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return value instanceof Uint8Array ? value : new Uint8Array(await new Response(value).arrayBuffer());
}

/** A Workspace whose shell backend hands each command's host target to `take`. */
function hostWorkspace(take: (host: ShellHost) => Promise<void>, options: { artifacts?: { binding: Artifacts } } = {}) {
  const runtime = {
    async exec(_input: unknown, host: ShellHost) {
      await take(host);
      return { exitCode: 0 };
    },
  };
  return new Workspace({
    storage: memoryStorage(),
    backends: [new WorkerShellBackend({ source: { type: "external-runtime", connect: () => runtime } })],
    ...options,
  });
}

/** Runs `fn` on the host target of one command in a fresh Workspace prepared by `setup`. */
async function onHost<T>(setup: (ws: Workspace) => Promise<void>, fn: (host: ShellHost) => Promise<T>, options: { artifacts?: { binding: Artifacts } } = {}): Promise<T> {
  let out: { value: T } | { error: unknown } | undefined;
  const ws = hostWorkspace(async (host) => {
    try {
      out = { value: await fn(host) };
    } catch (error) {
      out = { error };
    }
  }, options);
  try {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await setup(ws);
    await (await ws.runtime.exec("run", { encoding: "utf8" })).result();
  } finally {
    await ws.close();
  }
  if (out === undefined) throw new Error("the runtime was not called");
  if ("error" in out) throw out.error;
  return out.value;
}

function failure(error: unknown) {
  const e = error as { code?: unknown; message?: unknown };
  return { code: e.code ?? null, message: String(e.message) };
}

describe("fix24 FC2: the shell host's answers stay under workerd's RPC limit", () => {
  it("readBytes: bytes up to 16 MiB, a stream past it with every byte in order, cut after maxBytes", async () => {
    const big = pattern(20 * MiB + 7);
    const r = await onHost(
      async (ws) => {
        await ws.fs.writeFile("/workspace/small.bin", pattern(16 * MiB));
        await ws.fs.writeFile("/workspace/big.bin", big);
      },
      async (host) => {
        const small = await host.readBytes("/workspace/small.bin", 64 * MiB);
        const whole = await host.readBytes("/workspace/big.bin", 64 * MiB);
        const cut = await host.readBytes("/workspace/big.bin", 18 * MiB);
        const refused = await host.readBytes("/workspace/small.bin", MiB).then(() => null, failure);
        const wholeBytes = await bytesOf(whole);
        const cutBytes = await bytesOf(cut);
        return {
          kinds: [small instanceof Uint8Array, whole instanceof Uint8Array, cut instanceof Uint8Array],
          small: (await bytesOf(small)).byteLength,
          whole: wholeBytes.byteLength,
          same: wholeBytes.every((b, i) => b === big[i]),
          cutPast: cutBytes.byteLength > 18 * MiB && cutBytes.byteLength < big.byteLength,
          refused,
        };
      },
    );
    expect(r).toEqual({
      kinds: [true, false, false],
      small: 16 * MiB,
      whole: 20 * MiB + 7,
      same: true,
      cutPast: true,
      refused: { code: "EFBIG", message: "EFBIG: file too large, read '/workspace/small.bin'" },
    });
  });

  it("listWithContents: no parentPath, no contents with { contents: false }, past 16 MiB as JSON lines", async () => {
    const long = (i: number) => `n${String(i).padStart(3, "0")}${"x".repeat(100_000)}`;
    const r = await onHost(
      async (ws) => {
        await ws.fs.mkdir("/workspace/d");
        await ws.fs.writeFile("/workspace/d/a.txt", "A");
        await ws.fs.mkdir("/workspace/d/sub");
        await ws.fs.mkdir("/workspace/w");
        for (let i = 0; i < 170; i++) await ws.fs.writeFile(`/workspace/w/${long(i)}`, "x");
      },
      async (host) => {
        const small = await host.listWithContents("/workspace/d");
        const bare = await host.listWithContents("/workspace/d", { contents: false });
        const big: WorkspaceFsAdapterListing = await host.listWithContents("/workspace/w");
        const lines = big.entryLines === undefined ? null : await readJsonLines<{ name: string; isFile: boolean }>(big.entryLines);
        return {
          small: small.entries.map((e) => [e.name, e.isDirectory, "parentPath" in e]),
          contents: Object.fromEntries(Object.entries(small.contents).map(([k, v]) => [k, new TextDecoder().decode(v)])),
          bare: [bare.entries.length, Object.keys(bare.contents).length, bare.entryLines === undefined],
          big: [big.entries.length, lines?.length, lines?.every((e, i) => e.name === long(i) && e.isFile && !("parentPath" in e))],
        };
      },
    );
    expect(r).toEqual({
      small: [
        ["a.txt", false, false],
        ["sub", true, false],
      ],
      contents: { "a.txt": "A" },
      bare: [2, 0, true],
      big: [0, 170, true],
    });
  });

  it("appendBytes takes a stream; readFile utf8 and readdir past 30 MiB reject E2BIG with advice", async () => {
    const r = await onHost(
      async (ws) => {
        await ws.fs.writeFile("/workspace/log", "start\n");
        await ws.fs.writeFile("/workspace/text.txt", new Uint8Array(31 * MiB).fill(97));
        await ws.fs.mkdir("/workspace/w");
        for (let i = 0; i < 160; i++) await ws.fs.writeFile(`/workspace/w/${String(i).padStart(3, "0")}${"y".repeat(200_000)}`, "");
      },
      async (host) => {
        await host.appendBytes("/workspace/log", new Blob([new TextEncoder().encode("more\n")]).stream());
        const log = new TextDecoder().decode(await bytesOf(await host.readBytes("/workspace/log", 1024)));
        const text = await host.readFile("/workspace/text.txt", "utf8").then(() => "ok", failure);
        const listed = await host.readdir("/workspace/w").then(() => "ok", failure);
        const paged = (await host.readdir("/workspace/w", { limit: 10 })).length;
        return { log, text, listed, paged };
      },
    );
    expect(r).toEqual({
      log: "start\nmore\n",
      text: {
        code: "E2BIG",
        message:
          "E2BIG: the result is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); read it as a stream (readFile without an encoding), or a range at a time with { byteOffset, byteLength }, readFile: /workspace/text.txt",
      },
      listed: {
        code: "E2BIG",
        message: "E2BIG: the result is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); page it with { limit, offset }, readdir: /workspace/w",
      },
      paged: 10,
    });
  });

  it("artifacts: an answer past 30 MiB rejects ArtifactError E2BIG with the advice to scope to a session", async () => {
    const binding = {
      async list(opts?: { limit?: number; cursor?: string }): Promise<ArtifactsRepoListResult> {
        const limit = opts?.limit ?? 50;
        const offset = opts?.cursor === undefined ? 0 : Number(opts.cursor);
        const repos = [];
        for (let i = offset; i < Math.min(100_000, offset + limit); i++) {
          repos.push({ id: `r${i}`, name: `chat-${i}__report`, description: "d".repeat(300), defaultBranch: "main", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", lastPushAt: null, source: null, readOnly: false });
        }
        return offset + limit < 100_000 ? { repos, total: 100_000, cursor: String(offset + limit) } : { repos, total: 100_000 };
      },
      async get(): Promise<never> {
        throw Object.assign(new Error("not found"), { name: "ArtifactsError", code: "NOT_FOUND" });
      },
    } as unknown as Artifacts;
    const r = await onHost(async () => {}, (host) => host.artifacts(["repo", "list"], "/workspace").then(() => "ok", failure), { artifacts: { binding } });
    expect(r).toEqual({
      code: "E2BIG",
      message:
        "artifacts.cli(): the answer is over 31457280 bytes, more than crosses RPC (workerd's limit is 32 MiB); scope the Workspace's Artifacts client to a session (the Workspace option sessionId, or artifacts: { sessionId }) so that it lists only that session's repositories, or call workspace.artifacts.cli(input) in the Durable Object and send on only what is needed",
    });
  });
});

/** Workerd's uncoded refusal, as a caller of an RPC stub gets it. */
function rpcSizeError(bytes: number): Error {
  return new Error(`Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: ${bytes} bytes.`);
}

describe("fix24 FC2: the shell's fs adapter over answers too large for one RPC value", () => {
  it("reads a stream answer of readBytes whole, refuses it EFBIG past maxReadBytes", async () => {
    const fs = new Workspace({ storage: memoryStorage() }).fs;
    const bytes = pattern(3000);
    const adapter = (max: number) => new WorkspaceFsAdapter(fs, { maxReadBytes: max, readBytes: async () => new Blob([bytes.subarray(0, 1000), bytes.subarray(1000)]).stream() });
    const read = await adapter(3000).readFileBuffer("/f");
    const refused = await adapter(2999).readFileBuffer("/f").then(() => null, failure);
    expect([read.byteLength, read.every((b, i) => b === bytes[i]), refused]).toEqual([
      3000,
      true,
      { code: "EFBIG", message: "EFBIG: file too large (the shell reads at most 2999 bytes of a file), open '/f'" },
    ]);
  });

  it("writeFile and appendFile past 16 MiB hand the Workspace a stream; the file is stored whole", async () => {
    const ws = new Workspace({ storage: memoryStorage() });
    const seen: string[] = [];
    const fs = new Proxy(ws.fs, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== "writeFile" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
        return (path: string, content: unknown, options?: unknown) => {
          seen.push(content instanceof Uint8Array ? `bytes ${content.byteLength}` : content instanceof ReadableStream ? "stream" : typeof content);
          return (value as WorkspaceFilesystem["writeFile"]).call(target, path, content as Uint8Array, options as undefined);
        };
      },
    });
    const appended: string[] = [];
    const adapter = new WorkspaceFsAdapter(fs, {
      appendBytes: async (path, bytes) => {
        appended.push(bytes instanceof Uint8Array ? `bytes ${bytes.byteLength}` : "stream");
        await new WorkspaceFsAdapter(ws.fs).appendFile(path, new Uint8Array(await new Response(bytes).arrayBuffer()));
      },
    });
    const content = pattern(16 * MiB + 1);
    await adapter.writeFile("/big", content);
    await adapter.writeFile("/small", pattern(16 * MiB));
    await adapter.appendFile("/big", content);
    await adapter.appendFile("/small", "x");
    const stored = new Uint8Array(await new Response(await ws.fs.readFile("/big")).arrayBuffer());
    expect(seen).toEqual(["stream", `bytes ${16 * MiB}`]);
    expect(appended).toEqual(["stream", "bytes 1"]);
    expect([stored.byteLength, stored.every((b, i) => b === content[i % content.byteLength]), content.byteLength, (await ws.fs.stat("/small")).size]).toEqual([
      2 * (16 * MiB + 1),
      true,
      16 * MiB + 1,
      16 * MiB + 1,
    ]);
    await ws.close();
  });

  it("maps workerd's uncoded size error to EFBIG (read, write) or EIO (listing) with its text, never passes it on bare", async () => {
    const base = new Workspace({ storage: memoryStorage() }).fs;
    const fs = new Proxy(base, {
      get(target, key) {
        if (key === "readFile" || key === "writeFile" || key === "readdir") return async () => Promise.reject(rpcSizeError(41943068));
        const value = Reflect.get(target, key) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const adapter = new WorkspaceFsAdapter(fs);
    const listed = new WorkspaceFsAdapter(base, { listWithContents: async () => Promise.reject(rpcSizeError(36948875)) });
    const got = [
      await adapter.readFile("/f").then(() => null, failure),
      await adapter.writeFile("/f", "x").then(() => null, failure),
      await adapter.readdir("/").then(() => null, failure),
      await listed.readdirWithFileTypes("/").then(() => null, failure),
    ];
    const text = (bytes: number) => `more than crosses Workers RPC at once (Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: ${bytes} bytes.)`;
    expect(got).toEqual([
      { code: "EFBIG", message: `EFBIG: file too large: ${text(41943068)}, open '/f'` },
      { code: "EFBIG", message: `EFBIG: file too large: ${text(41943068)}, write '/f'` },
      { code: "EIO", message: `EIO: i/o error: ${text(41943068)}, scandir '/'` },
      { code: "EIO", message: `EIO: i/o error: ${text(36948875)}, scandir '/'` },
    ]);
  });
});
