/**
 * tool-dirs-agent: TOOL.md directory tools, shipped with the Worker, synced
 * into a Durable Object's Workspace and offered to each agent library.
 *
 *   POST /ai?session=<name>        AI SDK generateText        → JSON TurnReply
 *   POST /pi?session=<name>        pi tool loop               → JSON TurnReply
 *   POST /tanstack?session=<name>  TanStack AI chat()         → JSON TurnReply
 *
 * Every route plays the same SCRIPTED plan (no API key needed): text_stats
 * (TypeScript, streams progress, signs with the STATS_SIGNING_KEY secret),
 * then word_freq (bash), then a reply quoting both results.
 */
import type { Env } from "./agent.js";

export { ToolAgent } from "./agent.js";

const ROUTES = { "/ai": "ai", "/pi": "pi", "/tanstack": "tanstack" } as const;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const route = ROUTES[url.pathname as keyof typeof ROUTES];
    if (!route || request.method !== "POST") return new Response("tool-dirs-agent: POST /ai, /pi or /tanstack\n", { status: 404 });
    const agent = env.AGENT.getByName(url.searchParams.get("session") ?? "default");
    return Response.json(await agent[route]());
  },
} satisfies ExportedHandler<Env>;
