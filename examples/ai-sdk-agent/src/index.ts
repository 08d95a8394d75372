/**
 * The ai-sdk-agent Worker.
 *
 *   PUT  /files/<absolute path>?session=<name>   body → a file in that agent's Workspace (streamed over RPC)
 *   POST /run?session=<name>                     JSON RunRequest → NDJSON transcript, streamed
 *   GET  /files/<absolute path>?session=<name>   the file, streamed back
 *
 * Each session name is one Durable Object, so one durable Workspace.
 */
import { getWorkspace } from "../../../src/index.js";
import type { Env } from "./env.js";
import type { RunRequest } from "./agent.js";

export { Agent } from "./agent.js";

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const session = url.searchParams.get("session") ?? "default";
    const agent = env.AGENT.getByName(session);

    if (url.pathname.startsWith("/files/")) {
      const path = decodeURIComponent(url.pathname.slice("/files".length));
      using workspace = await getWorkspace(agent);
      if (request.method === "PUT") {
        const parent = path.slice(0, path.lastIndexOf("/")) || "/";
        await workspace.fs.mkdir(parent, { recursive: true });
        await workspace.fs.writeFile(path, request.body ?? "");
        return new Response(null, { status: 204 });
      }
      if (request.method === "GET") {
        try {
          return new Response(await workspace.fs.readFile(path));
        } catch (error) {
          const code = (error as { code?: string }).code;
          return new Response(String((error as Error).message), { status: code === "ENOENT" ? 404 : 400 });
        }
      }
    }

    if (url.pathname === "/run" && request.method === "POST") {
      const body = (await request.json()) as RunRequest;
      return new Response(await agent.run(body), { headers: { "content-type": "application/x-ndjson" } });
    }

    return new Response("ai-sdk-agent: PUT /files/<path>, POST /run (see README.md)\n", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
