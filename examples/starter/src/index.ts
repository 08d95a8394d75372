/**
 * agent-computer starter: a Durable Object that owns a Workspace, and a
 * Worker that uses it.
 *
 *   GET /?agent=<name>   writes a file, reads it back, runs JavaScript on it
 *                        with exec, and runs one agent turn whose model calls
 *                        the `read` tool. Each <name> is its own Durable
 *                        Object, so its own durable Workspace.
 */
import { DurableObject } from "cloudflare:workers";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { getWorkspace, withWorkspace } from "agent-computer";
import { WorkerJavaScriptBackend } from "agent-computer/backends/worker-javascript";
import { createAITools } from "agent-computer/tools/ai-sdk";

export interface Env {
  AGENT: DurableObjectNamespace<Agent>;
  LOADER: WorkerLoader;
}

class Base extends DurableObject<Env> {
  // ctx and env are protected: expose what the Workspace options need.
  get storage() {
    return this.ctx.storage;
  }
  get loader() {
    return this.env.LOADER;
  }
}

export class Agent extends withWorkspace(Base, (self) => ({
  storage: self.storage,
  backends: [new WorkerJavaScriptBackend({ loader: self.loader })],
})) {
  /** One agent turn with the AI SDK's generateText loop and the Workspace tools. */
  async ask(prompt: string): Promise<string> {
    using workspace = await getWorkspace(this);
    const { text } = await generateText({
      model: scriptedModel(), // put a real model here, e.g. openai("gpt-4.1-mini") from @ai-sdk/openai
      prompt,
      tools: createAITools({ workspace }),
      stopWhen: stepCountIs(5),
    });
    return text;
  }
}

export default {
  async fetch(request, env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/") return new Response("not found\n", { status: 404 });
    const agent = env.AGENT.getByName(url.searchParams.get("agent") ?? "demo");

    // A client for the object's Workspace, over RPC.
    using workspace = await getWorkspace(agent);
    const lines: string[] = [];

    // 1. Write a file and read it back. A new Workspace is empty: make /workspace first.
    await workspace.fs.mkdir("/workspace", { recursive: true });
    await workspace.fs.writeFile("/workspace/hello.txt", "Hello from a Durable Object\n");
    const text = await workspace.fs.readFile("/workspace/hello.txt", "utf8");
    lines.push(`read: ${text.trim()}`);

    // 2. Run JavaScript against the Workspace's files (a fresh Dynamic Worker per run).
    using handle = await workspace.runtime.exec(
      `import { readFile } from "node:fs/promises";
       export default async function () {
         const text = await readFile("hello.txt", "utf8");
         console.log("words:", text.split(/\\s+/).filter(Boolean).length);
         return text.trim().toUpperCase();
       }`,
      { encoding: "utf8" },
    );
    const result = await handle.result();
    lines.push(`exec: ${result.status}, exit ${result.exitCode}, stdout ${JSON.stringify(result.stdout)}, value ${JSON.stringify(result.value)}`);

    // 3. One agent turn inside the object: the (scripted) model calls `read`, then answers.
    lines.push(`agent: ${await agent.ask("What does /workspace/hello.txt say?")}`);

    return new Response(lines.join("\n") + "\n", { headers: { "content-type": "text/plain; charset=utf-8" } });
  },
} satisfies ExportedHandler<Env>;

/**
 * A scripted stand-in for a real model, so the starter runs with no API key:
 * the first step calls the `read` tool on /workspace/hello.txt, the second
 * answers with what the tool returned.
 */
function scriptedModel() {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  return new MockLanguageModelV4({
    modelId: "scripted",
    doGenerate: async ({ prompt }) => {
      const toolResult = prompt.flatMap((m) => (m.role === "tool" ? m.content : [])).find((part) => part.type === "tool-result");
      if (!toolResult) {
        const input = JSON.stringify({ path: "/workspace/hello.txt" });
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: "read", input }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        };
      }
      const output = JSON.stringify(toolResult.output);
      const saw = /Hello from a Durable Object/.test(output) ? "Hello from a Durable Object" : `something else: ${output}`;
      return {
        content: [{ type: "text", text: `The read tool says the file contains "${saw}".` }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
