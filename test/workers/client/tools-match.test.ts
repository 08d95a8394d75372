/**
 * Tools built from a getWorkspace() client (remote, over RPC) match tools built
 * from the Workspace itself: same names, descriptions and schemas, and the same
 * results for a fixed script of calls run through each library's own loop.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { asSchema, generateText, stepCountIs, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { getWorkspace, type Workspace } from "../../../src/index.js";
import { WORKSPACE } from "../../../src/do/symbol.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";

const agent = () => env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId());

/** The fixed script: every file tool, continuation, an edit, exec importing the edited file, a delete. */
const SCRIPT: Array<{ name: string; input: Record<string, unknown> }> = [
  { name: "write", input: { path: "/workspace/app/lib.js", content: "export const greet = (n) => `hi ${n}`;\n// line 2\n// line 3\n" } },
  { name: "ls", input: { path: "/workspace/app" } },
  { name: "find", input: { path: "/workspace", pattern: "**/*.js" } },
  { name: "grep", input: { path: "/workspace", query: "greet" } },
  { name: "read", input: { path: "/workspace/app/lib.js", limit: 1 } },
  { name: "read", input: { path: "/workspace/app/lib.js", offset: 2, byteOffset: 39 } },
  { name: "edit", input: { path: "/workspace/app/lib.js", edits: [{ oldText: "`hi ${n}`", newText: "`hello ${n}`" }] } },
  { name: "exec", input: { command: 'import { greet } from "./lib.js";\nexport default () => greet("rpc");', cwd: "/workspace/app" } },
  { name: "read", input: { path: "/workspace/missing.txt" } },
  { name: "delete", input: { path: "/workspace/app", recursive: true } },
  { name: "ls", input: { path: "/workspace" } },
];

/** Exec ids and durations vary per run; everything else must be equal. */
function normalise(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/"(durationMs|elapsedMs)":\d+/g, '"$1":0'),
  );
}

async function describeAI(tools: ToolSet) {
  const out: Record<string, { description?: unknown; schema: unknown }> = {};
  for (const [name, tool] of Object.entries(tools)) {
    out[name] = { description: tool.description, schema: await asSchema(tool.inputSchema as never).jsonSchema };
  }
  return out;
}

/** Runs SCRIPT through generateText with a mock model issuing one call per step. */
async function runAIScript(tools: ToolSet): Promise<unknown[]> {
  const script = SCRIPT.filter((call) => call.name in tools);
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      const call = script[step];
      const index = step++;
      return {
        content: call
          ? [{ type: "tool-call" as const, toolCallId: `call-${index}`, toolName: call.name, input: JSON.stringify(call.input) }]
          : [{ type: "text" as const, text: "done" }],
        finishReason: { unified: call ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
        usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  const result = await generateText({ model, prompt: "run the script", tools, stopWhen: stepCountIs(script.length + 1) });
  return result.steps.flatMap((s) => s.content.filter((part) => part.type === "tool-result" || part.type === "tool-error"));
}

async function localWorkspace<T>(stub: ReturnType<typeof agent>, run: (workspace: Workspace) => Promise<T>): Promise<T> {
  return runInDurableObject(stub, (instance) => run((instance as unknown as Record<symbol, Workspace>)[WORKSPACE]));
}

describe("tools from a client match tools from the Workspace", () => {
  it("AI SDK: same names, descriptions, schemas and results", async () => {
    const localAgent = agent();
    const local = await localWorkspace(localAgent, async (workspace) => {
      const tools = createAITools({ workspace });
      return { described: await describeAI(tools), results: normalise(await runAIScript(tools)) };
    });
    using client = await getWorkspace(agent());
    const tools = createAITools({ workspace: client });
    const remote = { described: await describeAI(tools), results: normalise(await runAIScript(tools)) };

    expect(Object.keys(remote.described)).toEqual(Object.keys(local.described));
    expect(Object.keys(remote.described).slice(0, 7)).toEqual(["read", "ls", "find", "grep", "write", "edit", "delete"]);
    expect(remote.described).toEqual(local.described);
    expect(remote.results).toEqual(local.results);
    // The script really ran: the edit landed and the last ls shows the app directory gone.
    expect(JSON.stringify(remote.results)).toContain("hello ${n}");
    expect(JSON.stringify(remote.results)).toContain("// line 2\\n// line 3");
    expect((remote.results as unknown[]).length).toBe(SCRIPT.filter((c) => c.name in tools).length);
  });

  it("pi and TanStack: same declarations from a client as from the Workspace", async () => {
    const local = await localWorkspace(agent(), async (workspace) => ({
      pi: createPiTools({ workspace }).tools,
      tanstack: createTanStackTools({ workspace, approve: "mutating" }).map((t) => ({ name: t.name, description: t.description, needsApproval: t.needsApproval ?? false })),
    }));
    using client = await getWorkspace(agent());
    const pi = createPiTools({ workspace: client }).tools;
    const tanstack = createTanStackTools({ workspace: client, approve: "mutating" }).map((t) => ({
      name: t.name,
      description: t.description,
      needsApproval: t.needsApproval ?? false,
    }));
    expect(JSON.parse(JSON.stringify(pi))).toEqual(JSON.parse(JSON.stringify(local.pi)));
    expect(tanstack).toEqual(local.tanstack);
  });
});
