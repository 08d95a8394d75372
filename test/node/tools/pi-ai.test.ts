import { fauxAssistantMessage, fauxText, fauxToolCall } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { piLoop, step } from "../../shared/loops/pi.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { setup, text } from "./helpers.js";

const PNG12 = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const runLoop = piLoop();

describe("createPiTools through pi's faux provider loop", () => {
  it("runs write, edit, read (text and image), and reports bad calls as isError", async () => {
    const { workspace } = await setup({ "/workspace/p.png": PNG12, "/workspace/doc.pdf": "%PDF-1.4\n%fake\n" });
    const pi = createPiTools({ workspace });
    const { results, context } = await runLoop(pi, [
      step(fauxToolCall("write", { path: "/workspace/a.txt", content: "one\ntwo\nthree\n" }, { id: "w" })),
      step(fauxToolCall("edit", { path: "/workspace/a.txt", edits: [{ oldText: "two", newText: "2" }] }, { id: "e" })),
      step(fauxToolCall("read", { path: "/workspace/a.txt", offset: null, byteOffset: null, limit: null }, { id: "r" })),
      step(fauxToolCall("read", { path: "/workspace/p.png" }, { id: "img" }), fauxToolCall("read", { path: "/workspace/doc.pdf" }, { id: "pdf" })),
      step(
        fauxToolCall("read", { path: 1, offset: 0 }, { id: "bad1" }),
        fauxToolCall("ls", { path: "/workspace", limit: 5000 }, { id: "bad2" }),
        fauxToolCall("edit", { path: "/workspace/a.txt", edits: [{ oldText: "x", newText: "y", extra: 1 }] }, { id: "bad3" }),
        fauxToolCall("ls", {}, { id: "bad4" }),
        fauxToolCall("bash", { command: "ls" }, { id: "bad5" }),
        fauxToolCall("read", { path: "/workspace/zz" }, { id: "missing" }),
        fauxToolCall("read", { path: "relative.txt" }, { id: "rel" }),
        fauxToolCall("ls", { path: "/workspace/../.." }, { id: "dots" }),
      ),
      fauxAssistantMessage([fauxText("finished")]),
    ]);
    expect(await text(workspace, "/workspace/a.txt")).toBe("one\n2\nthree\n");
    expect(results.get("w")).toMatchObject({ content: [{ type: "text", text: '{"path":"/workspace/a.txt","bytesWritten":14}' }], isError: false });
    expect(JSON.parse((results.get("e")!.content[0] as { text: string }).text)).toMatchObject({ editsApplied: 1, firstChangedLine: 2 });
    expect(results.get("r")).toMatchObject({ content: [{ type: "text", text: "one\n2\nthree" }], isError: false, details: { content: "one\n2\nthree" } });
    expect(results.get("img")).toEqual({
      role: "toolResult", toolCallId: "img", toolName: "read", isError: false, details: undefined, timestamp: expect.any(Number),
      content: [
        { type: "text", text: "Read /workspace/p.png (image/png, 12 bytes)." },
        { type: "image", data: "iVBORw0KGgoAAAAN", mimeType: "image/png" },
      ],
    });
    expect(results.get("pdf")!.content).toEqual([
      {
        type: "text",
        text: "Read /workspace/doc.pdf (application/pdf, 15 bytes). This file type cannot be attached to a tool result; read it with a dedicated tool if its contents are needed.",
      },
    ]);
    const err = (id: string) => ({ text: (results.get(id)!.content[0] as { text: string }).text, isError: results.get(id)!.isError });
    expect(err("bad1")).toEqual({
      text: "Invalid arguments for read: path: Invalid input: expected string, received number; offset: Too small: expected number to be >=1",
      isError: true,
    });
    expect(err("bad2")).toEqual({ text: "Invalid arguments for ls: limit: Too big: expected number to be <=1000", isError: true });
    expect(err("bad3")).toEqual({ text: 'Invalid arguments for edit: edits.0: Unrecognized key: "extra"', isError: true });
    expect(err("bad4")).toEqual({ text: "Invalid arguments for ls: path: Invalid input: expected string, received undefined", isError: true });
    expect(err("bad5")).toEqual({
      text: 'Unknown tool "bash". Available tools: "read", "ls", "find", "grep", "write", "edit", "delete".',
      isError: true,
    });
    expect(results.get("missing")).toMatchObject({
      content: [{ type: "text", text: "File not found: /workspace/zz" }], isError: true, details: { error: "File not found: /workspace/zz" },
    });
    expect(err("rel")).toEqual({ text: expect.stringContaining("EINVAL"), isError: true });
    expect(err("dots")).toEqual({ text: expect.stringContaining("EINVAL"), isError: true });
    expect(context.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "finished" }] });
  });

  it("declarations: JSON Schema draft-07 parameters and constrained sampling", async () => {
    const { workspace } = await setup();
    const pi = createPiTools({ workspace });
    expect(pi.tools.map((t) => t.name)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    const read = pi.tools[0]!;
    expect(read.parameters.properties!.offset).toEqual({
      description: expect.any(String), type: "integer", minimum: 1, maximum: 9007199254740991,
    });
    expect(read.parameters.required).toEqual(["path"]);
    expect("$schema" in read.parameters).toBe(false);
    expect("additionalProperties" in read.parameters).toBe(false);
    expect((pi.tools[5]!.parameters.properties!.edits as { items: { additionalProperties: boolean } }).items.additionalProperties).toBe(false);
    expect(pi.tools[2]!.parameters.properties!.path).toMatchObject({ default: "/workspace", type: "string" });
    expect(pi.tools[2]!.parameters.required).toEqual(["pattern"]);
    expect(pi.tools.filter((t) => t.constrainedSampling).map((t) => [t.name, t.constrainedSampling!.strict])).toEqual([
      ["read", "prefer"], ["write", "prefer"], ["edit", "prefer"],
    ]);
    expect(createPiTools({ workspace, constrainedSampling: "require" }).tools[0]!.constrainedSampling).toEqual({ type: "json_schema", strict: "require" });
    expect(createPiTools({ workspace, constrainedSampling: false }).tools.some((t) => t.constrainedSampling)).toBe(false);
    expect(createPiTools({ workspace, readonly: true }).tools.map((t) => t.name)).toEqual(["read", "ls", "find", "grep"]);
  });
});
