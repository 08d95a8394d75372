/**
 * The agent: a Durable Object whose Workspace gets seed tools from the Worker
 * bundle (`WorkerBundle("seed-tools")`, read-only at /seed/tools), copies
 * them into /workspace/tools with `syncToolDirectories` (a seed replaces a
 * copy only when its `version` is higher, so the agent's own edits survive),
 * loads them with `loadToolDirectories`, and offers them after read, ls, find,
 * grep, write, edit, delete and exec through the `toolDirectories` option of
 * each library's tool set. The TypeScript tool runs in the worker-javascript
 * backend and streams progress; the bash tool runs in the worker-shell backend.
 *
 * In your project, import from "agent-computer", "agent-computer/tool-dirs",
 * "agent-computer/tools/ai-sdk", "agent-computer/tools/pi-ai",
 * "agent-computer/tools/tanstack-ai", "agent-computer/backends/worker-javascript"
 * and "agent-computer/backends/worker-shell" instead of ../../../src.
 */
import { DurableObject } from "cloudflare:workers";
import { generateText, stepCountIs, type ToolSet } from "ai";
import { createModels, type Context, type Message } from "@earendil-works/pi-ai";
import { chat, maxIterations } from "@tanstack/ai";
import { WorkerBundle, getWorkspace, withWorkspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { loadToolDirectories, syncToolDirectories, type DirectoryToolsOptions } from "../../../src/tool-dirs/index.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { PLAN, ScriptedAIModel, scriptedPi, scriptedTanStack } from "./scripted.js";

export interface Env {
  AGENT: DurableObjectNamespace<ToolAgent>;
  LOADER: WorkerLoader;
  /** The text_stats tool's secret (it signs its summary with it). */
  STATS_SIGNING_KEY?: string;
}

/** Where the seed tools are mounted, and where the agent's copies live. */
export const SEED_DIR = "/seed/tools";
export const TOOLS_DIR = "/workspace/tools";

/** One tool call of the turn: its input, the progress it streamed, and the result the library handed the model. */
export interface CallRecord {
  id: string;
  name: string;
  input: unknown;
  progress: string[];
  result: unknown;
}

/** What a turn returns (plain JSON). */
export interface TurnReply {
  library: "ai-sdk" | "pi" | "tanstack";
  model: string;
  /** The tool names offered, in order. */
  tools: string[];
  sync: { copied: string[]; kept: string[]; skipped: Array<{ dir: string; reason: string }> };
  /** Seed tools the loader did not load, with the reason. */
  skipped: Array<{ name?: string; code: string; reason: string }>;
  calls: CallRecord[];
  text: string;
}

/** The files the tools work on, written before every turn. */
const NOTES: Record<string, string> = {
  "/workspace/notes/a.md": "the quick brown fox\njumps over the lazy dog\nthe fox sleeps\n",
  "/workspace/notes/b.md": "hello world\n",
};

class Base extends DurableObject<Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get bindings(): Env {
    return this.env;
  }
}

export class ToolAgent extends withWorkspace(Base, (self) => ({
  storage: self.storage,
  backends: [new WorkerJavaScriptBackend({ loader: self.bindings.LOADER }), new WorkerShellBackend({ loader: self.bindings.LOADER })],
  // The seed: files shipped with the Worker (wrangler.toml ships seed-tools/ as Data modules).
  mounts: { [SEED_DIR]: WorkerBundle("seed-tools") },
})) {
  /** Sync the seed into the data directory, load it, and write the notes. */
  async #prepare() {
    const workspace = await getWorkspace(this); // awaits ready(): the seed mount is in place
    const report = await syncToolDirectories({ workspace, from: SEED_DIR, to: TOOLS_DIR });
    const loaded = await loadToolDirectories({ workspace, dirs: [TOOLS_DIR] });
    for (const [path, text] of Object.entries(NOTES)) {
      await workspace.fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await workspace.fs.writeFile(path, text);
    }
    // Worker secrets for the tools; each tool receives only the names its TOOL.md lists under env:.
    const env: Record<string, string> = {};
    if (this.env.STATS_SIGNING_KEY !== undefined) env.STATS_SIGNING_KEY = this.env.STATS_SIGNING_KEY;
    const toolDirectories: DirectoryToolsOptions = { ...loaded, env };
    const base = {
      sync: {
        copied: report.copied.map((c) => c.name),
        kept: report.kept.map((k) => k.name),
        skipped: report.skipped.map((s) => ({ dir: s.dir, reason: s.reason })),
      },
      skipped: loaded.skipped.map((s) => ({ name: s.name, code: s.code, reason: s.reason })),
    };
    return { workspace, toolDirectories, base };
  }

  /** AI SDK `generateText`: progress arrives as preliminary results of the tool's `execute`. */
  async ai(): Promise<TurnReply> {
    const { workspace, toolDirectories, base } = await this.#prepare();
    using _ = workspace;
    const tools = createAITools({ workspace, toolDirectories });
    const calls: CallRecord[] = [];
    const result = await generateText({
      model: new ScriptedAIModel(),
      prompt: "Summarise the notes in /workspace/notes.",
      tools: record(tools, calls),
      stopWhen: stepCountIs(PLAN.length + 1),
    });
    return { library: "ai-sdk", model: "SCRIPTED (AI SDK LanguageModelV4)", tools: Object.keys(tools), ...base, calls, text: result.text };
  }

  /** pi: a tool loop over `models.complete`; `execute`'s `onUpdate` receives the progress. */
  async pi(): Promise<TurnReply> {
    const { workspace, toolDirectories, base } = await this.#prepare();
    using _ = workspace;
    const { tools, execute } = createPiTools({ workspace, toolDirectories });
    const models = createModels();
    const faux = scriptedPi();
    models.setProvider(faux.provider);
    const messages: Message[] = [{ role: "user", content: "Summarise the notes in /workspace/notes.", timestamp: Date.now() }];
    const context: Context = { systemPrompt: "You have a Workspace at /workspace.", messages, tools };
    const calls: CallRecord[] = [];
    for (let step = 0; step <= PLAN.length; step++) {
      const message = await models.complete(faux.getModel(), context);
      messages.push(message);
      const toolCalls = message.content.filter((block) => block.type === "toolCall");
      if (toolCalls.length === 0) break;
      for (const call of toolCalls) {
        const progress: string[] = [];
        const { content, isError } = await execute(call, { onUpdate: (partial) => progress.push(partial.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")) });
        calls.push({ id: call.id, name: call.name, input: call.arguments, progress, result: { content, isError } });
        messages.push({ role: "toolResult", toolCallId: call.id, toolName: call.name, content, isError, timestamp: Date.now() });
      }
    }
    const last = messages.at(-1);
    const text = last?.role === "assistant" ? last.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n") : "";
    return { library: "pi", model: "SCRIPTED (pi faux provider)", tools: tools.map((t) => t.name), ...base, calls, text };
  }

  /** TanStack AI `chat()`: progress arrives as custom events named by `streamEventName`. */
  async tanstack(): Promise<TurnReply> {
    const { workspace, toolDirectories, base } = await this.#prepare();
    using _ = workspace;
    const tools = createTanStackTools({ workspace, toolDirectories, streamEventName: "tool-progress" });
    const stream = chat({
      adapter: scriptedTanStack() as never,
      messages: [{ role: "user", content: "Summarise the notes in /workspace/notes." }],
      tools: tools as never,
      agentLoopStrategy: maxIterations(PLAN.length + 1),
    });
    const calls = new Map<string, CallRecord>();
    let text = "";
    for await (const chunk of stream as AsyncIterable<Record<string, unknown>>) {
      if (chunk.type === "TOOL_CALL_START") {
        const id = chunk.toolCallId as string;
        calls.set(id, { id, name: chunk.toolName as string, input: undefined, progress: [], result: undefined });
      } else if (chunk.type === "TOOL_CALL_END") {
        const call = calls.get(chunk.toolCallId as string);
        if (call) call.input = chunk.input;
      } else if (chunk.type === "CUSTOM" && chunk.name === "tool-progress") {
        const value = chunk.value as { toolCallId: string; snapshot: { content: Array<{ text: string }> } };
        calls.get(value.toolCallId)?.progress.push(value.snapshot.content.map((c) => c.text).join("\n"));
      } else if (chunk.type === "TOOL_CALL_RESULT") {
        const call = calls.get(chunk.toolCallId as string);
        if (call) call.result = chunk.content;
      } else if (chunk.type === "TEXT_MESSAGE_CONTENT") {
        text += chunk.delta as string;
      }
    }
    return { library: "tanstack", model: "SCRIPTED (TanStack AI adapter)", tools: tools.map((t) => t.name), ...base, calls: [...calls.values()], text };
  }
}

/**
 * Wraps each directory tool's `execute` (an async iterable for these tools)
 * to record what it yields: every value but the last is a preliminary result
 * (the tool's progress), the last is the result the model sees.
 */
function record(tools: ToolSet, calls: CallRecord[]): ToolSet {
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (!execute) {
      out[name] = tool;
      continue;
    }
    out[name] = {
      ...tool,
      execute: (input: unknown, options: Parameters<typeof execute>[1]) => {
        const output = execute(input as never, options) as unknown;
        if (!output || typeof output !== "object" || !(Symbol.asyncIterator in output)) return output as never;
        const call: CallRecord = { id: options.toolCallId, name, input, progress: [], result: undefined };
        calls.push(call);
        return (async function* () {
          const values: unknown[] = [];
          for await (const value of output as AsyncIterable<unknown>) {
            values.push(value);
            yield value;
          }
          call.result = values.pop();
          call.progress = values.map((v) => String(v));
        })() as never;
      },
    } as ToolSet[string];
  }
  return out;
}
