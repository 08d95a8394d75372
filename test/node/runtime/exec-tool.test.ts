import { chat } from "@tanstack/ai";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { execDefinition, formatSize } from "../../../src/tools/core/exec.js";
import { toJSONSchema } from "../../../src/tools/core/schema.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { scriptedAdapter } from "../tools/tanstack-helpers.js";
import { ScriptBackend } from "./script-backend.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const aiCall = (id: string, toolName: string, input: unknown) => ({
  content: [{ type: "tool-call" as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: undefined },
  usage,
  warnings: [],
});
const aiDone = { content: [{ type: "text" as const, text: "done" }], finishReason: { unified: "stop" as const, raw: undefined }, usage, warnings: [] };

function ws(backends: ScriptBackend[]) {
  return new Workspace({ storage: nodeSqliteStorage(":memory:"), backends });
}

describe("exec tool definition", () => {
  it("has the fields of seed 000 for one shell, one callable and several backends", () => {
    const shell = execDefinition({ workspace: ws([new ScriptBackend({ id: "sh", callable: false })]) as never });
    expect(Object.keys(toJSONSchema(shell.inputSchema).properties!)).toEqual(["command", "cwd", "env"]);
    expect(toJSONSchema(shell.inputSchema).required).toEqual(["command"]);
    expect(shell.description).toMatch(/^Runs a shell command in the workspace\.\n\nRuns shell commands\.\n\nGood for builds/);
    const js = execDefinition({ workspace: ws([new ScriptBackend({ id: "js", description: "Backend text." })]) as never, backends: { js: { description: "Mine." } } });
    expect(Object.keys(toJSONSchema(js.inputSchema).properties!)).toEqual(["command", "cwd", "env", "input"]);
    expect(js.description).toContain("Runs code in the workspace.\n\nMine.\n\nBackend text.\n\n");
    expect(js.description).toContain("last 2000 lines or 64.0KB");
    const several = execDefinition({ workspace: ws([new ScriptBackend({ id: "js" }), new ScriptBackend({ id: "sh", callable: false })]) as never });
    const schema = toJSONSchema(several.inputSchema);
    expect(Object.keys(schema.properties!)).toEqual(["command", "cwd", "backend", "env", "input"]);
    expect(schema.required).toEqual(["command", "backend"]);
    expect(several.description).toContain('Backends:\n- "js" (callable): Runs `command` as module source.\n- "sh": Runs shell commands.');
    expect(several.description).toContain('Callable backends ("js") run `command` as module source');
  });

  it("throws configuration errors at build time", () => {
    const w = ws([new ScriptBackend({ id: "worker-javascript" })]) as never;
    expect(() => execDefinition({ workspace: w, backends: { nope: {} } })).toThrow('createExecTool: unknown backend "nope"; the workspace has "worker-javascript"');
    expect(() => execDefinition({ workspace: w, maxLines: 0 })).toThrow("createExecTool: maxLines must be a positive integer.");
    expect(() => execDefinition({ workspace: { runtime: { exec: async () => ({}) as never } } })).toThrow("createExecTool: pass `backends`; this workspace cannot list its backends");
    expect(() => execDefinition({ workspace: w, backends: {} })).toThrow("createExecTool: no backends to run on");
    expect(Object.keys(createAITools({ workspace: ws([new ScriptBackend()]), exec: {} }))).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    expect(Object.keys(createAITools({ workspace: ws([]) }))).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    expect(Object.keys(createAITools({ workspace: ws([new ScriptBackend()]), readonly: true }))).toEqual(["read", "ls", "find", "grep"]);
    expect([100, 1024, 65536, 1048576 * 2].map(formatSize)).toEqual(["100B", "1.0KB", "64.0KB", "2.0MB"]);
  });
});

describe("exec through each library's loop", () => {
  it("AI SDK generateText: one callable backend, output tail with the full-output note, result", async () => {
    const workspace = ws([new ScriptBackend({ id: "worker-javascript" })]);
    const tools = createAITools({ workspace, execOutput: { maxLines: 5 } });
    expect(Object.keys(tools).at(-1)).toBe("exec");
    const model = new MockLanguageModelV4({
      doGenerate: [aiCall("c1", "exec", { command: "repeat stdout 12 line \nerr oops\\n\nresult {\"got\":{\"a\":1}}", input: { a: 1 } }), aiDone],
    });
    const result = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(5) });
    const toolResult = result.steps[0].toolResults[0] as { output: Record<string, unknown> };
    const lines = Array.from({ length: 5 }, (_, i) => `line ${i + 8}\n`).join("");
    expect(toolResult.output).toMatchObject({
      cwd: null,
      backend: "worker-javascript",
      exitCode: 0,
      stderr: "oops\n",
      result: { got: { a: 1 } },
    });
    expect(toolResult.output.stdout).toMatch(new RegExp(`^${lines}\\n\\n\\[Showing lines 8-12 of 12\\. Full output: /\\.computer/output/worker-javascript\\.[0-9a-f-]+\\.stdout\\.log\\]$`));
    const path = (toolResult.output.stdout as string).match(/Full output: (\S+)\]/)![1];
    expect(await workspace.fs.readFile(path, "utf8")).toBe(Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join(""));
  });

  for (const major of PI_MAJORS) {
    const runLoop = major.piLoop();
    it(`pi ${major.name} faux provider: several backends, backend required, input refused by a non-callable backend`, async () => {
      const workspace = ws([new ScriptBackend({ id: "js" }), new ScriptBackend({ id: "shell", callable: false })]);
      const pi = createPiTools({ workspace });
      const { fauxToolCall } = major;
      const { results } = await runLoop(pi, [
        step(
          major,
          fauxToolCall("exec", { command: "out hi\\n", backend: "shell" }, { id: "a" }),
          fauxToolCall("exec", { command: "out hi", backend: "nope" }, { id: "b" }),
          fauxToolCall("exec", { command: "out hi", backend: "shell", input: { x: 1 } }, { id: "c" }),
          fauxToolCall("exec", { command: "result 3", backend: "js", input: '{"x":1}' }, { id: "d" }),
        ),
        major.fauxAssistantMessage("done"),
      ]);
      expect(results.get("a")!.content).toEqual([{ type: "text", text: JSON.stringify({ command: "out hi\\n", cwd: null, backend: "shell", exitCode: 0, stdout: "hi\n", stderr: "" }) }]);
      expect(results.get("b")).toMatchObject({ isError: true, content: [{ type: "text", text: 'Invalid arguments for exec: backend: Invalid option: expected one of "js"|"shell"' }] });
      expect(results.get("c")).toMatchObject({ isError: true, content: [{ type: "text", text: 'Backend "shell" is not callable; it does not accept structured input.' }] });
      expect(results.get("d")).toMatchObject({ isError: false, details: { backend: "js", exitCode: 0, result: 3 } });
    });
  }

  it("TanStack chat(): running snapshots through emitCustomEvent, terminal snapshot returned", async () => {
    const workspace = ws([new ScriptBackend({ id: "js" })]);
    const tools = createTanStackTools({ workspace, streamEventName: "exec-progress" });
    const { adapter, seen } = scriptedAdapter([{ calls: [{ id: "tc1", name: "exec", input: { command: "out a\\n\nsleep 150\nout b\\n\nresult 1" } }] }, { text: "ok" }]);
    const events: unknown[] = [];
    for await (const chunk of chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never }) as AsyncIterable<{ type: string; name?: string; value?: unknown; content?: unknown }>) {
      if (chunk.type === "CUSTOM" && chunk.name === "exec-progress") events.push(chunk.value);
    }
    const base = { command: "out a\\n\nsleep 150\nout b\\n\nresult 1", cwd: null, backend: "js" };
    expect(events.slice(0, 2)).toEqual([
      { toolCallId: "tc1", snapshot: { ...base, exitCode: null, stdout: "a\n", stderr: "" } },
      { toolCallId: "tc1", snapshot: { ...base, exitCode: null, stdout: "a\nb\n", stderr: "" } },
    ]);
    expect(events).toHaveLength(2);
    const toolMessage = (seen[1].messages as { role: string; content: unknown }[]).find((m) => m.role === "tool")!;
    const content = toolMessage.content;
    expect(typeof content === "string" ? JSON.parse(content) : content).toEqual({ ...base, exitCode: 0, stdout: "a\nb\n", stderr: "", result: 1 });
  });
});
