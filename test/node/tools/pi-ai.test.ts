import { parseToolCallArguments } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { ScriptBackend } from "../runtime/script-backend.js";
import { setup, text } from "./helpers.js";

const PNG12 = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

for (const major of PI_MAJORS) describe(`createPiTools through pi ${major.name}'s faux provider loop`, () => {
  const runLoop = major.piLoop();
  const { fauxAssistantMessage, fauxText, fauxToolCall } = major;

  it("runs write, edit, read (text and image), and reports bad calls as isError", async () => {
    const { workspace } = await setup({ "/workspace/p.png": PNG12, "/workspace/doc.pdf": "%PDF-1.4\n%fake\n" });
    const pi = createPiTools({ workspace });
    const { results, context } = await runLoop(pi, [
      step(major, fauxToolCall("write", { path: "/workspace/a.txt", content: "one\ntwo\nthree\n" }, { id: "w" })),
      step(major, fauxToolCall("edit", { path: "/workspace/a.txt", edits: [{ oldText: "two", newText: "2" }] }, { id: "e" })),
      step(major, fauxToolCall("read", { path: "/workspace/a.txt", offset: null, byteOffset: null, limit: null }, { id: "r" })),
      step(major, fauxToolCall("read", { path: "/workspace/p.png" }, { id: "img" }), fauxToolCall("read", { path: "/workspace/doc.pdf" }, { id: "pdf" })),
      step(
        major,
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

  it("abort: the loop's signal kills a running exec, which settles on its final snapshot, and the next model call stops", async () => {
    const backend = new ScriptBackend({ id: "shell", callable: false });
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [backend] });
    const controller = new AbortController();
    backend.onExec = () => setTimeout(() => controller.abort(), 10);
    const pi = createPiTools({ workspace });
    const { results, context } = await runLoop(
      pi,
      [step(major, fauxToolCall("exec", { command: "out started\\n\nhang\nout never" }, { id: "x" })), fauxAssistantMessage("not reached")],
      { signal: controller.signal },
    );
    expect(backend.killed).toHaveLength(1);
    expect(results.get("x")).toMatchObject({
      isError: false,
      details: { command: "out started\\n\nhang\nout never", cwd: null, backend: "shell", exitCode: 130, stdout: "started\n", stderr: "" },
    });
    expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(context.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });

  // 1.x marks a call whose arguments text was not a JSON object with `argumentsError` (arguments `{}`); 0.74 has no such field.
  if (major.name === "1.x") it("a call with argumentsError is answered with it as invalid arguments, and nothing runs", async () => {
    const { workspace } = await setup();
    const pi = createPiTools({ workspace });
    const parsed = parseToolCallArguments('{"path": "/workspace/a.txt", "content": "x"} trailing');
    expect(parsed.argumentsError).toEqual(expect.any(String));
    const { results } = await runLoop(pi, [
      step(major, { ...fauxToolCall("write", {}, { id: "j" }), ...parsed } as ReturnType<typeof fauxToolCall>),
      fauxAssistantMessage([fauxText("retrying")]),
    ]);
    expect(results.get("j")).toMatchObject({
      content: [{ type: "text", text: `Invalid arguments for write: ${parsed.argumentsError}` }],
      isError: true,
      details: undefined,
    });
    expect(await workspace.fs.readdir("/workspace")).toEqual([]);
  });

  // argumentsError is the provider's text: the result quotes at most INVALID_ARGUMENTS_MAX_CHARS (4,096) of it.
  if (major.name === "1.x") it("a 100,000-character argumentsError is cut to 4,096 characters", async () => {
    const { workspace } = await setup();
    const pi = createPiTools({ workspace });
    const { results } = await runLoop(pi, [
      step(major, { ...fauxToolCall("write", {}, { id: "k" }), argumentsError: `bad ${"x".repeat(100_000)}` } as ReturnType<typeof fauxToolCall>),
      fauxAssistantMessage([fauxText("retrying")]),
    ]);
    const head = "Invalid arguments for write: bad ";
    expect(results.get("k")).toMatchObject({
      content: [{ type: "text", text: `${head}${"x".repeat(4096 - head.length - 1)}…` }],
      isError: true,
    });
    expect(await workspace.fs.readdir("/workspace")).toEqual([]);
  });
});

describe("createPiTools declarations", () => {
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
