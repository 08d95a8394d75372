/**
 * vitest global setup (workers project): a loopback HTTP server in vitest's
 * main process that Dynamic Workers and Durable Objects of the workerd suite
 * can `fetch` (issue 16: a replayed `fetch` must be served from the journal,
 * not sent again). Its base URL (`http://127.0.0.1:<port>`) reaches the tests
 * as `inject("httpServer")`.
 *
 * Routes (every answer is `text/plain`, status 200 unless said otherwise):
 * - `GET|POST /echo?…` → `<METHOD> <path+query> <request body>`.
 * - `GET /count/<key>` → the number of requests `/count/<key>` received so
 *   far, this one included (a per-key counter, so a test sees how often a
 *   request was really sent). `GET /counted/<key>` reads it without counting.
 * - `GET /slow/<key>?ms=<n>` → counts like `/count/<key>` (under `slow:<key>`);
 *   the first request for a key answers `slow 1` after `n` ms (default 1000),
 *   later ones answer `slow <count>` at once (so a request cut by a restart
 *   and sent again finishes).
 * - anything else → 404 `no route <path>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback HTTP server (`http://127.0.0.1:<port>`), issue 16 tests. */
    httpServer: string;
  }
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const counts = new Map<string, number>();
  const count = (key: string): number => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  const reply = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    response.end(text);
  };
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const text = await body(request);
      if (url.pathname === "/echo") return reply(response, 200, `${request.method} ${url.pathname}${url.search} ${text}`);
      let m = /^\/count\/(.+)$/.exec(url.pathname);
      if (m) return reply(response, 200, String(count(m[1]!)));
      m = /^\/counted\/(.+)$/.exec(url.pathname);
      if (m) return reply(response, 200, String(counts.get(m[1]!) ?? 0));
      m = /^\/slow\/(.+)$/.exec(url.pathname);
      if (m) {
        const n = count(`slow:${m[1]!}`);
        if (n === 1) await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? "1000")));
        return reply(response, 200, `slow ${n}`);
      }
      reply(response, 404, `no route ${url.pathname}`);
    })().catch((error: unknown) => reply(response, 500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("httpServer", `http://127.0.0.1:${port}`);
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
