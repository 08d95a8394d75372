import { describe, expect, it } from "vitest";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { setup, text } from "./helpers.js";
import { runChat } from "./tanstack-helpers.js";

const PNG12 = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

const run = runChat;

describe("createTanStackTools through chat() with a scripted adapter", () => {
  it("writes, edits, reads text, an image and a PDF; bad arguments come back as errors", async () => {
    const { workspace } = await setup({ "/workspace/p.png": PNG12, "/workspace/doc.pdf": "%PDF-1.4\n%fake\n" });
    const tools = createTanStackTools({ workspace });
    const { toolMessage, seen } = await run(tools, [
      { calls: [{ id: "w", name: "write", input: { path: "/workspace/a.txt", content: "one\ntwo\nthree\n" } }] },
      { calls: [{ id: "e", name: "edit", input: { path: "/workspace/a.txt", edits: [{ oldText: "two", newText: "2" }] } }] },
      {
        calls: [
          { id: "r", name: "read", input: { path: "/workspace/a.txt" } },
          { id: "img", name: "read", input: { path: "/workspace/p.png" } },
          { id: "pdf", name: "read", input: { path: "/workspace/doc.pdf" } },
        ],
      },
      {
        calls: [
          { id: "bad1", name: "read", input: { path: 1, offset: 0 } },
          { id: "bad2", name: "ls", input: { path: "/workspace", limit: 5000 } },
          { id: "bad3", name: "edit", input: { path: "/workspace/a.txt" } },
          { id: "bad4", name: "edit", input: { path: "/workspace/a.txt", edits: [{ oldText: "zzz", newText: "q" }] } },
          { id: "rel", name: "write", input: { path: "rel.txt", content: "x" } },
          { id: "dots", name: "delete", input: { path: "/workspace/../..", recursive: true } },
        ],
      },
      { text: "ok" },
    ]);
    expect(await text(workspace, "/workspace/a.txt")).toBe("one\n2\nthree\n");
    expect(JSON.parse(toolMessage("w") as string)).toEqual({ path: "/workspace/a.txt", bytesWritten: 14 });
    expect(JSON.parse(toolMessage("e") as string)).toMatchObject({ editsApplied: 1, diff: " 1 one\n-2 two\n+2 2\n 3 three" });
    expect(toolMessage("r")).toBe("one\n2\nthree");
    expect(toolMessage("img")).toEqual([
      { type: "text", content: "Read /workspace/p.png (image/png, 12 bytes)." },
      { type: "image", source: { type: "data", value: "iVBORw0KGgoAAAAN", mimeType: "image/png" } },
    ]);
    expect(toolMessage("pdf")).toEqual([
      { type: "text", content: "Read /workspace/doc.pdf (application/pdf, 15 bytes)." },
      { type: "document", source: { type: "data", value: "JVBERi0xLjQKJWZha2UK", mimeType: "application/pdf" } },
    ]);
    const error = (id: string) => (JSON.parse(toolMessage(id) as string) as { error: string }).error;
    expect(error("bad1")).toContain("expected string, received number");
    expect(error("bad2")).toContain("Too big: expected number to be <=1000");
    expect(error("bad3")).toContain("expected array, received undefined");
    expect(error("bad4")).toBe("Could not find the exact text in /workspace/a.txt. The old text must match exactly including all whitespace and newlines.");
    expect(error("rel")).toContain("EINVAL");
    expect(error("dots")).toContain("EINVAL");
    expect((seen[0]!.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
  });

  it("format, approve, lazy and outputSchema", async () => {
    const { workspace } = await setup();
    const list = createTanStackTools({ workspace, approve: "mutating", lazy: ["grep"] });
    expect(list.map((t) => t.name)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    for (const tool of list) expect(Object.keys(tool)).toEqual(["name", "description", "inputSchema", "outputSchema", "needsApproval", "lazy", "execute"]);
    expect(list.filter((t) => t.needsApproval).map((t) => t.name)).toEqual(["write", "edit", "delete"]);
    expect(list.filter((t) => t.lazy).map((t) => t.name)).toEqual(["grep"]);
    expect(list.filter((t) => t.outputSchema).map((t) => t.name)).toEqual(["write", "edit", "delete"]);
    const edit = list.find((t) => t.name === "edit")!;
    expect(edit.outputSchema!.safeParse({ error: "x" }).success).toBe(true);
    expect(edit.outputSchema!.safeParse({ path: "/a", editsApplied: 1, diff: "", patch: "" }).success).toBe(true);
    const named = createTanStackTools({ workspace, approve: ["read", "nope"], lazy: "all", format: "object" });
    expect(Object.keys(named)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    expect(named.read!.needsApproval).toBe(true);
    expect(named.write!.needsApproval).toBeUndefined();
    expect(Object.values(named).every((t) => t.lazy === true)).toBe(true);
    expect(await named.read!.execute({ path: "/workspace/missing" })).toEqual({ error: "File not found: /workspace/missing" });
  });
});
