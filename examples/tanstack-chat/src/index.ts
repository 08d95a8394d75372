/**
 * tanstack-chat: TanStack AI `chat()` with the Workspace tools, streamed back
 * as server-sent events. Mutating tools (write, edit, delete, exec, publish)
 * carry TanStack's `needsApproval`, so the stream pauses on them until the
 * client approves (`approve: "mutating"`).
 *
 *   POST /chat?session=<name>   { "messages": [...] }  → text/event-stream
 *
 * Model: OpenAI through @tanstack/ai-openai when OPENAI_API_KEY is set
 * (CHAT_MODEL overrides the id), else a SCRIPTED adapter.
 *
 * In your project, import from "agent-computer" and "agent-computer/tools/tanstack-ai".
 */
import { DurableObject } from "cloudflare:workers";
import { chat, toServerSentEventsResponse } from "@tanstack/ai";
import { createOpenaiChat } from "@tanstack/ai-openai";
import { getWorkspace, withWorkspace } from "../../../src/index.js";
import { createTanStackTools } from "../../../src/tools/tanstack-ai.js";
import { scriptedAdapter } from "./scripted-adapter.js";

export interface Env {
  AGENT: DurableObjectNamespace<ChatAgent>;
  OPENAI_API_KEY?: string;
  CHAT_MODEL?: string;
}

class Base extends DurableObject<Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
}

export class ChatAgent extends withWorkspace(Base, (self) => ({ storage: self.storage })) {
  /** Runs one chat turn; resolves to the SSE response body. */
  async chat(messages: unknown[]): Promise<ReadableStream<Uint8Array>> {
    const workspace = await getWorkspace(this);
    await workspace.fs.mkdir("/workspace", { recursive: true });
    const adapter = this.env.OPENAI_API_KEY
      ? createOpenaiChat((this.env.CHAT_MODEL ?? "gpt-4.1-mini") as "gpt-4.1-mini", this.env.OPENAI_API_KEY)
      : scriptedAdapter();
    const abortController = new AbortController();
    const tools = createTanStackTools({ workspace, approve: "mutating" });
    const stream = chat({ adapter: adapter as never, messages: messages as never, tools: tools as never, abortController });
    const response = toServerSentEventsResponse(stream, { abortController });
    return response.body!;
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/chat" || request.method !== "POST") return new Response("tanstack-chat: POST /chat { messages }\n", { status: 404 });
    const body = (await request.json()) as { messages?: unknown };
    if (!Array.isArray(body.messages)) return Response.json({ error: "body must be { messages: [...] }" }, { status: 400 });
    const agent = env.AGENT.getByName(url.searchParams.get("session") ?? "default");
    return new Response(await agent.chat(body.messages), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  },
} satisfies ExportedHandler<Env>;
