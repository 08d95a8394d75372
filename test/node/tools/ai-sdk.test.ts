import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { setup, text } from "./helpers.js";


const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

describe("createAITools through generateText (MockLanguageModelV4)", () => {
  it("writes, edits, reads text and an image, lists, and survives bad arguments over several steps", async () => {
    const { workspace } = await setup({ "/workspace/pic.png": PNG });
    const tools = createAITools({ workspace });
    expect(Object.keys(tools)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    expect(Object.keys(tools.read!).sort()).toEqual(["description", "execute", "inputSchema", "toModelOutput"]);
    expect(Object.keys(tools.ls!).sort()).toEqual(["description", "execute", "inputSchema"]);
    const model = new MockLanguageModelV4({
      doGenerate: [
        call("c1", "write", { path: "/workspace/notes.txt", content: "hello\nworld\n" }),
        call("c2", "edit", { path: "/workspace/notes.txt", edits: [{ oldText: "world", newText: "there" }] }),
        call("c3", "read", { path: "/workspace/notes.txt" }),
        call("c4", "read", { path: "/workspace/pic.png" }),
        call("c5", "read", { path: 5, offset: 0 }),
        call("c6", "ls", { path: "/workspace", limit: 5000 }),
        call("c7", "read", { path: "/workspace/missing.txt" }),
        call("c8", "edit", { path: "/workspace/notes.txt", edits: [{ oldText: "absent", newText: "x" }] }),
        call("c9", "read", { path: "/workspace/notes.txt", offset: 1, limit: 1 }),
        done,
      ],
    });
    const result = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(20) });
    expect(result.text).toBe("done");
    expect(await text(workspace, "/workspace/notes.txt")).toBe("hello\nthere\n");
    expect(outputFor(model, "c1")).toEqual({ type: "json", value: { path: "/workspace/notes.txt", bytesWritten: 12 } });
    expect(outputFor(model, "c2")).toMatchObject({ type: "json", value: { editsApplied: 1, diff: " 1 hello\n-2 world\n+2 there", firstChangedLine: 2 } });
    expect(outputFor(model, "c3")).toEqual({ type: "text", value: "hello\nthere" });
    expect(outputFor(model, "c4")).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Read /workspace/pic.png (image/png, 16 bytes)." },
        { type: "file", data: { type: "data", data: "iVBORw0KGgoAAAANSUhEUg==" }, mediaType: "image/png", filename: "pic.png" },
      ],
    });
    const bad = outputFor(model, "c5") as { type: string; value: string };
    expect(bad.type).toBe("error-text");
    expect(bad.value).toContain("expected string, received number");
    expect(bad.value).toContain("Too small: expected number to be >=1");
    const huge = outputFor(model, "c6") as { type: string; value: string };
    expect(huge.type).toBe("error-text");
    expect(huge.value).toContain("Too big: expected number to be <=1000");
    expect(outputFor(model, "c7")).toEqual({ type: "error-text", value: "File not found: /workspace/missing.txt" });
    expect(outputFor(model, "c8")).toEqual({
      type: "json",
      value: { error: "Could not find the exact text in /workspace/notes.txt. The old text must match exactly including all whitespace and newlines." },
    });
    expect(outputFor(model, "c9")).toEqual({
      type: "json",
      value: { path: "/workspace/notes.txt", content: "hello", startLine: 1, endLine: 1, totalLines: null, truncated: true, nextOffset: 2, nextByteOffset: 6 },
    });
    // The model is offered the same JSON schema the core renders.
    const offered = model.doGenerateCalls[0]!.tools!.map((t) => (t as { name: string }).name);
    expect(offered).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
  });

  it("readonly offers read, ls, find, grep", async () => {
    const { workspace } = await setup();
    expect(Object.keys(createAITools({ workspace, readonly: true }))).toEqual(["read", "ls", "find", "grep"]);
    expect(Object.keys(createAITools({ workspace, exec: {} }))).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
  });

  it("relative paths and .. segments come back as readable errors", async () => {
    const { workspace } = await setup({ "/workspace/a.txt": "a\n" });
    const model = new MockLanguageModelV4({
      doGenerate: [
        call("r1", "read", { path: "a.txt" }),
        call("r2", "write", { path: "notes.txt", content: "x" }),
        call("r3", "ls", { path: "/.." }),
        call("r4", "read", { path: "/workspace/../workspace/a.txt" }),
        done,
      ],
    });
    await generateText({ model, prompt: "go", tools: createAITools({ workspace }), stopWhen: stepCountIs(10) });
    expect(outputFor(model, "r1")).toMatchObject({ type: "error-text", value: expect.stringContaining("EINVAL") });
    expect(outputFor(model, "r2")).toMatchObject({ type: "json", value: { error: expect.stringContaining("EINVAL") } });
    expect(outputFor(model, "r3")).toMatchObject({ type: "json", value: { error: expect.stringContaining("EINVAL") } });
    expect(outputFor(model, "r4")).toEqual({ type: "text", value: "a" });
  });
});
