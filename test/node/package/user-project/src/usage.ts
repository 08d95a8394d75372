/**
 * A user's code, written the way README.md shows each entry point, type-checked
 * against the packed package (test/node/package/pack.test.ts). No casts.
 */
import { DurableObject } from "cloudflare:workers";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { createModels, type Api, type Message, type Model } from "@earendil-works/pi-ai";
import { anthropicProvider } from "@earendil-works/pi-ai/providers/anthropic";
import { chat, toServerSentEventsResponse, type AnyTextAdapter, type ModelMessage } from "@tanstack/ai";
import { Workspace, getWorkspace, nodeSqliteStorage, withWorkspace } from "agent-computer";
import { createAssets } from "agent-computer/assets";
import { WorkspaceFileStore, createReadTool } from "agent-computer/tools";
import { createAITools } from "agent-computer/tools/ai-sdk";
import { createPiTools } from "agent-computer/tools/pi-ai";
import { createTanStackTools } from "agent-computer/tools/tanstack-ai";
import { WorkerJavaScriptBackend } from "agent-computer/backends/worker-javascript";
import { WorkerShellBackend } from "agent-computer/backends/worker-shell";
import jq from "agent-computer/shell/jq";
import core from "agent-computer/shell/core";
import curl from "agent-computer/shell/curl";
import htmlToMarkdown from "agent-computer/shell/html-to-markdown";
import python from "agent-computer/shell/python";
import sqlite from "agent-computer/shell/sqlite";
import jsExec from "agent-computer/shell/js-exec";
import yq from "agent-computer/shell/yq";
import file from "agent-computer/shell/file";
import xan from "agent-computer/shell/xan";
import { createToolBindings, forAISDKTools } from "agent-computer/modules/tools";

interface Env {
  AGENT: DurableObjectNamespace<Agent>;
  LOADER: WorkerLoader;
  ASSETS: R2Bucket;
  R2_ACCESS_KEY_ID: string;
  R2_SECRET_ACCESS_KEY: string;
  CLOUDFLARE_ACCOUNT_ID: string;
}

declare const model: LanguageModel;

// On Node: the Workspace over node:sqlite.
export async function onNode(): Promise<string> {
  const workspace = new Workspace({ storage: nodeSqliteStorage("./workspace.db") });
  return await workspace.fs.readFile("/workspace/notes.md", "utf8");
}

// A Durable Object that owns a Workspace.
class Base extends DurableObject<Env> {
  get storage() {
    return this.ctx.storage;
  }
  get loader() {
    return this.env.LOADER;
  }
  get bindings() {
    return this.env;
  }
}

export class Agent extends withWorkspace(Base, (self) => ({
  storage: self.storage,
  backends: [
    new WorkerJavaScriptBackend({ loader: self.loader }),
    new WorkerShellBackend({ loader: self.loader, commands: [jq, core, curl, htmlToMarkdown, python, sqlite, jsExec, yq, file, xan] }),
  ],
  assets: (ws) => createAssets({ ws, bucket: self.bindings.ASSETS, s3: { bucket: "agent-assets" }, env: self.bindings }),
})) {
  // The shell (docs/runtime.md)
  async countTodos(): Promise<string> {
    using workspace = await getWorkspace(this);
    using handle = await workspace.runtime.exec("grep -rn TODO . | wc -l", { backend: "worker-shell", encoding: "utf8" });
    return (await handle.result()).stdout;
  }

  // AI SDK
  async ask(prompt: string): Promise<string> {
    using workspace = await getWorkspace(this);
    const { text } = await generateText({
      model,
      prompt,
      tools: createAITools({ workspace }),
      stopWhen: stepCountIs(20),
    });
    return text;
  }

  // pi
  async piTurn(systemPrompt: string, messages: Message[]): Promise<Message[]> {
    const models = createModels();
    models.setProvider(anthropicProvider());
    const piModel: Model<Api> = models.getModel("anthropic", "claude-sonnet-4-5")!;
    using workspace = await getWorkspace(this);
    const { tools, execute } = createPiTools({ workspace });
    const message = await models.complete(piModel, { systemPrompt, messages, tools });
    messages.push(message);
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const { content, isError } = await execute(block);
      messages.push({ role: "toolResult", toolCallId: block.id, toolName: block.name, content, isError, timestamp: Date.now() });
    }
    return messages;
  }

  // TanStack AI
  async chatStream(adapter: AnyTextAdapter, messages: ModelMessage[]): Promise<Response> {
    const workspace = await getWorkspace(this);
    const abortController = new AbortController();
    const tools = createTanStackTools({ workspace, approve: "mutating" });
    return toServerSentEventsResponse(chat({ adapter, messages, tools, abortController }), { abortController });
  }

  // An exec whose result crosses RPC.
  async sum(numbers: number[]) {
    using workspace = await getWorkspace(this);
    using handle = await workspace.runtime.exec(
      `export default async function (input) { return input.reduce((a, b) => a + b, 0); }`,
      { input: numbers },
    );
    return await handle.result();
  }
}

// The agent's own tools as `ws:tools` for code run by exec.
export function withToolModule(env: Env, storage: DurableObjectStorage): Workspace {
  const workspace = new Workspace({ storage });
  const backend = new WorkerJavaScriptBackend({
    loader: env.LOADER,
    modules: { "ws:tools": createToolBindings(forAISDKTools(createAITools({ workspace }))) },
  });
  return new Workspace({ storage, backends: [backend] });
}

// One tool from agent-computer/tools.
export function readTool(workspace: Workspace) {
  return createReadTool({ store: new WorkspaceFileStore(workspace), maxLines: 2000 });
}

// A Worker that uses the object over RPC.
export default {
  async fetch(request, env): Promise<Response> {
    const agent = env.AGENT.getByName("alice");
    using workspace = await getWorkspace(agent);
    await workspace.fs.mkdir("/workspace", { recursive: true });
    await workspace.fs.writeFile("/workspace/notes.md", "# Notes\n");
    const result = await agent.sum([1, 2, 3]);
    const text = await agent.ask("Add a test for parse() and run it.");
    return Response.json({ exitCode: result.exitCode, value: result.value, stdout: result.stdout, text });
  },
} satisfies ExportedHandler<Env>;
