import { asSchema, generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { convertSchemaToJsonSchema } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { setup, TEN } from "./helpers.js";
import { publishSetup, WITH_PUBLISH } from "./publish-helpers.js";
import { runChat } from "./tanstack-helpers.js";

const strip = (schema: unknown) => {
  const { $schema: _drop, ...rest } = (schema ?? {}) as Record<string, unknown>;
  return rest;
};

describe("the three adapters build the same tools", () => {
  const piLoops = PI_MAJORS.map((major) => ({ major, runLoop: major.piLoop() }));

  it("same names, order, descriptions and JSON schemas (publish included)", async () => {
    const { workspace } = await publishSetup({ sessionId: "s1" });
    const options = { workspace, read: { maxLines: 50, maxBytes: 4096 }, write: { maxBytes: 1000 }, edit: { maxBytes: 5000 } };
    const core = buildCoreTools(options);
    const ai = createAITools(options);
    const pi = createPiTools(options);
    const ts = createTanStackTools(options);
    const names = core.map((t) => t.name);
    expect(names).toEqual(WITH_PUBLISH);
    expect(Object.keys(ai)).toEqual(names);
    expect(pi.tools.map((t) => t.name)).toEqual(names);
    expect(ts.map((t) => t.name)).toEqual(names);
    for (const [i, name] of names.entries()) {
      const description = core[i]!.description;
      expect(ai[name]!.description).toBe(description);
      expect(pi.tools[i]!.description).toBe(description);
      expect(ts[i]!.description).toBe(description);
      // The schema each library derives from the shared zod schema is the one pi is given.
      const aiJson = strip(await asSchema(ai[name]!.inputSchema).jsonSchema);
      const tsJson = strip(convertSchemaToJsonSchema(ts[i]!.inputSchema as never));
      // The AI SDK's own zod converter also closes the top-level object; everything else is identical.
      expect(aiJson.additionalProperties).toBe(false);
      delete aiJson.additionalProperties;
      expect(aiJson).toEqual(pi.tools[i]!.parameters);
      expect(tsJson).toEqual(pi.tools[i]!.parameters);
    }
    // Limits are stated in the descriptions the model sees.
    expect(pi.tools[0]!.description).toContain("50 lines or 4KB");
    expect(pi.tools[4]!.description).toContain("1KB");
  });

  it("the same limits apply in every adapter", async () => {
    const { workspace } = await setup({ "/workspace/ten.txt": TEN });
    const options = { workspace, read: { maxLines: 3 }, write: { maxBytes: 4 } };
    const ai = createAITools(options);
    const pi = createPiTools(options);
    const ts = createTanStackTools({ ...options, format: "object" });
    const input = { path: "/workspace/ten.txt" };
    const expected = { path: "/workspace/ten.txt", content: "line 1\nline 2\nline 3", startLine: 1, endLine: 3, totalLines: null, truncated: true, nextOffset: 4, nextByteOffset: 21 };
    expect(await ai.read!.execute!(input, { toolCallId: "a", messages: [] } as never)).toEqual(expected);
    expect((await pi.execute({ id: "p", name: "read", arguments: input })).details).toEqual(expected);
    expect(await ts.read!.execute(input)).toEqual(expected);
    const tooBig = "Content too large: 5 bytes exceeds the 4-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.";
    const write = { path: "/workspace/w.txt", content: "12345" };
    expect(await ai.write!.execute!(write, { toolCallId: "a", messages: [] } as never)).toEqual({ error: tooBig });
    expect(await pi.execute({ id: "p", name: "write", arguments: write })).toMatchObject({ isError: true, content: [{ type: "text", text: tooBig }] });
    expect(await ts.write!.execute(write)).toEqual({ error: tooBig });
  });

  it("the same calls through each library's own loop reach the model alike (AI SDK, pi 0.74 and 1.x, TanStack)", async () => {
    const { workspace } = await setup({ "/workspace/ten.txt": TEN });
    const options = { workspace, read: { maxLines: 3 }, write: { maxBytes: 4 } };
    const read = { path: "/workspace/ten.txt" };
    const write = { path: "/workspace/w.txt", content: "12345" };
    const tooBig = "Content too large: 5 bytes exceeds the 4-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.";
    const model = new MockLanguageModelV4({ doGenerate: [call("r", "read", read), call("w", "write", write), done] });
    await generateText({ model, prompt: "go", tools: createAITools(options), stopWhen: stepCountIs(5) });
    // A truncated read is a JSON result (content plus where to continue).
    const readResult = { path: "/workspace/ten.txt", content: "line 1\nline 2\nline 3", startLine: 1, endLine: 3, totalLines: null, truncated: true, nextOffset: 4, nextByteOffset: 21 };
    expect(outputFor(model, "r")).toEqual({ type: "json", value: readResult });
    expect(outputFor(model, "w")).toEqual({ type: "json", value: { error: tooBig } });
    const chat = await runChat(createTanStackTools(options), [
      { calls: [{ id: "r", name: "read", input: read }] },
      { calls: [{ id: "w", name: "write", input: write }] },
      { text: "done" },
    ]);
    expect(JSON.parse(chat.toolMessage("r") as string)).toEqual(readResult);
    expect(JSON.parse(chat.toolMessage("w") as string)).toEqual({ error: tooBig });
    for (const { major, runLoop } of piLoops) {
      const { results } = await runLoop(createPiTools(options), [
        step(major, major.fauxToolCall("read", read, { id: "r" })),
        step(major, major.fauxToolCall("write", write, { id: "w" })),
        major.fauxAssistantMessage("done"),
      ]);
      expect(results.get("r"), `pi ${major.name}`).toMatchObject({ content: [{ type: "text", text: JSON.stringify(readResult) }], isError: false, details: readResult });
      expect(results.get("w"), `pi ${major.name}`).toMatchObject({ content: [{ type: "text", text: tooBig }], isError: true, details: { error: tooBig } });
    }
    expect((await workspace.fs.readdir("/workspace")).map((entry) => entry.name)).toEqual(["ten.txt"]);
  });

  it("publish: the same share call and the same outcome in every adapter, lowered per library", async () => {
    const { workspace, assets } = await publishSetup({ sessionId: "s1", files: { "/workspace/r.md": "# r\n" } });
    const ai = createAITools({ workspace });
    const pi = createPiTools({ workspace });
    const ts = createTanStackTools({ workspace, format: "object" });
    const input = { path: "/workspace/r.md", expiresAfterMs: 1000 };
    const ok = { ok: true, url: "https://assets.test/agent-s1/r.md?expiresAfter=1000&bytes=4" };
    expect(await ai.publish!.execute!(input, { toolCallId: "a", messages: [] } as never)).toEqual(ok);
    expect(await pi.execute({ id: "p", name: "publish", arguments: input })).toEqual({ content: [{ type: "text", text: JSON.stringify(ok) }], isError: false, details: ok });
    expect(await ts.publish!.execute(input)).toEqual(ok);
    const missing = { path: "/workspace/none.md" };
    const message = "ENOENT: no such file or directory, stat: /workspace/none.md";
    expect(await ai.publish!.execute!(missing, { toolCallId: "a", messages: [] } as never)).toStrictEqual({ ok: false, error: message });
    expect(await pi.execute({ id: "p", name: "publish", arguments: missing })).toEqual({
      content: [{ type: "text", text: message }], isError: true, details: { ok: false, error: message },
    });
    expect(await ts.publish!.execute(missing)).toStrictEqual({ error: message });
    expect(assets.calls.map((c) => c.options)).toStrictEqual([
      ...Array(3).fill({ expiresAfter: 1000, prefix: "agent-s1" }),
      ...Array(3).fill({ expiresAfter: 3600000, prefix: "agent-s1" }),
    ]);
  });
});
