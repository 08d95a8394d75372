/**
 * The container-agent Worker (seed 004).
 *
 *   POST /run?session=<name>                    one agent turn → JSON TurnResult (agent.ts)
 *   GET  /files/<absolute path>?session=<name>  a file of that agent's Workspace
 *
 * Each session name is one Durable Object: one durable Workspace and one
 * container. The container's HTTP back to its object arrives through
 * `WorkspaceProxy`, which must be exported from this main module.
 */
import type { Env } from "./env.js";

export { Agent } from "./agent.js";
export { WorkspaceProxy } from "../../../src/backends/container/index.js";

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const agent = env.AGENT.getByName(url.searchParams.get("session") ?? "default");

    if (url.pathname === "/run" && request.method === "POST") {
      return Response.json(await agent.run());
    }
    if (url.pathname.startsWith("/files/") && request.method === "GET") {
      const path = decodeURIComponent(url.pathname.slice("/files".length));
      try {
        return new Response(await agent.readFile(path));
      } catch (error) {
        return new Response(String((error as Error).message), { status: 404 });
      }
    }
    return new Response("container-agent: POST /run, GET /files/<path> (see README.md)\n", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
