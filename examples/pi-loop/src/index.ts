/**
 * pi-loop: a custom pi (`@earendil-works/pi-ai` 1.x) tool loop over a
 * Workspace, in a Durable Object. `createPiTools` returns the declarations for
 * `Context.tools` and the `execute` that runs a call; the loop calls
 * `models.complete` and pushes each result back as a `toolResult` message
 * (seed 000, "pi"). pi 0.74 has no `Models` collection: there the call is the
 * top-level `complete(model, context, { apiKey })` (see README.md).
 *
 *   POST /chat?session=<name>   { "prompt": "…" } → JSON { text, steps, messages }
 *
 * Model: Anthropic when ANTHROPIC_API_KEY is set, OpenAI when OPENAI_API_KEY is
 * set (PI_MODEL overrides the id), else pi's faux provider playing a SCRIPTED
 * model (lists the Workspace, writes a note, answers).
 *
 * In your project, import from "agent-computer" and "agent-computer/tools/pi-ai"
 * where this file imports from "../../../src".
 */
import { DurableObject } from "cloudflare:workers";
import {
  createModels,
  fauxAssistantMessage,
  fauxProvider,
  fauxText,
  fauxToolCall,
  type Api,
  type Context,
  type FauxProviderHandle,
  type Message,
  type Model,
  type Models,
} from "@earendil-works/pi-ai";
import { anthropicProvider } from "@earendil-works/pi-ai/providers/anthropic";
import { openaiProvider } from "@earendil-works/pi-ai/providers/openai";
import { getWorkspace, withWorkspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

export interface Env {
  AGENT: DurableObjectNamespace<PiAgent>;
  ANTHROPIC_API_KEY?: string;
  OPENAI_API_KEY?: string;
  PI_MODEL?: string;
}

const MAX_STEPS = 12;

/**
 * What a turn returns over RPC. `messages` are pi's messages as plain JSON:
 * pi 1.x types tool-result `details` as recursive JSON, which is too deep for
 * the Durable Object stub's types, so they are not spelled out here.
 */
export interface ChatReply {
  model: string;
  text: string;
  steps: number;
  messages: Array<{ role: Message["role"] } & Record<string, unknown>>;
}

class Base extends DurableObject<Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
}

export class PiAgent extends withWorkspace(Base, (self) => ({ storage: self.storage })) {
  async chat(prompt: string): Promise<ChatReply> {
    using workspace = await getWorkspace(this);
    await workspace.fs.mkdir("/workspace", { recursive: true });
    const { tools, execute } = createPiTools({ workspace });
    const { models, model, apiKey, label } = chooseModel(this.env);
    return this.#loop(models, model, apiKey, label, tools, execute, prompt);
  }

  async #loop(
    models: Models,
    model: Model<Api>,
    apiKey: string | undefined,
    label: string,
    tools: ReturnType<typeof createPiTools>["tools"],
    execute: ReturnType<typeof createPiTools>["execute"],
    prompt: string,
  ): Promise<ChatReply> {
    const messages: Message[] = [{ role: "user", content: prompt, timestamp: Date.now() }];
    const context: Context = {
      systemPrompt: "You are an agent with a durable Workspace at /workspace. Use the tools; paths are absolute.",
      messages,
      tools,
    };
    let steps = 0;
    for (; steps < MAX_STEPS; steps++) {
      // pi 0.74: `complete(model, context, { apiKey })`, imported from "@earendil-works/pi-ai".
      const message = await models.complete(model, context, { apiKey });
      messages.push(message);
      const calls = message.content.filter((block) => block.type === "toolCall");
      if (calls.length === 0) break;
      for (const block of calls) {
        const { content, isError } = await execute(block);
        messages.push({
          role: "toolResult",
          toolCallId: block.id,
          toolName: block.name,
          content,
          isError,
          timestamp: Date.now(),
        });
      }
    }
    const last = messages.at(-1);
    const text =
      last?.role === "assistant"
        ? last.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n")
        : "(stopped after the step limit)";
    return { model: label, text, steps, messages: messages as ChatReply["messages"] };
  }
}

/** A `Models` collection per turn holding the one provider this turn uses, and its model. */
function chooseModel(env: Env): { models: Models; model: Model<Api>; apiKey?: string; label: string } {
  const models = createModels();
  if (env.ANTHROPIC_API_KEY) {
    models.setProvider(anthropicProvider());
    const model = lookup(models, "anthropic", env.PI_MODEL ?? "claude-sonnet-4-5");
    return { models, model, apiKey: env.ANTHROPIC_API_KEY, label: `anthropic:${model.id}` };
  }
  if (env.OPENAI_API_KEY) {
    models.setProvider(openaiProvider());
    const model = lookup(models, "openai", env.PI_MODEL ?? "gpt-4.1-mini");
    return { models, model, apiKey: env.OPENAI_API_KEY, label: `openai:${model.id}` };
  }
  const faux = scriptedModel();
  models.setProvider(faux.provider);
  return { models, model: faux.getModel(), label: "SCRIPTED (pi faux provider; no model credentials set)" };
}

function lookup(models: Models, provider: string, id: string): Model<Api> {
  const model = models.getModel(provider, id);
  if (!model) throw new Error(`pi-loop: no ${provider} model "${id}" in pi's catalog (PI_MODEL)`);
  return model;
}

/** pi's faux provider answering with a fixed plan: ls, write a note, then a reply that quotes the tool results. */
function scriptedModel(): FauxProviderHandle {
  const faux = fauxProvider({ provider: "scripted", models: [{ id: "pi-loop-scripted" }] });
  faux.setResponses([
    fauxAssistantMessage([fauxText("Scripted: list the Workspace."), fauxToolCall("ls", { path: "/workspace" })], { stopReason: "toolUse" }),
    (context) => {
      const listing = context.messages.at(-1);
      const seen = listing?.role === "toolResult" ? listing.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
      return fauxAssistantMessage(
        [fauxToolCall("write", { path: "/workspace/notes/pi-loop.md", content: `# pi-loop\n\nListing before this note:\n${seen}\n` })],
        { stopReason: "toolUse" },
      );
    },
    (context) => {
      const result = context.messages.at(-1);
      const ok = result?.role === "toolResult" && !result.isError;
      return fauxAssistantMessage(ok ? "SCRIPTED model: wrote /workspace/notes/pi-loop.md." : "SCRIPTED model: the write failed.");
    },
  ]);
  return faux;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/chat" || request.method !== "POST") return new Response("pi-loop: POST /chat { prompt }\n", { status: 404 });
    const { prompt } = (await request.json()) as { prompt?: string };
    if (typeof prompt !== "string" || prompt === "") return Response.json({ error: "body must be { prompt: string }" }, { status: 400 });
    const agent = env.AGENT.getByName(url.searchParams.get("session") ?? "default");
    return Response.json(await agent.chat(prompt));
  },
} satisfies ExportedHandler<Env>;
