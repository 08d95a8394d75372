/**
 * Issue 19's "Done when", in real workerd: a Durable Object Workspace whose
 * /workspace/tools holds the seed-001 fixture tools (test/fixtures/tool-dirs/tools)
 * is loaded with loadToolDirectories and handed to each adapter as
 * `toolDirectories: { ...loaded, env: { STATUS_API_TOKEN } }`. Each agent
 * library's own loop drives a scripted model: the AI SDK's generateText over
 * MockLanguageModelV4 (and streamText, to see preliminary results), pi's loop
 * over its faux provider (each supported major; `execute` with
 * `context.onUpdate`), TanStack's chat() over a scripted adapter (custom
 * events through `streamEventName`). Checked exactly: the tool names offered
 * (built-ins, then the directory tools in discovery order), the results the
 * model saw, the file written through output_path, slow_count's progress,
 * and an abort that kills slow_count's run; the loader's skipped list.
 */
import { env as workerEnv } from "cloudflare:test";
import { generateText, stepCountIs, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { chat, maxIterations } from "@tanstack/ai";
import { describe, expect, inject, it } from "vitest";
import { call, done, outputFor } from "../../shared/loops/ai-sdk.js";
import { PI_MAJORS, step } from "../../shared/loops/pi.js";
import { scriptedAdapter } from "../../node/tools/tanstack-helpers.js";
import { getWorkspace } from "../../../src/index.js";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools, type ToolCallContext } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { BUILTINS, GOOD, SECRET, TOKEN, inLoadedTools, streamingModel } from "./loop-helpers.js";

const base = (): string => inject("httpServer");

/** The good tools' calls, one per model turn: [id, tool, input]. */
function calls(): Array<[string, string, Record<string, unknown>]> {
  return [
    ["inputs", "all_inputs", { text: "hi", loud: true, mode: "brackets", color: "green", secret: SECRET }],
    ["status", "fetch_status", { url: `${base()}/echo?via=` }],
    ["missing", "fetch_status", { url: base() }],
    ["greet", "greet", { name: "Ada", times: 2, shout: true }],
    ["export", "export_rows", { rows: 2, output_path: "/workspace/rows.json" }],
    ["count", "slow_count", { steps: 3, delay_ms: 30 }],
  ];
}

/** What each call returns: the tool's text and whether it is an error (before each adapter's mapping). */
const EXPECTED: Record<string, { text: string; isError: boolean }> = {
  inputs: { text: `[HI] [HI]\ncolor=green\nsecret=${SECRET.length} chars`, isError: false },
  // The token from `env` reached the tool (without it: "No API token…"); /echo answers the request line.
  status: { text: "HTTP 200: GET /echo?via=/status", isError: false },
  missing: { text: "HTTP 404: no route /status", isError: true },
  greet: { text: "hello, Ada!\nhello, Ada!\n", isError: false },
  export: { text: "2 rows saved to /workspace/rows.json", isError: false },
  count: { text: "counted 3", isError: false },
};

const ROWS = [
  { id: 1, label: "row 1" },
  { id: 2, label: "row 2" },
];

const env = { STATUS_API_TOKEN: TOKEN };

/**
 * slow_count's progress around an abort sent on the second snapshot: every
 * update in order (the adapters queue them), and far from the 1000 steps —
 * updates already on their way when the kill lands may still arrive.
 */
function expectAbortedProgress(progress: string[]): void {
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress.length).toBeLessThan(1000);
  expect(progress).toEqual(progress.map((_, i) => `step ${i + 1} of 1000`));
}

describe("the loader's skipped list (the broken fixture tools)", () => {
  it("names each broken tool with its code and reason; the good ones load in discovery order", async () => {
    const loaded = await inLoadedTools(async ({ loaded }) => loaded);
    expect(loaded.tools.map((t) => t.name)).toEqual(GOOD);
    expect(loaded.skipped).toEqual([
      {
        code: "bad-front-matter",
        dir: "/workspace/tools/bad_yaml",
        reason: "TOOL.md front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4 of TOOL.md",
      },
      {
        code: "duplicate-name",
        dir: "/workspace/tools/fetch_status_copy",
        name: "fetch_status",
        reason: 'the name "fetch_status" is already taken by /workspace/tools/fetch_status; the first directory found wins',
      },
      { code: "no-entry", dir: "/workspace/tools/no_entry", name: "no_entry", reason: "no entry file: a typescript tool needs index.ts or index.js next to TOOL.md" },
      {
        code: "language-unavailable",
        dir: "/workspace/tools/py_hello",
        name: "py_hello",
        reason: 'python tools need a container backend, and none is configured (pass languages including "python" when one is)',
      },
      { code: "builtin-name", dir: "/workspace/tools/read_clash", name: "read", reason: 'the name "read" is a built-in tool\'s; give the tool another name' },
      { code: "invalid", dir: "/workspace/tools/unknown_type", name: "unknown_type", reason: 'TOOL.md: inputs.when.type must be string, number, boolean or enum; got "date"' },
    ]);
  });
});

describe("AI SDK (generateText / streamText over MockLanguageModelV4)", () => {
  it("generateText: the directory tools follow the built-ins; the model sees each result as text or { error }", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const script = calls();
      const model = new MockLanguageModelV4({ doGenerate: [...script.map(([id, tool, input]) => call(id, tool, input)), done] });
      const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env } });
      const result = await generateText({ model, prompt: "use the tools", tools, stopWhen: stepCountIs(script.length + 2) });
      return {
        text: result.text,
        offered: (model.doGenerateCalls[0]!.tools ?? []).map((t) => t.name),
        seen: Object.fromEntries(script.map(([id]) => [id, outputFor(model, id)])),
        file: JSON.parse(await ws.fs.readFile("/workspace/rows.json", "utf8")) as unknown,
      };
    });
    expect(out.text).toBe("done");
    expect(out.offered).toEqual([...BUILTINS, ...GOOD]);
    expect(out.seen).toEqual(
      Object.fromEntries(
        Object.entries(EXPECTED).map(([id, r]) => [id, r.isError ? { type: "json", value: { error: r.text } } : { type: "text", value: r.text }]),
      ),
    );
    expect(out.file).toEqual(ROWS);
  });

  it("streamText: slow_count's onUpdate arrives as preliminary results, then the final text", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const model = streamingModel([{ calls: [["count", "slow_count", { steps: 3, delay_ms: 40 }]] }, { text: "done" }]);
      const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env } });
      const result = streamText({ model, prompt: "count", tools, stopWhen: stepCountIs(3) });
      const results: Array<{ preliminary: boolean; output: unknown }> = [];
      for await (const part of result.fullStream) {
        if (part.type === "tool-result") results.push({ preliminary: part.preliminary === true, output: part.output });
        if (part.type === "error") throw part.error;
      }
      return { results, text: await result.text };
    });
    expect(out.text).toBe("done");
    const preliminary = out.results.filter((r) => r.preliminary).map((r) => r.output as string);
    // The AI SDK reports every value the tool yields as preliminary, the last one (the result) too, then it as final.
    expect(preliminary.at(-1)).toBe("counted 3");
    expect(preliminary.slice(0, -1)).toEqual(["step 1 of 3", "step 2 of 3", "step 3 of 3"]);
    expect(out.results.filter((r) => !r.preliminary)).toEqual([{ preliminary: false, output: "counted 3" }]);
    expect(out.results.at(-1)).toEqual({ preliminary: false, output: "counted 3" });
  });

  it("streamText: aborting while slow_count reports progress kills its run; the stream ends without throwing", async () => {
    const out = await inLoadedTools(async ({ ws, loaded, kills }) => {
      const model = streamingModel([{ calls: [["count", "slow_count", { steps: 1000, delay_ms: 20 }]] }, { text: "done" }]);
      const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env } });
      const controller = new AbortController();
      const result = streamText({ model, prompt: "count", tools, stopWhen: stepCountIs(3), abortSignal: controller.signal });
      const progress: string[] = [];
      const types: string[] = [];
      for await (const part of result.fullStream) {
        types.push(part.type);
        if (part.type === "tool-result" && part.preliminary === true) {
          progress.push(part.output as string);
          if (progress.length === 2) controller.abort();
        }
      }
      return { progress, kills, types, steps: model.doStreamCalls.length };
    });
    expectAbortedProgress(out.progress);
    expect(out.kills).toHaveLength(1);
    expect(out.kills[0]).toMatch(/^tool\.slow_count\.[0-9a-f-]{36}$/);
    expect(out.types.at(-1)).toBe("abort");
    expect(out.steps).toBe(1);
  });
});

for (const major of PI_MAJORS) {
  describe(`pi ${major.name} (faux provider loop)`, () => {
    const runLoop = major.piLoop();

    it("the directory tools follow the built-ins; { content, isError } passes through; onUpdate carries slow_count's progress", async () => {
      const out = await inLoadedTools(async ({ ws, loaded }) => {
        const script = calls();
        const tools = createPiTools({ workspace: ws, toolDirectories: { ...loaded, env } });
        const progress: Array<{ id: string; partial: unknown }> = [];
        // pi's agent loop hands each call an onUpdate; this loop's runCall does the same.
        const withUpdates = { ...tools, execute: (c: Parameters<typeof tools.execute>[0], ctx?: ToolCallContext) => tools.execute(c, { ...ctx, onUpdate: (partial) => progress.push({ id: c.id, partial }) }) };
        const result = await runLoop(withUpdates, [...script.map(([id, tool, input]) => step(major, major.fauxToolCall(tool, input, { id }))), major.fauxAssistantMessage("done")]);
        return {
          offered: tools.tools.map((t) => t.name),
          readOnly: tools.readOnly,
          last: result.context.messages.at(-1),
          seen: Object.fromEntries(script.map(([id]) => [id, result.results.get(id)])),
          progress,
          file: JSON.parse(await ws.fs.readFile("/workspace/rows.json", "utf8")) as unknown,
        };
      });
      expect(out.offered).toEqual([...BUILTINS, ...GOOD]);
      // all_inputs, fetch_status, greet and slow_count say readonly: true; export_rows does not.
      expect(out.readOnly).toEqual(["read", "ls", "find", "grep", "all_inputs", "fetch_status", "greet", "slow_count"]);
      expect(out.last).toMatchObject({ role: "assistant", content: [{ type: "text", text: "done" }] });
      for (const [id, r] of Object.entries(EXPECTED)) {
        const seen = out.seen[id]!;
        const content = [{ type: "text", text: r.text }];
        expect({ id: seen.toolCallId, content: seen.content, isError: seen.isError, details: seen.details }).toEqual({
          id,
          content,
          isError: r.isError,
          details: r.isError ? { content, isError: true } : { content },
        });
      }
      expect(out.progress.every((p) => p.id === "count")).toBe(true);
      const texts = out.progress.map((p) => {
        const partial = p.partial as { content: Array<{ type: string; text: string }> };
        expect(partial.content).toHaveLength(1);
        expect(partial.content[0]!.type).toBe("text");
        return partial.content[0]!.text;
      });
      expect(texts).toEqual(["step 1 of 3", "step 2 of 3", "step 3 of 3"]);
      expect(out.file).toEqual(ROWS);
    });

    it("aborting the loop's signal while slow_count reports progress kills its run; the result says it was cancelled", async () => {
      const out = await inLoadedTools(async ({ ws, loaded, kills }) => {
        const tools = createPiTools({ workspace: ws, toolDirectories: { ...loaded, env } });
        const controller = new AbortController();
        const progress: string[] = [];
        const withUpdates = {
          ...tools,
          execute: (c: Parameters<typeof tools.execute>[0], ctx?: ToolCallContext) =>
            tools.execute(c, {
              ...ctx,
              onUpdate: (partial) => {
                progress.push(partial.content.map((b) => (b.type === "text" ? b.text : "")).join(""));
                if (progress.length === 2) controller.abort();
              },
            }),
        };
        const result = await runLoop(
          withUpdates,
          [step(major, major.fauxToolCall("slow_count", { steps: 1000, delay_ms: 20 }, { id: "count" })), major.fauxAssistantMessage("done")],
          { signal: controller.signal },
        );
        const r = result.results.get("count")!;
        return { progress, kills, content: r.content, isError: r.isError, last: result.context.messages.at(-1) };
      });
      expectAbortedProgress(out.progress);
      expect(out.kills).toHaveLength(1);
      expect(out.kills[0]).toMatch(/^tool\.slow_count\.[0-9a-f-]{36}$/);
      expect({ content: out.content, isError: out.isError }).toEqual({ content: [{ type: "text", text: 'Tool "slow_count" was cancelled.' }], isError: true });
      expect(out.last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    });
  });
}

describe("TanStack chat() over a scripted adapter", () => {
  it("the directory tools follow the built-ins; the model sees the joined text or { error }; progress as custom events", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const script = calls();
      const tools = createTanStackTools({ workspace: ws, toolDirectories: { ...loaded, env }, streamEventName: "tool-progress" });
      const { adapter, seen } = scriptedAdapter([...script.map(([id, name, input]) => ({ calls: [{ id, name, input }] })), { text: "done" }]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(script.length + 2) });
      const chunks: Array<Record<string, unknown>> = [];
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) chunks.push(chunk);
      const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
      return {
        offered: (seen[0]!.tools as Array<{ name: string }>).map((t) => t.name),
        needsApproval: tools.map((t) => t.needsApproval),
        text: chunks.filter((c) => c.type === "TEXT_MESSAGE_CONTENT").map((c) => c.delta),
        seen: Object.fromEntries(script.map(([id]) => [id, last.find((m) => m.role === "tool" && m.toolCallId === id)?.content])),
        custom: chunks.filter((c) => c.type === "CUSTOM"),
        file: JSON.parse(await ws.fs.readFile("/workspace/rows.json", "utf8")) as unknown,
      };
    });
    expect(out.offered).toEqual([...BUILTINS, ...GOOD]);
    expect(out.needsApproval.every((n) => n === undefined)).toBe(true);
    expect(out.text).toEqual(["done"]);
    expect(out.seen).toEqual(Object.fromEntries(Object.entries(EXPECTED).map(([id, r]) => [id, r.isError ? JSON.stringify({ error: r.text }) : r.text])));
    const texts = out.custom.map((c) => {
      expect(c.name).toBe("tool-progress");
      const value = c.value as { toolCallId: string; snapshot: { content: Array<{ type: string; text: string }> } };
      expect(value.toolCallId).toBe("count");
      expect(value.snapshot.content).toHaveLength(1);
      return value.snapshot.content[0]!.text;
    });
    expect(texts).toEqual(["step 1 of 3", "step 2 of 3", "step 3 of 3"]);
    expect(out.file).toEqual(ROWS);
  });

  it("aborting chat() while slow_count reports progress kills its run; the stream ends without throwing", async () => {
    const out = await inLoadedTools(async ({ ws, loaded, kills }) => {
      const tools = createTanStackTools({ workspace: ws, toolDirectories: { ...loaded, env }, streamEventName: "tool-progress" });
      const { adapter } = scriptedAdapter([{ calls: [{ id: "count", name: "slow_count", input: { steps: 1000, delay_ms: 20 } }] }, { text: "done" }]);
      const abortController = new AbortController();
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, abortController });
      const progress: string[] = [];
      const types: string[] = [];
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) {
        types.push(chunk.type as string);
        if (chunk.type === "CUSTOM" && chunk.name === "tool-progress") {
          progress.push((chunk.value as { snapshot: { content: Array<{ text: string }> } }).snapshot.content[0]!.text);
          if (progress.length === 2) abortController.abort();
        }
      }
      return { progress, kills, types };
    });
    expectAbortedProgress(out.progress);
    expect(out.kills).toHaveLength(1);
    expect(out.kills[0]).toMatch(/^tool\.slow_count\.[0-9a-f-]{36}$/);
    expect(out.types).not.toContain("TEXT_MESSAGE_CONTENT");
  });
});

describe("two directory tool calls in one model turn", () => {
  it("AI SDK streamText: both run; each preliminary result carries its own call id", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const model = streamingModel([
        { calls: [["two", "slow_count", { steps: 2, delay_ms: 20 }], ["four", "slow_count", { steps: 4, delay_ms: 10 }]] },
        { text: "done" },
      ]);
      const result = streamText({ model, prompt: "count twice", tools: createAITools({ workspace: ws, toolDirectories: loaded }), stopWhen: stepCountIs(3) });
      const byId: Record<string, unknown[]> = { two: [], four: [] };
      for await (const part of result.fullStream) {
        if (part.type === "tool-result") byId[part.toolCallId]!.push(part.preliminary === true ? part.output : { final: part.output });
        if (part.type === "error") throw part.error;
      }
      return { byId, text: await result.text };
    });
    expect(out.text).toBe("done");
    expect(out.byId).toEqual({
      two: ["step 1 of 2", "step 2 of 2", "counted 2", { final: "counted 2" }],
      four: ["step 1 of 4", "step 2 of 4", "step 3 of 4", "step 4 of 4", "counted 4", { final: "counted 4" }],
    });
  });

  it("TanStack chat(): both run; each custom event carries its own call id", async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const tools = createTanStackTools({ workspace: ws, toolDirectories: loaded, streamEventName: "tool-progress" });
      const { adapter, seen } = scriptedAdapter([
        { calls: [{ id: "two", name: "slow_count", input: { steps: 2, delay_ms: 20 } }, { id: "four", name: "slow_count", input: { steps: 4, delay_ms: 10 } }] },
        { text: "done" },
      ]);
      const stream = chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never });
      const byId: Record<string, string[]> = { two: [], four: [] };
      for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) {
        if (chunk.type !== "CUSTOM") continue;
        const value = chunk.value as { toolCallId: string; snapshot: { content: Array<{ text: string }> } };
        byId[value.toolCallId]!.push(value.snapshot.content[0]!.text);
      }
      const last = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
      return { byId, results: ["two", "four"].map((id) => last.find((m) => m.role === "tool" && m.toolCallId === id)?.content) };
    });
    expect(out.byId).toEqual({ two: ["step 1 of 2", "step 2 of 2"], four: ["step 1 of 4", "step 2 of 4", "step 3 of 4", "step 4 of 4"] });
    expect(out.results).toEqual(["counted 2", "counted 4"]);
  });
});

describe("pi: a throwing onUpdate", () => {
  const major = PI_MAJORS.at(-1)!;
  const runLoop = major.piLoop();
  it(`pi ${major.name}: an onUpdate that throws does not fail the call`, async () => {
    const out = await inLoadedTools(async ({ ws, loaded }) => {
      const tools = createPiTools({ workspace: ws, toolDirectories: loaded });
      let calls = 0;
      const throwing = {
        ...tools,
        execute: (c: Parameters<typeof tools.execute>[0], ctx?: ToolCallContext) =>
          tools.execute(c, {
            ...ctx,
            onUpdate: () => {
              calls++;
              throw new Error("listener broke");
            },
          }),
      };
      const result = await runLoop(throwing, [step(major, major.fauxToolCall("slow_count", { steps: 2 }, { id: "count" })), major.fauxAssistantMessage("done")]);
      const r = result.results.get("count")!;
      return { calls, content: r.content, isError: r.isError };
    });
    expect(out).toEqual({ calls: 2, content: [{ type: "text", text: "counted 2" }], isError: false });
  });
});

// @ts-expect-error import.meta.glob is Vite's (vite/client types are not in this project's tsconfig).
const FIXTURES = import.meta.glob("../../fixtures/tool-dirs/tools/**/*", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

describe("over Workers RPC: the tools of a getWorkspace() client (GitAgent: shell and JavaScript backends)", () => {
  it("AI SDK generateText: loaded through the client, offered after the built-ins, run in the agent's backends", async () => {
    using ws = await getWorkspace(workerEnv.GIT_AGENT.get(workerEnv.GIT_AGENT.newUniqueId()));
    for (const [key, text] of Object.entries(FIXTURES)) {
      const path = `/workspace/tools/${key.slice(key.indexOf("/tools/") + "/tools/".length)}`;
      await ws.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await ws.fs.writeFile(path, text);
    }
    const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
    expect(loaded.tools.map((t) => t.name)).toEqual(GOOD);
    expect(loaded.skipped.map((s) => [s.dir.slice("/workspace/tools/".length), s.code])).toEqual([
      ["bad_yaml", "bad-front-matter"],
      ["fetch_status_copy", "duplicate-name"],
      ["no_entry", "no-entry"],
      ["py_hello", "language-unavailable"],
      ["read_clash", "builtin-name"],
      ["unknown_type", "invalid"],
    ]);
    const script: Array<[string, string, Record<string, unknown>]> = [
      ["inputs", "all_inputs", { text: "rpc", count: 1 }],
      ["greet", "greet", { name: "Rpc" }],
      ["export", "export_rows", { rows: 2, output_path: "/workspace/rpc-rows.json" }],
      ["count", "slow_count", { steps: 2 }],
      // GitAgent's JavaScript backend has no egress: the fetch fails, as an error result.
      ["status", "fetch_status", { url: "http://127.0.0.1:9" }],
    ];
    const model = new MockLanguageModelV4({ doGenerate: [...script.map(([id, tool, input]) => call(id, tool, input)), done] });
    const tools = createAITools({ workspace: ws, toolDirectories: { ...loaded, env } });
    const result = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(script.length + 2) });
    expect(result.text).toBe("done");
    expect((model.doGenerateCalls[0]!.tools ?? []).map((t) => t.name)).toEqual([...BUILTINS, ...GOOD]);
    const seen = Object.fromEntries(script.map(([id]) => [id, outputFor(model, id)]));
    expect({ ...seen, status: undefined }).toEqual({
      inputs: { type: "text", value: "rpc\nsecret=none" },
      greet: { type: "text", value: "hello, Rpc.\n" },
      export: { type: "text", value: "2 rows saved to /workspace/rpc-rows.json" },
      count: { type: "text", value: "counted 2" },
      status: undefined,
    });
    expect(seen.status).toEqual({ type: "json", value: { error: expect.stringMatching(/^Tool "fetch_status" failed/) } });
    expect(JSON.parse(await ws.fs.readFile("/workspace/rpc-rows.json", "utf8"))).toEqual(ROWS);
  });
});
