import { describe, expect, it } from "vitest";
import { Workspace, WorkerBundle, nodeSqliteStorage } from "../../../src/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

type Executable = { execute: (input: unknown, options: unknown) => Promise<unknown> };
const run = (tools: Record<string, unknown>, name: string, input: unknown) =>
  (tools[name] as Executable).execute(input, { toolCallId: "t", messages: [] });

describe("publish: what an assets client returns or throws never crashes the loop", () => {
  const cases: [string, () => Promise<unknown>, unknown][] = [
    ["resolves undefined", async () => undefined, { ok: false, error: "assets.share resolved to undefined, not a URL; check the assets client passed to the Workspace" }],
    ["resolves an object", async () => ({ href: "x" }), { ok: false, error: "assets.share resolved to object, not a URL; check the assets client passed to the Workspace" }],
    ["resolves an empty string", async () => "", { ok: false, error: "assets.share resolved to an empty string, not a URL; check the assets client passed to the Workspace" }],
    ["rejects Object.create(null)", async () => Promise.reject(Object.create(null)), { ok: false, error: "the operation failed with a value that has no message" }],
    [
      "rejects a value whose toString throws",
      async () =>
        Promise.reject({
          toString() {
            throw new Error("no");
          },
        }),
      { ok: false, error: "the operation failed with a value that has no message" },
    ],
  ];
  for (const [what, share, expected] of cases) {
    it(what, async () => {
      const workspace = new Workspace({ storage: nodeSqliteStorage(), assets: { share: share as never } });
      expect(await run(createAITools({ workspace }), "publish", { path: "/x.png" })).toEqual(expected);
      const pi = createPiTools({ workspace });
      const result = await pi.execute({ id: "p", name: "publish", arguments: { path: "/x.png" } });
      expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: (expected as { error: string }).error }] });
    });
  }
});

describe("write and edit through a link to a directory", () => {
  it("write into a linked directory lands in its target; through a link into a read-only mount it is EROFS", async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(), mounts: { "/ro": WorkerBundle({ "a.txt": "A" }) } });
    await workspace.ready();
    await workspace.fs.mkdir("/workspace/real", { recursive: true });
    await workspace.fs.symlink("/workspace/real", "/workspace/link");
    await workspace.fs.symlink("/ro", "/workspace/ro-link");
    const tools = createAITools({ workspace });
    expect(await run(tools, "write", { path: "/workspace/link/b.txt", content: "B" })).toMatchObject({ path: "/workspace/link/b.txt" });
    expect(await workspace.fs.readFile("/workspace/real/b.txt", "utf8")).toBe("B");
    expect(await run(tools, "edit", { path: "/workspace/link/b.txt", edits: [{ oldText: "B", newText: "C" }] })).not.toHaveProperty("error");
    expect(await workspace.fs.readFile("/workspace/real/b.txt", "utf8")).toBe("C");
    expect(await run(tools, "write", { path: "/workspace/ro-link/a.txt", content: "x" })).toEqual({
      error: "EROFS: read-only file system (mount at /ro), writeFile: /workspace/ro-link/a.txt",
    });
    // A parent that is a file, or a link to one, is refused with ENOTDIR (POSIX open(2)), not mkdir's EEXIST.
    await workspace.fs.writeFile("/workspace/file", "f");
    await workspace.fs.symlink("/workspace/file", "/workspace/file-link");
    expect(await run(tools, "write", { path: "/workspace/file-link/x.txt", content: "x" })).toEqual({
      error: "ENOTDIR: not a directory, writeFile: /workspace/file-link/x.txt",
    });
    expect(await run(tools, "write", { path: "/workspace/file/x.txt", content: "x" })).toEqual({
      error: "ENOTDIR: not a directory, writeFile: /workspace/file/x.txt",
    });
    expect(await run(tools, "write", { path: "/workspace/file/deeper/x.txt", content: "x" })).toEqual({
      error: "ENOTDIR: not a directory, mkdir: /workspace/file/deeper",
    });
    expect(await workspace.fs.readFile("/workspace/file", "utf8")).toBe("f");
    expect(await workspace.fs.readFile("/ro/a.txt", "utf8")).toBe("A");
  });
});
