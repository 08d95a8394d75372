/**
 * Issue 20, twelfth attack run: the `toolDirectories` option of createAITools / createPiTools /
 * createTanStackTools (src/tools/core/directory.ts, toolset.ts, ai-sdk-tools.ts, pi-ai.ts, tanstack-ai.ts),
 * on Node over a real Workspace with no backends (a call that passes validation is answered by the runner
 * with what the Workspace lacks, which shows it got through).
 *
 * Tried:
 * - hostile ToolDirectory values at build time: `mutating` missing (readonly / approve / pi readOnly),
 *   names `__proto__`, `""`, `constructor`, a 100,000-character name; an input of an unknown type and a
 *   `null` input; a Proxy tools array whose `entries` throws; an `env` with a `__proto__` key;
 * - hostile model arguments through each library's real loop or `execute`: 100,000-deep arrays for a
 *   string/number input (pi execute, TanStack chat()), `__proto__` keys in the argument JSON (AI SDK,
 *   TanStack), a top-level array or string, `arguments: null`, a JSON string instead of an object, an
 *   object for a sensitive string, a 1.7 MB sensitive value next to a wrong-typed input (pi), a throwing
 *   `onUpdate` (pi);
 * - a sensitive input in the libraries' own error text when the model's arguments are not valid JSON (found,
 *   then documented as out of the library's reach: pinned as documented).
 * (The AI SDK's generateText rejecting a 100,000-deep argument text is its own documented limit:
 * test/node/tools/exec-input-depth.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { chat, maxIterations } from "@tanstack/ai";
import { done, outputFor, usage } from "../../shared/loops/ai-sdk.js";
import { scriptedAdapter } from "../tools/tanstack-helpers.js";
import { makeWorkspace } from "../tools/helpers.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import type { ToolDirectory, ToolInput } from "../../../src/tool-dirs/types.js";

const SECRET = "tok-SECRET-a12-abcdef";
const NO_BACKEND = (name: string) =>
  `Tool "${name}" is typescript and needs the JavaScript backend: add new WorkerJavaScriptBackend({ loader: env.LOADER }) to the Workspace's backends (its backends: none).`;

function input(name: string, type: ToolInput["type"], extra: Partial<ToolInput> = {}): ToolInput {
  return { name, type, description: `the ${name}`, optional: false, sensitive: false, ...extra };
}
function tool(name: string, inputs: ToolInput[] = [], extra: Record<string, unknown> = {}): ToolDirectory {
  const dir = `/workspace/tools/${name.slice(0, 20) || "x"}`;
  return {
    name, label: name, description: `${name} tool`, summary: `${name} tool`, body: "", version: 1, language: "typescript",
    inputs: Object.fromEntries(inputs.map((i) => [i.name, i])), mutating: true, env: [],
    dir, toolFile: `${dir}/TOOL.md`, entry: `${dir}/index.ts`, root: "/workspace/tools", ...extra,
  } as ToolDirectory;
}
const guarded = tool("guarded", [input("query", "string"), input("api_token", "string", { sensitive: true })]);
const plain = tool("plain", [input("count", "number")]);
const deepText = (n: number) => "[".repeat(n) + "]".repeat(n);
function deepValue(n: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

/** One generateText turn whose tool call carries `raw` as its argument text; what the model saw, and all step records as text. */
async function aiRaw(tools: ReturnType<typeof createAITools>, id: string, name: string, raw: string) {
  const model = new MockLanguageModelV4({
    doGenerate: [{ content: [{ type: "tool-call", toolCallId: id, toolName: name, input: raw }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] } as never, done],
  });
  const result = await generateText({ model, prompt: "go", tools, stopWhen: stepCountIs(3) });
  const records = JSON.stringify(result.steps.map((s) => s.content), (_k, v: unknown) => (v instanceof Error ? v.message : v));
  return { output: outputFor(model, id) as { type: string; value: unknown }, records };
}

/** One chat() turn whose tool call streams `raw` as its argument text; the tool message content the model saw. */
async function tanRaw(tools: unknown, id: string, name: string, raw: string): Promise<string> {
  const { adapter, seen } = scriptedAdapter([{ calls: [{ id, name, args: raw }] }, { text: "done" }]);
  for await (const _ of chat({ adapter: adapter as never, messages: [{ role: "user", content: "go" }], tools: tools as never, agentLoopStrategy: maxIterations(3) }) as AsyncIterable<unknown>) void _;
  const messages = seen.at(-1)!.messages as Array<{ role: string; toolCallId?: string; content: unknown }>;
  return messages.find((m) => m.role === "tool" && m.toolCallId === id)!.content as string;
}

describe("attack12: hostile ToolDirectory values at build time", () => {
  // DEFECT (low-medium: readonly / approval bypass — a writing tool offered to a read-only agent, run
  // without approval, and callable from a read-only ws:tools run). docs/tool-directories.md: "A directory
  // tool is mutating unless its front matter says readonly: true"; readonly: true "leaves out every mutating
  // directory tool". A ToolDirectory whose `mutating` is missing (hand-built, or read back from a cache
  // that dropped it) is treated as read-only: toolset.ts `if (options.readonly === true && tool.mutating)`
  // and directory.ts `mutating: tool.mutating` take `undefined` as false, while directoryTools (directory.ts
  // ~170) validates name, inputs and entry but not `mutating`. Everything fails open.
  // Expected: a TypeError naming tools[i].mutating (as for the other fields), or `mutating !== false`
  // treated as mutating. Fix: in directoryTools, require `typeof tool.mutating === "boolean"`.
  // FIXED: directoryTools checks each ToolDirectory's shape (checkToolShape): mutating must be a boolean.
  it("a ToolDirectory without `mutating` is refused at build, or treated as mutating (readonly, approve, pi readOnly)", async () => {
    const ws = await makeWorkspace();
    try {
      const writer = tool("writer", [], { mutating: undefined });
      const outcome = (() => {
        try {
          return {
            aiReadonly: Object.keys(createAITools({ workspace: ws, readonly: true, toolDirectories: { tools: [writer] } })).includes("writer"),
            piReadOnly: createPiTools({ workspace: ws, toolDirectories: { tools: [writer] } }).readOnly.includes("writer"),
            tanApproval: createTanStackTools({ workspace: ws, approve: "mutating", toolDirectories: { tools: [writer] } }).at(-1)!.needsApproval === true,
          };
        } catch (err) {
          return err instanceof TypeError ? "TypeError" : String(err);
        }
      })();
      // today: { aiReadonly: true, piReadOnly: true, tanApproval: false }
      expect(["TypeError", { aiReadonly: false, piReadOnly: false, tanApproval: true }]).toContainEqual(outcome);
    } finally {
      await ws.close();
    }
  });

  // DEFECT (low: a tool silently missing and the tool set's prototype replaced). A hand-built ToolDirectory
  // named "__proto__" passes directoryTools (it checks `typeof name === "string"` only) and createAITools'
  // `set[core.name] = toAITool(core)` (ai-sdk-tools.ts:133) then SETS THE PROTOTYPE of the ToolSet to the
  // tool instead of adding a key: the tool is not offered, and `set.execute`/`set.inputSchema` now resolve
  // through the prototype. Other names no provider accepts (`""`, a 100,000-character name) pass too and
  // fail only when a model request is made. Expected (docs: "Build-time errors … a mistake is a TypeError"):
  // a name that is not a loader name (snake_case, ≤ 64 characters) is a TypeError at build.
  // Fix: directoryTools checks the loader's name rule; createAITools builds with Object.defineProperty.
  // FIXED: directoryTools checks the loader's name rule; createAITools adds keys with defineProperty.
  it("a tool named __proto__ is a TypeError at build, not a replaced prototype", async () => {
    const ws = await makeWorkspace();
    try {
      let outcome: string;
      try {
        const set = createAITools({ workspace: ws, toolDirectories: { tools: [tool("__proto__")] } });
        outcome = `built: own key ${Object.prototype.hasOwnProperty.call(set, "__proto__")}, prototype kept ${Object.getPrototypeOf(set) === Object.prototype}`;
      } catch (err) {
        outcome = err instanceof TypeError && err.message.startsWith("create*Tools({ toolDirectories })") ? "TypeError" : String(err);
      }
      expect(outcome).toBe("TypeError"); // today: "built: own key false, prototype kept false"
    } finally {
      await ws.close();
    }
  });

  // DEFECT (low: an unclear error). docs/tool-directories.md: "a mistake is a TypeError (messages start
  // create*Tools({ toolDirectories }))". An input of an unknown type or a null input escapes as the raw
  // "Cannot read properties of undefined (reading 'describe')" from toolInputSchema (tool-dirs/schema.ts),
  // which names neither the tool nor the input. Fix: check each input's `type` in directoryTools.
  // FIXED: directoryTools checks every input (name, object, type, enum values) before building schemas.
  it("an input of unknown type, or a null input, is a TypeError naming the tool and the input", async () => {
    const ws = await makeWorkspace();
    try {
      const messages = [
        tool("a", [], { inputs: { q: { name: "q", type: "regex", description: "", optional: false, sensitive: false } } }),
        tool("b", [], { inputs: { q: null } }),
      ].map((t) => {
        try {
          createAITools({ workspace: ws, toolDirectories: { tools: [t] } });
          return "built";
        } catch (err) {
          return (err as Error).message;
        }
      });
      for (const m of messages) expect(m).toMatch(/^create\*Tools\(\{ toolDirectories \}\).*\bq\b/);
    } finally {
      await ws.close();
    }
  });

  it("held: constructor / hasOwnProperty names are own keys of the AI SDK set; __proto__ in env and a throwing tools array fail or pass cleanly", async () => {
    const ws = await makeWorkspace();
    try {
      for (const name of ["constructor", "tostring"]) { // snake_case names only (hasOwnProperty is refused at build)
        const set = createAITools({ workspace: ws, toolDirectories: { tools: [tool(name)] } });
        expect(Object.prototype.hasOwnProperty.call(set, name)).toBe(true);
        expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
      }
      const env = JSON.parse('{"__proto__":{"X":"1"},"A":"a"}') as Record<string, string>;
      expect(() => createAITools({ workspace: ws, toolDirectories: { tools: [plain], env } })).toThrow(
        new TypeError("create*Tools({ toolDirectories }): env.__proto__ must be a string, got object"),
      );
      const hostile = new Proxy([plain], { get: (t, k) => (k === "entries" ? () => { throw new Error("boom"); } : Reflect.get(t, k)) });
      expect(() => createAITools({ workspace: ws, toolDirectories: { tools: hostile } })).toThrow("boom");
    } finally {
      await ws.close();
    }
  });
});

describe("attack12: hostile model arguments to directory tools (held)", () => {
  it("pi execute: 100,000-deep values, null/string/array arguments, an object for a sensitive string, a huge secret → error results, never the secret", async () => {
    const ws = await makeWorkspace();
    try {
      const { execute } = createPiTools({ workspace: ws, toolDirectories: { tools: [guarded, plain] } });
      const call = (name: string, args: unknown) =>
        execute({ type: "toolCall", id: "c", name, arguments: args } as never, { onUpdate: () => { throw new Error("x"); } });
      const seen = await Promise.all([
        call("plain", { count: deepValue(100_000) }),
        call("guarded", { query: deepValue(100_000), api_token: SECRET }),
        call("guarded", null),
        call("guarded", `{"query":"q","api_token":"${SECRET}"}`),
        call("guarded", { query: "q", api_token: { v: SECRET } }),
        call("guarded", { query: 5, api_token: SECRET.repeat(80_000) }),
        call("guarded", { query: "q", api_token: SECRET }),
      ]);
      expect(seen.map((r) => [r.isError, r.content.map((c) => (c as { text: string }).text).join("")])).toEqual([
        [true, "Invalid arguments for plain: count: Invalid input: expected number, received array"],
        [true, "Invalid arguments for guarded: query: Invalid input: expected string, received array"],
        [true, "Invalid arguments for guarded: query: Invalid input: expected string, received undefined; api_token: Invalid input: expected string, received undefined"],
        [true, "Invalid arguments for guarded: Invalid input: expected object, received string"],
        [true, "Invalid arguments for guarded: api_token: Invalid input: expected string, received object"],
        [true, "Invalid arguments for guarded: query: Invalid input: expected string, received number"],
        [true, NO_BACKEND("guarded")],
      ]);
    } finally {
      await ws.close();
    }
  });

  it("TanStack chat(): 100,000-deep values, a top-level array or string, __proto__ keys → error results naming the input, never the secret", async () => {
    const ws = await makeWorkspace();
    try {
      const tools = createTanStackTools({ workspace: ws, toolDirectories: { tools: [guarded, plain] } });
      const seen = [
        await tanRaw(tools, "a", "plain", `{"count":${deepText(100_000)}}`),
        await tanRaw(tools, "b", "guarded", `{"query":${deepText(100_000)},"api_token":"${SECRET}"}`),
        await tanRaw(tools, "c", "guarded", `[1,2,"${SECRET}"]`),
        await tanRaw(tools, "d", "guarded", `{"__proto__":{"x":1},"query":"q","api_token":"${SECRET}"}`),
      ];
      expect(seen).toEqual([
        JSON.stringify({ error: "Input validation failed for tool plain: Validation failed: count: Invalid input: expected number, received array" }),
        JSON.stringify({ error: "Input validation failed for tool guarded: Validation failed: query: Invalid input: expected string, received array" }),
        JSON.stringify({ error: "Input validation failed for tool guarded: Validation failed: Invalid input: expected object, received array" }),
        JSON.stringify({ error: NO_BACKEND("guarded") }),
      ]);
    } finally {
      await ws.close();
    }
  });

  it("AI SDK generateText: __proto__ keys in a plain tool's arguments → the AI SDK's forbidden-prototype error result", async () => {
    const ws = await makeWorkspace();
    try {
      const { output } = await aiRaw(createAITools({ workspace: ws, toolDirectories: { tools: [plain] } }), "p", "plain", `{"__proto__":{"count":1},"count":2}`);
      expect(output.type).toBe("error-text");
      expect(output.value).toMatch(/^AI_InvalidToolInputError: Invalid input for tool plain: .*forbidden prototype property$/s);
    } finally {
      await ws.close();
    }
  });
});

describe("attack12: a sensitive input quoted by the libraries' JSON parse errors (documented)", () => {
  // Found in this run (low: a secret echoed into the conversation and the step records), then documented in
  // dc65b88 — docs/tool-directories.md: "One case is out of this library's reach: when the model's arguments
  // are not JSON at all, the AI SDK (AI_JSONParseError … Text: …) and TanStack (Failed to parse tool arguments
  // as JSON: …) quote the raw text in their own error before any tool code runs" (workaround: the AI SDK's
  // experimental_repairToolCall). These tests pin that documented behaviour: the quoting is the libraries',
  // before any adapter code runs.
  it("AI SDK: arguments that are not valid JSON come back as AI_JSONParseError quoting the raw text", async () => {
    const ws = await makeWorkspace();
    try {
      const raw = `{"query":"q","api_token":"${SECRET}",}`;
      const { output } = await aiRaw(createAITools({ workspace: ws, toolDirectories: { tools: [guarded] } }), "g", "guarded", raw);
      expect(output.type).toBe("error-text");
      expect(output.value).toMatch(/^AI_InvalidToolInputError: Invalid input for tool guarded: AI_JSONParseError: JSON parsing failed: Text: /);
      expect(String(output.value)).toContain(raw);
    } finally {
      await ws.close();
    }
  });

  it("TanStack: arguments that are not valid JSON come back as 'Failed to parse tool arguments as JSON' quoting the raw text", async () => {
    const ws = await makeWorkspace();
    try {
      const raw = `{"query":"q","api_token":"${SECRET}",}`;
      const seen = await tanRaw(createTanStackTools({ workspace: ws, toolDirectories: { tools: [guarded] } }), "g", "guarded", raw);
      expect(seen).toBe(JSON.stringify({ error: `Failed to parse tool arguments as JSON: ${raw}` }));
    } finally {
      await ws.close();
    }
  });
});
