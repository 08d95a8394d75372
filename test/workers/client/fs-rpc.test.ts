/**
 * getWorkspace() over real Workers RPC: a client in the test worker talks to a
 * Durable Object built with withWorkspace (spec 01 §5).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace, WorkspaceFsError, type WorkspaceClient } from "../../../src/index.js";
import { checkPattern, freshAgent, patternByte, patternStream, rejection, text } from "./helpers.js";

const NOW = 1_700_000_000_000;

describe("remote client: every fs method over RPC", () => {
  it("writes, reads, lists, searches, links, moves and removes", async () => {
    using ws = await getWorkspace(freshAgent());
    const fs = ws.fs;

    await fs.mkdir("/workspace/src/lib", { recursive: true });
    await fs.writeFile("/workspace/src/a.ts", "export const a = 1;\n// TODO: b\n");
    await fs.writeFile("/workspace/src/lib/b.ts", new TextEncoder().encode("export const b = 2;\n"), { mode: 0o755 });
    await fs.writeFile("/workspace/notes.md", "# notes\nTODO: write more\n");

    expect(await fs.readFile("/workspace/src/a.ts", "utf8")).toBe("export const a = 1;\n// TODO: b\n");
    expect(await fs.readFile("/workspace/src/a.ts", { encoding: "utf8", byteOffset: 7, byteLength: 5 })).toBe("const");
    expect(await text(await fs.readFile("/workspace/src/lib/b.ts"))).toBe("export const b = 2;\n");

    expect(await fs.readdir("/workspace/src")).toEqual([
      { name: "a.ts", parentPath: "/workspace/src", size: 31, mtime: NOW, isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: "lib", parentPath: "/workspace/src", size: 0, mtime: NOW, isFile: false, isDirectory: true, isSymbolicLink: false },
    ]);
    expect(await fs.readdir("/workspace/src", { offset: 1, limit: 1 })).toHaveLength(1);

    const stat = await fs.stat("/workspace/src/lib/b.ts");
    expect(stat).toMatchObject({ name: "b.ts", mode: 0o755, mtime: NOW, size: 20, isFile: true, isDirectory: false, isSymbolicLink: false });
    expect(stat.inode).toBeGreaterThan(1);

    await fs.symlink("src/a.ts", "/workspace/link.ts");
    expect(await fs.readlink("/workspace/link.ts")).toBe("src/a.ts");
    expect(await fs.lstat("/workspace/link.ts")).toMatchObject({ isSymbolicLink: true, mode: 0o777, size: 8 });
    expect(await fs.stat("/workspace/link.ts")).toMatchObject({ isFile: true, size: 31 });

    await fs.chmod("/workspace/notes.md", 0o600);
    expect((await fs.stat("/workspace/notes.md")).mode).toBe(0o600);

    expect(await fs.find("/workspace", "**/*.ts")).toEqual([
      { path: "/workspace/link.ts", type: "symlink" },
      { path: "/workspace/src/a.ts", type: "file" },
      { path: "/workspace/src/lib/b.ts", type: "file" },
    ]);
    expect(await fs.find("/workspace", "**/*.ts", { exclude: ["src/lib", "src/lib/**"] })).toEqual([
      { path: "/workspace/link.ts", type: "symlink" },
      { path: "/workspace/src/a.ts", type: "file" },
    ]);
    expect(await fs.ls("/workspace")).toEqual(["/workspace/notes.md", "/workspace/src/a.ts", "/workspace/src/lib/b.ts"]);
    expect(await fs.grep("TODO", "/workspace", { context: 1 })).toEqual([
      {
        path: "/workspace/notes.md",
        line: 2,
        text: "TODO: write more",
        context: [
          { line: 1, text: "# notes", isMatch: false },
          { line: 2, text: "TODO: write more", isMatch: true },
        ],
      },
      {
        path: "/workspace/src/a.ts",
        line: 2,
        text: "// TODO: b",
        context: [
          { line: 1, text: "export const a = 1;", isMatch: false },
          { line: 2, text: "// TODO: b", isMatch: true },
        ],
      },
    ]);

    await fs.rename("/workspace/notes.md", "/workspace/src/notes.md");
    expect(await fs.ls("/workspace/src")).toEqual(["/workspace/src/a.ts", "/workspace/src/lib/b.ts", "/workspace/src/notes.md"]);

    await fs.rm("/workspace/link.ts");
    await fs.rm("/workspace/src", { recursive: true });
    expect(await fs.readdir("/workspace")).toEqual([]);
    await fs.rm("/workspace/missing", { force: true });
  });

  it("offers exists, statOrNull and lstatOrNull on the remote fs", async () => {
    using ws = await getWorkspace(freshAgent());
    const fs = ws.fs as WorkspaceClient["fs"] & {
      exists(p: string): Promise<boolean>;
      statOrNull(p: string): Promise<unknown>;
      lstatOrNull(p: string): Promise<unknown>;
    };
    await fs.writeFile("/f", "x");
    await fs.symlink("/gone", "/dangling");
    expect(await fs.exists("/f")).toBe(true);
    expect(await fs.exists("/nope")).toBe(false);
    expect(await fs.exists("/dangling")).toBe(false);
    expect(await fs.statOrNull("/nope")).toBeNull();
    expect(await fs.lstatOrNull("/dangling")).toMatchObject({ isSymbolicLink: true, size: 5 });
    // A file mid-path is ENOENT for read-side calls, so statOrNull answers null there too…
    expect(await fs.statOrNull("/f/child/x")).toBeNull();
    // …while other errors still reject, with their code.
    expect(await rejection(fs.statOrNull("relative") as Promise<unknown>)).toMatchObject({ code: "EINVAL" });
  });
});

describe("remote client: streams", () => {
  it("moves 20 MiB through one stream each way and stores exactly its bytes", async () => {
    const agent = freshAgent();
    using ws = await getWorkspace(agent);
    const size = 20 * 1024 * 1024;
    await ws.fs.writeFile("/big.bin", patternStream(size));
    expect((await ws.fs.stat("/big.bin")).size).toBe(size);

    expect(await checkPattern(await ws.fs.readFile("/big.bin"))).toEqual({ bytes: size, firstMismatch: -1 });

    // Bytes left in storage: 40 distinct 512 KiB chunks, stored once each.
    const stored = await runInDurableObject(agent, (_instance, state) => {
      const row = state.storage.sql.exec("SELECT count(*) AS n, sum(length(data)) AS bytes FROM __ws_blobs").one();
      return { chunks: row.n, bytes: row.bytes };
    });
    expect(stored).toEqual({ chunks: 40, bytes: size });
  });

  it("reads a byte range as one stream", async () => {
    using ws = await getWorkspace(freshAgent());
    const size = 3 * 512 * 1024 + 100;
    await ws.fs.writeFile("/range.bin", patternStream(size, 300_000));
    const start = 512 * 1024 - 10; // crosses a chunk boundary
    const range = await ws.fs.readFile("/range.bin", { byteOffset: start, byteLength: 1000 });
    expect(await checkPattern(range, start)).toEqual({ bytes: 1000, firstMismatch: -1 });

    const tail = await ws.fs.readFile("/range.bin", { byteOffset: size - 7 });
    const bytes = new Uint8Array(await new Response(tail).arrayBuffer());
    expect([...bytes]).toEqual(Array.from({ length: 7 }, (_, j) => patternByte(size - 7 + j)));
    expect(await text(await ws.fs.readFile("/range.bin", { byteOffset: size + 5 }))).toBe("");
  });

  it("keeps the old bytes when a written stream errors", async () => {
    using ws = await getWorkspace(freshAgent());
    await ws.fs.writeFile("/keep.txt", "old");
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode("new bytes"));
        } else controller.error(new Error("source broke"));
      },
    });
    await expect(ws.fs.writeFile("/keep.txt", failing)).rejects.toThrow();
    expect(await ws.fs.readFile("/keep.txt", "utf8")).toBe("old");
  });
});

describe("remote client: errors keep code and path", () => {
  it("rebuilds WorkspaceFsError with code, path and message", async () => {
    using ws = await getWorkspace(freshAgent());
    const missing = await rejection(ws.fs.stat("/workspace/nope.txt"));
    expect(missing).toBeInstanceOf(WorkspaceFsError);
    expect(missing.name).toBe("WorkspaceFsError");
    expect(missing.code).toBe("ENOENT");
    expect(missing.path).toBe("/workspace/nope.txt");
    expect(missing.message).toMatch(/^ENOENT: .*: \/workspace\/nope\.txt$/);

    await ws.fs.mkdir("/d");
    await ws.fs.writeFile("/d/f", "x");
    expect(await rejection(ws.fs.mkdir("/d"))).toMatchObject({ code: "EEXIST", path: "/d" });
    expect(await rejection(ws.fs.rm("/d"))).toMatchObject({ code: "ENOTEMPTY", path: "/d" });
    expect(await rejection(ws.fs.readFile("/d", "utf8"))).toMatchObject({ code: "EISDIR", path: "/d" });
    expect(await rejection(ws.fs.readdir("/d/f"))).toMatchObject({ code: "ENOTDIR", path: "/d/f" });
    expect(await rejection(ws.fs.rm("/", { recursive: true, force: true }))).toMatchObject({ code: "EPERM" });
    expect(await rejection(ws.fs.stat("relative"))).toMatchObject({ code: "EINVAL" });
  });

  it("keeps TypeError for bad options", async () => {
    using ws = await getWorkspace(freshAgent());
    const error = await rejection(ws.fs.readdir("/", { limit: -1 }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as { code?: unknown }).code).toBeUndefined();
  });
});

describe("observer spans at the stub boundary", () => {
  it("records one span per fs call with path, counts and failures", async () => {
    const agent = freshAgent();
    using ws = await getWorkspace(agent);
    await ws.fs.mkdir("/a/b", { recursive: true });
    await ws.fs.writeFile("/a/x.txt", "hello\n");
    await ws.fs.readdir("/a");
    await ws.fs.grep("hello", "/a");
    await ws.fs.rename("/a/x.txt", "/a/y.txt");
    await ws.fs.stat("/missing Bearer abc123").catch(() => {});
    const spans = await agent.recordedSpans();
    expect(spans).toEqual([
      { name: "workspace.fs.mkdir", attributes: { "workspace.fs.path": "/a/b", "workspace.fs.recursive": true } },
      { name: "workspace.fs.writeFile", attributes: { "workspace.fs.path": "/a/x.txt" } },
      { name: "workspace.fs.readdir", attributes: { "workspace.fs.path": "/a", "workspace.fs.entries": 2 } },
      { name: "workspace.fs.grep", attributes: { "workspace.fs.path": "/a", "workspace.fs.pattern": "hello", "workspace.fs.matches": 1 } },
      { name: "workspace.fs.rename", attributes: { "workspace.fs.path": "/a/x.txt", "workspace.fs.destination": "/a/y.txt" } },
      {
        name: "workspace.fs.stat",
        attributes: {
          "workspace.fs.path": "/missing Bearer abc123",
          "error.name": "WorkspaceFsError",
          "error.message": expect.stringMatching(/^ENOENT: .*Bearer \[REDACTED\]$/),
        },
      },
    ]);
  });
});

describe("remote client: concurrency", () => {
  it("takes many concurrent stream writes to one Workspace", async () => {
    using ws = await getWorkspace(freshAgent());
    await ws.fs.mkdir("/c");
    const files = Array.from({ length: 24 }, (_, i) => i);
    await Promise.all(
      files.map((i) => ws.fs.writeFile(`/c/f${String(i).padStart(2, "0")}.bin`, patternStream(100_000 + i * 7_919, 16_384))),
    );
    const sizes = await Promise.all(files.map(async (i) => (await ws.fs.stat(`/c/f${String(i).padStart(2, "0")}.bin`)).size));
    expect(sizes).toEqual(files.map((i) => 100_000 + i * 7_919));
    for (const i of [0, 23]) {
      expect(await checkPattern(await ws.fs.readFile(`/c/f${String(i).padStart(2, "0")}.bin`))).toEqual({ bytes: 100_000 + i * 7_919, firstMismatch: -1 });
    }
  });
});
